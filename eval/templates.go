package eval

import (
	"fmt"
)

// template is one question shape: a name (the plan id is family-name), a
// difficulty, an answer kind and a builder that draws parameters and
// writes the question (paraphrase p in 0..2) and the oracle plan. A nil
// draft means no parameters could be drawn this time.
type template struct {
	name       string
	difficulty string
	kind       string
	build      func(g *gen, p int) *draft
}

func para(p int, forms ...string) string { return forms[p%len(forms)] }

const motifTriangle = "M_triangle_cyclic"

// reach is the reachability step every reach-based template starts with.
func reach(id string, src any, ta, tb int64, deps ...string) step {
	return mkStep(id, "temporal_reachability", map[string]any{"src": src, "window": win(ta, tb), "limit": rowLimit}, deps...)
}

var t1Templates = []template{
	{"reach-count", "easy", KindCount, func(g *gen, p int) *draft {
		x, e, ok := g.pickNode(true)
		if !ok {
			return nil
		}
		ta, tb := g.windowAt(e.t, 0.05, 0.5)
		w := span(ta, tb)
		return &draft{
			question: para(p,
				fmt.Sprintf("How many nodes can %s reach along time-respecting paths with events %s?", x, w),
				fmt.Sprintf("Along chains of contacts forward in time, how many distinct nodes are reachable from %s %s?", x, w),
				fmt.Sprintf("Starting at %s, %s, how many other nodes could be reached along time-ordered edges?", x, w)),
			uids:  []string{x},
			steps: []step{reach("s1", x, ta, tb)},
			from:  "s1.rows_total", nonEmpty: true,
		}
	}},
	{"reach-first", "easy", KindValue, func(g *gen, p int) *draft {
		x, e, ok := g.pickNode(true)
		if !ok {
			return nil
		}
		ta, tb := g.windowAt(e.t, 0.05, 0.5)
		w := span(ta, tb)
		return &draft{
			question: para(p,
				fmt.Sprintf("Along time-respecting paths %s, which node does %s reach first?", w, x),
				fmt.Sprintf("Which node is the earliest to be reached from %s by time-ordered edges %s?", x, w),
				fmt.Sprintf("Information leaves %s; %s, which node gets it first?", x, w)),
			uids:  []string{x},
			steps: []step{reach("s1", x, ta, tb)},
			from:  "s1.rows[0].uid",
		}
	}},
	{"neighbors-at", "medium", KindEntitySet, func(g *gen, p int) *draft {
		x, e, ok := g.pickNode(false)
		if !ok {
			return nil
		}
		t := e.t
		return &draft{
			question: para(p,
				fmt.Sprintf("Which nodes were direct neighbours of %s in either direction at %s?", x, ts(t)),
				fmt.Sprintf("At the instant %s, which nodes shared an edge with %s?", ts(t), x),
				fmt.Sprintf("List the neighbours of %s in the graph as it stood at %s.", x, ts(t))),
			uids: []string{x},
			steps: []step{
				mkStep("s1", "snapshot_subgraph", map[string]any{"seeds": []string{x}, "hops": 1, "t_valid": t, "limit": rowLimit}),
				mkStep("s2", "compute", map[string]any{"fn": "filter", "input": ref("s1.nodes"), "field": "hop", "cmp": "eq", "value": 1, "limit": rowLimit}, "s1"),
			},
			from: "s2.rows[*].uid",
		}
	}},
	{"degree-at", "easy", KindValue, func(g *gen, p int) *draft {
		x, e, ok := g.pickNode(false)
		if !ok {
			return nil
		}
		t := e.t
		return &draft{
			question: para(p,
				fmt.Sprintf("What was the degree of %s at %s?", x, ts(t)),
				fmt.Sprintf("How many edges touching %s were valid at %s?", x, ts(t)),
				fmt.Sprintf("At %s, how many incident edge versions did %s have?", ts(t), x)),
			uids:  []string{x},
			steps: []step{mkStep("s1", "neighborhood_evolution", map[string]any{"uid": x, "t1": t, "t2": t + 2, "stride": 2})},
			from:  "s1.degree_series[0].degree", nonEmpty: true,
		}
	}},
	{"event-count", "easy", KindValue, func(g *gen, p int) *draft {
		ta, tb := g.window(0.05, 0.5)
		w := span(ta, tb)
		return &draft{
			question: para(p,
				fmt.Sprintf("How many edge events started %s?", w),
				fmt.Sprintf("Count the events that started %s.", w),
				fmt.Sprintf("What was the total number of interactions recorded %s?", w)),
			steps: []step{mkStep("s1", "graph_metric_timeseries", map[string]any{"metric": "edge_event_count", "window": win(ta, tb), "stride": tb - ta, "limit": rowLimit})},
			from:  "s1.rows[0].value",
		}
	}},
	{"busiest", "medium", KindInterval, func(g *gen, p int) *draft {
		ta, tb := g.window(0.2, 0.9)
		s := stride(ta, tb, 14)
		w := span(ta, tb)
		return &draft{
			question: para(p,
				fmt.Sprintf("%s, in buckets of %s, which bucket had the most edge events?", capital(w), exact(s)),
				fmt.Sprintf("Which %s bucket (counted from %s) was the busiest in events, up to %s?", exact(s), ts(ta), ts(tb)),
				fmt.Sprintf("%s, in consecutive buckets of %s, when was activity (edge events) highest?", capital(w), exact(s))),
			steps: []step{
				mkStep("s1", "graph_metric_timeseries", map[string]any{"metric": "edge_event_count", "window": win(ta, tb), "stride": s, "limit": rowLimit}),
				mkStep("s2", "compute", map[string]any{"fn": "topk", "input": ref("s1.rows"), "field": "value", "k": 1}, "s1"),
			},
			from: "s2.rows[0]",
		}
	}},
	{"new-nodes", "easy", KindValue, func(g *gen, p int) *draft {
		ta, tb := g.window(0.05, 0.5)
		w := span(ta, tb)
		return &draft{
			question: para(p,
				fmt.Sprintf("How many nodes appeared for the first time %s?", w),
				fmt.Sprintf("Count the new nodes %s.", w),
				fmt.Sprintf("How many accounts became active for the first time %s?", w)),
			steps: []step{mkStep("s1", "graph_metric_timeseries", map[string]any{"metric": "new_node_rate", "window": win(ta, tb), "stride": tb - ta, "limit": rowLimit})},
			from:  "s1.rows[0].value",
		}
	}},
	{"reciprocity", "medium", KindValue, func(g *gen, p int) *draft {
		ta, tb := g.window(0.2, 0.5)
		w := span(ta, tb)
		return &draft{
			question: para(p,
				fmt.Sprintf("What share of the directed pairs that interacted %s also interacted in the reverse direction?", w),
				fmt.Sprintf("What was the reciprocity of the interactions %s?", w),
				fmt.Sprintf("%s, what fraction of sender→receiver pairs were answered by receiver→sender?", capital(w))),
			steps: []step{mkStep("s1", "graph_metric_timeseries", map[string]any{"metric": "reciprocity", "window": win(ta, tb), "stride": tb - ta, "limit": rowLimit})},
			from:  "s1.rows[0].value",
		}
	}},
	{"earliest", "medium", KindValue, func(g *gen, p int) *draft {
		x, e, ok := g.pickNode(true)
		if !ok {
			return nil
		}
		ta, tb := g.windowAt(e.t, 0.3, 0.6)
		y, ok := g.reachedNode(x, ta, tb)
		if !ok {
			return nil
		}
		w := span(ta, tb)
		return &draft{
			question: para(p,
				fmt.Sprintf("Along time-respecting paths from %s %s, what is the earliest time %s can be reached (µs)?", x, w, y),
				fmt.Sprintf("When is the earliest that something sent by %s could arrive at %s, using time-ordered edges %s?", x, y, w),
				fmt.Sprintf("%s, what is the earliest arrival time at %s of a time-respecting path starting at %s?", capital(w), y, x)),
			uids: []string{x, y},
			steps: []step{
				reach("s1", x, ta, tb),
				mkStep("s2", "compute", map[string]any{"fn": "filter", "input": ref("s1.rows"), "field": "uid", "cmp": "eq", "value": y, "limit": rowLimit}, "s1"),
			},
			from: "s2.rows[0].earliest_arrival",
		}
	}},
	{"bursts", "medium", KindCount, func(g *gen, p int) *draft {
		ta, tb := g.window(0.3, 0.9)
		s := stride(ta, tb, 30)
		w := span(ta, tb)
		return &draft{
			question: para(p,
				fmt.Sprintf("In buckets of %s %s, how many buckets were bursts of event activity (z-score at least 3 against the previous 10 buckets)?", exact(s), w),
				fmt.Sprintf("How many %s buckets %s show a burst in the edge event rate (z-score ≥ 3 over a 10-bucket history)?", exact(s), w),
				fmt.Sprintf("%s, counting in %s buckets, how many bursts of activity are there (z ≥ 3, 10 buckets of history)?", capital(w), exact(s))),
			steps: []step{
				mkStep("s1", "burst_detection", map[string]any{"target": map[string]any{"kind": "edge_event_rate"}, "window": win(ta, tb), "stride": s, "limit": rowLimit}),
				mkStep("s2", "compute", map[string]any{"fn": "count", "input": ref("s1.rows")}, "s1"),
			},
			from: "s2.value",
		}
	}},
	{"recipients", "medium", KindEntitySet, func(g *gen, p int) *draft {
		x, e, ok := g.pickNode(true)
		if !ok {
			return nil
		}
		ta, tb := g.windowAt(e.t, 0.1, 0.5)
		w := span(ta, tb)
		return &draft{
			question: para(p,
				fmt.Sprintf("To which nodes did %s send edges starting %s?", x, w),
				fmt.Sprintf("Which nodes received edges from %s %s?", x, w),
				fmt.Sprintf("%s, who were the recipients of %s's outgoing interactions?", capital(w), x)),
			uids: []string{x},
			steps: []step{
				mkStep("s1", "entity_history", map[string]any{"uid": x, "include_edges": true, "limit": rowLimit}),
				mkStep("s2", "compute", map[string]any{"fn": "filter", "input": ref("s1.edges"), "field": "vt_s", "cmp": "ge", "value": ta, "limit": rowLimit}, "s1"),
				mkStep("s3", "compute", map[string]any{"fn": "filter", "input": ref("s2.rows"), "field": "vt_s", "cmp": "lt", "value": tb, "limit": rowLimit}, "s2"),
				mkStep("s4", "compute", map[string]any{"fn": "filter", "input": ref("s3.rows"), "field": "src", "cmp": "eq", "value": x, "limit": rowLimit}, "s3"),
			},
			from: "s4.rows[*].dst",
		}
	}},
	{"history", "easy", KindCount, func(g *gen, p int) *draft {
		x := g.uids[g.rng.IntN(len(g.uids))]
		return &draft{
			question: para(p,
				fmt.Sprintf("How many versions of node %s does the store currently believe?", x),
				fmt.Sprintf("Under current belief, how many node versions does %s have?", x),
				fmt.Sprintf("Count the believed versions in the history of %s.", x)),
			uids: []string{x},
			steps: []step{
				mkStep("s1", "entity_history", map[string]any{"uid": x, "limit": rowLimit}),
				mkStep("s2", "compute", map[string]any{"fn": "count", "input": ref("s1.rows")}, "s1"),
			},
			from: "s2.value",
		}
	}},
}

