package reader

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// More written forms of windows: weeks named by their first day, the
// first days or weeks of a period, the end of a period as a range's
// bound, days named relative to a date the question writes, and month
// and day pairs inside a restatement.

// weekFrom reads "week beginning D", "week starting D", "week
// commencing D", "week from D" (seven days from D's start) and "week
// after D" (seven days from D's end); i is the word "week". D must be a
// day.
func (p *timeParser) weekFrom(i int) (when, bool, error) {
	lead := p.tok(i + 1).low
	switch lead {
	case "beginning", "starting", "commencing", "from", "after":
	default:
		return when{}, false, nil
	}
	k := i + 2
	if (lead == "beginning" || lead == "starting") && p.tok(k).low == "on" {
		k++
	}
	d, ok, err := p.core(k)
	if !ok || err != nil {
		return d, ok, err
	}
	if _, isRange := p.rangeConn(d.j); d.compact || isRange && p.tok(d.j).low != "and" {
		return when{}, false, nil // "the week from Monday 2 to Friday 6 March": the range says which days
	}
	if d.prec != PrecDay {
		return when{i: i, j: d.j}, true, &dateErr{p.span(i, d.j), "a week named by its first day needs a day, e.g. the week beginning 3 May 2004"}
	}
	s := d.start
	if lead == "after" {
		s = d.end
	}
	return when{start: s, end: s + usWeek, prec: PrecWeek, i: i, j: d.j, text: p.span(i, d.j), inferred: d.inferred}, true, nil
}

// spanUnits are the units "the first N … of P" counts in.
var spanUnits = map[string]int64{"day": usDay, "days": usDay, "week": usWeek, "weeks": usWeek, "fortnight": 2 * usWeek}

// partOf reads the first or last days or weeks of a period: "the first
// day of January 1970", "the first three days of 1970", "the first two
// weeks of Jan 2014", "the first fortnight of March", "the last 10 days
// of May". What it names must lie inside the period.
func (p *timeParser) partOf(i int) (when, bool, error) {
	first := p.tok(i).low
	if first != "first" && first != "last" {
		return when{}, false, nil
	}
	n, k := int64(1), i+1
	if c := p.tok(k); c.kind == tNum {
		v, err := strconv.ParseInt(c.low, 10, 64)
		if err != nil || v < 1 || v > 400 {
			return when{}, false, nil
		}
		n, k = v, k+1
	} else if v := numberWords[c.low]; v > 1 && c.kind == tWord {
		n, k = v, k+1
	}
	unit, ok := spanUnits[p.tok(k).low]
	if !ok || p.tok(k+1).low != "of" {
		return when{}, false, nil
	}
	if n > 1 && (p.tok(k).low == "day" || p.tok(k).low == "week" || p.tok(k).low == "fortnight") {
		return when{}, false, nil // "the first three day of": not English
	}
	if unit == usWeek && n == 1 {
		return when{}, false, nil // "the first week of June" is weekOf's
	}
	per, ok, err := p.core(k + 2)
	if !ok || err != nil {
		return per, ok, err
	}
	if per.prec == PrecInstant || per.prec == PrecDay {
		return when{i: i, j: per.j}, true, &dateErr{p.span(i, per.j), "the first days of what? name a week, month, quarter or year"}
	}
	length := n * unit
	s := per.start
	if first == "last" {
		s = per.end - length
	}
	if s < per.start || s+length > per.end {
		return when{i: i, j: per.j}, true, &dateErr{p.span(i, per.j), "the period is shorter than that"}
	}
	prec := PrecDay
	if length > usDay {
		prec = PrecWeek
	}
	return when{start: s, end: s + length, prec: prec, i: i, j: per.j, text: p.span(i, per.j), inferred: per.inferred}, true, nil
}

// endWords are the words after which "the end of P" bounds a range: the
// instant P ends, with every moment of P before it.
var endWords = map[string]bool{"until": true, "till": true, "before": true, "by": true, "to": true}

