package ops_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

var gmtsMetrics = []string{"node_count", "edge_event_count", "active_edge_count", "mean_out_degree", "new_node_rate", "reciprocity"}

func init() {
	argGens["graph_metric_timeseries"] = func(rng *rand.Rand, w *world) map[string]any {
		args := map[string]any{
			"metric": gmtsMetrics[rng.IntN(len(gmtsMetrics))],
			"window": pickWindow(rng),
			"stride": int64(1 + rng.IntN(20)),
		}
		switch rng.IntN(25) {
		case 0: // buckets over the memory budget: E_LIMIT
			args["window"] = map[string]any{"t_a": int64(0), "t_b": int64(1<<40 + rng.IntN(1<<30))}
			args["stride"] = int64(1 + rng.IntN(1000))
		case 2: // inverted window: E_INVALID_ARG
			args["window"] = map[string]any{"t_a": int64(50), "t_b": int64(50)}
		case 3, 4: // a cyclic series (the random times all lie in one hour
			// of 1970-01-01; TestGraphMetricCycleOracle spreads them); with a
			// point-in-time metric, E_INVALID_ARG
			delete(args, "stride")
			args["cycle"] = map[string]any{"unit": gmtsCycleUnits[rng.IntN(4)], "utc_offset_minutes": int64(rng.IntN(2881) - 1440)}
		}
		if rng.IntN(3) == 0 {
			args["limit"] = int64(1 + rng.IntN(5))
		}
		return withAsOf(rng, w, args)
	}
}

// gmtsAppendixHistory is the six-batch store of the reference's Appendix
// A.1, written with tts 1..6. Differences from the reference: the ingested
// MSG events get store-assigned discriminators ("#6.0", ...), so their eids
// and vids differ; times, intervals and counts are the same.
func gmtsAppendixHistory() []oracle.Batch {
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

// gmtsExpect runs a call on the engine and on the oracle and requires both
// payloads to equal want (canonical JSON).
func gmtsExpect(t *testing.T, m *bt.MemStore, e *engine.Store, op string, args map[string]any, want string) {
	t.Helper()
	env, err := ops.Execute(context.Background(), storeSource{e}, op, args)
	if err != nil {
		t.Fatalf("%s(%v): %v", op, args, err)
	}
	got, _ := canon.Marshal(env.Result)
	if string(got) != want {
		t.Errorf("%s(%v):\n got  %s\n want %s", op, args, got, want)
	}
	_, prepared, _ := ops.Prepare(op, args)
	prepared["as_of_tt"] = min(prepared["as_of_tt"].(int64), m.LastTT)
	o, err := oracle.Call(m, op, prepared)
	if err != nil {
		t.Fatalf("oracle %s: %v", op, err)
	}
	rows, _ := o["rows"].([]any)
	o["rows_total"], o["cursor"], o["truncated"] = int64(len(rows)), nil, false
	r, _ := canon.RoundFloats(o)
	ob, _ := canon.Marshal(r)
	if string(ob) != want {
		t.Errorf("oracle %s(%v):\n got  %s\n want %s", op, args, ob, want)
	}
}

func gmtsCode(err error) string {
	var oe *ops.Error
	if errors.As(err, &oe) {
		return oe.Code
	}
	return ""
}

func TestGraphMetricTimeseriesAppendix(t *testing.T) {
	m, e := build(t, gmtsAppendixHistory())
	win := func(a, b int64) map[string]any { return map[string]any{"t_a": a, "t_b": b} }
	for _, tc := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"A.2 item 11: mean_out_degree", map[string]any{"metric": "mean_out_degree", "window": win(0, 100), "stride": int64(25)},
			`{"cursor":null,"n_buckets":4,"rows":[{"t_a":0,"t_b":25,"value":0.0},{"t_a":25,"t_b":50,"value":0.333333333},{"t_a":50,"t_b":75,"value":0.333333333},{"t_a":75,"t_b":100,"value":0.333333333}],"rows_total":4,"truncated":false}`},
		// A.2 item 12: the same values as the reference, but for a different
		// reason in the second bucket: the reference counted the KNOWS
		// fragment [60,80) as an event a->b (P = {(a,b)}, 0.0); here it
		// continues [40,60) and is no event, so P is empty (0.0).
		{"A.2 item 12: reciprocity", map[string]any{"metric": "reciprocity", "window": win(0, 100), "stride": int64(50)},
			`{"cursor":null,"n_buckets":2,"rows":[{"t_a":0,"t_b":50,"value":0.666666667},{"t_a":50,"t_b":100,"value":0.0}],"rows_total":2,"truncated":false}`},
		// The carved KNOWS edge is one occurrence at 10 (the reference
		// counted three "events": 10, 40, 60 -> 5 and 1).
		{"edge_event_count counts occurrences", map[string]any{"metric": "edge_event_count", "window": win(0, 100), "stride": int64(50)},
			`{"cursor":null,"n_buckets":2,"rows":[{"t_a":0,"t_b":50,"value":4},{"t_a":50,"t_b":100,"value":0}],"rows_total":2,"truncated":false}`},
		{"node_count", map[string]any{"metric": "node_count", "window": win(0, 30), "stride": int64(10)},
			`{"cursor":null,"n_buckets":3,"rows":[{"t_a":0,"t_b":10,"value":2},{"t_a":10,"t_b":20,"value":2},{"t_a":20,"t_b":30,"value":3}],"rows_total":3,"truncated":false}`},
		{"active_edge_count, short last bucket (KNOWS and MSG [35,36) at 35)", map[string]any{"metric": "active_edge_count", "window": win(5, 95), "stride": int64(30)},
			`{"cursor":null,"n_buckets":3,"rows":[{"t_a":5,"t_b":35,"value":0},{"t_a":35,"t_b":65,"value":2},{"t_a":65,"t_b":95,"value":1}],"rows_total":3,"truncated":false}`},
		{"active_edge_count at 20 sees the MSG event", map[string]any{"metric": "active_edge_count", "window": win(20, 21), "stride": int64(1)},
			`{"cursor":null,"n_buckets":1,"rows":[{"t_a":20,"t_b":21,"value":2}],"rows_total":1,"truncated":false}`},
		{"new_node_rate", map[string]any{"metric": "new_node_rate", "window": win(0, 40), "stride": int64(20)},
			`{"cursor":null,"n_buckets":2,"rows":[{"t_a":0,"t_b":20,"value":2},{"t_a":20,"t_b":40,"value":1}],"rows_total":2,"truncated":false}`},
		{"as of tt 3: the edge is one version [10,100), c unknown", map[string]any{"metric": "active_edge_count", "window": win(0, 100), "stride": int64(50), "as_of_tt": int64(3)},
			`{"cursor":null,"n_buckets":2,"rows":[{"t_a":0,"t_b":50,"value":0},{"t_a":50,"t_b":100,"value":1}],"rows_total":2,"truncated":false}`},
	} {
		t.Run(tc.name, func(t *testing.T) { gmtsExpect(t, m, e, "graph_metric_timeseries", tc.args, tc.want) })
	}
}

