package reader

import (
	"fmt"
	"time"
)

// calendarWeekRestate reads a parenthesis after a calendar-week bucket
// that says which weeks are meant: "(Monday to Sunday weeks)", "(weeks
// running Monday to Sunday)", and after it the fixed-width reading set
// aside, ", not blocks counted from D", where D is where such blocks
// would start (the window's start) and no Monday. Calendar and ISO weeks
// run Monday to Sunday, so the parenthesis restates the bucket and is
// ignored and listed (D is then no bound of the window); another pair of
// weekdays disagrees with the bucket and is refused.
func (x *extractor) calendarWeekRestate() error {
	cal := -1
	for _, d := range x.s.durs {
		if d.unit == "week" {
			cal = d.i
		}
	}
	if cal < 0 {
		return nil
	}
	for open := cal; open < len(x.toks); open++ {
		if x.toks[open].text != "(" || x.toks[open].used {
			continue
		}
		k := open + 1
		first, last, j, ok := x.weekdaysOfWeeks(k)
		if !ok {
			return nil
		}
		if first != time.Monday || last != time.Sunday {
			return &Refusal{Problem: fmt.Sprintf("calendar weeks run Monday to Sunday, but the question restates them as %q", x.span(k, j)), Missing: []string{"bucket"}}
		}
		k = j
		origin := -1
		if x.tok(k).text == "," && x.tok(k+1).low == "not" {
			if n := x.tok(k + 2).low; (n == "blocks" || n == "buckets") && originWords[x.tok(k+3).low] && x.tok(k+4).low == "from" {
				origin = x.timeSlotAt(k + 5)
				if origin < 0 || !x.setsAsideDefaultOrigin(origin) {
					return nil
				}
				k = x.s.times[origin].w.j
			}
		}
		if x.tok(k).text != ")" {
			return nil
		}
		if origin >= 0 {
			x.s.times = append(x.s.times[:origin], x.s.times[origin+1:]...)
		}
		x.ignore(open, k+1)
		return nil
	}
	return nil
}

// weekdaysOfWeeks reads "Monday to Sunday weeks" or "weeks running
// (from) Monday to Sunday" at k: the two weekdays and the index after.
func (x *extractor) weekdaysOfWeeks(k int) (first, last time.Weekday, j int, ok bool) {
	lead := x.tok(k).low == "weeks"
	if lead {
		k++
		for x.tok(k).low == "running" || x.tok(k).low == "from" || x.tok(k).low == "that" || x.tok(k).low == "run" {
			k++
		}
	}
	f, ok1 := weekdays[x.tok(k).low]
	if c := x.tok(k + 1); !ok1 || c.low != "to" && c.text != "–" && c.text != "-" && c.low != "through" {
		return 0, 0, 0, false
	}
	l, ok2 := weekdays[x.tok(k+2).low]
	if !ok2 {
		return 0, 0, 0, false
	}
	j = k + 3
	if !lead {
		if x.tok(j).low != "weeks" {
			return 0, 0, 0, false
		}
		j++
	}
	return f, l, j, true
}

// timeSlotAt is the index in x.s.times of the time written at token i,
// -1 if none.
func (x *extractor) timeSlotAt(i int) int {
	for k, ts := range x.s.times {
		if ts.w.i == i {
			return k
		}
	}
	return -1
}

// setsAsideDefaultOrigin reports whether the time slot k is where
// fixed-width week blocks would start: the start of the one other time
// the question writes, and no Monday (blocks from a Monday would be the
// calendar weeks).
func (x *extractor) setsAsideDefaultOrigin(k int) bool {
	if len(x.s.times) != 2 {
		return false
	}
	d, other := x.s.times[k].w, x.s.times[1-k].w
	return d.start == other.start && time.UnixMicro(d.start).UTC().Weekday() != time.Monday
}
