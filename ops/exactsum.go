package ops

import (
	"math"
	"math/big"
)

// exactSum adds JSON numbers exactly; compute and aggregate_events share it.
// Integers accumulate in an int64 that moves to a big.Int on overflow;
// floats as Shewchuk partials (non-overlapping float64s whose exact sum is
// the float part, the algorithm of Python's math.fsum), moved to a
// big.Float wide enough for any sum of up to 2^20 float64s when a partial
// sum overflows float64. Results are rounded once, from the exact value.
type exactSum struct {
	n      int64
	floats bool // some value was a float
	i      int64
	ib     *big.Int
	parts  []float64
	f      *big.Float
}

const exactSumPrec = 2200 // 2^-1074 .. 2^1044 plus slack

// add adds an int64 or a float64 (other values are ignored).
func (s *exactSum) add(v any) {
	switch x := v.(type) {
	case int64:
		s.addInt(x)
	case float64:
		s.addFloat(x)
	}
}

func (s *exactSum) addInt(x int64) {
	s.n++
	if s.ib != nil {
		s.ib.Add(s.ib, big.NewInt(x))
		return
	}
	r := s.i + x
	if (x > 0 && r < s.i) || (x < 0 && r > s.i) {
		s.ib = new(big.Int).SetInt64(s.i)
		s.ib.Add(s.ib, big.NewInt(x))
		return
	}
	s.i = r
}

func (s *exactSum) addFloat(x float64) {
	s.n++
	s.floats = true
	if s.f != nil {
		s.f.Add(s.f, big.NewFloat(x))
		return
	}
	i := 0
	for j := 0; j < len(s.parts); j++ {
		y := s.parts[j]
		if math.Abs(x) < math.Abs(y) {
			x, y = y, x
		}
		hi := x + y
		if math.IsInf(hi, 0) {
			// The exact float part is parts[:i] + x + y + parts[j+1:].
			f := new(big.Float).SetPrec(exactSumPrec)
			for _, p := range s.parts[:i] {
				f.Add(f, big.NewFloat(p))
			}
			f.Add(f, big.NewFloat(x))
			f.Add(f, big.NewFloat(y))
			for _, p := range s.parts[j+1:] {
				f.Add(f, big.NewFloat(p))
			}
			s.f, s.parts = f, nil
			return
		}
		lo := y - (hi - x) // exact, since |x| >= |y|
		if lo != 0 {
			s.parts[i] = lo
			i++
		}
		x = hi
	}
	s.parts = append(s.parts[:i], x)
}

// small reports the sum as an int64 when every value was an integer and
// the sum never left int64.
func (s *exactSum) small() (int64, bool) { return s.i, !s.floats && s.ib == nil }

func (s *exactSum) intPart() *big.Int {
	if s.ib != nil {
		return s.ib
	}
	return big.NewInt(s.i)
}

// rat is the exact sum.
func (s *exactSum) rat() *big.Rat {
	r := new(big.Rat).SetInt(s.intPart())
	if s.f != nil {
		fr, _ := s.f.Rat(nil)
		return r.Add(r, fr)
	}
	for _, p := range s.parts {
		r.Add(r, new(big.Rat).SetFloat64(p))
	}
	return r
}

// meanRat is the exact mean (n > 0).
func (s *exactSum) meanRat() *big.Rat {
	r := s.rat()
	return r.Quo(r, new(big.Rat).SetInt64(s.n))
}
