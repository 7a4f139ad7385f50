package canon_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/canon"
)

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := canon.Marshal(v)
	if err != nil {
		t.Fatalf("Marshal(%#v): %v", v, err)
	}
	return string(b)
}

func TestDigestVectors(t *testing.T) {
	tests := []struct {
		v      any
		text   string
		prefix string
	}{
		{[]any{"a", "b", "R", ""}, `["a","b","R",""]`, "f39a58802118efa2055a9e26"},
		{[]any{"a", "b", "KNOWS", ""}, `["a","b","KNOWS",""]`, "46a4b5c81e461c86b9c87718"},
		{[]string{"a", "b", "KNOWS", ""}, `["a","b","KNOWS",""]`, "46a4b5c81e461c86b9c87718"},
	}
	for _, tt := range tests {
		if got := mustMarshal(t, tt.v); got != tt.text {
			t.Errorf("Marshal(%#v) = %s, want %s", tt.v, got, tt.text)
		}
		d, err := canon.Digest(tt.v)
		if err != nil {
			t.Fatal(err)
		}
		if len(d) != 64 || d[:24] != tt.prefix {
			t.Errorf("Digest(%s) = %s, want prefix %s", tt.text, d, tt.prefix)
		}
		if db := canon.DigestBytes([]byte(tt.text)); db != d {
			t.Errorf("DigestBytes(%s) = %s, want %s", tt.text, db, d)
		}
	}
}

