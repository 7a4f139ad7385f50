package reader

import (
	"fmt"
	"strings"
)

// A node's count of events with no sending or receiving verb takes its
// direction from the preposition before the node, and only from one
// that names a direction (doc.go): "to" (into, towards) the node counts
// what it received, "from" (by) what it sent, both joined ("to or from",
// "from and to") either; "for" the node names no direction ("ratings
// recorded for n5": received, or every rating on n5's record?) and is
// refused, and so is a preposition before a possessive ("from n5's
// contacts": it governs the noun the node owns). A verb right after the
// node ("did n5 give", "did n5 get") is the node's own act.

var (
	toWords   = map[string]bool{"to": true, "into": true, "towards": true, "toward": true}
	fromWords = map[string]bool{"from": true, "by": true}
	// giveVerbs and getVerbs after a node make it the sender or receiver.
	giveVerbs = map[string]bool{"give": true, "gives": true, "hand": true}
	getVerbs  = map[string]bool{"get": true, "gets": true}
)

// bareDirection reads the direction of the node at token i in a question
// that writes no sending or receiving verb: "src", "dst", "either" (no
// preposition says one), or a problem.
func (x *extractor) bareDirection(i int) (string, string) {
	switch next := x.tok(i + 1).low; {
	case giveVerbs[next]:
		return "src", ""
	case getVerbs[next]:
		return "dst", ""
	}
	p, k := x.prevWord(i)
	if p == "node" || p == "user" || p == "account" || p == "member" || p == "person" {
		p, k = x.prevWord(k)
	}
	joined := func(other map[string]bool) bool {
		c, j := x.prevWord(k)
		if c != "or" && c != "and" {
			return false
		}
		o, _ := x.prevWord(j)
		return other[o]
	}
	if (toWords[p] || fromWords[p] || p == "for") && possessive(x.toks[i]) {
		// "messages from n5's contacts": the preposition governs the noun
		// the node owns, not the node.
		return "", fmt.Sprintf("%q %s: sent or received by whom? write \"sent by\" or \"received by\" with the node", p, x.toks[i].text)
	}
	switch {
	case toWords[p] && joined(fromWords), fromWords[p] && joined(toWords):
		return "either", ""
	case toWords[p]:
		return "dst", ""
	case fromWords[p]:
		return "src", ""
	case p == "for":
		return "", "sent or received? \"for " + x.toks[i].text + "\" names neither; write \"sent by\" or \"received by\""
	}
	return "either", ""
}

// pairGive reads "give" and "get" right after a node of a two-node count:
// "did n5 give … n7" is n5's sending; a node that gets, or the second
// node giving, would reverse the pair, and is refused.
func (x *extractor) pairGive() string {
	for k, n := range x.s.nodes[:2] {
		next := x.tok(n.i + 1).low
		if getVerbs[next] || k == 1 && giveVerbs[next] {
			return fmt.Sprintf("which way? %q %q: write \"from %s to …\"", n.written, next, n.written)
		}
	}
	return ""
}

// passiveSend is the sending verb of a passive ("was rated", "got
// trusted", a past participle of the store's relation type) whose
// subject is not a node written, or "".
func (x *extractor) passiveSend() string {
	for i, t := range x.toks {
		verb := concept(t.low) == cSend || x.isRelType(t.low) && strings.HasSuffix(t.low, "ed") // "was trusted" on TRUST
		if t.kind != tWord || !verb {
			continue
		}
		if beForms[x.tok(i-1).low] && !x.isNodeTok(i-2) {
			return x.span(i-1, i+1)
		}
		// "the most-rated account": a participle after "most" names
		// those the events went to.
		if participle := strings.HasSuffix(t.low, "ed") || t.low == "sent" || t.low == "written"; participle &&
			(x.tok(i-1).low == "most" || x.tok(i-1).text == "-" && x.tok(i-2).low == "most") {
			return x.tok(i-1-map[bool]int{true: 1}[x.tok(i-1).text == "-"]).text + " " + t.text
		}
	}
	return ""
}

// pairJoined refuses two nodes joined by "and" or "or" as the subject of
// a sending or receiving verb ("did n5 and n7 send", "sent by n5 or
// n7"): they act side by side, and neither is the other's partner.
// "between n5 and n7" and a verb of exchange name the pair.
func (x *extractor) pairJoined(send, recv bool) string {
	a, b := x.s.nodes[0].i, x.s.nodes[1].i
	if b != a+2 || (x.tok(a+1).low != "and" && x.tok(a+1).low != "or") || x.has(cBetween) || x.has(cEither) || !send && !recv {
		return ""
	}
	if x.tok(a+1).low == "and" && x.exchangeVerb() {
		return ""
	}
	return fmt.Sprintf("%q: each node's own events, or those between them? write \"from %s to %s\" or ask about each", x.span(a, b+1), x.s.nodes[0].written, x.s.nodes[1].written)
}

// exchangeVerb reports a verb that names both directions ("exchange",
// "trade").
func (x *extractor) exchangeVerb() bool {
	for _, t := range x.toks {
		if strings.HasPrefix(t.low, "exchang") || strings.HasPrefix(t.low, "trad") || t.low == "swapped" || t.low == "swap" {
			return true
		}
	}
	return false
}
