package canon

import (
	"errors"
	"math"
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

// RoundFloats returns a deep copy of v with every float64 replaced by
// Round9 of it. Slices ([]any) and maps (map[string]any) are copied, never
// modified; other values are returned as they are. A NaN or infinite float
// yields ErrNonFiniteOutput.
func RoundFloats(v any) (any, error) {
	return roundFloats(v, 0)
}

func roundFloats(v any, depth int) (any, error) {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, ErrNonFiniteOutput
		}
		return Round9(x), nil
	case []any:
		if depth >= MaxDepth {
			return nil, errDepth
		}
		if x == nil {
			return x, nil
		}
		out := make([]any, len(x))
		for i, e := range x {
			r, err := roundFloats(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	case map[string]any:
		if depth >= MaxDepth {
			return nil, errDepth
		}
		if x == nil {
			return x, nil
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			r, err := roundFloats(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	}
	return v, nil
}
