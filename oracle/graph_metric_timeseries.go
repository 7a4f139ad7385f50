package oracle

import (
	bt "github.com/tgms-go/tgms/bitemporal"
)

func init() { register("graph_metric_timeseries", graphMetricTimeseries) }

// gmtsBuckets lists the buckets of a window: [t_a + i*stride, min(+stride, t_b)),
// or refuses with E_LIMIT above 2000.
func gmtsBuckets(args map[string]any) ([]bt.Interval, error) {
	w, _ := args["window"].(map[string]any)
	ta, tb, stride := num(w["t_a"]), num(w["t_b"]), num(args["stride"])
	var out []bt.Interval
	for s := ta; s < tb; s += stride {
		if len(out) == 2000 {
			return nil, Refused{"E_LIMIT"}
		}
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
	buckets, err := gmtsBuckets(args)
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
