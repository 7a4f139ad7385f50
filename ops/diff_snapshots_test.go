package ops_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

func init() {
	argGens["diff_snapshots"] = func(rng *rand.Rand, w *world) map[string]any {
		args := map[string]any{"t1": snapshotTime(rng, w), "t2": snapshotTime(rng, w)}
		if rng.IntN(10) == 0 {
			args["t2"] = args["t1"]
		}
		if rng.IntN(3) == 0 {
			args["scope"] = map[string]any{"seeds": snapshotSeedList(rng, w), "hops": int64(rng.IntN(4))}
		}
		if rng.IntN(3) == 0 {
			args["limit"] = int64(1 + rng.IntN(3))
		}
		return withAsOf(rng, w, args)
	}
}

const diffEmpty = `"edges_added":[],"edges_added_total":0,"edges_removed":[],"edges_removed_total":0,"nodes_added":[],"nodes_added_total":0,"nodes_removed":[],"nodes_removed_total":0,"props_changed":[],"props_changed_total":0,"truncated":false}`

func TestDiffSnapshotsExamples(t *testing.T) {
	e := snapshotGoldenStore(t)
	msg1 := snapshotMsgEID(t, e, 1) // c→a MSG at 30
	snapshotRunCases(t, e, "diff_snapshots", []snapshotCase{
		// The reference's payload, with our eid for the ingested c→a event.
		{name: "A.2#4", args: map[string]any{"t1": int64(30), "t2": int64(50)},
			want: `{"edges_added":[],"edges_added_total":0,"edges_removed":[{"dst":"a","eid":"` + msg1 + `","rel_type":"MSG","src":"c"}],"edges_removed_total":1,"nodes_added":[],"nodes_added_total":0,"nodes_removed":[],"nodes_removed_total":0,"props_changed":[{"from":{"props":{"w":1}},"id":"46a4b5c81e461c86b9c87718","kind":"edge","to":{"props":{"w":2}}}],"props_changed_total":1,"truncated":false}`},
		{name: "A.2#5 scoped", args: map[string]any{"t1": int64(5), "t2": int64(25), "scope": map[string]any{"seeds": []any{"b"}, "hops": int64(1)}},
			want:   `{"edges_added":[{"dst":"b","eid":"46a4b5c81e461c86b9c87718","rel_type":"KNOWS","src":"a"}],"edges_added_total":1,"edges_removed":[],"edges_removed_total":0,"nodes_added":[],"nodes_added_total":0,"nodes_removed":[],"nodes_removed_total":0,"props_changed":[],"props_changed_total":0,"truncated":false}`,
			digest: "6e27e5ba51a011b09b091908fd99653749a91b8a86771e5f128690c1f5f04224"},
		{name: "swapped instants", args: map[string]any{"t1": int64(50), "t2": int64(30)},
			want: `{"edges_added":[{"dst":"a","eid":"` + msg1 + `","rel_type":"MSG","src":"c"}],"edges_added_total":1,"edges_removed":[],"edges_removed_total":0,"nodes_added":[],"nodes_added_total":0,"nodes_removed":[],"nodes_removed_total":0,"props_changed":[{"from":{"props":{"w":2}},"id":"46a4b5c81e461c86b9c87718","kind":"edge","to":{"props":{"w":1}}}],"props_changed_total":1,"truncated":false}`},
		{name: "same instant", args: map[string]any{"t1": int64(30), "t2": int64(30)}, want: "{" + diffEmpty},
		// Node c appears at 20; the KNOWS versions [10,40) and [60,80) both
		// carry {w:1}: cut by the correction, not changed.
		{name: "carve with unchanged props is no change", args: map[string]any{"t1": int64(15), "t2": int64(65)},
			want: `{"edges_added":[],"edges_added_total":0,"edges_removed":[],"edges_removed_total":0,"nodes_added":["c"],"nodes_added_total":1,"nodes_removed":[],"nodes_removed_total":0,"props_changed":[],"props_changed_total":0,"truncated":false}`},
		{name: "as of 3: one version, no change", args: map[string]any{"t1": int64(15), "t2": int64(50), "as_of_tt": int64(3)}, want: "{" + diffEmpty},
		{name: "limit caps each list", args: map[string]any{"t1": int64(5), "t2": int64(20), "limit": int64(1)},
			want: `{"edges_added":[{"dst":"b","eid":"46a4b5c81e461c86b9c87718","rel_type":"KNOWS","src":"a"}],"edges_added_total":2,"edges_removed":[],"edges_removed_total":0,"nodes_added":["c"],"nodes_added_total":1,"nodes_removed":[],"nodes_removed_total":0,"props_changed":[],"props_changed_total":0,"truncated":true}`},
		{name: "scope seed without a node version at either instant", args: map[string]any{"t1": int64(5), "t2": int64(10), "scope": map[string]any{"seeds": []any{"c"}, "hops": int64(3)}}, want: "{" + diffEmpty},
		// An unknown seed reaches nothing: the same diff as without it.
		{name: "unknown scope seed reaches nothing", args: map[string]any{"t1": int64(5), "t2": int64(25), "scope": map[string]any{"seeds": []any{"zz", "b"}, "hops": int64(1)}},
			want: `{"edges_added":[{"dst":"b","eid":"46a4b5c81e461c86b9c87718","rel_type":"KNOWS","src":"a"}],"edges_added_total":1,"edges_removed":[],"edges_removed_total":0,"nodes_added":[],"nodes_added_total":0,"nodes_removed":[],"nodes_removed_total":0,"props_changed":[],"props_changed_total":0,"truncated":false}`},
		{name: "only unknown scope seeds: an empty diff", args: map[string]any{"t1": int64(5), "t2": int64(25), "scope": map[string]any{"seeds": []any{"zz"}, "hops": int64(3)}}, want: "{" + diffEmpty},
		{name: "scope needs hops", args: map[string]any{"t1": int64(5), "t2": int64(10), "scope": map[string]any{"seeds": []any{"a"}}}, code: ops.ESchema, path: "/scope/hops"},
		{name: "no cursor argument", args: map[string]any{"t1": int64(5), "t2": int64(10), "cursor": nil}, code: ops.ESchema, path: "/cursor"},
	})
}

