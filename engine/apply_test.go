package engine

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"pgregory.net/rapid"
)

// checkDerived rebuilds what Apply maintains incrementally, from the
// columns and node rows, and compares: every adjacency list in (vt_s, id)
// order, every node's count of believed versions, and the followsBit of
// every edge version (set exactly when another version of its identity
// ends where it starts).
func checkDerived(t *rapid.T, s *Store) {
	for v := range uint32(s.NumEdgeVersions()) {
		want := false
		iv := s.valid(v)
		for _, w := range s.identityOf(v) {
			if wv := s.valid(w); w != v && wv.End == iv.Start {
				want = true
			}
		}
		if got, want := s.identityMin(v), slices.Min(s.identityOf(v)); got != want {
			t.Fatalf("edge version %d: identityMin %d, its identity's smallest version is %d", v, got, want)
		}
		if got := s.eOps.At(v)&followsBit != 0; got != want {
			t.Fatalf("edge version %d (%s): followsBit %v, want %v (identity of %d versions)", v, render(s.EdgeVersion(v)), got, want, len(s.identityOf(v)))
		}
	}
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

// viewOnly hides the store's NodeIndexer, so Plan takes its general path.
type viewOnly struct{ s *Store }

func (v viewOnly) NodeKnown(uid string) bool { return v.s.NodeKnown(uid) }
func (v viewOnly) BelievedNodes(uid string, iv bt.Interval) []bt.NodeHit {
	return v.s.BelievedNodes(uid, iv)
}
func (v viewOnly) HasBelievedNode(uid string) bool { return v.s.HasBelievedNode(uid) }
func (v viewOnly) EdgeKnown(k bt.EdgeKey) bool     { return v.s.EdgeKnown(k) }
func (v viewOnly) BelievedEdges(k bt.EdgeKey, iv bt.Interval) []bt.EdgeHit {
	return v.s.BelievedEdges(k, iv)
}

// TestIngestFastPaths compares the bulk-ingest fast paths with the general
// ones on random batches: a reused Planner with the store's NodeIndexer
// against a fresh Plan through a view without it (equal effects but for
// the endpoint ids), and Apply with the effect's endpoint table against
// Apply of the same effect without it, into a twin store (equal checkpoint
// bytes and digests).
func TestIngestFastPaths(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fast, twin := New(), New()
		var reused bt.Planner
		usedKeys = nil
		var tt bt.Time
		for range rapid.IntRange(1, 12).Draw(t, "batches") {
			ops := make([]bt.Op, rapid.IntRange(1, 4).Draw(t, "ops"))
			for i := range ops {
				ops[i] = genOp(t, fast.Batches())
			}
			tt += 10
			seq := fast.Batches() + 1
			eff, err := reused.Plan(fast, tt, seq, ops)
			var gp bt.Planner
			general, gerr := gp.Plan(viewOnly{fast}, tt, seq, ops)
			if (err == nil) != (gerr == nil) {
				t.Fatalf("fast plan says %v, general plan says %v", err, gerr)
			}
			if err != nil {
				tt -= 10
				continue
			}
			for _, op := range ops {
				if op.Kind == bt.OpAssertEdge {
					usedKeys = append(usedKeys, op.Edge)
				}
			}
			anon := *eff
			anon.Ends = slices.Clone(eff.Ends)
			for j, e := range anon.Ends {
				if e.Known {
					if id, ok := fast.uids.lookup(e.UID); !ok || id != e.ID {
						t.Fatalf("endpoint %q has id %d in the effect, %d (known %v) in the store", e.UID, e.ID, id, ok)
					}
				}
				anon.Ends[j] = bt.End{UID: e.UID}
			}
			if f, g := fmt.Sprint(reused.NodeStartCorrections(fast)), fmt.Sprint(gp.NodeStartCorrections(fast)); f != g {
				t.Fatalf("node start corrections differ:\n fast    %s\n general %s", f, g)
			}
			// Rendered, so that a reused empty slice equals a nil one.
			if f, g := fmt.Sprintf("%+v", anon), fmt.Sprintf("%+v", *general); f != g {
				t.Fatalf("fast and general plans differ:\n fast    %s\n general %s", f, g)
			}
			plain := *eff
			plain.Ends, plain.EdgeEnds = nil, nil
			if err := fast.Apply(eff); err != nil {
				t.Fatalf("apply: %v", err)
			}
			if err := twin.Apply(&plain); err != nil {
				t.Fatalf("apply without endpoint table: %v", err)
			}
			if got, want := encodeBody(fast), encodeBody(twin); !bytes.Equal(got, want) {
				t.Fatalf("batch %d: stores differ with and without the endpoint table (digests %s, %s)", seq, fast.Digest(), twin.Digest())
			}
			checkDerived(t, fast)
		}
	})
}

// An effect whose endpoint table does not fit its edges or the store is
// refused before anything changes.
func TestApplyRefusesBadEndpointTable(t *testing.T) {
	s := New()
	ingest := []bt.Op{bt.Ingest([]bt.Event{{Src: "a", Dst: "b", RelType: "M", VtS: 5}, {Src: "b", Dst: "c", RelType: "M", VtS: 6}}, "")}
	good, err := bt.Plan(s, 10, 1, ingest)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Apply(good); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		spoil func(e *bt.Effect)
	}{
		{"short table", func(e *bt.Effect) { e.EdgeEnds = e.EdgeEnds[:1] }},
		{"index past the ends", func(e *bt.Effect) { e.EdgeEnds[1] = uint32(len(e.Ends)) }},
		{"half an edge named", func(e *bt.Effect) { e.EdgeEnds[0] = bt.NoEnd }},
		{"unknown node id", func(e *bt.Effect) { e.Ends[0].Known, e.Ends[0].ID = true, 99 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eff, err := bt.Plan(s, 20, 2, ingest)
			if err != nil {
				t.Fatal(err)
			}
			tc.spoil(eff)
			before := encodeBody(s)
			if err := s.Apply(eff); err == nil {
				t.Fatal("Apply accepted a bad endpoint table")
			}
			if !bytes.Equal(encodeBody(s), before) {
				t.Fatal("a refused effect changed the store")
			}
		})
	}
}
