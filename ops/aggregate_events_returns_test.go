package ops_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

// TestAggregateEventsReturnsMatchesOracle: 500 random calls that always
// hold a returns aggregate equal the brute-force oracle.
func TestAggregateEventsReturnsMatchesOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 5))
	spec, _ := ops.Lookup("aggregate_events")
	answered := 0
	for i := range casesPerOp() {
		m, e := build(t, oracle.RandomHistory(rng, 2+rng.IntN(10)))
		args := aggGen(rng, newWorld(rng, m))
		ags := slices.DeleteFunc(args["aggregates"].([]any), func(a any) bool {
			return a.(map[string]any)["agg"] == "returns"
		})
		if len(ags) > 4 {
			ags = ags[:4]
		}
		args["aggregates"] = append(ags, map[string]any{"agg": "returns", "gap": []int64{0, 1, int64(rng.IntN(20)), 1 << 40}[rng.IntN(4)]})
		if o := compareOne(t, i, spec, m, e, args); o.refusal == "" && !o.schemaError {
			answered++
		}
	}
	if answered < casesPerOp()/2 {
		t.Fatalf("only %d of %d cases answered", answered, casesPerOp())
	}
}

// TestAggregateEventsReturnsMetamorphic: a gap at or over max_gap gives no
// return, a gap under it at least one; returns never rise with the gap and
// stay below count.
func TestAggregateEventsReturnsMetamorphic(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 2))
	for i := range 200 {
		_, e := build(t, oracle.RandomHistory(rng, 2+rng.IntN(10)))
		win := pickWindow(rng)
		gb := []any{}
		if rng.IntN(2) == 0 {
			gb = []any{map[string]any{"dim": "endpoint", "role": []string{"src", "dst", "either"}[rng.IntN(3)]}}
		}
		gap := int64(rng.IntN(15))
		run := func(g int64) []any {
			env, err := ops.Execute(context.Background(), storeSource{e}, "aggregate_events", map[string]any{"window": win, "group_by": gb,
				"aggregates": []any{map[string]any{"agg": "count"}, map[string]any{"agg": "max_gap"}, map[string]any{"agg": "returns", "gap": g}},
				"limit":      int64(10_000)})
			if err != nil {
				t.Fatal(err)
			}
			return env.Result["rows"].([]any)
		}
		rows, wider := run(gap), run(gap+int64(1+rng.IntN(10)))
		for j, r := range rows {
			r := r.(map[string]any)
			n, w := r["returns"].(int64), wider[j].(map[string]any)["returns"].(int64)
			if w > n || n > max(0, r["count"].(int64)-1) {
				t.Fatalf("case %d: returns %d, with a wider gap %d, count %v", i, n, w, r["count"])
			}
			if mg, ok := r["max_gap"].(int64); ok && (mg > gap) != (n > 0) {
				t.Fatalf("case %d: max_gap %d, gap %d, returns %d", i, mg, gap, n)
			}
		}
	}
}

// "Which student most often wrote again after more than a week without
// writing, and how many students did so at all?" on CollegeMsg, checked
// against a brute force over the file.
func TestAggregateEventsReturnsCollegeMsg(t *testing.T) {
	raw := readSNAP(t, "CollegeMsg.txt.gz", false)
	e := snapStore(t, "collegemsg")
	const week = int64(7 * 86_400_000_000)
	times := map[string][]int64{}
	for _, ev := range raw {
		times[ev.src] = append(times[ev.src], ev.t)
	}
	returns := map[string]int64{}
	returned := int64(0)
	for src, ts := range times {
		slices.Sort(ts)
		for i := 1; i < len(ts); i++ {
			if ts[i]-ts[i-1] > week {
				returns[src]++
			}
		}
		if returns[src] > 0 {
			returned++
		}
	}
	best, bestN := "", int64(-1)
	for src, n := range returns {
		if n > bestN || n == bestN && src < best {
			best, bestN = src, n
		}
	}
	r := snapCall(t, e, map[string]any{"window": wholeWindow, "group_by": []any{map[string]any{"dim": "endpoint", "role": "src"}},
		"aggregates": []any{map[string]any{"agg": "returns", "gap": week}},
		"having":     []any{map[string]any{"col": "returns", "cmp": "ge", "value": int64(1)}},
		"order_by":   []any{map[string]any{"col": "returns", "dir": "desc"}}, "top": int64(1)})
	top := r["rows"].([]any)[0].(map[string]any)
	t.Logf("most often back after a week's silence: %v (%v times) of %v senders; brute force %s (%d)",
		top["src"], top["returns"], r["groups_total"], best, bestN)
	if top["src"] != best || top["returns"] != bestN {
		t.Fatalf("got %v, brute force %s with %d", top, best, bestN)
	}
	n := snapCall(t, e, map[string]any{"window": wholeWindow, "group_by": []any{map[string]any{"dim": "endpoint", "role": "src"}},
		"aggregates": []any{map[string]any{"agg": "returns", "gap": week}},
		"having":     []any{map[string]any{"col": "returns", "cmp": "ge", "value": int64(1)}}})
	t.Logf("%v senders came back after a week's silence at least once; brute force %d", n["rows_total"], returned)
	if n["rows_total"] != returned {
		t.Fatalf("%v senders returned, brute force %d", n["rows_total"], returned)
	}
}
