package ops_test

import "testing"

// The ten busiest senders of 1M events: group by source, order by count,
// top 10. (Grouping the synthetic store's ~650,000 directed pairs needs a
// memory budget above the default 256 MiB.)
func BenchmarkAggregateEventsTopSendersSynth1M(b *testing.B) {
	aggBenchRun(b, "aggregate_events", map[string]any{"window": aggBenchWindow(91),
		"group_by":   []any{map[string]any{"dim": "endpoint", "role": "src"}},
		"aggregates": []any{map[string]any{"agg": "count"}},
		"order_by":   []any{map[string]any{"col": "count", "dir": "desc"}}, "top": int64(10)})
}

// Senders with exactly one message: having on a grouping of every source.
func BenchmarkAggregateEventsHavingSynth1M(b *testing.B) {
	aggBenchRun(b, "aggregate_events", map[string]any{"window": aggBenchWindow(91),
		"group_by":   []any{map[string]any{"dim": "endpoint", "role": "src"}},
		"aggregates": []any{map[string]any{"agg": "count"}},
		"having":     []any{map[string]any{"col": "count", "cmp": "le", "value": int64(3)}}})
}

// Messages by hour of day at UTC+01:00 over 1M events.
func BenchmarkAggregateEventsHourOfDaySynth1M(b *testing.B) {
	aggBenchRun(b, "aggregate_events", map[string]any{"window": aggBenchWindow(91),
		"group_by":   []any{map[string]any{"dim": "calendar_cycle", "cycle": "hour_of_day", "utc_offset_minutes": int64(60)}},
		"aggregates": []any{map[string]any{"agg": "count"}}})
}

// Hour buckets across the whole 91-day span (2,184 buckets, over the old
// 2,000-bucket cap).
func BenchmarkAggregateEventsHourBucketsSynth1M(b *testing.B) {
	aggBenchRun(b, "aggregate_events", map[string]any{"window": aggBenchWindow(91),
		"group_by":   []any{map[string]any{"dim": "time_bucket", "stride": int64(3_600_000_000)}},
		"aggregates": []any{map[string]any{"agg": "count"}}})
}

// Who each node first wrote to: first of dst per source over 1M events.
func BenchmarkAggregateEventsFirstSynth1M(b *testing.B) {
	aggBenchRun(b, "aggregate_events", map[string]any{"window": aggBenchWindow(91),
		"group_by":   []any{map[string]any{"dim": "endpoint", "role": "src"}},
		"aggregates": []any{map[string]any{"agg": "first", "of": "dst"}, map[string]any{"agg": "last", "of": "dst"}}})
}