func TestMarshalVectors(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"null", nil, `null`},
		{"true", true, `true`},
		{"false", false, `false`},
		{"int64", int64(-42), `-42`},
		{"int64 min", int64(math.MinInt64), `-9223372036854775808`},
		{"int64 max", int64(math.MaxInt64), `9223372036854775807`},
		{"int", 7, `7`},
		{"int32", int32(-7), `-7`},
		{"uint32", uint32(4294967295), `4294967295`},
		{"uint64", uint64(math.MaxInt64), `9223372036854775807`},
		{"float one", 1.0, `1.0`},
		{"float", 0.25, `0.25`},
		{"empty string", "", `""`},
		{"empty array", []any{}, `[]`},
		{"nil array", []any(nil), `[]`},
		{"empty object", map[string]any{}, `{}`},
		{"nil object", map[string]any(nil), `{}`},
		{"array", []any{int64(1), 1.0, "1", nil, true}, `[1,1.0,"1",null,true]`},
		{"nested", map[string]any{"b": []any{map[string]any{"y": int64(1), "x": 2.5}}, "a": map[string]any{}},
			`{"a":{},"b":[{"x":2.5,"y":1}]}`},
		{"raw", []any{canon.Raw(`{"k":[1,2]}`), int64(3)}, `[{"k":[1,2]},3]`},
		{"appender", []any{upper("shout")}, `["SHOUT"]`},
		{"string map", map[string]string{"b": "2", "a": "1"}, `{"a":"1","b":"2"}`},
		{"string slice", []string{"x", "é"}, `["x","é"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mustMarshal(t, tt.v); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
			got, err := canon.AppendValue([]byte("prefix:"), tt.v)
			if err != nil || string(got) != "prefix:"+tt.want {
				t.Errorf("AppendValue = %q, %v", got, err)
			}
		})
	}
}

// upper is an Appender that encodes as its upper-cased string.
type upper string

func (u upper) AppendCanonical(dst []byte) ([]byte, error) {
	return canon.AppendString(dst, strings.ToUpper(string(u))), nil
}

func TestFloatVectors(t *testing.T) {
	tests := []struct {
		f    float64
		want string
	}{
		{0.0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		{3.0, "3.0"},
		{-3.0, "-3.0"},
		{0.1, "0.1"},
		{1.0 / 3, "0.3333333333333333"},
		{0.333333333, "0.333333333"},
		{1e-05, "1e-05"},
		{1.5e-05, "1.5e-05"},
		{0.0001, "0.0001"},
		{0.00012345, "0.00012345"},
		{1e9, "1000000000.0"},
		{1e15, "1000000000000000.0"},
		{9999999999999998.0, "9999999999999998.0"},
		{1e16, "1e+16"},
		{1.5e16, "1.5e+16"},
		{-1.5e16, "-1.5e+16"},
		{123456789012345.6, "123456789012345.6"},
		{1e100, "1e+100"},
		{1e-100, "1e-100"},
		{5e-324, "5e-324"},
		{2.2250738585072014e-308, "2.2250738585072014e-308"},
		{1.7976931348623157e308, "1.7976931348623157e+308"},
		{1e22, "1e+22"},
		{12.5, "12.5"},
		{100.0, "100.0"},
	}
	for _, tt := range tests {
		if got := string(canon.AppendFloat(nil, tt.f)); got != tt.want {
			t.Errorf("AppendFloat(%v) = %s, want %s", tt.f, got, tt.want)
		}
		if got := mustMarshal(t, tt.f); got != tt.want {
			t.Errorf("Marshal(%v) = %s, want %s", tt.f, got, tt.want)
		}
	}
}

// TestFloatsGolden checks AppendFloat against Python's repr for thousands of
// float64 values (testdata/floats.txt, written by testdata/gen.py).
func TestFloatsGolden(t *testing.T) {
	f, err := os.Open("testdata/floats.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		hexBits, want, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			t.Fatalf("bad line %q", sc.Text())
		}
		bits, err := strconv.ParseUint(hexBits, 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		x := math.Float64frombits(bits)
		got := string(canon.AppendFloat(nil, x))
		if got != want {
			t.Errorf("AppendFloat(%016x) = %s, want %s", bits, got, want)
		}
		// The text must parse back as the same float64.
		v, err := canon.Parse([]byte(got))
		if err != nil {
			t.Errorf("Parse(%s): %v", got, err)
		} else if y, ok := v.(float64); !ok || math.Float64bits(y) != bits {
			t.Errorf("Parse(%s) = %#v, want bits %016x", got, v, bits)
		}
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 1000 {
		t.Fatalf("only %d float vectors", n)
	}
}

func TestFloatNonFinite(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, err := canon.Marshal([]any{f}); !errors.Is(err, canon.ErrNonFinite) {
			t.Errorf("Marshal(%v) error = %v, want ErrNonFinite", f, err)
		}
		if _, err := canon.Digest(f); err == nil {
			t.Errorf("Digest(%v) succeeded", f)
		}
	}
	if got := string(canon.AppendFloat(nil, math.Inf(-1))); got != "-Infinity" {
		t.Errorf("AppendFloat(-Inf) = %s", got)
	}
}

func TestStringEscapes(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"", `""`},
		{"plain", `"plain"`},
		{`"`, `"\""`},
		{`\`, `"\\"`},
		{"\n\r\t\b\f", `"\n\r\t\b\f"`},
		{"\x00", `"\u0000"`},
		{"\x01\x0b\x0e\x1f", `"\u0001\u000b\u000e\u001f"`},
		{"\x1a", `"\u001a"`},
		{"\x7f", "\"\x7f\""},
		{"<>&/", `"<>&/"`},
		{"\u2028\u2029", "\"\u2028\u2029\""},
		{"é日本😀", `"é日本😀"`},
		{"\ufeff", "\"\ufeff\""},
		{"a\"b\\c\x1fd", `"a\"b\\c\u001fd"`},
	}
	for _, tt := range tests {
		if got := string(canon.AppendString(nil, tt.in)); got != tt.want {
			t.Errorf("AppendString(%q) = %s, want %s", tt.in, got, tt.want)
		}
		if got := mustMarshal(t, tt.in); got != tt.want {
			t.Errorf("Marshal(%q) = %s, want %s", tt.in, got, tt.want)
		}
		// Every escape is valid JSON that decodes back to the input.
		var back string
		if err := json.Unmarshal([]byte(tt.want), &back); err != nil || back != tt.in {
			t.Errorf("encoding/json reads %s as %q, %v", tt.want, back, err)
		}
	}
	// Every control character, exhaustively.
	for c := 0; c < 0x20; c++ {
		got := string(canon.AppendString(nil, string(rune(c))))
		var want string
		switch c {
		case '\b':
			want = `"\b"`
		case '\t':
			want = `"\t"`
		case '\n':
			want = `"\n"`
		case '\f':
			want = `"\f"`
		case '\r':
			want = `"\r"`
		default:
			want = `"\u00` + hex.EncodeToString([]byte{byte(c)}) + `"`
		}
		if got != want {
			t.Errorf("AppendString(%#x) = %s, want %s", c, got, want)
		}
	}
}

func TestMarshalInvalidUTF8(t *testing.T) {
	for _, v := range []any{
		"a\xffb",
		"\xc3",
		"\xed\xa0\x80", // UTF-8 encoded surrogate
		[]any{"ok", "\x80"},
		map[string]any{"\xfe": int64(1)},
		map[string]any{"k": "\xc0\xaf"},
		[]string{"\xff"},
		map[string]string{"a": "\xff", "b": "c"},
	} {
		if b, err := canon.Marshal(v); err == nil {
			t.Errorf("Marshal(%q) = %s, want error", v, b)
		}
	}
}

func TestKeyOrdering(t *testing.T) {
	tests := []struct {
		m    map[string]any
		want string
	}{
		{map[string]any{"b": int64(1), "a": int64(2), "c": int64(3)}, `{"a":2,"b":1,"c":3}`},
		{map[string]any{"ab": int64(1), "a": int64(2), "abc": int64(3), "": int64(4), "aa": int64(5)},
			`{"":4,"a":2,"aa":5,"ab":1,"abc":3}`},
		{map[string]any{"b": 1, "B": 2, "a": 3, "A": 4, "_": 5, "0": 6},
			`{"0":6,"A":4,"B":2,"_":5,"a":3,"b":1}`},
		// Byte order of UTF-8 is code point order: U+007F < U+0080 < U+00E9 <
		// U+65E5 < U+FFFF < U+1F600.
		{map[string]any{"😀": 1, "\uffff": 2, "日": 3, "é": 4, "\u0080": 5, "\x7f": 6, "z": 7},
			"{\"z\":7,\"\x7f\":6,\"\u0080\":5,\"é\":4,\"日\":3,\"\uffff\":2,\"😀\":1}"},
		{map[string]any{"a\x00": 1, "a": 2, "a\x01": 3}, `{"a":2,"a\u0000":1,"a\u0001":3}`},
	}
	for _, tt := range tests {
		if got := mustMarshal(t, tt.m); got != tt.want {
			t.Errorf("Marshal = %s, want %s", got, tt.want)
		}
	}

	// A map larger than the on-stack key buffer, nested.
	big := map[string]any{}
	var want strings.Builder
	want.WriteString("{")
	for i := range 100 {
		k := strconv.Itoa(1000 + i)
		big[k] = map[string]any{"y": int64(i), "x": nil}
		if i > 0 {
			want.WriteString(",")
		}
		want.WriteString(`"` + k + `":{"x":null,"y":` + strconv.Itoa(i) + `}`)
	}
	want.WriteString("}")
	if got := mustMarshal(t, big); got != want.String() {
		t.Errorf("big map: got %s", got)
	}
}

func TestMarshalErrors(t *testing.T) {
	self := make([]any, 1)
	self[0] = self
	deep := any(int64(1))
	for range canon.MaxDepth + 1 {
		deep = map[string]any{"k": deep}
	}
	for name, v := range map[string]any{
		"float32":     float32(1),
		"struct":      struct{}{},
		"json.Number": json.Number("1"),
		"[]int":       []int{1},
		"uint64 big":  uint64(math.MaxInt64) + 1,
		"nested bad":  map[string]any{"a": []any{1, complex(1, 2)}},
		"cycle":       self,
		"too deep":    deep,
		"empty raw":   canon.Raw(nil),
	} {
		if b, err := canon.Marshal(v); err == nil {
			t.Errorf("%s: Marshal = %s, want error", name, b)
		}
	}
	// Exactly MaxDepth levels is fine.
	ok := any(int64(1))
	for range canon.MaxDepth {
		ok = []any{ok}
	}
	if _, err := canon.Marshal(ok); err != nil {
		t.Errorf("depth %d: %v", canon.MaxDepth, err)
	}
}

func TestParseValues(t *testing.T) {
	tests := []struct {
		in   string
		want any
	}{
		{`null`, nil},
		{` true `, true},
		{"\t\r\nfalse\n", false},
		{`0`, int64(0)},
		{`-0`, int64(0)},
		{`123`, int64(123)},
		{`-9223372036854775808`, int64(math.MinInt64)},
		{`9223372036854775807`, int64(math.MaxInt64)},
		{`1.0`, 1.0},
		{`-0.0`, math.Copysign(0, -1)},
		{`1e2`, 100.0},
		{`1E2`, 100.0},
		{`1e+2`, 100.0},
		{`1e-2`, 0.01},
		{`0.5`, 0.5},
		{`1e-400`, 0.0},
		{`1.7976931348623157e308`, math.MaxFloat64},
		{`""`, ""},
		{`"\u00e9\u00E9"`, "éé"},
		{`"\ud83d\ude00"`, "😀"},
		{`"\u0000"`, "\x00"},
		{`"\/"`, "/"},
		{`"é日😀"`, "é日😀"},
		{`[]`, []any{}},
		{`[1,"a",[null]]`, []any{int64(1), "a", []any{nil}}},
		{`{}`, map[string]any{}},
		{`{"a":{"b":[1.5]}}`, map[string]any{"a": map[string]any{"b": []any{1.5}}}},
	}
	for _, tt := range tests {
		got, err := canon.Parse([]byte(tt.in))
		if err != nil {
			t.Errorf("Parse(%s): %v", tt.in, err)
			continue
		}
		if !canon.Equal(got, tt.want) {
			t.Errorf("Parse(%s) = %#v, want %#v", tt.in, got, tt.want)
		}
	}
}

func TestCanonicalizeVectors(t *testing.T) {
	tests := []struct{ in, want string }{
		{`1.0`, `1.0`},
		{`1e2`, `100.0`},
		{`1E+2`, `100.0`},
		{`-0.0`, `-0.0`},
		{`-0`, `0`},
		{`0.10`, `0.1`},
		{`1e16`, `1e+16`},
		{`1.5E16`, `1.5e+16`},
		{`0.00001`, `1e-05`},
		{`100`, `100`},
		{` { "b" : 1 , "a" : [ 1.0 , 2 ] } `, `{"a":[1.0,2],"b":1}`},
		{`"\u2028\u003c\u007F\u001F"`, "\"\u2028<\x7f\\u001f\""},
		{`"\/\b"`, `"/\b"`},
		{`{"é":1,"e":2,"f":3}`, `{"e":2,"f":3,"é":1}`},
		{`{"ab":1,"a":2,"abc":3,"":4}`, `{"":4,"a":2,"ab":1,"abc":3}`},
		{`{"é":1,"z":2,"日":3,"Z":4}`, `{"Z":4,"z":2,"é":1,"日":3}`},
		{` { "b" : 1e2 , "a" : [ 1.0 , -0 ] } `, `{"a":[1.0,0],"b":100.0}`},
		{`"\u00e9"`, `"é"`},
	}
	for _, tt := range tests {
		got, err := canon.Canonicalize([]byte(tt.in))
		if err != nil || string(got) != tt.want {
			t.Errorf("Canonicalize(%s) = %s, %v; want %s", tt.in, got, err, tt.want)
		}
	}
}

// TestGolden checks Canonicalize and Digest against Python's json module
// (testdata/golden.jsonl, written by testdata/gen.py).
func TestGolden(t *testing.T) {
	data, err := os.ReadFile("testdata/golden.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for line := range bytes.Lines(data) {
		var c struct{ Name, In, Out, Sha256 string }
		if err := json.Unmarshal(line, &c); err != nil {
			t.Fatal(err)
		}
		n++
		got, err := canon.Canonicalize([]byte(c.In))
		if err != nil {
			t.Errorf("%s: Canonicalize: %v", c.Name, err)
			continue
		}
		if string(got) != c.Out {
			t.Errorf("%s: Canonicalize(%s)\n got %s\nwant %s", c.Name, c.In, got, c.Out)
		}
		if sum := sha256.Sum256([]byte(c.Out)); hex.EncodeToString(sum[:]) != c.Sha256 {
			t.Errorf("%s: bad golden sha256", c.Name)
		}
		v, err := canon.Parse([]byte(c.In))
		if err != nil {
			t.Fatal(err)
		}
		if d, err := canon.Digest(v); err != nil || d != c.Sha256 {
			t.Errorf("%s: Digest = %s, %v; want %s", c.Name, d, err, c.Sha256)
		}
		// Canonical text is a fixed point and parses to an equal value.
		again, err := canon.Canonicalize(got)
		if err != nil || !bytes.Equal(again, got) {
			t.Errorf("%s: not a fixed point: %s", c.Name, again)
		}
		if v2, err := canon.Parse(got); err != nil || !canon.Equal(v, v2) {
			t.Errorf("%s: round trip changed value", c.Name)
		}
	}
	if n < 100 {
		t.Fatalf("only %d golden cases", n)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in     string
		offset int
		msg    string // substring of the error
	}{
		{``, 0, "unexpected end of input"},
		{`   `, 3, "unexpected end of input"},
		{`[1,2`, 4, "unexpected end of input"},
		{`{"a":`, 5, "unexpected end of input"},
		{`{"a"`, 4, "unexpected end of input"},
		{`"abc`, 4, "unexpected end of input"},
		{`tru`, 3, "unexpected end of input"},
		{`-`, 1, "unexpected end of input"},
		{`1.`, 2, "unexpected end of input"},
		{`1e`, 2, "unexpected end of input"},
		{`[1,2,]`, 5, "trailing comma in array"},
		{`{"a":1,}`, 7, "trailing comma in object"},
		{`{"a":1,"b":2,"a":3}`, 13, `duplicate object key "a"`},
		{`{"k":{"x":1,"x":2}}`, 12, `duplicate object key "x"`},
		{`{"\u0061":1,"a":2}`, 12, `duplicate object key "a"`},
		{`"\x"`, 1, `invalid escape 'x'`},
		{`"\u12g4"`, 5, `invalid 'g' in \u escape`},
		{`"\ud800"`, 1, `lone surrogate \ud800`},
		{`"\ud800\u0041"`, 1, `lone surrogate \ud800`},
		{`"\udc00"`, 1, `lone surrogate \udc00`},
		{`"ab\ud83dx"`, 3, `lone surrogate \ud83d`},
		{`"\ud800\ud800"`, 1, `lone surrogate \ud800`},
		{`9223372036854775808`, 0, "out of int64 range"},
		{`-9223372036854775809`, 0, "out of int64 range"},
		{`[1,123456789012345678901234567890]`, 3, "out of int64 range"},
		{`1e400`, 0, "out of float64 range"},
		{`-1e400`, 0, "out of float64 range"},
		{`01`, 0, "leading zero"},
		{`-01`, 0, "leading zero"},
		{`+1`, 0, "beginning of value"},
		{`.5`, 0, "beginning of value"},
		{`1.e5`, 2, "after decimal point"},
		{`1e+`, 3, "unexpected end of input"},
		{`1ea`, 2, "in exponent"},
		{`-a`, 1, "in number"},
		{`NaN`, 0, "beginning of value"},
		{`Infinity`, 0, "beginning of value"},
		{`nul`, 3, "unexpected end of input"},
		{`nulL`, 3, "in literal null"},
		{`[1] x`, 4, "after top-level value"},
		{`{} {}`, 3, "after top-level value"},
		{`1 2`, 2, "after top-level value"},
		{`[1 2]`, 3, "expected ',' or ']'"},
		{`{"a" 1}`, 5, "expected ':'"},
		{`{"a":1 "b":2}`, 7, "expected ',' or '}'"},
		{`{1:2}`, 1, "looking for object key"},
		{`{,}`, 1, "looking for object key"},
		{`[,]`, 1, "beginning of value"},
		{"\"a\tb\"", 2, "control character U+0009"},
		{"\"a\nb\"", 2, "control character"},
		{"\"a\xffb\"", 2, "invalid UTF-8"},
		{"\"\xed\xa0\x80\"", 1, "invalid UTF-8"},
		{"\"\xc3\"", 1, "invalid UTF-8"},
		{"\xef\xbb\xbf1", 0, "byte 0xef"},
		{"[1,\x00]", 3, "byte 0x00"},
		{strings.Repeat("[", 513) + strings.Repeat("]", 513), 512, "nesting depth exceeds 512"},
		{strings.Repeat(`{"a":`, 513) + "1" + strings.Repeat("}", 513), 512 * 5, "nesting depth exceeds 512"},
	}
	for _, tt := range tests {
		v, err := canon.Parse([]byte(tt.in))
		if err == nil {
			t.Errorf("Parse(%q) = %#v, want error", tt.in, v)
			continue
		}
		var se *canon.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) error %T is not *SyntaxError", tt.in, err)
			continue
		}
		wantPrefix := "canon: offset " + strconv.Itoa(tt.offset) + ": "
		if se.Offset != tt.offset || !strings.HasPrefix(err.Error(), wantPrefix) || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("Parse(%.40q) error = %q, want offset %d and %q", tt.in, err, tt.offset, tt.msg)
		}
		if _, err2 := canon.Canonicalize([]byte(tt.in)); err2 == nil || err2.Error() != err.Error() {
			t.Errorf("Canonicalize(%q) error = %v, want %v", tt.in, err2, err)
		}
	}

	// 512 levels is allowed.
	ok := strings.Repeat("[", 512) + strings.Repeat("]", 512)
	if _, err := canon.Parse([]byte(ok)); err != nil {
		t.Errorf("depth 512: %v", err)
	}
}

