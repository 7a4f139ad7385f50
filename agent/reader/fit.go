package reader

import (
	"fmt"
	"strings"
)

// How an intent's concepts are matched against a question's, beyond the
// literal need and allow lists: the few readings a concept has only in
// combination with the rest of the question.

// fits reports whether an intent fits the question's concepts, read for
// that intent (see effective).
func (in *intent) fits(x *extractor) bool { return in.fitsConcepts(x.effective(in)) }

// effective is the question's concepts as an intent reads them:
//
//   - A fragment ("ratings sent by n5 in May", "versions of n7 as of tt
//     T") names what it asks about and no question word: it asks how
//     many when its head noun is something only counted (events, paths,
//     motif instances, versions) and the intent counts exactly that. A
//     fragment whose head names nodes could be a list or a number and is
//     not read this way.
//   - A partner noun ("correspondents", "counterparties") in a question
//     that names no node is a noun for nodes: nobody's partners are meant.
//   - "how many times did n5 rate n7" counts events: "times" with a
//     sending verb names occurrences of it.
func (x *extractor) effective(in *intent) map[string]int {
	cs := x.s.concepts
	out := make(map[string]int, len(cs)+1)
	for c, i := range cs {
		out[c] = i
	}
	if in.frag != "" && x.fragment() {
		if h := x.head(); h != "" && strings.Contains("|"+in.frag+"|", "|"+h+"|") {
			if _, ok := out[cHowMany]; !ok {
				out[cHowMany] = cs[h]
			}
		}
	}
	if i, ok := out[cPartner]; ok && len(x.s.nodes) == 0 && in.nodes == 0 && !in.accepts(cPartner) {
		delete(out, cPartner)
		if _, ok := out[cNodeNoun]; !ok {
			out[cNodeNoun] = i
		}
	}
	if in.nodes > 0 && in.counted == "events" && x.timesOfVerb() {
		if _, ok := out[cEvent]; !ok {
			out[cEvent] = cs[cHowMany]
		}
		out["counts-events"] = cs[cHowMany]
	}
	// "how many people did n5 write to": a count of nodes counts each
	// once, so nodes related to one by a sending verb are its distinct
	// partners in that direction.
	if i, ok := out["counts-nodes"]; ok && in.name == "partner-count" && (x.has(cSend) || x.has(cReceive)) {
		if _, ok := out[cDistinct]; !ok {
			out[cDistinct] = i
		}
	}
	if _, neg := out[cNot]; neg && in == cycleIntent && x.negatesOnlyDates() {
		delete(out, cNot)
	}
	if in.name == "follow-ups" {
		x.followUpConcepts(out)
	}
	if in.accepts(cBurst) && !in.accepts(cReach) {
		x.burstVerb(out)
	}
	if nodeAnswers[in.name] {
		if i, ok := x.listsEvents(); ok {
			out["asks-not-nodes"] = i
		}
	}
	return out
}

// nodeAnswers are the intents whose answer is nodes.
var nodeAnswers = map[string]bool{"partners": true, "neighbours-at": true, "motif-members": true, "top-nodes": true, "top-nodes-except": true, "threshold-nodes": true, "partner-threshold-nodes": true,
	"reach-first": true, "motif-first-actor": true}

// listsEvents reports a word asking for a list whose object is an event
// noun ("list the messages n5 sent", "which ratings …") or a time ("which
// month had the most messages"): events or times are asked for, not
// nodes. It returns the noun's index.
func (x *extractor) listsEvents() (int, bool) {
	for k, t := range x.toks {
		if t.kind != tWord || concept(t.low) != cWhich || t.low == "who" || t.low == "whom" {
			continue
		}
		j := k + 1
		for x.tok(j).low == "the" || x.tok(j).low == "all" || x.tok(j).low == "every" || x.tok(j).low == "of" || x.tok(j).low == "single" || x.tok(j).low == "calendar" {
			j++
		}
		if c := concept(x.tok(j).low); (c == cEvent || c == cPeriod || c == cBucket || c == cTimeNoun) && !x.tok(j).used {
			return j, true
		}
	}
	return 0, false
}

