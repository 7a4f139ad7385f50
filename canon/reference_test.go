package canon

// The encoder as it was before its sorting and string fast paths: the
// reference the property tests compare the encoder against.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// refRounding is the reference's rounding state.
type refRounding struct{ changed bool }

func refAppendValue(dst []byte, v any, depth int, r *refRounding) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case string:
		return refAppendStringChecked(dst, x)
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
		return refAppendObject(dst, x, depth, r)
	case []any:
		if depth >= MaxDepth {
			return dst, errDepth
		}
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = refAppendValue(dst, e, depth+1, r); err != nil {
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
			if dst, err = refAppendStringChecked(dst, s); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case map[string]string:
		return refAppendStringMap(dst, x)
	case Appender:
		return x.AppendCanonical(dst)
	}
	return dst, fmt.Errorf("canon: unsupported type %T", v)
}

type refEntry[V any] struct {
	k string
	v V
}

// sortedEntries returns the entries of m sorted by key in byte order, using
// buf when it is large enough. Collecting values with keys saves a map
// lookup per key.
func refSortedEntries[V any](buf []refEntry[V], m map[string]V) []refEntry[V] {
	es := buf[:0]
	if len(m) > cap(buf) {
		es = make([]refEntry[V], 0, len(m))
	}
	for k, v := range m {
		es = append(es, refEntry[V]{k, v})
	}
	if len(es) <= 16 {
		for i := 1; i < len(es); i++ {
			for j := i; j > 0 && es[j].k < es[j-1].k; j-- {
				es[j], es[j-1] = es[j-1], es[j]
			}
		}
	} else {
		slices.SortFunc(es, func(a, b refEntry[V]) int { return strings.Compare(a.k, b.k) })
	}
	return es
}

func refAppendObject(dst []byte, m map[string]any, depth int, r *refRounding) ([]byte, error) {
	if depth >= MaxDepth {
		return dst, errDepth
	}
	if len(m) == 0 {
		return append(dst, "{}"...), nil
	}
	var buf [16]refEntry[any]
	var err error
	dst = append(dst, '{')
	for i, e := range refSortedEntries(buf[:], m) {
		if i > 0 {
			dst = append(dst, ',')
		}
		if dst, err = refAppendStringChecked(dst, e.k); err != nil {
			return dst, err
		}
		dst = append(dst, ':')
		if dst, err = refAppendValue(dst, e.v, depth+1, r); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

func refAppendStringMap(dst []byte, m map[string]string) ([]byte, error) {
	var buf [16]refEntry[string]
	var err error
	dst = append(dst, '{')
	for i, e := range refSortedEntries(buf[:], m) {
		if i > 0 {
			dst = append(dst, ',')
		}
		if dst, err = refAppendStringChecked(dst, e.k); err != nil {
			return dst, err
		}
		dst = append(dst, ':')
		if dst, err = refAppendStringChecked(dst, e.v); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

// appendStringChecked is AppendString that also validates UTF-8.
func refAppendStringChecked(dst []byte, s string) ([]byte, error) {
	dst = append(dst, '"')
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
