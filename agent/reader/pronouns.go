package reader

import "fmt"

// personalPronouns point at one person: with one node written before
// them they name it, and are ignored (vocab.go).
var personalPronouns = map[string]bool{"he": true, "she": true, "him": true, "his": true, "her": true, "hers": true}

// reflexives after a preposition name the node as its own partner.
var reflexives = map[string]bool{"himself": true, "herself": true, "itself": true, "themselves": true, "themself": true}

// pronounOfTwo refuses "to himself" and the like (a restriction), and
// a personal pronoun that does not point back at
// one node: in a question that names two or more ("Take n5 and n7. How
// many did he send?") it may be either, and written before the only
// node ("did he send …? I mean n5") it points forward, where the node's
// own place in the sentence may give it another role.
func (x *extractor) pronounOfTwo() {
	uids := map[string]bool{}
	first := len(x.toks)
	for _, n := range x.s.nodes {
		uids[n.uid] = true
		first = min(first, n.i)
	}
	for i, t := range x.toks {
		included := func(w string) bool { return w == "included" || w == "including" || w == "inclusive" || w == "too" }
		if !t.used && reflexives[t.low] && (srcCue[x.tok(i-1).low] || dstCue[x.tok(i-1).low] || x.tok(i-1).low == "with" ||
			included(x.tok(i+1).low) || included(x.tok(i-1).low)) {
			// "sent to himself": the node's messages to itself, which
			// restricts what is counted; "n5 itself included" puts the
			// node among nodes that leave it out.
			x.mark(cUnsupported, i)
			x.s.notes = append(x.s.notes, fmt.Sprintf("%q names the node as its own partner", x.span(i-1, i+1)))
			return
		}
		if t.used || t.kind != tWord || !personalPronouns[t.low] {
			continue
		}
		switch {
		case len(uids) > 1:
			x.mark(cUnsupported, i)
			x.s.notes = append(x.s.notes, fmt.Sprintf("%q may point at any of the %d nodes written; name the node", t.text, len(uids)))
		case len(uids) == 1 && i < first:
			x.mark(cUnsupported, i)
			x.s.notes = append(x.s.notes, fmt.Sprintf("%q stands before the node it names; name the node in its place", t.text))
		default:
			continue
		}
		return
	}
}
