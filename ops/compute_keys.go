package ops

import (
	"math"
	"slices"
	"strings"
)

// --- keys (group_by, join, set members) ---------------------------------------

// computeMapKey is equal for equal keys (integers and floats by value).
type computeMapKey struct {
	kind byte // z null, b boolean, n integral number, f other float, s string
	s    string
	i    int64
	f    float64
}

// computeKeyOf maps a scalar to its map key; ok is false for arrays and
// objects.
func computeKeyOf(v any) (computeMapKey, bool) {
	switch x := v.(type) {
	case nil:
		return computeMapKey{kind: 'z'}, true
	case bool:
		if x {
			return computeMapKey{kind: 'b', i: 1}, true
		}
		return computeMapKey{kind: 'b'}, true
	case string:
		return computeMapKey{kind: 's', s: x}, true
	case int64:
		return computeMapKey{kind: 'n', i: x}, true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return computeMapKey{}, false
		}
		if x == math.Trunc(x) && computeCmpFloatInt(x, math.MaxInt64) < 0 && computeCmpFloatInt(x, math.MinInt64) >= 0 {
			return computeMapKey{kind: 'n', i: int64(x)}, true
		}
		return computeMapKey{kind: 'f', f: x}, true
	}
	return computeMapKey{}, false
}

// computeKeyRank is the type rank of §10.2: null, bool, float, int, string.
func computeKeyRank(v any) int {
	switch v.(type) {
	case nil:
		return 0
	case bool:
		return 1
	case float64:
		return 2
	case int64:
		return 3
	}
	return 4
}

// computeKeyCmp orders keys: type rank, then value.
func computeKeyCmp(a, b any) int {
	ra, rb := computeKeyRank(a), computeKeyRank(b)
	if ra != rb {
		return ra - rb
	}
	switch x := a.(type) {
	case bool:
		y := b.(bool)
		switch {
		case x == y:
			return 0
		case !x:
			return -1
		}
		return 1
	case float64, int64:
		return computeNumOrder(a, b)
	case string:
		return strings.Compare(x, b.(string))
	}
	return 0
}

// computeKeySet collects keys in first-seen order; the shown value of a key
// is the largest of its occurrences in computeNumOrder (the integer when an
// integer and an equal float occur).
type computeKeySet struct {
	ints  map[int64]int // integral numbers, the common case
	strs  map[string]int
	other map[computeMapKey]int // null, booleans, other floats
	shown []any
}

func newComputeKeySet(n int) *computeKeySet {
	return &computeKeySet{ints: make(map[int64]int, n), strs: map[string]int{}, other: map[computeMapKey]int{}}
}

// slot finds key's position; ok is false for a value that is not a key.
func (s *computeKeySet) slot(v any) (key computeMapKey, j int, seen, ok bool) {
	key, ok = computeKeyOf(v)
	if !ok {
		return key, -1, false, false
	}
	switch key.kind {
	case 'n':
		j, seen = s.ints[key.i]
	case 's':
		j, seen = s.strs[key.s]
	default:
		j, seen = s.other[key]
	}
	return key, j, seen, true
}

func (s *computeKeySet) add(v any) (int, bool) {
	key, j, seen, ok := s.slot(v)
	if !ok {
		return -1, false
	}
	if seen {
		if key.kind == 'n' && computeNumOrder(v, s.shown[j]) > 0 {
			s.shown[j] = v
		}
		return j, true
	}
	j = len(s.shown)
	switch key.kind {
	case 'n':
		s.ints[key.i] = j
	case 's':
		s.strs[key.s] = j
	default:
		s.other[key] = j
	}
	s.shown = append(s.shown, v)
	return j, true
}

func (s *computeKeySet) find(v any) (int, bool) {
	_, j, seen, ok := s.slot(v)
	return j, ok && seen
}

// order returns the key positions sorted by key order.
func (s *computeKeySet) order() []int {
	pos := make([]int, len(s.shown))
	for i := range pos {
		pos[i] = i
	}
	slices.SortFunc(pos, func(a, b int) int { return computeKeyCmp(s.shown[a], s.shown[b]) })
	return pos
}

func computeNotScalar(path string) *Error {
	return computeBad(path, "keys and set members must be null, booleans, finite numbers or strings", "%s is not a scalar", path)
}
