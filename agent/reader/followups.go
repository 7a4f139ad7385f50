package reader

import "fmt"

// Follow-ups: ordered pairs of one node's outgoing events, the second at
// most δ after the first, counted as the two-hop pattern x→v, x→w over
// the question's window.

func followUpText(r *Reading) string {
	to := "the two recipients may be the same node"
	if r.Options["distinct"] == "true" {
		to = "to two different recipients"
	}
	order := "the second at or after the first in (time, event id) order"
	if r.Options["order"] == "strict" {
		order = "the second strictly later than the first"
	}
	return "ordered pairs of events sent by " + nodeText(r, "node") + ", " + order + " and at most δ after it, " + to
}

func followUps(r *Reading, b *builder) {
	hops := []any{map[string]any{"src": "u", "dst": "v"}, map[string]any{"src": "u", "dst": "w"}}
	args := map[string]any{"window": b.window(), "hops": hops, "bind": map[string]any{"u": b.nodeList("node")},
		"within": r.Delta.Micros, "distinct": r.Options["distinct"] == "true", "output": "count"}
	if r.Options["order"] == "strict" {
		args["order"] = "strict"
	}
	s := b.add("temporal_pattern", b.asOf(args))
	b.answer("count", s+".count")
}

// followUpConcepts reads the few words a follow-up question has only as
// a question about pairs of events: a gap written between the two events
// of a pair ("within 5 minutes of each other", "5 minutes apart") says
// they follow one another, and a verb of arriving before that gap ("land
// within a minute of each other") says when the events happen, not that
// anything reaches a node.
func (x *extractor) followUpConcepts(out map[string]int) {
	if _, ok := out[cPair]; !ok {
		return
	}
	for _, d := range x.s.durs {
		if !x.gapBetweenPair(d) {
			continue
		}
		if _, ok := out[cFollow]; !ok {
			out[cFollow] = d.i
		}
		if i, ok := out[cReach]; ok && i == x.verbBefore(d.i) {
			delete(out, cReach)
		}
	}
}

// gapBetweenPair reports a duration followed by "of each other", "of one
// another" or "apart".
func (x *extractor) gapBetweenPair(d durSlot) bool {
	if x.tok(d.j).low == "apart" {
		return true
	}
	a, b := x.tok(d.j+1).low, x.tok(d.j+2).low
	return x.tok(d.j).low == "of" && (a == "each" && b == "other" || a == "one" && b == "another")
}

// verbBefore is the index of the word before a duration and its
// "within" ("land within 1 minute"), or -1.
func (x *extractor) verbBefore(i int) int {
	k := i - 1
	if l := x.tok(k).low; l == "within" || l == "in" {
		k--
	}
	if k < 0 || x.toks[k].kind != tWord {
		return -1
	}
	return k
}

// recipientNoun reports a noun naming the node an event goes to.
func recipientNoun(w string) bool {
	switch concept(w) {
	case cNodeNoun, cRecipients, cPartner:
		return true
	}
	return false
}

// followUpOptions reads whether the pair's two recipients must differ. A
// follow-up counts a node's own outgoing events, so a receiving word is
// refused. "to a different (another, other, distinct) recipient" asks
// for two recipients; "the same recipient included (allowed)" restates
// the default; any other "same recipient" restricts and is refused.
func (x *extractor) followUpOptions(r *Reading) string {
	if x.has(cReceive) {
		return "a follow-up pair is two events a node sends; pairs of received events are not a question shape I know"
	}
	if !x.has(cSend) && !x.has(cFollow) {
		return "sent or received? write \"pairs of " + x.s.nodes[0].written + "'s outgoing messages\""
	}
	if x.has(cStrict) {
		r.Options["order"] = "strict"
	}
	for k, t := range x.toks {
		if t.kind != tWord {
			continue
		}
		if recipientNoun(t.low) {
			p, pk := x.prevWord(k)
			pk = max(pk, 0)
			switch {
			case concept(p) == cDistinct || p == "another" || p == "other":
				r.Options["distinct"] = "true"
			case p == "same":
				if n := x.tok(k + 1).low; n != "included" && n != "allowed" && n != "permitted" {
					return fmt.Sprintf("%q restricts the pairs to one recipient, which I cannot count; ask for all pairs", x.span(pk, k+1))
				}
				r.Notes = append(r.Notes, fmt.Sprintf("%q restates that the two recipients may be the same", x.span(pk, k+2)))
			case concept(t.low) != cNodeNoun && p != "any" && p != "to":
				return fmt.Sprintf("I could not tell what %q says of the recipients; a follow-up pair may go to any recipients", x.span(pk, k+1))
			}
			continue
		}
		if concept(t.low) == cDistinct && !recipientNoun(x.tok(k+1).low) {
			return fmt.Sprintf("I could not tell what %q makes distinct; write \"to two different recipients\"", t.text)
		}
	}
	return ""
}
