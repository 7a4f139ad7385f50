package reader

import (
	"fmt"
	"strings"
)

// intent is one question shape the reader answers.
type intent struct {
	name    string
	example string // one question of the shape, for --help and suggestions ({x}, {y}, {W}, {t}, {t1}, {t2}, {D}, {k}, {tt})
	// need lists required concepts; "a|b" means either.
	need []string
	// allow lists concepts the question may also hold.
	allow   []string
	nodes   int    // how many nodes the question names
	window  bool   // reads a valid-time window (the whole store when none is written)
	inst    int    // valid-time instants it needs
	bucket  bool   // needs a bucket width
	delta   bool   // needs a duration (motif span or gap)
	k       bool   // takes a count of nodes to return
	counted string // what "how many" counts: nodes, events or "" (either)
	belief  bool   // may be asked as of a belief time
	// frag lists the head nouns ("a|b") of a fragment read as asking how
	// many ("ratings sent by n5 in May"); "" when a fragment is not.
	frag    string
	summary func(r *Reading) string
	build   func(r *Reading, b *builder)
}

var common = []string{cNodeNoun, cPeriod, cBetween}

func nodeText(r *Reading, role string) string {
	n := r.node(role)
	if n.ByName {
		return fmt.Sprintf("%q", n.Written)
	}
	return n.UID
}

func reachStep(b *builder, role string) string {
	return b.add("temporal_reachability", b.asOf(withWait(b.r, map[string]any{"src": b.node(role), "window": b.window(), "limit": rowLimit})))
}

func gmts(metric string) func(r *Reading, b *builder) {
	return func(r *Reading, b *builder) {
		s := b.add("graph_metric_timeseries", b.asOf(map[string]any{"metric": metric, "window": b.window(), "stride": r.Window.End - r.Window.Start, "limit": rowLimit}))
		b.answer("value", s+".rows[0].value")
	}
}

func dirRole(r *Reading) string { return r.Options["direction"] }

func motifName(r *Reading) string {
	if r.Options["motif"] == "ping-pong" {
		return "M_2node_pingpong"
	}
	return "M_triangle_cyclic"
}

func motifText(r *Reading) string {
	if r.Options["motif"] == "ping-pong" {
		return "ping-pong exchanges a→b, b→a, a→b"
	}
	return "cyclic triangles a→b→c→a"
}

func burstArgs(r *Reading, b *builder) map[string]any {
	args := map[string]any{"target": map[string]any{"kind": "edge_event_rate"}, "window": b.window(), "stride": r.Bucket.Micros, "limit": rowLimit}
	params := map[string]any{}
	if z := r.Options["z"]; z != "" && z != "3" {
		params["z"] = parseFloat(z)
	}
	if w := r.Options["history"]; w != "" && w != "10" {
		params["w"] = parseInt(w)
	}
	if len(params) > 0 {
		args["method"] = "zscore"
		args["params"] = params
	}
	return b.asOf(args)
}

func burstText(r *Reading) string {
	z, w := r.Options["z"], r.Options["history"]
	if z == "" {
		z = "3"
	}
	if w == "" {
		w = "10"
	}
	return fmt.Sprintf("bursts of the edge event rate (z-score ≥ %s against the previous %s buckets)", z, w)
}

// aggregate counts events, grouped, with an endpoint filter on a node.
func aggregate(b *builder, role, filterRole string, groupBy []any, aggs []any) string {
	args := map[string]any{"window": b.window(), "group_by": groupBy, "aggregates": aggs, "limit": rowLimit}
	if role != "" {
		args["endpoint_filter"] = map[string]any{"role": filterRole, "uids": b.nodeList(role)}
	}
	return b.add("aggregate_events", b.asOf(args))
}

func endpoint(role string) []any { return []any{map[string]any{"dim": "endpoint", "role": role}} }
func countAgg() []any            { return []any{map[string]any{"agg": "count"}} }

