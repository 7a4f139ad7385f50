package reader

import (
	"fmt"
	"strings"
)

// A time of day written in words on a twelve-hour clock with no part of
// the day ("ten past eight", "nine o'clock") is morning or evening: it
// is read only when the range it starts settles which ("between eight
// o'clock and noon" cannot start in the evening), and refused otherwise.

// halfDayOnly reports whether the time of day at i is written in words
// on a twelve-hour clock without a part of the day.
func (p *timeParser) halfDayOnly(i int) bool {
	_, _, _, part, ok := p.wordClockPart(i)
	return ok && !part
}

// halfDayErr is the refusal of a time that could be morning or evening.
func (p *timeParser) halfDayErr(i, j int) error {
	return &dateErr{p.span(i, j), "in the morning or the evening? write \"in the morning\" or \"in the evening\" after the hour, or a 24-hour time"}
}

// settleHalfDay picks the reading of a twelve-hour start time (off µs
// after midnight as written, clock hour h) that comes before the range's
// end off2 on the same day; ok is false when both or neither do.
func settleHalfDay(off int64, h int, off2 int64) (int64, bool) {
	am := off
	if h == 12 {
		am -= 12 * usHour
	}
	pm := am + 12*usHour
	switch {
	case am < off2 && pm >= off2:
		return am, true
	case pm < off2 && am >= off2:
		return pm, true
	}
	return 0, false
}

// laterUnits are the units of "twenty-four hours later".
var laterUnits = map[string]int64{"hour": usHour, "hours": usHour, "minute": usMinute, "minutes": usMinute, "day": usDay, "days": usDay}

// clockLater reads "midnight twenty-four hours later" at i (the clock
// read up to j, at off µs after midnight): the instant that long after
// the instant written just before it, whose time of day must be the
// clock's (on either half of the day for a twelve-hour time with no
// part of the day: the instant settles which). ok is false when no "N
// units later" follows.
func (p *timeParser) clockLater(i int, off, width int64, j int, halfDay bool) (when, bool, error) {
	k, n := j, int64(0)
	switch t := p.tok(k); {
	case t.kind == tNum && len(t.low) <= 3:
		for _, c := range t.low {
			if c < '0' || c > '9' {
				return when{}, false, nil
			}
			n = n*10 + int64(c-'0')
		}
		k++
	case t.kind == tWord && numberWords[t.low] > 0:
		n, k = numberWords[t.low], k+1
		if n >= 20 && n%10 == 0 && p.tok(k).text == "-" && numberWords[p.tok(k+1).low] >= 1 && numberWords[p.tok(k+1).low] <= 9 {
			n, k = n+numberWords[p.tok(k+1).low], k+2
		}
	default:
		return when{}, false, nil
	}
	u, ok := laterUnits[p.tok(k).low]
	if !ok || p.tok(k+1).low != "later" || n <= 0 {
		return when{}, false, nil
	}
	end := k + 2
	a, found := p.lastTime(i)
	if !found || a.prec != PrecInstant {
		return when{i: i, j: end}, true, &dateErr{p.span(i, end), "later than which time? write the date"}
	}
	t := a.start + n*u
	day := usDay
	if halfDay {
		day = 12 * usHour
	}
	if tod, want := ((t%day)+day)%day, ((off%day)+day)%day; tod != want {
		return when{i: i, j: end}, true, &dateErr{p.span(i, end), fmt.Sprintf("%s after %s is %s", p.span(j, k+1), a.text, FormatTime(t))}
	}
	return when{start: t, end: t + width, prec: PrecInstant, i: i, j: end, text: p.span(i, end),
		inferred: fmt.Sprintf("%s after %s", p.span(j, k+1), a.text)}, true, nil
}

// lastTime is the time expression written last before token i, taken
// whole ("midnight, 1 January 1970", not its "1 January 1970").
func (p *timeParser) lastTime(i int) (when, bool) {
	if p.anchoring {
		return when{}, false
	}
	p.anchoring = true
	defer func() { p.anchoring = false }()
	var best when
	found := false
	for k := i - 1; k >= 0 && k >= i-40; k-- {
		w, ok, err := p.core(k)
		if !ok || err != nil || w.j > i || w.boundary {
			continue
		}
		switch {
		case !found || w.j == best.j:
			best, found = w, true
		case w.j < best.j:
			return best, true
		}
	}
	return best, found
}

// dayParts are the parts of a day, which have no agreed hours.
var dayParts = map[string]bool{"morning": true, "afternoon": true, "evening": true, "night": true, "mornings": true,
	"afternoons": true, "evenings": true, "nights": true, "overnight": true}

