package canon

import (
	"errors"
	"maps"
	"math"
	"slices"
	"strconv"
)

// ErrNonFiniteOutput is returned by RoundFloats for NaN and ±Inf.
var ErrNonFiniteOutput = errors.New("non-finite float in operator output")

// Round9 rounds x to nine decimal places, exactly as
//
//	strconv.ParseFloat(strconv.FormatFloat(x, 'f', 9, 64), 64)
//
// (round half to even on the exact binary value, then back to the nearest
// float64). Non-finite values come back unchanged.
func Round9(x float64) float64 {
	// Integral values (including every |x| >= 2^52) and values whose ulp
	// exceeds 1e-9 (|x| >= 2^23: the 9-decimal text is within 0.5e-9 of x,
	// less than half an ulp) round-trip to themselves.
	if a := math.Abs(x); a >= 1<<23 || x == math.Trunc(x) || a != a {
		return x
	}
	var buf [32]byte
	b := strconv.AppendFloat(buf[:0], x, 'f', 9, 64)
	f, _ := strconv.ParseFloat(string(b), 64)
	return f
}

// RoundFloats returns v with every float64 replaced by Round9 of it. v is
// never modified: a slice ([]any) or map (map[string]any) that holds, at any
// depth, a float that rounding changes is copied, and every other container
// is shared with v as it is, so a reply without such floats costs one walk
// and no allocation. Other values are returned as they are. A NaN or
// infinite float yields ErrNonFiniteOutput.
func RoundFloats(v any) (any, error) {
	out, _, err := roundFloats(v, 0)
	return out, err
}

// roundFloats returns the rounded v and whether it differs from v.
func roundFloats(v any, depth int) (any, bool, error) {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, false, ErrNonFiniteOutput
		}
		r := Round9(x)
		if math.Float64bits(r) == math.Float64bits(x) {
			return v, false, nil // v, not r: boxing r would allocate
		}
		return r, true, nil
	case []any:
		if depth >= MaxDepth {
			return nil, false, errDepth
		}
		var out []any // a copy of x, made at the first change
		for i, e := range x {
			r, changed, err := roundFloats(e, depth+1)
			if err != nil {
				return nil, false, err
			}
			if changed {
				if out == nil {
					out = slices.Clone(x)
				}
				out[i] = r
			}
		}
		if out == nil {
			return v, false, nil
		}
		return out, true, nil
	case map[string]any:
		if depth >= MaxDepth {
			return nil, false, errDepth
		}
		var out map[string]any // a copy of x, made at the first change
		for k, e := range x {
			r, changed, err := roundFloats(e, depth+1)
			if err != nil {
				return nil, false, err
			}
			if changed {
				if out == nil {
					out = maps.Clone(x)
				}
				out[k] = r
			}
		}
		if out == nil {
			return v, false, nil
		}
		return out, true, nil
	}
	return v, false, nil
}
