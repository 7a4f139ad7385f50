package reader

import (
	"fmt"
	"strings"
)

// Phrasings of a node's partners, neighbours and degree, and of nodes
// that are new.

// cDuplicates marks words saying that repeated records are counted
// each time ("duplicates included", "rather than distinct people"):
// what a degree counts, and nothing any other intent does.
const cDuplicates = "duplicates"

// relationPhrases: "in contact with", "exchange mail with" name whom a
// node interacted with, in either direction, as "in touch with" does;
// "with how many" asks how many of them, as "with whom" asks who.
var relationPhrases = []struct{ words, cpt string }{
	{"in contact with", cPartner}, {"in correspondence with", cPartner},
	{"corresponded with", cPartner}, {"correspond with", cPartner},
	{"with how many", cHowMany + "+" + cPartner},
	// "came into existence", "new arrivals": nodes that are new.
	{"came into existence", cNew}, {"come into existence", cNew}, {"comes into existence", cNew}, {"coming into existence", cNew},
	{"new arrivals", cNew + "+" + cNodeNoun}, {"new arrival", cNew + "+" + cNodeNoun},
	{"rather than distinct", cDuplicates}, {"rather than unique", cDuplicates}, {"rather than different", cDuplicates},
	{"duplicates included", cDuplicates}, {"including duplicates", cDuplicates}, {"duplicates counted", cDuplicates},
	{"counting duplicates", cDuplicates},
}

func init() {
	for _, ev := range strings.Fields("mail email rating message") {
		relationPhrases = append(relationPhrases, struct{ words, cpt string }{"exchange " + ev + " with", cPartner})
	}
	for _, p := range relationPhrases {
		phrases = append(phrases, struct {
			words string
			cpt   string
		}{p.words, p.cpt})
	}
	addWords(cDuplicates, "duplicate duplicates duplicated")
}

// relationWords reads the placed words of relation questions.
func (x *extractor) relationWords() {
	for i, t := range x.toks {
		if t.used || t.kind != tWord {
			continue
		}
		switch t.low {
		case "whose":
			// "Of n5's contacts, whose rating opens …": opening its clause,
			// "whose" asks which node; after a noun it is a relative
			// pronoun restricting that noun, and stays unread.
			if x.clauseStart(i) {
				t.used = true
				x.mark(cWhich, i)
			}
		case "who", "whom":
			x.relativeClause(i)
		case "leave", "leaves", "left", "leaving":
			x.leaveFor(i)
		case "only":
			x.onlyRestated(i)
			x.onlyOwn(i)
		case "twice":
			// "(some of them were logged twice)": a remark on the records,
			// which a degree counts each time. "counted twice" is not one.
			for k := max(i-4, 0); k < i; k++ {
				if recordVerbs[x.toks[k].low] {
					t.used = true
					x.mark(cDuplicates, i)
				}
			}
		case "first":
			// "accounts that had their first activity": a node's own first
			// event of any kind, in either direction, is when it is new.
			// "their first message" is not: a node may receive before it
			// sends.
			if p := x.tok(i - 1).low; (p == "their" || p == "its") && len(x.s.nodes) == 0 {
				k := i + 1
				for x.tok(k).text == "-" || x.tok(k).low == "ever" {
					k++
				}
				j := k
				for x.tok(j).kind == tWord && concept(x.tok(j).low) == cEvent {
					j++
				}
				if j > k && genericEvent[stem(x.tok(j-1).low)] {
					x.use(i, k)
					x.mark(cNew, i)
				}
			}
		}
	}
}

// recordVerbs say that a record was made.
var recordVerbs = map[string]bool{"recorded": true, "logged": true, "registered": true, "stored": true, "entered": true}

// indefinites are the pronouns a relative clause may describe.
var indefinites = map[string]bool{"anyone": true, "anybody": true, "everyone": true, "everybody": true, "someone": true, "somebody": true}

