package canon

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
)

// SyntaxError is the error Parse returns. Offset is the zero-based byte
// offset in the input where the problem was found.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return "canon: offset " + strconv.Itoa(e.Offset) + ": " + e.Msg
}

// Parse decodes one JSON value from data into the value model: nil, bool,
// string, int64, float64, []any and map[string]any. A number is an int64
// when its text has no '.', 'e' or 'E', and a float64 otherwise.
//
// Parse is strict: it rejects trailing data after the value, duplicate
// object keys, invalid UTF-8, raw control characters in strings, escapes of
// lone surrogates, integers outside int64, floats outside float64, and
// nesting deeper than MaxDepth. Errors are *SyntaxError values.
func Parse(data []byte) (any, error) {
	return parse(data)
}

// ParseString is Parse of text held in a string. The strings in its result
// that needed no unescaping (object keys included) share memory with s,
// which is safe because strings are immutable; this makes decoding stored
// canonical text, such as a property bag, cheap.
func ParseString(s string) (any, error) {
	return parse(s)
}

// text is what the parser reads: a byte slice or a string.
type text interface{ ~string | ~[]byte }

func parse[T text](data T) (any, error) {
	p := parser[T]{data: data}
	p.skipSpace()
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos < len(p.data) {
		return nil, p.errorf(p.pos, "unexpected %s after top-level value", describe(p.data[p.pos]))
	}
	return v, nil
}

// Canonicalize parses data and returns its canonical encoding.
func Canonicalize(data []byte) ([]byte, error) {
	v, err := Parse(data)
	if err != nil {
		return nil, err
	}
	return appendValue(make([]byte, 0, len(data)), v, 0, nil)
}

type parser[T text] struct {
	data  T
	pos   int
	depth int
}

func (p *parser[T]) errorf(off int, format string, args ...any) error {
	return &SyntaxError{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser[T]) eof() error {
	return &SyntaxError{Offset: len(p.data), Msg: "unexpected end of input"}
}

func describe(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return strconv.QuoteRune(rune(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

func (p *parser[T]) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\n', '\r', '\t':
			p.pos++
		default:
			return
		}
	}
}

// value parses the value starting at p.pos (whitespace already skipped).
func (p *parser[T]) value() (any, error) {
	if p.pos >= len(p.data) {
		return nil, p.eof()
	}
	switch c := p.data[p.pos]; c {
	case '"':
		return p.str()
	case '{':
		return p.object()
	case '[':
		return p.array()
	case 't':
		return true, p.literal("true")
	case 'f':
		return false, p.literal("false")
	case 'n':
		return nil, p.literal("null")
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			return p.number()
		}
		return nil, p.errorf(p.pos, "unexpected %s looking for beginning of value", describe(c))
	}
}

func (p *parser[T]) literal(word string) error {
	for i := 0; i < len(word); i++ {
		j := p.pos + i
		if j >= len(p.data) {
			return p.eof()
		}
		if p.data[j] != word[i] {
			return p.errorf(j, "unexpected %s in literal %s", describe(p.data[j]), word)
		}
	}
	p.pos += len(word)
	return nil
}

func (p *parser[T]) object() (any, error) {
	if p.depth >= MaxDepth {
		return nil, p.errorf(p.pos, "nesting depth exceeds %d", MaxDepth)
	}
	p.depth++
	p.pos++ // '{'
	m := make(map[string]any)
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		p.depth--
		return m, nil
	}
	for {
		if p.pos >= len(p.data) {
			return nil, p.eof()
		}
		keyOff := p.pos
		if p.data[p.pos] != '"' {
			if p.data[p.pos] == '}' && len(m) > 0 {
				return nil, p.errorf(p.pos, "trailing comma in object")
			}
			return nil, p.errorf(p.pos, "unexpected %s looking for object key", describe(p.data[p.pos]))
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		if _, dup := m[k]; dup {
			return nil, p.errorf(keyOff, "duplicate object key %q", k)
		}
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.eof()
		}
		if p.data[p.pos] != ':' {
			return nil, p.errorf(p.pos, "unexpected %s after object key, expected ':'", describe(p.data[p.pos]))
		}
		p.pos++
		p.skipSpace()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		m[k] = v
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.eof()
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.skipSpace()
		case '}':
			p.pos++
			p.depth--
			return m, nil
		default:
			return nil, p.errorf(p.pos, "unexpected %s after object value, expected ',' or '}'", describe(p.data[p.pos]))
		}
	}
}

func (p *parser[T]) array() (any, error) {
	if p.depth >= MaxDepth {
		return nil, p.errorf(p.pos, "nesting depth exceeds %d", MaxDepth)
	}
	p.depth++
	p.pos++ // '['
	a := make([]any, 0, 4)
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		p.depth--
		return a, nil
	}
	for {
		if len(a) > 0 && p.pos < len(p.data) && p.data[p.pos] == ']' {
			return nil, p.errorf(p.pos, "trailing comma in array")
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		a = append(a, v)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.eof()
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.skipSpace()
		case ']':
			p.pos++
			p.depth--
			return a, nil
		default:
			return nil, p.errorf(p.pos, "unexpected %s after array element, expected ',' or ']'", describe(p.data[p.pos]))
		}
	}
}

