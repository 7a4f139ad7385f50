package reader

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Calendar forms of dates people write: weekday names, ordinal words for
// days, compact day ranges that share a month and year, half years,
// "3/2013", "July '12" and a year standing alone.

var weekdays = map[string]time.Weekday{
	"monday": time.Monday, "mon": time.Monday, "tuesday": time.Tuesday, "tue": time.Tuesday, "tues": time.Tuesday,
	"wednesday": time.Wednesday, "wed": time.Wednesday, "thursday": time.Thursday, "thu": time.Thursday, "thurs": time.Thursday,
	"friday": time.Friday, "fri": time.Friday, "saturday": time.Saturday, "sat": time.Saturday, "sunday": time.Sunday, "sun": time.Sunday,
}

// dayOrdinals are ordinal words for days of a month.
var dayOrdinals = map[string]int{
	"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9,
	"tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14, "fifteenth": 15, "sixteenth": 16,
	"seventeenth": 17, "eighteenth": 18, "nineteenth": 19, "twentieth": 20, "thirtieth": 30,
}

// ordinalDay reads a day written as an ordinal word: "fifth",
// "twenty-sixth", "thirty-first". It returns the day and the next token.
func (p *timeParser) ordinalDay(i int) (int, int, bool) {
	t := p.tok(i)
	if t.low == "twenty" || t.low == "thirty" {
		base := map[string]int{"twenty": 20, "thirty": 30}[t.low]
		k := i + 1
		if p.tok(k).text == "-" {
			k++
		}
		if d, ok := dayOrdinals[p.tok(k).low]; ok && d < 10 {
			return base + d, k + 1, true
		}
		return 0, i, false
	}
	d, ok := dayOrdinals[t.low]
	return d, i + 1, ok
}

// weekdayDate reads a date written after its weekday ("Monday 5 January
// 1970", "Monday the fifth of January 1970", "Monday 11/05/1970"). The
// weekday must agree with the date; it also settles a slashed date whose
// day and month could be swapped. A weekday alone is not a date.
func (p *timeParser) weekdayDate(i int, wd time.Weekday) (when, bool, error) {
	if w, ok, err := p.weekdayPair(i, wd); ok {
		return w, ok, err
	}
	k := i + 1
	if p.tok(k).text == "," {
		k++
	}
	if p.tok(k).kind == tSlash {
		return p.slashByWeekday(i, k, wd)
	}
	if p.tok(k).low == "week" && k == i+1 {
		// "Tuesday week": the Tuesday after next, counted from a day the
		// question must write.
		return p.weekdayWeek(i, k, wd)
	}
	w, ok, err := p.core(k)
	if !ok && err == nil {
		if w, ok, err := p.anchoredDay(i, k, wd); ok {
			return w, ok, err
		}
		return p.theWeekday(i, wd)
	}
	if !ok || err != nil {
		return w, ok, err
	}
	if w.prec != PrecDay && w.prec != PrecInstant {
		return when{}, false, nil
	}
	day := time.UnixMicro(w.start).UTC()
	if day.Weekday() != wd {
		return when{i: i, j: w.j}, true, &dateErr{p.span(i, w.j), fmt.Sprintf("%s is a %s, not a %s", day.Format("2 January 2006"), day.Weekday(), wd)}
	}
	w.i, w.text = i, p.span(i, w.j)
	return w, true, nil
}