func TestEqual(t *testing.T) {
	negZero := math.Copysign(0, -1)
	equal := [][2]any{
		{nil, nil},
		{true, true},
		{"a", "a"},
		{int64(1), int64(1)},
		{int64(1), 1},
		{int32(5), uint32(5)},
		{1.5, 1.5},
		{negZero, negZero},
		{[]any{}, []any(nil)},
		{map[string]any{}, map[string]any(nil)},
		{[]any{int64(1), map[string]any{"a": []any{"x"}}}, []any{int64(1), map[string]any{"a": []any{"x"}}}},
		{[]any{"a", "b"}, []string{"a", "b"}},
		{canon.Raw(`[1,2]`), []any{int64(1), int64(2)}},
		{map[string]any{"a": canon.Raw(`1.0`)}, map[string]any{"a": 1.0}},
		{map[string]string{"k": "v"}, map[string]any{"k": "v"}},
		{nil, canon.Raw(`null`)},
		{"X", upper("x")},
	}
	unequal := [][2]any{
		{nil, false},
		{int64(1), 1.0},
		{1.0, int64(1)},
		{0.0, negZero},
		{math.NaN(), math.NaN()},
		{"1", int64(1)},
		{[]any{int64(1)}, []any{int64(1), int64(1)}},
		{[]any{int64(1)}, []any{1.0}},
		{map[string]any{"a": nil}, map[string]any{"b": nil}},
		{map[string]any{"a": int64(1)}, map[string]any{"a": int64(2)}},
		{map[string]any{}, []any{}},
		{[]any{}, nil},
		{uint64(math.MaxUint64), int64(-1)},
		{canon.Raw(`[1,2]`), []any{int64(1), 2.0}},
		{float32(1), float32(1)},
	}
	for _, p := range equal {
		if !canon.Equal(p[0], p[1]) || !canon.Equal(p[1], p[0]) {
			t.Errorf("Equal(%#v, %#v) = false, want true", p[0], p[1])
		}
	}
	for _, p := range unequal {
		if canon.Equal(p[0], p[1]) || canon.Equal(p[1], p[0]) {
			t.Errorf("Equal(%#v, %#v) = true, want false", p[0], p[1])
		}
	}
}

