package tabular

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
)

// parseAll reads every record with the parser: the records (copied), or
// the first error.
func parseAll(data []byte, comma byte, lazy bool) ([][]string, []int64, error) {
	p := newCSVParser(bytes.NewReader(data), comma, lazy)
	var recs [][]string
	var lines []int64
	for {
		rec, err := p.read()
		if err == io.EOF {
			return recs, lines, nil
		}
		if err != nil {
			return recs, lines, err
		}
		recs = append(recs, slices.Clone(rec))
		lines = append(lines, p.recLine)
	}
}

// stdAll is parseAll with encoding/csv, the oracle.
func stdAll(data []byte, comma byte, lazy bool) ([][]string, []int64, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma, r.LazyQuotes, r.FieldsPerRecord = rune(comma), lazy, -1
	var recs [][]string
	var lines []int64
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return recs, lines, nil
		}
		if err != nil {
			return recs, lines, err
		}
		line, _ := r.FieldPos(0)
		recs = append(recs, rec)
		lines = append(lines, int64(line))
	}
}

// A quoted cell keeps its bytes exactly, CR LF included; everything else
// reads as encoding/csv reads it.
func TestCSVParser(t *testing.T) {
	for _, c := range []struct {
		name, in string
		lazy     bool
		want     [][]string
		err      error
	}{
		{"plain", "a,b\n1,2\n", false, [][]string{{"a", "b"}, {"1", "2"}}, nil},
		{"crlf records", "a,b\r\n1,2\r\n", false, [][]string{{"a", "b"}, {"1", "2"}}, nil},
		{"crlf inside quotes kept", "a,b\r\n\"x\r\ny\",2\r\n", false, [][]string{{"a", "b"}, {"x\r\ny", "2"}}, nil},
		{"lf inside quotes kept", "a\n\"x\ny\"\n", false, [][]string{{"a"}, {"x\ny"}}, nil},
		{"lone cr kept", "a\nx\ry\n", false, [][]string{{"a"}, {"x\ry"}}, nil},
		{"cr before eof dropped", "a\nx\r", false, [][]string{{"a"}, {"x"}}, nil},
		{"doubled quote", "\"a\"\"b\",c\n", false, [][]string{{"a\"b", "c"}}, nil},
		{"empty lines skipped", "a\n\n\r\nb\n", false, [][]string{{"a"}, {"b"}}, nil},
		{"empty cells", ",\n", false, [][]string{{"", ""}}, nil},
		{"no final newline", "a,b", false, [][]string{{"a", "b"}}, nil},
		{"bare quote", "a\"b\n", false, nil, errBareQuote},
		{"quote after quoted", "\"a\"b\n", false, nil, errQuote},
		{"unterminated", "\"abc\n", false, nil, errQuote},
		{"lazy bare quote", "a\"b\n", true, [][]string{{"a\"b"}}, nil},
		{"lazy quote after quoted", "\"a\"b\"\n", true, [][]string{{"a\"b"}}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, _, err := parseAll([]byte(c.in), ',', c.lazy)
			if !errors.Is(err, c.err) {
				t.Fatalf("error %v, want %v", err, c.err)
			}
			if c.err == nil && !slices.EqualFunc(got, c.want, slices.Equal) {
				t.Fatalf("records %q, want %q", got, c.want)
			}
		})
	}
}

// The field count is checked against the header's.
func TestCSVParserFieldCount(t *testing.T) {
	p := newCSVParser(strings.NewReader("a,b\n1\n"), ',', false)
	p.want = 2
	if _, err := p.read(); err != nil {
		t.Fatal(err)
	}
	_, err := p.read()
	var ce *csvError
	if !errors.As(err, &ce) || ce.err != errFieldCount || ce.line != 2 {
		t.Fatalf("got %v, want a wrong number of cells on line 2", err)
	}
}

// FuzzCSVParser checks the parser against encoding/csv: the same records
// on the same lines, or an error from both, once encoding/csv's one
// change to a quoted cell (CR LF to LF) is made to ours.
func FuzzCSVParser(f *testing.F) {
	for _, s := range csvSeeds {
		f.Add([]byte(s), false)
	}
	f.Add([]byte("a,b\r\n\"x\r\ny\"\"\",\"\r\n\"\r\n"), false)
	f.Add([]byte("a\tb\n\"x\"y\tz\"\n"), true)
	f.Fuzz(func(t *testing.T, data []byte, lazy bool) {
		comma := byte(',')
		if lazy {
			comma = '\t'
		}
		got, gotLines, err := parseAll(data, comma, lazy)
		want, wantLines, werr := stdAll(data, comma, lazy)
		if (err == nil) != (werr == nil) {
			t.Fatalf("%q: error %v, encoding/csv %v", data, err, werr)
		}
		for _, rec := range got {
			for i := range rec {
				rec[i] = strings.ReplaceAll(rec[i], "\r\n", "\n")
			}
		}
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("%q: records %q, encoding/csv %q", data, got, want)
		}
		if err == nil && !slices.Equal(gotLines, wantLines) {
			t.Fatalf("%q: records start on lines %v, encoding/csv %v", data, gotLines, wantLines)
		}
	})
}
