package ops

import (
	"context"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"
)

// BenchmarkComputeKernel measures the compute kernel alone (arguments
// already prepared; no schema validation, paging of the executor, float
// rounding or digest). cpu-ms/call is process CPU time per call, which is
// steadier than wall time on a shared machine.
func BenchmarkComputeKernel(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 5))
	const n = 50_000
	rows := make([]any, n)
	ints, floats, ids := make([]any, n), make([]any, n), make([]any, n)
	for i := range rows {
		v, f := int64(1_700_000_000_000_000+rng.Int64N(1_000_000_000)), rng.Float64()*1000
		rows[i] = map[string]any{"id": int64(i), "g": "g" + string(rune('A'+i%26)) + string(rune('a'+i%4)), "v": v, "f": f}
		ints[i], floats[i], ids[i] = v, f, int64(i)
	}
	cases := []struct {
		name string
		args map[string]any
	}{
		{"sum_small_int_50k", map[string]any{"fn": "sum", "input": ids}},
		{"mean_epoch_us_50k", map[string]any{"fn": "mean", "input": ints}},
		{"mean_float_50k", map[string]any{"fn": "mean", "input": floats}},
		{"median_int_50k", map[string]any{"fn": "median", "input": ints}},
		{"sum_grouped_104_groups_50k", map[string]any{"fn": "sum", "input": rows, "field": "v", "group_by": "g"}},
		{"topk_pct10_50k", map[string]any{"fn": "topk", "input": rows, "field": "f", "pct": int64(10), "side": "top"}},
		{"filter_gt_50k", map[string]any{"fn": "filter", "input": rows, "field": "f", "cmp": "gt", "value": 500.0}},
		{"derive_mul_50k", map[string]any{"fn": "derive", "input": rows, "field": "v", "value": int64(3), "op": "mul", "into": "w"}},
		{"union_50k_50k", map[string]any{"fn": "union", "input": ids, "other": ints}},
		{"join_50k_50k", map[string]any{"fn": "join", "input": rows, "other": rows, "on": "id", "other_prefix": "r_", "how": "inner"}},
	}
	for _, tc := range cases {
		tc.args["limit"] = int64(100)
		b.Run(tc.name, func(b *testing.B) {
			cpu0 := computeBenchCPU()
			for b.Loop() {
				c := &Call{Ctx: context.Background(), Args: tc.args, limit: MaxWork}
				if _, err := runCompute(c); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((computeBenchCPU()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/call")
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/call")
		})
	}
}

func computeBenchCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
