package ops

import (
	"math"
)

// motifEventsDoc is the shared part of the two motif operators' manuals.
const motifEventsDoc = `δ-temporal motifs (Paranjape, Benson & Leskovec, WSDM 2017). Events are the
believed edge occurrences (as of as_of_tt) whose event time t lies in the
window, t_a <= t < t_b. An occurrence is counted once: a version that
continues another believed version of the same identity (a fragment left
when a correction or retraction carved an interval) is not a new event; the
event time is the valid start of the first fragment. rel_type and labels are
ignored. With node_filter, only events whose source and destination are both
in the filter take part (every motif node is then in the filter); an empty
filter means no events. Self-loops never take part in a motif.

Events are totally ordered by (t, eid), eid compared as a string: this
breaks timestamp ties, so events with equal t can form a motif, the eid
order deciding which is first. An instance is an ordered triple of distinct
events e1 < e2 < e3 in that order with t3 - t1 <= delta whose endpoints fit
the motif's pattern with all node variables bound to pairwise distinct
nodes.

`

// motifErrorsDoc lists the refusals of both operators, in the order they
// are checked.
const motifErrorsDoc = `

Errors, checked in this order: mode "sample" is E_INVALID_ARG (not
implemented); an unknown uid in node_filter is E_NOT_FOUND (path
/node_filter/<i>); more than 5,000,000 window events without node_filter is
E_INVALID_ARG. delta < 1, an unknown motif or a bad window is E_SCHEMA /
E_INVALID_ARG from the argument check.`

// motifArgs is the argument schema of both operators.
func motifArgs(paged bool) *Schema {
	props := map[string]*Schema{
		"motif":  Enum(motifCatalogDoc(), motifNames()...),
		"delta":  Int("the largest span t3 - t1 of an instance (µs), at least 1").Range(1, 1<<62),
		"window": Window(),
		"node_filter": (&Schema{Type: "array", Description: "every motif node must be one of these uids (null: all nodes; []: no events)",
			Items: UIDField("a node uid"), MaxItems: 10_000}).OrNull(),
		"as_of_tt": AsOfTT(),
		"mode":     Enum(`"exact" (default); "sample" is not implemented and refused`, "exact", "sample").Def("exact"),
		"seed":     Int("unused (reserved for sampling)").OrNull(),
	}
	if paged {
		props["limit"] = Limit()
		props["cursor"] = Cursor()
	}
	return Obj("", props, "motif", "delta", "window")
}

func init() {
	Register(&Spec{
		Name:    "count_temporal_motifs",
		Summary: "Count the instances of a 3-edge δ-temporal motif among the events of a window.",
		Doc: motifEventsDoc + `Returns {count, n_events_in_window, truncated: false}: count is the exact
number of instances; n_events_in_window the number of events in the window
after the node filter, self-loops included. count equals rows_total of
find_temporal_motif_instances with the same arguments.

Counting never lists instances: two-node motifs use the linear three-event
counter per node pair, star motifs a linear per-centre counter with
per-neighbour window sums, triangles and the four-node path a δ-window
count with binary searches in per-pair event lists.

` + motifCatalogDoc() + motifErrorsDoc,
		Args: motifArgs(false),
		Result: Obj("", map[string]*Schema{
			"count":              Int("number of motif instances"),
			"n_events_in_window": Int("events in the window after the node filter (self-loops included)"),
			"truncated":          Bool("always false: the count is exact"),
		}),
		Order: "no rows",
		Cost:  func(c *Call) Cost { return motifCost(c, false) },
		Run:   runCountTemporalMotifs,
	})
}

// motifPrepare checks the mode, resolves the motif and collects the events.
func motifPrepare(c *Call) (*motifDef, *motifEvents, error) {
	if c.Str("mode") == "sample" {
		return nil, nil, Errorf(EInvalidArg, map[string]any{"path": "/mode", "hint": `use mode "exact" with a node_filter or a narrower window`},
			`mode "sample" is not implemented`)
	}
	d, ok := motifByName[c.Str("motif")]
	if !ok { // the schema's enum already refuses unknown names
		return nil, nil, Errorf(ESchema, map[string]any{"path": "/motif", "allowed": motifNames()}, "unknown motif %q", c.Str("motif"))
	}
	ev, err := motifCollect(c)
	if err != nil {
		return nil, nil, err
	}
	return d, ev, nil
}

func runCountTemporalMotifs(c *Call) (map[string]any, error) {
	d, ev, err := motifPrepare(c)
	if err != nil {
		return nil, err
	}
	n, err := motifCountFast(c, ev, d, c.Int("delta"))
	if err != nil {
		return nil, err
	}
	return map[string]any{"count": n, "n_events_in_window": ev.total, "truncated": false}, nil
}

// motifCost estimates the work of a motif call from store statistics: the
// events in the window (bounded by the filter's share of the edges), and
// for the δ-window counters the second-edge candidates, about one node's
// events within delta per first edge. find adds the instances it lists.
func motifCost(c *Call, find bool) Cost {
	st := c.Stats
	w := c.Window("window")
	wf := c.WindowFraction(w)
	nev := float64(st.EdgeVersions)
	ef := math.Floor(nev * wf)
	rows := ef
	if c.Has("node_filter") {
		k := float64(len(c.Strings("node_filter")))
		meanDeg := math.Max(1, nev/math.Max(1, float64(st.Nodes)))
		rows = k*meanDeg*wf + k
		ef = math.Min(ef, math.Floor(k*meanDeg*wf)+1)
		if k == 0 {
			ef, rows = 0, 0
		}
	}
	density := 1.0
	if span := float64(st.VtMax-st.VtMin) * wf; span > 0 {
		density = math.Min(1, float64(c.Int("delta"))/span)
	}
	exp := 2 * ef
	d := motifByName[c.Str("motif")]
	if d == nil || find || (d.kind != motifTwoNode && d.kind != motifStar && d.kind != motifStarOut4) {
		perNode := 2 * ef * density / math.Max(1, float64(st.Nodes))
		exp += ef * math.Ceil(perNode)
		if find {
			exp += ef * math.Ceil(perNode) * math.Ceil(perNode)
		}
	}
	return Cost{Rows: int64(math.Min(rows, 1<<40)), Expansions: int64(math.Min(exp, 1<<40))}
}
