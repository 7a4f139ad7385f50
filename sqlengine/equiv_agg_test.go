package sqlengine

import "math/rand/v2"

// aggCalls draws aggregate_events calls: every dimension, the aggregates
// that read durations, props, times and endpoints, and the filters the
// SQL pushes down (rel_types, endpoint_filter), at the belief times asOfs.
func aggCalls(rng *rand.Rand, asOfs []any) []map[string]any {
	uids := []string{"a", "b", "c", "d", "e", "f", "zz"}
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	roles := []string{"src", "dst", "either"}
	dims := []func() map[string]any{
		func() map[string]any { return map[string]any{"dim": "time_bucket", "stride": int64(1 + rng.IntN(40))} },
		func() map[string]any { return map[string]any{"dim": "endpoint", "role": pick(roles)} },
		func() map[string]any { return map[string]any{"dim": "label", "role": pick(roles)} },
		func() map[string]any { return map[string]any{"dim": "rel_type"} },
		func() map[string]any {
			return map[string]any{"dim": "time_bucket", "unit": "day", "utc_offset_minutes": int64(rng.IntN(3) * 60)}
		},
		func() map[string]any {
			return map[string]any{"dim": "calendar_cycle", "cycle": "hour_of_day", "utc_offset_minutes": int64(0)}
		},
		func() map[string]any {
			return map[string]any{"dim": "pair", "pair_mode": pick([]string{"directed", "undirected"})}
		},
	}
	aggs := []func() map[string]any{
		func() map[string]any { return map[string]any{"agg": "count"} },
		func() map[string]any {
			return map[string]any{"agg": "count_distinct", "of": pick([]string{"src", "dst", "node", "pair"})}
		},
		func() map[string]any { return map[string]any{"agg": "sum", "of": "duration"} },
		func() map[string]any { return map[string]any{"agg": "max", "of": "duration"} },
		func() map[string]any { return map[string]any{"agg": "mean", "of": "prop", "prop": "w"} },
		func() map[string]any { return map[string]any{"agg": "min", "of": "vt_s"} },
		func() map[string]any { return map[string]any{"agg": "first", "of": pick([]string{"src", "dst"})} },
		func() map[string]any { return map[string]any{"agg": "max_gap"} },
		func() map[string]any { return map[string]any{"agg": "reply_delay", "stat": "median"} },
		func() map[string]any {
			return map[string]any{"agg": "last_k", "k": int64(1 + rng.IntN(3)), "stat": "sum", "of": "duration"}
		},
	}
	var out []map[string]any
	for range 60 {
		ta := int64(rng.IntN(120)) - 10
		var gb []any
		used := map[int]bool{}
		for range rng.IntN(3) {
			if i := rng.IntN(len(dims)); !used[i] {
				used[i] = true
				gb = append(gb, dims[i]())
			}
		}
		if gb == nil {
			gb = []any{}
		}
		var as []any
		seen := map[int]bool{}
		for range 1 + rng.IntN(3) {
			if i := rng.IntN(len(aggs)); !seen[i] {
				seen[i] = true
				as = append(as, aggs[i]())
			}
		}
		args := map[string]any{"window": map[string]any{"t_a": ta, "t_b": ta + 1 + int64(rng.IntN(130))},
			"group_by": gb, "aggregates": as, "limit": int64(1 + rng.IntN(8))}
		if rng.IntN(3) == 0 {
			args["rel_types"] = []any{pick([]string{"R", "S"})}
		}
		if rng.IntN(3) == 0 {
			var f []any
			for range rng.IntN(4) {
				f = append(f, pick(uids))
			}
			if f == nil {
				f = []any{}
			}
			args["endpoint_filter"] = map[string]any{"role": pick(roles), "uids": f}
		}
		if rng.IntN(5) == 0 {
			args["prop_filter"] = map[string]any{"prop": "w", "cmp": "ge", "value": int64(1)}
		}
		if asOf := asOfs[rng.IntN(len(asOfs))]; asOf != nil {
			args["as_of_tt"] = asOf
		}
		out = append(out, map[string]any{"op": "aggregate_events", "args": args})
	}
	return out
}