// deadlineAt is the number of tokens ending at b that name a deadline
// the time after them is ("the deadline is", "a deadline of",
// "deadline:"), 0 when there is none: a deadline is where the window
// ends, as "until" says.
func (p *timeParser) deadlineAt(b int) int {
	switch l := p.tok(b).low; {
	case p.tok(b).text == ":" || l == "is" || l == "of" || l == "being":
		if d := p.tok(b - 1).low; d == "deadline" || d == "cutoff" || d == "cut-off" {
			return 2
		}
	}
	return 0
}

// boundary reads "end of P", "close of P" (i is "end" or "close") where
// it ends a range ("until the end of June", "by the close of Friday",
// "the deadline is the end of Friday"):
// the instant P ends. Elsewhere "the end of P" is not read, since an
// instant "at the end of P" could be P's last microsecond or the one
// after.
func (p *timeParser) boundary(i int) (when, bool, error) {
	if w := p.tok(i).low; (w != "end" && w != "close") || p.tok(i+1).low != "of" {
		return when{}, false, nil
	}
	b := i - 1
	if p.tok(b).low == "the" {
		b--
	}
	bound := endWords[p.tok(b).low] && (p.tok(b).low != "to" || p.tok(b-1).low == "up") || p.deadlineAt(b) > 0
	per, ok, err := p.core(i + 2)
	if !ok && err == nil && p.tok(i+2).low == "the" {
		// "by the end of the 9th": a day of the month of the nearest date.
		if d, j, isDay := p.dayOfMonth(i + 3); isDay && monthNames[p.tok(j).low] == 0 && p.tok(j).low != "of" {
			if a, found := p.anchor(i, true); found {
				at := time.UnixMicro(a.start).UTC()
				if !validDay(at.Year(), int(at.Month()), d) {
					return when{i: i, j: j}, true, &dateErr{p.span(i, j), fmt.Sprintf("%s has no day %d", at.Format("January 2006"), d)}
				}
				t := utc(at.Year(), int(at.Month()), d)
				per, ok = when{start: t, end: t + usDay, prec: PrecDay, i: i + 2, j: j, inferred: fmt.Sprintf("%s of %s", p.span(i+2, j), at.Format("January 2006"))}, true
			}
		}
	}
	if !ok || err != nil {
		return per, ok, err
	}
	if !bound {
		return when{i: i, j: per.j}, true, &dateErr{p.span(i, per.j), fmt.Sprintf("its last microsecond or the one after? write \"until the end of %s\" or a time", per.text)}
	}
	if per.prec == PrecInstant {
		return when{i: i, j: per.j}, true, &dateErr{p.span(i, per.j), "the end of an instant? name a day or a longer period"}
	}
	return when{start: per.end, end: per.end + 1, prec: PrecInstant, boundary: true, i: i, j: per.j, text: p.span(i, per.j), inferred: per.inferred}, true, nil
}

// partOfDay reads "in the morning", "in the afternoon", "in the
// evening" and "at night" at j, and "on the evening of" (and "in the …
// of") before a date. It returns the part, the index after the words
// and whether a date follows.
func (p *timeParser) partOfDay(j int) (part string, k int, ofDate bool) {
	switch {
	case (p.tok(j).low == "in" || p.tok(j).low == "on") && p.tok(j+1).low == "the":
		switch l := p.tok(j + 2).low; l {
		case "morning", "afternoon", "evening":
			if p.tok(j+3).low == "of" {
				return l, j + 4, true
			}
			if p.tok(j).low == "in" {
				return l, j + 3, false
			}
		}
	case p.tok(j).low == "at" && p.tok(j+1).low == "night":
		return "night", j + 2, false
	}
	return "", j, false
}