func TestGraphMetricTimeseriesErrors(t *testing.T) {
	_, e := build(t, gmtsAppendixHistory())
	ctx := context.Background()
	// The buckets are bounded by the memory budget at 203 bytes each: under
	// 100 KiB, 504 buckets fit, so 2,500 are refused naming stride 20
	// (500 buckets), which runs.
	series := func(stride int64, budget int64) error {
		_, err := ops.ExecuteWith(ctx, storeSource{e}, "graph_metric_timeseries", map[string]any{
			"metric": "node_count", "window": map[string]any{"t_a": int64(0), "t_b": int64(10_000)}, "stride": stride}, ops.ExecOptions{MemBudget: budget})
		return err
	}
	var oe *ops.Error
	if err := series(4, 100<<10); !errors.As(err, &oe) || oe.Code != ops.ELimit || oe.Details["min_stride"] != int64(20) || oe.Details["path"] != "/stride" {
		t.Fatalf("2500 buckets under 100 KiB: got %v (%v)", err, oe)
	}
	if err := series(20, 100<<10); err != nil {
		t.Fatalf("500 buckets under 100 KiB: %v", err)
	}
	// Under the default budget 10,000 buckets run (the old cap was 2,000);
	// 2^40 do not.
	if err := series(1, 0); err != nil {
		t.Fatalf("10,000 buckets: %v", err)
	}
	_, err := ops.Execute(ctx, storeSource{e}, "graph_metric_timeseries", map[string]any{
		"metric": "edge_event_count", "window": map[string]any{"t_a": int64(0), "t_b": int64(1 << 40)}, "stride": int64(1)})
	if !errors.As(err, &oe) || oe.Code != ops.ELimit {
		t.Fatalf("2^40 buckets: got %v", err)
	}
	for _, tc := range []struct {
		args map[string]any
		code string
	}{
		{map[string]any{"metric": "nope", "window": map[string]any{"t_a": int64(0), "t_b": int64(10)}, "stride": int64(5)}, ops.ESchema},
		{map[string]any{"metric": "node_count", "window": map[string]any{"t_a": int64(0), "t_b": int64(10)}, "stride": int64(0)}, ops.ESchema},
		{map[string]any{"metric": "node_count", "window": map[string]any{"t_a": int64(10), "t_b": int64(10)}, "stride": int64(5)}, ops.EInvalidArg},
	} {
		_, err := ops.Execute(ctx, storeSource{e}, "graph_metric_timeseries", tc.args)
		if gmtsCode(err) != tc.code {
			t.Errorf("%v: got %v, want %s", tc.args, err, tc.code)
		}
	}
}

