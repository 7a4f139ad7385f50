package canon_test

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tgms-go/tgms/canon"
)

// FuzzParse checks that Parse never panics, that it accepts only valid JSON,
// and that Canonicalize is idempotent and value-preserving.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`null`, `true`, `false`, `0`, `-0`, `1.0`, `-0.0`, `1e2`, `1E-7`, `1e16`, `1.5e+16`,
		`123456789012345.6`, `5e-324`, `1.7976931348623157e308`, `9223372036854775807`,
		`-9223372036854775808`, `9223372036854775808`, `1e400`, `01`, `1.`, `.5`,
		`""`, `"\u2028<>&/\u007f\u001f"`, `"\ud83d\ude00"`, `"\ud800"`, `"\udc00"`, `"\x"`,
		`"é日😀"`, "\"\xff\"", "\"a\tb\"",
		`[]`, `{}`, `[1,2,]`, `{"a":1,}`, `{"a":1,"a":2}`, `[1,[2,[3,{"x":null}]]]`,
		` { "b" : [ 1 , 2.50 ] , "a" : { "é" : "\n" , "e" : "" } } `,
		`{"ab":1,"a":2,"abc":3,"":4}`, `["a","b","R",""]`, `[1] x`, `[`, `{"a"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := canon.Parse(data)
		if err != nil {
			if _, ok := err.(*canon.SyntaxError); !ok {
				t.Fatalf("Parse error %T is not *SyntaxError: %v", err, err)
			}
			return
		}
		if !json.Valid(data) {
			t.Fatalf("Parse accepted invalid JSON %q", data)
		}
		c1, err := canon.Marshal(v)
		if err != nil {
			t.Fatalf("Marshal(Parse(%q)): %v", data, err)
		}
		c2, err := canon.Canonicalize(data)
		if err != nil || !bytes.Equal(c1, c2) {
			t.Fatalf("Canonicalize(%q) = %q, %v; Marshal(Parse) = %q", data, c2, err, c1)
		}
		c3, err := canon.Canonicalize(c1)
		if err != nil || !bytes.Equal(c3, c1) {
			t.Fatalf("not a fixed point: %q -> %q -> %q (%v)", data, c1, c3, err)
		}
		v2, err := canon.Parse(c1)
		if err != nil || !canon.Equal(v, v2) {
			t.Fatalf("round trip of %q changed the value: %#v vs %#v", data, v, v2)
		}
		if !json.Valid(c1) {
			t.Fatalf("canonical form %q is not valid JSON", c1)
		}
	})
}

// FuzzParseString checks that ParseString agrees with Parse on every input:
// the same value, or the same error at the same offset.
func FuzzParseString(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"note":"corrected","revised":true}`, `{"a":[1,2.5,"x\ny"],"b":{"c":null}}`,
		`"\ud83d\ude00"`, "\"\xff\"", "\"é日😀\"", "\"\xe6\x97\"", `{"a":1,"a":2}`, `[1,]`, ` [ -0 , 1e2 ] `,
		`9223372036854775808`, `{"k":"\u0000"}`, `"\ud800"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, werr := canon.Parse([]byte(s))
		got, err := canon.ParseString(s)
		if (err == nil) != (werr == nil) || (err != nil && err.Error() != werr.Error()) {
			t.Fatalf("ParseString(%q) error %v, Parse error %v", s, err, werr)
		}
		if err == nil && !canon.Equal(got, want) {
			t.Fatalf("ParseString(%q) = %#v, Parse = %#v", s, got, want)
		}
	})
}

// FuzzAppendString checks that every valid UTF-8 string encodes to JSON that
// decodes back to itself, with nothing but the required escapes.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "a", "\x00\x1f\x7f", "\u2028<>&/", `"\`, "é😀", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := canon.Marshal(s)
		if !utf8.ValidString(s) {
			if err == nil {
				t.Fatalf("Marshal(%q) accepted invalid UTF-8", s)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, canon.AppendString(nil, s)) {
			t.Fatalf("Marshal and AppendString differ for %q", s)
		}
		var back string
		if err := json.Unmarshal(b, &back); err != nil || back != s {
			t.Fatalf("%q encodes as %s, which decodes to %q (%v)", s, b, back, err)
		}
		// Only quote, backslash and C0 controls are escaped, so the output is
		// the input plus two quotes plus the escape overhead.
		extra := 0
		for i := 0; i < len(s); i++ {
			switch c := s[i]; {
			case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f':
				extra++
			case c < 0x20:
				extra += 5
			}
		}
		if len(b) != len(s)+2+extra {
			t.Fatalf("%q encodes as %s: unexpected escapes", s, b)
		}
	})
}