// slashByWeekday reads "Monday 11/05/1970": of the two readings of the
// slashed date, the one that falls on the weekday.
func (p *timeParser) slashByWeekday(i, k int, wd time.Weekday) (when, bool, error) {
	parts := strings.Split(p.tok(k).low, "/")
	if len(parts) != 3 || len(parts[2]) != 4 && len(parts[2]) != 2 || len(parts[0]) > 2 {
		return p.core(k)
	}
	a, _ := strconv.Atoi(parts[0])
	b, _ := strconv.Atoi(parts[1])
	y, _ := strconv.Atoi(parts[2])
	if len(parts[2]) == 2 {
		// "Mon 8/5/13": the year of that century in the store's extent.
		var ok bool
		if y, ok = p.centuryOf(y); !ok {
			return when{i: i, j: k + 1}, true, &dateErr{p.span(i, k+1), "which century? write the year with four digits"}
		}
	}
	var fit []int64
	for _, md := range [][2]int{{a, b}, {b, a}} {
		if validDay(y, md[0], md[1]) && time.Date(y, time.Month(md[0]), md[1], 0, 0, 0, 0, time.UTC).Weekday() == wd {
			if t := utc(y, md[0], md[1]); len(fit) == 0 || fit[0] != t {
				fit = append(fit, t)
			}
		}
	}
	if len(fit) != 1 {
		var days []string
		for _, md := range [][2]int{{b, a}, {a, b}} {
			if validDay(y, md[1], md[0]) {
				t := time.Date(y, time.Month(md[1]), md[0], 0, 0, 0, 0, time.UTC)
				days = append(days, fmt.Sprintf("%s is a %s", dayMonthText(md[0], md[1], y), t.Weekday()))
			}
		}
		what := "none of the readings of %s fall"
		if len(fit) > 1 {
			what = "both readings of %s fall"
		}
		return when{i: i, j: k + 1}, true, &dateErr{p.span(i, k+1), fmt.Sprintf(what+" on a %s (%s)", p.tok(k).text, wd, strings.Join(days, ", "))}
	}
	w, ok, err := p.withClock(i, fit[0], k+1)
	return w, ok, err
}

// rangeConn reports whether the token at k joins the two ends of a range;
// it returns the index after the connective.
func (p *timeParser) rangeConn(k int) (int, bool) {
	switch t := p.tok(k); {
	case t.low == "to" || t.low == "until" || t.low == "till" || t.low == "through" || t.low == "thru" || t.low == "and" ||
		t.text == "-" || t.text == "–" || t.text == "..":
		k++
	case t.low == "up" && p.tok(k+1).low == "to":
		k += 2
	default:
		return k, false
	}
	if p.tok(k).low == "and" && p.tok(k+1).low == "including" {
		k += 2
	}
	return k, true
}

// laterEnd reads the second end of a range that starts just before j
// and returns its written year and month: "5 to 11 January 1970" gives
// the 5th its month and year.
func (p *timeParser) laterEnd(j int) (int, int, bool) {
	k, ok := p.rangeConn(j)
	if !ok {
		return 0, 0, false
	}
	w, ok, err := p.core(k)
	if !ok || err != nil || w.inferred != "" || w.prec == PrecYear || w.prec == PrecQuarter {
		return 0, 0, false
	}
	t := time.UnixMicro(w.start).UTC()
	return t.Year(), int(t.Month()), true
}

// compactDay reads a bare day that begins or ends a compact range: "5"
// in "5 to 11 January 1970" (month and year from the end), "7" in "June
// 1-7" and "9" in "May 3–9, 2004" (month from the start, year written
// after or inferred).
func (p *timeParser) compactDay(i, d, j int) (when, bool, error) {
	if y, m, ok := p.laterEnd(j); ok {
		if !validDay(y, m, d) {
			return when{i: i, j: j}, true, &dateErr{p.span(i, j), "no such day"}
		}
		if w, ok, err := p.twoDays(i, utc(y, m, d), j); ok {
			return w, ok, err
		}
		w, ok, err := p.withClock(i, utc(y, m, d), j)
		w.compact = true
		return w, ok, err
	}
	// The end of "June 1-7": a month and a day just before the connective.
	c := i - 1
	if p.tok(c).text != "-" && p.tok(c).text != "–" && p.tok(c).low != "to" && p.tok(c).low != "through" && p.tok(c).low != "and" {
		return when{}, false, nil
	}
	k := c - 1
	if isOrdSuffix(p.tok(k)) {
		k--
	}
	if _, ok := dayNum(p.tok(k)); !ok {
		return when{}, false, nil
	}
	m, ok := p.month(k - 1)
	if !ok {
		return when{}, false, nil
	}
	e := j
	y, hasY := 0, false
	if p.tok(e).text == "," {
		e++
	}
	if yy, ok := isYear(p.tok(e)); ok {
		y, hasY, j = yy, true, e+1
	}
	how := ""
	if !hasY {
		var err error
		y, how, err = p.inferYear(func(y int) (int64, int64) { return utc(y, m, d), utc(y, m, d) + usDay })
		if err != nil {
			return when{i: i, j: j}, true, &dateErr{p.span(i, j), err.Error()}
		}
	}
	if !validDay(y, m, d) {
		return when{i: i, j: j}, true, &dateErr{p.span(i, j), "no such day"}
	}
	return when{start: utc(y, m, d), end: utc(y, m, d) + usDay, prec: PrecDay, i: i, j: j, text: p.span(i, j), inferred: how, compact: true}, true, nil
}

