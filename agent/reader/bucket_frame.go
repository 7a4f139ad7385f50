package reader

// frameSubjects and frameVerbs make up the opening of a clause that says
// how the question counts: "when you are using", "if we take".
var (
	frameSubjects = map[string]bool{"you": true, "we": true, "one": true, "i": true}
	frameAux      = map[string]bool{"are": true, "is": true, "am": true, "were": true, "do": true, "did": true}
	frameVerbs    = map[string]bool{"use": true, "using": true, "take": true, "taking": true, "count": true, "counting": true,
		"measure": true, "measuring": true, "group": true, "grouping": true, "split": true, "splitting": true,
		"carve": true, "divide": true, "cut": true, "break": true, "chop": true, "slice": true}
	// frameFiller may stand in such a clause beside its slots.
	frameFiller = map[string]bool{"in": true, "into": true, "of": true, "a": true, "the": true, "by": true,
		"consecutive": true, "successive": true}
)

// bucketFrame reads a clause opened by "when" or "if" and a subject that
// only says which buckets the question counts in ("…, when you are using
// weekly buckets from D, …", "if we take 10-day buckets"): the clause is
// the bucket slot it holds, not a question about a time nor a condition,
// so its opening words are ignored and listed and the slot is read as
// ever. A time in it must start the window that the question ends
// elsewhere ("…, when we use weekly buckets from D, until E"), since
// beside another window it would be a bucket origin. A clause holding a node, a word no slot reads (other than a
// period or bucket noun, or the preposition of a time) or no bucket is left alone.
func (x *extractor) bucketFrame() {
	for i, t := range x.toks {
		if t.used || t.low != "when" && t.low != "if" || i > 0 && x.tok(i-1).text != "," {
			continue
		}
		k := i + 1
		if !frameSubjects[x.tok(k).low] {
			continue
		}
		k++
		if frameAux[x.tok(k).low] {
			k++
		}
		if !frameVerbs[x.tok(k).low] || x.tok(k).used {
			continue
		}
		open, end := k+1, k+1
		bucket, ok, timed := false, true, false
		for j := open; j < len(x.toks) && ok; j++ {
			w := x.toks[j]
			if s := w.text; w.kind == tPunct && (s == "," || s == "?" || s == "." || s == ";" || s == "!") {
				break
			}
			end = j + 1
			timed = timed || x.inTime(j)
			switch {
			case x.isNodeTok(j):
				ok = false
			case x.inBucket(j):
				bucket = true
			case w.used || frameFiller[w.low] || w.kind == tPunct:
			case w.kind == tWord && (concept(w.low) == cPeriod || concept(w.low) == cBucket || unitUS[w.low] > 0):
			case startPreps[w.low] && x.inTime(j+1), originWords[w.low] && x.tok(j+1).low == "from" && x.inTime(j+2):
			default:
				ok = false
			}
		}
		if ok && bucket && (!timed || x.onlyEndsOutside(i, end)) {
			x.ignore(i, open)
		}
	}
}

// onlyEndsOutside reports whether every time written outside tokens
// [i, end) ends a range ("until D"): a time in a framing clause is then
// the window's start, and not a bucket origin beside another window.
func (x *extractor) onlyEndsOutside(i, end int) bool {
	for _, ts := range x.s.times {
		if (ts.w.i < i || ts.w.i >= end) && !endPreps[ts.prep] {
			return false
		}
	}
	return true
}

// inTime reports whether token j is part of a time the question writes.
func (x *extractor) inTime(j int) bool {
	for _, ts := range x.s.times {
		if j >= ts.w.i && j < ts.w.j {
			return true
		}
	}
	return false
}

// inBucket reports whether token j is part of a duration read as, or
// able to be, a bucket width.
func (x *extractor) inBucket(j int) bool {
	for _, d := range x.s.durs {
		if j >= d.i && j < d.j && d.role != "delta" {
			return true
		}
	}
	return false
}
