package engine

import (
	"slices"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"pgregory.net/rapid"
)

// TestEdgesWithinMatchesScan: EdgesWithin lists exactly the believed edge
// versions, among all stored ones, whose two endpoints are in a random
// node set and whose valid start is in a random window, on random
// histories with corrections and retractions read at random belief times.
func TestEdgesWithinMatchesScan(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := newBoth()
		usedKeys = nil
		for range rapid.IntRange(1, 12).Draw(t, "batches") {
			ops := make([]bt.Op, rapid.IntRange(1, 4).Draw(t, "ops"))
			for i := range ops {
				ops[i] = genOp(t, b.eng.Batches())
			}
			_ = b.write(t, ops)
			for _, op := range ops {
				if op.Kind == bt.OpAssertEdge {
					usedKeys = append(usedKeys, op.Edge)
				}
			}
		}
		r := b.eng.Reader(rapid.Int64Range(0, b.tt+5).Draw(t, "asOf"))
		iv := genInterval(t, "window")
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
