package ops

import (
	"math"
	"math/big"

	"github.com/tgms-go/tgms/canon"
)

// --- derive ---------------------------------------------------------------------

func (k *computeCtx) derive() ([]any, error) {
	for _, a := range []string{"input", "field", "op", "into"} {
		if !k.has(a) {
			return nil, computeBad("/"+a, "derive needs input, field, op, into and one of field2 or value", "derive needs %s", a)
		}
	}
	hasF2, hasVal := k.has("field2"), k.has("value")
	if hasF2 == hasVal {
		return nil, computeBad("/field2", "pass exactly one of field2 (a column) or value (a constant)", "derive needs exactly one of field2 and value")
	}
	input, _ := k.c.Args["input"].([]any)
	if err := k.c.Work(int64(len(input))); err != nil {
		return nil, err
	}
	op, into, f2 := k.c.Str("op"), k.c.Str("into"), k.c.Str("field2")
	out := make([]any, len(input))
	for i, e := range input {
		row, ok := e.(map[string]any)
		if !ok {
			return nil, computeBad(computePath("input", i, ""), "derive needs rows (objects)", "element %d is not an object", i)
		}
		if _, dup := row[into]; dup {
			return nil, computeBad("/into", "derive only adds columns: pick a new name", "column %q already exists in input row %d", into, i)
		}
		a, ok := row[k.field]
		if !ok {
			return nil, computeBad(computePath("input", i, ""), "every row must hold field", "field %q missing from input row %d", k.field, i)
		}
		b, bAt := k.c.Args["value"], computeArg("/value")
		if hasF2 {
			if b, ok = row[f2]; !ok {
				return nil, computeBad(computePath("input", i, ""), "every row must hold field2", "field2 %q missing from input row %d", f2, i)
			}
			bAt = computeCell("input", i, f2)
		}
		v, err := computeDerive(op, a, b, computeCell("input", i, k.field), bAt)
		if err != nil {
			return nil, err
		}
		nr := make(map[string]any, len(row)+1)
		for key, x := range row {
			nr[key] = x
		}
		nr[into] = v
		out[i] = nr
	}
	return out, nil
}

// computeText renders a scalar for concat: strings as they are, other
// scalars as canonical JSON.
func computeText(v any, at computeAt) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case []any, map[string]any:
		return "", computeBad(at.String(), "concat joins scalars only", "cannot concatenate %s", kindOf(v))
	}
	b, err := canon.Marshal(v)
	if err != nil {
		return "", computeBad(at.String(), "pass a plain JSON value", "cannot render %v: %v", v, err)
	}
	return string(b), nil
}

func computeDerive(op string, a, b any, aAt, bAt computeAt) (any, error) {
	if op == "concat" {
		sa, err := computeText(a, aAt)
		if err != nil {
			return nil, err
		}
		sb, err := computeText(b, bAt)
		if err != nil {
			return nil, err
		}
		return sa + "|" + sb, nil
	}
	for _, x := range [2]struct {
		v  any
		at computeAt
	}{{a, aAt}, {b, bAt}} {
		if !computeIsNum(x.v) {
			p := x.at.String()
			return nil, computeBad(p, "only integers and floats take part in arithmetic", "non-numeric value at %s: %s", p, kindOf(x.v))
		}
	}
	ai, aInt := a.(int64)
	bi, bInt := b.(int64)
	ints := aInt && bInt
	if ints && op != "div" {
		// int64 fast paths with overflow checks; big otherwise.
		switch op {
		case "add":
			if r := ai + bi; (bi >= 0) == (r >= ai) {
				return r, nil
			}
		case "sub":
			if r := ai - bi; (bi >= 0) == (r <= ai) {
				return r, nil
			}
		case "mul":
			if ai == 0 || bi == 0 {
				return int64(0), nil
			}
			if r := ai * bi; r/bi == ai && !(ai == -1 && bi == math.MinInt64) && !(bi == -1 && ai == math.MinInt64) {
				return r, nil
			}
		case "floordiv":
			if bi == 0 {
				return nil, computeBad(bAt.String(), "the divisor must not be zero", "division by zero")
			}
			if !(ai == math.MinInt64 && bi == -1) {
				q := ai / bi
				if (ai%bi != 0) && ((ai < 0) != (bi < 0)) {
					q--
				}
				return q, nil
			}
		}
	}
	ra, rb := computeRat(a), computeRat(b)
	switch op {
	case "add":
		return computeFromRat(new(big.Rat).Add(ra, rb), ints, aAt)
	case "sub":
		return computeFromRat(new(big.Rat).Sub(ra, rb), ints, aAt)
	case "mul":
		return computeFromRat(new(big.Rat).Mul(ra, rb), ints, aAt)
	case "div":
		return computeQuotient(ra, rb, ints, bAt, aAt)
	case "floordiv":
		if rb.Sign() == 0 {
			return nil, computeBad(bAt.String(), "the divisor must not be zero", "division by zero")
		}
		q := new(big.Rat).Quo(ra, rb)
		fl := new(big.Int).Div(q.Num(), q.Denom()) // Euclidean with positive denominator = floor
		if ints {
			return computeFromInt(fl, aAt)
		}
		return computeFromRat(new(big.Rat).SetInt(fl), false, aAt)
	}
	return nil, computeBad("/op", "", "unknown op %q", op)
}
