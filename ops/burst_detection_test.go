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

func init() {
	argGens["burst_detection"] = func(rng *rand.Rand, w *world) map[string]any {
		target := map[string]any{"kind": "edge_event_rate"}
		if rng.IntN(3) == 0 {
			target["kind"] = "node_activity"
			if rng.IntN(15) > 0 {
				target["uid"] = pickUID(rng, w)
			}
		}
		if rng.IntN(4) == 0 {
			target["rel_type"] = w.Rels[rng.IntN(len(w.Rels))]
		}
		methods := []string{"zscore", "ratio", "kleinberg"}
		method := methods[rng.IntN(3)]
		params := map[string]any{}
		if rng.IntN(4) > 0 {
			params["w"] = int64(2 + rng.IntN(6))
		}
		if rng.IntN(2) == 0 {
			params["min_history"] = int64(1 + rng.IntN(3))
		}
		if rng.IntN(2) == 0 {
			params["min_excess"] = []any{int64(0), 0.5, int64(1), int64(2)}[rng.IntN(4)]
		}
		if rng.IntN(2) == 0 {
			params["z"] = []any{0.5, int64(1), 1.5, int64(2), 3.0}[rng.IntN(5)]
		}
		if rng.IntN(2) == 0 {
			params["r"] = []any{int64(1), 1.5, int64(2), 3.0}[rng.IntN(4)]
		}
		if rng.IntN(2) == 0 {
			params["s"] = []any{1.5, int64(2), int64(3)}[rng.IntN(3)]
		}
		if rng.IntN(2) == 0 {
			params["gamma"] = []any{int64(0), 0.5, int64(1), int64(2)}[rng.IntN(4)]
		}
		ta := int64(rng.IntN(60))
		width := int64(5 + rng.IntN(100))
		stride := int64(1 + rng.IntN(10))
		if method == "kleinberg" && rng.IntN(3) > 0 {
			stride = max(stride, (width+13)/14) // mostly small series: the oracle enumerates every state sequence
		}
		args := map[string]any{"target": target, "window": map[string]any{"t_a": ta, "t_b": ta + width}, "stride": stride, "method": method, "params": params}
		if rng.IntN(30) == 0 {
			args["window"] = map[string]any{"t_a": int64(0), "t_b": int64(5000)}
			args["stride"] = int64(2)
		}
		if rng.IntN(3) == 0 {
			args["limit"] = int64(1 + rng.IntN(3))
		}
		return withAsOf(rng, w, args)
	}
}

// burstCountsHistory ingests counts[i] (< 10) events at times 10*i + j.
func burstCountsHistory(counts []int, rel string) []oracle.Batch {
	return burstCountsEvery(counts, rel, 10)
}

// burstCountsEvery ingests counts[i] (< every) events at times every*i + j.
func burstCountsEvery(counts []int, rel string, every int) []oracle.Batch {
	var evs []bt.Event
	for i, n := range counts {
		for j := range n {
			evs = append(evs, bt.Event{Src: "p", Dst: "q", RelType: rel, VtS: bt.Time(every*i + j)})
		}
	}
	return []oracle.Batch{{TT: 1, Ops: []bt.Op{bt.Ingest(evs, "Node")}}}
}