// withPart applies a part of the day to an hour written on a twelve-hour
// clock; an hour the part contradicts is an error.
func withPart(h int, twelve bool, part string) (int, error) {
	switch part {
	case "":
		return h, nil
	case "morning":
		if h >= 12 {
			return 0, fmt.Errorf("%d:00 is not in the morning", h)
		}
		return h, nil
	case "afternoon", "evening":
		if twelve && h >= 1 && h < 12 {
			return h + 12, nil
		}
		if h >= 12 && (part == "afternoon" || h >= 17) {
			return h, nil
		}
		return 0, fmt.Errorf("%d:00 is not in the %s", h, part)
	case "night":
		if twelve && h >= 6 && h < 12 {
			return h + 12, nil
		}
		if h >= 18 || h < 5 {
			return h, nil
		}
		return 0, fmt.Errorf("%d:00 is not at night", h)
	}
	return h, nil
}

// anchor is the nearest day (or, with months, month) written before
// token i, which days written without a month or year are read
// against ("Monday 11 May … on the Tuesday", "February 1970, from
// Sunday the 1st").
func (p *timeParser) anchor(i int, months bool) (when, bool) {
	if p.anchoring {
		return when{}, false
	}
	p.anchoring = true
	defer func() { p.anchoring = false }()
	for k := i - 1; k >= 0 && k >= i-40; k-- {
		w, ok, err := p.core(k)
		if !ok || err != nil || w.j > i || w.boundary {
			continue
		}
		if w.prec == PrecDay || w.prec == PrecInstant || months && w.prec == PrecMonth {
			return w, true
		}
	}
	return when{}, false
}

// anchoredDay reads a day of the month written without its month and
// year after a weekday ("Friday the 15th", "Monday the 11th"): the
// month and year of the nearest date written before it, and the
// weekday must agree. i is the weekday, k the day.
func (p *timeParser) anchoredDay(i, k int, wd time.Weekday) (when, bool, error) {
	if p.tok(k).low != "the" {
		return when{}, false, nil
	}
	d, j, ok := p.dayOfMonth(k + 1)
	if !ok || p.tok(j).low == "of" || monthNames[p.tok(j).low] > 0 {
		return when{}, false, nil
	}
	a, ok := p.anchor(i, true)
	if !ok {
		return when{}, false, nil
	}
	at := time.UnixMicro(a.start).UTC()
	if !validDay(at.Year(), int(at.Month()), d) {
		return when{i: i, j: j}, true, &dateErr{p.span(i, j), fmt.Sprintf("%s has no day %d", at.Format("January 2006"), d)}
	}
	day := time.Date(at.Year(), at.Month(), d, 0, 0, 0, 0, time.UTC)
	if day.Weekday() != wd {
		return when{i: i, j: j}, true, &dateErr{p.span(i, j), fmt.Sprintf("%s is a %s, not a %s", day.Format("2 January 2006"), day.Weekday(), wd)}
	}
	w, ok2, err := p.withClock(i, day.UnixMicro(), j)
	w.inferred = fmt.Sprintf("%s of %s", p.span(i, j), at.Format("January 2006"))
	return w, ok2, err
}

// dayOfMonth reads "15th", "15 th", "fifteenth", "twenty-sixth" at k.
func (p *timeParser) dayOfMonth(k int) (int, int, bool) {
	if d, ok := dayNum(p.tok(k)); ok && isOrdSuffix(p.tok(k+1)) {
		return d, k + 2, true
	}
	if t := p.tok(k); t.kind == tWord && len(t.low) > 2 && isOrdSuffix(&token{low: t.low[len(t.low)-2:]}) {
		if d, err := strconv.Atoi(t.low[:len(t.low)-2]); err == nil && d >= 1 && d <= 31 {
			return d, k + 1, true
		}
	}
	if d, j, ok := p.ordinalDay(k); ok {
		return d, j, true
	}
	return 0, k, false
}