func TestRound9(t *testing.T) {
	def := func(x float64) float64 {
		f, err := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 9, 64), 64)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	tests := []struct{ in, want float64 }{
		{0.1 + 0.2, 0.3},
		{1.0 / 3, 0.333333333},
		{2.0 / 3, 0.666666667},
		{1e-10, 0},
		{5e-10, 0.000000001}, // 5e-10 is slightly above the tie as a float64
		{-1.0 / 3, -0.333333333},
		{123456.123456789123, 123456.123456789},
		{1e20, 1e20},
		{42, 42},
	}
	for _, tt := range tests {
		if got := canon.Round9(tt.in); got != tt.want || got != def(tt.in) {
			t.Errorf("Round9(%v) = %v, want %v (definition %v)", tt.in, got, tt.want, def(tt.in))
		}
	}
	if got := canon.Round9(math.Copysign(0, -1)); !math.Signbit(got) {
		t.Errorf("Round9(-0) lost its sign")
	}
	if got := canon.Round9(-1e-12); got != 0 || !math.Signbit(got) {
		t.Errorf("Round9(-1e-12) = %v, want -0", got)
	}
	// Against the definition on awkward values: random bit patterns, values
	// near the 2^23 fast-path boundary, and values near 9-decimal ties.
	check := func(x float64) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return
		}
		if got, want := canon.Round9(x), def(x); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("Round9(%v) = %v, definition gives %v", x, got, want)
		}
	}
	seed := uint64(0x9e3779b97f4a7c15)
	next := func() uint64 {
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		return seed
	}
	for range 200000 {
		r := next()
		check(math.Float64frombits(r))
		check(float64(int64(r%(1<<40))-1<<39) / 1e9)
		check(float64(int64(r%(1<<45))) / 4096)
		check(float64(r%(1<<30)) + 0.5e-9)
	}
	for d := -50; d <= 50; d++ {
		for _, b := range []float64{1 << 23, 1 << 24, 1 << 22, 1} {
			x := b
			for range d + 50 {
				x = math.Nextafter(x, math.Inf(1))
			}
			check(x)
			check(-x)
			check(math.Nextafter(b, 0) - float64(d)*1e-9)
		}
	}
}