func TestBurstDetectionVectors(t *testing.T) {
	// Reference Appendix A.3: counts [2,2,2,2,9,2,0,0], stride 10, w 3.
	// The reference flags bucket 4 with zscore score 1e9 (flat history
	// [2,2,2]); here the flat history gives score null and the flag comes
	// from the excess 7 >= min_excess 1. ratio: same as the reference.
	m, e := build(t, burstCountsHistory([]int{2, 2, 2, 2, 9, 2, 0, 0}, "MSG"))
	win := map[string]any{"t_a": int64(0), "t_b": int64(80)}
	tgt := map[string]any{"kind": "edge_event_rate"}
	for _, tc := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"A.3 zscore", map[string]any{"target": tgt, "window": win, "stride": int64(10), "params": map[string]any{"w": int64(3)}},
			`{"cursor":null,"n_buckets":8,"rows":[{"score":null,"t_a":40,"t_b":50,"value":9.0}],"rows_total":1,"truncated":false}`},
		{"A.3 ratio", map[string]any{"target": tgt, "window": win, "stride": int64(10), "method": "ratio", "params": map[string]any{"w": int64(3)}},
			`{"cursor":null,"n_buckets":8,"rows":[{"score":4.5,"t_a":40,"t_b":50,"value":9.0}],"rows_total":1,"truncated":false}`},
		// Kleinberg: N = 19 over 80 µs, lambda0 = 2.375 per bucket; bucket 4
		// saves 9 ln 2 - 2.375 = 3.8633 > ln 8 = 2.079 in the burst state.
		{"A.3 kleinberg", map[string]any{"target": tgt, "window": win, "stride": int64(10), "method": "kleinberg"},
			`{"cursor":null,"n_buckets":8,"rows":[{"score":3.863324625,"t_a":40,"t_b":50,"value":9.0}],"rows_total":1,"truncated":false}`},
		// Higher gamma makes the burst too expensive to enter: 3.863 < 2 ln 8.
		{"kleinberg gamma 2", map[string]any{"target": tgt, "window": win, "stride": int64(10), "method": "kleinberg", "params": map[string]any{"gamma": int64(2)}},
			`{"cursor":null,"n_buckets":8,"rows":[],"rows_total":0,"truncated":false}`},
		// min_history 5 (w 5): bucket 4 has only 4 buckets of history.
		{"min_history", map[string]any{"target": tgt, "window": win, "stride": int64(10), "params": map[string]any{"w": int64(5), "min_history": int64(5)}},
			`{"cursor":null,"n_buckets":8,"rows":[],"rows_total":0,"truncated":false}`},
		// min_excess 8: 9 - 2 = 7 is not enough.
		{"min_excess", map[string]any{"target": tgt, "window": win, "stride": int64(10), "params": map[string]any{"w": int64(3), "min_excess": int64(8)}},
			`{"cursor":null,"n_buckets":8,"rows":[],"rows_total":0,"truncated":false}`},
	} {
		t.Run(tc.name, func(t *testing.T) { gmtsExpect(t, m, e, "burst_detection", tc.args, tc.want) })
	}

	// std > 0: history [1,2,1] mean 4/3, std 0.471; x = 5 -> z 7.778.
	m2, e2 := build(t, burstCountsHistory([]int{1, 2, 1, 5, 1}, "MSG"))
	gmtsExpect(t, m2, e2, "burst_detection", map[string]any{"target": tgt, "window": map[string]any{"t_a": int64(0), "t_b": int64(50)}, "stride": int64(10), "params": map[string]any{"w": int64(3)}},
		`{"cursor":null,"n_buckets":5,"rows":[{"score":7.778174593,"t_a":30,"t_b":40,"value":5.0}],"rows_total":1,"truncated":false}`)
	// A drop is no burst: [5,5,6,0] flags nothing (the reference's two-sided
	// z-score flagged bucket 3).
	m3, e3 := build(t, burstCountsHistory([]int{5, 5, 6, 0}, "MSG"))
	gmtsExpect(t, m3, e3, "burst_detection", map[string]any{"target": tgt, "window": map[string]any{"t_a": int64(0), "t_b": int64(40)}, "stride": int64(10), "params": map[string]any{"w": int64(3), "z": 0.5}},
		`{"cursor":null,"n_buckets":4,"rows":[],"rows_total":0,"truncated":false}`)
	// The reference flagged bucket 1 of [1,4,...] against a one-bucket
	// history with score 1e9; min_history 3 waits for three buckets.
	m4, e4 := build(t, burstCountsHistory([]int{1, 4, 1, 1, 1}, "MSG"))
	gmtsExpect(t, m4, e4, "burst_detection", map[string]any{"target": tgt, "window": map[string]any{"t_a": int64(0), "t_b": int64(50)}, "stride": int64(10)},
		`{"cursor":null,"n_buckets":5,"rows":[],"rows_total":0,"truncated":false}`)
	// Kleinberg keeps a sustained burst as one run: [1,1,1,6,6,6,1,1,1,1].
	m5, e5 := build(t, burstCountsHistory([]int{1, 1, 1, 6, 6, 6, 1, 1, 1, 1}, "MSG"))
	env, err := ops.Execute(context.Background(), storeSource{e5}, "burst_detection", map[string]any{"target": tgt, "window": map[string]any{"t_a": int64(0), "t_b": int64(100)}, "stride": int64(10), "method": "kleinberg"})
	if err != nil {
		t.Fatal(err)
	}
	var starts []int64
	for _, r := range env.Result["rows"].([]any) {
		starts = append(starts, r.(map[string]any)["t_a"].(int64))
	}
	if len(starts) != 3 || starts[0] != 30 || starts[2] != 50 {
		t.Fatalf("kleinberg sustained burst: flagged %v, want 30 40 50", starts)
	}
	_ = m5
}

