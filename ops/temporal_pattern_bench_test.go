package ops_test

import (
	"testing"
)

// temporal_pattern at 1M events (the shared synthetic store, whole
// 90-day window): each benchmark reports the instances counted next to
// the timings.
func benchPattern(b *testing.B, args map[string]any) {
	w := map[string]any{"t_a": int64(0), "t_b": int64(1) << 62}
	args["window"], args["output"] = w, "count"
	r := benchOp(b, "temporal_pattern", args)
	b.ReportMetric(float64(r["count"].(int64)), "instances")
	b.ReportMetric(float64(r["n_events_in_window"].(int64)), "events")
}

var benchMinute = int64(60_000_000)

// u→v then v→w within 5 minutes (strictly later).
func BenchmarkTemporalPatternChain5mSynth1M(b *testing.B) {
	benchPattern(b, map[string]any{"order": "strict", "within": 5 * benchMinute,
		"hops": patHops(map[string]any{"src": "u", "dst": "v"}, map[string]any{"src": "v", "dst": "w"})})
}

// The same chain with a rel_type on each hop (CALL then MSG).
func BenchmarkTemporalPatternChainRelSynth1M(b *testing.B) {
	benchPattern(b, map[string]any{"order": "strict", "within": 5 * benchMinute,
		"hops": patHops(map[string]any{"src": "u", "dst": "v", "rel_type": "CALL"}, map[string]any{"src": "v", "dst": "w", "rel_type": "MSG"})})
}

// The first reply to every message (pick first), no time bound.
func BenchmarkTemporalPatternFirstReplySynth1M(b *testing.B) {
	benchPattern(b, map[string]any{"order": "strict",
		"hops": patHops(map[string]any{"src": "u", "dst": "v"}, map[string]any{"src": "v", "dst": "u", "pick": "first"})})
}

// The reverse-edge join in either order within an hour.
func BenchmarkTemporalPatternReverseAnySynth1M(b *testing.B) {
	benchPattern(b, map[string]any{"order": "any", "within": 60 * benchMinute,
		"hops": patHops(map[string]any{"src": "u", "dst": "v"}, map[string]any{"src": "v", "dst": "u"})})
}

// The cyclic triangle as a pattern (span 10 minutes), against the motif
// counter on the same question.
func BenchmarkTemporalPatternCycle3Synth1M(b *testing.B) {
	benchPattern(b, map[string]any{"span": 10 * benchMinute,
		"hops": patHops(map[string]any{"src": "u", "dst": "v"}, map[string]any{"src": "v", "dst": "w"}, map[string]any{"src": "w", "dst": "u"})})
}

func BenchmarkTemporalPatternCycle3MotifSynth1M(b *testing.B) {
	r := benchOp(b, "count_temporal_motifs", map[string]any{"motif": "M_triangle_cyclic", "delta": 10 * benchMinute,
		"window": map[string]any{"t_a": int64(0), "t_b": int64(1) << 62}})
	b.ReportMetric(float64(r["count"].(int64)), "instances")
}