func TestRoundFloats(t *testing.T) {
	in := map[string]any{
		"f":   1.0 / 3,
		"i":   int64(7),
		"s":   "x",
		"arr": []any{0.1 + 0.2, nil, map[string]any{"g": 2.0000000004}},
	}
	out, err := canon.RoundFloats(in)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := mustMarshal(t, out), `{"arr":[0.3,null,{"g":2.0}],"f":0.333333333,"i":7,"s":"x"}`; got != want {
		t.Errorf("RoundFloats = %s, want %s", got, want)
	}
	// The input is not modified.
	if in["f"] != 1.0/3 || in["arr"].([]any)[0] != 0.1+0.2 {
		t.Errorf("RoundFloats modified its input: %v", in)
	}
	for _, bad := range []any{math.NaN(), []any{1.0, math.Inf(1)}, map[string]any{"x": math.Inf(-1)}} {
		if _, err := canon.RoundFloats(bad); !errors.Is(err, canon.ErrNonFiniteOutput) ||
			err.Error() != "non-finite float in operator output" {
			t.Errorf("RoundFloats(%v) error = %v", bad, err)
		}
		if _, _, err := canon.RoundedDigest(bad); !errors.Is(err, canon.ErrNonFiniteOutput) {
			t.Errorf("RoundedDigest(%v) error = %v", bad, err)
		}
	}
	if v, err := canon.RoundFloats(int64(3)); err != nil || v != int64(3) {
		t.Errorf("RoundFloats(3) = %v, %v", v, err)
	}
	// A value whose floats need no rounding is returned as it is, uncopied.
	exact := map[string]any{"rows": []any{map[string]any{"uid": "n0", "w": 0.5, "props": map[string]any{}}}}
	if n := testing.AllocsPerRun(10, func() {
		if _, err := canon.RoundFloats(exact); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("RoundFloats of an exact value allocated %v times, want 0", n)
	}
	// Only the containers on the way to a changed float are copied.
	shared := map[string]any{"k": int64(1)}
	mixed := []any{shared, 0.1 + 0.2}
	r, err := canon.RoundFloats(mixed)
	if err != nil {
		t.Fatal(err)
	}
	if rs := r.([]any); rs[1] != 0.3 || reflect.ValueOf(rs[0]).UnsafePointer() != reflect.ValueOf(shared).UnsafePointer() {
		t.Errorf("RoundFloats(%v) = %v: want 0.3 and the unchanged map shared", mixed, rs)
	}
	if mixed[1] != 0.1+0.2 {
		t.Errorf("RoundFloats modified its input: %v", mixed)
	}
}

func TestAppendInt(t *testing.T) {
	for _, i := range []int64{0, -1, 42, math.MinInt64, math.MaxInt64} {
		if got := string(canon.AppendInt([]byte("x"), i)); got != "x"+strconv.FormatInt(i, 10) {
			t.Errorf("AppendInt(%d) = %s", i, got)
		}
	}
}

func TestAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip()
	}
	row := typicalRow()
	buf := make([]byte, 0, 4096)
	if n := testing.AllocsPerRun(100, func() {
		if _, err := canon.AppendValue(buf[:0], row); err != nil {
			t.Fatal(err)
		}
	}); n > 0 {
		t.Errorf("AppendValue of a row allocates %v times, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { canon.Round9(1.0 / 3) }); n > 0 {
		t.Errorf("Round9 allocates %v times, want 0", n)
	}
}
