package ops

import "slices"

// --- join -----------------------------------------------------------------------

// computeIndex keys the rows of list by col: keys must be scalars and unique.
func computeIndex(list []any, name, col string) (*computeKeySet, []int, error) {
	keys := newComputeKeySet(len(list))
	rowOf := make([]int, 0, len(list))
	for i, e := range list {
		row, ok := e.(map[string]any)
		if !ok {
			return nil, nil, computeBad(computePath(name, i, ""), "join needs rows (objects)", "element %d of %s is not an object", i, name)
		}
		v, ok := row[col]
		if !ok {
			return nil, nil, computeBad(computePath(name, i, ""), "every row must hold its join key", "key %q missing from %s row %d", col, name, i)
		}
		before := len(keys.shown)
		if _, ok := keys.add(v); !ok {
			return nil, nil, computeNotScalar(computePath(name, i, col))
		}
		if len(keys.shown) == before {
			return nil, nil, computeBad(computePath(name, i, col), "join keys must be unique on each side; reduce or group the rows first",
				"duplicate join key in %s row %d", name, i)
		}
		rowOf = append(rowOf, i)
	}
	return keys, rowOf, nil
}

func (k *computeCtx) join() ([]any, error) {
	for _, a := range []string{"input", "other", "on"} {
		if !k.has(a) {
			return nil, computeBad("/"+a, "join needs input, other and on", "join needs %s", a)
		}
	}
	input, _ := k.c.Args["input"].([]any)
	other, _ := k.c.Args["other"].([]any)
	if err := k.c.Work(int64(len(input) + len(other))); err != nil {
		return nil, err
	}
	on := k.c.Str("on")
	otherOn := on
	if k.has("other_on") {
		otherOn = k.c.Str("other_on")
	}
	prefix := k.c.Str("other_prefix")
	if !k.has("other_prefix") {
		prefix = "r_"
	}
	left, leftRow, err := computeIndex(input, "input", on)
	if err != nil {
		return nil, err
	}
	right, rightRow, err := computeIndex(other, "other", otherOn)
	if err != nil {
		return nil, err
	}
	var rightCols []string
	if k.c.Str("how") == "left" {
		seen := map[string]bool{otherOn: true}
		rightCols = append(rightCols, otherOn)
		for _, e := range other {
			for c := range e.(map[string]any) {
				if !seen[c] {
					seen[c] = true
					rightCols = append(rightCols, c)
				}
			}
		}
	}
	fill := k.c.Args["fill"]
	var out []any
	for _, g := range left.order() {
		lrow := input[leftRow[g]].(map[string]any)
		var rrow map[string]any
		if j, ok := right.find(left.shown[g]); ok {
			rrow = other[rightRow[j]].(map[string]any)
		} else if rightCols == nil {
			continue
		}
		nr := make(map[string]any, len(lrow)+len(rightCols)+4)
		for c, v := range lrow {
			nr[c] = v
		}
		put := func(c string, v any) error {
			if _, dup := lrow[c]; dup {
				return computeBad("/other_prefix", "choose an other_prefix that no left column starts with",
					"right column %q collides with a left column", c)
			}
			nr[c] = v
			return nil
		}
		if rrow != nil {
			for c, v := range rrow {
				if err := put(prefix+c, v); err != nil {
					return nil, err
				}
			}
		} else {
			for _, c := range rightCols {
				if err := put(prefix+c, fill); err != nil {
					return nil, err
				}
			}
		}
		out = append(out, nr)
	}
	return out, nil
}

// --- set operations -----------------------------------------------------------------

func (k *computeCtx) setOp() ([]any, error) {
	for _, a := range []string{"input", "other"} {
		if !k.has(a) {
			return nil, computeBad("/"+a, "set operations need input and other", "%s needs %s", k.fn, a)
		}
	}
	input, _ := k.c.Args["input"].([]any)
	other, _ := k.c.Args["other"].([]any)
	if err := k.c.Work(int64(len(input) + len(other))); err != nil {
		return nil, err
	}
	members := func(list []any, name, field string, hasField bool) (*computeKeySet, error) {
		s := newComputeKeySet(len(list))
		for i, e := range list {
			v, at := e, computeAt{list: name, i: i}
			if hasField {
				row, ok := e.(map[string]any)
				if !ok {
					return nil, computeBad(at.String(), "pass rows (objects), or set the field to null to use the elements themselves", "element %d of %s is not an object", i, name)
				}
				if v, ok = row[field]; !ok {
					return nil, computeBad(at.String(), "every row must hold the member column", "field %q missing from %s row %d", field, name, i)
				}
				at = computeCell(name, i, field)
			}
			if _, ok := s.add(v); !ok {
				return nil, computeNotScalar(at.String())
			}
		}
		return s, nil
	}
	a, err := members(input, "input", k.field, k.has("field"))
	if err != nil {
		return nil, err
	}
	of, hasOF := k.c.Str("other_field"), k.has("other_field")
	if !hasOF {
		of, hasOF = k.field, k.has("field")
	}
	b, err := members(other, "other", of, hasOF)
	if err != nil {
		return nil, err
	}
	var out []any
	switch k.fn {
	case "union":
		for _, v := range b.shown {
			a.add(v) // keeps the integer of an equal int/float pair
		}
		out = a.shown
	case "intersect":
		for _, v := range a.shown {
			if j, inB := b.find(v); inB {
				if computeNumOrder(b.shown[j], v) > 0 {
					v = b.shown[j]
				}
				out = append(out, v)
			}
		}
	default:
		for _, v := range a.shown {
			if _, inB := b.find(v); !inB {
				out = append(out, v)
			}
		}
	}
	slices.SortFunc(out, computeKeyCmp)
	return out, nil
}
