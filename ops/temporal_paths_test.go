package ops_test

import (
	"context"
	"math/rand/v2"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

func init() {
	argGens["temporal_paths"] = func(rng *rand.Rand, w *world) map[string]any {
		win := pickWindow(rng)
		if rng.IntN(2) == 0 {
			win = map[string]any{"t_a": int64(rng.IntN(40)), "t_b": int64(60 + rng.IntN(100))}
		}
		args := map[string]any{"src": pickUID(rng, w), "dst": pickUID(rng, w), "window": win}
		if e, ok := pickEdge(rng, w); ok && rng.IntN(2) == 0 { // aim at an edge: a path exists
			args["src"], args["window"] = e.Key.Src, windowAround(rng, e.Valid.Start, 40)
			if rng.IntN(2) == 0 {
				args["dst"] = e.Key.Dst
			}
		}
		if rng.IntN(2) == 0 {
			args["k"] = int64(1 + rng.IntN(8))
		}
		if rng.IntN(2) == 0 {
			args["max_hops"] = int64(1 + rng.IntN(5))
		}
		switch rng.IntN(4) {
		case 0:
			args["order"] = "fastest"
		case 1:
			args["order"] = "fewest_hops"
		case 2:
			args["order"] = "earliest_arrival"
		}
		if rng.IntN(40) == 0 {
			args["k"] = int64(21) // schema error
		}
		if rng.IntN(40) == 0 {
			args["window"] = map[string]any{"t_a": int64(9), "t_b": int64(3)} // invalid window
		}
		return withAsOf(rng, w, args)
	}
}

func TestTemporalPathsExamples(t *testing.T) {
	gm, ge := build(t, reachGoldenHistory())
	msg := func(i int64) string { // eid of the i-th MSG event of batch 6
		k := bt.EdgeKey{Src: "a", Dst: "c", RelType: "MSG", Disc: bt.AutoDisc(6, i)}
		if i == 1 {
			k.Src, k.Dst = "c", "a"
		}
		return engine.EID(k)
	}
	// A.2 #8: the two messages a→c are two one-hop paths (our eids: the
	// store's discriminators #6.0 and #6.2, not the reference's #0 and #2).
	res, rows := reachCall(t, gm, ge, "temporal_paths", map[string]any{"src": "a", "dst": "c", "window": reachWin(0, 100), "k": int64(5), "max_hops": int64(4)})
	want := `[{"arrival":20,"departure":20,"duration":0,"edges":[{"dst":"c","eid":"` + msg(0) + `","rel_type":"MSG","src":"a","t":20,"traversed_at":20}],"hops":1},` +
		`{"arrival":35,"departure":35,"duration":0,"edges":[{"dst":"c","eid":"` + msg(2) + `","rel_type":"MSG","src":"a","t":35,"traversed_at":35}],"hops":1}]`
	if rows != want || res["rows_total"] != int64(2) || res["truncated"] != false || res["cursor"] != nil {
		t.Fatalf("A.2 #8: %s total %v truncated %v\n want %s", rows, res["rows_total"], res["truncated"], want)
	}
	// c→a→b: c→a at 30, then the KNOWS version [10,40) at 30.
	_, rows = reachCall(t, gm, ge, "temporal_paths", map[string]any{"src": "c", "dst": "b", "window": reachWin(0, 100)})
	knows := engine.EID(bt.EdgeKey{Src: "a", Dst: "b", RelType: "KNOWS"})
	want = `[{"arrival":30,"departure":30,"duration":0,"edges":[{"dst":"a","eid":"` + msg(1) + `","rel_type":"MSG","src":"c","t":30,"traversed_at":30},` +
		`{"dst":"b","eid":"` + knows + `","rel_type":"KNOWS","src":"a","t":10,"traversed_at":30}],"hops":2}]`
	if rows != want {
		t.Fatalf("c→b: %s\n want %s", rows, want)
	}
	// The KNOWS fragments [40,60) and [60,80) continue [10,40): one edge,
	// so c→a→b is one path (not three, entered at 30, 40 and 60), and
	// over [50,100) a→b is one path, through the fragment open at 50.
	_, rows = reachCall(t, gm, ge, "temporal_paths", map[string]any{"src": "a", "dst": "b", "window": reachWin(50, 100)})
	want = `[{"arrival":50,"departure":50,"duration":0,"edges":[{"dst":"b","eid":"` + knows + `","rel_type":"KNOWS","src":"a","t":40,"traversed_at":50}],"hops":1}]`
	if rows != want {
		t.Fatalf("a→b in [50,100): %s\n want %s", rows, want)
	}
	// src == dst: no paths; unknown dst: E_NOT_FOUND.
	res, _ = reachCall(t, gm, ge, "temporal_paths", map[string]any{"src": "a", "dst": "a", "window": reachWin(0, 100)})
	if res["rows_total"] != int64(0) {
		t.Fatalf("src == dst: %v", res)
	}
	_, err := ops.Execute(context.Background(), storeSource{ge}, "temporal_paths", map[string]any{"src": "a", "dst": "c", "window": reachWin(0, 100), "as_of_tt": int64(5)})
	if oe, ok := err.(*ops.Error); !ok || oe.Code != ops.ENotFound || oe.Details["path"] != "/dst" {
		t.Fatalf("c as of tt 5: %v", err)
	}
}

// TestTemporalPathsOrders: the three orders and their tie rules, on
//
//	a→d@1, d→x@9 (arrival 9, duration 8, 2 hops)
//	a→x@12       (arrival 12, duration 0, 1 hop)
//	a→b@5, b→c@5, c→x@5, written backwards (arrival 5, duration 0, 3 hops: same-instant hops)
func TestTemporalPathsOrders(t *testing.T) {
	m, e := reachEvents(t, []bt.Event{reachEv("c", "x", 5), reachEv("b", "c", 5), reachEv("a", "b", 5), reachEv("a", "d", 1), reachEv("d", "x", 9), reachEv("a", "x", 12)})
	arrivals := func(order string, k int64) (string, map[string]any) {
		res, _ := reachCall(t, m, e, "temporal_paths", map[string]any{"src": "a", "dst": "x", "window": reachWin(0, 20), "order": order, "k": k})
		var got []any
		for _, r := range res["rows"].([]any) {
			row := r.(map[string]any)
			got = append(got, []any{row["arrival"], row["duration"], row["hops"]})
		}
		b, _ := canon.Marshal(got)
		return string(b), res
	}
	for _, tc := range []struct{ order, want string }{
		{"earliest_arrival", `[[5,0,3],[9,8,2],[12,0,1]]`},
		{"fastest", `[[5,0,3],[12,0,1],[9,8,2]]`},
		{"fewest_hops", `[[12,0,1],[9,8,2],[5,0,3]]`},
	} {
		if got, _ := arrivals(tc.order, 5); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.order, got, tc.want)
		}
	}
	got, res := arrivals("fastest", 2)
	if got != `[[5,0,3],[12,0,1]]` || res["rows_total"] != int64(3) || res["truncated"] != true {
		t.Errorf("k=2: %s total %v truncated %v", got, res["rows_total"], res["truncated"])
	}
	// max_hops cuts the same-instant path.
	res, _ = reachCall(t, m, e, "temporal_paths", map[string]any{"src": "a", "dst": "x", "window": reachWin(0, 20), "max_hops": int64(2)})
	if res["rows_total"] != int64(2) {
		t.Errorf("max_hops 2: rows_total %v", res["rows_total"])
	}
}

