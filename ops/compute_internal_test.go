package ops

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestExactSum checks the Shewchuk partials (and their big.Float
// fallback after an intermediate overflow) against big.Rat sums of random
// floats spread over the whole exponent range, mixed with integers.
func TestExactSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	draw := func() any {
		switch rng.IntN(6) {
		case 0:
			return rng.Int64() - math.MaxInt64/2
		case 1:
			return math.Ldexp(rng.Float64()-0.5, rng.IntN(2098)-1074) // any magnitude
		case 2:
			return math.MaxFloat64 * (2*rng.Float64() - 1)
		case 3:
			return math.Float64frombits(rng.Uint64N(1 << 52)) // subnormal
		}
		return (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(40)-20))
	}
	for c := range 5000 {
		n := 1 + rng.IntN(12)
		var s exactSum
		exact := new(big.Rat)
		floats := false
		for range n {
			v := draw()
			s.add(v)
			switch x := v.(type) {
			case int64:
				exact.Add(exact, new(big.Rat).SetInt64(x))
			case float64:
				floats = true
				exact.Add(exact, new(big.Rat).SetFloat64(x))
			}
		}
		if s.rat().Cmp(exact) != 0 {
			t.Fatalf("case %d: the partials lost precision", c)
		}
		got, err := computeTotal(&s, computeArg("/input"))
		want, _ := exact.Float64()
		if math.IsInf(want, 0) {
			if err == nil {
				t.Fatalf("case %d: sum beyond float64 range not refused", c)
			}
			continue
		}
		if !floats {
			if exact.IsInt() && exact.Num().IsInt64() && got != exact.Num().Int64() {
				t.Fatalf("case %d: integer sum %v", c, got)
			}
			continue
		}
		if err != nil || got.(float64) != want {
			t.Fatalf("case %d: sum %v (%v), want %v", c, got, err, want)
		}
	}
}
