package ops

// motifFindMaxRows bounds the instances find_temporal_motif_instances
// lists (all pages together).
const motifFindMaxRows = 100_000

func init() {
	Register(&Spec{
		Name:    "find_temporal_motif_instances",
		Summary: "List the instances of a 3-edge δ-temporal motif among the events of a window, paged.",
		Doc: motifEventsDoc + `rows are the instances as {edges: [e1, e2, e3]}, each edge {src, dst, t,
eid, rel_type}, ordered by ((t1, eid1), (t2, eid2), (t3, eid3)) and paged by
the cursor; rows_total equals count_temporal_motifs' count for the same
arguments. A call whose instances number more than 100,000 is refused with
E_LIMIT (details.count holds the number): narrow the window, lower delta or
add a node_filter, or ask count_temporal_motifs for the number.

` + motifCatalogDoc() + motifErrorsDoc,
		Args: motifArgs(true),
		Result: Paged("motif instances", Obj("one instance", map[string]*Schema{
			"edges": Arr("the instance's events e1, e2, e3 in motif order", Obj("an event", map[string]*Schema{
				"src":      UIDField("source node"),
				"dst":      UIDField("destination node"),
				"t":        Int("event time: valid start of the occurrence (µs)"),
				"eid":      Str("edge identity id"),
				"rel_type": Str("relation type"),
			})),
		}), nil),
		Order:  "instances by ((t1, eid1), (t2, eid2), (t3, eid3))",
		Paged:  true,
		RowKey: motifRowKey,
		Cost:   func(c *Call) Cost { return motifCost(c, true) },
		Run:    runFindTemporalMotifInstances,
	})
}

// motifRowKey is (t1, eid1, t2, eid2, t3, eid3).
func motifRowKey(row map[string]any) []any {
	edges, _ := row["edges"].([]any)
	key := make([]any, 0, 6)
	for _, e := range edges {
		m, _ := e.(map[string]any)
		key = append(key, m["t"], m["eid"])
	}
	return key
}

func runFindTemporalMotifInstances(c *Call) (map[string]any, error) {
	d, ev, err := motifPrepare(c)
	if err != nil {
		return nil, err
	}
	delta := c.Int("delta")
	n, err := motifCountFast(c, ev, d, delta)
	if err != nil {
		return nil, err
	}
	if n > motifFindMaxRows {
		return nil, Errorf(ELimit, map[string]any{"count": n, "max": motifFindMaxRows,
			"hint": "narrow the window, lower delta or add a node_filter; count_temporal_motifs gives the number"},
			"%d motif instances, more than %d can be listed", n, motifFindMaxRows)
	}
	if !ev.indexed {
		ev.index()
	}
	rows := make([]any, 0, n)
	edgeRows := make([]map[string]any, len(ev.t))
	edge := func(i int32) map[string]any {
		if edgeRows[i] == nil {
			edgeRows[i] = ev.edgeRow(c.R, i)
		}
		return edgeRows[i]
	}
	hi := ev.horizon(delta)
	var bind [4]int32
	for i := range int32(len(ev.t)) {
		end := hi[i]
		if end-i < 3 {
			continue
		}
		bind = [4]int32{ev.src[i], ev.dst[i], -1, -1}
		cand := motifCandidates(ev, d.pat[1], &bind, i, end)
		if err := c.Work(int64(len(cand)) + 1); err != nil {
			return nil, err
		}
		for _, j := range cand {
			f2 := motifBindFree(ev, d.pat[1], &bind, j)
			if f2 == -2 {
				continue
			}
			third := motifCandidates(ev, d.pat[2], &bind, j, end)
			if err := c.Work(int64(len(third))); err != nil {
				return nil, err
			}
			for _, k := range third {
				f3 := motifBindFree(ev, d.pat[2], &bind, k)
				if f3 == -2 {
					continue
				}
				rows = append(rows, map[string]any{"edges": []any{edge(i), edge(j), edge(k)}})
				if f3 >= 0 {
					bind[f3] = -1
				}
			}
			if f2 >= 0 {
				bind[f2] = -1
			}
		}
	}
	return map[string]any{"rows": rows}, nil
}
