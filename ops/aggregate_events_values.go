package ops

import (
	"math"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
)

// --- numbers ----------------------------------------------------------------

// aggNum is a JSON number: an int64 or a float64.
type aggNum struct {
	isFloat bool
	i       int64
	f       float64
}

func aggNumOf(v any) (aggNum, bool) {
	switch x := v.(type) {
	case int64:
		return aggNum{i: x}, true
	case float64:
		return aggNum{isFloat: true, f: x}, true
	}
	return aggNum{}, false
}

func (n aggNum) value() any {
	if n.isFloat {
		return n.f
	}
	return n.i
}

// aggCmpNum compares exactly (an int64 and a float64 by value).
func aggCmpNum(a, b aggNum) int {
	switch {
	case !a.isFloat && !b.isFloat:
		return cmpOrdered(a.i, b.i)
	case a.isFloat && b.isFloat:
		return cmpOrdered(a.f, b.f)
	case a.isFloat:
		return computeCmpFloatInt(a.f, b.i)
	}
	return -computeCmpFloatInt(b.f, a.i)
}

// aggAcc accumulates sum, count, min and max of one numeric source exactly.
type aggAcc struct {
	s        exactSum
	min, max aggNum
}

func (a *aggAcc) add(x aggNum) {
	if a.s.n == 0 {
		a.min, a.max = x, x
	} else {
		if c := aggCmpNum(x, a.min); c < 0 || c == 0 && a.min.isFloat && !x.isFloat {
			a.min = x
		}
		if c := aggCmpNum(x, a.max); c > 0 || c == 0 && a.max.isFloat && !x.isFloat {
			a.max = x
		}
	}
	if x.isFloat {
		a.s.addFloat(x.f)
	} else {
		a.s.addInt(x.i)
	}
}

// sum is the exact sum: an integer while it fits int64, else the nearest
// float; nil when no value took part.
func (a *aggAcc) sum() (any, error) {
	if a.s.n == 0 {
		return nil, nil
	}
	if i, ok := a.s.small(); ok {
		return i, nil
	}
	f, _ := a.s.rat().Float64()
	if math.IsInf(f, 0) {
		return nil, Errorf(ELimit, map[string]any{"hint": "narrow the population; the sum is beyond float64"}, "sum overflows float64")
	}
	return f, nil
}

// mean is the exact mean rounded once; nil when no value took part.
func (a *aggAcc) mean() any {
	if a.s.n == 0 {
		return nil
	}
	if i, ok := a.s.small(); ok && i > -1<<53 && i < 1<<53 {
		return float64(i) / float64(a.s.n)
	}
	f, _ := a.s.meanRat().Float64()
	return f
}

// --- props ------------------------------------------------------------------

// aggProps caches decoded property bags by their canonical text.
type aggProps map[bt.Props]map[string]any

func (pc aggProps) get(p bt.Props) map[string]any {
	if p == "" {
		return nil
	}
	if m, ok := pc[p]; ok {
		return m
	}
	v, err := canon.Parse([]byte(p))
	m, _ := v.(map[string]any)
	if err != nil {
		m = nil
	}
	pc[p] = m
	return m
}

// aggClass is the type class of a JSON value: 1 number, 2 string, 3 bool, 0 none.
func aggClass(v any) int {
	switch v.(type) {
	case int64, float64:
		return 1
	case string:
		return 2
	case bool:
		return 3
	}
	return 0
}

// test evaluates the filter on a value; ok=false means the value does not
// take part (counted in prop_coercion).
func (f *aggFilter) test(props map[string]any) (keep, takesPart bool) {
	v, has := props[f.prop]
	if f.cmp == "exists" {
		return has && v != nil, true
	}
	if !has || aggClass(v) != aggClass(f.lit) {
		return false, false
	}
	var c int
	switch x := v.(type) {
	case string:
		y := f.lit.(string)
		switch {
		case x < y:
			c = -1
		case x > y:
			c = 1
		}
	case bool:
		if x != f.lit.(bool) {
			c = 1
		}
	default:
		a, _ := aggNumOf(v)
		b, _ := aggNumOf(f.lit)
		c = aggCmpNum(a, b)
	}
	switch f.cmp {
	case "eq":
		return c == 0, true
	case "ne":
		return c != 0, true
	case "lt":
		return c < 0, true
	case "le":
		return c <= 0, true
	case "gt":
		return c > 0, true
	}
	return c >= 0, true
}
