package reader

// A node uid names exactly one node, so a word that only describes it
// cannot restrict what is counted or found: "the payroll office n41",
// "suspended user n77", "the outside counsel (node n302)", "n19 (the
// team's help-desk inbox)", "n8 (which I believe is a bot)". Such words are ignored and listed in the reading.
// A description is recognised only where it can describe nothing but the
// node: a run of unknown words (and node nouns) right before it whose
// left edge is a determiner, a preposition, punctuation, the start of the
// question, or "did" with the node the subject of the verb after it; or a
// parenthesis right after it. After "is", "are", "has", "have" the run
// would be a participle relating something to the node ("are cc'd n5",
// "have muted n5"), and is not a description. A run is
// not a description when the node modifies a noun after it ("n5
// messages", "n5's replies"), when it holds a slot or a meaning-changing
// word, or when its left edge is a word that could make it the counted
// noun or a verb ("how many opened n5", "messages mentioning n5", "to
// forward n5").

// describeEdge are the words that may stand at the left edge of a
// description written before a node.
var describeEdge = map[string]bool{}

func init() {
	for _, w := range []string{"the", "a", "an", "this", "that", "our", "their", "its", "your", "my",
		"from", "by", "of", "for", "with", "at", "between", "among", "against",
		"did", "does", "do",
		",", "(", ":", ";", "-", "—", "–"} {
		describeEdge[w] = true
	}
}

// verbConcept are the concepts of the verbs a node may be the subject of.
var verbConcept = map[string]bool{cSend: true, cReceive: true, cReach: true, cEvent: true, cRecip: true, cNew: true,
	cGained: true, cLost: true, cDepart: true, cPartner: true}

// describeInside are the concepts a word may carry inside a parenthesis
// that describes a node: none, a node noun, "shared", or a noun such as
// "list" or "name". A word naming events, a direction, a count or an
// order ("(the replies)", "(outgoing)") may say what is counted, and keeps
// the parenthesis from being read as a description.
var describeInside = map[string]bool{"": true, cNodeNoun: true, cShare: true, cWhich: true}

// descriptions ignores the words that only describe a named node, or a
// written day or week.
func (x *extractor) descriptions() {
	for k := range x.toks {
		if x.nodeAt(k) {
			x.describeBefore(k)
			x.describeAfter(k)
		} else if x.toks[k].used && x.tok(k+1).text == "(" && !x.tok(k+1).used {
			x.describeTime(k)
		} else if x.toks[k].text == "?" && x.tok(k+1).text == "(" && x.trailingNamesWindow(k+1) {
			x.describeTime(k)
		}
	}
}

// trailingNamesWindow reports whether the parenthesis opening at k,
// after the question's mark and closing the text, names the whole span
// the question's times cover by a period noun of that length ("…? (the
// audit week)" after seven days written): only then is it a name of the
// window, as one right after a time is.
func (x *extractor) trailingNamesWindow(k int) bool {
	m := k + 1
	for m < len(x.toks) && x.toks[m].text != ")" {
		m++
	}
	if m != len(x.toks)-1 || len(x.s.times) == 0 {
		return false
	}
	lo, hi := x.s.times[0].w.start, x.s.times[0].w.end
	for _, ts := range x.s.times {
		lo, hi = min(lo, ts.w.start), max(hi, ts.w.end)
	}
	u := unitUS[x.toks[m-1].low]
	return u >= usHour && u <= usWeek && hi-lo == u
}

// describeTime ignores a parenthesis right after a written time (or
// closing the question, trailingNamesWindow) that names it by a period
// noun: "on 12/12/2013 (the mass-rating day)". The
// slot fixes the window, and a noun phrase that names the same period
// cannot move it. The parenthesis must start with "the", end with a
// period noun (day, week, month, …) and hold only unknown words, filler,
// numbers and punctuation: a concept word ("(the busiest day)") or a
// meaning-changing word keeps it from being read as a name.
func (x *extractor) describeTime(k int) {
	if x.tok(k+2).low != "the" {
		return
	}
	m := k + 3
	for ; m < len(x.toks) && x.toks[m].text != ")"; m++ {
		t := x.toks[m]
		if t.used || changers[t.low] != "" || t.text == "(" || t.kind != tWord && t.kind != tNum && t.kind != tPunct {
			return
		}
		if t.kind == tWord && !x.unread(t) && concept(t.low) != "" {
			if m+1 < len(x.toks) && x.toks[m+1].text == ")" && concept(t.low) == cPeriod {
				continue // the head noun: "day", "week"
			}
			return
		}
	}
	if m >= len(x.toks) || m < k+4 || concept(x.toks[m-1].low) != cPeriod {
		return
	}
	for q := k + 1; q <= m; q++ {
		if t := x.toks[q]; t.kind == tWord || t.kind == tNum {
			if _, known := lookup(t.low); !known || t.kind == tNum {
				x.s.ignored = append(x.s.ignored, t.text)
			}
		}
		x.toks[q].used = true
	}
}