// yearAfterDayRange is the year written after the end day of "May 3–9,
// 2004": j is the token after the start day.
func (p *timeParser) yearAfterDayRange(j int) (int, bool) {
	k, ok := p.rangeConn(j)
	if !ok {
		return 0, false
	}
	if _, ok := dayNum(p.tok(k)); !ok {
		return 0, false
	}
	k++
	if isOrdSuffix(p.tok(k)) {
		k++
	}
	if p.tok(k).text == "," {
		k++
	}
	return isYear(p.tok(k))
}

// monthSlashYear reads "3/2013", a month and a year.
func (p *timeParser) monthSlashYear(i int) (when, bool) {
	m, err := strconv.Atoi(p.tok(i).low)
	if err != nil || m < 1 || m > 12 || p.tok(i+1).text != "/" {
		return when{}, false
	}
	y, ok := isYear(p.tok(i + 2))
	if !ok {
		return when{}, false
	}
	return when{start: utc(y, m, 1), end: utc(y, m+1, 1), prec: PrecMonth, i: i, j: i + 3, text: p.span(i, i+3)}, true
}

// shortYear reads "'12" after a month: the year of that century that lies
// in the store's extent, refused when none or both do.
func (p *timeParser) shortYear(j int) (int, int, bool, error) {
	if a := p.tok(j).text; a != "'" && a != "’" {
		return 0, j, false, nil
	}
	n := p.tok(j + 1)
	if n.kind != tNum || len(n.low) != 2 {
		return 0, j, false, nil
	}
	yy, _ := strconv.Atoi(n.low)
	y, ok := p.centuryOf(yy)
	if !ok {
		return 0, j + 2, true, fmt.Errorf("which century? write the year with four digits")
	}
	return y, j + 2, true, nil
}

// standaloneYear reports whether a four-digit number at i stands as a
// year: it opens the question or a clause ("2011: when …", "…, 2012"),
// or closes one, and no noun it could count follows.
func (p *timeParser) standaloneYear(i int) bool {
	prev, next := p.tok(i-1), p.tok(i+1)
	open := i == 0 || prev.kind == tPunct && prev.text != "(" && prev.text != "/"
	closes := next.kind == tPunct && next.text != "/" && next.text != "%" || i == len(p.toks)-1
	return open && (closes || next.kind == tWord && unitUS[next.low] == 0 && !isNodeNoun(next.low) && concept(next.low) != cEvent)
}

// half reads "H1 2012", "H2 2011" and "the first/second half of 1971".
func (p *timeParser) half(i int) (when, bool, error) {
	t := p.tok(i)
	n, j := 0, i+1
	switch {
	case t.low == "h1" || t.low == "h2":
		n = int(t.low[1] - '0')
	case (t.low == "first" || t.low == "second") && p.tok(i+1).low == "half" && p.tok(i+2).low == "of":
		n, j = map[string]int{"first": 1, "second": 2}[t.low], i+3
	default:
		return when{}, false, nil
	}
	y, ok := isYear(p.tok(j))
	if !ok {
		return when{i: i, j: j}, true, &dateErr{p.span(i, j), "which year? write the half as H1 2012"}
	}
	m := 1 + 6*(n-1)
	return when{start: utc(y, m, 1), end: utc(y, m+6, 1), prec: PrecQuarter, i: i, j: j + 1, text: p.span(i, j+1)}, true, nil
}

var clockWords = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12}