// partOfDayWords refuses a part of the day no time of day read ("on 3
// May in the evening", "the morning of 3 May"): it restricts the window
// to hours nobody wrote. Before the question's first content word a
// greeting ("Good morning, …") is not one.
func (x *extractor) partOfDayWords() error {
	for i, t := range x.toks {
		if t.used || t.kind != tWord || !dayParts[t.low] {
			continue
		}
		prev := x.tok(i - 1).low
		if t.low != "overnight" && prev != "the" && prev != "this" && prev != "that" && prev != "each" && prev != "every" && prev != "in" && prev != "at" && prev != "per" {
			continue
		}
		written := x.span(i-1, i+1)
		if t.low == "overnight" {
			written = t.text
		}
		return &Refusal{Problem: fmt.Sprintf("which hours are %q? write them, e.g. \"from 18:00 to 23:00 on 3 May 2004\"", written), Missing: []string{"time"}}
	}
	return nil
}

// deictic are the words that name a period relative to when the
// question is asked ("this week", "next month", "that day").
var deictic = map[string]bool{"this": true, "that": true, "these": true, "those": true, "next": true, "coming": true, "past": true,
	"previous": true, "current": true, "same": true, "last": true}

// deicticPeriods are the periods "this week" and "last month" name.
var deicticPeriods = map[string]bool{"day": true, "week": true, "month": true, "year": true, "quarter": true, "fortnight": true,
	"weekend": true, "hour": true, "days": true, "weeks": true, "months": true, "years": true, "decade": true}

// relativePeriods refuses "this week", "last month", "that day" in a
// question that writes no time: the period is relative to a moment the
// store does not know, and the whole store is not it.
func (x *extractor) relativePeriods() error {
	if len(x.s.times) > 0 {
		return nil
	}
	for i, t := range x.toks {
		if t.used || t.kind != tWord || !deicticPeriods[t.low] || !deictic[x.tok(i-1).low] {
			continue
		}
		return &Refusal{Problem: fmt.Sprintf("which %s is %q? write its dates, e.g. \"from 2004-05-03 to 2004-05-10\"", t.low, x.span(i-1, i+1)), Missing: []string{"time"}}
	}
	return nil
}

// dayLinks are the words between a day and a time of day written after
// it in one phrase ("on 3 May between 17:00 and 18:00", "on 3 May after
// 5pm").
var dayLinks = map[string]bool{"between": true, "from": true, "after": true, "before": true, "until": true, "till": true,
	"to": true, "and": true, "since": true, ",": true}

// dayBefore is the day a time of day written without one takes: the day
// written just before it in the same phrase, with only range words and
// other times of day between ("on 3 May 1970 between 17:00 and 18:00").
func (p *timeParser) dayBefore(i int) (when, bool) {
	k, links := i-1, 0
	for ; k >= 0 && i-k <= 8; k-- {
		t := p.tok(k)
		if dayLinks[t.low] || dayLinks[t.text] {
			links++
			continue
		}
		l := strings.ReplaceAll(t.low, ".", "")
		if t.kind == tClock || l == "am" || l == "pm" || l == "noon" || l == "midnight" || l == "midday" || l == "utc" || t.kind == tNum && len(t.low) <= 2 {
			continue
		}
		break
	}
	if links == 0 || !dayLinks[p.tok(k+1).low] && !dayLinks[p.tok(k+1).text] || p.anchoring {
		return when{}, false
	}
	p.anchoring = true
	defer func() { p.anchoring = false }()
	var day when
	found := false
	for s := k; s >= 0 && s >= k-8; s-- {
		if w, ok, err := p.core(s); ok && err == nil && w.j == k+1 && w.prec == PrecDay {
			day, found = w, true
		}
	}
	if found {
		if p.dayDated == nil {
			p.dayDated = map[int64]bool{}
		}
		p.dayDated[day.start] = true
	}
	return day, found
}

// narrowDay keeps the window inside a day that the times of day written
// after the day took their date from ("on 3 May between 17:00 and
// 18:00"): the day and that window are one window, the narrower.
func (x *extractor) narrowDay(wins []Window) ([]Window, bool) {
	if len(wins) != 2 {
		return wins, false
	}
	for k, d := range wins {
		w := wins[1-k]
		if x.dayDated[d.Start] && d.End-d.Start == usDay && w.Start >= d.Start && w.End <= d.End {
			return []Window{w}, true
		}
	}
	return wins, false
}
