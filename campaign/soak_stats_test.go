package campaign

import (
	"math"
	"os"
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	for _, c := range []struct {
		xs   []time.Duration
		q    float64
		want time.Duration
	}{
		{nil, 0.99, 0},
		{[]time.Duration{5}, 0.5, 5},
		{[]time.Duration{4, 1, 3, 2}, 0.5, 2},
		{[]time.Duration{4, 1, 3, 2}, 0.99, 4},
		{[]time.Duration{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, 0.9, 9},
	} {
		if got := percentile(append([]time.Duration{}, c.xs...), c.q); got != c.want {
			t.Errorf("percentile(%v, %v) = %v, want %v", c.xs, c.q, got, c.want)
		}
	}
	// Against a brute-force nearest rank: the smallest x with at least
	// q*n values <= x.
	xs := make([]time.Duration, 101)
	for i := range xs {
		xs[i] = time.Duration((i * 37) % 101)
	}
	for _, q := range []float64{0.01, 0.5, 0.9, 0.99, 1} {
		got := percentile(append([]time.Duration{}, xs...), q)
		var want time.Duration = -1
		for x := time.Duration(0); want < 0; x++ {
			n := 0
			for _, y := range xs {
				if y <= x {
					n++
				}
			}
			if float64(n) >= q*float64(len(xs)) {
				want = x
			}
		}
		if got != want {
			t.Errorf("q %v: %v, brute force %v", q, got, want)
		}
	}
}

func TestLinearFit(t *testing.T) {
	for _, c := range []struct {
		x, y        []float64
		slope, icpt float64
	}{
		{[]float64{0, 1, 2, 3}, []float64{1, 3, 5, 7}, 2, 1},
		{[]float64{0, 1, 2}, []float64{4, 4, 4}, 0, 4},
		{[]float64{0, 1, 2, 3}, []float64{0, 2, 0, 2}, 0.4, 0.4},
		{[]float64{5}, []float64{3}, 0, 3},
		{[]float64{2, 2}, []float64{1, 3}, 0, 2},
	} {
		s, i := linearFit(c.x, c.y)
		if math.Abs(s-c.slope) > 1e-9 || math.Abs(i-c.icpt) > 1e-9 {
			t.Errorf("fit %v %v = %v, %v; want %v, %v", c.x, c.y, s, i, c.slope, c.icpt)
		}
	}
}

func TestProcMem(t *testing.T) {
	rss, peak := procMem(os.Getpid())
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc")
	}
	if rss <= 0 || peak < rss {
		t.Fatalf("rss %d, peak %d", rss, peak)
	}
}
