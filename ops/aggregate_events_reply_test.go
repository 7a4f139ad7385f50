package ops_test

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

var replyStats = []string{"count", "min", "median", "mean", "max"}

// TestAggregateEventsReplyDelayMatchesOracle: 500 random calls that always
// hold a reply_delay aggregate (half of them grouped by directed pair)
// equal the brute-force oracle, which looks through the whole population
// for each event's reply.
func TestAggregateEventsReplyDelayMatchesOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 7))
	spec, _ := ops.Lookup("aggregate_events")
	answered, replied := 0, 0
	for i := range casesPerOp() {
		m, e := build(t, oracle.RandomHistory(rng, 2+rng.IntN(10)))
		w := newWorld(rng, m)
		args := aggGen(rng, w)
		ags := slices.DeleteFunc(args["aggregates"].([]any), func(a any) bool {
			return a.(map[string]any)["agg"] == "reply_delay"
		})
		if len(ags) > 3 {
			ags = ags[:3]
		}
		for _, k := range rng.Perm(len(replyStats))[:1+rng.IntN(3)] {
			ags = append(ags, map[string]any{"agg": "reply_delay", "stat": replyStats[k]})
		}
		args["aggregates"] = ags
		if rng.IntN(2) == 0 {
			args["group_by"] = []any{map[string]any{"dim": "pair"}}
		}
		if rng.IntN(2) == 0 {
			args["window"] = map[string]any{"t_a": int64(0), "t_b": int64(200)} // the whole random history
		}
		if o := compareOne(t, i, spec, m, e, args); o.refusal != "" || o.schemaError {
			continue
		}
		answered++
		args["limit"] = int64(10_000)
		env, err := ops.Execute(context.Background(), storeSource{e}, "aggregate_events", args)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range env.Result["rows"].([]any) {
			if n, ok := r.(map[string]any)["replied"].(int64); ok && n > 0 {
				replied++
				break
			}
		}
	}
	t.Logf("%d answered, %d with a replied event", answered, replied)
	if answered < casesPerOp()/2 || replied < casesPerOp()/25 {
		t.Fatalf("too few informative cases: %d answered, %d with replies", answered, replied)
	}
}

// TestAggregateEventsReplyDelayMetamorphic: replied counts of the directed
// pairs add up to the global one; replied never exceeds count; min <=
// median <= max and min <= mean <= max.
func TestAggregateEventsReplyDelayMetamorphic(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 1))
	var ags []any
	for _, s := range replyStats {
		ags = append(ags, map[string]any{"agg": "reply_delay", "stat": s})
	}
	ags = append(ags, map[string]any{"agg": "count"})
	for i := range 200 {
		_, e := build(t, oracle.RandomHistory(rng, 2+rng.IntN(10)))
		win := pickWindow(rng)
		run := func(gb []any) []any {
			env, err := ops.Execute(context.Background(), storeSource{e}, "aggregate_events",
				map[string]any{"window": win, "group_by": gb, "aggregates": ags, "limit": int64(10_000)})
			if err != nil {
				t.Fatal(err)
			}
			return env.Result["rows"].([]any)
		}
		global := run([]any{})[0].(map[string]any)["replied"].(int64)
		sum := int64(0)
		for _, r := range run([]any{map[string]any{"dim": "pair"}}) {
			r := r.(map[string]any)
			n := r["replied"].(int64)
			sum += n
			if n > r["count"].(int64) {
				t.Fatalf("case %d: replied %d > count in %v", i, n, r)
			}
			if n == 0 {
				continue
			}
			lo, hi := r["min_reply_delay"].(int64), r["max_reply_delay"].(int64)
			med, mean := r["median_reply_delay"].(int64), r["mean_reply_delay"].(float64)
			if med < lo || med > hi || mean < float64(lo) || mean > float64(hi) {
				t.Fatalf("case %d: stats out of order in %v", i, r)
			}
		}
		if sum != global {
			t.Fatalf("case %d: pairs' replied add to %d, global %d", i, sum, global)
		}
	}
}

// "Over all messages that got a reply, what is the median reply delay, and
// which directed pair with at least 10 replies answers fastest (smallest
// median)?" on CollegeMsg, checked against a brute force over the file.
func TestAggregateEventsReplyDelayCollegeMsg(t *testing.T) {
	raw := readSNAP(t, "CollegeMsg.txt.gz", false)
	e := snapStore(t, "collegemsg")
	times := map[[2]string][]int64{}
	for _, ev := range raw {
		k := [2]string{ev.src, ev.dst}
		times[k] = append(times[k], ev.t)
	}
	for _, ts := range times {
		slices.Sort(ts)
	}
	var all []int64
	perPair := map[[2]string][]int64{}
	for _, ev := range raw {
		back := times[[2]string{ev.dst, ev.src}]
		if i := sort.Search(len(back), func(i int) bool { return back[i] > ev.t }); i < len(back) {
			all = append(all, back[i]-ev.t)
			k := [2]string{ev.src, ev.dst}
			perPair[k] = append(perPair[k], back[i]-ev.t)
		}
	}
	median := func(d []int64) int64 { slices.Sort(d); return d[(len(d)-1)/2] }
	g := snapCall(t, e, map[string]any{"window": wholeWindow, "group_by": []any{},
		"aggregates": []any{map[string]any{"agg": "reply_delay", "stat": "count"}, map[string]any{"agg": "reply_delay", "stat": "median"}}})
	row := g["rows"].([]any)[0].(map[string]any)
	t.Logf("replied messages %v, median reply delay %v µs (brute force %d, %d)", row["replied"], row["median_reply_delay"], len(all), median(all))
	if row["replied"] != int64(len(all)) || row["median_reply_delay"] != median(all) {
		t.Fatalf("got %v, brute force %d replied, median %d", row, len(all), median(all))
	}

	var best [2]string
	bestMed := int64(-1)
	eligible := 0
	for k, d := range perPair {
		if len(d) < 10 {
			continue
		}
		eligible++
		m := median(d)
		if bestMed < 0 || m < bestMed || m == bestMed && cmp.Or(cmp.Compare(k[0], best[0]), cmp.Compare(k[1], best[1])) < 0 {
			best, bestMed = k, m
		}
	}
	r := snapCall(t, e, map[string]any{"window": wholeWindow, "group_by": []any{map[string]any{"dim": "pair"}},
		"aggregates": []any{map[string]any{"agg": "reply_delay", "stat": "count"}, map[string]any{"agg": "reply_delay", "stat": "median"}},
		"having":     []any{map[string]any{"col": "replied", "cmp": "ge", "value": int64(10)}},
		"order_by":   []any{map[string]any{"col": "median_reply_delay"}}, "top": int64(1)})
	top := r["rows"].([]any)[0].(map[string]any)
	t.Logf("fastest pair with >= 10 replies: %v→%v median %v µs over %v (brute force %v median %d, %d eligible pairs)",
		top["src"], top["dst"], top["median_reply_delay"], top["replied"], best, bestMed, eligible)
	if top["src"] != best[0] || top["dst"] != best[1] || top["median_reply_delay"] != bestMed || top["replied"] != int64(len(perPair[best])) {
		t.Fatalf("got %v, brute force %v median %d", top, best, bestMed)
	}
}
