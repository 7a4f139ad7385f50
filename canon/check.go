package canon

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// checkDepth bounds the nesting IsCanonical follows; deeper text is left
// to Canonicalize (it answers false).
const checkDepth = 64

// IsCanonical reports whether s is the canonical encoding of a JSON value,
// that is, whether Canonicalize would return s unchanged. It builds no
// value and allocates nothing, for checking text that is canonical by
// construction (stored props). A false answer may also mean "not decided
// here" (escaped object keys, deep nesting): callers that need the reason
// call Canonicalize.
func IsCanonical(s string) bool {
	c := checker{s: s}
	return c.value(0) && c.i == len(s)
}

type checker struct {
	s string
	i int
}

func (c *checker) value(depth int) bool {
	if c.i >= len(c.s) {
		return false
	}
	switch ch := c.s[c.i]; {
	case ch == '{':
		return depth < checkDepth && c.object(depth)
	case ch == '[':
		return depth < checkDepth && c.array(depth)
	case ch == '"':
		_, ok := c.str()
		return ok
	case ch == 'n':
		return c.lit("null")
	case ch == 't':
		return c.lit("true")
	case ch == 'f':
		return c.lit("false")
	case ch == '-' || (ch >= '0' && ch <= '9'):
		return c.number()
	}
	return false
}

func (c *checker) lit(w string) bool {
	if strings.HasPrefix(c.s[c.i:], w) {
		c.i += len(w)
		return true
	}
	return false
}

func (c *checker) object(depth int) bool {
	c.i++ // '{'
	if c.i < len(c.s) && c.s[c.i] == '}' {
		c.i++
		return true
	}
	prev, first := "", true
	for {
		if c.i >= len(c.s) || c.s[c.i] != '"' {
			return false
		}
		k, ok := c.str()
		if !ok || strings.IndexByte(k, '\\') >= 0 || (!first && k <= prev) {
			return false
		}
		prev, first = k, false
		if c.i >= len(c.s) || c.s[c.i] != ':' {
			return false
		}
		c.i++
		if !c.value(depth + 1) {
			return false
		}
		if c.i >= len(c.s) {
			return false
		}
		switch c.s[c.i] {
		case ',':
			c.i++
		case '}':
			c.i++
			return true
		default:
			return false
		}
	}
}

func (c *checker) array(depth int) bool {
	c.i++ // '['
	if c.i < len(c.s) && c.s[c.i] == ']' {
		c.i++
		return true
	}
	for {
		if !c.value(depth+1) || c.i >= len(c.s) {
			return false
		}
		switch c.s[c.i] {
		case ',':
			c.i++
		case ']':
			c.i++
			return true
		default:
			return false
		}
	}
}

// str checks a string at c.i and returns its raw contents (between the
// quotes, escapes as written).
func (c *checker) str() (string, bool) {
	start := c.i + 1
	i := start
	for i < len(c.s) {
		ch := c.s[i]
		switch {
		case ch == '"':
			c.i = i + 1
			return c.s[start:i], true
		case ch == '\\':
			if i+1 >= len(c.s) {
				return "", false
			}
			switch c.s[i+1] {
			case '"', '\\', 'n', 'r', 't', 'b', 'f':
				i += 2
			case 'u':
				// Only \u00xx (lowercase hex) for a control character
				// without a short escape.
				if i+6 > len(c.s) || c.s[i+2] != '0' || c.s[i+3] != '0' {
					return "", false
				}
				hi, lo := hexVal(c.s[i+4]), hexVal(c.s[i+5])
				if hi < 0 || hi > 1 || lo < 0 {
					return "", false
				}
				switch b := byte(hi<<4 | lo); b {
				case '\b', '\t', '\n', '\f', '\r':
					return "", false
				}
				i += 6
			default:
				return "", false
			}
		case ch < 0x20:
			return "", false
		case ch < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRuneInString(c.s[i:])
			if r == utf8.RuneError && size == 1 {
				return "", false
			}
			i += size
		}
	}
	return "", false
}

// hexVal is the value of a lowercase hex digit, or -1.
func hexVal(b byte) int {
	switch {
	case b >= '0' && b <= '9':
		return int(b - '0')
	case b >= 'a' && b <= 'f':
		return int(b-'a') + 10
	}
	return -1
}

func (c *checker) number() bool {
	start := c.i
	float := false
	for c.i < len(c.s) {
		ch := c.s[c.i]
		if ch == '.' || ch == 'e' || ch == 'E' || ch == '+' {
			float = true
		} else if !(ch == '-' || (ch >= '0' && ch <= '9')) {
			break
		}
		c.i++
	}
	t := c.s[start:c.i]
	return plainCanonical(t, float) || convertedCanonical(t, float)
}

// convertedCanonical decides whether number text t is canonical by
// parsing and writing it again.
func convertedCanonical(t string, float bool) bool {
	if !float {
		n, err := strconv.ParseInt(t, 10, 64)
		if err != nil {
			return false
		}
		var buf [24]byte
		return string(strconv.AppendInt(buf[:0], n, 10)) == t
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return false
	}
	var buf [32]byte
	return string(AppendFloat(buf[:0], f)) == t
}

// plainCanonical decides the common numbers without converting them: an
// integer of at most 18 digits without a leading zero (nor "-0"), or a
// fraction in fixed notation, -?(0|[1-9]d*).d+, with at most 15
// significant digits, no trailing zero after the point (but "3.0"), and
// for a value under 1 at most three zeros after the point (smaller ones
// are written with an exponent). Such a text is what AppendFloat writes for
// the double it parses to: 15 significant digits always survive a round
// trip through a double, so the shortest digits of that double are the
// text's. False means "not decided here", never "not canonical".
func plainCanonical(t string, float bool) bool {
	i := 0
	if i < len(t) && t[i] == '-' {
		i++
	}
	intStart := i
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	intDigits := t[intStart:i]
	if len(intDigits) == 0 || (len(intDigits) > 1 && intDigits[0] == '0') {
		return false
	}
	if !float {
		return i == len(t) && len(intDigits) <= 18 && t != "-0"
	}
	if i >= len(t) || t[i] != '.' {
		return false
	}
	i++
	frac := t[i:]
	if len(frac) == 0 {
		return false
	}
	for j := 0; j < len(frac); j++ {
		if frac[j] < '0' || frac[j] > '9' {
			return false
		}
	}
	if frac[len(frac)-1] == '0' && frac != "0" {
		return false
	}
	sig := len(intDigits) + len(frac)
	if intDigits == "0" {
		lead := 0
		for lead < len(frac) && frac[lead] == '0' {
			lead++
		}
		if lead == len(frac) {
			return true // 0.0 or -0.0
		}
		if lead > 3 {
			return false
		}
		sig = len(frac) - lead
	}
	return sig <= 15
}

// AppendNumberText appends the canonical JSON of the number written as
// text t (an integer, or with float a double), when t is in one of the
// plain forms that need no conversion: an integer already canonical, or
// a float already canonical or written as an integer of at most 15 digits
// (3 for 3.0). ok false means nothing was appended: convert t instead.
func AppendNumberText(dst []byte, t string, float bool) (out []byte, ok bool) {
	if plainCanonical(t, float) {
		return append(dst, t...), true
	}
	if float && plainCanonical(t, false) && len(t) <= 15 {
		return append(append(dst, t...), '.', '0'), true
	}
	return dst, false
}