// theWeekday reads "the Tuesday" (i is the weekday, after "the"): a day
// the question wrote before on that weekday, or else the first day on
// that weekday after the nearest date written before it.
func (p *timeParser) theWeekday(i int, wd time.Weekday) (when, bool, error) {
	if p.tok(i-1).low != "the" || p.anchoring {
		return when{}, false, nil
	}
	// "the Tuesday after next", "the Tuesday of that week": other days.
	switch n := p.tok(i + 1); {
	case n.kind == tPunct && n.text != "(" || i+1 >= len(p.toks):
	case n.low == "at" || n.low == "in" || n.low == "and" || n.low == "to" || n.low == "until" || n.low == "till" || n.low == "through":
	default:
		return when{}, false, nil
	}
	// A day of that weekday written before: "Friday the 6th … the Friday".
	p.anchoring = true
	var same, near *when
	for k := i - 2; k >= 0 && k >= i-60; k-- {
		w, ok, err := p.core(k)
		if !ok || err != nil || w.j > i-1 || w.boundary || w.prec != PrecDay && w.prec != PrecInstant {
			continue
		}
		day := w.start - ((w.start%usDay)+usDay)%usDay
		if near == nil {
			near = &when{start: day}
		}
		if time.UnixMicro(day).UTC().Weekday() == wd && same == nil {
			same = &when{start: day}
		}
	}
	p.anchoring = false
	var day int64
	switch {
	case same != nil:
		day = same.start
	case near != nil:
		n := time.UnixMicro(near.start).UTC()
		ahead := (int(wd) - int(n.Weekday()) + 7) % 7
		day = near.start + int64(ahead)*usDay
	default:
		return when{}, false, nil
	}
	w, ok, err := p.withClock(i, day, i+1)
	w.inferred = fmt.Sprintf("the %s: %s", wd, time.UnixMicro(day).UTC().Format("Monday 2 January 2006"))
	return w, ok, err
}

// monthDay reads "3/24", a month and a day, inside a restatement of a
// window (the year is that of the window it restates); the order of
// month and day is the question's (one above twelve settles it).
func (p *timeParser) monthDay(i int) (when, bool, error) {
	r := p.restated
	if r[1] <= r[0] || p.tok(i+1).text != "/" || p.tok(i+2).kind != tNum || p.tok(i+3).text == "/" {
		return when{}, false, nil
	}
	a, err1 := strconv.Atoi(p.tok(i).low)
	b, err2 := strconv.Atoi(p.tok(i + 2).low)
	if err1 != nil || err2 != nil || len(p.tok(i).low) > 2 || len(p.tok(i+2).low) > 2 {
		return when{}, false, nil
	}
	y := time.UnixMicro(r[0]).UTC().Year()
	if time.UnixMicro(r[1]-1).UTC().Year() != y {
		return when{}, false, nil
	}
	var m, d int
	switch order := p.monthDayOrder(); {
	case a > 12 && b <= 12:
		d, m = a, b
	case b > 12 && a <= 12, a == b:
		m, d = a, b
	case order == dayFirst:
		d, m = a, b
	case order == monthFirst:
		m, d = a, b
	default:
		return when{i: i, j: i + 3}, true, &dateErr{p.span(i, i+3), "which is the month? write the date as 2004-05-03"}
	}
	if !validDay(y, m, d) {
		return when{i: i, j: i + 3}, true, &dateErr{p.span(i, i+3), "no such day"}
	}
	return when{start: utc(y, m, d), end: utc(y, m, d) + usDay, prec: PrecDay, i: i, j: i + 3, text: p.span(i, i+3),
		inferred: fmt.Sprintf("year %d: that of the window it restates", y)}, true, nil
}

