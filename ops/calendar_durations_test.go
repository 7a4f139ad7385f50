package ops_test

import (
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

// The calendar mode for operators whose rules are durations: motif deltas,
// waits along paths, Allen gaps, bucket strides, sessions, returns, reply
// delays and the within/min_gap/span of patterns, compared with their
// oracles over the calendar stores, with durations of hours, days and
// weeks, many of them exactly a gap between two stored events (or one µs
// either side), where an inclusive bound and an exclusive one differ.

const calHour = int64(3_600_000_000)

// eventTimes are the distinct event times of a history's ingests.
func eventTimes(h []oracle.Batch) []bt.Time {
	var ts []bt.Time
	for _, b := range h {
		for _, op := range b.Ops {
			for _, ev := range op.Events {
				ts = append(ts, ev.VtS)
				if ev.VtE != 0 {
					ts = append(ts, ev.VtE)
				}
			}
		}
	}
	slices.Sort(ts)
	return slices.Compact(ts)
}

// calDur draws a duration of at least 1 µs: half the time the gap between
// two event times, on it or one µs either side; otherwise a calendar
// length (an hour, a day, a week, a few days) or one µs off it.
func calDur(rng *rand.Rand, ts []bt.Time) int64 {
	if len(ts) >= 2 && rng.IntN(2) == 0 {
		i, j := rng.IntN(len(ts)), rng.IntN(len(ts))
		d := ts[max(i, j)] - ts[min(i, j)]
		return max(1, d+int64(rng.IntN(3))-1)
	}
	base := []int64{calHour, calDay, 7 * calDay, 3 * calDay, 330 * 60_000_000, calDay / 2}[rng.IntN(6)]
	return max(1, base+int64(rng.IntN(3))-1)
}

// calUID is one of the calendar stores' uids.
func calUID(rng *rand.Rand) string { return []string{"a", "b", "c", "d"}[rng.IntN(4)] }

func init() {
	calArgs["count_temporal_motifs"] = func(rng *rand.Rand, ts []bt.Time) map[string]any {
		spec, _ := ops.Lookup("count_temporal_motifs")
		motifs := spec.Args.Properties["motif"].Enum
		return map[string]any{"motif": motifs[rng.IntN(len(motifs))], "delta": calDur(rng, ts), "window": calWindow(rng)}
	}
	calArgs["find_temporal_motif_instances"] = func(rng *rand.Rand, ts []bt.Time) map[string]any {
		spec, _ := ops.Lookup("find_temporal_motif_instances")
		motifs := spec.Args.Properties["motif"].Enum
		w := calWindow(rng)
		if rng.IntN(2) == 0 {
			w = map[string]any{"t_a": calBase - calDay, "t_b": calBase + 23*calDay} // every event
		}
		return map[string]any{"motif": motifs[rng.IntN(len(motifs))], "delta": max(calDur(rng, ts), calDay*int64(rng.IntN(8))), "window": w}
	}
	calArgs["temporal_reachability"] = func(rng *rand.Rand, ts []bt.Time) map[string]any {
		args := map[string]any{"src": calUID(rng), "window": calWindow(rng), "direction": []string{"out", "in", "both"}[rng.IntN(3)]}
		if rng.IntN(4) > 0 {
			args["delta_max_wait"] = calDur(rng, ts)
		}
		return args
	}
	calArgs["longest_temporal_path"] = func(rng *rand.Rand, ts []bt.Time) map[string]any {
		args := map[string]any{"window": calWindow(rng)}
		if rng.IntN(2) == 0 {
			args["src"] = calUID(rng)
		}
		if rng.IntN(4) > 0 {
			args["delta_max_wait"] = calDur(rng, ts)
		}
		return args
	}
	calArgs["temporal_paths"] = func(rng *rand.Rand, ts []bt.Time) map[string]any {
		w := calWindow(rng)
		if rng.IntN(2) == 0 {
			w = map[string]any{"t_a": calBase - calDay, "t_b": calBase + 23*calDay} // every event
		}
		return map[string]any{"src": calUID(rng), "dst": calUID(rng), "window": w,
			"k": int64(1 + rng.IntN(6)), "order": []string{"earliest_arrival", "fastest", "fewest_hops"}[rng.IntN(3)]}
	}
	calArgs["neighborhood_evolution"] = func(rng *rand.Rand, ts []bt.Time) map[string]any {
		t1 := calTime(rng)
		if len(ts) > 0 && rng.IntN(2) == 0 {
			t1 = ts[rng.IntN(len(ts))] + int64(rng.IntN(3)) - 1
		}
		t2 := t1 + calDur(rng, ts)
		args := map[string]any{"uid": calUID(rng), "t1": t1, "t2": t2}
		if rng.IntN(2) == 0 {
			args["stride"] = max((t2-t1+1999)/2000, []int64{calHour, calDay, calDay / 2}[rng.IntN(3)]+int64(rng.IntN(3))-1)
		}
		return args
	}
	calArgs["co_active"] = func(rng *rand.Rand, ts []bt.Time) map[string]any {
		side := func() map[string]any {
			s := map[string]any{}
			if rng.IntN(3) == 0 {
				s["src"] = calUID(rng)
			}
			if rng.IntN(3) == 0 {
				s["rel_type"] = []string{"R", "S"}[rng.IntN(2)]
			}
			return s
		}
		rel := coActiveRels[rng.IntN(len(coActiveRels))]
		if rng.IntN(2) == 0 {
			rel = []string{"before", "after"}[rng.IntN(2)] // gaps of days between instants
		}
		ar := map[string]any{"relation": rel}
		if r := ar["relation"]; r == "before" || r == "after" || rng.IntN(3) == 0 {
			ar["gap"] = calDur(rng, ts)
		}
		return map[string]any{"a_spec": side(), "b_spec": side(), "allen_relation": ar}
	}
	calArgs["burst_detection"] = func(rng *rand.Rand, ts []bt.Time) map[string]any {
		target := map[string]any{"kind": "edge_event_rate"}
		if rng.IntN(3) == 0 {
			target = map[string]any{"kind": "node_activity", "uid": calUID(rng)}
		}
		method := []string{"zscore", "ratio", "kleinberg"}[rng.IntN(3)]
		w := calWindow(rng)
		width := w["t_b"].(int64) - w["t_a"].(int64)
		stride := []int64{calHour, calDay, calDay / 4, 7 * calDay}[rng.IntN(4)] + int64(rng.IntN(3)) - 1
		n := 2000
		if method == "kleinberg" {
			n = 12 // the oracle enumerates every state sequence
		}
		stride = max(stride, (width+int64(n)-1)/int64(n))
		params := map[string]any{}
		if method != "kleinberg" {
			params["w"] = int64(2 + rng.IntN(4))
		}
		return map[string]any{"target": target, "window": w, "stride": stride, "method": method, "params": params}
	}
	prevAgg := calArgs["aggregate_events"]
	calArgs["aggregate_events"] = func(rng *rand.Rand, ts []bt.Time) map[string]any {
		if rng.IntN(2) == 0 {
			return prevAgg(rng, ts) // calendar buckets and cycles
		}
		d := calDur(rng, ts)
		aggs := [][]any{
			{map[string]any{"agg": "count"}},
			{map[string]any{"agg": []string{"sum", "mean", "min", "max"}[rng.IntN(4)], "of": "duration"}},
			{map[string]any{"agg": "max_gap"}},
			{map[string]any{"agg": "max_in_window", "span": d}},
			{map[string]any{"agg": "max_distinct_in_window", "of": []string{"src", "dst", "node", "pair"}[rng.IntN(4)], "span": d}},
			{map[string]any{"agg": "max_session_span", "gap": d - 1}},
			{map[string]any{"agg": "returns", "gap": d - 1}},
			{map[string]any{"agg": "reply_delay", "stat": []string{"count", "min", "median", "mean", "max"}[rng.IntN(5)]}},
		}[rng.IntN(8)]
		var groups []any
		switch rng.IntN(3) {
		case 0:
			groups = []any{map[string]any{"dim": "time_bucket", "stride": d}}
		case 1:
			groups = []any{map[string]any{"dim": "pair"}}
		}
		w := calWindow(rng)
		if groups != nil && d < (w["t_b"].(int64)-w["t_a"].(int64))/1500 {
			groups[0].(map[string]any)["stride"] = calDay // few enough buckets
		}
		args := map[string]any{"window": w, "aggregates": aggs}
		if groups != nil {
			args["group_by"] = groups
		}
		return args
	}
	prevGMTS := calArgs["graph_metric_timeseries"]
	calArgs["graph_metric_timeseries"] = func(rng *rand.Rand, ts []bt.Time) map[string]any {
		if rng.IntN(2) == 0 {
			return prevGMTS(rng, ts) // calendar cycles
		}
		return map[string]any{"metric": gmtsMetrics[rng.IntN(len(gmtsMetrics))], "window": calWindow(rng),
			"stride": []int64{calHour, calDay, 7 * calDay, calDay / 3}[rng.IntN(4)] + int64(rng.IntN(3)) - 1}
	}
}

// calendarRuleArgs are the argument fields that carry a calendar or a
// duration rule: a µs length (not a time) or a UTC offset.
func calendarRuleArgs(s *ops.Schema, path string, out *[]string) {
	for _, k := range sortedKeys(s.Properties) {
		p := s.Properties[k]
		switch {
		case k == "utc_offset_minutes" || k == "same_day" || k == "unit" || k == "cycle":
			*out = append(*out, path+k)
		case p.Type == "integer" && strings.Contains(p.Description, "µs") && !slices.Contains([]string{"t_a", "t_b", "t1", "t2", "t_valid", "as_of_tt"}, k):
			*out = append(*out, path+k)
		}
		calendarRuleArgs(p, path+k+".", out)
		if p.Items != nil {
			calendarRuleArgs(p.Items, path+k+"[].", out)
		}
	}
}

func sortedKeys(m map[string]*ops.Schema) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Every operator with a calendar or duration argument, and temporal_paths
// (whose fastest order is a duration), runs in the calendar mode.
func TestCalendarModeCoversDurationOperators(t *testing.T) {
	var covered []string
	for _, op := range append(ops.Names(), "count_temporal_motifs") {
		spec, ok := ops.Lookup(op)
		if !ok {
			continue
		}
		var fields []string
		calendarRuleArgs(spec.Args, "", &fields)
		if _, in := calArgs[op]; in {
			covered = append(covered, op)
			continue
		}
		if len(fields) > 0 {
			t.Errorf("%s has calendar or duration arguments %v but no calendar-mode generator (calArgs)", op, fields)
		}
	}
	if _, in := calArgs["temporal_paths"]; !in {
		t.Error("temporal_paths (order fastest) is not in the calendar mode")
	}
	slices.Sort(covered)
	covered = slices.Compact(covered)
	t.Logf("calendar mode covers %d operators: %s", len(covered), strings.Join(covered, ", "))
}