// TestTemporalPathsMatchReachability: on stores of six uids every
// node-simple path has at most 5 hops, and an earliest-arrival walk can
// always be shortened to a simple path that arrives no later, so the first
// path in earliest_arrival order arrives exactly at temporal_reachability's
// earliest_arrival, and a uid has a path iff it is reached.
func TestTemporalPathsMatchReachability(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	ctx := context.Background()
	checked := 0
	for range 150 {
		m, e := build(t, oracle.RandomHistory(rng, 2+rng.IntN(9)))
		if len(m.UIDs) < 2 {
			continue
		}
		src := m.UIDs[rng.IntN(len(m.UIDs))]
		w := pickWindow(rng)
		env, err := ops.Execute(ctx, storeSource{e}, "temporal_reachability", map[string]any{"src": src, "window": w, "limit": int64(10_000)})
		if err != nil {
			t.Fatal(err)
		}
		ea := map[string]any{}
		for _, r := range env.Result["rows"].([]any) {
			ea[r.(map[string]any)["uid"].(string)] = r.(map[string]any)["earliest_arrival"]
		}
		for _, dst := range m.UIDs {
			if dst == src {
				continue
			}
			p, err := ops.Execute(ctx, storeSource{e}, "temporal_paths", map[string]any{"src": src, "dst": dst, "window": w, "k": int64(1), "max_hops": int64(6)})
			if err != nil {
				t.Fatal(err)
			}
			rows := p.Result["rows"].([]any)
			want, reached := ea[dst]
			if reached != (len(rows) > 0) {
				t.Fatalf("%s→%s in %v: reached %v, paths %d", src, dst, w, reached, p.Result["rows_total"])
			}
			if reached {
				if got := rows[0].(map[string]any)["arrival"]; got != want {
					t.Fatalf("%s→%s in %v: first path arrives at %v, earliest_arrival %v", src, dst, w, got, want)
				}
				checked++
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d reached pairs", checked)
	}
}