var intents = []*intent{
	{name: "reach-count", example: "How many nodes can {x} reach {W}?",
		need: []string{cReach, cHowMany}, allow: []string{cTimeOrder, cPath, cDistinct, cEvent, cSend, cDepart}, nodes: 1, window: true, counted: "nodes", belief: true,
		summary: func(r *Reading) string {
			return "distinct nodes reachable from " + nodeText(r, "source") + " along time-respecting paths"
		},
		build: func(r *Reading, b *builder) { b.answer("count", reachStep(b, "source")+".rows_total") }},
	{name: "reach-first", example: "Which node does {x} reach first {W}?",
		need: []string{cReach, cFirst}, allow: []string{cWhich, cTimeOrder, cPath, cDepart, cEvent, cSend}, nodes: 1, window: true, belief: true,
		summary: func(r *Reading) string {
			return "the first node reached from " + nodeText(r, "source") + " along time-respecting paths (earliest arrival, ties by uid)"
		},
		build: func(r *Reading, b *builder) { b.answer("value", reachStep(b, "source")+".rows[0].uid") }},
	{name: "earliest-arrival", example: "When can a message from {x} first reach {y} {W}?",
		need: []string{cReach, cFirst, cWhen + "|" + cTimeNoun}, allow: []string{cTimeOrder, cPath, cEvent, cSend, cReceive, cDepart, cTimeNoun, cWhen}, nodes: 2, window: true, belief: true,
		summary: func(r *Reading) string {
			return "earliest arrival at " + nodeText(r, "target") + " of a time-respecting path from " + nodeText(r, "source")
		},
		build: func(r *Reading, b *builder) {
			s1 := reachStep(b, "source")
			s2 := b.add("compute", map[string]any{"fn": "filter", "input": ref(s1 + ".rows"), "field": "uid", "cmp": "eq", "value": b.node("target"), "limit": rowLimit})
			b.answer("value", s2+".rows[0].earliest_arrival")
		}},
	{name: "latest-departure", example: "What is the latest time {x} can leave and still reach {y} {W}?",
		need: []string{cDepart, cLatest}, allow: []string{cReach, cTimeOrder, cPath, cEvent, cSend, cTimeNoun, cWhen}, nodes: 2, window: true, belief: true,
		summary: func(r *Reading) string {
			return "latest departure from " + nodeText(r, "source") + " on a time-respecting path that reaches " + nodeText(r, "target") + " before the window ends"
		},
		build: func(r *Reading, b *builder) {
			s1 := b.add("temporal_reachability", b.asOf(withWait(r, map[string]any{"src": b.node("target"), "direction": "in", "window": b.window(), "limit": rowLimit})))
			s2 := b.add("compute", map[string]any{"fn": "filter", "input": ref(s1 + ".rows"), "field": "uid", "cmp": "eq", "value": b.node("source"), "limit": rowLimit})
			b.answer("value", s2+".rows[0].latest_departure")
		}},
	{name: "path-count", example: "How many time-respecting paths go from {x} to {y} {W}?",
		need: []string{cPath, cHowMany}, allow: []string{cTimeOrder, cDistinct, cReach, cEvent, cPresent, cSend}, nodes: 2, window: true, belief: true, frag: "path",
		summary: func(r *Reading) string {
			return fmt.Sprintf("time-respecting paths from %s to %s of at most %d hops", nodeText(r, "source"), nodeText(r, "target"), r.maxHops())
		},
		build: func(r *Reading, b *builder) {
			s := b.add("temporal_paths", b.asOf(map[string]any{"src": b.node("source"), "dst": b.node("target"), "window": b.window(), "k": int64(20), "max_hops": r.maxHops()}))
			b.answer("count", s+".rows_total")
		}},
	{name: "neighbours-at", example: "Which nodes were neighbours of {x} at {t}?",
		need: []string{cNeighbour + "|" + cPartner}, allow: []string{cEvent, cEither, cWhich}, nodes: 1, inst: 1, belief: true, // "neighbours of n5 at T" asks for the list
		summary: func(r *Reading) string {
			return "the direct neighbours of " + nodeText(r, "node") + " (an edge valid at that instant, either direction)"
		},
		build: func(r *Reading, b *builder) {
			s1 := b.add("snapshot_subgraph", b.asOf(map[string]any{"seeds": b.nodeList("node"), "hops": int64(1), "t_valid": r.Instants[0].T, "limit": rowLimit}))
			s2 := b.add("compute", map[string]any{"fn": "filter", "input": ref(s1 + ".nodes"), "field": "hop", "cmp": "eq", "value": int64(1), "limit": rowLimit})
			b.answer("entity_set", s2+".rows[*].uid")
		}},
	{name: "neighbour-count-at", example: "How many neighbours did {x} have at {t}?",
		need: []string{cNeighbour + "|" + cPartner, cHowMany}, allow: []string{cEvent, cEither, cDistinct}, nodes: 1, inst: 1, belief: true,
		summary: func(r *Reading) string {
			return "the number of direct neighbours of " + nodeText(r, "node") + " (an edge valid at that instant, either direction)"
		},
		build: func(r *Reading, b *builder) {
			s1 := b.add("snapshot_subgraph", b.asOf(map[string]any{"seeds": b.nodeList("node"), "hops": int64(1), "t_valid": r.Instants[0].T, "limit": rowLimit}))
			s2 := b.add("compute", map[string]any{"fn": "filter", "input": ref(s1 + ".nodes"), "field": "hop", "cmp": "eq", "value": int64(1), "limit": rowLimit})
			b.answer("count", s2+".rows_total")
		}},
	{name: "degree-at", example: "What was the degree of {x} at {t}?",
		need: []string{cDegree}, allow: []string{cEvent, cHowMany, cVersion, cEither, cDuplicates}, nodes: 1, inst: 1, belief: true,
		summary: func(r *Reading) string {
			return "the degree of " + nodeText(r, "node") + " (incident edge versions valid at that instant)"
		},
		build: func(r *Reading, b *builder) {
			t := r.Instants[0].T
			s := b.add("neighborhood_evolution", b.asOf(map[string]any{"uid": b.node("node"), "t1": t, "t2": t + 2, "stride": int64(2)}))
			b.answer("value", s+".degree_series[0].degree")
		}},
	{name: "event-count", example: "How many messages were sent {W}?",
		need: []string{cHowMany, cEvent}, allow: []string{cSend, cReceive, cMade}, window: true, counted: "events", belief: true, frag: "event",
		summary: func(r *Reading) string { return "the number of edge events (by start time)" },
		build:   gmts("edge_event_count")},
	{name: "node-event-count", example: "How many messages did {x} send {W}?",
		need: []string{cHowMany, cEvent}, allow: []string{cSend, cReceive, cAround, cEither}, nodes: 1, window: true, counted: "events", belief: true, frag: "event",
		summary: func(r *Reading) string {
			switch dirRole(r) {
			case "src":
				return "the number of events sent by " + nodeText(r, "node")
			case "dst":
				return "the number of events received by " + nodeText(r, "node")
			}
			return "the number of events sent or received by " + nodeText(r, "node")
		},
		build: func(r *Reading, b *builder) {
			s := aggregate(b, "node", dirRole(r), []any{}, countAgg())
			b.answer("count", s+".rows[0].count")
		}},
	{name: "pair-event-count", example: "How many messages did {x} send to {y} {W}?",
		need: []string{cHowMany, cEvent}, allow: []string{cSend, cReceive, cBetween, cEither}, nodes: 2, window: true, counted: "events", belief: true, frag: "event",
		summary: func(r *Reading) string {
			if r.Options["direction"] == "src" {
				return "the number of events from " + nodeText(r, "source") + " to " + nodeText(r, "target")
			}
			return "the number of events between " + nodeText(r, "source") + " and " + nodeText(r, "target") + " (either direction)"
		},
		build: func(r *Reading, b *builder) {
			var s1, field string
			if r.Options["direction"] == "src" {
				s1, field = aggregate(b, "source", "src", endpoint("dst"), countAgg()), "dst"
			} else {
				s1, field = aggregate(b, "source", "either", endpoint("either"), countAgg()), "node"
			}
			s2 := b.add("compute", map[string]any{"fn": "filter", "input": ref(s1 + ".rows"), "field": field, "cmp": "eq", "value": b.node("target"), "limit": rowLimit})
			s3 := b.add("compute", map[string]any{"fn": "sum", "input": ref(s2 + ".rows"), "field": "count"})
			b.answer("count", s3+".value")
		}},
	{name: "busiest-bucket", example: "Which {D} bucket had the most messages {W}?",
		need: []string{cPeak + "|" + cMost}, allow: []string{cWhich, cWhen, cEvent, cBucket, cSend, cTimeNoun, cOrdinal}, window: true, bucket: true, belief: true,
		summary: func(r *Reading) string {
			if r.Options["calendar_unit"] != "" {
				return "the calendar " + calendarUnitText[r.Options["calendar_unit"]] + " " + mostText(r) + " (UTC; the first and last clipped to the window)"
			}
			return "the bucket " + mostText(r) + " (buckets counted from the window start)"
		},
		build: func(r *Reading, b *builder) {
			if r.Options["calendar_unit"] != "" {
				calendarBusiest(r, b)
				return
			}
			s1 := b.add("graph_metric_timeseries", b.asOf(map[string]any{"metric": "edge_event_count", "window": b.window(), "stride": r.Bucket.Micros, "limit": rowLimit}))
			k, row := rankK(r, 1)
			s2 := b.add("compute", map[string]any{"fn": "topk", "input": ref(s1 + ".rows"), "field": "value", "k": k})
			b.answer("interval", s2+"."+row)
		}},
	{name: "new-nodes", example: "How many new nodes appeared {W}?",
		need: []string{cNew, cHowMany}, allow: []string{cFirst, cEvent}, window: true, counted: "nodes", belief: true,
		summary: func(r *Reading) string { return "the number of nodes first valid in the window" },
		build:   gmts("new_node_rate")},
	{name: "reciprocity", example: "What share of the messages {W} were reciprocated?",
		need: []string{cRecip}, allow: []string{cShare, cEvent, cPair, cSend, cReceive, cWhich, cSenders, cRecipients}, window: true, belief: true,
		summary: func(r *Reading) string {
			return "reciprocity: the share of directed pairs that interacted in the window whose reverse pair also did"
		},
		build: gmts("reciprocity")},
	{name: "partner-count", example: "How many distinct partners did {x} have {W}?",
		need: []string{cPartner + "|" + cDistinct, cHowMany}, allow: []string{cEvent, cSend, cReceive, cPartner, cDistinct, cAround, cSenders, cRecipients, cEither}, nodes: 1, window: true, counted: "nodes", belief: true,
		summary: func(r *Reading) string {
			switch dirRole(r) {
			case "src":
				return "the number of distinct nodes " + nodeText(r, "node") + " sent events to"
			case "dst":
				return "the number of distinct nodes " + nodeText(r, "node") + " received events from"
			}
			return "the number of distinct nodes " + nodeText(r, "node") + " exchanged events with (either direction)"
		},
		build: func(r *Reading, b *builder) {
			s1, field := partnerRows(r, b)
			s2 := b.add("compute", map[string]any{"fn": "filter", "input": ref(s1 + ".rows"), "field": field, "cmp": "ne", "value": b.node("node"), "limit": rowLimit})
			b.answer("count", s2+".rows_total")
		}},
	{name: "partners", example: "Who did {x} send messages to {W}?",
		need: []string{cWhich, cPartner + "|" + cSend + "|" + cReceive + "|" + cSenders + "|" + cRecipients}, allow: []string{cEvent, cSend, cReceive, cPartner, cDistinct, cSenders, cRecipients, cEither}, nodes: 1, window: true, belief: true,
		summary: func(r *Reading) string {
			switch dirRole(r) {
			case "src":
				return "the nodes " + nodeText(r, "node") + " sent events to"
			case "dst":
				return "the nodes " + nodeText(r, "node") + " received events from"
			}
			return "the nodes " + nodeText(r, "node") + " exchanged events with (either direction)"
		},
		build: func(r *Reading, b *builder) {
			s1, field := partnerRows(r, b)
			s2 := b.add("compute", map[string]any{"fn": "filter", "input": ref(s1 + ".rows"), "field": field, "cmp": "ne", "value": b.node("node"), "limit": rowLimit})
			b.answer("entity_set", s2+".rows[*]."+field)
		}},
	{name: "top-nodes", example: "Which {k} nodes sent the most messages {W}?",
		need: []string{cMost + "|" + cRank + "|" + cPeak}, allow: []string{cWhich, cEvent, cSend, cReceive, cPartner, cDistinct, cRank, cMost, cPeak, cHowMany, cSenders, cRecipients, cOrdinal}, window: true, k: true, belief: true,
		summary: topNodesText,
		build:   func(r *Reading, b *builder) { topNodes(r, b, "") }},
	{name: "version-count", example: "How many versions of {x} does the store believe now?",
		need: []string{cVersion, cHowMany}, allow: []string{cEvent}, nodes: 1, belief: true, frag: "version",
		summary: func(r *Reading) string { return "the number of versions of node " + nodeText(r, "node") + " believed" },
		build: func(r *Reading, b *builder) {
			s := b.add("entity_history", b.asOf(map[string]any{"uid": b.node("node"), "limit": rowLimit}))
			b.answer("count", s+".rows_total")
		}},
	{name: "correction-count", example: "How many times was {x} corrected?",
		need: []string{cCorrect + "|" + cEvolve, cHowMany}, allow: []string{cVersion, cCorrect, cEvolve}, nodes: 1, belief: true,
		summary: func(r *Reading) string {
			if r.Options["closed_by"] == "evolution" {
				return "the number of versions of " + nodeText(r, "node") + " closed by evolution (retracted or superseded in the world)"
			}
			return "the number of versions of " + nodeText(r, "node") + " closed by a correction"
		},
		build: func(r *Reading, b *builder) {
			s := b.add("version_history", b.asOf(map[string]any{"kind": "node", "uids": b.nodeList("node"), "window": win(0, 1<<62),
				"change": r.Options["closed_by"], "limit": rowLimit}))
			b.answer("count", s+".rows_total")
		}},
	{name: "nodes-added", example: "How many nodes were added between {t1} and {t2}?",
		need: []string{cAdded + "|" + cRemoved + "|" + cPresent + "|" + cSnapshot + "|" + cCompare}, allow: []string{cHowMany, cWhich, cNew, cNot, cAdded, cRemoved, cPresent, cSnapshot, cCompare, cBetween}, inst: 2, belief: true,
		summary: func(r *Reading) string {
			what := map[string]string{"added": "present at t2 but not at t1", "removed": "present at t1 but not at t2"}[r.Options["change"]]
			if r.Options["form"] == "list" {
				return "the nodes " + what
			}
			return "the number of nodes " + what
		},
		build: func(r *Reading, b *builder) {
			s := b.add("diff_snapshots", b.asOf(map[string]any{"t1": r.Instants[0].T, "t2": r.Instants[1].T, "limit": rowLimit}))
			field := "nodes_" + r.Options["change"]
			if r.Options["form"] == "list" {
				b.answer("entity_set", s+"."+field)
			} else {
				b.answer("value", s+"."+field+"_total")
			}
		}},
	{name: "neighbours-gained", example: "Which neighbours did {x} gain between {t1} and {t2}?",
		need: []string{cNeighbour + "|" + cGained + "|" + cLost, cGained + "|" + cLost + "|" + cNot + "|" + cNew + "|" + cCompare}, allow: []string{cWhich, cHowMany, cNew, cNot, cCompare, cGained, cLost, cNeighbour, cBetween, cEvent}, nodes: 1, inst: 2, belief: true,
		summary: func(r *Reading) string {
			what := map[string]string{"gained": "gained", "lost": "lost"}[r.Options["change"]]
			if r.Options["form"] == "count" {
				return "the number of neighbours " + nodeText(r, "node") + " " + what + " between t1 and t2"
			}
			return "the neighbours " + nodeText(r, "node") + " " + what + " between t1 and t2 (neighbours at one instant and not at the other)"
		},
		build: func(r *Reading, b *builder) {
			s := b.add("neighborhood_evolution", b.asOf(map[string]any{"uid": b.node("node"), "t1": r.Instants[0].T, "t2": r.Instants[1].T, "limit": rowLimit}))
			field := "neighbors_" + r.Options["change"]
			if r.Options["form"] == "count" {
				b.answer("count", s+"."+field+"_total")
			} else {
				b.answer("entity_set", s+"."+field)
			}
		}},
	{name: "burst-count", example: "How many bursts were there in {D} buckets {W}?",
		need: []string{cBurst, cHowMany}, allow: []string{cEvent, cBucket}, window: true, bucket: true, belief: true,
		summary: func(r *Reading) string { return "the number of buckets flagged as " + burstText(r) },
		build: func(r *Reading, b *builder) {
			s := b.add("burst_detection", burstArgs(r, b))
			b.answer("count", s+".rows_total")
		}},
	{name: "first-burst", example: "When was the first burst of activity in {D} buckets {W}?",
		// "first" is required: "when was there a burst" does not say which
		// of several.
		need: []string{cBurst, cFirst}, allow: []string{cWhen, cWhich, cFirst, cEvent, cBucket, cTimeNoun}, window: true, bucket: true, belief: true,
		summary: func(r *Reading) string { return "the first bucket flagged as " + burstText(r) },
		build: func(r *Reading, b *builder) {
			s := b.add("burst_detection", burstArgs(r, b))
			b.answer("interval", s+".rows[0]")
		}},
	{name: "motif-count", example: "How many cyclic triangles completing within {D} happened {W}?",
		need: []string{cTriangle + "|" + cPingPong, cHowMany}, allow: []string{cMotif, cEvent, cTimeOrder, cTriangle, cPingPong, cPair, cSend}, window: true, delta: true, belief: true, frag: "triangle|ping-pong|motif",
		summary: func(r *Reading) string { return "the number of δ-temporal " + motifText(r) },
		build: func(r *Reading, b *builder) {
			s := b.add("count_temporal_motifs", b.asOf(map[string]any{"motif": motifName(r), "delta": r.Delta.Micros, "window": b.window()}))
			b.answer("count", s+".count")
		}},
	{name: "motif-count-around", example: "How many ping-pong exchanges within {D} involved {x} {W}?",
		need: []string{cTriangle + "|" + cPingPong, cHowMany}, allow: []string{cMotif, cEvent, cTimeOrder, cTriangle, cPingPong, cPair, cAround}, nodes: 1, window: true, delta: true, belief: true, frag: "triangle|ping-pong|motif",
		summary: func(r *Reading) string {
			if r.Options["motif"] == "triangle" {
				return "the number of δ-temporal " + motifText(r) + " that include " + nodeText(r, "node") + " (as any of the three nodes)"
			}
			return "the number of δ-temporal " + motifText(r) + " that include " + nodeText(r, "node") + " (as either of the two nodes)"
		},
		build: func(r *Reading, b *builder) {
			// An instance includes x in exactly one position (its nodes
			// are distinct): the counts with x bound to each position add
			// up.
			hops := []any{map[string]any{"src": "u", "dst": "v"}, map[string]any{"src": "v", "dst": "u"}, map[string]any{"src": "u", "dst": "v"}}
			roles := []string{"u", "v"}
			if r.Options["motif"] == "triangle" {
				hops = []any{map[string]any{"src": "u", "dst": "v"}, map[string]any{"src": "v", "dst": "w"}, map[string]any{"src": "w", "dst": "u"}}
				roles = []string{"u", "v", "w"}
			}
			var refs []any
			for _, role := range roles {
				s := b.add("temporal_pattern", b.asOf(map[string]any{"window": b.window(), "span": r.Delta.Micros, "output": "count",
					"hops": hops, "bind": map[string]any{role: b.nodeList("node")}}))
				refs = append(refs, ref(s+".count"))
			}
			s3 := b.add("compute", map[string]any{"fn": "sum", "input": refs})
			b.answer("count", s3+".value")
		}},
	{name: "motif-count-reach", example: "Among the nodes {x} can reach {W}, how many cyclic triangles complete within {D}?",
		need: []string{cTriangle + "|" + cPingPong, cHowMany, cReach}, allow: []string{cMotif, cEvent, cTimeOrder, cTriangle, cPingPong, cPath}, nodes: 1, window: true, delta: true, belief: true, frag: "triangle|ping-pong|motif",
		summary: func(r *Reading) string {
			return "the number of δ-temporal " + motifText(r) + " among the nodes reachable from " + nodeText(r, "source") + " along time-respecting paths"
		},
		build: func(r *Reading, b *builder) {
			s1 := reachStep(b, "source")
			s2 := b.add("count_temporal_motifs", b.asOf(map[string]any{"motif": motifName(r), "delta": r.Delta.Micros, "window": b.window(), "node_filter": ref(s1 + ".rows[*].uid")}))
			b.answer("count", s2+".count")
		}},
	{name: "motif-members", example: "Which nodes form cyclic triangles within {D} {W}?",
		need: []string{cTriangle + "|" + cPingPong, cWhich}, allow: []string{cMotif, cEvent, cTimeOrder, cTriangle, cPingPong, cPair, cAround, cSend}, window: true, delta: true, belief: true,
		summary: func(r *Reading) string { return "the nodes that take part in δ-temporal " + motifText(r) },
		build: func(r *Reading, b *builder) {
			// The instances as a pattern of hops, then the union of the
			// nodes in every position.
			hops := []any{map[string]any{"src": "u", "dst": "v"}, map[string]any{"src": "v", "dst": "w"}, map[string]any{"src": "w", "dst": "u"}}
			vars := []string{"u", "v", "w"}
			if r.Options["motif"] == "ping-pong" {
				hops = []any{map[string]any{"src": "u", "dst": "v"}, map[string]any{"src": "v", "dst": "u"}, map[string]any{"src": "u", "dst": "v"}}
				vars = vars[:2]
			}
			s1 := b.add("temporal_pattern", b.asOf(map[string]any{"window": b.window(), "hops": hops, "span": r.Delta.Micros, "limit": rowLimit}))
			acc := b.add("compute", map[string]any{"fn": "union", "input": ref(s1 + ".rows[*]." + vars[0]), "other": ref(s1 + ".rows[*]." + vars[1])})
			for _, v := range vars[2:] {
				acc = b.add("compute", map[string]any{"fn": "union", "input": ref(acc + ".rows"), "other": ref(s1 + ".rows[*]." + v)})
			}
			b.answer("entity_set", acc+".rows")
		}},
	{name: "motif-first-actor", example: "Among the nodes {x} can reach {W}, which node starts the earliest cyclic triangle within {D}?",
		need: []string{cTriangle, cReach, cWhich, cFirst}, allow: []string{cMotif, cEvent, cTimeOrder, cTriangle, cPath, cSend}, nodes: 1, window: true, delta: true, belief: true,
		summary: func(r *Reading) string {
			return "the sender of the first edge of the earliest δ-temporal cyclic triangle among the nodes reachable from " + nodeText(r, "source")
		},
		build: func(r *Reading, b *builder) {
			s1 := reachStep(b, "source")
			s2 := b.add("find_temporal_motif_instances", b.asOf(map[string]any{"motif": "M_triangle_cyclic", "delta": r.Delta.Micros, "window": b.window(), "node_filter": ref(s1 + ".rows[*].uid"), "limit": rowLimit}))
			b.answer("value", s2+".rows[0].edges[0].src")
		}},
	{name: "follow-ups", example: "How many pairs of {x}'s outgoing messages follow one another within {D} {W}?",
		need: []string{cPair + "|" + cFollow, cFollow, cHowMany}, allow: []string{cEvent, cSend, cPair, cFirst, cDistinct, cRecipients, cPartner, cSameAllowed, cStrict, cTimeOrder}, nodes: 1, window: true, delta: true, belief: true, frag: "follow|pair",
		summary: followUpText,
		build:   followUps},
	{name: "first-reached-versions", example: "How many versions does the first node {x} reaches {W} have?",
		need: []string{cReach, cFirst, cVersion, cHowMany}, allow: []string{cTimeOrder, cPath, cEvent}, nodes: 1, window: true, belief: true, frag: "version",
		summary: func(r *Reading) string {
			return "the number of believed versions of the first node reached from " + nodeText(r, "source") + " along time-respecting paths (ties by uid)"
		},
		build: func(r *Reading, b *builder) {
			s1 := reachStep(b, "source")
			s2 := b.add("entity_history", b.asOf(map[string]any{"uid": ref(s1 + ".rows[0].uid"), "limit": rowLimit}))
			b.answer("count", s2+".rows_total")
		}},
}