// FuzzAppendFloat checks the float text: it parses back to the same bits,
// keeps a float marker, and uses the notation repr would.
func FuzzAppendFloat(f *testing.F) {
	for _, x := range []float64{0, 1, 0.1, 1e-5, 1e-4, 1e15, 1e16, 1.5e16, 5e-324, math.MaxFloat64} {
		f.Add(math.Float64bits(x))
	}
	f.Fuzz(func(t *testing.T, bits uint64) {
		x := math.Float64frombits(bits)
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return
		}
		s := string(canon.AppendFloat(nil, x))
		y, err := strconv.ParseFloat(s, 64)
		if err != nil || math.Float64bits(y) != bits {
			t.Fatalf("%016x -> %s -> %v, %v", bits, s, y, err)
		}
		a := math.Abs(x)
		exponential := a != 0 && (a < 1e-4 || a >= 1e16)
		if got := strings.Contains(s, "e"); got != exponential {
			t.Fatalf("%v -> %s: exponential=%v, want %v", x, s, got, exponential)
		}
		if exponential {
			mant, exp, _ := strings.Cut(s, "e")
			if strings.HasSuffix(mant, ".0") || (exp[0] != '+' && exp[0] != '-') || len(exp) < 3 ||
				(len(exp) > 3 && exp[1] == '0') {
				t.Fatalf("%v -> %s: bad exponential form", x, s)
			}
		} else if !strings.Contains(s, ".") || strings.HasSuffix(s, ".") {
			t.Fatalf("%v -> %s: bad fixed form", x, s)
		}
		// Same digits as the shortest round-trip form.
		digits := func(s string) string {
			s, _, _ = strings.Cut(strings.TrimLeft(s, "-"), "e")
			s = strings.ReplaceAll(s, ".", "")
			return strings.TrimRight(strings.TrimLeft(s, "0"), "0")
		}
		if want := strconv.FormatFloat(x, 'e', -1, 64); digits(s) != digits(want) {
			t.Fatalf("%v -> %s: digits differ from %s", x, s, want)
		}
	})
}

// copyRounded is the reference for RoundFloats: a full deep copy with every
// float64 rounded.
func copyRounded(v any) any {
	switch x := v.(type) {
	case float64:
		return canon.Round9(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = copyRounded(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = copyRounded(e)
		}
		return out
	}
	return v
}

// FuzzRoundFloats checks RoundFloats against a full deep copy on parsed
// documents: the same canonical text, and the input left as it was.
func FuzzRoundFloats(f *testing.F) {
	for _, s := range []string{
		`null`, `1`, `0.1`, `[0.30000000000000004,1,"x"]`, `{"a":{"b":[1,2.0000000004]},"c":[{"d":3}]}`,
		`{"rows":[{"uid":"n0","vt_s":5,"props":{}},{"uid":"n1","w":0.5}]}`, `[[[[1e-10]]]]`, `-0.0`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := canon.Parse(data)
		if err != nil {
			return
		}
		before := mustMarshalBytes(t, in)
		got, err := canon.RoundFloats(in)
		if err != nil {
			t.Fatalf("RoundFloats(%q): %v", data, err)
		}
		if g, w := mustMarshalBytes(t, got), mustMarshalBytes(t, copyRounded(in)); !bytes.Equal(g, w) {
			t.Fatalf("RoundFloats(%q) = %s, want %s", data, g, w)
		}
		if after := mustMarshalBytes(t, in); !bytes.Equal(after, before) {
			t.Fatalf("RoundFloats modified its input: %s -> %s", before, after)
		}
		// RoundedDigest is the digest of the rounded value, and says whether
		// rounding changed it.
		want, err := canon.Digest(got)
		if err != nil {
			t.Fatal(err)
		}
		d, changed, err := canon.RoundedDigest(in)
		if err != nil || d != want {
			t.Fatalf("RoundedDigest(%q) = %s, %v; want %s", data, d, err, want)
		}
		if w := !bytes.Equal(mustMarshalBytes(t, got), before); changed != w {
			t.Fatalf("RoundedDigest(%q) changed = %v, want %v", data, changed, w)
		}
	})
}

func mustMarshalBytes(t *testing.T, v any) []byte {
	t.Helper()
	b, err := canon.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
