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

// pairWords reads the words a follow-up question uses of its pair's two
// events, when the question asks about pairs ("pair", "pairs", "follow"
// written): "the first" and "the second" name the pair's events ("the
// second went out no later than ten minutes after the first"), and a
// remark on events stamped with one instant says how they pair (see
// sameInstant).
func (x *extractor) pairWords() {
	pairs := false
	for _, t := range x.toks {
		pairs = pairs || t.low == "pair" || t.low == "pairs" || concept(t.low) == cFollow
	}
	if !pairs {
		return
	}
	first, second := -1, -1
	for i, t := range x.toks {
		if t.used || x.tok(i-1).low != "the" {
			continue
		}
		switch n := x.tok(i + 1); {
		case t.low == "first" && first < 0:
			first = i
		case t.low == "second" && second < 0 && !x.superlativeAt(i+1) && unitUS[n.low] == 0:
			second = i
		}
	}
	if first >= 0 && second >= 0 {
		x.toks[second].used = true
		x.s.ignored = append(x.s.ignored, x.span(second-1, second+1))
		// "the second went out after the first": the pair's events
		// follow one another.
		after, before := false, false
		for k := second + 1; k < len(x.toks); k++ {
			t, neg := x.toks[k], x.tok(k-1).low == "no" || x.tok(k-1).low == "not"
			after = after || !neg && (t.low == "after" || t.low == "later" || concept(t.low) == cFollow)
			before = before || t.low == "before" || neg && t.low == "later"
		}
		if after && !before {
			x.mark(cFollow, second)
		}
		// "pairs … in which the second …": a relative clause on the
		// pairs, not a question word.
		for _, k := range []int{first, second} {
			if x.tok(k-2).low == "which" && x.tok(k-3).low == "in" && !x.clauseStart(k-3) {
				x.use(k-3, k-1)
			}
		}
	}
	for i := range x.toks {
		if !x.toks[i].used {
			x.sameInstant(i)
		}
	}
	x.howOftenPairs()
}

// howOftenPairs reads "how often" in a pair question that also asks for
// "the number of (such) pairs": "how often" alone may ask a count or a
// rate, and the number of pairs settles it as the count.
func (x *extractor) howOftenPairs() {
	at := -1
	for i, t := range x.toks {
		if !t.used && t.low == "how" && x.tok(i+1).low == "often" {
			at = i
		}
	}
	if at < 0 || x.ratePeriod() {
		return
	}
	for i, t := range x.toks {
		if t.low != "number" || x.tok(i+1).low != "of" || i < at {
			continue
		}
		k := i + 2
		if x.tok(k).low == "such" {
			k++
		}
		if l := x.tok(k).low; l == "pair" || l == "pairs" {
			x.use(at, at+2)
			x.mark(cHowMany, at)
			return
		}
	}
}

// instantNouns name what one timestamp is.
var instantNouns = map[string]bool{"second": true, "instant": true, "time": true, "timestamp": true, "moment": true, "microsecond": true}

// sameInstant reads a remark on events stamped with one instant ("two
// copies stamped with the same second count as one pair", "messages sent
// at the same instant included"). A pair is ordered by (time, event id),
// so two such events make one pair: a remark that they count (once, as
// one pair, included) restates it; one that they do not (excluded, "do
// not count") asks for the second strictly later. Any other remark is
// left unread, and refused.
func (x *extractor) sameInstant(i int) {
	k := i
	if l := x.tok(k).low; l == "two" || l == "both" {
		k++
	}
	if l := x.tok(k).low; concept(l) != cEvent && l != "copies" && l != "ones" && l != "duplicates" {
		return
	}
	k++
	switch x.tok(k).low {
	case "stamped", "timed", "sent", "written", "logged", "recorded", "dated":
		k++
	default:
		return
	}
	if l := x.tok(k).low; l != "with" && l != "at" && l != "in" && l != "on" {
		return
	}
	k++
	if l := x.tok(k).low; l == "the" || l == "one" || l == "a" {
		k++
	}
	if x.tok(k).low != "same" || !instantNouns[x.tok(k+1).low] {
		return
	}
	k += 2
	included, n := x.pairCount(k)
	if n == 0 {
		return
	}
	k += n
	// ", each such pair once", "each pair once": one order counts.
	j := k
	if x.tok(j).text == "," {
		j++
	}
	if x.tok(j).low == "each" {
		m := j + 1
		if x.tok(m).low == "such" {
			m++
		}
		if x.tok(m).low == "pair" && x.tok(m+1).low == "once" {
			k = m + 2
		}
	}
	x.ignore(i, k)
	if !included {
		x.mark(cStrict, i)
	}
}

// pairCount reads how a remark says same-instant events pair, at k:
// whether they count, and how many tokens say it (0 for none).
func (x *extractor) pairCount(k int) (bool, int) {
	if l := x.tok(k).low; l == "are" || l == "is" {
		n, m := x.pairCount(k + 1)
		return n, m + map[bool]int{true: 1, false: 0}[m > 0]
	}
	w := func(j int) string { return x.tok(k + j).low }
	switch {
	case w(0) == "included":
		return true, 1
	case (w(0) == "count" || w(0) == "counted") && w(1) == "as" && w(2) == "one" && w(3) == "pair":
		return true, 4
	case w(0) == "count" && w(1) == "once", w(0) == "form" && w(1) == "one" && w(2) == "pair":
		return w(0) == "count", 2 + map[bool]int{true: 0, false: 1}[w(0) == "count"]
	case w(0) == "excluded":
		return false, 1
	case w(0) == "do" && w(1) == "not" && w(2) == "count":
		return false, 3
	}
	return false, 0
}
