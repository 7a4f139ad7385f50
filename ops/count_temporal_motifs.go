package ops

import (
	"cmp"
	"math"
	"slices"

	bt "github.com/tgms-go/tgms/bitemporal"
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
implemented); more than 5,000,000 window events without node_filter is
E_INVALID_ARG. delta < 1, an unknown motif or a bad window is E_SCHEMA /
E_INVALID_ARG from the argument check. A uid in node_filter the store does
not know at as_of_tt matches no event (not E_NOT_FOUND): with only unknown
uids the count is 0.`

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

// motifCost estimates the work of a motif call: the events in the window
// (bounded by the filter's share of the edges), and for the δ-window
// counters (triangles, the four-node path, and every call of the instance
// lister) the second-edge candidates: the events at a first edge's
// endpoints within delta after it. find adds the instances it lists.
//
// When the call has a store and no node_filter, the candidates are
// measured on a sample of the window's events (motifSampledCandidates);
// otherwise they come from the statistics alone, about one node's share of
// the events within delta per first edge, which undercounts on stores
// whose events cluster in time or at hubs.
//
// Calibration (count_temporal_motifs, full window, on 'tgms synth --events
// 1000000 --seed 1': 1,355,604 edge versions on 20,122 nodes, mean degree
// 135, degree-weighted mean degree 2,420; one core of a 2-core machine
// loaded by parallel builds, so times vary by about 1.5x). The
// statistics-only model estimated 4.1M expansions for every triangle and
// four-node-path count with delta up to 1 h, while those took 7 to 28 s: the
// same-node event pairs within 1 h number 258M, 90 times what a uniform
// spread of the events in time predicts. With sampled candidates the
// estimates before weighting were 17.4M, 64.5M and 244M expansions at delta
// 3 min, 15 min and 1 h; measured: cyclic triangle 2.5 s, 4.0 s, 9.3 s;
// acyclic triangle 0.7 s, 2.1 s, 14.7 s; four-node path 2.8 s, 10.3 s,
// 28.0 s (delta 3 h: estimate 691M, refused). The weights (motifWeight) put
// the estimates at about MaxExpansionsEst/60 units per second of measured
// time, so the expansion ceiling (MaxExpansionsEst) admits calls of about
// a minute, the default deadline of a call and of a plan.
func motifCost(c *Call, find bool) Cost {
	st := c.Stats
	w := c.Window("window")
	wf := c.WindowFraction(w)
	nev := float64(st.EdgeVersions)
	ef := math.Floor(nev * wf)
	rows := ef
	filtered := c.Has("node_filter")
	if filtered {
		k := float64(len(c.Strings("node_filter")))
		meanDeg := math.Max(1, nev/math.Max(1, float64(st.Nodes)))
		rows = k*meanDeg*wf + k
		ef = math.Min(ef, math.Floor(k*meanDeg*wf)+1)
		if k == 0 {
			ef, rows = 0, 0
		}
	}
	exp := 2 * ef
	d := motifByName[c.Str("motif")]
	if d == nil || find || (d.kind != motifTwoNode && d.kind != motifStar && d.kind != motifStarOut4) {
		delta := c.Int("delta")
		perEdge, sampled := 0.0, false
		if !filtered {
			perEdge, sampled = motifSampledCandidates(c, w, delta)
		}
		if !sampled {
			density := 1.0
			if span := float64(st.VtMax-st.VtMin) * wf; span > 0 {
				density = math.Min(1, float64(delta)/span)
			}
			perEdge = math.Ceil(2 * ef * density / math.Max(1, float64(st.Nodes)))
		}
		weight := motifWeight(d)
		exp += ef * perEdge * weight
		if find {
			exp += ef * perEdge * perEdge
		}
	}
	return Cost{Rows: int64(math.Min(rows, 1<<40)), Expansions: int64(math.Min(exp, 1<<40))}
}

// motifWeight is the measured cost of one second-edge candidate of a
// δ-window counter relative to the calibrated rate (MaxExpansionsEst
// units over a one-minute deadline, see motifCost): the four-node path
// looks its third edge up in adjacency lists less the pair lists towards
// every bound node, a triangle in one pair list.
func motifWeight(d *motifDef) float64 {
	if d != nil && d.kind == motifOther {
		return motifWeightPath
	}
	return motifWeightTriangle
}

// Fitted on the calibration store (see motifCost).
const (
	motifWeightTriangle = 0.5
	motifWeightPath     = 1.0
)

// motifSampleSize is how many window events motifSampledCandidates looks at.
const motifSampleSize = 256

// motifSampleMin is the window size below which sampling is not worth it:
// the statistics bound such a call well enough.
const motifSampleMin = 20_000

// motifSampledCandidates measures, on up to motifSampleSize events spread
// over the window, the mean number of events at either endpoint of an
// event that start at most delta after it: the second-edge candidates of
// the δ-window counters. ok is false when the call has no store or the
// window holds fewer than motifSampleMin events.
func motifSampledCandidates(c *Call, w bt.Interval, delta int64) (perEdge float64, ok bool) {
	r := c.R
	if r == nil {
		return 0, false
	}
	n := 0
	r.EachStartingIn(w, func(uint32) { n++ })
	if n < motifSampleMin {
		return 0, false
	}
	stride := n / motifSampleSize
	type lists struct{ out, in []uint32 }
	adj := map[uint32]lists{}
	near := func(node uint32, t int64) int {
		l, seen := adj[node]
		if !seen {
			l = lists{r.Out(node), r.In(node)}
			adj[node] = l
		}
		k := 0
		for _, list := range [][]uint32{l.out, l.in} {
			lo, _ := slices.BinarySearchFunc(list, t, func(v uint32, t int64) int { return cmp.Compare(r.Valid(v).Start, t) })
			hi, _ := slices.BinarySearchFunc(list, t+delta+1, func(v uint32, t int64) int { return cmp.Compare(r.Valid(v).Start, t) })
			k += hi - lo
		}
		return k
	}
	i, taken, sum := 0, 0, 0
	r.EachStartingIn(w, func(v uint32) {
		if i%stride == 0 && taken < motifSampleSize {
			t := r.Valid(v).Start
			sum += near(r.Src(v), t) + near(r.Dst(v), t)
			taken++
		}
		i++
	})
	return float64(sum) / float64(taken), true
}
