package canon

import (
	"math"
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// TestPlainCanonicalAgrees checks the shortcut against parsing and
// writing again: over every short text of digits, signs and points, and
// over the texts AppendFloat writes for random doubles (which must all be
// canonical), the shortcut never says yes where the conversion says no.
func TestPlainCanonicalAgrees(t *testing.T) {
	alphabet := "-0123456789."
	var buf []byte
	var walk func(n int)
	decided := 0
	walk = func(n int) {
		if len(buf) > 0 {
			s := string(buf)
			for _, float := range []bool{false, true} {
				if plainCanonical(s, float) {
					decided++
					if !convertedCanonical(s, float) {
						t.Fatalf("plainCanonical(%q, %v) but the conversion says it is not canonical", s, float)
					}
				}
			}
		}
		if n == 0 {
			return
		}
		for i := range alphabet {
			buf = append(buf, alphabet[i])
			walk(n - 1)
			buf = buf[:len(buf)-1]
		}
	}
	walk(5)
	if decided < 1000 {
		t.Fatalf("the shortcut decided only %d texts", decided)
	}
	rapid.Check(t, func(t *rapid.T) {
		var f float64
		switch rapid.IntRange(0, 2).Draw(t, "kind") {
		case 0:
			f = rapid.Float64().Draw(t, "f")
		case 1: // a decimal with few digits, the kind tables hold
			n := rapid.Int64Range(-1e15, 1e15).Draw(t, "n")
			f = float64(n) / math.Pow10(rapid.IntRange(0, 12).Draw(t, "scale"))
		default:
			f = float64(rapid.Int64().Draw(t, "i"))
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return
		}
		s := string(AppendFloat(nil, f))
		if !convertedCanonical(s, true) {
			t.Fatalf("AppendFloat(%v) = %q is not canonical", f, s)
		}
		if plainCanonical(s, true) != convertedCanonical(s, true) && plainCanonical(s, true) {
			t.Fatalf("plainCanonical(%q) disagrees", s)
		}
		for _, txt := range []string{s, strconv.FormatFloat(f, 'f', -1, 64), strconv.FormatFloat(f, 'f', 3, 64)} {
			if plainCanonical(txt, true) && !convertedCanonical(txt, true) {
				t.Fatalf("plainCanonical(%q) but not canonical", txt)
			}
		}
		if i := int64(f); float64(i) == f {
			txt := strconv.FormatInt(i, 10)
			if plainCanonical(txt, false) && !convertedCanonical(txt, false) {
				t.Fatalf("plainCanonical(%q, int) but not canonical", txt)
			}
		}
	})
}

// TestPlainCanonicalCases lists texts on both sides of the shortcut's
// bounds: IsCanonical must answer as the conversion does.
func TestPlainCanonicalCases(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"0", true}, {"-7", true}, {"123456789012345678", true}, {"9223372036854775807", true},
		{"-0", false}, {"007", false}, {"9223372036854775808", false},
		{"3.0", true}, {"-0.0", true}, {"0.0001", true}, {"123.45", true}, {"0.1", true},
		{"0.00001", false}, {"1.50", false}, {"01.5", false}, {"1.", false}, {"100.00", false},
		{"0.10000000000000001", false}, {"1.0000000000000001", false}, {"1.0000000000000002", true},
		{"12345678901234567.0", false}, {"1e+16", true}, {"1.5e-05", true},
	} {
		if got := IsCanonical(c.text); got != c.want {
			t.Errorf("IsCanonical(%q) = %v, want %v", c.text, got, c.want)
		}
		if got := convertedCanonical(c.text, c.text != "0" && containsAny(c.text, ".e")); got != c.want {
			t.Errorf("convertedCanonical(%q) = %v, want %v (the table is wrong)", c.text, got, c.want)
		}
	}
}

func containsAny(s, chars string) bool {
	for i := range s {
		for j := range chars {
			if s[i] == chars[j] {
				return true
			}
		}
	}
	return false
}

// TestAppendNumberText: whatever the shortcut appends is what converting
// the text gives, over every short text and random integers and floats.
func TestAppendNumberText(t *testing.T) {
	check := func(t interface{ Fatalf(string, ...any) }, s string) {
		if got, ok := AppendNumberText(nil, s, false); ok {
			n, err := strconv.ParseInt(s, 10, 64)
			if want := strconv.FormatInt(n, 10); err != nil || string(got) != want {
				t.Fatalf("AppendNumberText(%q, int) = %q, want %q (%v)", s, got, want, err)
			}
		}
		if got, ok := AppendNumberText(nil, s, true); ok {
			f, err := strconv.ParseFloat(s, 64)
			if want := string(AppendFloat(nil, f)); err != nil || string(got) != want {
				t.Fatalf("AppendNumberText(%q, float) = %q, want %q (%v)", s, got, want, err)
			}
		}
	}
	alphabet := "-0123456789."
	var walk func(prefix string, n int)
	walk = func(prefix string, n int) {
		if prefix != "" {
			check(t, prefix)
		}
		if n == 0 {
			return
		}
		for i := range alphabet {
			walk(prefix+alphabet[i:i+1], n-1)
		}
	}
	walk("", 4)
	rapid.Check(t, func(t *rapid.T) {
		check(t, strconv.FormatInt(rapid.Int64().Draw(t, "i"), 10))
		f := float64(rapid.Int64Range(-1e15, 1e15).Draw(t, "n")) / math.Pow10(rapid.IntRange(0, 12).Draw(t, "scale"))
		check(t, strconv.FormatFloat(f, 'f', -1, 64))
		check(t, strconv.FormatFloat(f, 'f', 2, 64))
	})
}
