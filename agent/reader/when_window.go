package reader

import (
	"fmt"
	"strings"
	"time"
)

// How written times combine into a window: the words that join a
// range's ends, restatements written beside a window (its length, its
// exclusive end, "midnight both"), a start and an end written apart,
// and pure bounds, which restrict the window they stand beside.

// restatedLength is "(seven days)" beside a window: its length again.
type restatedLength struct {
	us      int64
	written string
}

// startVerbs are the verbs after which "on D" can be where a window
// starts ("began writing on Monday 11 May", "starts on Jan 1").
var startVerbs = map[string]bool{"start": true, "starts": true, "started": true, "starting": true, "begin": true, "begins": true,
	"began": true, "begun": true, "beginning": true, "commence": true, "commences": true, "commenced": true, "commencing": true}

// timePrep is the preposition that gives a written time its role: the
// word before it, with "by the end of P" read as "until" (it ends a
// range) and "on D" after a start verb of its clause remembered as a
// possible start.
func (x *extractor) timePrep(i int, w when) (prep string, startVerb bool) {
	prep, pi := x.prevWord(i)
	if w.boundary && prep == "by" {
		return "until", false
	}
	// "the deadline is the end of D" (or an instant) ends the window; a
	// deadline of a whole period is "by P": its start or its end?
	if n := x.deadlineAt(pi); n > 0 {
		x.use(pi-n+1, pi+1)
		if w.boundary || w.prec == PrecInstant {
			return "until", false
		}
		return "by", false
	}
	if prep != "on" {
		return prep, false
	}
	for k := pi - 1; k >= 0 && k >= pi-8; k-- {
		t := x.tok(k)
		if t.kind == tPunct && t.text != "-" {
			break
		}
		if startVerbs[t.low] || t.low == "set" && x.tok(k+1).low == "off" {
			return prep, true
		}
	}
	return prep, false
}

// settleStarts reads "on D" after a start verb as where the window
// starts when the question also writes where it ends ("starts on Jan 1
// 2012 … before July 1st 2012"); with no end written, "on D" stays the
// day D.
func (x *extractor) settleStarts() {
	x.lengthsBeforeRanges()
	ends := 0
	for _, t := range x.s.times {
		if t.prep == "until" || t.prep == "till" || t.prep == "before" || t.prep == "to" && x.tok(t.w.i-2).low == "up" {
			ends++
		}
	}
	if ends != 1 {
		return
	}
	starts := 0
	for _, t := range x.s.times {
		if t.startVerb {
			starts++
		}
	}
	if starts != 1 {
		return
	}
	for k := range x.s.times {
		if x.s.times[k].startVerb {
			x.s.times[k].prep = "from"
			x.s.notes = append(x.s.notes, fmt.Sprintf("%q read as where the window starts", x.s.times[k].w.text))
		}
	}
}

// connective is the word or mark joining two times written at tokens
// [j, k): the words no slot consumed, or else the mark ("-", "..").
func (x *extractor) connective(j, k int) string {
	var words, marks []string
	for m := j; m < k && m < len(x.toks); m++ {
		t := x.toks[m]
		switch {
		case t.used && !(t.kind == tWord && (t.low == "to" || t.low == "until" || t.low == "and" || t.low == "up")):
		case t.kind == tWord:
			words = append(words, t.low)
		case t.text != "," && t.text != "(" && t.text != ")":
			marks = append(marks, t.text)
		}
	}
	if len(words) > 0 {
		return strings.Join(words, " ")
	}
	return strings.Join(marks, "")
}