// askWords are the words that ask: interrogatives, and verbs asking for
// a list or a display. A question holding one is not a fragment.
var askWords = map[string]bool{"what": true, "whats": true, "which": true, "who": true, "whom": true, "whose": true, "when": true,
	"where": true, "how": true, "why": true, "list": true, "show": true, "give": true, "tell": true, "display": true, "name": true,
	"identify": true, "enumerate": true, "fetch": true, "pull": true, "return": true, "print": true, "find": true, "get": true,
	"whether": true, "describe": true, "explain": true}

// auxiliaries open a yes/no question ("did n5 send …?").
var auxiliaries = map[string]bool{"did": true, "does": true, "do": true, "is": true, "are": true, "was": true, "were": true,
	"has": true, "have": true, "had": true, "can": true, "could": true, "would": true, "will": true, "should": true}

// fragment reports whether the question is a noun phrase with no word
// that asks (no interrogative, no request verb, no auxiliary opening a
// sentence) and no concept that asks (how many, which, when).
func (x *extractor) fragment() bool {
	for _, c := range []string{cHowMany, cWhich, cWhen, cShare, cMost, cPeak, cRank} {
		if x.has(c) {
			return false
		}
	}
	start := true
	for _, t := range x.toks {
		if t.kind != tWord {
			if t.text == "?" || t.text == "." || t.text == ":" || t.text == ";" || t.text == "!" {
				start = true
			}
			continue
		}
		if askWords[t.low] || start && auxiliaries[t.low] {
			return false
		}
		start = false
	}
	return x.wellFormed()
}

// linkWords join the parts of a noun phrase; each must join something.
var linkWords = map[string]bool{"the": true, "a": true, "an": true, "of": true, "in": true, "at": true, "to": true, "from": true,
	"within": true, "between": true, "and": true, "or": true, "by": true, "on": true, "for": true, "with": true, "during": true,
	"over": true, "into": true, "since": true, "until": true, "before": true, "after": true, "among": true, "through": true}

// wellFormed reports whether a fragment's linking words each join
// something: none stands last in a sentence or before another linking
// word the slots did not read ("messages to in and"), no sentence opens
// with a conjunction or "to"/"of", and no word is written twice in a row.
// Without a question word to anchor it, a fragment is read only when its
// words fit together as one noun phrase.
func (x *extractor) wellFormed() bool {
	end := func(k int) bool {
		t := x.tok(k)
		return k >= len(x.toks) || t.kind == tPunct && (t.text == "?" || t.text == "." || t.text == ";" || t.text == "!" || t.text == ",")
	}
	start := true
	for k, t := range x.toks {
		if t.kind == tPunct {
			start = start || end(k) || t.text == ":"
			continue
		}
		if start && (t.low == "and" || t.low == "or" || t.low == "but" || t.low == "to" || t.low == "of") {
			return false
		}
		start = false
		if k > 0 && x.toks[k-1].low == t.low && t.kind == tWord {
			return false
		}
		if t.used || t.kind != tWord || !linkWords[t.low] || x.motifLetter(k) {
			continue
		}
		if end(k+1) || !x.tok(k+1).used && linkWords[x.tok(k+1).low] && x.tok(k+1).low != "the" && x.tok(k+1).low != "a" && x.tok(k+1).low != "an" {
			return false
		}
	}
	return true
}

// headNouns are the concepts a fragment's head noun may have.
var headNouns = []string{cNodeNoun, cPartner, cNeighbour, cEvent, cPath, cTriangle, cPingPong, cMotif, cVersion, cPair,
	cBurst, cSenders, cRecipients, cBucket, cFollow, cCorrect, cDegree}

// head is the concept of the first noun of a fragment ("" when none).
func (x *extractor) head() string {
	best, at := "", -1
	for _, c := range headNouns {
		if i, ok := x.s.concepts[c]; ok && (at < 0 || i < at) {
			best, at = c, i
		}
	}
	// "n17 messages n42": an event word right after a node is its verb.
	if best == cEvent && x.nodeAt(at-1) && !strings.ContainsAny(x.toks[at-1].text, "'’") {
		return ""
	}
	return best
}

