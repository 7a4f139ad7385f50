package ops_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
)

func aggBench1M(b *testing.B) (*engine.Store, *datasets.Manifest) { return benchStore1M(b) }

func aggBenchRun(b *testing.B, op string, args map[string]any) {
	e, _ := aggBench1M(b)
	b.ReportAllocs()
	b.ResetTimer()
	var last map[string]any
	start := time.Now()
	cpu0 := cpuTime()
	for range b.N {
		env, err := ops.Execute(context.Background(), storeSource{e}, op, args)
		if err != nil {
			b.Fatal(err)
		}
		last = env.Result
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/call")
	// CPU time (all threads, GC included) is steadier than wall time on a
	// shared machine.
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/call")
	b.ReportMetric(float64(last["rows_total"].(int64)), "groups")
}

func aggBenchWindow(days int64) map[string]any {
	return map[string]any{"t_a": datasets.DefaultSynthStart, "t_b": datasets.DefaultSynthStart + days*datasets.Day}
}

func BenchmarkAggregateEventsGlobalSynth1M(b *testing.B) {
	aggBenchRun(b, "aggregate_events", map[string]any{"window": aggBenchWindow(91),
		"group_by": []any{}, "aggregates": []any{map[string]any{"agg": "count"}}})
}

// Grouped aggregation over all ~1M events of the 90-day span. Target: <= 20 ms.
func BenchmarkAggregateEventsByRelTypeSynth1M(b *testing.B) {
	aggBenchRun(b, "aggregate_events", map[string]any{"window": aggBenchWindow(91),
		"group_by": []any{map[string]any{"dim": "rel_type"}}, "aggregates": []any{map[string]any{"agg": "count"}}})
}

func BenchmarkAggregateEventsByDaySynth1M(b *testing.B) {
	aggBenchRun(b, "aggregate_events", map[string]any{"window": aggBenchWindow(91),
		"group_by":   []any{map[string]any{"dim": "time_bucket", "unit": "day", "utc_offset_minutes": int64(60)}},
		"aggregates": []any{map[string]any{"agg": "count"}, map[string]any{"agg": "max_gap"}}})
}

func BenchmarkAggregateEventsBySrcSynth1M(b *testing.B) {
	aggBenchRun(b, "aggregate_events", map[string]any{"window": aggBenchWindow(91),
		"group_by":   []any{map[string]any{"dim": "endpoint", "role": "src"}},
		"aggregates": []any{map[string]any{"agg": "count"}, map[string]any{"agg": "count_distinct", "of": "dst"}}})
}

func BenchmarkAggregateEventsDurationSynth1M(b *testing.B) {
	aggBenchRun(b, "aggregate_events", map[string]any{"window": aggBenchWindow(91),
		"group_by":   []any{map[string]any{"dim": "rel_type"}},
		"aggregates": []any{map[string]any{"agg": "count"}, map[string]any{"agg": "mean", "of": "duration"}, map[string]any{"agg": "max", "of": "duration"}}})
}

// 200 source nodes over the whole span, by week.
func BenchmarkAggregateEventsFilter200Synth1M(b *testing.B) {
	uids := make([]any, 200)
	for i := range uids {
		uids[i] = fmt.Sprintf("n%d", i*97)
	}
	aggBenchRun(b, "aggregate_events", map[string]any{"window": aggBenchWindow(91),
		"endpoint_filter": map[string]any{"role": "src", "uids": uids},
		"group_by":        []any{map[string]any{"dim": "time_bucket", "unit": "week", "utc_offset_minutes": int64(0)}, map[string]any{"dim": "endpoint", "role": "src"}},
		"aggregates":      []any{map[string]any{"agg": "count"}}})
}

func BenchmarkResolveEntitiesSynth1M(b *testing.B) {
	aggBenchRun(b, "resolve_entities", map[string]any{"query": "n1234"})
}

func BenchmarkVersionHistoryEdgesSynth1M(b *testing.B) {
	aggBenchRun(b, "version_history", map[string]any{"kind": "edge", "window": aggBenchWindow(1), "belief": "all"})
}

func BenchmarkVersionHistoryNodesSynth1M(b *testing.B) {
	aggBenchRun(b, "version_history", map[string]any{"kind": "node", "window": aggBenchWindow(91), "uids": []any{"n1", "n2", "n3"}})
}

func BenchmarkVersionHistoryAllNodesSynth1M(b *testing.B) {
	aggBenchRun(b, "version_history", map[string]any{"kind": "node", "window": aggBenchWindow(91), "belief": "all", "limit": int64(10)})
}

// The most distinct recipients of each source within any hour, over all
// ~1M events.
func BenchmarkAggregateEventsWindowDistinctBySrcSynth1M(b *testing.B) {
	aggBenchRun(b, "aggregate_events", map[string]any{"window": aggBenchWindow(91),
		"group_by":   []any{map[string]any{"dim": "endpoint", "role": "src"}},
		"aggregates": []any{map[string]any{"agg": "max_distinct_in_window", "of": "dst", "span": int64(3_600_000_000)}}})
}

// The median reply delay of every source's messages, over all ~1M events.
func BenchmarkAggregateEventsReplyDelayBySrcSynth1M(b *testing.B) {
	aggBenchRun(b, "aggregate_events", map[string]any{"window": aggBenchWindow(91),
		"group_by":   []any{map[string]any{"dim": "endpoint", "role": "src"}},
		"aggregates": []any{map[string]any{"agg": "reply_delay", "stat": "count"}, map[string]any{"agg": "reply_delay", "stat": "median"}}})
}

// The median reply delay over all ~1M events.
func BenchmarkAggregateEventsReplyDelayGlobalSynth1M(b *testing.B) {
	aggBenchRun(b, "aggregate_events", map[string]any{"window": aggBenchWindow(91),
		"group_by": []any{}, "aggregates": []any{map[string]any{"agg": "reply_delay", "stat": "median"}}})
}

// How often each source came back after a day's silence, over all ~1M
// events.
func BenchmarkAggregateEventsReturnsBySrcSynth1M(b *testing.B) {
	aggBenchRun(b, "aggregate_events", map[string]any{"window": aggBenchWindow(91),
		"group_by":   []any{map[string]any{"dim": "endpoint", "role": "src"}},
		"aggregates": []any{map[string]any{"agg": "returns", "gap": datasets.Day}}})
}