// exclusiveMarkers consumes ", but not including," and "(not
// including)" written right after a range's connective ("up to, but
// not including, 08:00"): they say the end is excluded, which "up to",
// "to" and "until" already mean.
func (x *extractor) exclusiveMarkers() error {
	for k := 0; k < len(x.toks); k++ {
		l := x.tok(k).low
		if l != "to" && l != "until" && l != "till" && l != "through" && l != "thru" {
			continue
		}
		m := k + 1
		paren := false
		switch x.tok(m).text {
		case ",":
			m++
		case "(":
			m, paren = m+1, true
		}
		if x.tok(m).low == "but" {
			m++
		}
		if x.tok(m).low != "not" || x.tok(m+1).low != "including" && x.tok(m+1).low != "included" {
			continue
		}
		m += 2
		if paren {
			if x.tok(m).text != ")" {
				continue
			}
			m++
		} else if x.tok(m).text == "," {
			m++
		}
		if l == "through" || l == "thru" || x.tok(k-1).low == "through" || x.tok(k+1).low == "and" {
			return &Refusal{Problem: fmt.Sprintf("%q both includes and excludes its end", x.span(k-1, m)), Missing: []string{"time"}}
		}
		x.use(k+1, m)
	}
	return nil
}

// restatesAfter reads what is written right after a time at j that
// restates it: an exclusive end ("(excl)"), an included start ("(that
// instant included)"), the window's length ("(seven days)", ", seven
// days"), "(midnight both)". It returns the index after it.
func (x *extractor) restatesAfter(w when, prep string, j int) (int, error) {
	// "before March is over" speaks from inside March: the window is
	// March. After any other word ("until March is over") it is refused.
	if k, ok := x.overAt(j); ok && w.prec != PrecInstant {
		if prep != "before" || len(x.s.times) == 0 || x.s.times[len(x.s.times)-1].w.i != w.i {
			return j, &Refusal{Problem: fmt.Sprintf("does %q mean during %s or until its end? write \"during %s\" or \"until the end of %s\"", x.span(w.i, k), w.text, w.text, w.text), Missing: []string{"time"}}
		}
		x.s.times[len(x.s.times)-1].prep = "during"
		x.s.notes = append(x.s.notes, fmt.Sprintf("%q: read as during %s", "before "+x.span(w.i, k), w.text))
		x.use(j, k)
		return k, nil
	}
	k, paren := j, false
	switch x.tok(k).text {
	case "(":
		k, paren = k+1, true
	case ",":
		k++
	}
	closeAt := func(e int) (int, bool) {
		if paren {
			if x.tok(e).text != ")" {
				return j, false
			}
			return e + 1, true
		}
		return e, true
	}
	// An exclusive end: "(excl)", "(exclusive)", "(not included)".
	if l := x.tok(k).low; l == "excl" || l == "exclusive" || l == "excluded" || l == "not" && (x.tok(k+1).low == "included" || x.tok(k+1).low == "including") {
		e := k + 1
		if l == "not" {
			e++
		}
		if x.tok(e).text == "." {
			e++
		}
		if end, ok := closeAt(e); ok && (paren || l != "not") {
			_, pi := x.prevWord(w.i)
			if prep == "through" || prep == "thru" || x.tok(pi-1).low == "and" && x.tok(pi-2).low == "up" {
				return j, &Refusal{Problem: fmt.Sprintf("%q both includes and excludes %s", x.span(pi, end), w.text), Missing: []string{"time"}}
			}
			if prep != "to" && prep != "until" && prep != "till" && prep != "before" && prep != "and" {
				return j, &Refusal{Problem: fmt.Sprintf("%q marks an end as excluded, but %s does not end a range", x.span(j, end), w.text), Missing: []string{"time"}}
			}
			x.use(j, end)
			return end, nil
		}
	}
	// An included start: "(that instant included)", "(included)".
	if paren && (startPreps[prep] || prep == "between") {
		e := k
		if x.tok(e).low == "that" {
			e++
			if l := x.tok(e).low; l == "instant" || l == "moment" || l == "day" || l == "time" {
				e++
			}
		}
		if l := x.tok(e).low; l == "included" || l == "inclusive" {
			if end, ok := closeAt(e + 1); ok {
				x.use(j, end)
				return end, nil
			}
		}
	}
	// "(midnight both)", "(midnight to midnight)", "(both at midnight)".
	if paren {
		e := k
		switch {
		case x.tok(e).low == "midnight" && x.tok(e+1).low == "both":
			e += 2
		case x.tok(e).low == "midnight" && (x.tok(e+1).low == "to" || x.tok(e+1).low == "until") && x.tok(e+2).low == "midnight":
			e += 3
		case x.tok(e).low == "both" && x.tok(e+1).low == "at" && x.tok(e+2).low == "midnight":
			e += 3
		}
		if e > k {
			if end, ok := closeAt(e); ok {
				x.midnights = append(x.midnights, x.span(k, e))
				x.use(j, end)
				return end, nil
			}
		}
	}
	// The window's length: "(seven days)", "(the five days)", ", seven days".
	e := k
	if x.tok(e).low == "the" {
		e++
	}
	if d, de, err := x.durAt(e); err == nil && de > e && d.us >= usDay && d.us%usDay == 0 && w.prec != PrecInstant {
		written := x.span(e, de)
		if x.tok(de).text == "," && paren {
			// "(seven days, Monday to Sunday)"
			if dr, m, ok := x.dayRangeAt(de); ok {
				if end, ok := closeAt(m); ok {
					x.s.dayRanges = append(x.s.dayRanges, dr)
					x.lengths = append(x.lengths, restatedLength{us: d.us, written: written})
					x.use(j, end)
					return end, nil
				}
			}
		}
		if end, ok := closeAt(de); ok && (paren || x.tok(end).kind == tPunct || end >= len(x.toks)) {
			x.lengths = append(x.lengths, restatedLength{us: d.us, written: written})
			x.use(j, end)
			return end, nil
		}
	}
	return j, nil
}