var t3Templates = []template{
	{"added", "easy", KindValue, func(g *gen, p int) *draft {
		ta, tb := g.window(0.2, 0.6)
		return &draft{
			question: para(p,
				fmt.Sprintf("How many nodes were present in the graph at %s that were not present at %s?", ts(tb), ts(ta)),
				fmt.Sprintf("Comparing the graph at %s with the graph at %s, how many nodes were added?", ts(ta), ts(tb)),
				fmt.Sprintf("Between the snapshots at %s and %s, how many new nodes appear?", ts(ta), ts(tb))),
			steps: []step{mkStep("s1", "diff_snapshots", map[string]any{"t1": ta, "t2": tb, "limit": 100})},
			from:  "s1.nodes_added_total",
		}
	}},
	{"gained", "medium", KindEntitySet, func(g *gen, p int) *draft {
		x, e, ok := g.pickNode(false)
		if !ok {
			return nil
		}
		t2 := e.t
		gap := max(hour, g.span/50+g.rng.Int64N(max(1, g.span/10-g.span/50)))
		t1 := max(g.t0, t2-gap)
		if t1 >= t2 {
			return nil
		}
		return &draft{
			question: para(p,
				fmt.Sprintf("Which nodes were neighbours of %s at %s but not at %s?", x, ts(t2), ts(t1)),
				fmt.Sprintf("Between %s and %s, which neighbours did %s gain?", ts(t1), ts(t2), x),
				fmt.Sprintf("Compared with %s, which new neighbours did %s have at %s?", ts(t1), x, ts(t2))),
			uids:  []string{x},
			steps: []step{mkStep("s1", "neighborhood_evolution", map[string]any{"uid": x, "t1": t1, "t2": t2, "limit": rowLimit})},
			from:  "s1.neighbors_gained",
		}
	}},
	{"burst", "medium", KindInterval, func(g *gen, p int) *draft {
		ta, tb := g.window(0.4, 1.0)
		s := stride(ta, tb, 90)
		w := span(ta, tb)
		return &draft{
			question: para(p,
				fmt.Sprintf("In buckets of %s %s, when was the first burst of event activity (z-score at least 3 against the previous 10 buckets)?", exact(s), w),
				fmt.Sprintf("Which %s bucket %s is the first burst in the edge event rate (z ≥ 3, 10 buckets of history)?", exact(s), w),
				fmt.Sprintf("%s, counting events in %s buckets, when does activity first burst (z ≥ 3)?", capital(w), exact(s))),
			steps: []step{mkStep("s1", "burst_detection", map[string]any{"target": map[string]any{"kind": "edge_event_rate"}, "window": win(ta, tb), "stride": s, "limit": rowLimit})},
			from:  "s1.rows[0]",
		}
	}},
}

