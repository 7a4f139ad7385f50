package ops

import (
	"bytes"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/tgms-go/tgms/canon"
)

// --- grouped reducers and topk ----------------------------------------------------

func (k *computeCtx) grouped(input []any) ([]any, error) {
	col := k.c.Str("group_by")
	if col == k.fn && k.fn != "topk" {
		return nil, computeBad("/group_by", "rename the column first (derive) or group by another column",
			"group_by %q would collide with the output column %q", col, k.fn)
	}
	if k.fn == "topk" {
		if err := k.topkArgs(); err != nil {
			return nil, err
		}
	} else if k.fn != "count" && !k.has("field") {
		return nil, computeBad("/field", "name the column to reduce", "%s with group_by needs field", k.fn)
	}
	keys := newComputeKeySet(16)
	var members [][]int
	for i, e := range input {
		row, ok := e.(map[string]any)
		if !ok {
			return nil, computeBad(computePath("input", i, ""), "group_by needs rows (objects)", "element %d is not an object", i)
		}
		v, ok := row[col]
		if !ok {
			return nil, computeBad(computePath("input", i, ""), "every row must hold the group_by column", "group_by column %q missing from input row %d", col, i)
		}
		g, ok := keys.add(v)
		if !ok {
			return nil, computeNotScalar(computePath("input", i, col))
		}
		if g == len(members) {
			members = append(members, nil)
		}
		members[g] = append(members[g], i)
	}
	if k.fn != "count" && k.fn != "topk" {
		// every value is checked before any group is reduced, so a bad
		// value is reported before an out-of-range result
		if _, err := k.numbers(input, nil); err != nil {
			return nil, err
		}
	}
	var rows []any
	for _, g := range keys.order() {
		idx := members[g]
		list := make([]any, len(idx))
		for j, i := range idx {
			list[j] = input[i]
		}
		if k.fn == "topk" {
			kept, err := k.topk(list, "/input", idx)
			if err != nil {
				return nil, err
			}
			rows = append(rows, kept...)
			continue
		}
		v, err := k.reduce(k.fn, list, "/input", idx)
		if err != nil {
			return nil, err
		}
		rows = append(rows, map[string]any{col: keys.shown[g], k.fn: v})
	}
	return rows, nil
}

// computePct is pct as the exact decimal of its shortest representation.
func computePct(v any) *big.Rat {
	switch x := v.(type) {
	case int64:
		return new(big.Rat).SetInt64(x)
	case float64:
		r, _ := new(big.Rat).SetString(strconv.FormatFloat(x, 'g', -1, 64))
		return r
	}
	return new(big.Rat)
}

// computeCeilFrac is ceil(n·p/100) for p in [0, 100].
func computeCeilFrac(n int, p *big.Rat) int {
	r := new(big.Rat).Mul(new(big.Rat).SetInt64(int64(n)), p)
	r.Quo(r, big.NewRat(100, 1))
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if m.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	return int(q.Int64())
}

// topkArgs checks the arguments of topk before any row is read.
func (k *computeCtx) topkArgs() error {
	if k.has("k") == k.has("pct") {
		return computeBad("/k", "pass exactly one of k or pct", "topk needs exactly one of k and pct")
	}
	if !k.has("field") {
		return computeBad("/field", "name the column to rank by", "topk needs field")
	}
	return nil
}

// topk ranks list (rows; idx maps to input positions) and keeps a side;
// topkArgs has been checked.
func (k *computeCtx) topk(list []any, base string, idx []int) ([]any, error) {
	hasK := k.has("k")
	var pct *big.Rat
	if !hasK {
		pct = computePct(k.c.Args["pct"])
	}
	vals, err := k.numbers(list, idx)
	if err != nil {
		return nil, err
	}
	n := len(list)
	// The canonical texts break ties only; they are made when first needed.
	texts := make([][]byte, n)
	var textErr error
	text := func(j int) []byte {
		if texts[j] == nil {
			b, err := canon.Marshal(list[j])
			if err != nil && textErr == nil {
				i := k.inputIndex(idx, j)
				textErr = computeBad(computePath("input", i, ""), "rows must be plain JSON", "row %d has no canonical JSON form: %v", i, err)
			}
			texts[j] = b
		}
		return texts[j]
	}
	keys := make([]computeNumKey, n)
	rank := make([]int, n)
	for j := range rank {
		rank[j], keys[j] = j, computeNumKeyOf(vals[j])
	}
	slices.SortStableFunc(rank, func(a, b int) int {
		if c := keys[b].cmp(keys[a]); c != 0 {
			return c
		}
		return bytes.Compare(text(a), text(b))
	})
	if textErr != nil {
		return nil, textErr
	}
	side := k.c.Str("side")
	var cut int
	switch {
	case side != "bottom" && hasK:
		cut = min(int(k.c.Int("k")), n)
	case side != "bottom":
		cut = computeCeilFrac(n, pct)
	case hasK:
		cut = max(0, n-int(k.c.Int("k")))
	default:
		cut = computeCeilFrac(n, new(big.Rat).Sub(big.NewRat(100, 1), pct))
	}
	keep := rank[:cut]
	if side == "bottom" {
		keep = rank[cut:]
	}
	out := make([]any, len(keep))
	for j, r := range keep {
		out[j] = list[r]
	}
	return out, nil
}

