package reader

// Words that restate a calendar cycle (doc.go): once a question names a
// cycle ("the hour of the day"), saying again that the positions are
// summed over the cycle's periods ("summed over all the days", "across
// every day"), naming the position by the clock ("the hour of the
// clock"), or setting one particular bucket aside ("not one particular
// hour on one particular day") says nothing new. Without a cycle phrase
// these words are left unread: "the clock hour" alone may be one
// particular hour.

// cyclePeriod is the period each cycle's positions repeat over.
var cyclePeriod = map[string]map[string]bool{
	cCycleHour:    {"day": true, "days": true},
	cCycleWeekday: {"week": true, "weeks": true},
	cCycleMonth:   {"year": true, "years": true},
}

// cycleWords reads the restatements of the cycle the question names.
func (x *extractor) cycleWords() {
	c := ""
	for _, k := range []string{cCycleHour, cCycleWeekday, cCycleMonth} {
		if _, ok := x.s.concepts[k]; ok {
			c = k
		}
	}
	if c == "" {
		return
	}
	for i := range x.toks {
		if x.toks[i].used || x.toks[i].kind != tWord {
			continue
		}
		if j := x.foldedOver(i, c); j > i {
			x.ignore(i, j)
			continue
		}
		if j := x.notOneBucket(i); j > i {
			x.ignore(i, j)
			continue
		}
		if c == cCycleHour && x.tok(i).low == "hour" && x.tok(i+1).low == "of" && x.tok(i+2).low == "the" && x.tok(i+3).low == "clock" {
			x.ignore(i, i+4)
		}
	}
}

// foldedOver reads "(summed, taken, added) over (across) all (every) the
// days" at i, where the period is the one the cycle repeats over. It
// returns the index after it, or i.
func (x *extractor) foldedOver(i int, c string) int {
	k := i
	switch x.tok(k).low {
	case "summed", "taken", "added", "pooled", "counted", "totalled", "totaled":
		k++
	}
	if l := x.tok(k).low; l != "over" && l != "across" {
		return i
	}
	k++
	if l := x.tok(k).low; l != "all" && l != "every" {
		return i
	}
	k++
	if x.tok(k).low == "the" {
		k++
	}
	if !cyclePeriod[c][x.tok(k).low] || x.tok(k+1).low == "of" {
		return i
	}
	return k + 1
}

// notOneBucket reads a negation setting one particular bucket aside at
// i: "not (mean) one particular hour (on one particular day)". It
// returns the index after it, or i.
func (x *extractor) notOneBucket(i int) int {
	if x.tok(i).low != "not" {
		return i
	}
	k := i + 1
	if l := x.tok(k).low; l == "mean" || l == "want" {
		k++
	}
	one := func(k int) int {
		if l := x.tok(k).low; l == "one" || l == "a" || l == "any" {
			k++
		}
		if l := x.tok(k).low; !singleWords[l] || l == "bucket" || l == "buckets" || l == "calendar" {
			return -1
		}
		k++
		if _, ok := unitUS[x.tok(k).low]; !ok || x.tok(k).kind != tWord {
			return -1
		}
		return k + 1
	}
	k = one(k)
	if k < 0 {
		return i
	}
	if l := x.tok(k).low; l == "on" || l == "in" {
		if j := one(k + 1); j > 0 {
			k = j
		}
	}
	if !x.clauseEnd(k) && x.tok(k).low != "but" {
		return i
	}
	return k
}
