package ops_test

import (
	"context"
	"testing"
	"time"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
)

// reachBench is a 1M-event synthetic store (generator defaults: 20,000
// nodes, 90 days, 5% interval edges), ingested in chunks straight into the
// engine (no log), built once.
func reachBenchStore(b *testing.B) (*engine.Store, *datasets.Manifest) { return benchStore1M(b) }

func reachBenchRun(b *testing.B, op string, args map[string]any) {
	res := benchOp(b, op, args)
	if v, ok := res["rows_total"].(int64); ok {
		b.ReportMetric(float64(v), "rows_total")
	}
}

const reachDay = bt.Time(24 * 3600 * 1_000_000)

// reachBenchArgs: src n0 over the whole store's extent, or over a window
// of the given length in the middle of it.
func reachBenchArgs(b *testing.B, span bt.Time, extra map[string]any) map[string]any {
	_, m := reachBenchStore(b)
	w := map[string]any{"t_a": m.VtMin, "t_b": m.VtMax + 1}
	if span > 0 {
		mid := m.VtMin + (m.VtMax-m.VtMin)/2
		w = map[string]any{"t_a": mid, "t_b": mid + span}
	}
	args := map[string]any{"src": "n0", "window": w}
	for k, v := range extra {
		args[k] = v
	}
	return args
}

func BenchmarkTemporalReachabilityOut1M(b *testing.B) {
	reachBenchRun(b, "temporal_reachability", reachBenchArgs(b, 0, nil))
}

func BenchmarkTemporalReachabilityIn1M(b *testing.B) {
	reachBenchRun(b, "temporal_reachability", reachBenchArgs(b, 0, map[string]any{"direction": "in"}))
}

func BenchmarkTemporalReachabilityBoth1M(b *testing.B) {
	reachBenchRun(b, "temporal_reachability", reachBenchArgs(b, 0, map[string]any{"direction": "both"}))
}

func BenchmarkTemporalReachabilityOutDay1M(b *testing.B) {
	reachBenchRun(b, "temporal_reachability", reachBenchArgs(b, reachDay, nil))
}

func BenchmarkTemporalReachabilityDeltaHourDay1M(b *testing.B) {
	reachBenchRun(b, "temporal_reachability", reachBenchArgs(b, reachDay, map[string]any{"delta_max_wait": int64(reachDay / 24)}))
}

// BenchmarkTemporalReachabilityWindowLookup1M is the window lookup alone
// (EdgesOverlapping over the whole extent), the floor under the kernel.
func BenchmarkTemporalReachabilityWindowLookup1M(b *testing.B) {
	e, m := reachBenchStore(b)
	r := e.Reader(bt.OpenEnd)
	b.ResetTimer()
	start := time.Now()
	n := 0
	for range b.N {
		n = len(r.EdgesOverlapping(bt.Interval{Start: m.VtMin, End: m.VtMax + 1}))
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/call")
	b.ReportMetric(float64(n), "edges")
}

func BenchmarkTemporalPathsDay1M(b *testing.B) {
	reachBenchRun(b, "temporal_paths", reachBenchArgs(b, reachDay, map[string]any{"dst": "n1", "max_hops": int64(4), "k": int64(20)}))
}

func BenchmarkTemporalPathsWeek6Hops1M(b *testing.B) {
	reachBenchRun(b, "temporal_paths", reachBenchArgs(b, 7*reachDay, map[string]any{"dst": "n1", "max_hops": int64(6), "k": int64(20), "order": "fastest"}))
}

// reachBenchRegistry is the reference's engine-benchmark query shape
// (anchor-eval §7.1): src n1, window [t0, t0+span/10) (reach.window); and
// n1→n2, window [t0, t0+span/4), k 3, max_hops 3 (paths.k).
func reachBenchRegistry(b *testing.B, frac bt.Time, extra map[string]any) map[string]any {
	_, m := reachBenchStore(b)
	args := map[string]any{"src": "n1", "window": map[string]any{"t_a": m.VtMin, "t_b": m.VtMin + (m.VtMax-m.VtMin)/frac}}
	for k, v := range extra {
		args[k] = v
	}
	return args
}

func BenchmarkTemporalReachabilityWindow10pct1M(b *testing.B) {
	reachBenchRun(b, "temporal_reachability", reachBenchRegistry(b, 10, nil))
}

func BenchmarkTemporalReachabilityWindow10pctIn1M(b *testing.B) {
	reachBenchRun(b, "temporal_reachability", reachBenchRegistry(b, 10, map[string]any{"direction": "in"}))
}

func BenchmarkTemporalReachabilityWindow2pct1M(b *testing.B) {
	reachBenchRun(b, "temporal_reachability", reachBenchRegistry(b, 50, nil))
}

func BenchmarkTemporalPathsRegistry1M(b *testing.B) {
	reachBenchRun(b, "temporal_paths", reachBenchRegistry(b, 4, map[string]any{"dst": "n2", "k": int64(3), "max_hops": int64(3)}))
}

// BenchmarkTemporalPathsReached1M: paths.k's shape (n1, first quarter of
// the span, k 3) with max_hops 6, to a dst that n1 does reach (a quarter
// down reachability's rows from n1 in the same window).
func BenchmarkTemporalPathsReached1M(b *testing.B) {
	e, _ := reachBenchStore(b)
	args := reachBenchRegistry(b, 4, map[string]any{"limit": int64(10_000)})
	env, err := ops.Execute(context.Background(), storeSource{e}, "temporal_reachability", args)
	if err != nil {
		b.Fatal(err)
	}
	rows := env.Result["rows"].([]any)
	if len(rows) == 0 {
		b.Skip("n1 reaches nobody")
	}
	dst := rows[len(rows)/4].(map[string]any)["uid"]
	reachBenchRun(b, "temporal_paths", reachBenchRegistry(b, 4, map[string]any{"dst": dst, "k": int64(3), "max_hops": int64(6)}))
}

func BenchmarkTemporalReachabilityWindow10pctDeltaHour1M(b *testing.B) {
	reachBenchRun(b, "temporal_reachability", reachBenchRegistry(b, 10, map[string]any{"delta_max_wait": int64(reachDay / 24)}))
}

func BenchmarkTemporalReachabilityWindow10pctDeltaDay1M(b *testing.B) {
	reachBenchRun(b, "temporal_reachability", reachBenchRegistry(b, 10, map[string]any{"delta_max_wait": int64(reachDay)}))
}
