package oracle

// aggOraclePost applies having, order_by and top the slow way: every
// predicate with rationals, the order by repeated selection of the best
// remaining row (the first in group_key order among equals).
func aggOraclePost(args map[string]any, cols map[string]bool, rows []map[string]any) ([]map[string]any, error) {
	aggCols := map[string]bool{}
	for _, x := range args["aggregates"].([]any) {
		m := x.(map[string]any)
		agg, _ := m["agg"].(string)
		of, _ := m["of"].(string)
		switch agg {
		case "count", "max_gap", "max_in_window", "max_session_span", "returns":
			aggCols[agg] = true
		case "count_distinct":
			aggCols["distinct_"+of] = true
		case "reply_delay":
			st, _ := m["stat"].(string)
			if st == "count" {
				aggCols["replied"] = true
			} else {
				aggCols[st+"_reply_delay"] = true
			}
		case "max_distinct_in_window":
			aggCols["max_distinct_"+of+"_in_window"] = true
		default:
			aggCols[agg+"_"+of] = true
		}
	}
	having, _ := args["having"].([]any)
	for _, h := range having {
		hm := h.(map[string]any)
		if !aggCols[hm["col"].(string)] || !aggIsNumber(hm["value"]) {
			return nil, errInvalid
		}
	}
	order, _ := args["order_by"].([]any)
	for _, o := range order {
		if c := o.(map[string]any)["col"].(string); !cols[c] || c == "group_key" {
			return nil, errInvalid
		}
	}
	var kept []map[string]any
	for _, r := range rows {
		ok := true
		for _, h := range having {
			hm := h.(map[string]any)
			v := r[hm["col"].(string)]
			if !aggIsNumber(v) {
				ok = false
				break
			}
			c := aggRat(v).Cmp(aggRat(hm["value"]))
			pass := map[string]bool{"eq": c == 0, "ne": c != 0, "lt": c < 0, "le": c <= 0, "gt": c > 0, "ge": c >= 0}[hm["cmp"].(string)]
			if !pass {
				ok = false
				break
			}
		}
		if ok {
			kept = append(kept, r)
		}
	}
	if len(order) > 0 {
		// before reports whether row a comes first under the order keys.
		before := func(a, b map[string]any) bool {
			for _, o := range order {
				om := o.(map[string]any)
				x, y := a[om["col"].(string)], b[om["col"].(string)]
				if x == nil || y == nil {
					if (x == nil) != (y == nil) {
						return y == nil
					}
					continue
				}
				var c int
				if aggIsNumber(x) {
					c = aggRat(x).Cmp(aggRat(y))
				} else if xs, ys := x.(string), y.(string); xs != ys {
					c = map[bool]int{true: -1, false: 1}[xs < ys]
				}
				if om["dir"] == "desc" {
					c = -c
				}
				if c != 0 {
					return c < 0
				}
			}
			return false
		}
		var sorted []map[string]any
		used := make([]bool, len(kept))
		for range kept {
			best := -1
			for i, r := range kept {
				if !used[i] && (best < 0 || before(r, kept[best])) {
					best = i
				}
			}
			used[best] = true
			sorted = append(sorted, kept[best])
		}
		kept = sorted
	}
	if t, ok := args["top"].(int64); ok && int64(len(kept)) > t {
		kept = kept[:t]
	}
	if len(order) > 0 {
		for i, r := range kept {
			r["rank"] = int64(i + 1)
		}
	}
	return kept, nil
}
