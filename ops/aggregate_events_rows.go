package ops

import "slices"

func aggRows(c *Call, p *aggPlan, gs []*aggGroup, stream bool, distinct [][4]int64, calFirst []int64, labelNames []string, coercion map[string]int64, needProps bool) (map[string]any, error) {
	r := c.R
	rows := make([]map[string]any, 0, len(gs))
	kProps := aggProps{} // first_k, last_k: the selected events' props
	for gi, g := range gs {
		if err := c.Work(1 + int64(len(g.times)+len(g.wev)+len(g.kev))); err != nil {
			return nil, err
		}
		row := map[string]any{}
		gk := make([]any, 0, p.slots)
		for di, d := range p.dims {
			switch d.kind {
			case aggDimTime:
				if d.stride > 0 {
					ta := p.w.Start + g.key[d.slot]*d.stride
					row["t_a"], row["t_b"] = ta, min(ta+d.stride, p.w.End)
					gk = append(gk, ta)
				} else {
					sd, ed := aggCalFromIndex(d.unit, calFirst[di]+g.key[d.slot])
					ta := max(sd*aggDayUS-d.off, p.w.Start)
					row["t_a"], row["t_b"] = ta, min(ed*aggDayUS-d.off, p.w.End)
					row["bucket"] = aggCalName(d.unit, sd)
					gk = append(gk, ta)
				}
			case aggDimEndpoint:
				u := r.UID(uint32(g.key[d.slot]))
				row[[]string{"src", "dst", "node"}[d.role]] = u
				gk = append(gk, u)
			case aggDimLabel:
				var l any
				if id := g.key[d.slot]; id > 0 {
					l = labelNames[id-1]
				}
				row[[]string{"src_label", "dst_label", "node_label"}[d.role]] = l
				gk = append(gk, l)
			case aggDimCycle:
				row[d.unit] = g.key[d.slot]
				gk = append(gk, g.key[d.slot])
			case aggDimRel:
				rel := r.RelName(uint32(g.key[d.slot]))
				row["rel_type"] = rel
				gk = append(gk, rel)
			case aggDimPair:
				a, b := r.UID(uint32(g.key[d.slot])), r.UID(uint32(g.key[d.slot+1]))
				if d.undirected {
					row["node_a"], row["node_b"] = a, b
				} else {
					row["src"], row["dst"] = a, b
				}
				gk = append(gk, a, b)
			}
		}
		row["group_key"] = gk
		ts := g.times
		if !slices.IsSorted(ts) {
			slices.Sort(ts)
		}
		var delays []int64 // reply_delay: each replied event's delay, sorted
		kSorted := false   // first_k, last_k: g.kev in order
		for _, a := range p.aggs {
			var val any
			switch a.agg {
			case "count":
				val = g.count
			case "count_distinct":
				val = distinct[gi][slices.Index([]string{"src", "dst", "node", "pair"}, a.of)]
			case "sum":
				s, err := g.accOf(a.src).sum()
				if err != nil {
					return nil, err
				}
				val = s
			case "mean":
				val = g.accOf(a.src).mean()
			case "min", "max":
				acc := g.accOf(a.src)
				if acc.s.n > 0 {
					if a.agg == "min" {
						val = acc.min.value()
					} else {
						val = acc.max.value()
					}
				}
			case "first", "last":
				if g.ends {
					id := g.fSrc
					switch a.col {
					case "first_dst":
						id = g.fDst
					case "last_src":
						id = g.lSrc
					case "last_dst":
						id = g.lDst
					}
					val = r.UID(id)
				}
			case "max_gap":
				if stream {
					if g.count >= 2 {
						val = g.sGap
					}
				} else if len(ts) >= 2 {
					best := int64(0)
					for i := 1; i < len(ts); i++ {
						best = max(best, ts[i]-ts[i-1])
					}
					val = best
				}
			case "max_session_span":
				if stream {
					if g.count >= 1 {
						val = g.sSpan
					}
				} else if len(ts) >= 1 {
					best, first := int64(0), ts[0]
					for i := 1; i < len(ts); i++ {
						if ts[i]-ts[i-1] > a.gap {
							first = ts[i]
						}
						best = max(best, ts[i]-first)
					}
					val = best
				}
			case "reply_delay":
				if delays == nil {
					delays = aggReplyDelays(g.wev, p.replyTimes)
				}
				val = aggDelayStat(delays, a.of)
			case "max_distinct_in_window":
				val = aggMaxDistinctInWindow(g.wev, a.of, a.span)
			case "first_k", "last_k":
				if !kSorted {
					aggSortKEvs(r, g.kev)
					kSorted = true
				}
				v, err := aggKStat(r, kProps, p.prop, aggKSelect(g.kev, a.k, a.agg == "last_k"), a)
				if err != nil {
					return nil, err
				}
				val = v
			case "returns":
				n := int64(0)
				for i := 1; i < len(ts); i++ {
					if ts[i]-ts[i-1] > a.gap {
						n++
					}
				}
				val = n
			case "max_in_window":
				best, j := int64(0), 0
				for i, t := range ts {
					for j < len(ts) && ts[j] < t+a.span {
						j++
					}
					best = max(best, int64(j-i))
				}
				val = best
			}
			row[a.col] = val
		}
		rows = append(rows, row)
	}
	out := aggResult(p, rows)
	if needProps {
		pc := map[string]any{}
		for k, v := range coercion {
			pc[k] = v
		}
		out["prop_coercion"] = pc
	}
	return out, nil
}

// aggResult is the payload of the grouped rows: in group_key order,
// narrowed by having, order_by and top (groups_total then counts the
// groups before narrowing).
func aggResult(p *aggPlan, rows []map[string]any) map[string]any {
	slices.SortFunc(rows, func(x, y map[string]any) int {
		return compareKeys(x["group_key"].([]any), y["group_key"].([]any))
	})
	groups := int64(len(rows))
	rows = aggNarrow(p, rows)
	out := map[string]any{"rows": rowsOf(rows)}
	if len(p.having) > 0 || p.top > 0 {
		out["groups_total"] = groups
	}
	return out
}
