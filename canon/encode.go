package canon

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxDepth is the deepest nesting of arrays and objects that Parse accepts
// and that Marshal will encode. A top-level array has depth 1.
const MaxDepth = 512

// Raw is JSON text that is already canonical. Marshal copies it verbatim,
// without checking it; an empty Raw is an error.
type Raw []byte

// AppendCanonical appends r verbatim to dst.
func (r Raw) AppendCanonical(dst []byte) ([]byte, error) {
	if len(r) == 0 {
		return dst, errEmptyRaw
	}
	return append(dst, r...), nil
}

// Appender is implemented by types that encode themselves as canonical JSON.
// AppendCanonical must append exactly one complete canonical JSON value.
type Appender interface {
	AppendCanonical(dst []byte) ([]byte, error)
}

// ErrNonFinite is returned when a NaN or infinite float64 is encoded.
var ErrNonFinite = errors.New("canon: non-finite float (NaN or Inf) cannot be encoded")

// ErrFootprint is returned by Summarize when the value's Footprint exceeds
// the limit it was given.
var ErrFootprint = errors.New("canon: value footprint exceeds the limit")

var (
	errEmptyRaw    = errors.New("canon: empty Raw value")
	errInvalidUTF8 = errors.New("canon: invalid UTF-8 in string")
	errDepth       = fmt.Errorf("canon: nesting depth exceeds %d", MaxDepth)
)

// Marshal returns the canonical encoding of v.
//
// Accepted types: nil, bool, string, int, int8, int16, int32, int64, uint8,
// uint16, uint32, uint64 and uint (when they fit in int64), float64 (finite
// only), []any, map[string]any, []string, map[string]string, Raw and
// Appender. Typed nil slices and maps encode as [] and {}. Anything else,
// including float32 and json.Number, is an error.
func Marshal(v any) ([]byte, error) {
	bp := bufPool.Get().(*[]byte)
	b, err := appendValue((*bp)[:0], v, 0, nil)
	var out []byte
	if err == nil {
		out = make([]byte, len(b))
		copy(out, b)
	}
	putBuf(bp, b)
	return out, err
}

// AppendValue appends the canonical encoding of v to dst. On error the
// returned slice holds dst with some unspecified partial output appended.
func AppendValue(dst []byte, v any) ([]byte, error) {
	return appendValue(dst, v, 0, nil)
}

// digestWalk, when passed to appendValue, makes it encode every float64 as
// Round9 of it (as if RoundFloats had run first), record whether any float
// changed, and add up the Footprint of what it encodes in size, stopping
// with ErrFootprint once size exceeds max.
type digestWalk struct {
	changed   bool
	size, max int64
	shape     shape
}

// shape holds the sorted keys of an object the walk has encoded. A later
// object with the same keys (the next row of a list, mostly) is encoded in
// that order by looking its keys up, without collecting and sorting its
// members.
type shape struct {
	n    int
	keys [16]string
}

// minShape is the fewest keys an object needs to be worth a shape: smaller
// ones sort about as fast as they are looked up.
const minShape = 3

// entries returns the members of m in the shape's order, or nil when m
// does not have exactly the shape's keys.
func (s *shape) entries(buf []entry[any], m map[string]any) []entry[any] {
	if len(m) != s.n {
		return nil
	}
	es := buf[:0]
	for _, k := range s.keys[:s.n] {
		v, ok := m[k]
		if !ok {
			return nil
		}
		es = append(es, entry[any]{k: k, v: v})
	}
	return es
}

// remember makes es, sorted, the shape.
func (s *shape) remember(es []entry[any]) {
	if len(es) < minShape || len(es) > len(s.keys) {
		return
	}
	s.n = len(es)
	for i, e := range es {
		s.keys[i] = e.k
	}
}

func appendValue(dst []byte, v any, depth int, r *digestWalk) ([]byte, error) {
	if r != nil {
		r.size += 16 // every value; strings, arrays and objects add more below
	}
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case string:
		if r != nil {
			r.size += int64(len(x))
		}
		return appendStringChecked(dst, x)
	case int64:
		return strconv.AppendInt(dst, x, 10), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			if r != nil {
				return dst, ErrNonFiniteOutput
			}
			return dst, ErrNonFinite
		}
		if r != nil {
			y := Round9(x)
			r.changed = r.changed || math.Float64bits(y) != math.Float64bits(x)
			x = y
		}
		return AppendFloat(dst, x), nil
	case bool:
		if x {
			return append(dst, "true"...), nil
		}
		return append(dst, "false"...), nil
	case map[string]any:
		return appendObject(dst, x, depth, r)
	case []any:
		if depth >= MaxDepth {
			return dst, errDepth
		}
		if r != nil {
			r.size += 24 - 16
		}
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			if r != nil && r.size > r.max {
				return dst, ErrFootprint
			}
			var err error
			if dst, err = appendValue(dst, e, depth+1, r); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case int:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case int32:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case uint32:
		return strconv.AppendUint(dst, uint64(x), 10), nil
	case int8:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case int16:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case uint8:
		return strconv.AppendUint(dst, uint64(x), 10), nil
	case uint16:
		return strconv.AppendUint(dst, uint64(x), 10), nil
	case uint64:
		if x > math.MaxInt64 {
			return dst, fmt.Errorf("canon: integer %d out of int64 range", x)
		}
		return strconv.AppendUint(dst, x, 10), nil
	case uint:
		if uint64(x) > math.MaxInt64 {
			return dst, fmt.Errorf("canon: integer %d out of int64 range", x)
		}
		return strconv.AppendUint(dst, uint64(x), 10), nil
	case Raw:
		return x.AppendCanonical(dst)
	case []string:
		dst = append(dst, '[')
		for i, s := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendStringChecked(dst, s); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case map[string]string:
		return appendStringMap(dst, x)
	case Sized:
		if r != nil {
			r.size += x.Footprint() - 16
		}
		return x.AppendCanonical(dst)
	case Appender:
		return x.AppendCanonical(dst)
	}
	return dst, fmt.Errorf("canon: unsupported type %T", v)
}