func topNodesText(r *Reading) string {
	by := map[string]string{"src": "events sent", "dst": "events received", "either": "events sent or received", "partners": "distinct partners"}[r.Options["by"]]
	if n := parseInt(r.Options["rank"]); n > 1 {
		return fmt.Sprintf("the node ranked %d by %s (ties by the row's canonical text)", n, by)
	}
	return fmt.Sprintf("the top %d nodes by %s (ties by the row's canonical text)", r.K, by)
}

// topNodes ranks the nodes by what the question counts; a node in role
// except is dropped before the ranking is taken.
func topNodes(r *Reading, b *builder, except string) {
	var s1, field, col string
	switch by := r.Options["by"]; by {
	case "partners":
		s1 = aggregate(b, "", "", endpoint("either"), []any{map[string]any{"agg": "count_distinct", "of": "node"}})
		field, col = "distinct_node", "node"
	default:
		s1 = aggregate(b, "", "", endpoint(by), countAgg())
		field, col = "count", map[string]string{"src": "src", "dst": "dst", "either": "node"}[by]
	}
	rows := s1 + ".rows"
	if except != "" {
		rows = b.add("compute", map[string]any{"fn": "filter", "input": ref(rows), "field": col, "cmp": "ne", "value": b.node(except), "limit": rowLimit}) + ".rows"
	}
	k, row := rankK(r, r.K)
	s2 := b.add("compute", map[string]any{"fn": "topk", "input": ref(rows), "field": field, "k": k})
	switch {
	case row != "rows[0]" || r.K == 1:
		b.answer("value", s2+"."+row+"."+col)
	default:
		b.answer("entity_set", s2+".rows[*]."+col)
	}
}

// partnerRows groups the node's events by the other endpoint; the
// returned column holds the partner (the node itself shows up too when
// grouping by either endpoint, and is filtered out by the caller).
func partnerRows(r *Reading, b *builder) (string, string) {
	switch dirRole(r) {
	case "src":
		return aggregate(b, "node", "src", endpoint("dst"), countAgg()), "dst"
	case "dst":
		return aggregate(b, "node", "dst", endpoint("src"), countAgg()), "src"
	}
	return aggregate(b, "node", "either", endpoint("either"), countAgg()), "node"
}

// Intents lists the intent names with one example question each.
func Intents() [][2]string {
	out := make([][2]string, len(intents))
	for i, in := range intents {
		out[i] = [2]string{in.name, in.example}
	}
	return out
}

func (in *intent) accepts(c string) bool {
	for _, n := range in.need {
		for _, alt := range strings.Split(n, "|") {
			if alt == c {
				return true
			}
		}
	}
	for _, a := range append(in.allow, common...) {
		if a == c {
			return true
		}
	}
	return false
}
