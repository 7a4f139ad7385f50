package reader

import (
	"fmt"
	"strings"
)

// sceneRelations are words that would move or bound a scene's time if
// left unread ("two hours after T", "just before T"): a scene holding one
// is not a bare placing of its node at the time written.
var sceneRelations = map[string]bool{"after": true, "before": true, "later": true, "earlier": true, "since": true, "until": true,
	"till": true, "ago": true, "prior": true, "following": true, "preceding": true, "previous": true, "next": true, "within": true,
	"between": true, "from": true, "around": true, "about": true, "approximately": true, "roughly": true, "nearly": true, "almost": true,
	"not": true, "never": true, "no": true, "if": true, "unless": true, "except": true, "without": true}

// scenePlurals are words of the question that may point at something
// the scene describes rather than at its time.
var scenePlurals = map[string]bool{"them": true, "they": true, "those": true, "these": true, "such": true, "ones": true}

// scene reads a sentence that sets the scene before the question: one
// declarative sentence placing the question's node at a time ("n5 sent a
// memo at 09:00 on 3 May 2004."), then the question, pointing back at
// that time ("who were its contacts at that instant?", "at each of those
// two instants"). The scene's other words only describe what the node
// did then, so they are ignored and listed; the question's own words are
// read as ever. A scene that names another node, moves its time (a
// number, a unit, a relation such as "after") or points at a number of
// instants it does not write is refused.
func (x *extractor) scene() error {
	end := -1
	for i, t := range x.toks {
		if t.kind == tPunct && (t.text == "." || t.text == ";") && i+1 < len(x.toks) {
			end = i
			break
		}
		if t.text == "?" {
			return nil
		}
	}
	if end < 0 {
		return nil
	}
	want := x.pointsBack(end + 1)
	if want == 0 {
		return nil
	}
	var times []timeSlot
	for _, ts := range x.s.times {
		if ts.w.i > end {
			return nil // the question writes its own time: nothing points back
		}
		times = append(times, ts)
	}
	if len(times) == 0 {
		return nil
	}
	sceneText := x.span(0, end)
	refuse := func(why string) error {
		return &Refusal{Problem: fmt.Sprintf("the sentence before the question (%q) %s", sceneText, why), Missing: []string{"time"}}
	}
	if len(times) != want {
		return refuse(fmt.Sprintf("writes %d times, and the question points back at %d", len(times), want))
	}
	for _, ts := range times {
		if ts.prep != "at" && ts.prep != "on" && ts.prep != "" {
			return refuse(fmt.Sprintf("writes %q after %q, which does not place its node at it", ts.w.text, ts.prep))
		}
		if ts.w.prec != PrecInstant {
			return refuse(fmt.Sprintf("writes %q, a period, where the question points back at an instant", ts.w.text))
		}
	}
	// The nodes: the scene places one node, the question's own.
	sceneNode, asked := "", map[string]bool{}
	for i, t := range x.toks {
		if t.kind != tWord || !x.isNode(t.low, t.text) {
			continue
		}
		u := x.uidOf(t)
		if i >= end {
			asked[u] = true
			continue
		}
		if sceneNode != "" && sceneNode != u {
			return refuse(fmt.Sprintf("names two nodes (%s, %s)", sceneNode, u))
		}
		sceneNode = u
	}
	if sceneNode == "" {
		return refuse("places no node at its time")
	}
	if len(asked) > 0 && !asked[sceneNode] {
		return refuse(fmt.Sprintf("is about %s, and the question about another node", sceneNode))
	}
	// A plural pronoun in the question may point at what the scene
	// describes ("which of them"): the scene would then restrict.
	// One after a node noun of the question ("its correspondents …,
	// which ones") points at that noun.
	nodeNoun := false
	for k := end + 1; k < len(x.toks); k++ {
		l := x.tok(k).low
		if scenePlurals[l] && !(l == "those" && x.tok(k+1).low == "two") && !(nodeNoun && (l == "ones" || l == "them" || l == "they")) {
			return refuse(fmt.Sprintf("may be what %q in the question points at", x.tok(k).text))
		}
		nodeNoun = nodeNoun || isNodeNoun(l) || concept(l) == cPartner || concept(l) == cNeighbour
	}
	if want == 2 {
		if err := x.sceneOrdinals(end+1, times, refuse); err != nil {
			return err
		}
		x.partnersAtInstants(end + 1)
	}
	var ignored, run []string
	for i := 0; i <= end; i++ {
		t := x.toks[i]
		if t.used || x.isNodeTok(i) || t.kind == tPunct {
			if len(run) > 0 {
				ignored, run = append(ignored, strings.Join(run, " ")), nil
			}
			continue
		}
		if t.kind != tWord || sceneRelations[t.low] || unitUS[t.low] > 0 || numberWords[t.low] > 0 && t.low != "a" && t.low != "an" {
			return refuse(fmt.Sprintf("has %q, which may move or bound its time", t.text))
		}
		run = append(run, t.text)
	}
	for i := 0; i <= end; i++ {
		x.toks[i].used = x.toks[i].used || !x.isNodeTok(i)
	}
	x.s.ignored = append(x.s.ignored, ignored...)
	x.s.notes = append(x.s.notes, map[int]string{1: "the question points back at the time the sentence before it writes",
		2: "the question points back at the two times the sentence before it writes"}[want])
	return nil
}