// --- filter ---------------------------------------------------------------------

// computeEqual is value equality: numbers by exact value, otherwise same
// type and content.
func computeEqual(a, b any) bool {
	if computeIsNum(a) && computeIsNum(b) {
		return computeCmpNum(a, b) == 0
	}
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !computeEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for key, xv := range x {
			yv, ok := y[key]
			if !ok || !computeEqual(xv, yv) {
				return false
			}
		}
		return true
	}
	return false
}

func (k *computeCtx) filter(input []any) ([]any, error) {
	if !k.has("cmp") {
		return nil, computeBad("/cmp", "pick a comparison: eq ne lt le gt ge contains is_null not_null", "filter needs cmp")
	}
	cmp := k.c.Str("cmp")
	hasF2, hasVal := k.has("field2"), k.has("value")
	if hasF2 && hasVal {
		return nil, computeBad("/field2", "compare with a constant (value) or with another column (field2), not both", "filter takes field2 or value, not both")
	}
	if hasF2 && !k.has("field") {
		return nil, computeBad("/field", "field2 compares two columns of each row: name field too", "field2 needs field")
	}
	nullTest := cmp == "is_null" || cmp == "not_null"
	if nullTest && (hasF2 || hasVal) {
		p := "/value"
		if hasF2 {
			p = "/field2"
		}
		return nil, computeBad(p, "is_null and not_null read only field", "%s takes neither value nor field2", cmp)
	}
	left, err := k.values(input, nil)
	if err != nil {
		return nil, err
	}
	f2 := k.c.Str("field2")
	var out []any
	for i, l := range left {
		var keep bool
		if nullTest {
			keep = (l == nil) == (cmp == "is_null")
		} else {
			r, rAt := k.c.Args["value"], computeArg("/value")
			if hasF2 {
				row := input[i].(map[string]any)
				var ok bool
				if r, ok = row[f2]; !ok {
					return nil, computeBad(computePath("input", i, ""), "every row must hold field2", "field2 %q missing from input row %d", f2, i)
				}
				rAt = computeCell("input", i, f2)
			}
			if keep, err = computeTest(cmp, l, r, k.valueAt(nil, i), rAt); err != nil {
				return nil, err
			}
		}
		if keep {
			out = append(out, input[i])
		}
	}
	return out, nil
}

// computeTest applies one comparison.
func computeTest(cmp string, l, r any, lAt, rAt computeAt) (bool, error) {
	if r == nil {
		return false, computeBad(rAt.String(), "use cmp is_null / not_null to test for null", "cannot compare with null")
	}
	switch cmp {
	case "contains":
		switch x := l.(type) {
		case string:
			s, ok := r.(string)
			if !ok {
				return false, computeBad(rAt.String(), "a string contains only strings", "cannot look for %s in a string", kindOf(r))
			}
			return strings.Contains(x, s), nil
		case []any:
			for _, e := range x {
				if computeEqual(e, r) {
					return true, nil
				}
			}
		}
		return false, nil
	}
	if l == nil {
		return false, computeBad(lAt.String(), "use cmp is_null / not_null to test for null, or filter not_null first", "cannot compare a null")
	}
	switch cmp {
	case "eq":
		return computeEqual(l, r), nil
	case "ne":
		return !computeEqual(l, r), nil
	}
	var c int
	switch {
	case computeIsNum(l) && computeIsNum(r):
		c = computeCmpNum(l, r)
	default:
		ls, lok := l.(string)
		rs, rok := r.(string)
		if !lok || !rok {
			return false, computeBad(lAt.String(), "lt, le, gt and ge compare two numbers or two strings",
				"cannot order %s and %s", kindOf(l), kindOf(r))
		}
		c = strings.Compare(ls, rs)
	}
	switch cmp {
	case "lt":
		return c < 0, nil
	case "le":
		return c <= 0, nil
	case "gt":
		return c > 0, nil
	}
	return c >= 0, nil
}