// Node content: a label change with equal props is a change; a carve of a
// node version with the same label and props is not; 1 and 1.0 differ.
func TestDiffSnapshotsNodeContent(t *testing.T) {
	_, e := build(t, []oracle.Batch{
		{TT: 1, Ops: []bt.Op{
			bt.AssertNode("n", "L1", `{"p":1}`, bt.Interval{Start: 0, End: 50}),
			bt.AssertNode("n", "L2", `{"p":1}`, bt.Interval{Start: 50, End: 100}),
			bt.AssertNode("m", "M", `{"p":1}`, bt.Interval{Start: 0, End: 100}),
			bt.AssertNode("k", "K", `{"p":1}`, bt.Interval{Start: 0, End: 100}),
		}},
		{TT: 2, Ops: []bt.Op{
			bt.AssertNode("m", "M", `{"p":1}`, bt.Interval{Start: 40, End: 45}),
			bt.Correct(bt.NodeRef("k"), `{"p":1.0}`, bt.Interval{Start: 50, End: 100}),
		}},
	})
	snapshotRunCases(t, e, "diff_snapshots", []snapshotCase{
		{name: "label and type changes", args: map[string]any{"t1": int64(10), "t2": int64(60)},
			want: `{"edges_added":[],"edges_added_total":0,"edges_removed":[],"edges_removed_total":0,"nodes_added":[],"nodes_added_total":0,"nodes_removed":[],"nodes_removed_total":0,"props_changed":[` +
				`{"from":{"label":"K","props":{"p":1}},"id":"k","kind":"node","to":{"label":"K","props":{"p":1.0}}},` +
				`{"from":{"label":"L1","props":{"p":1}},"id":"n","kind":"node","to":{"label":"L2","props":{"p":1}}}],"props_changed_total":2,"truncated":false}`},
		{name: "removed after 100", args: map[string]any{"t1": int64(42), "t2": int64(100)},
			want: `{"edges_added":[],"edges_added_total":0,"edges_removed":[],"edges_removed_total":0,"nodes_added":[],"nodes_added_total":0,"nodes_removed":["k","m","n"],"nodes_removed_total":3,"props_changed":[],"props_changed_total":0,"truncated":false}`},
	})
}