// Metamorphic: summing edge_event_count buckets equals one bucket over the
// whole window; carving (correcting part of) an interval edge changes no
// event count; mean_out_degree = active_edge_count / node_count.
func TestGraphMetricTimeseriesMetamorphic(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	ctx := context.Background()
	call := func(e *engine.Store, args map[string]any) []any {
		env, err := ops.Execute(ctx, storeSource{e}, "graph_metric_timeseries", args)
		if err != nil {
			t.Fatal(err)
		}
		return env.Result["rows"].([]any)
	}
	for i := range 60 {
		hist := oracle.RandomHistory(rng, 2+rng.IntN(10))
		_, e := build(t, hist)
		ta := int64(rng.IntN(60))
		win := map[string]any{"t_a": ta, "t_b": ta + 1 + int64(rng.IntN(100))}
		stride := int64(1 + rng.IntN(15))
		var sum int64
		for _, r := range call(e, map[string]any{"metric": "edge_event_count", "window": win, "stride": stride, "limit": int64(10_000)}) {
			sum += r.(map[string]any)["value"].(int64)
		}
		whole := call(e, map[string]any{"metric": "edge_event_count", "window": win, "stride": int64(1000)})[0].(map[string]any)["value"].(int64)
		if sum != whole {
			t.Fatalf("case %d: bucket sum %d != whole-window count %d", i, sum, whole)
		}
		args := func(metric string) map[string]any {
			return map[string]any{"metric": metric, "window": win, "stride": stride, "limit": int64(10_000)}
		}
		deg, act, nod := call(e, args("mean_out_degree")), call(e, args("active_edge_count")), call(e, args("node_count"))
		for j := range deg {
			a, n := act[j].(map[string]any)["value"].(int64), nod[j].(map[string]any)["value"].(int64)
			want := 0.0
			if n > 0 {
				want = canon.Round9(float64(a) / float64(n))
			}
			if got := deg[j].(map[string]any)["value"].(float64); got != want {
				t.Fatalf("case %d bucket %d: mean_out_degree %v, want %d/%d", i, j, got, a, n)
			}
		}
	}
	// Carving: correct the middle of a long interval edge; event counts and
	// reciprocity stay, active_edge_count stays.
	k := bt.EdgeKey{Src: "x", Dst: "y", RelType: "R"}
	base := []oracle.Batch{
		{TT: 10, Ops: []bt.Op{bt.AssertEdge(k, `{"w":1}`, bt.Interval{Start: 5, End: 90})}},
		{TT: 20, Ops: []bt.Op{bt.AssertEdge(bt.EdgeKey{Src: "y", Dst: "x", RelType: "R"}, "", bt.Interval{Start: 7, End: 8})}},
	}
	carved := append(append([]oracle.Batch(nil), base...), oracle.Batch{TT: 30, Ops: []bt.Op{bt.Correct(bt.EdgeRef(k), `{"w":2}`, bt.Interval{Start: 30, End: 50})}})
	_, e1 := build(t, base)
	_, e2 := build(t, carved)
	for _, metric := range []string{"edge_event_count", "reciprocity", "active_edge_count"} {
		a := map[string]any{"metric": metric, "window": map[string]any{"t_a": int64(0), "t_b": int64(100)}, "stride": int64(10)}
		g1, _ := canon.Marshal(call(e1, a))
		g2, _ := canon.Marshal(call(e2, a))
		if string(g1) != string(g2) {
			t.Errorf("%s changed by carving:\n before %s\n after  %s", metric, g1, g2)
		}
	}
}