func (x *extractor) unread(t *token) bool {
	if t.used || t.kind != tWord || changers[t.low] != "" || x.isRelType(t.low) || isDiscourse(t.low) {
		return false
	}
	c, ok := lookup(t.low)
	return !ok || c == cNodeNoun
}

func (x *extractor) describeBefore(k int) {
	if next := x.tok(k + 1); next.kind == tWord && isCountable(concept(next.low)) || containsQuote(x.toks[k].text) {
		return // "n5 messages", "n5's replies": the node modifies a noun
	}
	end := k - 1
	paren := false
	if x.tok(end).kind == tWord && concept(x.tok(end).low) == cNodeNoun && x.tok(end-1).text == "(" && x.tok(k+1).text == ")" {
		end, paren = end-2, true // "the outside counsel (node n302)"
	} else if x.tok(end).text == "," {
		end--
	}
	j := end
	unknown := false
	for j >= 0 && x.unread(x.toks[j]) {
		if _, ok := lookup(x.toks[j].low); !ok {
			unknown = true
		}
		j--
	}
	if j == end || !unknown {
		return
	}
	if j >= 0 && !describeEdge[x.toks[j].low] {
		return
	}
	// After "did", the node must be the subject of the verb that follows
	// it ("did suspended user n77 send"); "did unfollow n5" makes the
	// unknown word the verb.
	if j >= 0 && (x.toks[j].low == "did" || x.toks[j].low == "does" || x.toks[j].low == "do") && !verbConcept[concept(x.tok(k+1).low)] {
		return
	}
	for m := j + 1; m <= end; m++ {
		if _, known := lookup(x.toks[m].low); !known {
			x.s.ignored = append(x.s.ignored, x.toks[m].text)
		}
		x.toks[m].used = true
	}
	if paren {
		x.toks[k-1].used = true
	}
}

func (x *extractor) describeAfter(k int) {
	if x.tok(k+1).text != "(" {
		return
	}
	first := x.tok(k + 2).low
	nounPhrase := first == "the" || first == "a" || first == "an" || first == "which" || first == "who"
	m := k + 2
	for ; m < len(x.toks) && x.toks[m].text != ")"; m++ {
		t := x.toks[m]
		if t.used || changers[t.low] != "" || t.text == "(" {
			return
		}
		if t.kind == tPunct {
			continue
		}
		if t.kind != tWord {
			return
		}
		if x.unread(t) || isDiscourse(t.low) {
			continue
		}
		if c := concept(t.low); !nounPhrase || !describeInside[c] || x.isRelType(t.low) {
			if !(c == "" && !x.isRelType(t.low)) {
				return
			}
		}
	}
	if m >= len(x.toks) || m == k+2 {
		return
	}
	for q := k + 1; q <= m; q++ {
		if x.toks[q].kind == tWord {
			if _, known := lookup(x.toks[q].low); !known || concept(x.toks[q].low) != "" && concept(x.toks[q].low) != cNodeNoun {
				x.s.ignored = append(x.s.ignored, x.toks[q].text)
			}
		}
		x.toks[q].used = true
	}
}

// isCountable reports whether a concept names something a question can
// count or list: events, nodes, partners, neighbours, versions.
func isCountable(c string) bool {
	switch c {
	case cEvent, cNodeNoun, cPartner, cNeighbour, cVersion, cSenders, cRecipients, cRecip, cCorrect:
		return true
	}
	return false
}

func containsQuote(s string) bool {
	for _, r := range s {
		if r == '\'' || r == '’' {
			return true
		}
	}
	return false
}