// restatedDay reads a bare day number that begins or ends a day range
// inside a restatement of a window of one month ("the first week of
// January 1970 (1 to 7)"): a day of that month.
func (p *timeParser) restatedDay(i, d, j int) (when, bool, error) {
	r := p.restated
	if r[1] <= r[0] {
		return when{}, false, nil
	}
	s, e := time.UnixMicro(r[0]).UTC(), time.UnixMicro(r[1]-1).UTC()
	if s.Year() != e.Year() || s.Month() != e.Month() {
		return when{}, false, nil
	}
	if p.tok(i-1).text == "/" || p.tok(j).text == "/" {
		return when{}, false, nil
	}
	// A day next to a connective with a day on its other side.
	isDay := func(k int) bool {
		_, ok := dayNum(p.tok(k))
		return ok && p.tok(k+1).text != "/" && p.tok(k-1).text != "/"
	}
	k, startsRange := p.rangeConn(j)
	startsRange = startsRange && isDay(k)
	_, endsRange := p.rangeConn(i - 1)
	b := i - 2
	if isOrdSuffix(p.tok(b)) {
		b--
	}
	endsRange = endsRange && isDay(b)
	if !startsRange && !endsRange {
		return when{}, false, nil
	}
	if !validDay(s.Year(), int(s.Month()), d) {
		return when{i: i, j: j}, true, &dateErr{p.span(i, j), "no such day"}
	}
	t := utc(s.Year(), int(s.Month()), d)
	return when{start: t, end: t + usDay, prec: PrecDay, compact: true, i: i, j: j, text: p.span(i, j),
		inferred: fmt.Sprintf("%s of %s: the month of the window it restates", p.span(i, j), s.Format("January 2006"))}, true, nil
}

// writtenHour is the hour of the time of day written at i as it reads
// on the clock, whether it was written on a twelve-hour clock without
// a part of the day ("eight", "a quarter past eight"), and whether a
// part of the day was already written with it.
func (p *timeParser) writtenHour(i int) (h int, twelve, hadPart bool) {
	if wh, _, _, part, ok := p.wordClockPart(i); ok {
		return wh, !part, part
	}
	t := p.tok(i)
	switch {
	case t.low == "noon" || t.low == "midday":
		return 12, false, false
	case t.low == "midnight":
		return 0, false, false
	case t.kind == tNum:
		h, _ = strconv.Atoi(t.low)
		switch p.tok(i + 1).low {
		case "pm", "p.m":
			if h != 12 {
				h += 12
			}
			return h, false, true
		case "am", "a.m":
			if h == 12 {
				h = 0
			}
			return h, false, true
		}
		return h, true, false
	case t.kind == tClock:
		h, _ = strconv.Atoi(t.low[:strings.IndexByte(t.low, ':')])
		return h, false, false
	}
	return 0, false, false
}

// monthDayOrder is the order of month and day this question writes,
// settled by a slashed date or a month and day pair whose day exceeds
// 12 ("3/24"); unknown when none settles it or two disagree.
func (p *timeParser) monthDayOrder() int {
	order, _, _ := p.slashOrder()
	for k := 0; k+2 < len(p.toks); k++ {
		if p.tok(k).kind != tNum || p.tok(k+1).text != "/" || p.tok(k+2).kind != tNum || p.tok(k+3).text == "/" || p.tok(k-1).text == "/" {
			continue
		}
		a, err1 := strconv.Atoi(p.tok(k).low)
		b, err2 := strconv.Atoi(p.tok(k + 2).low)
		if err1 != nil || err2 != nil || a > 31 || b > 31 {
			continue
		}
		o := orderUnknown
		switch {
		case a > 12 && b <= 12:
			o = dayFirst
		case b > 12 && a <= 12:
			o = monthFirst
		}
		switch {
		case o == orderUnknown:
		case order == orderUnknown:
			order = o
		case order != o:
			return orderUnknown
		}
	}
	return order
}

// twoDays reads "14 and 15 January 1970" (not after "between", where
// "and" joins a range's ends): both days, which must be consecutive.
// day is the first day at i, j the "and".
func (p *timeParser) twoDays(i int, day int64, j int) (when, bool, error) {
	b := i - 1
	for b >= 0 && (p.tok(b).low == "the" || p.tok(b).text == "," || weekdays[p.tok(b).low] != 0 || p.tok(b).low == "sunday" || p.tok(b).low == "sun") {
		b--
	}
	if p.tok(j).low != "and" || p.tok(b).low == "between" {
		return when{}, false, nil
	}
	e, ok, err := p.core(j + 1)
	if !ok || err != nil || e.prec != PrecDay {
		return when{}, false, nil
	}
	if e.start != day+usDay {
		return when{i: i, j: e.j}, true, &dateErr{p.span(i, e.j), "two days apart are not one window; write \"from … to …\" or ask about each"}
	}
	return when{start: day, end: e.end, prec: PrecWeek, i: i, j: e.j, text: p.span(i, e.j)}, true, nil
}