// isNodeTok reports whether the token at i is a node uid.
func (x *extractor) isNodeTok(i int) bool {
	t := x.tok(i)
	return t.kind == tWord && x.isNode(t.low, t.text)
}

// pointsBack is how many instants the words from i on point back at:
// 1 for "at that (very, exact, same) instant (second, moment)", 2 for
// "at (each of) those two instants" or "between those two instants"; 0
// when they point at none.
func (x *extractor) pointsBack(i int) int {
	for k := i; k < len(x.toks); k++ {
		// Only "at" (or "between" two instants) points at the instants
		// themselves: "since that moment" would be a window from it.
		at := x.tok(k-1).low == "at"
		switch x.tok(k).low {
		case "that":
			if !at {
				continue
			}
			j := k + 1
			if l := x.tok(j).low; l == "very" || l == "exact" || l == "same" || l == "precise" {
				j++
			}
			if l := x.tok(j).low; l == "instant" || l == "second" || l == "moment" {
				return 1
			}
		case "those":
			each := x.tok(k-1).low == "of" && x.tok(k-2).low == "each" && x.tok(k-3).low == "at"
			if x.tok(k+1).low == "two" && (at || each || x.tok(k-1).low == "between") {
				if l := x.tok(k + 2).low; l == "instants" || l == "moments" || l == "times" {
					return 2
				}
			}
		}
	}
	return 0
}

// sceneOrdinals reads "at the first" and "at the second" in the question
// after a scene of two instants as those instants in the order written,
// and the one after a negation ("that it did not have at the first") as
// the base of the change asked for. Ordinals with no negation, or both
// negated, are refused.
func (x *extractor) sceneOrdinals(from int, times []timeSlot, refuse func(string) error) error {
	at := [2]int{-1, -1}
	for k := from; k+2 < len(x.toks); k++ {
		if x.tok(k).low != "at" || x.tok(k+1).low != "the" {
			continue
		}
		switch x.tok(k + 2).low {
		case "first":
			at[0] = k
		case "second":
			at[1] = k
		}
	}
	if at[0] < 0 && at[1] < 0 {
		return nil
	}
	if at[0] < 0 || at[1] < 0 {
		return refuse("writes two times, and the question names only one of them by its place")
	}
	neg := -1
	for n, k := range at {
		for b := k - 1; b >= from && b >= k-5; b-- {
			if concept(x.tok(b).low) == cNot {
				if neg >= 0 {
					return refuse("writes two times, and the question negates both")
				}
				neg = n
				break
			}
		}
	}
	if neg < 0 {
		return refuse("writes two times, and the question does not say which is the base")
	}
	for _, k := range at {
		x.ignore(k, k+3)
	}
	x.sceneNeg = times[neg].w.i + 1
	return nil
}

// partnersAtInstants reads a partner noun written at the scene's two
// instants ("its correspondents at each of those two instants") as the
// neighbours then: whom a node is in contact with at an instant is its
// neighbours at that instant. A partner noun anywhere else is left to
// be read as ever (over a window, partners are not neighbours).
func (x *extractor) partnersAtInstants(from int) {
	for k := from; k < len(x.toks); k++ {
		t := x.toks[k]
		if t.used || t.kind != tWord || concept(t.low) != cPartner || x.tok(k+1).low != "at" {
			continue
		}
		j := k + 2
		if x.tok(j).low == "each" && x.tok(j+1).low == "of" {
			j += 2
		}
		if x.tok(j).low == "those" && x.tok(j+1).low == "two" {
			t.used = true
			x.mark(cNeighbour, k)
			x.s.notes = append(x.s.notes, fmt.Sprintf("%q at two instants: the neighbours then", t.text))
		}
	}
}
