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
	argGens["temporal_reachability"] = func(rng *rand.Rand, w *world) map[string]any {
		win := pickWindow(rng)
		if rng.IntN(3) == 0 {
			win = map[string]any{"t_a": int64(rng.IntN(40)), "t_b": int64(60 + rng.IntN(100))}
		}
		args := map[string]any{"src": pickUID(rng, w), "window": win}
		if e, ok := pickEdge(rng, w); ok && rng.IntN(2) == 0 { // aim at an edge: something is reached
			args["src"], args["window"] = e.Key.Src, windowAround(rng, e.Valid.Start, 40)
		}
		switch rng.IntN(4) {
		case 0:
			args["direction"] = "in"
		case 1:
			args["direction"] = "both"
		case 2:
			args["direction"] = "out"
		}
		switch rng.IntN(6) {
		case 0, 1:
			args["delta_max_wait"] = int64(1 + rng.IntN(20))
		case 2:
			args["delta_max_wait"] = nil
		}
		if rng.IntN(40) == 0 {
			args["delta_max_wait"] = int64(0) // schema error
		}
		if rng.IntN(40) == 0 {
			args["window"] = map[string]any{"t_a": int64(50), "t_b": int64(50)} // invalid window
		}
		if rng.IntN(3) == 0 {
			args["limit"] = int64(1 + rng.IntN(5))
		}
		return withAsOf(rng, w, args)
	}
}

// reachGoldenHistory is the six-batch store of the reference's Appendix
// A.1 (tts 1..6). Our identities differ for the ingested MSG events: the
// store assigns discriminators #6.0, #6.1, #6.2 (the reference: #0, #1,
// #2), so their eids differ; the KNOWS edge (disc "") has the reference's
// eid 46a4b5c81e461c86b9c87718.
func reachGoldenHistory() []oracle.Batch {
	knows := bt.EdgeKey{Src: "a", Dst: "b", RelType: "KNOWS"}
	return []oracle.Batch{
		{TT: 1, Ops: []bt.Op{bt.AssertNode("a", "Person", `{"name":"Alice"}`, bt.Interval{Start: 0, End: bt.OpenEnd})}},
		{TT: 2, Ops: []bt.Op{bt.AssertNode("b", "Person", `{"name":"Bob"}`, bt.Interval{Start: 0, End: bt.OpenEnd})}},
		{TT: 3, Ops: []bt.Op{bt.AssertEdge(knows, `{"w":1}`, bt.Interval{Start: 10, End: 100})}},
		{TT: 4, Ops: []bt.Op{bt.Correct(bt.EdgeRef(knows), `{"w":2}`, bt.Interval{Start: 40, End: 60})}},
		{TT: 5, Ops: []bt.Op{bt.Retract(bt.EdgeRef(knows), 80)}},
		{TT: 6, Ops: []bt.Op{bt.Ingest([]bt.Event{
			{Src: "a", Dst: "c", RelType: "MSG", VtS: 20},
			{Src: "c", Dst: "a", RelType: "MSG", VtS: 30},
			{Src: "a", Dst: "c", RelType: "MSG", VtS: 35},
		}, "Node")}},
	}
}

// reachEvents builds a store from event batches (one batch per list, tts
// 1, 2, ...), each event instantaneous unless VtE is set.
func reachEvents(t *testing.T, batches ...[]bt.Event) (*bt.MemStore, *engine.Store) {
	t.Helper()
	var hist []oracle.Batch
	for i, evs := range batches {
		hist = append(hist, oracle.Batch{TT: bt.Time(i + 1), Ops: []bt.Op{bt.Ingest(evs, "Node")}})
	}
	return build(t, hist)
}

func reachEv(src, dst string, t bt.Time) bt.Event {
	return bt.Event{Src: src, Dst: dst, RelType: "MSG", VtS: t}
}