// weekdayPair reads "Monday and Tuesday, the 11th and 12th of May
// 1970": the two days, whose weekdays must be the two written. i is the
// first weekday.
func (p *timeParser) weekdayPair(i int, wd time.Weekday) (when, bool, error) {
	wd2, ok := weekdays[p.tok(i+2).low]
	if p.tok(i+1).low != "and" || !ok || p.tok(i+3).text != "," {
		return when{}, false, nil
	}
	w, ok, err := p.core(i + 4)
	if !ok || err != nil {
		return w, ok, err
	}
	if w.end-w.start != 2*usDay || w.start%usDay != 0 {
		return when{}, false, nil
	}
	a, b := time.UnixMicro(w.start).UTC(), time.UnixMicro(w.start+usDay).UTC()
	if a.Weekday() != wd || b.Weekday() != wd2 {
		return when{i: i, j: w.j}, true, &dateErr{p.span(i, w.j), fmt.Sprintf("%s and %s are a %s and a %s", a.Format("2 January"), b.Format("2 January 2006"), a.Weekday(), b.Weekday())}
	}
	w.i, w.text = i, p.span(i, w.j)
	return w, true, nil
}

// monthList reads "April, May and June" (i is the first month, m its
// number): consecutive months without a year, one window; months that
// are not consecutive are refused. The year is the one the last month
// is written with, or else one inferred as for a lone month.
func (p *timeParser) monthList(i, m int) (when, bool, error) {
	if p.tok(i+1).text != "," {
		return when{}, false, nil
	}
	last, k := m, i+1
	for {
		switch {
		case p.tok(k).text == "," && p.tok(k+1).low == "and":
			k++
			continue
		case p.tok(k).text == "," || p.tok(k).low == "and":
		default:
			return when{}, false, nil
		}
		n, ok := monthNames[p.tok(k+1).low]
		if !ok || p.tok(k+1).kind != tWord {
			return when{}, false, nil
		}
		if n != last+1 {
			return when{i: i, j: k + 2}, true, &dateErr{p.span(i, k+2), "months that do not follow one another are not one window"}
		}
		last, k = n, k+2
		if p.tok(k-2).low == "and" {
			break
		}
	}
	j := k
	y, ok := isYear(p.tok(j))
	how := ""
	if ok {
		j++
	} else {
		var err error
		y, how, err = p.inferYear(func(y int) (int64, int64) { return utc(y, m, 1), utc(y, last+1, 1) })
		if err != nil {
			return when{i: i, j: j}, true, &dateErr{p.span(i, j), err.Error()}
		}
	}
	return when{start: utc(y, m, 1), end: utc(y, last+1, 1), prec: PrecQuarter, i: i, j: j, text: p.span(i, j), inferred: how}, true, nil
}

// periodZone reads a numeric offset written right after a period:
// "UTC+2", "(UTC+9)", "GMT-05:00". It returns the offset east of UTC and
// the index after it; a bare "UTC" is not one (the default zone).
func (p *timeParser) periodZone(j int) (int64, int, bool, error) {
	k, paren := j, p.tok(j).text == "("
	if paren {
		k++
	}
	if l := p.tok(k).low; l != "utc" && l != "gmt" {
		return 0, j, false, nil
	}
	s := p.tok(k + 1).text
	n := p.tok(k + 2)
	if s != "+" && s != "-" || n.kind != tNum && n.kind != tClock {
		return 0, j, false, nil
	}
	e := k + 3
	if paren {
		if p.tok(e).text != ")" {
			return 0, j, false, nil
		}
		e++
	}
	off, err := parseOffset(s + n.low)
	return off, e, true, err
}
