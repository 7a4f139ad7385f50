package reader

import "fmt"

// Ranks and exclusions of a ranking question (doc.go states the
// principles): an ordinal before a superlative ("the second-busiest
// day", "the third most active sender", "the runner-up") asks for the
// row at that rank; a node set aside where it stands beside the ranked
// nodes ("apart from n5, who …", "who, other than n5, …") is dropped
// before the ranking is taken.

const (
	cOrdinal = "ordinal" // a rank below the first ("second-busiest")
	cExcept  = "except"  // a node set aside from the nodes ranked
)

// rankOrdinals are the ordinal words a rank is written with.
var rankOrdinals = map[string]int64{"second": 2, "third": 3, "fourth": 4, "fifth": 5}

// superlativeAt reports whether token i is a ranking superlative
// ("busiest", "most", "highest", "largest").
func (x *extractor) superlativeAt(i int) bool {
	t := x.tok(i)
	if t.kind != tWord {
		return false
	}
	c := concept(t.low)
	return c == cPeak || c == cMost || t.low == "largest" || t.low == "biggest"
}

// rankWords reads ordinals before a superlative (only the busiest-bucket
// and top-nodes intents accept the rank); an ordinal anywhere else is
// left for the word pass, which refuses it.
func (x *extractor) rankWords() {
	rank, at := int64(0), -1
	ranked := map[int]bool{} // the superlatives an ordinal ranks
	for i, t := range x.toks {
		if t.used || t.kind != tWord {
			continue
		}
		n, j := int64(0), i
		switch {
		case rankOrdinals[t.low] > 0:
			// "second-busiest", "second busiest", "second most active".
			k := i + 1
			if x.tok(k).text == "-" {
				k++
			}
			if adjacent(x.toks, i, k) && x.superlativeAt(k) {
				n, j = rankOrdinals[t.low], k
			}
		case t.low == "runner" && x.tok(i+1).text == "-" && x.tok(i+2).low == "up" && adjacent(x.toks, i, i+2):
			n, j = 2, i+3
		case t.low == "runner" && x.tok(i+1).low == "up":
			n, j = 2, i+2
		}
		if n == 0 {
			continue
		}
		if rank != 0 && rank != n {
			x.s.notes = append(x.s.notes, fmt.Sprintf("two ranks written: %d and %d", rank, n))
			x.mark(cUnsupported, i) // two ranks: which one?
			return
		}
		if rank == 0 {
			rank, at = n, i
		}
		ranked[j] = true
		// The superlative after an ordinal stays for the word pass; a
		// "runner-up" is the whole phrase.
		x.use(i, j)
		if t.low == "runner" {
			x.mark(cPeak, i)
		}
	}
	if rank == 0 {
		return
	}
	x.mark(cOrdinal, at)
	x.s.rank = rank
	x.notFirst()
	// "which day had the most, and which the second most": a superlative
	// no ordinal ranks asks for the first rank as well.
	for i, t := range x.toks {
		if !t.used && !ranked[i] && x.superlativeAt(i) {
			x.mark(cUnsupported, i)
			x.s.notes = append(x.s.notes, fmt.Sprintf("%q asks for the first rank beside rank %d", t.text, rank))
		}
	}
}

// notFirst ignores a negation of the first rank ("not the busiest", "not
// the top one") in a question that asks for a lower rank: it restates
// that the first is not meant.
func (x *extractor) notFirst() {
	for i, t := range x.toks {
		if t.used || t.low != "not" {
			continue
		}
		k := i + 1
		if x.tok(k).low == "the" {
			k++
		}
		if x.superlativeAt(k) || x.tok(k).low == "top" || x.tok(k).low == "first" {
			j := k + 1
			if x.tok(j).low == "one" {
				j++
			}
			if j < len(x.toks) && !x.clauseEnd(j) {
				continue // "not the busiest sender to n5": more than a rank
			}
			x.ignore(i, j)
		}
	}
}

// exceptAt reads an exclusion phrase at i ("apart from", "aside from",
// "other than", "except", "except for", "excluding", "besides", "not
// counting", "leaving out")
// followed by a node: it returns the node's token index, or -1.
func (x *extractor) exceptAt(i int) int {
	t := x.tok(i)
	if t.kind != tWord {
		return -1
	}
	k := i + 1
	switch n := x.tok(k).low; {
	case (t.low == "apart" || t.low == "aside") && n == "from", t.low == "other" && n == "than", t.low == "except" && n == "for":
		k++
	case t.low == "not" && n == "counting", t.low == "leaving" && n == "out":
		k++
	case t.low == "except" || t.low == "excluding" || t.low == "besides":
	default:
		return -1
	}
	if !x.nodeAt(k) {
		return -1
	}
	return k
}

