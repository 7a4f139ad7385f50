package reader

import (
	"fmt"
	"time"
)

// "Before P is over": the words speak from inside P, so P is the window,
// not only its end. "Before the week was out" points back at a window
// the question writes, which must lie inside one such period.

// overAt reads "is over", "was out", "is done", "ends" at j and returns
// the index after them.
func (x *extractor) overAt(j int) (int, bool) {
	switch l := x.tok(j).low; {
	case (l == "is" || l == "was") && (x.tok(j+1).low == "over" || x.tok(j+1).low == "out" || x.tok(j+1).low == "done"):
		return j + 2, true
	case l == "has" && x.tok(j+1).low == "ended" || l == "had" && x.tok(j+1).low == "ended":
		return j + 2, true
	case l == "ends" || l == "ended":
		return j + 1, true
	}
	return j, false
}

// overUnits are the periods "before the week was out" may point back at.
var overUnits = map[string]bool{"day": true, "week": true, "month": true, "year": true}

// restatedOver is "before the week was out" beside a window.
type restatedOver struct {
	unit, written string
}

// periodOverAt reads "before the day is over" at i ("before" at i):
// a restatement that the window ends with the day (week, month, year)
// it lies in, checked once the window is known.
func (x *extractor) periodOverAt(i int) (int, bool) {
	if x.tok(i).low != "before" || x.tok(i+1).low != "the" && x.tok(i+1).low != "this" && x.tok(i+1).low != "that" {
		return i, false
	}
	unit := x.tok(i + 2).low
	if !overUnits[unit] {
		return i, false
	}
	k, ok := x.overAt(i + 3)
	if !ok {
		return i, false
	}
	x.overs = append(x.overs, restatedOver{unit: unit, written: x.span(i, k)})
	x.use(i, k)
	return k, true
}

// sameCalendar reports whether the window [s, e) lies inside one UTC
// calendar day, ISO week (Monday to Sunday), month or year.
func sameCalendar(s, e int64, unit string) bool {
	a, b := time.UnixMicro(s).UTC(), time.UnixMicro(e-1).UTC()
	switch unit {
	case "day":
		return a.YearDay() == b.YearDay() && a.Year() == b.Year()
	case "week":
		ay, aw := a.ISOWeek()
		by, bw := b.ISOWeek()
		return ay == by && aw == bw
	case "month":
		return a.Month() == b.Month() && a.Year() == b.Year()
	case "year":
		return a.Year() == b.Year()
	}
	return false
}

// checkOvers checks each "before the week was out" against the one
// window the question writes.
func (x *extractor) checkOvers(wins []Window) error {
	for _, o := range x.overs {
		if len(wins) != 1 {
			return fmt.Errorf("%q points back at a window, but the question writes %d", o.written, len(wins))
		}
		if w := wins[0]; !sameCalendar(w.Start, w.End, o.unit) {
			return fmt.Errorf("%q, but the window [%s, %s) is not inside one %s", o.written, w.StartText, w.EndText, o.unit)
		}
	}
	return nil
}
