package ops

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
)

// burstyStore holds n events in bursts: each burst is 100 events within one
// second between a hub and random nodes, the bursts spread over a year, so
// events cluster in time and at hubs as in the synthetic generator.
func burstyStore(t *testing.T, n int) *engine.Store {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 7))
	const year = 365 * 86_400_000_000
	var events []bt.Event
	for len(events) < n {
		hub := rng.IntN(20)
		at := rng.Int64N(year)
		for range 100 {
			other := 20 + rng.IntN(2000)
			src, dst := fmt.Sprintf("n%d", hub), fmt.Sprintf("n%d", other)
			if rng.IntN(2) == 0 {
				src, dst = dst, src
			}
			events = append(events, bt.Event{Src: src, Dst: dst, RelType: "MSG", VtS: at})
			at += rng.Int64N(10_000)
		}
	}
	e := engine.New()
	eff, err := bt.Plan(e, 1, 1, []bt.Op{bt.Ingest(events, "Node")})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Apply(eff); err != nil {
		t.Fatal(err)
	}
	return e
}

// The sampled second-edge candidates track the exact count (every event's
// events at either endpoint within delta after it, brute force) on a bursty
// store, where the statistics alone undercount by orders of magnitude.
func TestMotifCostTracksBurstyStore(t *testing.T) {
	e := burstyStore(t, 30_000)
	r := e.Reader(bt.OpenEnd)
	st := e.Stats()
	stats := Stats{Nodes: int64(st.Nodes), NodeVersions: int64(st.NodeVersions), EdgeVersions: int64(st.EdgeVersions), VtMin: st.VtMin, VtMax: st.VtMax}
	w := bt.Interval{Start: st.VtMin, End: st.VtMax + 1}
	for _, delta := range []int64{100_000, 1_000_000, 60_000_000} {
		var exact, n float64
		incident := map[uint32][]uint32{}
		r.EachStartingIn(w, func(v uint32) {
			t0 := r.Valid(v).Start
			for _, node := range []uint32{r.Src(v), r.Dst(v)} {
				if incident[node] == nil {
					incident[node] = append(r.Out(node), r.In(node)...)
				}
				{
					for _, x := range incident[node] {
						if s := r.Valid(x).Start; s >= t0 && s <= t0+delta {
							exact++
						}
					}
				}
			}
			n++
		})
		exact /= n
		args := map[string]any{"motif": "M_triangle_cyclic", "delta": delta, "window": map[string]any{"t_a": w.Start, "t_b": w.End}}
		c := &Call{Ctx: context.Background(), R: Native{r}, Args: args, Stats: stats}
		got, ok := motifSampledCandidates(c, w, delta)
		if !ok {
			t.Fatalf("delta %d: no sample on %d events", delta, int(n))
		}
		if got < exact/2 || got > exact*2 {
			t.Errorf("delta %d: sampled %.1f candidates per event, exact %.1f", delta, got, exact)
		}
		withStore := motifCost(c, false).Expansions
		statsOnly := motifCost(&Call{Ctx: context.Background(), Args: args, Stats: stats}, false).Expansions
		if want := int64(n * exact * motifWeightTriangle / 2); withStore < want {
			t.Errorf("delta %d: estimate %d expansions with the store, below half the exact candidates (%d)", delta, withStore, want)
		}
		if withStore < 3*statsOnly {
			t.Errorf("delta %d: the store's estimate %d is not above the statistics-only %d: the bursts are not seen", delta, withStore, statsOnly)
		}
		t.Logf("delta %d: exact %.1f, sampled %.1f candidates per event; estimate %d (statistics only: %d)", delta, exact, got, withStore, statsOnly)
	}
}

// Integer bounds are compared exactly and printed exactly: 2^62+1 is over
// a maximum of 2^62 although both are the same float64.
func TestIntegerBoundsExact(t *testing.T) {
	s := Int("").Range(1, 1<<62)
	for _, c := range []struct {
		v    int64
		want string
	}{
		{1 << 62, ""},
		{1<<62 + 1, "must be <= 4611686018427387904, got 4611686018427387905"},
		{0, "must be >= 1, got 0"},
		{1, ""},
	} {
		got := ""
		if vs := s.Validate(c.v); len(vs) > 0 {
			got = vs[0].Message
		}
		if got != c.want {
			t.Errorf("%d: %q, want %q", c.v, got, c.want)
		}
	}
}
