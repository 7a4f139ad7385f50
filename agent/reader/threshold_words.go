package reader

import (
	"fmt"
	"strings"
)

// Thresholds on a count of events per node (doc.go): "how many users
// sent more than five messages", "how many colleagues received at least
// 3 messages from n5". "more than N" and "over N" are strictly more; "at
// least N" and "N or more" include N. Upper bounds ("fewer than N", "at most N") are
// refused: a node with no events at all has no row to count.

const cThreshold = "threshold"

// threshold is a lower bound on a per-node count of events.
type threshold struct {
	n       int64
	cmp     string // "gt" or "ge"
	written string
}

// thresholdText says the bound a reading keeps.
func thresholdText(r *Reading) string {
	if r.Options["over_cmp"] == "gt" {
		return "more than " + r.Options["over"]
	}
	return "at least " + r.Options["over"]
}

// thresholdAt reads a lower bound at i: "(strictly) more than N", "at
// least N", "N or more". It returns the bound and the index after it.
func (x *extractor) thresholdAt(i int) (threshold, int, bool) {
	a := i
	if x.tok(i).low == "strictly" {
		i++
	}
	var th threshold
	j := i
	switch {
	case x.tok(i).low == "more" && x.tok(i+1).low == "than":
		n, ok := x.count(i + 2)
		if !ok {
			return th, a, false
		}
		th, j = threshold{n: n, cmp: "gt"}, i+3
	case x.tok(i).low == "at" && x.tok(i+1).low == "least" && a == i:
		n, ok := x.count(i + 2)
		if !ok {
			return th, a, false
		}
		th, j = threshold{n: n, cmp: "ge"}, i+3
	case x.tok(i).low == "over" && a == i && concept(x.tok(i+2).low) == cEvent:
		// "over five messages": more than, and only before an event noun
		// ("over 5 days" is a window).
		n, ok := x.count(i + 1)
		if !ok {
			return th, a, false
		}
		th, j = threshold{n: n, cmp: "gt"}, i+2
	case a == i && x.tok(i+1).low == "or" && x.tok(i+2).low == "more":
		n, ok := x.count(i)
		if !ok {
			return th, a, false
		}
		th, j = threshold{n: n, cmp: "ge"}, i+3
	default:
		return th, a, false
	}
	th.written = x.span(a, j)
	return th, j, true
}

// thresholdWords reads the bounds of a question. One must stand before
// an event noun ("more than five messages"); others may restate it
// ("strictly more than five, please") and must agree with it. "exactly
// N does not count" after "more than N" restates that the bound is
// strict.
func (x *extractor) thresholdWords() {
	var first *threshold
	type found struct {
		th   threshold
		i, j int
		ev   bool
	}
	var all []found
	for i := 0; i < len(x.toks); i++ {
		if x.toks[i].used {
			continue
		}
		th, j, ok := x.thresholdAt(i)
		if !ok {
			continue
		}
		ev := concept(x.tok(j).low) == cEvent
		all = append(all, found{th, i, j, ev})
		if ev && first == nil {
			f := th
			first = &f
		}
		i = j - 1
	}
	if first == nil {
		return
	}
	for _, f := range all {
		if f.th.n != first.n || f.th.cmp != first.cmp {
			x.mark(cUnsupported, f.i) // two bounds that disagree
			return
		}
	}
	for _, f := range all {
		x.use(f.i, f.j)
		if !f.ev {
			x.s.ignored = append(x.s.ignored, f.th.written)
		}
	}
	x.s.threshold = first
	x.mark(cThreshold, all[0].i)
	if first.cmp != "gt" {
		return
	}
	for i := range x.toks {
		if x.toks[i].used || x.tok(i).low != "exactly" {
			continue
		}
		n, ok := x.count(i + 1)
		v := x.tok(i + 2).low
		if ok && n == first.n && (v == "does" || v == "do") && x.tok(i+3).low == "not" && x.tok(i+4).low == "count" && x.clauseEnd(i+5) {
			x.ignore(i, i+5)
		}
	}
}

// thresholdArgs groups the window's events by the role counted, keeps
// the groups over the bound, and filters by the node when one is named.
func thresholdArgs(r *Reading, b *builder, group, filterRole string) map[string]any {
	args := map[string]any{"window": b.window(), "group_by": endpoint(group), "aggregates": countAgg(), "limit": rowLimit,
		"having": []any{map[string]any{"col": "count", "cmp": r.Options["over_cmp"], "value": parseInt(r.Options["over"])}}}
	if filterRole != "" {
		args["endpoint_filter"] = map[string]any{"role": filterRole, "uids": b.nodeList("node")}
	}
	return b.asOf(args)
}