// str parses the string starting at p.pos, which holds '"'.
func (p *parser[T]) str() (string, error) {
	d := p.data
	start := p.pos + 1
	i := start
	var buf []byte // nil until the first escape
	for {
		for i < len(d) && strClass[d[i]] == clsPlain {
			i++
		}
		if i >= len(d) {
			return "", p.eof()
		}
		switch c := d[i]; {
		case c == '"':
			p.pos = i + 1
			if buf == nil {
				return string(d[start:i]), nil
			}
			buf = append(buf, d[start:i]...)
			return string(buf), nil
		case c == '\\':
			buf = append(buf, d[start:i]...)
			var err error
			if buf, i, err = p.escape(buf, i); err != nil {
				return "", err
			}
			start = i
		case c < 0x20:
			return "", p.errorf(i, "control character U+%04X in string", c)
		default:
			r, size := utf8.DecodeRuneInString(string(d[i:min(i+utf8.UTFMax, len(d))]))
			if r == utf8.RuneError && size <= 1 {
				return "", p.errorf(i, "invalid UTF-8 in string")
			}
			i += size
		}
	}
}

// escape decodes the escape sequence at d[i] == '\\', appends its rune to
// buf and returns the offset just past it.
func (p *parser[T]) escape(buf []byte, i int) ([]byte, int, error) {
	d := p.data
	if i+1 >= len(d) {
		return buf, i, p.eof()
	}
	switch c := d[i+1]; c {
	case '"', '\\', '/':
		return append(buf, c), i + 2, nil
	case 'b':
		return append(buf, '\b'), i + 2, nil
	case 'f':
		return append(buf, '\f'), i + 2, nil
	case 'n':
		return append(buf, '\n'), i + 2, nil
	case 'r':
		return append(buf, '\r'), i + 2, nil
	case 't':
		return append(buf, '\t'), i + 2, nil
	case 'u':
		r, err := p.hex4(i)
		if err != nil {
			return buf, i, err
		}
		switch {
		case r >= 0xdc00 && r < 0xe000:
			return buf, i, p.errorf(i, "lone surrogate \\u%04x in string", r)
		case r >= 0xd800 && r < 0xdc00:
			j := i + 6
			if j+1 >= len(d) || d[j] != '\\' || d[j+1] != 'u' {
				if j >= len(d) || (j+1 >= len(d) && d[j] == '\\') {
					return buf, i, p.eof()
				}
				return buf, i, p.errorf(i, "lone surrogate \\u%04x in string", r)
			}
			r2, err := p.hex4(j)
			if err != nil {
				return buf, i, err
			}
			if r2 < 0xdc00 || r2 >= 0xe000 {
				return buf, i, p.errorf(i, "lone surrogate \\u%04x in string", r)
			}
			r = 0x10000 + (r-0xd800)<<10 + (r2 - 0xdc00)
			return utf8.AppendRune(buf, r), j + 6, nil
		}
		return utf8.AppendRune(buf, r), i + 6, nil
	default:
		return buf, i, p.errorf(i, "invalid escape %s in string", describe(c))
	}
}

// hex4 decodes the four hex digits of the \u escape at d[i] == '\\'.
func (p *parser[T]) hex4(i int) (rune, error) {
	d := p.data
	var r rune
	for j := i + 2; j < i+6; j++ {
		if j >= len(d) {
			return 0, p.eof()
		}
		c := d[j]
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, p.errorf(j, "invalid %s in \\u escape", describe(c))
		}
		r = r<<4 | rune(c)
	}
	return r, nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number parses the number starting at p.pos.
func (p *parser[T]) number() (any, error) {
	d := p.data
	start := p.pos
	i := start
	neg := false
	if d[i] == '-' {
		neg = true
		i++
	}
	if i >= len(d) {
		return nil, p.eof()
	}
	switch {
	case d[i] == '0':
		i++
		if i < len(d) && isDigit(d[i]) {
			return nil, p.errorf(start, "leading zero in number")
		}
	case isDigit(d[i]):
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	default:
		return nil, p.errorf(i, "unexpected %s in number, expected digit", describe(d[i]))
	}
	intEnd := i
	isFloat := false
	if i < len(d) && d[i] == '.' {
		isFloat = true
		i++
		if i >= len(d) {
			return nil, p.eof()
		}
		if !isDigit(d[i]) {
			return nil, p.errorf(i, "unexpected %s after decimal point, expected digit", describe(d[i]))
		}
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		isFloat = true
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) {
			return nil, p.eof()
		}
		if !isDigit(d[i]) {
			return nil, p.errorf(i, "unexpected %s in exponent, expected digit", describe(d[i]))
		}
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	}
	p.pos = i

	if isFloat {
		f, err := strconv.ParseFloat(string(d[start:i]), 64)
		if err != nil || math.IsInf(f, 0) {
			return nil, p.errorf(start, "number %s out of float64 range", d[start:i])
		}
		return f, nil
	}

	digits := d[start:intEnd]
	if neg {
		digits = digits[1:]
	}
	limit := uint64(math.MaxInt64)
	if neg {
		limit++
	}
	if len(digits) > 19 {
		return nil, p.errorf(start, "integer %s out of int64 range", d[start:i])
	}
	var u uint64
	for j := range len(digits) {
		u = u*10 + uint64(digits[j]-'0') // cannot overflow uint64 with <= 19 digits
	}
	if u > limit {
		return nil, p.errorf(start, "integer %s out of int64 range", d[start:i])
	}
	if neg {
		return -int64(u), nil // -(1<<63) wraps to itself, as intended
	}
	return int64(u), nil
}
