package engine

import (
	"cmp"
	"slices"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"pgregory.net/rapid"
)

func applyBatches(t testing.TB, s *Store, batches ...[]bt.Op) {
	t.Helper()
	for _, ops := range batches {
		seq := s.Batches() + 1
		eff, err := bt.Plan(s, bt.Time(seq*10), seq, ops)
		if err != nil {
			t.Fatalf("batch %d: %v", seq, err)
		}
		if err := s.Apply(eff); err != nil {
			t.Fatalf("batch %d: apply: %v", seq, err)
		}
	}
}

func ev(src, dst string, t bt.Time) bt.Event {
	return bt.Event{Src: src, Dst: dst, RelType: "M", VtS: t}
}

func TestUncoveredEdges(t *testing.T) {
	for _, tc := range []struct {
		name    string
		batches [][]bt.Op
		n       int
		first   Uncovered // when n > 0
	}{
		{name: "one ingest", n: 0, batches: [][]bt.Op{{bt.Ingest([]bt.Event{ev("a", "b", 9), ev("b", "c", 3)}, "")}}},
		{name: "a later ingest with an earlier event", n: 1, batches: [][]bt.Op{
			{bt.Ingest([]bt.Event{ev("a", "b", 9)}, "")},
			{bt.Ingest([]bt.Event{ev("c", "b", 4)}, "")}},
			first: Uncovered{Edge: bt.EdgeKey{Src: "c", Dst: "b", RelType: "M", Disc: "#2.0"}, Valid: bt.Interval{Start: 4, End: 5}, Endpoint: "b", Gap: bt.Interval{Start: 4, End: 5}}},
		{name: "an edge between nodes never asserted", n: 2, batches: [][]bt.Op{
			{bt.AssertEdge(bt.EdgeKey{Src: "x", Dst: "y", RelType: "R"}, "", bt.Interval{Start: 1, End: 5})}},
			first: Uncovered{Edge: bt.EdgeKey{Src: "x", Dst: "y", RelType: "R"}, Valid: bt.Interval{Start: 1, End: 5}, Endpoint: "x", Gap: bt.Interval{Start: 1, End: 5}}},
		{name: "a self loop counts once", n: 1, batches: [][]bt.Op{
			{bt.AssertEdge(bt.EdgeKey{Src: "x", Dst: "x", RelType: "R"}, "", bt.Interval{Start: 1, End: 5})}},
			first: Uncovered{Edge: bt.EdgeKey{Src: "x", Dst: "x", RelType: "R"}, Valid: bt.Interval{Start: 1, End: 5}, Endpoint: "x", Gap: bt.Interval{Start: 1, End: 5}}},
		{name: "adjacent versions cover together", n: 0, batches: [][]bt.Op{
			{bt.AssertNode("x", "", "", bt.Interval{Start: 0, End: 10}), bt.AssertNode("y", "", "", bt.Always)},
			{bt.AssertNode("x", "", `{"w":1}`, bt.Interval{Start: 10, End: 20})},
			{bt.AssertEdge(bt.EdgeKey{Src: "x", Dst: "y", RelType: "R"}, "", bt.Interval{Start: 5, End: 15})}}},
		{name: "a retraction leaves an interval edge half outside", n: 1, batches: [][]bt.Op{
			{bt.AssertNode("x", "", "", bt.Always), bt.AssertNode("y", "", "", bt.Always)},
			{bt.AssertEdge(bt.EdgeKey{Src: "x", Dst: "y", RelType: "R"}, "", bt.Interval{Start: 5, End: 15})},
			{bt.Retract(bt.NodeRef("y"), 12)}},
			first: Uncovered{Edge: bt.EdgeKey{Src: "x", Dst: "y", RelType: "R"}, Valid: bt.Interval{Start: 5, End: 15}, Endpoint: "y", Gap: bt.Interval{Start: 12, End: 15}}},
		{name: "a gap inside an edge", n: 1, batches: [][]bt.Op{
			{bt.AssertNode("x", "", "", bt.Interval{Start: 0, End: 6}), bt.AssertNode("x", "", "", bt.Interval{Start: 8, End: 20}), bt.AssertNode("y", "", "", bt.Always)},
			{bt.AssertEdge(bt.EdgeKey{Src: "x", Dst: "y", RelType: "R"}, "", bt.Interval{Start: 5, End: 15})}},
			first: Uncovered{Edge: bt.EdgeKey{Src: "x", Dst: "y", RelType: "R"}, Valid: bt.Interval{Start: 5, End: 15}, Endpoint: "x", Gap: bt.Interval{Start: 6, End: 8}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New()
			applyBatches(t, s, tc.batches...)
			n, list := s.Reader(bt.OpenEnd).UncoveredEdges(10)
			if n != tc.n || len(list) != n {
				t.Fatalf("%d uncovered (%d listed), want %d: %+v", n, len(list), tc.n, list)
			}
			if n > 0 && list[0] != tc.first {
				t.Fatalf("first uncovered %+v, want %+v", list[0], tc.first)
			}
		})
	}
}

