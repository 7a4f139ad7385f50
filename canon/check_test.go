package canon_test

import (
	"testing"

	"github.com/tgms-go/tgms/canon"
)

func TestIsCanonical(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{`{}`, true},
		{`{"a":1,"b":[true,false,null],"c":"x\"y\\z\n\u0001"}`, true},
		{`{"a":1.5,"b":-0.25,"c":1e-05,"d":1.5e+16,"e":3.0}`, true},
		{`{"b":1,"a":2}`, false},    // unsorted
		{`{"a":1,"a":2}`, false},    // duplicate
		{`{"a": 1}`, false},         // whitespace
		{`{"a":3}x`, false},         // trailing
		{`{"a":1.50}`, false},       // not shortest
		{`{"a":3}`, true},           //
		{`{"a":-0}`, false},         // int -0
		{`{"a":01}`, false},         // leading zero
		{`{"a":"\/"}`, false},       // needless escape
		{`{"a":"\u0041"}`, false},   // needless \u
		{`{"a":"\u000a"}`, false},   // \n has a short escape
		{`{"a":"\u001F"}`, false},   // uppercase hex
		{`{"a":"\u001f"}`, true},    //
		{"{\"a\":\"\x01\"}", false}, // raw control
		{"{\"a\":\"\xff\"}", false}, // invalid UTF-8
		{`{"a":"é✓"}`, true},        //
		{`{"a":1e400}`, false},      // overflow
		{`{"a":99999999999999999999}`, false},
	} {
		if got := canon.IsCanonical(c.s); got != c.want {
			t.Errorf("IsCanonical(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}

// IsCanonical never says yes to text Canonicalize would change or refuse,
// and says yes to what Canonicalize writes (objects with plain keys).
func FuzzIsCanonical(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1,"b":[1.5,"x"]}`, `{"a":"\u001f","b":{"c":null}}`, `[1e-05,-0.0,0.0]`, `"x"`, `{"a":1.50}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := canon.Canonicalize([]byte(s))
		if canon.IsCanonical(s) && (err != nil || string(c) != s) {
			t.Fatalf("IsCanonical(%q) but Canonicalize gives %q, %v", s, c, err)
		}
		if err == nil && !canon.IsCanonical(string(c)) && !hasEscapedKeyOrDeep(string(c)) {
			t.Fatalf("Canonicalize(%q) = %q, which IsCanonical refuses", s, c)
		}
	})
}

// hasEscapedKeyOrDeep is a cheap over-approximation of the cases
// IsCanonical leaves to Canonicalize: any backslash, or deep nesting.
func hasEscapedKeyOrDeep(s string) bool {
	depth, maxDepth := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			return true
		case '[', '{':
			depth++
			maxDepth = max(maxDepth, depth)
		case ']', '}':
			depth--
		}
	}
	return maxDepth > 60
}
