package ops

import (
	"context"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/engine"
)

// TestDiffNodesParallelMatchesSequential checks that the node diff split
// over goroutines returns exactly the lists (same entries, same order)
// and work of one pass, on a store whose nodes are added, removed and
// relabelled between the two times, for several split sizes.
func TestDiffNodesParallelMatchesSequential(t *testing.T) {
	defer func(n int) { diffNodeChunk = n }(diffNodeChunk)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	rng := rand.New(rand.NewPCG(7, 11))
	e := engine.New()
	for b := range 4 {
		var ops []bt.Op
		for i := range 500 {
			uid := "u" + strconv.Itoa(rng.IntN(800))
			s := bt.Time(rng.IntN(100))
			iv := bt.Interval{Start: s, End: s + 1 + bt.Time(rng.IntN(100))}
			props := bt.Props(`{"w":` + strconv.Itoa(rng.IntN(3)) + `}`)
			if b == 0 || i%3 > 0 {
				ops = append(ops, bt.AssertNode(uid, []string{"P", "Q"}[rng.IntN(2)], props, iv))
			} else {
				ops = append(ops, bt.Correct(bt.NodeRef(uid), props, iv))
			}
		}
		eff, err := bt.Plan(e, bt.Time(b+1), uint64(b+1), ops)
		if err != nil {
			continue
		}
		if err := e.Apply(eff); err != nil {
			t.Fatal(err)
		}
	}
	r := Native{e.Reader(bt.OpenEnd)}
	var ids []uint32
	for id := range uint32(r.NumNodes()) {
		ids = append(ids, id)
	}
	if len(ids) < 100 {
		t.Fatalf("only %d nodes written", len(ids))
	}
	for _, times := range [][2]bt.Time{{10, 60}, {0, 150}, {5, 95}} {
		want := diffNodes(r, ids, times[0], times[1])
		if len(want.added)+len(want.removed)+len(want.changed) == 0 {
			t.Fatalf("t1=%d t2=%d: an empty diff tests nothing", times[0], times[1])
		}
		for _, chunk := range []int{1, 7, 100, 4096} {
			diffNodeChunk = chunk
			got := diffNodesParallel(r, ids, times[0], times[1])
			if !reflect.DeepEqual(got, want) {
				t.Errorf("t1=%d t2=%d chunk %d: parallel diff differs: %d/%d/%d entries, want %d/%d/%d",
					times[0], times[1], chunk, len(got.added), len(got.removed), len(got.changed),
					len(want.added), len(want.removed), len(want.changed))
			}
		}
	}
}

// diffRandomStore writes nodes and edges whose valid intervals range from
// instants to open ends, then corrects, re-times and retracts some of
// them over later batches, so versions are carved, closed and replaced.
func diffRandomStore(t *testing.T, seed uint64) *engine.Store {
	rng := rand.New(rand.NewPCG(seed, 3))
	e := engine.New()
	interval := func() bt.Interval {
		s := bt.Time(rng.IntN(200))
		switch rng.IntN(4) {
		case 0:
			return bt.Interval{Start: s, End: s + 1}
		case 1:
			return bt.Interval{Start: s, End: bt.OpenEnd}
		case 2:
			return bt.Interval{Start: s, End: s + 1 + bt.Time(rng.IntN(8))}
		}
		return bt.Interval{Start: s, End: s + 1 + bt.Time(rng.IntN(150))}
	}
	props := func() bt.Props { return bt.Props(`{"w":` + strconv.Itoa(rng.IntN(3)) + `}`) }
	var keys []bt.EdgeKey
	var uids []string
	for b := range 8 {
		var ops []bt.Op
		for range 120 {
			var op bt.Op
			switch k := rng.IntN(10); {
			case b == 0 || len(keys) == 0 || k < 3:
				key := bt.EdgeKey{Src: "u" + strconv.Itoa(rng.IntN(40)), Dst: "u" + strconv.Itoa(rng.IntN(40)), RelType: []string{"A", "B"}[rng.IntN(2)]}
				keys = append(keys, key)
				op = bt.AssertEdge(key, props(), interval())
			case k < 5:
				uid := "n" + strconv.Itoa(rng.IntN(60))
				uids = append(uids, uid)
				op = bt.AssertNode(uid, []string{"P", "Q"}[rng.IntN(2)], props(), interval())
			case k == 5 && len(uids) > 0:
				op = bt.Correct(bt.NodeRef(uids[rng.IntN(len(uids))]), props(), interval())
			case k == 6:
				op = bt.Retract(bt.EdgeRef(keys[rng.IntN(len(keys))]), bt.Time(rng.IntN(200)))
			case k == 7:
				op = bt.CorrectTime(bt.EdgeRef(keys[rng.IntN(len(keys))]), props(), interval(), interval())
			default:
				op = bt.Correct(bt.EdgeRef(keys[rng.IntN(len(keys))]), props(), interval())
			}
			// An op the planner refuses (an unknown ref, a conflict) is
			// left out, so every batch applies.
			if _, err := bt.Plan(e, bt.Time(b+1), e.Batches()+1, append(slices.Clip(ops), op)); err == nil {
				ops = append(ops, op)
			}
		}
		eff, err := bt.Plan(e, bt.Time(b+1), e.Batches()+1, ops)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Apply(eff); err != nil {
			t.Fatal(err)
		}
	}
	if e.Batches() < 3 || e.NumNodeVersions() < 50 || e.NumEdgeVersions() < 300 {
		t.Fatalf("seed %d: only %d batches, %d node and %d edge versions written", seed, e.Batches(), e.NumNodeVersions(), e.NumEdgeVersions())
	}
	return e
}