func TestBurstDetectionErrors(t *testing.T) {
	_, e := build(t, burstCountsHistory([]int{1, 2}, "MSG"))
	ctx := context.Background()
	win := map[string]any{"t_a": int64(0), "t_b": int64(80)}
	for _, tc := range []struct {
		name string
		args map[string]any
		code string
	}{
		{"node_activity without uid", map[string]any{"target": map[string]any{"kind": "node_activity"}, "window": win, "stride": int64(10)}, ops.EInvalidArg},
		{"unknown uid", map[string]any{"target": map[string]any{"kind": "node_activity", "uid": "zz"}, "window": win, "stride": int64(10)}, ops.ENotFound},
		{"too many buckets", map[string]any{"target": map[string]any{"kind": "edge_event_rate"}, "window": map[string]any{"t_a": int64(0), "t_b": int64(4001)}, "stride": int64(2)}, ops.ELimit},
		{"min_history > w", map[string]any{"target": map[string]any{"kind": "edge_event_rate"}, "window": win, "stride": int64(10), "params": map[string]any{"w": int64(3), "min_history": int64(4)}}, ops.EInvalidArg},
		{"w out of range", map[string]any{"target": map[string]any{"kind": "edge_event_rate"}, "window": win, "stride": int64(10), "params": map[string]any{"w": int64(1)}}, ops.ESchema},
		{"unknown param", map[string]any{"target": map[string]any{"kind": "edge_event_rate"}, "window": win, "stride": int64(10), "params": map[string]any{"k": int64(1)}}, ops.ESchema},
		{"bad method", map[string]any{"target": map[string]any{"kind": "edge_event_rate"}, "window": win, "stride": int64(10), "method": "mad"}, ops.ESchema},
	} {
		_, err := ops.Execute(ctx, storeSource{e}, "burst_detection", tc.args)
		if gmtsCode(err) != tc.code {
			t.Errorf("%s: got %v, want %s", tc.name, err, tc.code)
		}
	}
}

// Metamorphic: scaling every count by 3 leaves the z-score flags and scores
// unchanged (with min_excess 0, which is not scale-free).
func TestBurstDetectionMetamorphic(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	ctx := context.Background()
	for i := range 30 {
		counts := make([]int, 12)
		for j := range counts {
			counts[j] = 1 + rng.IntN(6)
		}
		scaled := make([]int, len(counts))
		for j := range counts {
			scaled[j] = 3 * counts[j]
		}
		args := map[string]any{"target": map[string]any{"kind": "edge_event_rate"}, "window": map[string]any{"t_a": int64(0), "t_b": int64(1200)}, "stride": int64(100),
			"method": "zscore", "params": map[string]any{"w": int64(4), "z": 1.0, "min_excess": int64(0)}}
		get := func(c []int) string {
			_, e := build(t, burstCountsEvery(c, "MSG", 100))
			env, err := ops.Execute(ctx, storeSource{e}, "burst_detection", args)
			if err != nil {
				t.Fatal(err)
			}
			var ts []any
			for _, r := range env.Result["rows"].([]any) {
				ts = append(ts, r.(map[string]any)["t_a"], r.(map[string]any)["score"])
			}
			b, _ := canon.Marshal(ts)
			return string(b)
		}
		if a, b := get(counts), get(scaled); a != b {
			t.Fatalf("case %d: zscore flags change when counts are scaled by 3:\n %s\n %s", i, a, b)
		}
	}
}
