package ops_test

import (
	"context"

	"math/rand/v2"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"

	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

var coActiveRels = []string{"before", "meets", "overlaps", "starts", "during", "finishes", "equals",
	"after", "met_by", "overlapped_by", "started_by", "contains", "finished_by"}

// coActiveConverse maps each relation to its converse.
var coActiveConverse = map[string]string{
	"before": "after", "after": "before", "meets": "met_by", "met_by": "meets",
	"overlaps": "overlapped_by", "overlapped_by": "overlaps", "starts": "started_by", "started_by": "starts",
	"during": "contains", "contains": "during", "finishes": "finished_by", "finished_by": "finishes", "equals": "equals",
}

func init() {
	argGens["co_active"] = func(rng *rand.Rand, w *world) map[string]any {
		spec := func() map[string]any {
			s := map[string]any{}
			if rng.IntN(4) == 0 {
				s["src"] = pickUID(rng, w)
			}
			if rng.IntN(5) == 0 {
				s["dst"] = pickUID(rng, w)
			}
			if rng.IntN(3) == 0 {
				s["rel_type"] = w.Rels[rng.IntN(len(w.Rels))]
			} else if rng.IntN(5) == 0 {
				s["rel_type"] = nil
			}
			return s
		}
		ar := map[string]any{"relation": coActiveRels[rng.IntN(len(coActiveRels))]}
		if rng.IntN(12) > 0 {
			ar["gap"] = int64(1 + rng.IntN(30))
		}
		args := map[string]any{"a_spec": spec(), "b_spec": spec(), "allen_relation": ar}
		if rng.IntN(3) == 0 { // unfiltered sides: every pair of edges is a candidate
			args["a_spec"], args["b_spec"] = map[string]any{}, map[string]any{}
		}
		if rng.IntN(3) == 0 {
			args["limit"] = int64(1 + rng.IntN(5))
		}
		return withAsOf(rng, w, args)
	}
}

func TestCoActiveAppendix(t *testing.T) {
	m, e := build(t, gmtsAppendixHistory())
	// A.2 item 13. Same pair as the reference; the MSG events' eids and vids
	// differ because ingest assigns store-wide discriminators.
	env, err := ops.Execute(context.Background(), storeSource{e}, "co_active", map[string]any{
		"a_spec": map[string]any{"src": "a", "dst": "c"}, "b_spec": map[string]any{"src": "c"},
		"allen_relation": map[string]any{"relation": "before", "gap": int64(20)}})
	if err != nil {
		t.Fatal(err)
	}
	rows := env.Result["rows"].([]any)
	if len(rows) != 1 {
		t.Fatalf("rows %v", rows)
	}
	a, b := rows[0].(map[string]any)["a"].(map[string]any), rows[0].(map[string]any)["b"].(map[string]any)
	if a["vt_s"] != int64(20) || a["vt_e"] != int64(21) || a["src"] != "a" || b["vt_s"] != int64(30) || b["vt_e"] != int64(31) || b["src"] != "c" {
		t.Fatalf("row %v", rows[0])
	}
	want, _ := canon.Marshal(env.Result)
	gmtsExpect(t, m, e, "co_active", map[string]any{
		"a_spec": map[string]any{"src": "a", "dst": "c"}, "b_spec": map[string]any{"src": "c"},
		"allen_relation": map[string]any{"relation": "before", "gap": int64(20)}}, string(want))

	// The carved KNOWS edge: fragments [10,40) [40,60) [60,80) meet each
	// other; MSG [20,21) is during [10,40).
	knows := map[string]any{"rel_type": "KNOWS"}
	count := func(aSpec, bSpec map[string]any, rel string) int {
		env, err := ops.Execute(context.Background(), storeSource{e}, "co_active", map[string]any{"a_spec": aSpec, "b_spec": bSpec,
			"allen_relation": map[string]any{"relation": rel, "gap": int64(1000)}})
		if err != nil {
			t.Fatal(err)
		}
		return len(env.Result["rows"].([]any))
	}
	for _, tc := range []struct {
		a, b map[string]any
		rel  string
		want int
	}{
		{knows, knows, "meets", 2},
		{knows, knows, "met_by", 2},
		{knows, knows, "before", 1},
		{knows, knows, "equals", 0},
		{map[string]any{"rel_type": "MSG"}, knows, "during", 3},
		{knows, map[string]any{"rel_type": "MSG"}, "contains", 3},
		{map[string]any{}, map[string]any{}, "equals", 0},
	} {
		if got := count(tc.a, tc.b, tc.rel); got != tc.want {
			t.Errorf("%v %s %v: %d pairs, want %d", tc.a, tc.rel, tc.b, got, tc.want)
		}
	}
}

func TestCoActiveErrors(t *testing.T) {
	_, e := build(t, gmtsAppendixHistory())
	for _, tc := range []struct {
		args map[string]any
		code string
	}{
		{map[string]any{"a_spec": map[string]any{}, "b_spec": map[string]any{}, "allen_relation": map[string]any{"relation": "before"}}, ops.EInvalidArg},
		{map[string]any{"a_spec": map[string]any{}, "b_spec": map[string]any{}, "allen_relation": map[string]any{"relation": "after", "gap": nil}}, ops.EInvalidArg},
		{map[string]any{"a_spec": map[string]any{"src": "zz"}, "b_spec": map[string]any{}, "allen_relation": map[string]any{"relation": "meets"}}, ops.ENotFound},
		{map[string]any{"a_spec": map[string]any{}, "b_spec": map[string]any{"dst": "c"}, "allen_relation": map[string]any{"relation": "meets"}, "as_of_tt": int64(5)}, ops.ENotFound},
		{map[string]any{"a_spec": map[string]any{}, "b_spec": map[string]any{}, "allen_relation": map[string]any{"relation": "near"}}, ops.ESchema},
		{map[string]any{"a_spec": map[string]any{"label": "x"}, "b_spec": map[string]any{}, "allen_relation": map[string]any{"relation": "meets"}}, ops.ESchema},
		{map[string]any{"a_spec": map[string]any{}, "b_spec": map[string]any{}, "allen_relation": map[string]any{"relation": "before", "gap": int64(0)}}, ops.ESchema},
	} {
		_, err := ops.Execute(context.Background(), storeSource{e}, "co_active", tc.args)
		if gmtsCode(err) != tc.code {
			t.Errorf("%v: got %v, want %s", tc.args, err, tc.code)
		}
	}
}

// Metamorphic: with a gap that spans everything, the thirteen relations
// partition A x B minus identical versions; a R b iff b R' a (converse).
func TestCoActiveMetamorphic(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	ctx := context.Background()
	pairs := func(res map[string]any, swap bool) map[[2]string]bool {
		out := map[[2]string]bool{}
		for _, r := range res["rows"].([]any) {
			a, b := r.(map[string]any)["a"].(map[string]any)["vid"].(string), r.(map[string]any)["b"].(map[string]any)["vid"].(string)
			if swap {
				a, b = b, a
			}
			out[[2]string{a, b}] = true
		}
		return out
	}
	for i := range 40 {
		hist := oracle.RandomHistory(rng, 2+rng.IntN(8))
		m, e := build(t, hist)
		all := map[string]any{}
		rt := map[string]any{"rel_type": "R"}
		specs := []map[string]any{all, rt}
		aSpec, bSpec := specs[rng.IntN(2)], specs[rng.IntN(2)]
		call := func(a, b map[string]any, rel string) map[string]any {
			env, err := ops.Execute(ctx, storeSource{e}, "co_active", map[string]any{"a_spec": a, "b_spec": b,
				"allen_relation": map[string]any{"relation": rel, "gap": int64(1 << 62)}, "limit": int64(10_000)})
			if err != nil {
				t.Fatal(err)
			}
			return env.Result
		}
		seen := map[[2]string]string{}
		for _, rel := range coActiveRels {
			res := call(aSpec, bSpec, rel)
			for p := range pairs(res, false) {
				if prev, dup := seen[p]; dup {
					t.Fatalf("case %d: pair %v in both %s and %s", i, p, prev, rel)
				}
				seen[p] = rel
			}
			conv := pairs(call(bSpec, aSpec, coActiveConverse[rel]), true)
			if len(conv) != len(pairs(res, false)) {
				t.Fatalf("case %d: %s has %d pairs, its converse %d", i, rel, len(pairs(res, false)), len(conv))
			}
			for p := range pairs(res, false) {
				if !conv[p] {
					t.Fatalf("case %d: %v in %s but not in the converse", i, p, rel)
				}
			}
		}
		// Every pair of distinct versions (a in A, b in B) is related once.
		nPairs := 0
		for range seen {
			nPairs++
		}
		inA, inB := 0, 0
		both := 0
		for _, v := range m.Edges {
			if v.TTe != bt.OpenEnd {
				continue
			}
			a := aSpec["rel_type"] == nil || aSpec["rel_type"] == v.Key.RelType
			b := bSpec["rel_type"] == nil || bSpec["rel_type"] == v.Key.RelType
			if a {
				inA++
			}
			if b {
				inB++
			}
			if a && b {
				both++
			}
		}
		if want := inA*inB - both; nPairs != want {
			t.Fatalf("case %d: the thirteen relations cover %d pairs, want %d", i, nPairs, want)
		}
	}
}

func TestCoActiveLimit(t *testing.T) {
	evs := make([]bt.Event, 400)
	for i := range evs {
		evs[i] = bt.Event{Src: "p", Dst: "q", RelType: "MSG", VtS: 5}
	}
	m, e := build(t, []oracle.Batch{{TT: 1, Ops: []bt.Op{bt.Ingest(evs, "Node")}}})
	args := map[string]any{"a_spec": map[string]any{}, "b_spec": map[string]any{}, "allen_relation": map[string]any{"relation": "equals"}}
	_, err := ops.Execute(context.Background(), storeSource{e}, "co_active", args)
	if gmtsCode(err) != ops.ELimit {
		t.Fatalf("400 x 399 equal intervals: got %v, want E_LIMIT", err)
	}
	_, prepared, _ := ops.Prepare("co_active", args)
	prepared["as_of_tt"] = m.LastTT
	if _, err := oracle.Call(m, "co_active", prepared); err == nil || err.Error() != ops.ELimit {
		t.Fatalf("oracle: got %v, want E_LIMIT", err)
	}
	args["a_spec"] = map[string]any{"rel_type": "S"}
	if _, err := ops.Execute(context.Background(), storeSource{e}, "co_active", args); err != nil {
		t.Fatal(err)
	}
}
