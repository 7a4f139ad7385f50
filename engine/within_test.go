package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"pgregory.net/rapid"
)

// TestEdgesWithinMatchesScan: EdgesWithin lists exactly the believed edge
// versions, among all stored ones, whose two endpoints are in a random
// node set and whose valid start is in a random window (or one at the
// store's bounds of valid start), on random
// histories with corrections and retractions read at random belief times.
func TestEdgesWithinMatchesScan(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b, r := randomHistory(t)
		iv := genInterval(t, "window")
		if rapid.Bool().Draw(t, "storeBounds") { // the window of every start, or one short of it
			iv = bt.Interval{Start: b.eng.vtMin + rapid.Int64Range(0, 1).Draw(t, "lo"), End: b.eng.maxStart + rapid.Int64Range(0, 1).Draw(t, "hi")}
		}
		var ids []uint32
		for id := range uint32(r.NumNodes()) {
			if rapid.Bool().Draw(t, "in") {
				ids = append(ids, id)
			}
		}
		var want []uint32
		for v := range uint32(b.eng.NumEdgeVersions()) {
			st := r.Valid(v).Start
			if r.Believed(v) && slices.Contains(ids, r.Src(v)) && slices.Contains(ids, r.Dst(v)) && st >= iv.Start && st < iv.End {
				want = append(want, v)
			}
		}
		got, _ := r.EdgesWithin(nil, ids, iv.Start, iv.End)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("EdgesWithin(%v, %v) = %v, scan of every version gives %v", ids, iv, got, want)
		}
	})
}

// TestEdgesWithinLargeIDs checks EdgesWithin against a scan of every
// version on stores of 10,000 nodes, where node ids wrap the membership
// mask (ids 4096 apart share a bit) and the set and window are random.
func TestEdgesWithinLargeIDs(t *testing.T) {
	for seed := range uint64(4) {
		rng := rand.New(rand.NewPCG(seed, 7))
		const nodes = 10_000
		evs := make([]bt.Event, 40_000)
		for i := range evs {
			evs[i] = bt.Event{Src: fmt.Sprintf("u%d", rng.IntN(nodes)), Dst: fmt.Sprintf("u%d", rng.IntN(nodes)), RelType: "M", VtS: rng.Int64N(1000)}
		}
		b := newBoth()
		if err := b.write(t, []bt.Op{bt.Ingest(evs, "")}); err != nil {
			t.Fatal(err)
		}
		r := b.eng.Reader(b.tt)
		var ids []uint32
		for id := range uint32(r.NumNodes()) {
			if rng.IntN(20) == 0 {
				ids = append(ids, id)
			}
		}
		lo := rng.Int64N(700)
		windows := []bt.Interval{{Start: 0, End: 1000}, {Start: lo, End: lo + 200 + rng.Int64N(100)}}
		for _, iv := range windows {
			var want []uint32
			for v := range uint32(b.eng.NumEdgeVersions()) {
				st := r.Valid(v).Start
				if r.Believed(v) && slices.Contains(ids, r.Src(v)) && slices.Contains(ids, r.Dst(v)) && st >= iv.Start && st < iv.End {
					want = append(want, v)
				}
			}
			got, _ := r.EdgesWithin(nil, ids, iv.Start, iv.End)
			slices.Sort(got)
			if !slices.Equal(got, want) || len(want) == 0 {
				t.Fatalf("seed %d, window %v: EdgesWithin gives %d versions, a scan of every version %d (none expected to be empty)", seed, iv, len(got), len(want))
			}
		}
	}
}
