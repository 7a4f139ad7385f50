package ops_test

import (
	"cmp"
	"context"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

// firstKAgg is a random first_k/last_k aggregate: small k against random
// groups (so that it cuts some), sometimes a k past every group, and now
// and then an invalid one.
func firstKAgg(rng *rand.Rand) map[string]any {
	a := map[string]any{"agg": []string{"first_k", "last_k"}[rng.IntN(2)], "k": []int64{1, 1, 2, 2, 3, 1 << 40}[rng.IntN(6)]}
	st := []string{"count", "sum", "mean", "min", "max"}[rng.IntN(5)]
	a["stat"] = st
	if st != "count" {
		a["of"] = []string{"duration", "vt_s", "prop", "prop"}[rng.IntN(4)]
		if a["of"] == "prop" {
			a["prop"] = "w"
		}
	}
	switch rng.IntN(25) {
	case 0:
		delete(a, "k")
	case 1:
		a["stat"] = "median"
	case 2:
		a["of"] = "src"
	}
	return a
}

// TestAggregateEventsFirstKMatchesOracle: 500 random calls that always
// hold a first_k or last_k aggregate (with the generator's dimensions,
// filters, having/order_by/top, ties, corrections and retracts) equal the
// brute-force oracle, which sorts each group's members by the stated order.
func TestAggregateEventsFirstKMatchesOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 4))
	spec, _ := ops.Lookup("aggregate_events")
	answered, cut, tiedCut := 0, 0, 0
	for i := range casesPerOp() {
		m, e := build(t, oracle.RandomHistory(rng, 2+rng.IntN(10)))
		w := newWorld(rng, m)
		args := aggGen(rng, w)
		ags := slices.DeleteFunc(args["aggregates"].([]any), func(a any) bool {
			ag := a.(map[string]any)["agg"]
			return ag == "first_k" || ag == "last_k" || ag == "count"
		})
		fk := firstKAgg(rng)
		if rng.IntN(2) == 0 { // coarse groups, which k cuts more often
			args["group_by"] = [][]any{{}, {map[string]any{"dim": "endpoint", "role": []string{"src", "dst", "either"}[rng.IntN(3)]}}}[rng.IntN(2)]
		}
		args["aggregates"] = append(ags, fk, map[string]any{"agg": "count"}, map[string]any{"agg": "max_in_window", "span": int64(1)})
		if n := len(args["aggregates"].([]any)); n > 6 {
			args["aggregates"] = args["aggregates"].([]any)[n-6:]
		}
		if o := compareOne(t, i, spec, m, e, args); o.refusal != "" || o.schemaError {
			continue
		}
		answered++
		// count the cases where k cut a group, and those where it cut one
		// holding two events at one time (the tie rule decided)
		args["limit"] = int64(10_000)
		env, err := ops.Execute(context.Background(), storeSource{e}, "aggregate_events", args)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range env.Result["rows"].([]any) {
			r := r.(map[string]any)
			if n, ok := r["count"].(int64); ok && n > fk["k"].(int64) {
				cut++
				if r["max_in_window"].(int64) >= 2 {
					tiedCut++
				}
				break
			}
		}
	}
	t.Logf("%d answered, %d with a group cut by k, %d of them holding a tie", answered, cut, tiedCut)
	if answered < casesPerOp()/3 || cut < casesPerOp()/15 || tiedCut < casesPerOp()/25 {
		t.Fatalf("too few informative cases: %d answered, %d cut, %d tied", answered, cut, tiedCut)
	}
}

// TestAggregateEventsFirstKMetamorphic: k at or above the group size gives
// the plain aggregate; first_k 1 and last_k 1 of vt_s are min and max of
// vt_s; count_first_k is min(k, count).
func TestAggregateEventsFirstKMetamorphic(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 8))
	call := func(e *engine.Store, args map[string]any) []any {
		args["limit"] = int64(10_000)
		env, err := ops.Execute(context.Background(), storeSource{e}, "aggregate_events", args)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return env.Result["rows"].([]any)
	}
	for i := range 200 {
		_, e := build(t, oracle.RandomHistory(rng, 2+rng.IntN(10)))
		win := pickWindow(rng)
		gb := []any{}
		if rng.IntN(3) > 0 {
			gb = []any{map[string]any{"dim": "endpoint", "role": []string{"src", "dst", "either"}[rng.IntN(3)]}}
		}
		st := []string{"sum", "mean", "min", "max"}[rng.IntN(4)]
		of := []string{"duration", "prop"}[rng.IntN(2)]
		plain := map[string]any{"agg": st, "of": of}
		kAgg := func(which string, k int64, st, of string) map[string]any {
			a := map[string]any{"agg": which, "k": k, "stat": st}
			if st != "count" {
				a["of"] = of
			}
			if of == "prop" {
				a["prop"] = "w"
			}
			return a
		}
		if of == "prop" {
			plain["prop"] = "w"
		}
		which := []string{"first_k", "last_k"}[rng.IntN(2)]
		k := int64(1 + rng.IntN(4))
		rows := call(e, map[string]any{"window": win, "group_by": gb, "aggregates": []any{
			map[string]any{"agg": "count"}, plain,
			map[string]any{"agg": "min", "of": "vt_s"}, map[string]any{"agg": "max", "of": "vt_s"},
		}})
		ks := call(e, map[string]any{"window": win, "group_by": gb, "aggregates": []any{
			kAgg(which, 1<<40, st, of), kAgg("first_k", 1, "min", "vt_s"), kAgg("last_k", 1, "max", "vt_s"), kAgg(which, k, "count", ""),
		}})
		if len(rows) != len(ks) {
			t.Fatalf("case %d: %d groups, %d with first/last k", i, len(rows), len(ks))
		}
		for j, r := range rows {
			r, q := r.(map[string]any), ks[j].(map[string]any)
			if whole := q[st+"_"+of+"_"+which]; whole != r[st+"_"+of] {
				t.Fatalf("case %d group %v: %s k past the group %v, plain %v", i, r["group_key"], which, whole, r[st+"_"+of])
			}
			if q["min_vt_s_first_k"] != r["min_vt_s"] || q["max_vt_s_last_k"] != r["max_vt_s"] {
				t.Fatalf("case %d group %v: first_k 1 %v / last_k 1 %v, min/max vt_s %v / %v", i, r["group_key"],
					q["min_vt_s_first_k"], q["max_vt_s_last_k"], r["min_vt_s"], r["max_vt_s"])
			}
			if q["count_"+which] != min(k, r["count"].(int64)) {
				t.Fatalf("case %d group %v: count_%s %v with k %d and count %v", i, r["group_key"], which, q["count_"+which], k, r["count"])
			}
		}
	}
}