// asksWho reports whether tokens [a, b) are only the words that ask for
// the ranked nodes: "who", or "which" with a count and a node noun
// ("which three senders").
func (x *extractor) asksWho(a, b int) bool {
	if b <= a || !x.clauseStart(a) {
		return false
	}
	if w := x.tok(a).low; w != "who" && w != "which" {
		return false
	}
	for k := a + 1; k < b; k++ {
		t := x.tok(k)
		if c := concept(t.low); !(t.kind == tNum || numberWords[t.low] > 0 || c == cNodeNoun || c == cSenders || c == cRecipients) {
			return false
		}
	}
	return true
}

// exceptNode reads a node set aside from a ranking. It is read only
// where it stands beside the ranked nodes: opening the question and
// closed by a comma ("Apart from n5, which …"), or set off by commas
// right after the word that asks who ("Who, other than n5, …"). Written
// anywhere else it may set aside the node's events rather than the node
// (", excluding n5" after the events counted), and is refused.
func (x *extractor) exceptNode() {
	for i, t := range x.toks {
		if t.used {
			continue
		}
		k := x.exceptAt(i)
		if k < 0 {
			if (t.low == "apart" || t.low == "aside") && x.tok(i+1).low == "from" {
				// "apart from those from n7": what is set aside is not a
				// node, and may be events of the count.
				x.mark(cUnsupported, i)
				x.s.notes = append(x.s.notes, fmt.Sprintf("%q sets aside something other than a node", x.span(i, i+2)))
			}
			continue
		}
		closed := x.tok(k+1).text == ","
		p := x.tok(i - 1)
		opening := i == 0 && closed
		start := i - 2
		for start > 0 && !x.clauseStart(start) {
			start--
		}
		afterWho := p.text == "," && closed && x.asksWho(start, i-1)
		x.use(i, k)
		again := 0
		for _, u := range x.toks {
			if u.low == x.toks[k].low {
				again++
			}
		}
		if again > 1 {
			// "apart from n5, who sent the most, and how many did n5
			// send?": written again, the node has another role.
			x.mark(cUnsupported, i)
			continue
		}
		if !opening && !afterWho {
			x.mark(cUnsupported, i)
			x.s.notes = append(x.s.notes, fmt.Sprintf("%q is read only opening the question or right after \"who\": elsewhere it may set aside the node's events", x.span(i, k+1)))
			continue
		}
		x.mark(cExcept, i)
	}
}

// rankK is how many rows a ranking takes, and the row answered: the
// rank written ("the second-busiest": two rows, the second), else the
// first k.
func rankK(r *Reading, k int64) (int64, string) {
	if n := parseInt(r.Options["rank"]); n > 1 {
		return n, fmt.Sprintf("rows[%d]", n-1)
	}
	return k, "rows[0]"
}

// mostText says which bucket a ranking of buckets answers.
func mostText(r *Reading) string {
	if n := parseInt(r.Options["rank"]); n > 1 {
		return fmt.Sprintf("ranked %d by edge events (ties by the row's canonical text)", n)
	}
	return "with the most edge events"
}

// rankOptions reads the rank of a ranking question: one rank, with no
// count of rows beside it ("the second three" asks for no one row).
func (x *extractor) rankOptions(in *intent, r *Reading) string {
	if !x.has(cOrdinal) {
		return ""
	}
	if x.s.k > 1 {
		return fmt.Sprintf("a rank and a count? the question writes both %q and rank %d", x.s.kText, x.s.rank)
	}
	r.K = 1
	r.Options["rank"] = fmt.Sprint(x.s.rank)
	return ""
}

// topNodesExcept is top-nodes with a node set aside: the ranking is
// taken over the rows without it, so the k nodes answered are the k
// best of the others.
var topNodesExcept = &intent{name: "top-nodes-except", example: "Apart from {x}, which {k} nodes sent the most messages {W}?",
	need: []string{cMost + "|" + cRank + "|" + cPeak, cExcept}, allow: []string{cWhich, cEvent, cSend, cReceive, cPartner, cDistinct, cRank, cMost, cPeak, cHowMany, cSenders, cRecipients, cOrdinal}, nodes: 1, window: true, k: true, belief: true,
	summary: func(r *Reading) string {
		return topNodesText(r) + ", leaving out " + nodeText(r, "excluded")
	},
	build: func(r *Reading, b *builder) { topNodes(r, b, "excluded") }}

func init() { intents = append(intents, topNodesExcept) }

func topNodesIntent(in *intent) bool { return in.name == "top-nodes" || in.name == "top-nodes-except" }
