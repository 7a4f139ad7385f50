package oracle

import (
	bt "github.com/tgms-go/tgms/bitemporal"
)

func init() { register("graph_metric_timeseries", graphMetricTimeseries) }

// gmtsBuckets lists the buckets of a window: [t_a + i*stride, min(+stride, t_b)),
// or refuses with E_LIMIT over maxBuckets (burst_detection: 2000; a series:
// what fits the default memory budget of 256 MiB at 203 bytes a bucket).
func gmtsBuckets(args map[string]any, maxBuckets int64) ([]bt.Interval, error) {
	w, _ := args["window"].(map[string]any)
	ta, tb, stride := num(w["t_a"]), num(w["t_b"]), num(args["stride"])
	if n := (tb-ta-1)/stride + 1; n > maxBuckets {
		return nil, Refused{"E_LIMIT"}
	}
	var out []bt.Interval
	for s := ta; s < tb; s += stride {
		out = append(out, bt.Interval{Start: s, End: min(s+stride, tb)})
	}
	return out, nil
}

// gmtsOccurrences are the believed edge versions that do not continue another
// believed version of their identity.
func gmtsOccurrences(believed []bt.EdgeVersion) []bt.EdgeVersion {
	var out []bt.EdgeVersion
	for _, e := range believed {
		if !continues(e, believed) {
			out = append(out, e)
		}
	}
	return out
}

func graphMetricTimeseries(s *bt.MemStore, args map[string]any) (map[string]any, error) {
	cy, cyclic := args["cycle"].(map[string]any)
	_, strided := args["stride"]
	if cyclic == strided || args["stride"] == nil && !cyclic {
		return nil, Refused{"E_INVALID_ARG"}
	}
	if cyclic {
		return gmtsCycleSeries(s, args, cy)
	}
	buckets, err := gmtsBuckets(args, (256<<20)/203)
	if err != nil {
		return nil, err
	}
	tt := asOf(args)
	nodes := believedNodes(s, tt)
	edges := believedEdges(s, tt)
	occ := gmtsOccurrences(edges)
	nodesAt := func(t bt.Time) int64 {
		var n int64
		for _, v := range nodes {
			if v.Valid.Start <= t && t < v.Valid.End {
				n++
			}
		}
		return n
	}
	edgesAt := func(t bt.Time) int64 {
		var n int64
		for _, e := range edges {
			if e.Valid.Start <= t && t < e.Valid.End {
				n++
			}
		}
		return n
	}
	var rows []map[string]any
	for _, bk := range buckets {
		var value any
		switch args["metric"] {
		case "node_count":
			value = nodesAt(bk.Start)
		case "active_edge_count":
			value = edgesAt(bk.Start)
		case "mean_out_degree":
			n, e := nodesAt(bk.Start), edgesAt(bk.Start)
			if n == 0 {
				value = 0.0
			} else {
				value = float64(e) / float64(n)
			}
		case "edge_event_count":
			var n int64
			for _, e := range occ {
				if bk.Start <= e.Valid.Start && e.Valid.Start < bk.End {
					n++
				}
			}
			value = n
		case "new_node_rate":
			var n int64
			for _, uid := range s.UIDs {
				born, has := bt.Time(0), false
				for _, v := range nodes {
					if v.UID == uid && (!has || v.Valid.Start < born) {
						born, has = v.Valid.Start, true
					}
				}
				if has && bk.Start <= born && born < bk.End {
					n++
				}
			}
			value = n
		case "reciprocity":
			type pair struct{ s, d string }
			set := map[pair]bool{}
			for _, e := range occ {
				if bk.Start <= e.Valid.Start && e.Valid.Start < bk.End {
					set[pair{e.Key.Src, e.Key.Dst}] = true
				}
			}
			recip := 0
			for p := range set {
				if set[pair{p.d, p.s}] {
					recip++
				}
			}
			if len(set) == 0 {
				value = 0.0
			} else {
				value = float64(recip) / float64(len(set))
			}
		}
		rows = append(rows, map[string]any{"t_a": bk.Start, "t_b": bk.End, "value": value})
	}
	return map[string]any{"rows": anyRows(rows), "n_buckets": int64(len(buckets))}, nil
}

// gmtsCycleSeries folds the window by a calendar cycle: per position, the
// metric over the events (births) in the window whose local time is there.
func gmtsCycleSeries(s *bt.MemStore, args map[string]any, cy map[string]any) (map[string]any, error) {
	unit, off := cy["unit"].(string), num(cy["utc_offset_minutes"])
	lo, hi := int64(1), map[string]int64{"hour_of_day": 23, "day_of_week": 7, "day_of_month": 31, "month_of_year": 12}[unit]
	if unit == "hour_of_day" {
		lo = 0
	}
	metric := args["metric"]
	if metric != "edge_event_count" && metric != "new_node_rate" && metric != "reciprocity" {
		return nil, Refused{"E_INVALID_ARG"}
	}
	w, _ := args["window"].(map[string]any)
	ta, tb := num(w["t_a"]), num(w["t_b"])
	tt := asOf(args)
	// times: the event (birth) times in the window.
	var times []bt.Time
	type pair struct{ s, d string }
	var pairs []pair
	if metric == "new_node_rate" {
		nodes := believedNodes(s, tt)
		for _, uid := range s.UIDs {
			born, has := bt.Time(0), false
			for _, v := range nodes {
				if v.UID == uid && (!has || v.Valid.Start < born) {
					born, has = v.Valid.Start, true
				}
			}
			if has && ta <= born && born < tb {
				times = append(times, born)
			}
		}
	} else {
		for _, e := range gmtsOccurrences(believedEdges(s, tt)) {
			if ta <= e.Valid.Start && e.Valid.Start < tb {
				times = append(times, e.Valid.Start)
				pairs = append(pairs, pair{e.Key.Src, e.Key.Dst})
			}
		}
	}
	var rows []map[string]any
	for p := lo; p <= hi; p++ {
		var value any
		var n int64
		set := map[pair]bool{}
		for i, t := range times {
			if aggCycle(unit, off, t) == p {
				n++
				if pairs != nil {
					set[pairs[i]] = true
				}
			}
		}
		value = n
		if metric == "reciprocity" {
			recip := 0
			for q := range set {
				if set[pair{q.d, q.s}] {
					recip++
				}
			}
			value = 0.0
			if len(set) > 0 {
				value = float64(recip) / float64(len(set))
			}
		}
		rows = append(rows, map[string]any{"position": p, "value": value})
	}
	return map[string]any{"rows": anyRows(rows), "n_buckets": hi - lo + 1}, nil
}
