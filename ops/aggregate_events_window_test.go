package ops_test

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

// windowDistinctAgg is a random max_distinct_in_window aggregate; spans
// are small (against random stores' times), one or whole-window wide.
func windowDistinctAgg(rng *rand.Rand) map[string]any {
	return map[string]any{"agg": "max_distinct_in_window", "of": []string{"src", "dst", "node", "pair"}[rng.IntN(4)],
		"span": []int64{1, 2, int64(1 + rng.IntN(30)), 1 << 40}[rng.IntN(4)]}
}

// TestAggregateEventsWindowDistinctMatchesOracle: 500 random calls that
// always hold a max_distinct_in_window aggregate (with the generator's
// dimensions, filters, having/order_by/top, ties, corrections and
// retracts) equal the brute-force oracle, which tries every window.
func TestAggregateEventsWindowDistinctMatchesOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 3))
	spec, _ := ops.Lookup("aggregate_events")
	answered, narrower := 0, 0
	for i := range casesPerOp() {
		m, e := build(t, oracle.RandomHistory(rng, 2+rng.IntN(10)))
		w := newWorld(rng, m)
		args := aggGen(rng, w)
		ags := slices.DeleteFunc(args["aggregates"].([]any), func(a any) bool {
			return a.(map[string]any)["agg"] == "max_distinct_in_window"
		})
		wd := windowDistinctAgg(rng)
		args["aggregates"] = append(ags, wd, map[string]any{"agg": "count_distinct", "of": wd["of"]})
		if len(args["aggregates"].([]any)) > 6 {
			args["aggregates"] = args["aggregates"].([]any)[len(args["aggregates"].([]any))-6:]
		}
		if o := compareOne(t, i, spec, m, e, args); o.refusal != "" || o.schemaError {
			continue
		}
		answered++
		// count the cases where the window bound something: a group whose
		// windowed count is below its count_distinct
		args["limit"] = int64(10_000)
		env, err := ops.Execute(context.Background(), storeSource{e}, "aggregate_events", args)
		if err != nil {
			t.Fatal(err)
		}
		of := wd["of"].(string)
		for _, r := range env.Result["rows"].([]any) {
			r := r.(map[string]any)
			if r["max_distinct_"+of+"_in_window"].(int64) < r["distinct_"+of].(int64) {
				narrower++
				break
			}
		}
	}
	t.Logf("%d answered, %d with a window narrower than the group", answered, narrower)
	if answered < casesPerOp()/2 || narrower < casesPerOp()/20 {
		t.Fatalf("too few informative cases: %d answered, %d narrower", answered, narrower)
	}
}

// TestAggregateEventsWindowDistinctMetamorphic: a span covering the window
// equals count_distinct; widening the span never lowers the result; a
// window never holds more distinct values than events (two per event for
// node).
func TestAggregateEventsWindowDistinctMetamorphic(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 9))
	call := func(e *engine.Store, args map[string]any) []any {
		args["limit"] = int64(10_000)
		env, err := ops.Execute(context.Background(), storeSource{e}, "aggregate_events", args)
		if err != nil {
			t.Fatal(err)
		}
		return env.Result["rows"].([]any)
	}
	for i := range 200 {
		_, e := build(t, oracle.RandomHistory(rng, 2+rng.IntN(10)))
		win := pickWindow(rng)
		width := win["t_b"].(int64) - win["t_a"].(int64)
		of := []string{"src", "dst", "node", "pair"}[rng.IntN(4)]
		gb := []any{}
		if rng.IntN(2) == 0 {
			gb = []any{map[string]any{"dim": "endpoint", "role": []string{"src", "dst", "either"}[rng.IntN(3)]}}
		}
		span := int64(1 + rng.IntN(20))
		wd := func(s int64) map[string]any {
			return map[string]any{"agg": "max_distinct_in_window", "of": of, "span": s}
		}
		rows := call(e, map[string]any{"window": win, "group_by": gb, "aggregates": []any{
			map[string]any{"agg": "count_distinct", "of": of}, map[string]any{"agg": "max_in_window", "span": span}, wd(width)}})
		narrow := call(e, map[string]any{"window": win, "group_by": gb, "aggregates": []any{wd(span)}})
		wide := call(e, map[string]any{"window": win, "group_by": gb, "aggregates": []any{wd(span + int64(rng.IntN(20)))}})
		col := "max_distinct_" + of + "_in_window"
		for j, r := range rows {
			r := r.(map[string]any)
			if r[col] != r["distinct_"+of] {
				t.Fatalf("case %d: span %d covering the window: %v, count_distinct %v", i, width, r[col], r["distinct_"+of])
			}
			n, w := narrow[j].(map[string]any)[col].(int64), wide[j].(map[string]any)[col].(int64)
			if n > w || n > r[col].(int64) {
				t.Fatalf("case %d: span %d gives %d, wider %d, whole window %v", i, span, n, w, r[col])
			}
			per := int64(1)
			if of == "node" {
				per = 2
			}
			if n > per*r["max_in_window"].(int64) {
				t.Fatalf("case %d: %d distinct in a window of at most %v events", i, n, r["max_in_window"])
			}
		}
	}
}

// "What is the most distinct people one student wrote to within any hour,
// and who?" on CollegeMsg, checked against a brute force over the file.
func TestAggregateEventsWindowDistinctCollegeMsg(t *testing.T) {
	raw := readSNAP(t, "CollegeMsg.txt.gz", false)
	e := snapStore(t, "collegemsg")
	const hour = int64(3_600_000_000)
	bySrc := map[string][]snapEvent{}
	for _, ev := range raw {
		bySrc[ev.src] = append(bySrc[ev.src], ev)
	}
	// brute force: for every message, the distinct recipients its sender
	// wrote to in the hour starting at it
	best := map[string]int64{}
	for src, evs := range bySrc {
		slices.SortFunc(evs, func(a, b snapEvent) int { return cmp.Compare(a.t, b.t) })
		for i, a := range evs {
			set := map[string]bool{}
			for _, b := range evs[i:] {
				if b.t >= a.t+hour {
					break
				}
				if b.t >= a.t {
					set[b.dst] = true
				}
			}
			best[src] = max(best[src], int64(len(set)))
		}
	}
	var top []string
	topN := int64(-1)
	for src, n := range best {
		if n > topN {
			top, topN = []string{src}, n
		} else if n == topN {
			top = append(top, src)
		}
	}
	slices.Sort(top)
	r := snapCall(t, e, map[string]any{"window": wholeWindow, "group_by": []any{map[string]any{"dim": "endpoint", "role": "src"}},
		"aggregates": []any{map[string]any{"agg": "max_distinct_in_window", "of": "dst", "span": hour}},
		"order_by":   []any{map[string]any{"col": "max_distinct_dst_in_window", "dir": "desc"}}, "top": int64(3)})
	rows := r["rows"].([]any)
	first := rows[0].(map[string]any)
	t.Logf("most distinct recipients within an hour: %v by %v (brute force %d by %v)", first["max_distinct_dst_in_window"], first["src"], topN, top)
	if first["max_distinct_dst_in_window"] != topN || first["src"] != top[0] || r["groups_total"] != int64(len(bySrc)) {
		t.Fatalf("got %v of %v groups, brute force %d by %v of %d senders", rows, r["groups_total"], topN, top, len(bySrc))
	}
	for _, x := range rows {
		x := x.(map[string]any)
		if x["max_distinct_dst_in_window"] != best[x["src"].(string)] {
			t.Fatalf("%v: brute force %d", x, best[x["src"].(string)])
		}
	}
}
