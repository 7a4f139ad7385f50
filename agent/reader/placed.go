package reader

import "strings"

// Words whose reading depends on where they stand. Each rule below reads
// a few tokens together, before the phrase and word passes, and marks
// them used: a concept they carry there, or nothing when they only
// restate what the rest of the question fixes (doc.go states each
// principle). A word no rule claims is read by the word pass as usual,
// and refused when unknown.

// placedWords runs the rules in order.
func (x *extractor) placedWords() error {
	x.motifWords()
	x.motifSets()
	x.rankWords()
	x.exceptNode()
	x.pronounOfTwo()
	x.twoCounts()
	x.thresholdWords()
	x.pairWords()
	x.cycleWords()
	x.averageWords()
	x.relationWords()
	x.openingPeriod()
	return x.recordWords()
}

// clauseStart reports whether token i opens a clause: the question's
// first word, or the first after a comma, colon, semicolon or full stop.
func (x *extractor) clauseStart(i int) bool {
	if i == 0 {
		return true
	}
	p := x.tok(i - 1)
	return p.kind == tPunct && strings.Contains(",:;.?!", p.text)
}

// clauseEnd reports whether token i ends a clause (punctuation or the
// end of the question).
func (x *extractor) clauseEnd(i int) bool {
	t := x.tok(i)
	return i >= len(x.toks) || t.kind == tPunct && strings.Contains(",:;.?!)", t.text)
}

// hasWord reports whether some token outside [i, j) reads as concept c.
func (x *extractor) hasWord(c string, i, j int) bool {
	for k, t := range x.toks {
		if (k < i || k >= j) && (t.kind == tWord || t.kind == tNum) && concept(t.low) == c {
			return true
		}
	}
	return false
}

// ignore marks tokens [i, j) used and lists them as ignored.
func (x *extractor) ignore(i, j int) {
	x.use(i, j)
	x.s.ignored = append(x.s.ignored, x.span(i, j))
}

// openingPeriod ignores an apposition naming the store's first period
// ("January 1970, the opening month of the log") when the period it
// follows is of that length and holds the store's first instant: it then
// restates that period. One that does not agree is left unread, and
// refused.
func (x *extractor) openingPeriod() {
	for i, t := range x.toks {
		if t.used || t.text != "," || x.tok(i+1).low != "the" {
			continue
		}
		if o := x.tok(i + 2).low; o != "opening" && o != "first" {
			continue
		}
		prec := x.tok(i + 3).low
		if x.tok(i+4).low != "of" || x.tok(i+5).low != "the" || !isDiscourse(x.tok(i+6).low) && concept(x.tok(i+6).low) != "" || !x.clauseEnd(i+7) {
			continue
		}
		for _, ts := range x.s.times {
			if ts.w.j == i && ts.w.prec == prec && ts.w.start <= x.lo && x.lo < ts.w.end {
				x.ignore(i+1, i+7)
			}
		}
	}
}
