package engine

import (
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"pgregory.net/rapid"
)

// Counts agrees with Stats after any sequence of writes.
func TestCountsMatchStats(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		b := newBoth()
		usedKeys = nil
		for range rapid.IntRange(0, 8).Draw(rt, "batches") {
			ops := make([]bt.Op, rapid.IntRange(1, 3).Draw(rt, "ops"))
			for i := range ops {
				ops[i] = genOp(rt, b.eng.Batches())
			}
			_ = b.write(rt, ops)
			st, c := b.eng.Stats(), b.eng.Counts()
			want := Counts{Nodes: st.Nodes, NodeVersions: st.NodeVersions, EdgeVersions: st.EdgeVersions, VtMin: st.VtMin, VtMax: st.VtMax}
			if c != want {
				rt.Fatalf("Counts() = %+v, want %+v (from Stats)", c, want)
			}
		}
	})
}