// diffSets runs an unscoped, untruncated diff and returns the added and
// removed node uids and eids.
func diffSets(t *testing.T, src storeSource, t1, t2 bt.Time, asOf any) (nA, nR, eA, eR map[string]bool, res map[string]any) {
	t.Helper()
	args := map[string]any{"t1": t1, "t2": t2, "limit": int64(10_000)}
	if asOf != nil {
		args["as_of_tt"] = asOf
	}
	env, err := ops.Execute(context.Background(), src, "diff_snapshots", args)
	if err != nil {
		t.Fatal(err)
	}
	set := func(field, key string) map[string]bool {
		out := map[string]bool{}
		for _, x := range env.Result[field].([]any) {
			if key == "" {
				out[x.(string)] = true
			} else {
				out[x.(map[string]any)[key].(string)] = true
			}
		}
		return out
	}
	return set("nodes_added", ""), set("nodes_removed", ""), set("edges_added", "eid"), set("edges_removed", "eid"), env.Result
}

func diffMinus(a map[string]bool, bs ...map[string]bool) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		keep := true
		for _, b := range bs {
			keep = keep && !b[k]
		}
		if keep {
			out[k] = true
		}
	}
	return out
}

func diffUnion(a, b map[string]bool) map[string]bool {
	out := diffMinus(a)
	for k := range b {
		out[k] = true
	}
	return out
}

func diffSameSet(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// Diff composition (reference §11.2): for t1 <= t2 <= t3,
// A13 = (A12 − R23) ∪ (A23 − A12 − R12) and R13 = (R12 − A23) ∪ (R23 − R12 − A12),
// for nodes and for edges.
func TestDiffSnapshotsComposition(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	nonTrivial := 0
	for i := range 300 {
		m, e := build(t, oracle.RandomHistory(rng, 2+rng.IntN(9)))
		w := newWorld(rng, m)
		ts := []bt.Time{snapshotTime(rng, w), snapshotTime(rng, w), snapshotTime(rng, w)}
		slices.Sort(ts)
		asOf, _ := pickAsOf(rng, w)
		src := storeSource{e}
		nA12, nR12, eA12, eR12, _ := diffSets(t, src, ts[0], ts[1], asOf)
		nA23, nR23, eA23, eR23, _ := diffSets(t, src, ts[1], ts[2], asOf)
		nA13, nR13, eA13, eR13, _ := diffSets(t, src, ts[0], ts[2], asOf)
		check := func(kind string, A12, R12, A23, R23, A13, R13 map[string]bool) {
			wantA := diffUnion(diffMinus(A12, R23), diffMinus(A23, A12, R12))
			wantR := diffUnion(diffMinus(R12, A23), diffMinus(R23, R12, A12))
			if !diffSameSet(A13, wantA) || !diffSameSet(R13, wantR) {
				t.Fatalf("case %d %s at %v as of %v: A13 %v want %v; R13 %v want %v", i, kind, ts, asOf, A13, wantA, R13, wantR)
			}
			if len(A12)+len(R12) > 0 && len(A23)+len(R23) > 0 {
				nonTrivial++
			}
		}
		check("nodes", nA12, nR12, nA23, nR23, nA13, nR13)
		check("edges", eA12, eR12, eA23, eR23, eA13, eR13)
	}
	if nonTrivial < 50 {
		t.Fatalf("only %d non-trivial compositions", nonTrivial)
	}
}

// Swapping t1 and t2 swaps added with removed and from with to.
func TestDiffSnapshotsSwap(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 2))
	for i := range 200 {
		m, e := build(t, oracle.RandomHistory(rng, 2+rng.IntN(9)))
		w := newWorld(rng, m)
		t1, t2 := snapshotTime(rng, w), snapshotTime(rng, w)
		_, _, _, _, fwd := diffSets(t, storeSource{e}, t1, t2, nil)
		_, _, _, _, bwd := diffSets(t, storeSource{e}, t2, t1, nil)
		for _, p := range [][2]string{{"nodes_added", "nodes_removed"}, {"edges_added", "edges_removed"}} {
			a, _ := canon.Marshal(fwd[p[0]])
			b, _ := canon.Marshal(bwd[p[1]])
			if string(a) != string(b) {
				t.Fatalf("case %d: %s(%d,%d) = %s but %s(%d,%d) = %s", i, p[0], t1, t2, a, p[1], t2, t1, b)
			}
		}
		var swapped []any
		for _, c := range bwd["props_changed"].([]any) {
			cm := clone(c.(map[string]any))
			cm["from"], cm["to"] = cm["to"], cm["from"]
			swapped = append(swapped, cm)
		}
		a, _ := canon.Marshal(fwd["props_changed"])
		b, _ := canon.Marshal(swapped)
		if len(swapped) == 0 {
			b = []byte("[]")
		}
		if string(a) != string(b) {
			t.Fatalf("case %d: props_changed not symmetric:\n %s\n %s", i, a, b)
		}
	}
}
