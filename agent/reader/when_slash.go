package reader

import (
	"fmt"
	"strconv"
)

// beliefOrder settles a slashed date a/b/y read as a belief time: a
// reading whose whole day is before the store's first transaction is a
// belief of nothing, so the other reading is meant when it is a day the
// store could believe something at.
func (p *timeParser) beliefOrder(a, b, y int) int {
	if !p.asBelief || p.firstTT <= 0 {
		return orderUnknown
	}
	possible := func(m, d int) bool { return validDay(y, m, d) && utc(y, m, d)+usDay > p.firstTT }
	switch dm, md := possible(b, a), possible(a, b); {
	case dm && !md:
		return dayFirst
	case md && !dm:
		return monthFirst
	}
	return orderUnknown
}

// lateOrder settles a slashed date a/b/y written where no belief phrase
// leads it in, when both its readings are after every valid time of the
// store: such a date can only be read as a belief time (a question of no
// valid time asking what the store believed then), and as one, a
// reading before the store's first transaction believes nothing. The
// caller records the date, which must end up read as the belief time.
func (p *timeParser) lateOrder(a, b, y int) int {
	if p.asBelief || p.firstTT <= 0 || p.hi <= p.lo {
		return orderUnknown
	}
	late := func(m, d int) bool { return !validDay(y, m, d) || utc(y, m, d) >= p.hi }
	if !late(b, a) || !late(a, b) {
		return orderUnknown
	}
	p.asBelief = true
	defer func() { p.asBelief = false }()
	return p.beliefOrder(a, b, y)
}

// fill fills an intent's reading (fillReading), and refuses it when a
// slashed date that lateOrder settled is read as a valid time, which is
// not the time its order was settled for.
func (x *extractor) fill(in *intent, text string) (*Reading, string) {
	x.ttConverted = -1
	r, why := x.fillReading(in, text)
	if r != nil && x.sinceLatest != "" && x.ttConverted >= 0 {
		return nil, fmt.Sprintf("the question reads the store as it was at %s, but %q asks for what was written after that", FormatTime(x.ttConverted), x.sinceLatest)
	}
	if r != nil && x.originMidnight != "" && !midnightAligned(r) {
		return nil, fmt.Sprintf("%q: buckets counted from midnight are not those counted from the window's start here; write the window from that midnight", x.originMidnight)
	}
	if r == nil || len(x.ttOnly) == 0 {
		return r, why
	}
	for _, ts := range x.s.times {
		for _, k := range x.ttOnly {
			if k >= ts.w.i && k < ts.w.j && ts.w.start != x.ttConverted {
				return nil, fmt.Sprintf("%q is read day or month first only as a belief time, but this question reads it as a valid time; write it as YYYY-MM-DD", ts.w.text)
			}
		}
	}
	return r, why
}

// lateOrderOf is lateOrder of a slashed date's parts (day or month, day
// or month, a four-digit year): the order a belief date written in the
// question settles for its other slashed dates, as a field over 12 does.
func (p *timeParser) lateOrderOf(parts []string) int {
	if len(parts) != 3 || len(parts[2]) != 4 {
		return orderUnknown
	}
	a, err1 := strconv.Atoi(parts[0])
	b, err2 := strconv.Atoi(parts[1])
	y, err3 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil || err3 != nil || a == b {
		return orderUnknown
	}
	saved := p.asBelief
	p.asBelief = false
	defer func() { p.asBelief = saved }()
	return p.lateOrder(a, b, y)
}

// ambiguousSlash reads the slashed date a/b/y at token i whose day and
// month could be swapped: in the order the question's other slashed
// dates settle (slashOrder), else as a belief time in the one order the
// store's first transaction allows (beliefOrder, lateOrder). A date
// after every valid time read outside a belief phrase is recorded in
// ttOnly, since it must end up read as the belief time; one whose order
// the question settles otherwise than the store's first transaction does
// is refused, as are two slashed dates settled in different orders.
func (p *timeParser) ambiguousSlash(i, a, b, y int) (d, m int, how string, err error) {
	order, by, conflict := p.slashOrder()
	if conflict != "" {
		return 0, 0, "", fmt.Errorf("%s; write the dates as YYYY-MM-DD", conflict)
	}
	tt, late := p.beliefOrder(a, b, y), false
	if tt == orderUnknown {
		if tt = p.lateOrder(a, b, y); tt != orderUnknown {
			late = true
			p.ttOnly = append(p.ttOnly, i)
		}
	}
	if tt != orderUnknown && order != orderUnknown && tt != order {
		return 0, 0, "", fmt.Errorf("the question writes its slashed dates %s, as %s, but then %s is before the store's first transaction",
			map[int]string{dayFirst: "day first", monthFirst: "month first"}[order], by, p.toks[i].text)
	}
	if tt != orderUnknown {
		asTT := "as a belief time, "
		if late {
			asTT = "after every valid time of the store it can only be a belief time, and as one "
		}
		if tt == dayFirst {
			return a, b, "day first: " + asTT + dayMonthText(b, a, y) + " is before the store's first transaction", nil
		}
		return b, a, "month first: " + asTT + dayMonthText(a, b, y) + " is before the store's first transaction", nil
	}
	switch order {
	case dayFirst:
		return a, b, "day first, as " + by, nil
	case monthFirst:
		return b, a, "month first, as " + by, nil
	}
	return 0, 0, "", fmt.Errorf("it could be %s or %s; write it as %04d-%02d-%02d or %04d-%02d-%02d",
		dayMonthText(a, b, y), dayMonthText(b, a, y), y, b, a, y, a, b)
}
