package canon

import (
	"unicode/utf8"
)

// Sized is an Appender that also knows the Footprint of the value it
// encodes and holds no float that Round9 would change. Summarize adds its
// Footprint and encodes it as it is; RoundFloats returns it unchanged.
// Typed rows that encode themselves straight from a store's columns
// implement it, so a payload of them digests and sizes exactly as its map
// form would, without building the maps.
type Sized interface {
	Appender
	Footprint() int64
}

// TextFootprint is Footprint of the value canonical JSON text s decodes
// to, and whether that value holds a float (a number written with a
// fraction or an exponent), found without decoding it. s must be
// canonical (stored property bags are); on other text the figures are
// unspecified, but it never panics.
func TextFootprint(s string) (size int64, floats bool) {
	t := textScan{s: s}
	t.value(0)
	return t.size, t.floats
}

type textScan struct {
	s      string
	i      int
	size   int64
	floats bool
}

func (t *textScan) value(depth int) {
	if t.i >= len(t.s) || depth > MaxDepth {
		t.i = len(t.s)
		return
	}
	switch c := t.s[t.i]; c {
	case '{':
		t.size += 48
		t.i++
		if t.i < len(t.s) && t.s[t.i] == '}' {
			t.i++
			return
		}
		for t.i < len(t.s) {
			t.size += t.str() // a member: 16 plus the key's length, then its value
			if t.i < len(t.s) && t.s[t.i] == ':' {
				t.i++
			}
			t.value(depth + 1)
			if t.i < len(t.s) && t.s[t.i] == ',' {
				t.i++
				continue
			}
			t.i++ // '}'
			return
		}
	case '[':
		t.size += 24
		t.i++
		if t.i < len(t.s) && t.s[t.i] == ']' {
			t.i++
			return
		}
		for t.i < len(t.s) {
			t.value(depth + 1)
			if t.i < len(t.s) && t.s[t.i] == ',' {
				t.i++
				continue
			}
			t.i++ // ']'
			return
		}
	case '"':
		t.size += t.str()
	case 't', 'n':
		t.size += 16
		t.i += 4
	case 'f':
		t.size += 16
		t.i += 5
	default:
		t.size += 16
		for t.i < len(t.s) {
			switch t.s[t.i] {
			case '.', 'e', 'E':
				t.floats = true
			case '-', '+', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			default:
				return
			}
			t.i++
		}
	}
}

// str reads the string at t.i and returns its Footprint: 16 plus the
// length of its decoded bytes.
func (t *textScan) str() int64 {
	n := int64(16)
	t.i++ // '"'
	for t.i < len(t.s) {
		c := t.s[t.i]
		switch {
		case c == '"':
			t.i++
			return n
		case c != '\\':
			n++
			t.i++
		case t.i+1 < len(t.s) && t.s[t.i+1] == 'u':
			r := t.hex4(t.i + 2)
			t.i += 6
			if r >= 0xd800 && r < 0xdc00 && t.i+1 < len(t.s) && t.s[t.i] == '\\' && t.s[t.i+1] == 'u' {
				if lo := t.hex4(t.i + 2); lo >= 0xdc00 && lo < 0xe000 {
					t.i += 6
					n += 4
					continue
				}
			}
			if l := utf8.RuneLen(rune(r)); l > 0 {
				n += int64(l)
			} else {
				n += 3 // a lone surrogate decodes to U+FFFD
			}
		default:
			n++
			t.i += 2
		}
	}
	return n
}

func (t *textScan) hex4(at int) int {
	if at+4 > len(t.s) {
		return 0
	}
	v := 0
	for _, c := range []byte(t.s[at : at+4]) {
		v <<= 4
		switch {
		case c >= '0' && c <= '9':
			v |= int(c - '0')
		case c >= 'a' && c <= 'f':
			v |= int(c-'a') + 10
		case c >= 'A' && c <= 'F':
			v |= int(c-'A') + 10
		}
	}
	return v
}