// wordClock reads a time of day in words: "eight o'clock", "ten past
// eight", "a quarter past eight", "half past nine", "a quarter to
// nine", each optionally "in the morning/afternoon/evening", and an hour
// with its part of the day ("eight in the morning", "five in the
// afternoon"). It returns the hour, the minute and the next token.
func (p *timeParser) wordClock(i int) (int, int, int, bool) {
	h, m, j, _, ok := p.wordClockPart(i)
	return h, m, j, ok
}

// wordClockPart is wordClock that also says whether a part of the day
// was written with the hour.
func (p *timeParser) wordClockPart(i int) (int, int, int, bool, bool) {
	hourAt := func(k int) (int, bool) {
		t := p.tok(k)
		if h, ok := clockWords[t.low]; ok {
			return h, true
		}
		if t.kind == tNum {
			if h, err := strconv.Atoi(t.low); err == nil && h >= 1 && h <= 12 && len(t.low) <= 2 {
				return h, true
			}
		}
		return 0, false
	}
	var h, m, j int
	k := i
	if p.tok(k).low == "a" && p.tok(k+1).low == "quarter" {
		k++
	}
	mins := map[string]int{"quarter": 15, "half": 30, "five": 5, "ten": 10, "twenty": 20, "twenty-five": 25}
	part, pj, ofDate := "", 0, false
	if mm, ok := mins[p.tok(k).low]; ok && (p.tok(k+1).low == "past" || p.tok(k+1).low == "to") {
		hh, ok := hourAt(k + 2)
		if !ok {
			return 0, 0, i, false, false
		}
		h, m, j = hh, mm, k+3
		if p.tok(k+1).low == "to" {
			h, m = hh-1, 60-mm
			if h == 0 {
				h = 12
			}
		}
	} else if hh, ok := hourAt(i); ok && p.tok(i+1).low == "o'clock" {
		h, j = hh, i+2
	} else if hh, ok := hourAt(i); ok {
		// "eight in the morning": an hour needs its part of the day.
		if part, _, _ = p.partOfDay(i + 1); part == "" {
			return 0, 0, i, false, false
		}
		h, j = hh, i+1
	} else {
		return 0, 0, i, false, false
	}
	// A part of the day right after the time; "on the evening of D" is
	// read with the date (clockFirst).
	if part, pj, ofDate = p.partOfDay(j); part != "" && !ofDate {
		h2, err := withPart(h, true, part)
		if err != nil {
			return 0, 0, i, false, false
		}
		return h2 % 24, m, pj, true, true
	}
	return h % 24, m, j, false, true
}

// Orders of a slashed date's day and month.
const (
	orderUnknown = iota
	dayFirst
	monthFirst
)

// slashOrder is the order in which this question writes slashed dates,
// settled by one whose day exceeds 12 ("26/08/1970" is day first), by a
// weekday written with one, or by a belief date with one possible
// reading (lateOrderOf): a writer keeps one convention within a
// question. It is unknown when no slashed date settles it; conflict
// names the two that settle it differently. by says what settled it.
func (p *timeParser) slashOrder() (order int, by, conflict string) {
	order = orderUnknown
	for k, t := range p.toks {
		if t.kind != tSlash {
			continue
		}
		parts := strings.Split(t.low, "/")
		if len(parts) != 3 || len(parts[0]) > 2 {
			continue
		}
		a, _ := strconv.Atoi(parts[0])
		b, _ := strconv.Atoi(parts[1])
		o, why := orderUnknown, t.text+" is written"
		switch {
		case a > 12 && a <= 31 && b <= 12:
			o = dayFirst
		case b > 12 && b <= 31 && a <= 12:
			o = monthFirst
		default:
			o, why = p.orderByWeekday(k, parts), "the weekday written with "+t.text+" says"
			if o == orderUnknown {
				o, why = p.lateOrderOf(parts), t.text+" can only be a belief time, in one order"
			}
		}
		switch {
		case o == orderUnknown:
		case order == orderUnknown:
			order, by = o, why
		case order != o:
			return orderUnknown, "", fmt.Sprintf("the question writes slashed dates in both orders (%s, but %s)", orderText(order, by), orderText(o, why))
		}
	}
	return order, by, ""
}

// orderText says an order and what settled it.
func orderText(o int, by string) string {
	if o == dayFirst {
		return "day first as " + by
	}
	return "month first as " + by
}