const (
	fromStoreStart = "(from the start of the store) "
	toStoreEnd     = " (to the end of the store)"
)

// settleWindows combines the windows a question writes: a pure bound
// ("since A", "until B", "by the end of B") restricts the window it
// stands beside to their intersection, and a lower and an upper bound
// written apart make one window. Restated lengths and "midnight both"
// must agree with the window.
func (x *extractor) settleWindows(out *timeRead) (*timeRead, error) {
	if wins, ok := x.narrowDay(out.wins); ok {
		out.wins = wins
		x.s.notes = append(x.s.notes, fmt.Sprintf("the window %q lies in the day written before it", wins[0].Written))
	}
	var full, bounds []Window
	for _, w := range out.wins {
		if strings.HasPrefix(w.Written, fromStoreStart) || strings.HasSuffix(w.Written, toStoreEnd) {
			bounds = append(bounds, w)
		} else {
			full = append(full, w)
		}
	}
	if len(bounds) > 0 && len(full) <= 1 && len(bounds) <= 2 && (len(full) == 1 || len(bounds) == 2) && !x.originWritten() {
		w := Window{Start: x.lo, End: x.hi, InclusiveEnd: false}
		var parts []string
		if len(full) == 1 {
			w = full[0]
			parts = append(parts, w.Written)
		}
		lower, upper := 0, 0
		for _, b := range bounds {
			// "in May 2004 as stored before 2 December 2026": a bound
			// beside a window, past every valid time of the store, cuts
			// nothing and may be a belief time written without its word.
			if len(full) == 1 && (strings.HasPrefix(b.Written, fromStoreStart) && b.End > x.hi || strings.HasSuffix(b.Written, toStoreEnd) && b.Start < x.lo) {
				return nil, fmt.Errorf("%q lies outside the store's valid times and cuts nothing from %q; if it is a belief time, write \"as of\" before it", strings.TrimSuffix(strings.TrimPrefix(b.Written, fromStoreStart), toStoreEnd), w.Written)
			}
			if strings.HasSuffix(b.Written, toStoreEnd) {
				lower++
				if b.Start > w.Start {
					w.Start = b.Start
				}
				parts = append(parts, strings.TrimSuffix(b.Written, toStoreEnd))
			} else {
				upper++
				if b.End < w.End || b.End == w.End && len(full) == 0 {
					w.End, w.InclusiveEnd = b.End, b.InclusiveEnd
				}
				parts = append(parts, strings.TrimPrefix(b.Written, fromStoreStart))
			}
		}
		if lower <= 1 && upper <= 1 {
			if w.End <= w.Start {
				return nil, fmt.Errorf("the window %s is empty", strings.Join(parts, " … "))
			}
			w.StartText, w.EndText = FormatTime(w.Start), FormatTime(w.End)
			w.Written = strings.Join(parts, " … ")
			x.s.notes = append(x.s.notes, fmt.Sprintf("the window is where %s meet", strings.Join(quoteAll(parts), " and ")))
			out.wins = []Window{w}
			out.pair = out.pair || len(full) == 0
		}
	}
	if err := x.checkOvers(out.wins); err != nil {
		return nil, err
	}
	for _, l := range x.lengths {
		if len(out.wins) != 1 {
			return nil, fmt.Errorf("%q restates the length of a window, but the question writes %d", l.written, len(out.wins))
		}
		if w := out.wins[0]; w.End-w.Start != l.us {
			return nil, fmt.Errorf("the window [%s, %s) is %s long, but the question restates it as %q", w.StartText, w.EndText, spell(w.End-w.Start), l.written)
		}
	}
	for _, m := range x.midnights {
		for _, w := range out.wins {
			if w.Start%usDay != 0 || w.End%usDay != 0 {
				return nil, fmt.Errorf("%q, but the window [%s, %s) does not run from midnight to midnight", m, w.StartText, w.EndText)
			}
		}
	}
	return out, nil
}