// uncoveredOracle checks every believed edge version against its
// endpoints' believed node versions by interval subtraction.
func uncoveredOracle(r Reader) map[Uncovered]bool {
	out := map[Uncovered]bool{}
	for v := range uint32(r.Store().NumEdgeVersions()) {
		if !r.Believed(v) {
			continue
		}
		e := r.Edge(v)
		for k, uid := range []string{e.Key.Src, e.Key.Dst} {
			if k == 1 && e.Key.Src == e.Key.Dst {
				continue
			}
			rest := []bt.Interval{e.Valid}
			if id, ok := r.Node(uid); ok {
				for _, nv := range r.NodeHistory(id) {
					var next []bt.Interval
					for _, part := range rest {
						next = append(next, bt.Remainder(part, nv.Valid)...)
					}
					rest = next
				}
			}
			if len(rest) > 0 {
				slices.SortFunc(rest, func(a, b bt.Interval) int { return cmp.Compare(a.Start, b.Start) })
				// Parts left by subtraction are maximal only after merging
				// touching ones.
				gap := rest[0]
				for _, p := range rest[1:] {
					if p.Start == gap.End {
						gap.End = p.End
					}
				}
				out[Uncovered{Edge: e.Key, Valid: e.Valid, Endpoint: uid, Gap: gap}] = true
			}
		}
	}
	return out
}

// UncoveredEdges agrees with interval subtraction on random stores, at
// the latest belief and at an earlier one.
func TestUncoveredEdgesOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := newBoth()
		usedKeys = nil
		for range rapid.IntRange(1, 10).Draw(t, "batches") {
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
		for _, asOf := range []bt.Time{bt.OpenEnd, rapid.Int64Range(0, b.tt).Draw(t, "asOf")} {
			r := b.eng.Reader(asOf)
			n, list := r.UncoveredEdges(1 << 20)
			want := uncoveredOracle(r)
			if n != len(want) || len(list) != n {
				t.Fatalf("as of %d: %d uncovered (%d listed), the oracle finds %d: %+v, found %+v", asOf, n, len(list), len(want), want, list)
			}
			for _, u := range list {
				if !want[u] {
					t.Fatalf("as of %d: %+v is not what the oracle finds: %+v", asOf, u, want)
				}
			}
		}
	})
}

// With the corrections NodeStartCorrections asks for put in front, batches
// of bulk ingest in any valid-time order (and node corrections between
// them) never leave an event outside its endpoints' validity; the
// corrected node versions start at the endpoints' earliest events.
func TestNodeStartCorrectionsKeepEventsCovered(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := New()
		var pl bt.Planner
		earliest := map[string]bt.Time{}
		for range rapid.IntRange(1, 8).Draw(t, "batches") {
			var ops []bt.Op
			if rapid.IntRange(0, 3).Draw(t, "correct") == 0 {
				ops = append(ops, bt.Correct(bt.NodeRef(rapid.SampledFrom(uidPool[:3]).Draw(t, "uid")), genProps(t, "props"), genInterval(t, "vt")))
			}
			evs := make([]bt.Event, rapid.IntRange(1, 5).Draw(t, "events"))
			for i := range evs {
				evs[i] = ev(rapid.SampledFrom(uidPool[:3]).Draw(t, "src"), rapid.SampledFrom(uidPool[:3]).Draw(t, "dst"), genTime(t, "t"))
				if rapid.IntRange(0, 3).Draw(t, "interval") == 0 {
					evs[i].VtE = evs[i].VtS + rapid.Int64Range(1, 30).Draw(t, "dur")
				}
			}
			ops = append(ops, bt.Ingest(evs, ""))
			seq := s.Batches() + 1
			eff, err := pl.Plan(s, bt.Time(seq), seq, ops)
			if err != nil {
				continue // a correct of a node not yet there
			}
			if fix := pl.NodeStartCorrections(s); len(fix) > 0 {
				if eff, err = pl.Plan(s, bt.Time(seq), seq, append(fix, ops...)); err != nil {
					t.Fatalf("batch %d with its corrections %v: %v", seq, fix, err)
				}
			}
			if err := s.Apply(eff); err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				for _, u := range []string{e.Src, e.Dst} {
					if t0, ok := earliest[u]; !ok || e.VtS < t0 {
						earliest[u] = e.VtS
					}
				}
			}
			r := s.Reader(bt.OpenEnd)
			if n, list := r.UncoveredEdges(5); n > 0 {
				t.Fatalf("after batch %d: %d events outside their endpoints' validity: %+v", seq, n, list)
			}
			for u, t0 := range earliest {
				id, _ := r.Node(u)
				if h := r.NodeHistory(id); h[0].Valid.Start > t0 {
					t.Fatalf("after batch %d: node %s starts at %d, its earliest event is at %d", seq, u, h[0].Valid.Start, t0)
				}
			}
		}
	})
}