// centuryOf is the one year ending in yy (0–99) that overlaps the store's
// extent; ok is false when none or both centuries do.
func (p *timeParser) centuryOf(yy int) (int, bool) {
	var fit []int
	for _, y := range []int{1900 + yy, 2000 + yy} {
		if utc(y, 1, 1) < p.hi && utc(y+1, 1, 1) > p.lo {
			fit = append(fit, y)
		}
	}
	if len(fit) != 1 {
		return 0, false
	}
	return fit[0], true
}

// orderByWeekday is the order a weekday written before the slashed date
// at k settles ("Monday 11/05/1970"): the one order that falls on it.
func (p *timeParser) orderByWeekday(k int, parts []string) int {
	w := k - 1
	if p.tok(w).text == "," {
		w--
	}
	wd, ok := weekdays[p.tok(w).low]
	if !ok || p.tok(w).kind != tWord {
		// "the week of 11/05/1970 (Monday to Friday)": the days named
		// must start on the week's first day.
		if wd, ok = p.weekOfFirstDay(k); !ok {
			return orderUnknown
		}
	}
	a, _ := strconv.Atoi(parts[0])
	b, _ := strconv.Atoi(parts[1])
	y, _ := strconv.Atoi(parts[2])
	if len(parts[2]) == 2 {
		if y, ok = p.centuryOf(y); !ok {
			return orderUnknown
		}
	} else if len(parts[2]) != 4 {
		return orderUnknown
	}
	on := func(m, d int) bool {
		return validDay(y, m, d) && time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Weekday() == wd
	}
	switch dm, md := on(b, a), on(a, b); {
	case a == b:
		return orderUnknown
	case dm && !md:
		return dayFirst
	case md && !dm:
		return monthFirst
	}
	return orderUnknown
}

// weekOf reads "first week of June 2004": days 1–7 (second: 8–14, …;
// last: the month's last seven days).
func (p *timeParser) weekOf(i, n int) (when, bool, error) {
	j := i + 2
	if p.tok(j).low != "of" {
		return when{}, false, nil
	}
	mw, ok, err := p.core(j + 1)
	if !ok || err != nil {
		return mw, ok, err
	}
	if mw.prec != PrecMonth {
		return when{i: i, j: mw.j}, true, &dateErr{p.span(i, mw.j), "a week of a month needs a month, e.g. the first week of June 2004"}
	}
	s := mw.start + int64(n-1)*usWeek
	if n < 0 {
		s = mw.end - usWeek
	}
	if s+usWeek > mw.end {
		return when{i: i, j: mw.j}, true, &dateErr{p.span(i, mw.j), "that month has no such week"}
	}
	return when{start: s, end: s + usWeek, prec: PrecWeek, i: i, j: mw.j, text: p.span(i, mw.j), inferred: mw.inferred}, true, nil
}

func (p *timeParser) isoWeek(i, y, n, j int) (when, bool, error) {
	// ISO week 1 holds January 4th; weeks start on Monday.
	jan4 := time.Date(y, 1, 4, 0, 0, 0, 0, time.UTC)
	monday := jan4.AddDate(0, 0, -((int(jan4.Weekday()) + 6) % 7))
	s := monday.AddDate(0, 0, 7*(n-1))
	if n < 1 || n > 53 || (n == 53 && s.AddDate(0, 0, 3).Year() != y) {
		return when{i: i, j: j}, true, &dateErr{p.span(i, j), fmt.Sprintf("%d has no ISO week %d", y, n)}
	}
	return when{start: s.UnixMicro(), end: s.UnixMicro() + usWeek, prec: PrecWeek, i: i, j: j, text: p.span(i, j)}, true, nil
}

func (p *timeParser) quarter(i, y, q, j int) (when, bool, error) {
	return when{start: utc(y, 3*q-2, 1), end: utc(y, 3*q+1, 1), prec: PrecQuarter, i: i, j: j, text: p.span(i, j)}, true, nil
}