type entry[V any] struct {
	p uint64 // keyPrefix(k)
	k string
	v V
}

// keyPrefix is the first eight bytes of k as a big-endian number, padded
// with zeros: keys whose prefixes differ are ordered as their prefixes, so
// most comparisons while sorting are of two integers.
func keyPrefix(k string) uint64 {
	var p uint64
	n := min(len(k), 8)
	for i := range n {
		p |= uint64(k[i]) << (56 - 8*i)
	}
	return p
}

func (a *entry[V]) less(b *entry[V]) bool {
	if a.p != b.p {
		return a.p < b.p
	}
	return a.k < b.k
}

// sortedEntries returns the entries of m sorted by key in byte order, using
// buf when it is large enough. Collecting values with keys saves a map
// lookup per key.
func sortedEntries[V any](buf []entry[V], m map[string]V) []entry[V] {
	es := buf[:0]
	if len(m) > cap(buf) {
		es = make([]entry[V], 0, len(m))
	}
	for k, v := range m {
		es = append(es, entry[V]{keyPrefix(k), k, v})
	}
	if len(es) <= 16 {
		for i := 1; i < len(es); i++ {
			if !es[i].less(&es[i-1]) {
				continue
			}
			e, j := es[i], i
			for ; j > 0 && e.less(&es[j-1]); j-- {
				es[j] = es[j-1]
			}
			es[j] = e
		}
	} else {
		slices.SortFunc(es, func(a, b entry[V]) int {
			if a.p != b.p {
				return cmp.Compare(a.p, b.p)
			}
			return strings.Compare(a.k, b.k)
		})
	}
	return es
}

func appendObject(dst []byte, m map[string]any, depth int, r *digestWalk) ([]byte, error) {
	if depth >= MaxDepth {
		return dst, errDepth
	}
	if r != nil {
		r.size += 48 - 16
	}
	if len(m) == 0 {
		return append(dst, "{}"...), nil
	}
	var buf [16]entry[any]
	var es []entry[any]
	if r != nil && len(m) >= minShape {
		es = r.shape.entries(buf[:], m)
	}
	if es == nil {
		es = sortedEntries(buf[:], m)
		if r != nil {
			r.shape.remember(es)
		}
	}
	var err error
	dst = append(dst, '{')
	for i, e := range es {
		if i > 0 {
			dst = append(dst, ',')
		}
		if r != nil {
			if r.size += 16 + int64(len(e.k)); r.size > r.max {
				return dst, ErrFootprint
			}
		}
		if dst, err = appendStringChecked(dst, e.k); err != nil {
			return dst, err
		}
		dst = append(dst, ':')
		if dst, err = appendValue(dst, e.v, depth+1, r); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

func appendStringMap(dst []byte, m map[string]string) ([]byte, error) {
	var buf [16]entry[string]
	var err error
	dst = append(dst, '{')
	for i, e := range sortedEntries(buf[:], m) {
		if i > 0 {
			dst = append(dst, ',')
		}
		if dst, err = appendStringChecked(dst, e.k); err != nil {
			return dst, err
		}
		dst = append(dst, ':')
		if dst, err = appendStringChecked(dst, e.v); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

// Byte classes for string encoding.
const (
	clsPlain  = 0 // copied as is
	clsEscape = 1 // needs a backslash escape
	clsHigh   = 2 // starts (or continues) a multi-byte UTF-8 sequence
)

var strClass = func() (t [256]uint8) {
	for c := 0; c < 0x20; c++ {
		t[c] = clsEscape
	}
	t['"'] = clsEscape
	t['\\'] = clsEscape
	for c := 0x80; c < 0x100; c++ {
		t[c] = clsHigh
	}
	return t
}()

const hexDigits = "0123456789abcdef"

// AppendString appends s to dst as a canonical JSON string: enclosed in
// double quotes, with '"', '\\' and the control characters below U+0020
// escaped (\b \t \n \f \r for those five, \u00xx with lowercase hex for the
// rest) and every other byte copied as is. s must be valid UTF-8; AppendString
// does not check, and invalid bytes are copied through unchanged. Marshal
// checks.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if strClass[c] != clsEscape {
			continue
		}
		dst = append(dst, s[start:i]...)
		dst = appendEscape(dst, c)
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendStringChecked is AppendString that also validates UTF-8.
func appendStringChecked(dst []byte, s string) ([]byte, error) {
	// Most strings are ASCII with nothing to escape: one pass over the byte
	// classes tells, and they are copied whole.
	var cls uint8
	for i := 0; i < len(s); i++ {
		cls |= strClass[s[i]]
	}
	dst = append(dst, '"')
	if cls == clsPlain {
		dst = append(dst, s...)
		return append(dst, '"'), nil
	}
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch strClass[c] {
		case clsPlain:
			i++
		case clsEscape:
			dst = append(dst, s[start:i]...)
			dst = appendEscape(dst, c)
			i++
			start = i
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				return dst, errInvalidUTF8
			}
			i += size
		}
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"'), nil
}

func appendEscape(dst []byte, c byte) []byte {
	switch c {
	case '"':
		return append(dst, '\\', '"')
	case '\\':
		return append(dst, '\\', '\\')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	}
	return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
}

// AppendInt appends the decimal form of i to dst.
func AppendInt(dst []byte, i int64) []byte {
	return strconv.AppendInt(dst, i, 10)
}