// diffWholeSnapshots is diff_snapshots without a scope as it was computed
// before the boundary reads: both whole snapshots, every known node, and
// its own rendering of the payload. It is the oracle of
// TestDiffGlobalMatchesWholeSnapshots.
func diffWholeSnapshots(r Reader, t1, t2 bt.Time, limit int) map[string]any {
	var ids []uint32
	for id := range uint32(r.NumNodes()) {
		if r.Known(id) {
			ids = append(ids, id)
		}
	}
	nd := diffNodes(r, ids, t1, t2)
	at := [2]map[uint32]uint32{{}, {}}
	for k, t := range []bt.Time{t1, t2} {
		for _, v := range r.EdgesValidAt(t) {
			at[k][diffIdentity(r, v)] = v
		}
	}
	type edgeEntry struct {
		eid string
		key bt.EdgeKey
		row map[string]any
	}
	entry := func(v uint32) edgeEntry { k := r.EdgeKey(v); return edgeEntry{eid: engine.EID(k), key: k} }
	var eAdded, eRemoved, eChanged []edgeEntry
	for id, v1 := range at[0] {
		v2, ok := at[1][id]
		switch {
		case !ok:
			eRemoved = append(eRemoved, entry(v1))
		case v1 != v2 && r.Props(v1) != r.Props(v2):
			en := entry(v1)
			en.row = map[string]any{"kind": "edge", "id": en.eid,
				"from": map[string]any{"props": r.Props(v1).Map()}, "to": map[string]any{"props": r.Props(v2).Map()}}
			eChanged = append(eChanged, en)
		}
	}
	for id, v2 := range at[1] {
		if _, ok := at[0][id]; !ok {
			eAdded = append(eAdded, entry(v2))
		}
	}
	byEID := func(a, b edgeEntry) int { return strings.Compare(a.eid, b.eid) }
	slices.SortFunc(eAdded, byEID)
	slices.SortFunc(eRemoved, byEID)
	slices.SortFunc(eChanged, byEID)
	slices.Sort(nd.added)
	slices.Sort(nd.removed)
	slices.SortFunc(nd.changed, func(a, b DiffNodeChange) int { return strings.Compare(a.UID, b.UID) })
	uidList := func(xs []string) []any {
		out := []any{}
		for _, x := range xs[:min(limit, len(xs))] {
			out = append(out, x)
		}
		return out
	}
	edgeList := func(xs []edgeEntry) []any {
		out := []any{}
		for _, x := range xs[:min(limit, len(xs))] {
			out = append(out, map[string]any{"eid": x.eid, "src": x.key.Src, "dst": x.key.Dst, "rel_type": x.key.RelType})
		}
		return out
	}
	changed := []any{}
	for _, n := range nd.changed {
		changed = append(changed, map[string]any{"kind": "node", "id": n.UID,
			"from": map[string]any{"label": n.FromLabel, "props": n.From.Map()},
			"to":   map[string]any{"label": n.ToLabel, "props": n.To.Map()}})
	}
	for _, e := range eChanged {
		changed = append(changed, e.row)
	}
	totals := []int{len(nd.added), len(nd.removed), len(eAdded), len(eRemoved), len(changed)}
	return map[string]any{
		"nodes_added": uidList(nd.added), "nodes_added_total": int64(totals[0]),
		"nodes_removed": uidList(nd.removed), "nodes_removed_total": int64(totals[1]),
		"edges_added": edgeList(eAdded), "edges_added_total": int64(totals[2]),
		"edges_removed": edgeList(eRemoved), "edges_removed_total": int64(totals[3]),
		"props_changed": changed[:min(limit, len(changed))], "props_changed_total": int64(totals[4]),
		"truncated": slices.Max(totals) > limit,
	}
}

