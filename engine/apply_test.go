package engine

import (
	"path/filepath"
	"slices"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"pgregory.net/rapid"
)

// checkDerived rebuilds what Apply maintains incrementally, from the
// columns and node rows, and compares: every adjacency list in (vt_s, id)
// order, and every node's count of believed versions.
func checkDerived(t *rapid.T, s *Store) {
	out := make([][]uint32, s.NumNodes())
	in := make([][]uint32, s.NumNodes())
	for v := range uint32(s.NumEdgeVersions()) {
		out[s.eSrc.At(v)] = append(out[s.eSrc.At(v)], v)
		in[s.eDst.At(v)] = append(in[s.eDst.At(v)], v)
	}
	byStart := func(a, b uint32) int {
		if s.edgeLess(a, b) {
			return -1
		}
		if s.edgeLess(b, a) {
			return 1
		}
		return 0
	}
	open := make([]uint32, s.NumNodes())
	for _, n := range s.nodes {
		if n.tte == openSeq {
			open[n.uid]++
		}
	}
	for id := range s.NumNodes() {
		slices.SortFunc(out[id], byStart)
		slices.SortFunc(in[id], byStart)
		if !slices.Equal(out[id], s.out[id]) || !slices.Equal(in[id], s.in[id]) {
			t.Fatalf("node %s: adjacency out %v in %v, want out %v in %v", s.uids.s[id], s.out[id], s.in[id], out[id], in[id])
		}
		if open[id] != s.nodeOpen[id] {
			t.Fatalf("node %s: Apply counts %d believed versions, its rows hold %d", s.uids.s[id], s.nodeOpen[id], open[id])
		}
		uid := s.uids.s[id]
		if got, want := s.HasBelievedNode(uid), len(s.BelievedNodes(uid, bt.Always)) > 0; got != want {
			t.Fatalf("HasBelievedNode(%s) = %v, a scan of its versions says %v", uid, got, want)
		}
	}
}

// TestApplyKeepsDerivedState checks Apply's incremental bookkeeping (the
// append-at-the-end shortcut for adjacency lists, the believed-version
// counts) against a rebuild, after every batch of random writes whose valid
// times move both forwards and backwards, and after a checkpoint round
// trip.
func TestApplyKeepsDerivedState(t *testing.T) {
	dir := t.TempDir()
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
			checkDerived(t, b.eng)
		}
		path := filepath.Join(dir, "checkpoint.tgc")
		if _, err := b.eng.WriteCheckpoint(path, infoFor(b.eng, 100)); err != nil {
			t.Fatalf("checkpoint: %v", err)
		}
		back, _, err := ReadCheckpoint(path)
		if err != nil {
			t.Fatalf("read checkpoint: %v", err)
		}
		checkDerived(t, back)
	})
}
