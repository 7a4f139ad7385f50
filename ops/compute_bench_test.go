package ops_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
)

// computeBenchRows makes n rows {id, g, v, f}: v an integer epoch-µs-sized
// value, f a float, g one of 100 group keys.
func computeBenchRows(n int) []any {
	rng := rand.New(rand.NewPCG(5, 5))
	rows := make([]any, n)
	for i := range rows {
		rows[i] = map[string]any{
			"id": int64(i), "g": "g" + string(rune('A'+i%26)) + string(rune('a'+i%4)),
			"v": int64(1_700_000_000_000_000 + rng.Int64N(1_000_000_000)), "f": rng.Float64() * 1000,
		}
	}
	return rows
}

func BenchmarkCompute(b *testing.B) {
	rows := computeBenchRows(50_000)
	ints := make([]any, len(rows))
	floats := make([]any, len(rows))
	keys := make([]any, len(rows))
	for i, r := range rows {
		ints[i], floats[i], keys[i] = r.(map[string]any)["v"], r.(map[string]any)["f"], r.(map[string]any)["id"]
	}
	cases := []struct {
		name string
		args map[string]any
	}{
		{"sum_small_int_50k", map[string]any{"fn": "sum", "input": keys}},
		{"mean_epoch_us_50k", map[string]any{"fn": "mean", "input": ints}}, // the int64 sum overflows; big.Int takes over
		{"mean_float_50k", map[string]any{"fn": "mean", "input": floats}},
		{"median_int_50k", map[string]any{"fn": "median", "input": ints}},
		{"sum_field_grouped_50k", map[string]any{"fn": "sum", "input": rows, "field": "v", "group_by": "g"}},
		{"topk_pct10_50k", map[string]any{"fn": "topk", "input": rows, "field": "f", "pct": int64(10)}},
		{"filter_gt_50k", map[string]any{"fn": "filter", "input": rows, "field": "f", "cmp": "gt", "value": 500.0}},
		{"derive_mul_50k", map[string]any{"fn": "derive", "input": rows, "field": "v", "value": int64(3), "op": "mul", "into": "w"}},
		{"union_50k_50k", map[string]any{"fn": "union", "input": keys, "other": ints}},
		{"join_50k_50k", map[string]any{"fn": "join", "input": rows, "other": rows, "on": "id"}},
	}
	src := storeSource{engine.New()}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := ops.Execute(context.Background(), src, "compute", tc.args); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/call")
			b.ReportMetric(float64(len(rows))*float64(b.N)/b.Elapsed().Seconds(), "inputs/s")
		})
	}
}