// spell writes a length in days, or in hours when shorter than a day.
func spell(us int64) string {
	if us%usDay == 0 {
		return fmt.Sprintf("%d days", us/usDay)
	}
	return time.Duration(us * 1000).String()
}

// recordNouns name the store's record of what happened, not the graph.
var recordNouns = map[string]bool{"store": true, "archive": true, "register": true, "records": true, "record": true,
	"database": true, "log": true, "ledger": true}

// storeAsItWas reports whether the word at k ends "the archive as it
// was", "the store as it stood", "as the register stood" in a phrase
// starting at i (or just before it): the store's record at a time,
// which is a belief time.
func (x *extractor) storeAsItWas(i, k int) bool {
	if l := x.tok(k).low; l != "was" && l != "were" && l != "stood" {
		return false
	}
	noun, as := false, false
	for m := k - 1; m >= i-3 && m >= 0; m-- {
		switch l := x.tok(m).low; {
		case recordNouns[l]:
			noun = true
		case l == "as":
			as = true
		case l == "it" || l == "the" || l == "things" || l == "they" || l == "in" || l == "for" || l == "our" || l == "its":
		default:
			m = -1
		}
	}
	return noun && as
}

// originWords, before "from A", make A where buckets are counted from
// ("7-day buckets counted from 8/1"), not a bound of the window.
var originWords = map[string]bool{"counted": true, "counting": true, "measured": true, "aligned": true, "anchored": true,
	"bucket": true, "buckets": true, "bins": true, "blocks": true, "block": true}

// originWritten reports whether a time of the question is a bucket
// origin ("counted from A").
func (x *extractor) originWritten() bool {
	for _, t := range x.s.times {
		if t.prep != "from" && t.prep != "starting" {
			continue
		}
		_, pi := x.prevWord(t.w.i)
		// "we begin counting on D" starts the window; "counted from D"
		// places buckets.
		if w, wi := x.prevWord(pi); originWords[w] && !startVerbs[x.tok(wi-1).low] {
			return true
		}
	}
	return false
}

// lengthsBeforeRanges reads a length written after "the" just before a
// range ("the five days from the 5th to the 9th") as a restatement of
// the range's length, not a duration of its own ("in buckets of 7 days
// between A and B" stays a bucket size).
func (x *extractor) lengthsBeforeRanges() {
	ts := x.s.times
	for k := 0; k+1 < len(ts); k++ {
		t, n := ts[k], ts[k+1]
		if t.prep != "from" && t.prep != "between" {
			continue
		}
		switch c := x.connective(t.w.j, n.w.i); c {
		case "to", "until", "till", "through", "thru", "and", "-", "–", "up to", "up to and including":
		default:
			continue
		}
		_, pi := x.prevWord(t.w.i)
		for d := 0; d < len(x.s.durs); d++ {
			// "the five days from …": a length after "the", no bucket size.
			if du := x.s.durs[d]; du.j == pi && du.us%usDay == 0 && du.role == "" && x.tok(du.i-1).low == "the" {
				x.lengths = append(x.lengths, restatedLength{us: du.us, written: du.written})
				x.s.durs = append(x.s.durs[:d], x.s.durs[d+1:]...)
				break
			}
		}
	}
}

