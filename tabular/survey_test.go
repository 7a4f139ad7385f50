package tabular

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// rowsRead counts the rows a reader yields and returns its SHA-256; ok
// is false when a row is malformed.
func rowsRead(t *testing.T, p, format string) (int64, string, bool) {
	rd, err := Open(p, format)
	if err != nil {
		return 0, "", false
	}
	defer rd.Close()
	var r Row
	var n int64
	for {
		err := rd.Next(&r)
		if errors.Is(err, io.EOF) {
			return n, rd.SHA256(), true
		}
		if err != nil {
			return 0, "", false
		}
		n++
	}
}

// checkSurvey compares SurveyFile with a read of every row: when the
// survey counts, it counts what the reader yields, with the same hash.
func checkSurvey(t *testing.T, format string, data []byte) Survey {
	p := filepath.Join(t.TempDir(), "in."+format)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	sv, err := SurveyFile(p, format)
	if err != nil {
		t.Fatalf("survey: %v", err)
	}
	n, sha, ok := rowsRead(t, p, format)
	if sv.OK && ok && (sv.Rows != n || sv.SHA256 != sha) {
		t.Fatalf("survey of %q: %d rows, %s; the reader yields %d, %s", data, sv.Rows, sv.SHA256, n, sha)
	}
	return sv
}

func TestSurveyFile(t *testing.T) {
	for _, c := range []struct {
		in   string
		ok   bool
		rows int64
	}{
		{"a,b\n1,2\n3,4\n", true, 2},
		{"a,b\n1,2\n3,4", true, 2},             // no final line break
		{"a,b\r\n1,2\r\n\r\n3,4\r\n", true, 2}, // an empty CR LF line
		{"\n\na,b\n\n1,2\n\n", true, 1},
		{"a,b\n1,2\n\r", true, 1}, // a CR before the end
		{"a,b\n", true, 0},
		{"", true, 0},
		{"a,b\n\"1\",2\n", false, 0},
		{"a,b\n\"x\ny\",2\n", false, 0},
	} {
		sv := checkSurvey(t, "csv", []byte(c.in))
		if sv.OK != c.ok || sv.Rows != c.rows {
			t.Errorf("survey of %q: %+v, want ok %v and %d rows", c.in, sv, c.ok, c.rows)
		}
	}
	for _, name := range []string{"in.jsonl", "in.csv.gz"} {
		p := filepath.Join(t.TempDir(), name)
		os.WriteFile(p, []byte("x\n"), 0o644)
		if sv, err := SurveyFile(p, ""); err != nil || sv.OK {
			t.Errorf("%s: %+v %v, want no count", name, sv, err)
		}
	}
	p := filepath.Join(t.TempDir(), "in.parquet")
	b := "b"
	writeParquet(t, p, []fuzzRow{{"a", &b, time.Unix(1, 0), 1, "R", 1}, {"c", nil, time.Unix(2, 0), 2, "R", 2}, {"e", &b, time.Unix(3, 0), 3, "R", 3}})
	sv, err := SurveyFile(p, "")
	n, sha, _ := rowsRead(t, p, "parquet")
	if err != nil || !sv.OK || sv.Rows != 3 || n != 3 || sv.SHA256 != sha {
		t.Errorf("parquet survey %+v %v; the reader yields %d rows, %s", sv, err, n, sha)
	}
}

// FuzzSurvey checks SurveyFile against the reader on any CSV or TSV.
func FuzzSurvey(f *testing.F) {
	for _, s := range csvSeeds {
		f.Add([]byte(s), false)
		f.Add(bytes.ReplaceAll([]byte(s), []byte("\""), nil), true)
	}
	f.Add([]byte("a\tb\r\n\r\r\n1\t2\n\r"), true)
	f.Fuzz(func(t *testing.T, data []byte, tsv bool) {
		format := "csv"
		if tsv {
			format = "tsv"
		}
		checkSurvey(t, format, data)
	})
}
