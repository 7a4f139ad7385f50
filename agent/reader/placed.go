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
	x.relationWords()
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
