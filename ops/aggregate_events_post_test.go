package ops_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

// Metamorphic properties of post-aggregation on random stores: having
// keeps exactly the groups of the full grouping whose column passes (a
// compute filter of the full rows); top k is the first k rows of the same
// order without top; calendar-cycle counts add up to the window's count.
func TestAggregateEventsPostMetamorphic(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 34))
	run := func(e ops.Source, args map[string]any) (map[string]any, bool) {
		a := clone(args)
		a["limit"] = int64(10_000)
		env, err := ops.Execute(context.Background(), e, "aggregate_events", a)
		if err != nil {
			return nil, false
		}
		return env.Result, true
	}
	keys := func(rows []any) string {
		var ks []any
		for _, r := range rows {
			ks = append(ks, r.(map[string]any)["group_key"])
		}
		b, _ := canon.Marshal(ks)
		return string(b)
	}
	checked := 0
	for i := range 300 {
		_, e := build(t, oracle.RandomHistory(rng, 1+rng.IntN(8)))
		src := storeSource{e}
		base := map[string]any{"window": map[string]any{"t_a": int64(0), "t_b": int64(200)},
			"group_by":   []any{[]any{map[string]any{"dim": "endpoint", "role": "src"}, map[string]any{"dim": "pair"}, map[string]any{"dim": "time_bucket", "stride": int64(7)}}[rng.IntN(3)]},
			"aggregates": []any{map[string]any{"agg": "count"}, map[string]any{"agg": "max", "of": "vt_s"}}}
		full, ok := run(src, base)
		if !ok {
			continue
		}
		rows := full["rows"].([]any)
		// having = compute filter of the full rows
		col := []string{"count", "max_vt_s"}[rng.IntN(2)]
		cmp := []string{"eq", "ne", "lt", "le", "gt", "ge"}[rng.IntN(6)]
		val := []int64{1, 2, 50, 100}[rng.IntN(4)]
		h := clone(base)
		h["having"] = []any{map[string]any{"col": col, "cmp": cmp, "value": val}}
		got, _ := run(src, h)
		fenv, err := ops.Execute(context.Background(), src, "compute", map[string]any{"fn": "filter", "input": rows, "field": col, "cmp": cmp, "value": val})
		if err != nil {
			t.Fatal(err)
		}
		if keys(got["rows"].([]any)) != keys(fenv.Result["rows"].([]any)) || got["groups_total"] != int64(len(rows)) {
			t.Fatalf("case %d: having %s %s %d differs from filtering the full grouping", i, col, cmp, val)
		}
		// top k = prefix of the same order
		o := clone(base)
		o["order_by"] = []any{map[string]any{"col": col, "dir": []string{"asc", "desc"}[rng.IntN(2)]}}
		ordered, _ := run(src, o)
		k := 1 + rng.IntN(4)
		o["top"] = int64(k)
		top, _ := run(src, o)
		or := ordered["rows"].([]any)
		if keys(top["rows"].([]any)) != keys(or[:min(k, len(or))]) {
			t.Fatalf("case %d: top %d is not the prefix of the order", i, k)
		}
		// cycle counts add up
		cy := clone(base)
		cy["group_by"] = []any{map[string]any{"dim": "calendar_cycle", "cycle": "hour_of_day", "utc_offset_minutes": int64(rng.IntN(100))}}
		glob := clone(base)
		glob["group_by"] = []any{}
		cr, _ := run(src, cy)
		gr, _ := run(src, glob)
		sum := int64(0)
		for _, r := range cr["rows"].([]any) {
			sum += r.(map[string]any)["count"].(int64)
		}
		if sum != gr["rows"].([]any)[0].(map[string]any)["count"] {
			t.Fatalf("case %d: hour-of-day counts sum to %d", i, sum)
		}
		if len(rows) > 0 {
			checked++
		}
	}
	if checked < 50 {
		t.Fatalf("only %d cases had groups", checked)
	}
}