// inferYear picks the only year whose period overlaps the store's
// valid-time extent.
func (p *timeParser) inferYear(period func(y int) (int64, int64)) (int, string, error) {
	if p.hi <= p.lo {
		return 0, "", fmt.Errorf("which year? the store holds no events to infer it from")
	}
	if r := p.restated; r[1] > r[0] {
		a, b := time.UnixMicro(r[0]).UTC().Year(), time.UnixMicro(r[1]-1).UTC().Year()
		if s, e := period(a); a == b && s < r[1] && e > r[0] {
			return a, fmt.Sprintf("year %d: that of the window it restates", a), nil
		}
	}
	y0 := time.UnixMicro(p.lo).UTC().Year()
	y1 := time.UnixMicro(p.hi - 1).UTC().Year()
	var fit []int
	for y := y0; y <= y1 && y-y0 < 400; y++ {
		s, e := period(y)
		if s < p.hi && e > p.lo {
			fit = append(fit, y)
		}
	}
	// The one year the question writes, when the store's extent has it: a
	// year outside the extent is a belief time's, not the window's.
	if y, ok := p.writtenYear(); ok && len(fit) > 1 && slices.Contains(fit, y) {
		return y, fmt.Sprintf("year %d: the only year the question writes", y), nil
	}
	switch len(fit) {
	case 1:
		return fit[0], fmt.Sprintf("year %d: the only one in the store's extent", fit[0]), nil
	case 0:
		return 0, "", fmt.Errorf("which year? no year of the store's extent (%d–%d) has it", y0, y1)
	}
	return 0, "", fmt.Errorf("which year? the store's extent has %d of them (%d–%d); add the year", len(fit), fit[0], fit[len(fit)-1])
}

// writtenYear is the one year the question writes, in any of its times
// ("of 2011", "2004-05-03", "Q3 2004", "3/24/2013"): a date written
// without a year beside it ("buckets from Jan 1", "counted from the first
// of January") is in that year. A question that writes two years, a year
// only as two digits, or a belief time, fills in none this way.
func (p *timeParser) writtenYear() (int, bool) {
	year := 0
	for _, t := range p.toks {
		if t.kind == tWord && (beliefWords[t.low] || beliefCue[t.low]) {
			return 0, false // a year written there may be a belief time's
		}
		if t.kind == tWord || t.kind == tPunct {
			continue
		}
		txt := t.text
		runs := digitRuns(txt)
		if t.kind == tSlash && len(runs) == 3 && len(runs[0]) != 4 && len(runs[2]) != 4 {
			return 0, false // "8/5/13": a two-digit year
		}
		for _, g := range runs {
			if len(g) != 4 {
				continue
			}
			y, _ := strconv.Atoi(g)
			if y < 1000 || y > 2999 {
				continue
			}
			if year != 0 && year != y {
				return 0, false
			}
			year = y
		}
	}
	return year, year != 0
}

// beliefCue are words, besides beliefWords, that may lead in a belief
// time ("as the archive stood at T", "before the correction at T").
var beliefCue = map[string]bool{"stood": true, "stands": true, "correction": true, "corrections": true, "corrected": true,
	"batch": true, "batches": true, "believe": true, "believes": true}

// digitRuns are the maximal runs of ASCII digits in s.
func digitRuns(s string) []string {
	var out []string
	start := -1
	for k := 0; k <= len(s); k++ {
		if k < len(s) && s[k] >= '0' && s[k] <= '9' {
			if start < 0 {
				start = k
			}
			continue
		}
		if start >= 0 {
			out = append(out, s[start:k])
			start = -1
		}
	}
	return out
}

// weekOfFirstDay is the first weekday of a range written right after
// "the week of D" at k ("the week of 11/05/1970 (Monday to Friday)"),
// which the week's first day, D, must be.
func (p *timeParser) weekOfFirstDay(k int) (time.Weekday, bool) {
	if p.tok(k-1).low != "of" || p.tok(k-2).low != "week" || p.tok(k+1).text != "(" {
		return 0, false
	}
	wd, ok := weekdays[p.tok(k+2).low]
	if !ok || p.tok(k+2).kind != tWord {
		return 0, false
	}
	switch p.tok(k + 3).low {
	case "to", "through", "thru", "until", "till", "-", "–":
	default:
		return 0, false
	}
	if _, ok := weekdays[p.tok(k+4).low]; !ok {
		return 0, false
	}
	return wd, true
}