// timesOfVerb reports "how many times" followed, before any noun, by a
// sending or receiving verb: "how many times did n5 rate n7".
func (x *extractor) timesOfVerb() bool {
	i, ok := x.s.concepts[cHowMany]
	if !ok || !(x.has(cSend) || x.has(cReceive)) || x.has(cEvent) {
		return false
	}
	for k := i; k < len(x.toks) && k <= i+3; k++ {
		if x.toks[k].low == "times" {
			return x.tok(k-1).low == "many"
		}
	}
	return false
}

// arrowCues reads "n35 -> n2600" (or "→"): the node before the arrow
// sends, the one after it receives, unless other words already say so.
func (x *extractor) arrowCues() {
	ns := x.s.nodes
	for k := 0; k+1 < len(ns); k++ {
		a, b := &ns[k], &ns[k+1]
		if b.i != a.i+2 || (x.tok(a.i+1).text != "->" && x.tok(a.i+1).text != "→") {
			continue
		}
		x.toks[a.i+1].used = true
		if a.cue == "" && b.cue == "" {
			a.cue, b.cue = "src", "dst"
		}
	}
}

// receivedBy reports a node written as the agent of a receiving verb
// ("received by n5", "got by n5"): there "by" names who received.
func (x *extractor) receivedBy(i int) bool {
	p, k := x.prevWord(i)
	if p == "node" || p == "user" || p == "account" || p == "member" || p == "person" {
		p, k = x.prevWord(k)
	}
	if p != "by" || k < 1 {
		return false
	}
	return concept(x.tok(k-1).low) == cReceive
}

// motifLetter reports a one-letter node variable of motif notation
// beside an arrow ("A->B", "b → a").
func (x *extractor) motifLetter(k int) bool {
	arrow := func(t *token) bool { return t.text == "->" || t.text == "→" }
	return len([]rune(x.toks[k].text)) == 1 && (arrow(x.tok(k-1)) || arrow(x.tok(k+1)))
}

// groupNouns name a group of nodes around a node ("n5's contacts", "the
// partners of n5").
func isGroupNoun(w string) bool {
	switch concept(w) {
	case cPartner, cNeighbour, cNodeNoun, cEvent, cSenders, cRecipients:
		return true
	}
	return false
}

// roleVerbs give a node one position of a motif ("started", "opened").
var roleVerbs = map[string]bool{"start": true, "starts": true, "started": true, "begin": true, "begins": true, "began": true,
	"begun": true, "initiate": true, "initiates": true, "initiated": true, "open": true, "opens": true, "opened": true,
	"launch": true, "launched": true, "close": true, "closes": true, "closed": true, "end": true, "ends": true, "ended": true}

// involving checks that a motif question's node is one the instances
// include, not the centre of a group the instances are among ("among
// n5's contacts", "between the partners of n5") and not a node in one
// position ("did n5 start").
func (x *extractor) involving() string {
	n := x.s.nodes[0]
	for k := 0; k < n.i; k++ {
		if l := x.toks[k].low; l == "among" || l == "amongst" || l == "between" {
			return fmt.Sprintf("motif instances among nodes related to %s, or instances that include %s? write \"involving %s\" for the second", n.written, n.written, n.written)
		}
	}
	possessive := strings.ContainsAny(x.toks[n.i].text, "'’")
	if possessive && isGroupNoun(x.tok(n.i+1).low) || x.tok(n.i-1).low == "of" && isGroupNoun(x.tok(n.i-2).low) {
		return fmt.Sprintf("%q names nodes around %s; write \"involving %s\" for the instances that include it", x.span(n.i-2, n.i+2), n.written, n.written)
	}
	// "did n5 start", "n5 opened", "started by n5": the node's role.
	for k, t := range x.toks {
		if !roleVerbs[t.low] {
			continue
		}
		if k > n.i && k <= n.i+2 || x.tok(k+1).low == "by" && x.tok(k+2) == x.toks[n.i] {
			return fmt.Sprintf("%q gives %s one position in each instance; only instances that include it in any position are counted", t.text, n.written)
		}
	}
	return ""
}
