package reader

// Phrasings of a node's record: its versions and corrections.

// recordWords reads the placed words of version and correction
// questions.
func (x *extractor) recordWords() error {
	correction, version := x.hasWord(cCorrect, -1, -1), x.hasWord(cVersion, -1, -1)
	x.batchDescription()
	for i, t := range x.toks {
		if t.used || t.kind != tWord {
			continue
		}
		switch {
		case t.low == "how" && x.tok(i+1).low == "often" && correction && !x.ratePeriod():
			// "how often was n5 corrected": asked of a record's whole
			// history it asks how many times; "per month" asks a rate.
			x.use(i, i+2)
			x.mark(cHowMany, i)
		case t.low == "if" && x.tok(i+1).low == "so" && x.tok(i+2).low == "how" && (correction || version):
			// "was n5 ever corrected, and if so how many times": the count
			// answers the yes/no question too (none is 0).
			x.ignore(i, i+2)
		case t.low == "if" && x.tok(i-1).text == "," && x.howMany() && (x.tok(i+1).low == "any" && x.tok(i+2).text == "," ||
			x.tok(i+1).low == "at" && x.tok(i+2).low == "all" && x.tok(i+3).text == ","):
			// "how many times, if at all, was n5 corrected", "how many
			// messages, if any, did n5 send": a count is 0 when there are
			// none.
			x.ignore(i, i+2+map[bool]int{true: 1, false: 0}[x.tok(i+1).low == "at"])
		case t.low == "valid" && (correction || version):
			x.allValidTime(i)
		case t.low == "after" && correction:
			if err := x.afterCorrections(i); err != nil {
				return err
			}
		}
	}
	return nil
}

// allValidTime reads "across all of its valid time": versions are
// counted over every valid time already, so the phrase restates it.
func (x *extractor) allValidTime(i int) {
	if n := x.tok(i + 1).low; n != "time" && n != "times" || !x.clauseEnd(i+2) && x.tok(i+2).low != "and" {
		return
	}
	k := i - 1
	if l := x.tok(k).low; l == "its" || l == "their" || l == "the" {
		k--
	}
	if x.tok(k).low == "of" {
		k--
	}
	if l := x.tok(k).low; l != "all" && l != "whole" && l != "entire" && l != "every" {
		return
	}
	if l := x.tok(k - 1).low; l == "across" || l == "over" || l == "throughout" || l == "for" || l == "in" {
		k--
	}
	x.ignore(k, i+2)
}

// afterCorrections reads "after the corrections" written with no time:
// the store once every correction is applied, its latest belief.
func (x *extractor) afterCorrections(i int) error {
	k := i + 1
	if x.tok(k).low == "all" {
		k++
	}
	if x.tok(k).low == "the" {
		k++
	}
	if l := x.tok(k).low; l != "corrections" && l != "revisions" || !x.clauseEnd(k+1) {
		return nil
	}
	if err := x.beliefNow(x.span(i, k+1)); err != nil {
		return err
	}
	x.use(i, k+1)
	return nil
}

// ratePeriod reports "per" or a period word ("per month", "each week"),
// which make "how often" a rate.
func (x *extractor) ratePeriod() bool {
	for _, t := range x.toks {
		if c := concept(t.low); t.low == "per" || c == cPeriod || c == cBucket {
			return true
		}
	}
	return false
}

// batchWords are the words of a description of a written belief time
// by the correction batches around it.
var batchWords = map[string]bool{"before": true, "after": true, "between": true, "when": true, "exactly": true, "just": true,
	"the": true, "first": true, "second": true, "third": true, "last": true, "and": true, "of": true, "correction": true,
	"corrections": true, "batch": true, "batches": true, "was": true, "were": true, "written": true, "applied": true,
	"committed": true, "made": true}

// batchDescription ignores a clause that only describes a written belief
// time by the correction batches around it ("at tt T, exactly when the
// second batch was written", "(before the second batch of corrections)"):
// the time is written, so its description cannot restrict it, as a
// description of a named node cannot. The clause is a parenthesis, or
// runs from a comma to the end of the sentence.
func (x *extractor) batchDescription() {
	if x.s.belief == nil || x.s.belief.Now {
		return
	}
	for i, t := range x.toks {
		if t.used || t.kind != tPunct || t.text != "(" && t.text != "," {
			continue
		}
		k, batch := i+1, false
		for ; k < len(x.toks) && !x.clauseEnd(k); k++ {
			w := x.toks[k]
			if w.used || w.kind != tWord || !batchWords[w.low] {
				break
			}
			batch = batch || w.low == "batch" || w.low == "batches"
		}
		if !batch || k == i+1 || !x.clauseEnd(k) || t.text == "(" && x.tok(k).text != ")" || t.text == "," && x.tok(k).text == "," {
			continue
		}
		x.ignore(i+1, k)
	}
}

// howMany reports "how many" in the question.
func (x *extractor) howMany() bool {
	for k, t := range x.toks {
		if t.low == "how" && x.tok(k+1).low == "many" {
			return true
		}
	}
	return false
}