// reachCall runs an operator on the engine and on the oracle, requires
// the same rows (all of them), and returns the engine's payload for args
// and its canonical rows.
func reachCall(t *testing.T, m *bt.MemStore, e *engine.Store, op string, args map[string]any) (map[string]any, string) {
	t.Helper()
	env, err := ops.Execute(context.Background(), storeSource{e}, op, clone(args))
	if err != nil {
		t.Fatalf("%s(%v): %v", op, args, err)
	}
	page, _ := canon.Marshal(env.Result["rows"])
	if _, paged := args["limit"]; paged {
		full := clone(args)
		full["limit"] = int64(10_000)
		env, err = ops.Execute(context.Background(), storeSource{e}, op, full)
		if err != nil {
			t.Fatalf("%s(%v): %v", op, full, err)
		}
	}
	_, prepared, _ := ops.Prepare(op, clone(args))
	prepared["as_of_tt"] = min(env.AsOfTT, m.LastTT)
	want, err := oracle.Call(m, op, prepared)
	if err != nil {
		t.Fatalf("oracle %s(%v): %v", op, args, err)
	}
	rows, _ := canon.Marshal(env.Result["rows"])
	wrows, _ := canon.Marshal(want["rows"])
	if string(rows) != string(wrows) {
		t.Fatalf("%s(%v):\n engine %s\n oracle %s", op, args, rows, wrows)
	}
	return env.Result, string(page)
}

func reachWin(a, b int64) map[string]any { return map[string]any{"t_a": a, "t_b": b} }

