package ops_test

import (
	"cmp"
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

// calData describes a calendar store's events: their distinct times and
// the hop gaps, the time from an event to the first later one that leaves
// its destination (or shares an endpoint with it), where wait, within and
// delta bounds fall.
type calData struct {
	times []bt.Time
	adj   []int64 // differences of event start times k apart in time order, k = 1..3
	n1    int     // adj[:n1] are those of consecutive times
	gaps  []int64
	hops  []calHop
	// lastOffsets are the offsets (minutes) in which some event lies on
	// the last µs of its local day.
	lastOffsets []int64
	evs         []bt.Event
}

// calHop is an event src→mid at t1 followed by the first later event
// leaving mid, at t2, and by the first event after that leaving its
// destination at t3 (0 when none): a path's two or three hops.
type calHop struct {
	src        string
	t1, t2, t3 int64
}

// aim draws a hop, if any: arguments aimed at it put a bound on its gap.
func (cd calData) aim(rng *rand.Rand) (calHop, bool) {
	if len(cd.hops) == 0 || rng.IntN(3) == 0 {
		return calHop{}, false
	}
	return cd.hops[rng.IntN(len(cd.hops))], true
}

// around is a window holding a hop, its edges up to a day away.
func (h calHop) around(rng *rand.Rand) map[string]any {
	end := max(h.t2, h.t3)
	return map[string]any{"t_a": h.t1 - rng.Int64N(calDay), "t_b": end + 1 + rng.Int64N(calDay)}
}

func calDataOf(h []oracle.Batch) calData {
	var cd calData
	var evs []bt.Event
	for _, b := range h {
		for _, op := range b.Ops {
			evs = append(evs, op.Events...)
		}
	}
	for _, ev := range evs {
		for _, off := range calOffsets {
			if l := (ev.VtS + off*60_000_000) % calDay; l == calDay-1 || l == -1 {
				cd.lastOffsets = append(cd.lastOffsets, off)
			}
		}
		cd.times = append(cd.times, ev.VtS)
		if ev.VtE != 0 {
			cd.times = append(cd.times, ev.VtE)
		}
		// The first later event leaving its destination (the next hop
		// of a path or pattern), and the first later one touching it.
		next, touch := int64(-1), int64(-1)
		for _, nx := range evs {
			d := nx.VtS - ev.VtS
			if d <= 0 {
				continue
			}
			if nx.Src == ev.Dst && (next < 0 || d < next) {
				next = d
			}
			if (nx.Src == ev.Src || nx.Dst == ev.Dst || nx.Dst == ev.Src || nx.Src == ev.Dst) && (touch < 0 || d < touch) {
				touch = d
			}
		}
		for _, d := range []int64{next, touch} {
			if d > 0 {
				cd.gaps = append(cd.gaps, d)
			}
		}
		if next > 0 {
			h := calHop{src: ev.Src, t1: ev.VtS, t2: ev.VtS + next}
			for _, nx := range evs { // the third hop, from what the second reached
				if nx.Src == ev.Dst && nx.VtS == h.t2 {
					for _, th := range evs {
						if th.Src == nx.Dst && th.VtS > h.t2 && (h.t3 == 0 || th.VtS < h.t3) {
							h.t3 = th.VtS
						}
					}
				}
			}
			cd.hops = append(cd.hops, h)
		}
	}
	cd.evs = evs
	var starts []int64
	for _, ev := range evs {
		starts = append(starts, ev.VtS)
	}
	slices.Sort(starts)
	starts = slices.Compact(starts)
	for k := 1; k <= 3; k++ {
		for i := k; i < len(starts); i++ {
			cd.adj = append(cd.adj, starts[i]-starts[i-k])
		}
		if k == 1 {
			cd.n1 = len(cd.adj)
		}
	}
	slices.Sort(cd.times)
	cd.times = slices.Compact(cd.times)
	slices.Sort(cd.gaps)
	cd.gaps = slices.Compact(cd.gaps)
	return cd
}

// calTriple is three events on one pair of distinct nodes at increasing
// times: an instance of the two-node motif its directions spell.
type calTriple struct {
	motif  string
	t1, t3 int64
}

// pairTriples lists the two-node motif instances of the store's events
// whose three times differ.
func (cd calData) pairTriples() []calTriple {
	byPair := map[[2]string][]bt.Event{}
	for _, ev := range cd.evs {
		if ev.Src == ev.Dst {
			continue
		}
		k := [2]string{min(ev.Src, ev.Dst), max(ev.Src, ev.Dst)}
		byPair[k] = append(byPair[k], ev)
	}
	var out []calTriple
	for _, es := range byPair {
		slices.SortFunc(es, func(a, b bt.Event) int { return cmp.Compare(a.VtS, b.VtS) })
		for i := range es {
			for j := i + 1; j < len(es); j++ {
				for k := j + 1; k < len(es); k++ {
					if es[i].VtS == es[j].VtS || es[j].VtS == es[k].VtS {
						continue
					}
					row, col := "6", "1" // e2, e3 as e1 (u->v) or reversed
					if es[j].Src != es[i].Src {
						row = "5"
					}
					if es[k].Src != es[i].Src {
						col = "2"
					}
					out = append(out, calTriple{"M" + row + col, es[i].VtS, es[k].VtS})
				}
			}
		}
	}
	return out
}

// distinctJumps are the gaps g (of start times up to three apart) at which
// the most distinct values of (src, dst, node or pair) among the events
// starting in [ta, tb) within a window [t, t+g] exceeds that within
// [t, t+g): spans where an exclusive window end and an inclusive one give
// different max_distinct_in_window answers.
func (cd calData) distinctJumps(of string, ta, tb int64) []int64 {
	var evs []bt.Event
	for _, ev := range cd.evs {
		if ev.VtS >= ta && ev.VtS < tb {
			evs = append(evs, ev)
		}
	}
	slices.SortFunc(evs, func(a, b bt.Event) int { return cmp.Compare(a.VtS, b.VtS) })
	most := func(g int64, closed bool) int {
		best := 0
		for i := range evs {
			seen := map[string]bool{}
			for j := i; j < len(evs); j++ {
				d := evs[j].VtS - evs[i].VtS
				if d > g || d == g && !closed {
					break
				}
				switch e := evs[j]; of {
				case "src":
					seen[e.Src] = true
				case "dst":
					seen[e.Dst] = true
				case "pair":
					seen[e.Src+"\x00"+e.Dst] = true
				default:
					seen[e.Src], seen[e.Dst] = true, true
				}
			}
			best = max(best, len(seen))
		}
		return best
	}
	gs := slices.Clone(cd.adj)
	slices.Sort(gs)
	var out []int64
	for _, g := range slices.Compact(gs) {
		if g >= 1 && most(g, true) > most(g, false) {
			out = append(out, g)
		}
	}
	return out
}

// calDur draws a duration of at least 1 µs: half the time a hop gap (on
// it mostly, or one µs either side), a quarter the gap between any two
// event times, otherwise a calendar length (an hour, a day, a week, a few
// days) or one µs off it.
func calDur(rng *rand.Rand, cd calData) int64 {
	off := []int64{0, 0, 0, 0, -1, 1}[rng.IntN(6)]
	ts := cd.times
	switch r := rng.IntN(4); {
	case r < 2 && len(cd.gaps) > 0:
		return max(1, cd.gaps[rng.IntN(len(cd.gaps))]+off)
	case r < 3 && len(ts) >= 2:
		i, j := rng.IntN(len(ts)), rng.IntN(len(ts))
		return max(1, ts[max(i, j)]-ts[min(i, j)]+off)
	}
	base := []int64{calHour, calDay, 7 * calDay, 3 * calDay, 330 * 60_000_000, calDay / 2}[rng.IntN(6)]
	return max(1, base+int64(rng.IntN(3))-1)
}

// alignedWindow is, half the time, a window starting on an event time, so
// that bucket starts t_a + i*stride (stride a day, an hour or a week) fall
// on the events that lie on the same local time of other days; otherwise
// calWindow.
func alignedWindow(rng *rand.Rand, cd calData) map[string]any {
	w := calWindow(rng)
	if len(cd.times) > 0 && rng.IntN(2) == 0 {
		a := cd.times[rng.IntN(len(cd.times))] - int64(rng.IntN(2))*calDay
		w = map[string]any{"t_a": a, "t_b": a + (2+rng.Int64N(20))*calDay + rng.Int64N(3) - 1}
	}
	return w
}

// calUID is one of the calendar stores' uids.
func calUID(rng *rand.Rand) string { return []string{"a", "b", "c", "d"}[rng.IntN(4)] }

func init() {
	calArgs["count_temporal_motifs"] = func(rng *rand.Rand, cd calData) map[string]any {
		spec, _ := ops.Lookup("count_temporal_motifs")
		motifs := spec.Args.Properties["motif"].Enum
		args := map[string]any{"motif": motifs[rng.IntN(len(motifs))], "delta": calDur(rng, cd), "window": calWindow(rng)}
		if h, ok := cd.aim(rng); ok && h.t3 > 0 {
			args["delta"], args["window"] = h.t3-h.t1, h.around(rng) // a three-event instance exactly delta long
		}
		if ts := cd.pairTriples(); len(ts) > 0 && rng.IntN(3) == 0 {
			// A two-node instance exactly delta long: that motif is
			// counted by the per-pair kernel, not along the hops.
			tr := ts[rng.IntN(len(ts))]
			args["motif"], args["delta"] = tr.motif, tr.t3-tr.t1
			args["window"] = map[string]any{"t_a": tr.t1 - rng.Int64N(calDay), "t_b": tr.t3 + 1 + rng.Int64N(calDay)}
		}
		return args
	}
	calArgs["find_temporal_motif_instances"] = func(rng *rand.Rand, cd calData) map[string]any {
		spec, _ := ops.Lookup("find_temporal_motif_instances")
		motifs := spec.Args.Properties["motif"].Enum
		w := calWindow(rng)
		if rng.IntN(2) == 0 {
			w = map[string]any{"t_a": calBase - calDay, "t_b": calBase + 23*calDay} // every event
		}
		args := map[string]any{"motif": motifs[rng.IntN(len(motifs))], "delta": max(calDur(rng, cd), calDay*int64(rng.IntN(8))), "window": w}
		if h, ok := cd.aim(rng); ok && h.t3 > 0 {
			args["delta"] = h.t3 - h.t1 // over every event: instances exactly delta long
			args["window"] = map[string]any{"t_a": calBase - calDay, "t_b": calBase + 23*calDay}
		}
		return args
	}
	calArgs["temporal_reachability"] = func(rng *rand.Rand, cd calData) map[string]any {
		args := map[string]any{"src": calUID(rng), "window": calWindow(rng), "direction": []string{"out", "in", "both"}[rng.IntN(3)]}
		if rng.IntN(4) > 0 {
			args["delta_max_wait"] = calDur(rng, cd)
		}
		if h, ok := cd.aim(rng); ok {
			// A wait of exactly delta_max_wait at the hop's middle node.
			args["src"], args["window"], args["delta_max_wait"], args["direction"] = h.src, h.around(rng), h.t2-h.t1, "out"
		}
		return args
	}
	calArgs["longest_temporal_path"] = func(rng *rand.Rand, cd calData) map[string]any {
		args := map[string]any{"window": calWindow(rng)}
		if rng.IntN(2) == 0 {
			args["src"] = calUID(rng)
		}
		if rng.IntN(4) > 0 {
			args["delta_max_wait"] = calDur(rng, cd)
		}
		if h, ok := cd.aim(rng); ok {
			args["src"], args["window"], args["delta_max_wait"] = h.src, h.around(rng), h.t2-h.t1
		}
		return args
	}
	calArgs["temporal_paths"] = func(rng *rand.Rand, cd calData) map[string]any {
		w := calWindow(rng)
		if rng.IntN(2) == 0 {
			w = map[string]any{"t_a": calBase - calDay, "t_b": calBase + 23*calDay} // every event
		}
		return map[string]any{"src": calUID(rng), "dst": calUID(rng), "window": w,
			"k": int64(1 + rng.IntN(6)), "order": []string{"earliest_arrival", "fastest", "fewest_hops"}[rng.IntN(3)]}
	}
	calArgs["neighborhood_evolution"] = func(rng *rand.Rand, cd calData) map[string]any {
		t1 := calTime(rng)
		if ts := cd.times; len(ts) > 0 && rng.IntN(2) == 0 {
			t1 = ts[rng.IntN(len(ts))] + int64(rng.IntN(3)) - 1
		}
		t2 := t1 + calDur(rng, cd)
		args := map[string]any{"uid": calUID(rng), "t1": t1, "t2": t2}
		if rng.IntN(2) == 0 {
			args["stride"] = max((t2-t1+1999)/2000, []int64{calHour, calDay, calDay / 2}[rng.IntN(3)]+int64(rng.IntN(3))-1)
		}
		return args
	}
	calArgs["co_active"] = func(rng *rand.Rand, cd calData) map[string]any {
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
			ar["gap"] = calDur(rng, cd)
		}
		return map[string]any{"a_spec": side(), "b_spec": side(), "allen_relation": ar}
	}
	calArgs["burst_detection"] = func(rng *rand.Rand, cd calData) map[string]any {
		target := map[string]any{"kind": "edge_event_rate"}
		if rng.IntN(3) == 0 {
			target = map[string]any{"kind": "node_activity", "uid": calUID(rng)}
		}
		method := []string{"zscore", "ratio", "kleinberg"}[rng.IntN(3)]
		w := alignedWindow(rng, cd)
		width := w["t_b"].(int64) - w["t_a"].(int64)
		stride := []int64{calHour, calDay, calDay / 4, 7 * calDay}[rng.IntN(4)]
		if rng.IntN(2) == 0 {
			stride += int64(rng.IntN(3)) - 1
		}
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
	calArgs["aggregate_events"] = func(rng *rand.Rand, cd calData) map[string]any {
		if rng.IntN(2) == 0 {
			return prevAgg(rng, cd) // calendar buckets and cycles
		}
		d := calDur(rng, cd)
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
		groups := []any{map[string]any{"dim": "rel_type"}}
		switch rng.IntN(3) {
		case 0:
			groups = []any{map[string]any{"dim": "time_bucket", "stride": []int64{d, calDay, calHour}[rng.IntN(3)]}}
		case 1:
			groups = []any{map[string]any{"dim": "pair"}}
		}
		w := alignedWindow(rng, cd)
		if cd.n1 > 0 && rng.IntN(2) == 0 {
			// A bound on a gap that occurs: sessions split, returns counted
			// and span windows closed exactly there.
			w = map[string]any{"t_a": calBase - calDay, "t_b": calBase + 23*calDay}
			g, g1 := cd.adj[rng.IntN(len(cd.adj))], cd.adj[rng.IntN(cd.n1)]
			aggs = [][]any{
				{map[string]any{"agg": "max_session_span", "gap": g1}},
				{map[string]any{"agg": "returns", "gap": g1}},
				{map[string]any{"agg": "max_in_window", "span": []int64{g, 1, 2, 3}[rng.IntN(4)]}}, // µs: across a cluster at one local midnight
				{map[string]any{"agg": "max_distinct_in_window", "of": "pair", "span": g}},
			}[rng.IntN(4)]
			if of := []string{"src", "dst", "node", "pair"}[rng.IntN(4)]; rng.IntN(2) == 0 {
				// A span at which closing the window's end raises the most
				// distinct values: other gaps' windows seldom leave it there.
				if js := cd.distinctJumps(of, w["t_a"].(int64), w["t_b"].(int64)); len(js) > 0 {
					aggs = []any{map[string]any{"agg": "max_distinct_in_window", "of": of, "span": js[rng.IntN(len(js))]}}
				}
			}
			groups = []any{map[string]any{"dim": "time_bucket", "stride": int64(25 * calDay)}} // one bucket: every event
		}
		if g := groups[0].(map[string]any); g["stride"] != nil && d < (w["t_b"].(int64)-w["t_a"].(int64))/1500 {
			g["stride"] = calDay // few enough buckets
		}
		return map[string]any{"window": w, "aggregates": aggs, "group_by": groups}
	}
	prevGMTS := calArgs["graph_metric_timeseries"]
	calArgs["graph_metric_timeseries"] = func(rng *rand.Rand, cd calData) map[string]any {
		if rng.IntN(2) == 0 {
			return prevGMTS(rng, cd) // calendar cycles
		}
		stride := []int64{calHour, calDay, 7 * calDay, calDay / 3}[rng.IntN(4)]
		if rng.IntN(2) == 0 {
			stride += int64(rng.IntN(3)) - 1
		}
		return map[string]any{"metric": gmtsMetrics[rng.IntN(len(gmtsMetrics))], "window": alignedWindow(rng, cd), "stride": stride}
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
		case p.Type == "integer" && strings.Contains(p.Description, "µs") && !slices.Contains([]string{"t_a", "t_b", "t1", "t2", "t_valid", "as_of_tt", "at"}, k):
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
