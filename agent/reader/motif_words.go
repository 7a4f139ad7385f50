package reader

import (
	"fmt"
	"slices"
)

// Phrasings of motifs: loops and circles of three, the span of an
// instance measured from its first event, and the node that opens one.

// loopNouns name a closed walk; of three nodes, a cyclic triangle.
var loopNouns = map[string]bool{"loop": true, "loops": true, "circle": true, "circles": true, "ring": true, "rings": true}

// motifWords reads the placed words of motif questions.
func (x *extractor) motifWords() {
	triangle := false
	for i, t := range x.toks {
		if !t.used && t.kind == tWord && loopNouns[t.low] && x.ofThree(i) {
			triangle = true
		}
	}
	if triangle {
		// Once a loop of three is named, a loop noun again ("the whole
		// circle closed within an hour") is the same loop, and "going
		// round" it says only that the messages follow it.
		for i, t := range x.toks {
			if t.used || t.kind != tWord {
				continue
			}
			if loopNouns[t.low] {
				t.used = true
				x.mark(cTriangle, i)
			}
			if (t.low == "round" || t.low == "around") && (x.tok(i+1).low == "a" || x.tok(i+1).low == "the") && loopNouns[x.tok(i+2).low] {
				t.used = true
			}
		}
	}
	if !triangle && !x.motifQuestion() {
		return
	}
	for i, t := range x.toks {
		if t.used || t.kind != tWord {
			continue
		}
		switch t.low {
		case "opening":
			// "the opening message of the earliest triangle": its first.
			t.used = true
			x.mark(cFirst, i)
		case "only":
			x.onlyReachSet(i)
		case "open", "opens", "opened":
			// "whose rating opens the earliest triangle": starts it, as
			// "start" (no concept of its own).
			t.used = true
		}
	}
	x.asCorner()
	// "within half an hour of their first message": a motif's span is
	// measured from its first event; the phrase restates δ.
	for _, d := range x.s.durs {
		k := d.j
		if x.tok(k).low != "of" {
			continue
		}
		k++
		if l := x.tok(k).low; l == "its" || l == "their" || l == "the" {
			k++
		}
		if x.tok(k).low != "first" || !x.tok(k+1).used && concept(x.tok(k+1).low) != cEvent {
			continue
		}
		x.ignore(d.j, k+2)
	}
}

// motifQuestion reports a word naming a motif among the unread words.
func (x *extractor) motifQuestion() bool {
	for _, t := range x.toks {
		if c := concept(t.low); !t.used && t.kind == tWord && (c == cTriangle || c == cPingPong || c == cMotif) {
			return true
		}
	}
	return false
}

// ofThree reports whether the loop noun at i is sized three where it
// stands: "a circle of three colleagues", "three-person loops", "3-node
// rings", "a->b->c->a rating loops".
func (x *extractor) ofThree(i int) bool {
	three := func(t *token) bool {
		return !t.used && (t.low == "three" || t.kind == tNum && t.text == "3") && !isUnit(x.tok(i+3).low)
	}
	if x.tok(i+1).low == "of" && three(x.tok(i+2)) {
		return true
	}
	k := i - 1
	if c := concept(x.tok(k).low); x.tok(k).kind == tWord && (c == cEvent || c == cNodeNoun || sizeNouns[x.tok(k).low]) {
		k--
	}
	if x.tok(k).text == "-" {
		k--
	}
	return three(x.tok(k)) || x.arrowCycleEndsAt(k) || x.arrowCycleEndsAt(i+7)
}

// arrowCycleEndsAt reports motif notation of a cyclic triangle ending at
// token k: three distinct letters and back to the first ("a->b->c->a").
func (x *extractor) arrowCycleEndsAt(k int) bool {
	if k < 6 {
		return false
	}
	var letters []string
	for j := k - 6; j <= k; j += 2 {
		t := x.tok(j)
		if len([]rune(t.low)) != 1 || t.kind != tWord {
			return false
		}
		letters = append(letters, t.low)
		if j < k && x.tok(j+1).text != "->" && x.tok(j+1).text != "→" {
			return false
		}
	}
	return letters[0] == letters[3] && letters[0] != letters[1] && letters[1] != letters[2] && letters[0] != letters[2]
}

// closingVerbs give a node the last position of a motif instance.
var closingVerbs = []string{"close", "closes", "closed", "closing", "complete", "completes", "completed", "completing",
	"end", "ends", "ended", "ending", "finish", "finishes", "finished", "finishing"}

// closingAsked refuses "which node closes the earliest triangle": the
// question asks for the node in the last position, while the reader
// names only the sender of an instance's first edge. A closing verb that
// bounds the span ("closed within the hour") is δ, not a role.
func (x *extractor) closingAsked(in *intent) string {
	if in.name != "motif-first-actor" {
		return ""
	}
	for k, t := range x.toks {
		if !slices.Contains(closingVerbs, t.low) {
			continue
		}
		if n := x.tok(k + 1).low; n == "within" || n == "in" || n == "inside" || n == "under" || x.tok(k+1).used {
			continue
		}
		return fmt.Sprintf("%q asks for the node that ends an instance; I can name only the node that sends its first edge", t.text)
	}
	return ""
}

// attentionVerbs direct attention to a set ("considering only the nodes
// n5 can reach").
var attentionVerbs = map[string]bool{"considering": true, "consider": true, "counting": true, "taking": true, "among": true}

// onlyReachSet reads "considering only the staff n98 could reach" in a
// motif question: "only" names the set the instances are drawn from,
// which the reach-filtered intents restrict to already. It is read only
// when the words after it are a node and a reach verb.
func (x *extractor) onlyReachSet(i int) {
	if !attentionVerbs[x.tok(i-1).low] {
		return
	}
	for k := i + 1; k < i+7 && !x.clauseEnd(k); k++ {
		if x.nodeAt(k) {
			for j := k + 1; j <= k+2; j++ {
				if concept(x.tok(j).low) == cReach {
					x.ignore(i, i+1)
					return
				}
			}
			return
		}
	}
}

// cornerNouns name the nodes of a motif instance.
var cornerNouns = map[string]bool{"corner": true, "corners": true, "vertex": true, "vertices": true, "member": true, "members": true,
	"party": true, "parties": true, "node": true, "nodes": true}

// asCorner reads "with n5 as one of the corners" in a motif question: a
// node named as one of an instance's nodes is one the instance includes,
// as "involving n5" says.
func (x *extractor) asCorner() {
	if x.hasWord(cAround, -1, -1) {
		return // "involving n5 as one of the two parties": restated (restate.go)
	}
	for _, n := range x.s.nodes {
		k := n.i + 1
		if x.tok(k).low != "as" {
			continue
		}
		k++
		switch {
		case x.tok(k).low == "one" && x.tok(k+1).low == "of" && x.tok(k+2).low == "the":
			k += 3
			if l := x.tok(k).low; l == "three" || l == "two" {
				k++
			}
		case x.tok(k).low == "a" || x.tok(k).low == "an":
			k++
		default:
			continue
		}
		if !cornerNouns[x.tok(k).low] || x.tok(k).used {
			continue
		}
		x.use(n.i+1, k+1)
		x.mark(cAround, n.i+1)
	}
}