// rangeNoun reads a plural period noun right before a range of those
// periods ("the days Monday 2 until Friday 6 March", "the months January
// to June 1970"): it names what the range lists, so it restricts
// nothing. w is the range's first end.
func (x *extractor) rangeNoun(w when) {
	n := x.tok(w.i - 1)
	if n.used || x.tok(w.i-2).low != "the" {
		return
	}
	if !(n.low == "days" && w.prec == PrecDay || n.low == "months" && w.prec == PrecMonth) {
		return
	}
	if k, isConn := x.rangeConn(w.j); isConn && x.tok(w.j).low != "and" {
		if e, ok, err := x.core(k); ok && err == nil && e.prec == w.prec {
			x.use(w.i-1, w.i)
		}
	}
}

// weekDays narrows a week named by its first day ("the week of 11 May
// 1970") to the weekdays written after it ("(Monday to Friday)"): they
// say which of its days are meant, and must start on its first day.
func weekDays(w *Window, dr dayRange) (Window, bool) {
	l := strings.ToLower(w.Written)
	if !strings.HasPrefix(l, "the week of ") && !strings.HasPrefix(l, "week of ") || w.End-w.Start != usWeek || w.Start%usDay != 0 {
		return Window{}, false
	}
	if time.UnixMicro(w.Start).UTC().Weekday() != dr.first {
		return Window{}, false
	}
	days := (int(dr.last)-int(dr.first)+7)%7 + 1
	n := *w
	n.End = n.Start + int64(days)*usDay
	n.EndText = FormatTime(n.End)
	return n, true
}

// joinablePreps are the relations to a time that "or" and "and" can
// join before it ("on or after D").
var joinablePreps = map[string]bool{"on": true, "at": true, "in": true, "by": true, "before": true, "after": true, "until": true,
	"till": true, "from": true, "since": true, "to": true, "during": true}

// joinedPreps reads two relations joined before the time at i: "on or
// after D" (and "at or after T", "in or after P", "on and after D") is
// since D's start, "on or before D" through its end (through T itself
// for an instant). Any other pair is refused: which relation is meant?
func (x *extractor) joinedPreps(i int) (prep string, joined bool, err error) {
	second, pi := x.prevWord(i)
	conj := x.tok(pi - 1).low
	if !joinablePreps[second] || conj != "or" && conj != "and" {
		return "", false, nil
	}
	first := x.tok(pi - 2).low
	if !joinablePreps[first] {
		return "", false, nil
	}
	at := func(w string) bool { return w == "on" || w == "at" || w == "in" || w == "during" }
	switch {
	case at(first) && second == "after" || first == "after" && at(second):
		return "since", true, nil
	case at(first) && second == "before" || first == "before" && at(second):
		return "through", true, nil
	}
	return "", true, &Refusal{Problem: fmt.Sprintf("%q joins two relations to one time; write \"since\", \"through\", \"before\" or \"after\" alone", x.span(pi-2, pi+1)), Missing: []string{"time"}}
}

// wholePeriodEnd refuses "from January 1970 to June 1970" and "between
// 2004 and 2005": with both ends written as whole months, quarters or
// years, "to B" could end where B starts or include it ("January to
// June 1970" includes June), so the question must say ("through June
// 1970", "until June 1970", "June inclusive").
func wholePeriodEnd(a, b when, conn string, incl bool) error {
	if incl || a.compact || b.compact || a.prec != b.prec {
		return nil
	}
	switch a.prec {
	case PrecMonth, PrecQuarter, PrecYear:
	default:
		return nil
	}
	switch conn {
	case "to", "and", "-", "–":
	default:
		return nil
	}
	return &Refusal{Problem: fmt.Sprintf("does %q include %s? write \"through %s\" or \"until %s\"", a.text+" "+conn+" "+b.text, b.text, b.text, b.text), Missing: []string{"time"}}
}