// relativeClause reads "anyone who wrote to it or was written to by
// it": a clause on an indefinite pronoun that names both directions of
// the relation with the question's node, which is what a partner is.
// It is read only when both directions are there; a clause naming one
// restricts who is counted and is left to the word pass (and refused).
func (x *extractor) relativeClause(i int) {
	if !indefinites[x.tok(i-1).low] || len(x.s.nodes) != 1 {
		return
	}
	roles := map[string]bool{}
	k := i + 1
	for {
		passive := false
		for beForms[x.tok(k).low] || x.tok(k).low == "has" || x.tok(k).low == "had" {
			passive = passive || beForms[x.tok(k).low]
			k++
		}
		v := concept(x.tok(k).low)
		if x.tok(k).kind != tWord || v != cSend && v != cReceive {
			return
		}
		k++
		prep := x.tok(k).low
		if prep != "to" && prep != "from" {
			return
		}
		k++
		if passive {
			if x.tok(k).low != "by" {
				return
			}
			k++
		}
		if x.tok(k).low != "it" && !x.nodeAt(k) {
			return
		}
		k++
		// Who the node is: the object of the clause's verb, or its agent
		// in the passive.
		sends := v == cSend && prep == "to" && passive || v == cReceive && prep == "from" && !passive
		recvs := v == cSend && prep == "to" && !passive || v == cReceive && prep == "from" && passive
		if sends == recvs {
			return
		}
		roles[map[bool]string{true: "src", false: "dst"}[sends]] = true
		if l := x.tok(k).low; l != "or" && l != "and" {
			break
		}
		k++
	}
	if !roles["src"] || !roles["dst"] || !x.clauseEnd(k) {
		return
	}
	x.ignore(i, k)
	x.mark(cSend, i)
	x.mark(cReceive, i)
}

// leaveFor reads "n5 left a rating for n7": to leave an event for
// someone is to send it to them.
func (x *extractor) leaveFor(i int) {
	a := x.tok(i + 1).low
	if a != "a" && a != "an" || concept(x.tok(i+2).low) != cEvent {
		return
	}
	x.toks[i].used = true
	x.mark(cSend, i)
	if x.tok(i+3).low != "for" {
		return
	}
	x.toks[i+3].used = true
	for k := range x.s.nodes {
		if x.s.nodes[k].i == i+4 {
			x.s.nodes[k].cue = "dst"
		}
	}
}

// onlyRestated reads a closing "Only the people it sent to." after a
// question that already asks for those a node sent to: it restates the
// direction and restricts nothing more. Any other "only" is left to the
// word pass, which refuses it.
func (x *extractor) onlyRestated(i int) {
	if i == 0 || !x.clauseStart(i) {
		return
	}
	k := i + 1
	if x.tok(k).low == "the" || x.tok(k).low == "those" {
		k++
	}
	if c := concept(x.tok(k).low); c != cNodeNoun && c != cRecipients && c != cPartner && x.tok(k).low != "ones" {
		return
	}
	k++
	if p := x.tok(k).low; p != "it" && p != "he" && p != "she" && p != "they" {
		return
	}
	k++
	if concept(x.tok(k).low) != cSend {
		return
	}
	k++
	if x.tok(k).low == "to" {
		k++
	}
	if x.tok(k).low == "please" || x.tok(k).text == "," && x.tok(k+1).low == "please" {
		for x.tok(k).low == "please" || x.tok(k).text == "," {
			k++
		}
	}
	if !x.clauseEnd(k) {
		return
	}
	// The question before it must ask for recipients of the node's sending.
	if !x.hasWord(cSend, i, k) && !x.hasWord(cRecipients, i, k) || x.hasWord(cReceive, i, k) || x.hasWord(cSenders, i, k) {
		return
	}
	x.ignore(i, k)
}

// bothJoined refuses a sending and a receiving verb joined by "and" in a
// question about a node's partners ("the users n5 sent to and received
// from"): of nodes, that is those in both directions, while the reader
// counts those in either ("sent to or received from").
func (x *extractor) bothJoined() string {
	last, lastAt := "", -1
	for k, t := range x.toks {
		c := concept(t.low)
		if t.kind != tWord || c != cSend && c != cReceive {
			continue
		}
		if last != "" && last != c {
			and, or := false, false
			for j := lastAt + 1; j < k; j++ {
				and = and || x.toks[j].low == "and"
				or = or || x.toks[j].low == "or"
			}
			if and && !or {
				return fmt.Sprintf("%q: the nodes in both directions, or in either? write \"sent to or received from\" for either", x.span(lastAt, k+1))
			}
		}
		last, lastAt = c, k
	}
	return ""
}