// TestDiffGlobalMatchesWholeSnapshots checks the boundary-read diff
// against the two-snapshot oracle, canonical bytes (and so digests)
// included, on random stores with corrections and retractions, at every
// belief time, for instants in either order, equal instants and small
// limits.
func TestDiffGlobalMatchesWholeSnapshots(t *testing.T) {
	nonEmpty := 0
	for seed := range uint64(6) {
		e := diffRandomStore(t, seed)
		rng := rand.New(rand.NewPCG(seed, 17))
		for asOf := range bt.Time(e.Batches() + 1) {
			r := Native{e.Reader(asOf)}
			for range 12 {
				t1, t2 := bt.Time(rng.IntN(220)), bt.Time(rng.IntN(220))
				if rng.IntN(8) == 0 {
					t2 = t1
				}
				limit := []int{1, 3, 10_000}[rng.IntN(3)]
				raw := map[string]any{"t1": t1, "t2": t2, "as_of_tt": asOf, "limit": int64(limit)}
				_, args, err := Prepare("diff_snapshots", raw)
				if err != nil {
					t.Fatal(err)
				}
				got, err := runDiffSnapshots(&Call{Ctx: context.Background(), R: r, Args: args, limit: MaxWork})
				if err != nil {
					t.Fatal(err)
				}
				want := diffWholeSnapshots(r, t1, t2, limit)
				gb, err1 := canon.Marshal(got)
				wb, err2 := canon.Marshal(want)
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				if string(gb) != string(wb) {
					t.Fatalf("seed %d as_of_tt %d t1 %d t2 %d limit %d: diff\n%s\nwant (two whole snapshots)\n%s", seed, asOf, t1, t2, limit, gb, wb)
				}
				for _, k := range []string{"nodes_added_total", "nodes_removed_total", "edges_added_total", "edges_removed_total", "props_changed_total"} {
					if want[k].(int64) > 0 {
						nonEmpty++
					}
				}
			}
		}
	}
	if nonEmpty < 500 {
		t.Fatalf("only %d non-empty lists compared: the stores test too little", nonEmpty)
	}
}

// TestValidAtOneOfMatchesDefinition checks the boundary reads against
// their definition over every stored version: the believed edge versions
// valid at exactly one of two instants, and the nodes with such a node
// version, also after writes that the node bounds index does not yet
// cover.
func TestValidAtOneOfMatchesDefinition(t *testing.T) {
	e := diffRandomStore(t, 42)
	check := func(e *engine.Store) {
		for _, asOf := range []bt.Time{1, 3, bt.OpenEnd} {
			r := Native{e.Reader(asOf)}
			for _, ts := range [][2]bt.Time{{10, 60}, {60, 10}, {0, 250}, {40, 41}, {7, 7}, {-5, 199}} {
				var wantE []uint32
				for v := range uint32(e.NumEdgeVersions()) {
					if r.Believed(v) && r.Valid(v).Contains(ts[0]) != r.Valid(v).Contains(ts[1]) {
						wantE = append(wantE, v)
					}
				}
				gotE := r.EdgesValidAtOneOf(ts[0], ts[1])
				slices.Sort(gotE)
				if !slices.Equal(gotE, wantE) {
					t.Fatalf("as_of_tt %d t=%v: %d edge versions, want %d", asOf, ts, len(gotE), len(wantE))
				}
				var wantN []uint32
				for id := range uint32(r.NumNodes()) {
					one := false
					r.EachNodeVersion(id, func(v bt.NodeVersion) { one = one || v.Valid.Contains(ts[0]) != v.Valid.Contains(ts[1]) })
					if one {
						wantN = append(wantN, id)
					}
				}
				if gotN := r.NodesValidAtOneOf(ts[0], ts[1]); !slices.Equal(gotN, wantN) {
					t.Fatalf("as_of_tt %d t=%v: nodes %v, want %v", asOf, ts, gotN, wantN)
				}
			}
		}
	}
	check(e)
	// Rows stored after the index was built are read one by one.
	var ops []bt.Op
	for i := range 5 {
		ops = append(ops, bt.AssertNode("late"+strconv.Itoa(i), "P", "", bt.Interval{Start: bt.Time(20 + i), End: bt.Time(50 + i)}))
	}
	eff, err := bt.Plan(e, 100, e.Batches()+1, ops)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Apply(eff); err != nil {
		t.Fatal(err)
	}
	check(e)
}
