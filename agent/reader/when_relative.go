package reader

import (
	"fmt"
	"time"
)

// "Tuesday week": the Tuesday after the next one. It is a date only when
// the question writes the day it is counted from ("Tuesday week,
// counting from Thursday 1 January 1970"); said on a Tuesday it could
// mean a week or two weeks on, so that day is refused. A restatement
// after it ("(the Tuesday after next, the thirteenth)") must agree.

// weekdayWeek reads "Tuesday week" at i (k is "week") with the day it is
// counted from.
func (p *timeParser) weekdayWeek(i, k int, wd time.Weekday) (when, bool, error) {
	unread := func() (when, bool, error) {
		return when{i: i, j: k + 1}, true, &dateErr{p.span(i, k+1), "which day is that? write its date"}
	}
	m := k + 1
	if p.tok(m).text == "," {
		m++
	}
	switch p.tok(m).low {
	case "counting", "counted", "reckoned", "reckoning":
		m++
	}
	if p.tok(m).low != "from" {
		return unread()
	}
	d, ok, err := p.core(m + 1)
	if !ok || err != nil {
		return unread()
	}
	if d.prec != PrecDay {
		return when{i: i, j: d.j}, true, &dateErr{p.span(i, d.j), "counted from which day? write a day"}
	}
	from := time.UnixMicro(d.start).UTC()
	if from.Weekday() == wd {
		return when{i: i, j: d.j}, true, &dateErr{p.span(i, d.j), fmt.Sprintf("%s week counted from a %s: one week or two weeks on? write its date", wd, wd)}
	}
	ahead := (int(wd) - int(from.Weekday()) + 7) % 7
	s := d.start + int64(ahead+7)*usDay
	j, err := p.weekdayWeekRestated(d.j, wd, s)
	w := when{start: s, end: s + usDay, prec: PrecDay, i: i, j: j, text: p.span(i, j),
		inferred: time.UnixMicro(s).UTC().Format("Monday 2 January 2006")}
	if err != nil {
		return w, true, &dateErr{w.text, err.Error()}
	}
	return w, true, nil
}

// weekdayWeekRestated reads "(so the Tuesday after next, the
// thirteenth)" at j after "Tuesday week …" that falls on day s: the
// weekday and the day of the month must be s's.
func (p *timeParser) weekdayWeekRestated(j int, wd time.Weekday, s int64) (int, error) {
	if p.tok(j).text != "(" {
		return j, nil
	}
	k := j + 1
	if l := p.tok(k).low; l == "so" || l == "i.e" || l == "that" && p.tok(k+1).low == "is" {
		k++
		if l == "that" {
			k++
		}
	}
	if p.tok(k).low == "the" {
		k++
	}
	said, ok := weekdays[p.tok(k).low]
	if !ok || p.tok(k+1).low != "after" || p.tok(k+2).low != "next" {
		return j, nil
	}
	if said != wd {
		return k + 3, fmt.Errorf("%s restates it as %q", wd, p.span(k, k+3))
	}
	k += 3
	day := time.UnixMicro(s).UTC().Day()
	if p.tok(k).text == "," {
		e := k + 1
		if p.tok(e).low == "the" {
			e++
		}
		n, e2, isDay := p.dayOfMonth(e)
		if !isDay {
			return j, nil
		}
		if n != day {
			return e2, fmt.Errorf("that is day %d of its month, but the question restates it as %q", day, p.span(e, e2))
		}
		k = e2
	}
	if p.tok(k).text != ")" {
		return j, nil
	}
	return k + 1, nil
}