// Bitcoin-OTC: "How does the mean of each account's first 5 ratings
// received compare with the mean of its last 5?", checked against a brute
// force over the file (ratings ordered by time, then rater uid).
func TestAggregateEventsFirstKBitcoinOTC(t *testing.T) {
	raw := readSNAP(t, "soc-sign-bitcoinotc.csv.gz", true)
	e := snapStore(t, "bitcoinotc")
	by := map[string][]snapEvent{}
	for _, ev := range raw {
		by[ev.dst] = append(by[ev.dst], ev)
	}
	mean := func(evs []snapEvent) *big.Rat {
		s := new(big.Rat)
		for _, x := range evs {
			s.Add(s, new(big.Rat).SetInt64(x.rating))
		}
		return s.Quo(s, new(big.Rat).SetInt64(int64(len(evs))))
	}
	type want struct{ first, last float64 }
	wants := map[string]want{}
	improved, worsened := 0, 0
	for dst, evs := range by {
		slices.SortFunc(evs, func(a, b snapEvent) int {
			if a.t != b.t {
				return cmp.Compare(a.t, b.t)
			}
			return strings.Compare(a.src, b.src) // one rating per (rater, ratee, time) in the file
		})
		first := evs[:min(5, len(evs))]
		// last 5: the latest times first, ties by rater uid
		var last []snapEvent
		for j := len(evs); j > 0 && len(last) < 5; {
			i := j - 1
			for i > 0 && evs[i-1].t == evs[j-1].t {
				i--
			}
			for _, x := range evs[i:j] {
				if len(last) < 5 {
					last = append(last, x)
				}
			}
			j = i
		}
		f, _ := mean(first).Float64()
		l, _ := mean(last).Float64()
		wants[dst] = want{f, l}
		if len(evs) >= 10 {
			switch c := mean(last).Cmp(mean(first)); {
			case c > 0:
				improved++
			case c < 0:
				worsened++
			}
		}
	}
	r := snapCall(t, e, map[string]any{"window": wholeWindow, "group_by": []any{map[string]any{"dim": "endpoint", "role": "dst"}},
		"aggregates": []any{map[string]any{"agg": "count"},
			map[string]any{"agg": "first_k", "k": int64(5), "stat": "mean", "of": "prop", "prop": "rating"},
			map[string]any{"agg": "last_k", "k": int64(5), "stat": "mean", "of": "prop", "prop": "rating"}},
		"limit": int64(10_000)})
	rows := r["rows"].([]any)
	if len(rows) != len(wants) {
		t.Fatalf("%d accounts, brute force %d", len(rows), len(wants))
	}
	for _, x := range rows {
		m := x.(map[string]any)
		w := wants[m["dst"].(string)]
		if canon.Round9(w.first) != m["mean_prop_first_k"] || canon.Round9(w.last) != m["mean_prop_last_k"] {
			t.Fatalf("%v: first 5 %v last 5 %v, brute force %v and %v", m["dst"], m["mean_prop_first_k"], m["mean_prop_last_k"], w.first, w.last)
		}
	}
	t.Logf("Bitcoin-OTC: %d accounts; of those with >= 10 ratings, last 5 above first 5: %d, below: %d", len(rows), improved, worsened)
}

// The mean duration of each destination's first 5 and last 5 events, over
// all ~1M events.
func BenchmarkAggregateEventsFirstLastKByDstSynth1M(b *testing.B) {
	aggBenchRun(b, "aggregate_events", map[string]any{"window": aggBenchWindow(91),
		"group_by": []any{map[string]any{"dim": "endpoint", "role": "dst"}},
		"aggregates": []any{map[string]any{"agg": "first_k", "k": int64(5), "stat": "mean", "of": "duration"},
			map[string]any{"agg": "last_k", "k": int64(5), "stat": "mean", "of": "duration"}}})
}