var thresholdIntents = []*intent{
	{name: "threshold-count", example: "How many nodes sent more than 5 messages {W}?",
		need: []string{cHowMany, cThreshold}, allow: []string{cEvent, cSend, cReceive, cSenders, cRecipients}, window: true, counted: "nodes", belief: true,
		summary: func(r *Reading) string {
			verb := map[string]string{"src": "sent", "dst": "received"}[r.Options["by"]]
			return fmt.Sprintf("the number of nodes that %s %s events", verb, thresholdText(r))
		},
		build: func(r *Reading, b *builder) {
			s := b.add("aggregate_events", thresholdArgs(r, b, r.Options["by"], ""))
			b.answer("count", s+".rows_total")
		}},
	{name: "partner-threshold-count", example: "How many nodes received more than 5 messages from {x} {W}?",
		need: []string{cHowMany, cThreshold}, allow: []string{cEvent, cSend, cReceive, cSenders, cRecipients, cEither}, nodes: 1, window: true, counted: "nodes", belief: true,
		summary: func(r *Reading) string {
			n := nodeText(r, "node")
			switch dirRole(r) {
			case "src":
				return fmt.Sprintf("the number of nodes that received %s events from %s", thresholdText(r), n)
			case "dst":
				return fmt.Sprintf("the number of nodes that sent %s events to %s", thresholdText(r), n)
			}
			return fmt.Sprintf("the number of nodes that exchanged %s events with %s (either direction)", thresholdText(r), n)
		},
		build: func(r *Reading, b *builder) {
			group := map[string]string{"src": "dst", "dst": "src", "either": "either"}[dirRole(r)]
			field := map[string]string{"src": "src", "dst": "dst", "either": "node"}[group]
			s1 := b.add("aggregate_events", thresholdArgs(r, b, group, dirRole(r)))
			s2 := b.add("compute", map[string]any{"fn": "filter", "input": ref(s1 + ".rows"), "field": field, "cmp": "ne", "value": b.node("node"), "limit": rowLimit})
			b.answer("count", s2+".rows_total")
		}},
}

// thresholdLists are the list forms: which nodes pass the bound.
var thresholdLists = []*intent{
	{name: "threshold-nodes", example: "Which nodes sent more than 5 messages {W}?",
		need: []string{cWhich, cThreshold}, allow: []string{cEvent, cSend, cReceive, cSenders, cRecipients}, window: true, belief: true,
		summary: func(r *Reading) string {
			verb := map[string]string{"src": "sent", "dst": "received"}[r.Options["by"]]
			return fmt.Sprintf("the nodes that %s %s events", verb, thresholdText(r))
		},
		build: func(r *Reading, b *builder) {
			s := b.add("aggregate_events", thresholdArgs(r, b, r.Options["by"], ""))
			b.answer("entity_set", s+".rows[*]."+r.Options["by"])
		}},
	{name: "partner-threshold-nodes", example: "Which nodes received more than 5 messages from {x} {W}?",
		need: []string{cWhich, cThreshold}, allow: []string{cEvent, cSend, cReceive, cSenders, cRecipients, cEither}, nodes: 1, window: true, belief: true,
		summary: func(r *Reading) string {
			return strings.Replace(thresholdIntents[1].summary(r), "the number of nodes", "the nodes", 1)
		},
		build: func(r *Reading, b *builder) {
			group := map[string]string{"src": "dst", "dst": "src", "either": "either"}[dirRole(r)]
			field := map[string]string{"src": "src", "dst": "dst", "either": "node"}[group]
			s1 := b.add("aggregate_events", thresholdArgs(r, b, group, dirRole(r)))
			s2 := b.add("compute", map[string]any{"fn": "filter", "input": ref(s1 + ".rows"), "field": field, "cmp": "ne", "value": b.node("node"), "limit": rowLimit})
			b.answer("entity_set", s2+".rows[*]."+field)
		}},
}

func init() {
	intents = append(intents, thresholdIntents...)
	intents = append(intents, thresholdLists...)
}

// thresholdOptions reads who is counted over the bound: senders or
// recipients; a question naming neither is refused.
func (x *extractor) thresholdOptions(in *intent, r *Reading) string {
	if x.s.threshold == nil {
		return ""
	}
	// "more than five messages a day": a bound per period, which no
	// count over the whole window honours.
	if x.has(cPeriod) {
		return fmt.Sprintf("%q per what? the bound is on a node's count over the whole window; a period word beside it (%q) may ask per period", x.s.threshold.written, x.wordOf(cPeriod))
	}
	r.Options["over"] = fmt.Sprint(x.s.threshold.n)
	r.Options["over_cmp"] = x.s.threshold.cmp
	if in.name != "threshold-count" && in.name != "threshold-nodes" {
		// "which of n5's contacts sent more than …": with no "to" or
		// "from" before the node, the verb may be the counted nodes' own.
		if len(x.s.nodes) == 1 && x.s.nodes[0].cue == "" {
			return fmt.Sprintf("sent to or received from %s? write \"to %s\" or \"from %s\" beside the bound", x.s.nodes[0].written, x.s.nodes[0].written, x.s.nodes[0].written)
		}
		return ""
	}
	send, recv := x.has(cSend) || x.has(cSenders), x.has(cReceive) || x.has(cRecipients)
	// "how many users were sent more than five messages": the subject of
	// a passive sending verb receives.
	if i, ok := x.s.concepts[cSend]; ok && passiveAux[x.tok(i-1).low] && !x.has(cSenders) {
		send, recv = false, true
	}
	switch {
	case send && !recv:
		r.Options["by"] = "src"
	case recv && !send:
		r.Options["by"] = "dst"
	default:
		return "sent or received more than the bound? write \"sent more than\" or \"received more than\""
	}
	return ""
}

// passiveAux are the auxiliaries of a passive right before a verb.
var passiveAux = map[string]bool{"was": true, "were": true, "been": true, "being": true, "is": true, "are": true, "be": true}
