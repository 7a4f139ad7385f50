package ops

import (
	"math"
	"math/big"
)

// --- numbers ------------------------------------------------------------------

// computeNum reads a number: ok is false for anything that is not a finite
// int64 or float64 (booleans included).
func computeNum(v any) (isInt bool, i int64, f float64, ok bool) {
	switch x := v.(type) {
	case int64:
		return true, x, 0, true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false, 0, 0, false
		}
		return false, 0, x, true
	}
	return false, 0, 0, false
}

func computeIsNum(v any) bool { _, _, _, ok := computeNum(v); return ok }

// computeCmpFloatInt compares a finite float with an integer exactly.
func computeCmpFloatInt(f float64, i int64) int {
	const two63 = 9223372036854775808.0
	if f >= two63 {
		return 1
	}
	if f < -two63 {
		return -1
	}
	t := math.Trunc(f)
	if ti := int64(t); ti != i {
		return cmpOrdered(ti, i)
	}
	switch fr := f - t; {
	case fr > 0:
		return 1
	case fr < 0:
		return -1
	}
	return 0
}

// computeCmpNum compares two numbers by exact value (-0.0 == 0.0).
func computeCmpNum(a, b any) int {
	switch x := a.(type) {
	case int64:
		if y, ok := b.(int64); ok {
			return cmpOrdered(x, y)
		}
		return -computeCmpFloatInt(b.(float64), x)
	case float64:
		if y, ok := b.(int64); ok {
			return computeCmpFloatInt(x, y)
		}
		return cmpOrdered(x, b.(float64))
	}
	return 0
}

// computeNumOrder is the total order on numbers: value, then float before
// integer, then -0.0 before 0.0.
func computeNumOrder(a, b any) int {
	if c := computeCmpNum(a, b); c != 0 {
		return c
	}
	fa, aFloat := a.(float64)
	fb, bFloat := b.(float64)
	switch {
	case aFloat && !bFloat:
		return -1
	case !aFloat && bFloat:
		return 1
	case aFloat && bFloat:
		sa, sb := math.Signbit(fa), math.Signbit(fb)
		if sa && !sb {
			return -1
		}
		if !sa && sb {
			return 1
		}
	}
	return 0
}

// computeNumKey is a number unpacked from its interface, for sorting
// without a type switch per comparison.
type computeNumKey struct {
	f     float64
	i     int64
	isInt bool
}

func computeNumKeyOf(v any) computeNumKey {
	if i, ok := v.(int64); ok {
		return computeNumKey{i: i, isInt: true}
	}
	f, _ := v.(float64)
	return computeNumKey{f: f}
}

// cmp compares by exact value, like computeCmpNum.
func (a computeNumKey) cmp(b computeNumKey) int {
	switch {
	case a.isInt && b.isInt:
		return cmpOrdered(a.i, b.i)
	case !a.isInt && !b.isInt:
		return cmpOrdered(a.f, b.f)
	case a.isInt:
		return -computeCmpFloatInt(b.f, a.i)
	}
	return computeCmpFloatInt(a.f, b.i)
}

// order is the total order of computeNumOrder.
func (a computeNumKey) order(b computeNumKey) int {
	if c := a.cmp(b); c != 0 {
		return c
	}
	switch {
	case a.isInt != b.isInt:
		if a.isInt {
			return 1
		}
		return -1
	case !a.isInt:
		sa, sb := math.Signbit(a.f), math.Signbit(b.f)
		if sa != sb {
			if sa {
				return -1
			}
			return 1
		}
	}
	return 0
}

func (a computeNumKey) value() any {
	if a.isInt {
		return a.i
	}
	return a.f
}

func computeRat(v any) *big.Rat {
	if i, ok := v.(int64); ok {
		return new(big.Rat).SetInt64(i)
	}
	return new(big.Rat).SetFloat64(v.(float64))
}

// computeFromRat turns an exact result into a payload number: an int64 when
// intOK and the value is integral, else the nearest float64.
func computeFromRat(r *big.Rat, intOK bool, at computeAt) (any, error) {
	if intOK && r.IsInt() {
		return computeFromInt(r.Num(), at)
	}
	f, _ := r.Float64()
	if math.IsInf(f, 0) {
		return nil, computeLimit(at, "the result is beyond the float64 range")
	}
	return f, nil
}

func computeFromInt(b *big.Int, at computeAt) (any, error) {
	if !b.IsInt64() {
		return nil, computeLimit(at, "the exact integer result %s is outside the int64 range", b.String())
	}
	return b.Int64(), nil
}

// computeTotal is the exact sum as a payload number: an integer when every
// value was one, else the float nearest to the exact sum.
func computeTotal(s *exactSum, at computeAt) (any, error) {
	if !s.floats {
		return computeFromInt(s.intPart(), at)
	}
	return computeFromRat(s.rat(), false, at)
}

// computeMean is the exact sum divided by the count, rounded once.
func computeMean(s *exactSum, at computeAt) (any, error) {
	return computeFromRat(s.meanRat(), !s.floats, at)
}

// computeQuotient is n/d exactly: an integer when both are integers and d
// divides n, else the nearest float. A zero d is refused at dPath.
func computeQuotient(n, d *big.Rat, intOK bool, dAt, at computeAt) (any, error) {
	if d.Sign() == 0 {
		return nil, computeBad(dAt.String(), "the divisor must not be zero", "division by zero")
	}
	return computeFromRat(new(big.Rat).Quo(n, d), intOK, at)
}

// binary: ratio, diff, percent of x and y.
func (k *computeCtx) binary() (map[string]any, error) {
	for _, a := range []string{"x", "y"} {
		if !k.has(a) {
			return nil, computeBad("/"+a, "pass both x and y", "%s needs %s", k.fn, a)
		}
	}
	x, y := k.c.Args["x"], k.c.Args["y"]
	for _, a := range []string{"x", "y"} {
		if !computeIsNum(k.c.Args[a]) {
			return nil, computeBad("/"+a, "pass a finite number", "%s is not a number", a)
		}
	}
	_, xInt := x.(int64)
	_, yInt := y.(int64)
	var v any
	var err error
	switch k.fn {
	case "diff":
		v, err = computeFromRat(new(big.Rat).Sub(computeRat(x), computeRat(y)), xInt && yInt, computeArg("/x"))
	case "ratio":
		v, err = computeQuotient(computeRat(x), computeRat(y), xInt && yInt, computeArg("/y"), computeArg("/x"))
	case "percent":
		n := new(big.Rat).Mul(computeRat(x), big.NewRat(100, 1))
		v, err = computeQuotient(n, computeRat(y), xInt && yInt, computeArg("/y"), computeArg("/x"))
	}
	if err != nil {
		return nil, err
	}
	return map[string]any{"value": v, "truncated": false}, nil
}

func (k *computeCtx) intervalRelation() (map[string]any, error) {
	var iv [2][2]int64
	for j, name := range []string{"a", "b"} {
		m, ok := k.c.Args[name].(map[string]any)
		if !ok {
			return nil, computeBad("/"+name, "pass {start, end}", "interval_relation needs %s", name)
		}
		s, e := toInt(m["start"]), toInt(m["end"])
		if s >= e {
			return nil, computeBad("/"+name, "an interval is [start, end) with start < end", "interval %s is empty or inverted: start %d, end %d", name, s, e)
		}
		iv[j] = [2]int64{s, e}
	}
	rel := allenRelation(iv[0][0], iv[0][1], iv[1][0], iv[1][1])
	return map[string]any{"value": rel, "truncated": false}, nil
}
