package reader

import (
	"strings"
	"time"
)

// A cardinal written in words that no slot reads is a refusal, like any
// number, unless it restates a size the question already fixes, and so
// cannot change what is counted:
//
//   - "three" in a question about cyclic triangles, naming the triangle's
//     three nodes or edges: "the three corners", "three-person
//     exchanges", "a three-way cycle", "a circle of three colleagues",
//     "all three of its members";
//   - "two" after a definite determiner ("the two", "those two", "these
//     two") in a question that names exactly two nodes or two times, or
//     asks about pairs, ping-pong exchanges or follow-ups: "between the
//     two", "the two snapshots", "one of the two parties";
//   - "two" before an event noun in a question about pairs of events or
//     follow-ups: "two mails sent by n5 with at most an hour between
//     them".
//
// Anything else ("three hops", "which three nodes", "two of them") is
// left to the slots, and refused when they do not read it. In the same
// way a plural unit that names the buckets of a burst question in their
// own unit restates them ("in hourly buckets, how many hours were
// flagged as bursts").

// restatedSize reports whether the unread number word at i restates a
// size the question fixes.
func (x *extractor) restatedSize(i int) bool {
	t := x.toks[i]
	next := x.tok(i + 1)
	if next.text == "-" {
		next = x.tok(i + 2)
	}
	has := func(c string) bool { _, ok := x.s.concepts[c]; return ok }
	switch t.low {
	case "three":
		if !has(cTriangle) {
			return false
		}
		prev := x.tok(i - 1).low
		if prev == "all" || prev == "of" && x.tok(i-2).kind == tWord && (x.tok(i-2).low == "circle" || concept(x.tok(i-2).low) == cTriangle) {
			return true
		}
		return sizeNouns[next.low] || next.kind == tWord && concept(next.low) == cNodeNoun
	case "two":
		prev := x.tok(i - 1).low
		definite := prev == "the" || prev == "those" || prev == "these"
		pairs := has(cPair) || has(cPingPong) || has(cFollow)
		if definite && (len(x.s.nodes) == 2 || len(x.s.times) == 2 || pairs) {
			return next.kind != tWord || concept(next.low) != cPath && concept(next.low) != cEvent && !isUnit(next.low)
		}
		return (has(cPair) || has(cFollow)) && next.kind == tWord && concept(next.low) == cEvent
	}
	return false
}

// sizeNouns name the members of a motif by number ("three corners",
// "three-way", "the two parties"); after a restated number they restate
// it too.
var sizeNouns = map[string]bool{"corners": true, "corner": true, "person": true, "way": true, "party": true, "parties": true,
	"sides": true, "vertices": true, "members": true, "ends": true}

// numberBefore is the index of a number word right before i ("three
// corners", "three-way"), or -1.
func (x *extractor) numberBefore(i int) int {
	for _, k := range []int{i - 1, i - 2} {
		if k >= 0 && x.toks[k].kind == tWord && numberWords[x.toks[k].low] > 1 && (k == i-1 || x.toks[i-1].text == "-") {
			return k
		}
	}
	return -1
}

// isUnit reports whether a word is a unit of time or of path length.
func isUnit(w string) bool {
	switch w {
	case "hop", "hops", "step", "steps", "edge", "edges":
		return true
	}
	_, ok := unitUS[w]
	return ok
}

// restatedUnit reports whether the unread unit word at i names the
// buckets of a burst question in their own unit: "in hourly buckets, how
// many hours were flagged as bursts".
func (x *extractor) restatedUnit(i int) bool {
	u, ok := unitUS[x.toks[i].low]
	if _, burst := x.s.concepts[cBurst]; !ok || !burst || !strings.HasSuffix(x.toks[i].low, "s") {
		return false
	}
	for _, d := range x.s.durs {
		if d.us == u {
			return true
		}
	}
	return false
}

// restatedSingle reports whether "single" at i stands right before a
// period word ("which single hour", "the single busiest day", "which
// single calendar day") in a question asking for the busiest period: the
// busiest period is one period, so "single" restates what is asked.
// Before anything else ("single messages", "a single recipient") it
// restricts what is counted, and is refused.
func (x *extractor) restatedSingle(i int) bool {
	if x.toks[i].low != "single" {
		return false
	}
	_, peak := x.s.concepts[cPeak]
	_, most := x.s.concepts[cMost]
	if !peak && !most {
		return false
	}
	k := i + 1
	if w := x.tok(k).low; w == "busiest" || w == "calendar" {
		k++
	}
	switch x.tok(k).low {
	case "hour", "day", "week", "month", "year", "bucket", "period", "minute":
		return true
	}
	return false
}

// restatedWorkWeek reports whether "working" at i, before "week",
// restates the window the question writes: "the working week" is Monday
// to Friday, so it is ignored when the written times span exactly one
// Monday 00:00 to the Saturday 00:00 after it, and refused otherwise (a
// working week of some other window would restrict it to its weekdays).
func (x *extractor) restatedWorkWeek(i int) bool {
	if x.toks[i].low != "working" || x.tok(i+1).low != "week" || len(x.s.times) == 0 {
		return false
	}
	lo, hi := x.s.times[0].w.start, x.s.times[0].w.start
	for _, t := range x.s.times {
		end := t.w.end
		if t.w.prec == PrecInstant {
			end = t.w.start // "midnight at the end of the Friday": an instant, not its microsecond
		}
		lo, hi = min(lo, t.w.start), max(hi, end)
	}
	d := time.UnixMicro(lo).UTC()
	return d.Weekday() == time.Monday && d.Hour() == 0 && d.Minute() == 0 && d.Second() == 0 && d.Nanosecond() == 0 &&
		hi-lo == 5*86_400_000_000
}

// boundsDelta reports whether the upper-bound word at i ("maximum",
// "max", "less" in "or less") stands right beside a duration in a
// question about motifs or follow-ups, whose δ is an upper bound already:
// "within one hour maximum", "in maximum one day", "a span of an hour or
// less". Anywhere else the word is a threshold, and refused.
func (x *extractor) boundsDelta(i int) bool {
	has := func(c string) bool { _, ok := x.s.concepts[c]; return ok }
	motif := has(cTriangle) || has(cPingPong) || has(cFollow) || has(cMotif)
	if !motif {
		for k := i + 1; k < len(x.toks); k++ { // concepts after i are not marked yet
			if c := concept(x.toks[k].low); !x.toks[k].used && (c == cTriangle || c == cPingPong || c == cFollow || c == cMotif) {
				motif = true
			}
		}
	}
	if !motif {
		return false
	}
	durAt := func(k int) bool {
		for _, d := range x.s.durs {
			if k >= d.i && k < d.j {
				return true
			}
		}
		return false
	}
	switch x.toks[i].low {
	case "maximum", "max":
		return durAt(i+1) || durAt(i-1)
	case "less":
		return x.tok(i-1).low == "or" && durAt(i-2)
	}
	return false
}

// antecedent reports whether an ignored phrase that points back ("at that
// instant", "only that direction") has what it points at in the question:
// a written time for an instant, two nodes for a direction. A phrase that
// points at nothing written may carry a restriction from an earlier
// question, and is not ignored.
func (x *extractor) antecedent(ws []string) bool {
	that := false
	for _, w := range ws {
		switch w {
		case "that", "same":
			that = true
		case "instant", "moment", "second", "time":
			if that && len(x.s.times) == 0 {
				return false
			}
		case "direction":
			if that && len(x.s.nodes) != 2 {
				return false
			}
		}
	}
	return true
}