func TestTemporalReachabilityExamples(t *testing.T) {
	gm, ge := build(t, reachGoldenHistory())
	// The reference's s→m@1, s→m@45, m→t@50 (Appendix A.3), and the
	// interval variant s→m [0,100), m→t@50 (§O4).
	dm, de := reachEvents(t, []bt.Event{reachEv("s", "m", 1), reachEv("s", "m", 45), reachEv("m", "t", 50)})
	im, ie := reachEvents(t, []bt.Event{{Src: "s", Dst: "m", RelType: "CALL", VtS: 0, VtE: 100}, reachEv("m", "t", 50)})
	// §14: x→s@5, y→x@10. Reversing the edges with time running forward
	// would report y; a latest-departure search does not.
	xm, xe := reachEvents(t, []bt.Event{reachEv("x", "s", 5), reachEv("y", "x", 10)})
	type store struct {
		m *bt.MemStore
		e *engine.Store
	}
	golden, deltaS, ivS, inS := store{gm, ge}, store{dm, de}, store{im, ie}, store{xm, xe}
	cases := []struct {
		name string
		s    store
		args map[string]any
		want string
	}{
		{"A.2 #6 out from a", golden, map[string]any{"src": "a", "window": reachWin(0, 100)},
			`[{"earliest_arrival":10,"latest_departure":null,"uid":"b"},{"earliest_arrival":20,"latest_departure":null,"uid":"c"}]`},
		// A.2 #7 with our semantics: out from c (Δ=5): c→a at 30 from the
		// start label, then a→b at 30 (KNOWS [10,40)) waits 0; in to c: a
		// must leave by 35 (a→c@35); the a→c@20 path does not continue
		// backwards (c→a@30 is later). The reference reported a@20, b@20
		// with its reversed-edge "in".
		{"A.2 #7 both from c, Δ=5", golden, map[string]any{"src": "c", "window": reachWin(0, 100), "delta_max_wait": int64(5), "direction": "both"},
			`[{"earliest_arrival":30,"latest_departure":35,"uid":"a"},{"earliest_arrival":30,"latest_departure":null,"uid":"b"}]`},
		{"in to c", golden, map[string]any{"src": "c", "window": reachWin(0, 100), "direction": "in"},
			`[{"earliest_arrival":null,"latest_departure":35,"uid":"a"}]`},
		{"in to b: a leaves by 79 (KNOWS ends at 80)", golden, map[string]any{"src": "b", "window": reachWin(0, 100), "direction": "in"},
			`[{"earliest_arrival":null,"latest_departure":30,"uid":"c"},{"earliest_arrival":null,"latest_departure":79,"uid":"a"}]`},
		{"in to b, as of tt 3 (KNOWS [10,100))", golden, map[string]any{"src": "b", "window": reachWin(0, 100), "direction": "in", "as_of_tt": int64(3)},
			`[{"earliest_arrival":null,"latest_departure":99,"uid":"a"}]`},
		{"out from a after the retraction", golden, map[string]any{"src": "a", "window": reachWin(80, 100)}, `[]`},
		{"A.3 Δ null", deltaS, map[string]any{"src": "s", "window": reachWin(0, 100)},
			`[{"earliest_arrival":1,"latest_departure":null,"uid":"m"},{"earliest_arrival":50,"latest_departure":null,"uid":"t"}]`},
		{"A.3 Δ 10 (via the label m@45)", deltaS, map[string]any{"src": "s", "window": reachWin(0, 100), "delta_max_wait": int64(10)},
			`[{"earliest_arrival":1,"latest_departure":null,"uid":"m"},{"earliest_arrival":50,"latest_departure":null,"uid":"t"}]`},
		{"A.3 Δ 3", deltaS, map[string]any{"src": "s", "window": reachWin(0, 100), "delta_max_wait": int64(3)},
			`[{"earliest_arrival":1,"latest_departure":null,"uid":"m"}]`},
		{"A.3 in to t, Δ 3: s would wait 5 at m", deltaS, map[string]any{"src": "t", "window": reachWin(0, 100), "delta_max_wait": int64(3), "direction": "in"},
			`[{"earliest_arrival":null,"latest_departure":50,"uid":"m"}]`},
		{"A.3 in to t, Δ 5", deltaS, map[string]any{"src": "t", "window": reachWin(0, 100), "delta_max_wait": int64(5), "direction": "in"},
			`[{"earliest_arrival":null,"latest_departure":45,"uid":"s"},{"earliest_arrival":null,"latest_departure":50,"uid":"m"}]`},
		{"A.3 in to t, no Δ", deltaS, map[string]any{"src": "t", "window": reachWin(0, 100), "direction": "in"},
			`[{"earliest_arrival":null,"latest_departure":45,"uid":"s"},{"earliest_arrival":null,"latest_departure":50,"uid":"m"}]`},
		{"window end is exclusive", deltaS, map[string]any{"src": "s", "window": reachWin(0, 50)},
			`[{"earliest_arrival":1,"latest_departure":null,"uid":"m"}]`},
		{"interval, no Δ", ivS, map[string]any{"src": "s", "window": reachWin(0, 100)},
			`[{"earliest_arrival":0,"latest_departure":null,"uid":"m"},{"earliest_arrival":50,"latest_departure":null,"uid":"t"}]`},
		{"interval entered late", ivS, map[string]any{"src": "s", "window": reachWin(30, 100)},
			`[{"earliest_arrival":30,"latest_departure":null,"uid":"m"},{"earliest_arrival":50,"latest_departure":null,"uid":"t"}]`},
		{"interval, Δ 10: earliest instant only", ivS, map[string]any{"src": "s", "window": reachWin(0, 100), "delta_max_wait": int64(10)},
			`[{"earliest_arrival":0,"latest_departure":null,"uid":"m"}]`},
		{"interval backwards: s leaves by 50", ivS, map[string]any{"src": "t", "window": reachWin(0, 100), "direction": "in", "delta_max_wait": int64(1)},
			`[{"earliest_arrival":null,"latest_departure":50,"uid":"m"},{"earliest_arrival":null,"latest_departure":50,"uid":"s"}]`},
		{"§14 in: y is not a row", inS, map[string]any{"src": "s", "window": reachWin(0, 100), "direction": "in"},
			`[{"earliest_arrival":null,"latest_departure":5,"uid":"x"}]`},
		{"§14 out from y", inS, map[string]any{"src": "y", "window": reachWin(0, 100)},
			`[{"earliest_arrival":10,"latest_departure":null,"uid":"x"}]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, rows := reachCall(t, tc.s.m, tc.s.e, "temporal_reachability", tc.args)
			if rows != tc.want {
				t.Fatalf("rows %s\n want %s", rows, tc.want)
			}
		})
	}
	// Without the latest_departure field, A.2 #6 is byte for byte the
	// reference's payload: same digest.
	res, _ := reachCall(t, gm, ge, "temporal_reachability", map[string]any{"src": "a", "window": reachWin(0, 100)})
	for _, r := range res["rows"].([]any) {
		delete(r.(map[string]any), "latest_departure")
	}
	if d, _ := canon.Digest(res); d != "89a6a6e5a23ca492d1f048cecd5df7ecf2f585b22f255440395a2103be333fbd" {
		t.Fatalf("A.2 #6 digest %s", d)
	}
}

// TestTemporalReachabilityTies: several hops may happen at the same
// instant, whatever the order the events were written in.
func TestTemporalReachabilityTies(t *testing.T) {
	// b→c written before a→b, both at 5; then a chain of 40 hops at 7,
	// written backwards (more than the group's linear-scan threshold).
	evs := []bt.Event{reachEv("b", "c", 5), reachEv("a", "b", 5)}
	for i := 39; i >= 0; i-- {
		evs = append(evs, reachEv(reachChainUID(i), reachChainUID(i+1), 7))
	}
	evs = append(evs, reachEv("c", reachChainUID(0), 7))
	m, e := reachEvents(t, evs)
	_, rows := reachCall(t, m, e, "temporal_reachability", map[string]any{"src": "a", "window": reachWin(0, 10), "limit": int64(3)})
	res, _ := reachCall(t, m, e, "temporal_reachability", map[string]any{"src": "a", "window": reachWin(0, 10)})
	if res["rows_total"] != int64(43) {
		t.Fatalf("rows_total %v, want 43 (b, c and the whole chain at the same instant)", res["rows_total"])
	}
	if want := `[{"earliest_arrival":5,"latest_departure":null,"uid":"b"},{"earliest_arrival":5,"latest_departure":null,"uid":"c"},{"earliest_arrival":7,"latest_departure":null,"uid":"z00"}]`; rows != want {
		t.Fatalf("rows %s\n want %s", rows, want)
	}
	// Backwards: everything reaches the end of the chain.
	res, _ = reachCall(t, m, e, "temporal_reachability", map[string]any{"src": reachChainUID(40), "window": reachWin(0, 10), "direction": "in", "limit": int64(100)})
	if res["rows_total"] != int64(43) {
		t.Fatalf("in: rows_total %v, want 43", res["rows_total"])
	}
	// Strictly increasing times are not required, but the window end is
	// exclusive: at t_b = 7 the chain is out of reach.
	res, _ = reachCall(t, m, e, "temporal_reachability", map[string]any{"src": "a", "window": reachWin(0, 7)})
	if res["rows_total"] != int64(2) {
		t.Fatalf("window [0,7): rows_total %v, want 2", res["rows_total"])
	}
}

func reachChainUID(i int) string { return "z" + string(rune('0'+i/10)) + string(rune('0'+i%10)) }

// TestTemporalReachabilityMonotone: a larger window reaches a superset,
// with arrivals no later and departures no earlier (without Δ); with Δ,
// extending only the window end keeps every forward arrival. "both" is the
// union of "out" and "in".
func TestTemporalReachabilityMonotone(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	type times map[string]int64
	get := func(e *engine.Store, args map[string]any, field string) times {
		args["limit"] = int64(10_000)
		env, err := ops.Execute(context.Background(), storeSource{e}, "temporal_reachability", args)
		if err != nil {
			t.Fatal(err)
		}
		out := times{}
		for _, r := range env.Result["rows"].([]any) {
			row := r.(map[string]any)
			if v, ok := row[field].(int64); ok {
				out[row["uid"].(string)] = v
			}
		}
		return out
	}
	checked := 0
	for range 300 {
		_, e := build(t, oracle.RandomHistory(rng, 2+rng.IntN(10)))
		uids := []string{"a", "b", "c", "d", "e", "f"}
		src := uids[rng.IntN(len(uids))]
		if _, ok := e.Reader(bt.OpenEnd).Node(src); !ok {
			continue
		}
		ta, tb := int64(rng.IntN(80)), int64(0)
		tb = ta + 1 + int64(rng.IntN(60))
		ta2, tb2 := max(0, ta-int64(rng.IntN(30))), tb+int64(rng.IntN(30))
		for _, dir := range []string{"out", "in"} {
			field, later := "earliest_arrival", func(x, y int64) bool { return x > y }
			if dir == "in" {
				field, later = "latest_departure", func(x, y int64) bool { return x < y }
			}
			small := get(e, map[string]any{"src": src, "window": reachWin(ta, tb), "direction": dir}, field)
			large := get(e, map[string]any{"src": src, "window": reachWin(ta2, tb2), "direction": dir}, field)
			for u, x := range small {
				y, ok := large[u]
				if !ok || later(y, x) {
					t.Fatalf("%s from %s: window [%d,%d) gives %s %d, the larger [%d,%d) gives %d (present %v)", dir, src, ta, tb, u, x, ta2, tb2, y, ok)
				}
				checked++
			}
		}
		d := int64(1 + rng.IntN(10))
		small := get(e, map[string]any{"src": src, "window": reachWin(ta, tb), "delta_max_wait": d}, "earliest_arrival")
		large := get(e, map[string]any{"src": src, "window": reachWin(ta, tb2), "delta_max_wait": d}, "earliest_arrival")
		for u, x := range small {
			if y, ok := large[u]; !ok || y > x {
				t.Fatalf("Δ %d out from %s: [%d,%d) gives %s@%d, [%d,%d) gives %d (present %v)", d, src, ta, tb, u, x, ta, tb2, y, ok)
			}
		}
		// both = out ∪ in, field by field.
		args := map[string]any{"src": src, "window": reachWin(ta, tb)}
		if rng.IntN(2) == 0 {
			args["delta_max_wait"] = d
		}
		out := get(e, clone(args), "earliest_arrival")
		args["direction"] = "in"
		in := get(e, clone(args), "latest_departure")
		args["direction"] = "both"
		bothOut, bothIn := get(e, clone(args), "earliest_arrival"), get(e, clone(args), "latest_departure")
		if !reachSameTimes(out, bothOut) || !reachSameTimes(in, bothIn) {
			t.Fatalf("both from %s %v is not out ∪ in: %v %v vs %v %v", src, args, bothOut, bothIn, out, in)
		}
	}
	if checked < 100 {
		t.Fatalf("only %d monotonicity checks had content", checked)
	}
}

func reachSameTimes(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestTemporalReachabilityKernels runs each kernel without a wait cap (the
// one pass over the window and label setting) against the oracle; the
// adaptive default picks label setting on small stores, so the pass is
// only exercised here.
func TestTemporalReachabilityKernels(t *testing.T) {
	spec, _ := ops.Lookup("temporal_reachability")
	gen := argGens["temporal_reachability"]
	for _, kernel := range []string{"pass", "settle"} {
		t.Run(kernel, func(t *testing.T) {
			defer ops.SetReachKernelForTest(kernel)()
			rng := rand.New(rand.NewPCG(11, uint64(len(kernel))))
			nonEmpty := 0
			for i := range casesPerOp() {
				m, e := build(t, oracle.RandomHistory(rng, 1+rng.IntN(10)))
				args := gen(rng, newWorld(rng, m))
				delete(args, "delta_max_wait")
				if compareOne(t, i, spec, m, e, args).content {
					nonEmpty++
				}
			}
			if nonEmpty < casesPerOp()/10 {
				t.Fatalf("only %d non-empty cases", nonEmpty)
			}
		})
	}
}