var t4Templates = []template{
	{"reach-motifs", "hard", KindCount, func(g *gen, p int) *draft {
		x, e, ok := g.pickNode(true)
		if !ok {
			return nil
		}
		ta, tb := g.windowAt(e.t, 0.2, 0.5)
		delta := wholeHours(max(hour, g.span/20))
		w := span(ta, tb)
		return &draft{
			question: para(p,
				fmt.Sprintf("Among the nodes %s can reach along time-respecting paths %s, how many cyclic triangles a→b→c→a complete within %s?", x, w, exact(delta)),
				fmt.Sprintf("Among the nodes reachable from %s by time-ordered edges %s, count the temporal cyclic triangles spanning at most %s.", x, w, exact(delta)),
				fmt.Sprintf("%s, how many cyclic triangles within %s are there among the nodes %s can reach along time-respecting paths?", capital(w), exact(delta), x)),
			uids: []string{x},
			steps: []step{
				mkStep("s1", "resolve_entities", map[string]any{"query": x, "limit": rowLimit}),
				reach("s2", ref("s1.rows[0].uid"), ta, tb, "s1"),
				mkStep("s3", "count_temporal_motifs", map[string]any{"motif": motifTriangle, "delta": delta, "window": win(ta, tb), "node_filter": ref("s2.rows[*].uid")}, "s2"),
			},
			from: "s3.count", nonEmpty: true,
		}
	}},
	{"first-history", "hard", KindCount, func(g *gen, p int) *draft {
		x, e, ok := g.pickNode(true)
		if !ok {
			return nil
		}
		ta, tb := g.windowAt(e.t, 0.3, 0.6)
		w := span(ta, tb)
		return &draft{
			question: para(p,
				fmt.Sprintf("Take the first node %s reaches along time-respecting paths %s: how many versions of it does the store currently believe?", x, w),
				fmt.Sprintf("How many believed node versions does the earliest node reached from %s by time-ordered edges %s have?", x, w),
				fmt.Sprintf("%s, the first node to hear from %s — how many versions of it are currently believed?", capital(w), x)),
			uids: []string{x},
			steps: []step{
				reach("s1", x, ta, tb),
				mkStep("s2", "entity_history", map[string]any{"uid": ref("s1.rows[0].uid"), "limit": rowLimit}, "s1"),
				mkStep("s3", "compute", map[string]any{"fn": "count", "input": ref("s2.rows")}, "s2"),
			},
			from: "s3.value",
		}
	}},
	{"participant", "hard", KindValue, func(g *gen, p int) *draft {
		x, e, ok := g.pickNode(true)
		if !ok {
			return nil
		}
		ta, tb := g.windowAt(e.t, 0.1, 0.3)
		delta := wholeHours(max(hour, g.span/50))
		w := span(ta, tb)
		return &draft{
			question: para(p,
				fmt.Sprintf("Among the nodes %s can reach along time-respecting paths %s, which node starts the earliest cyclic triangle a→b→c→a completing within %s?", x, w, exact(delta)),
				fmt.Sprintf("Among the nodes reachable from %s by time-ordered edges %s, who sends the first edge of the earliest temporal cyclic triangle (span at most %s)?", x, w, exact(delta)),
				fmt.Sprintf("%s, among the nodes %s can reach along time-respecting paths, which node starts the first cyclic triangle within %s?", capital(w), x, exact(delta))),
			uids: []string{x},
			steps: []step{
				reach("s1", x, ta, tb),
				mkStep("s2", "find_temporal_motif_instances", map[string]any{"motif": motifTriangle, "delta": delta, "window": win(ta, tb), "node_filter": ref("s1.rows[*].uid"), "limit": rowLimit}, "s1"),
			},
			from: "s2.rows[0].edges[0].src",
		}
	}},
	{"coactive", "hard", KindCount, func(g *gen, p int) *draft {
		x, _, ok := g.pickNode(true)
		if !ok {
			return nil
		}
		gap := wholeHours(max(hour, g.span/200))
		return &draft{
			question: para(p,
				fmt.Sprintf("How many ordered pairs of edges sent by %s follow one another within %s?", x, exact(gap)),
				fmt.Sprintf("Count the pairs of %s's outgoing edges that follow each other within %s.", x, exact(gap)),
				fmt.Sprintf("For node %s, how many pairs of its outgoing interactions follow one another with a gap of at most %s?", x, exact(gap))),
			uids: []string{x},
			// Events, by start time, over the whole store: the second at
			// or after the first in (t, eid) order, at most gap later, to
			// any recipients. (co_active would join edge versions, so a
			// corrected edge's fragments would pair as separate events.)
			steps: []step{
				mkStep("s1", "temporal_pattern", map[string]any{"window": win(g.t0, g.t1), "bind": map[string]any{"u": []any{x}},
					"hops": []any{map[string]any{"src": "u", "dst": "v"}, map[string]any{"src": "u", "dst": "w"}}, "within": gap, "distinct": false, "output": "count"}),
			},
			from: "s1.count",
		}
	}},
}

// reachedNode picks a node x reaches in [ta, tb) (seeded), for questions
// about one destination.
func (g *gen) reachedNode(x string, ta, tb int64) (string, bool) {
	env, err := g.db.Call(g.ctx, "temporal_reachability", map[string]any{
		"src": x, "window": map[string]any{"t_a": ta, "t_b": tb}, "limit": int64(rowLimit), "as_of_tt": g.asOf})
	if err != nil {
		return "", false
	}
	rows, _ := env.Result["rows"].([]any)
	if len(rows) == 0 {
		return "", false
	}
	row, _ := rows[g.rng.IntN(min(len(rows), 50))].(map[string]any)
	y, ok := row["uid"].(string)
	return y, ok
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
