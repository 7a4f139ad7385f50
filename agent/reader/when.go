package reader

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Precision of a written time: an instant, or the calendar period it
// names.
const (
	PrecInstant = "instant"
	PrecDay     = "day"
	PrecWeek    = "week"
	PrecMonth   = "month"
	PrecQuarter = "quarter"
	PrecYear    = "year"
)

const (
	usSecond = int64(1_000_000)
	usMinute = 60 * usSecond
	usHour   = 60 * usMinute
	usDay    = 24 * usHour
	usWeek   = 7 * usDay
)

// when is one time expression: the period [start, end) it names (an
// instant is [t, t+1)), how precise it was, and its tokens [i, j).
type when struct {
	start, end int64
	prec       string
	text       string
	inferred   string // how a missing year was filled in, "" if none
	compact    bool   // a day of a compact range ("5 to 11 May"): its month came from the other end
	boundary   bool   // "the end of P" ending a range: the instant P ends, not a period
	zoned      bool   // written at an offset from UTC other than 0 ("3 May 2004 (UTC+2)")
	i, j       int
}

// dateErr is an unreadable time expression.
type dateErr struct{ text, why string }

func (e *dateErr) Error() string {
	if e.why == "" {
		return fmt.Sprintf("I could not read the date %q", e.text)
	}
	return fmt.Sprintf("I could not read the date %q: %s", e.text, e.why)
}

var monthNames = map[string]int{
	"january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
	"may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
	"september": 9, "sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}

var ordinals = map[string]int{"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1,
	"1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5}

// zoneWords are time-zone names the reader will not guess offsets for.
var zoneWords = map[string]bool{"est": true, "edt": true, "cst": true, "cdt": true, "mst": true, "mdt": true, "pst": true, "pdt": true,
	"cet": true, "cest": true, "bst": true, "ist": true, "jst": true, "eet": true, "eest": true, "aest": true, "hkt": true, "msk": true}

// yearPreps are the words after which a bare four-digit number is a year.
var yearPreps = map[string]bool{"in": true, "during": true, "throughout": true, "over": true, "for": true, "since": true, "until": true,
	"till": true, "from": true, "to": true, "through": true, "thru": true, "between": true, "and": true, "of": true, "before": true,
	"after": true, "by": true, "year": true, "whole": true, "all": true, "calendar": true, "within": true, "across": true, "on": true}

// yearAttention are verbs that direct attention to a period: a year
// right after one is the period looked at ("taking 2004 week by week"),
// unless a unit follows it ("taking 2000 ms" is a duration; "2004 day by
// day" is not).
var yearAttention = map[string]bool{"taking": true, "considering": true}

// yearDividers are verbs that divide a period: a year after one and
// before "into" is the period divided ("split 2004 into weeks").
var yearDividers = map[string]bool{"carve": true, "divide": true, "split": true, "cut": true, "break": true, "chop": true, "slice": true}

// timeParser reads time expressions out of a token list; the store's
// valid-time extent [lo, hi) fills in a missing year when exactly one fits.
type timeParser struct {
	toks   []*token
	lo, hi int64
	// restated is the period of a time just before an opening
	// parenthesis, while inside it: a month written there without a year
	// takes the year that period lies in ("the first half of 1971
	// (January until June)").
	restated [2]int64
	// anchoring is set while looking back for the date a relative day
	// ("the Tuesday") is read against, so that the look does not recurse.
	anchoring bool
	// lengths and midnights are restatements written beside a window
	// ("(seven days)", "(midnight both)"), checked once it is known.
	lengths   []restatedLength
	midnights []string
	overs     []restatedOver
	// firstTT is the store's first transaction time (0 if unknown), and
	// asBelief is set while a belief time is read: a slashed date whose
	// one reading is before firstTT is read in the other.
	firstTT  int64
	asBelief bool
	// ttOnly are the tokens of slashed dates settled by lateOrder: read
	// as a valid time they would be refused.
	ttOnly []int
	// ttConverted is the instant a reading took as its belief time for
	// being after every valid time (-1 when none).
	ttConverted int64
	// sinceLatest is a written restatement of the latest belief
	// ("including anything recovered since"), "" if none.
	sinceLatest string
	// originMidnight is a bucket origin written as a bare midnight
	// ("hourly buckets from midnight"), "" if none.
	originMidnight string
	// sceneNeg is one more than the token of a scene's time that the
	// question negates by its place ("not … at the first"), 0 if none.
	sceneNeg int
	// dayDated holds the days that times of day written after them took
	// their date from ("on 3 May between 17:00 and 18:00").
	dayDated map[int64]bool
}

func (p *timeParser) tok(i int) *token {
	if i < 0 || i >= len(p.toks) {
		return &token{kind: tPunct}
	}
	return p.toks[i]
}

func (p *timeParser) span(i, j int) string {
	var b strings.Builder
	for k := max(i, 0); k < j && k < len(p.toks); k++ {
		t := p.toks[k].text
		if k > i && t != "-" && t != "," && t != ")" && p.toks[k-1].text != "-" && p.toks[k-1].text != "(" {
			b.WriteByte(' ')
		}
		b.WriteString(t)
	}
	return b.String()
}

func utc(y, m, d int) int64 { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).UnixMicro() }

func validDay(y, m, d int) bool {
	return m >= 1 && m <= 12 && d >= 1 && time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Day() == d
}

func isYear(t *token) (int, bool) {
	if t.kind != tNum || len(t.low) != 4 {
		return 0, false
	}
	y, err := strconv.Atoi(t.low)
	return y, err == nil && y >= 1900 && y <= 2200
}

func dayNum(t *token) (int, bool) {
	if t.kind != tNum || len(t.low) > 2 {
		return 0, false
	}
	d, err := strconv.Atoi(t.low)
	return d, err == nil && d >= 1 && d <= 31
}

func isOrdSuffix(t *token) bool {
	switch t.low {
	case "st", "nd", "rd", "th":
		return true
	}
	return false
}

// month reads a month name at i; "May" needs a date-like neighbour, since
// "may" is also a verb.
func (p *timeParser) month(i int) (int, bool) {
	t := p.tok(i)
	if t.kind != tWord {
		return 0, false
	}
	m, ok := monthNames[t.low]
	if !ok {
		return 0, false
	}
	if t.low == "may" || t.low == "mar" || t.low == "march" {
		next, prev := p.tok(i+1), p.tok(i-1)
		_, yr := isYear(next)
		_, dn := dayNum(next)
		// "1 May and 1 June": a day before it, and no verb after it.
		_, dayBefore := dayNum(prev)
		dayBefore = (dayBefore || isOrdSuffix(prev)) && (next.kind == tPunct || i+1 >= len(p.toks) || next.low == "and" || next.low == "to" || next.low == "through" || next.low == "until")
		if !yr && !dn && !dayBefore && !yearPreps[prev.low] && prev.low != "early" && prev.low != "late" && prev.low != "mid" && prev.low != "the" {
			return 0, false
		}
	}
	return m, true
}

// at reads a time expression starting at token i. ok is false when there
// is none; err is set when there is one that cannot be read.
func (p *timeParser) at(i int) (w when, ok bool, err error) {
	w, ok, err = p.core(i)
	if !ok || err != nil {
		return w, ok, err
	}
	// "3 May 2004 (UTC+2)": a period in a zone with a numeric offset.
	if w.prec != PrecInstant {
		off, j, zok, zerr := p.periodZone(w.j)
		named := false
		if !zok {
			off, j, zok, zerr = p.namedZone(w.j, w.start, w.end)
			named = zok && zerr == nil
		}
		if named {
			how := "at " + zoneText(off/usMinute) + ", the zone's offset on those days"
			if w.inferred != "" {
				how = w.inferred + "; " + how
			}
			w.inferred = how
		}
		if zok {
			text := p.span(w.i, j)
			if zerr != nil {
				return w, true, &dateErr{text, zerr.Error()}
			}
			w.start, w.end, w.j, w.text, w.zoned = w.start-off, w.end-off, j, text, off != 0
		}
	}
	// A parenthesised microsecond value pins the exact instant.
	if p.tok(w.j).text == "(" && p.tok(w.j+2).text == ")" && p.tok(w.j+1).kind == tNum {
		us, perr := strconv.ParseInt(p.tok(w.j+1).low, 10, 64)
		if perr == nil && len(p.tok(w.j+1).low) >= 10 {
			text := p.span(w.i, w.j+3)
			if us < w.start || us >= w.end {
				return w, true, &dateErr{text, fmt.Sprintf("the written date and the microseconds %d disagree", us)}
			}
			w.start, w.end, w.prec, w.j, w.text = us, us+1, PrecInstant, w.j+3, text
		}
	}
	return w, true, nil
}

func (p *timeParser) core(i int) (when, bool, error) {
	t := p.tok(i)
	mk := func(s, e int64, prec string, j int) (when, bool, error) {
		return when{start: s, end: e, prec: prec, i: i, j: j, text: p.span(i, j)}, true, nil
	}
	bad := func(j int, why string) (when, bool, error) {
		return when{i: i, j: j}, true, &dateErr{p.span(i, j), why}
	}
	switch t.kind {
	case tNum:
		// Raw microseconds since the epoch.
		if u := p.tok(i + 1).low; !strings.Contains(t.low, ".") && (u == "µs" || u == "μs" || u == "us" || u == "microseconds" || u == "microsecond") {
			v, err := strconv.ParseInt(t.low, 10, 64)
			if err != nil {
				return bad(i+2, "not an integer number of microseconds")
			}
			return mk(v, v+1, PrecInstant, i+2)
		}
		// "1375810590000000 (µs)": the unit in parentheses.
		if u := p.tok(i + 2).low; p.tok(i+1).text == "(" && p.tok(i+3).text == ")" && (u == "µs" || u == "μs" || u == "us") && len(t.low) >= 10 && !strings.Contains(t.low, ".") {
			v, err := strconv.ParseInt(t.low, 10, 64)
			if err != nil {
				return bad(i+4, "not an integer number of microseconds")
			}
			return mk(v, v+1, PrecInstant, i+4)
		}
		// "unix time 1386860976": seconds since the epoch, said so.
		if (p.tok(i-1).low == "time" || p.tok(i-1).low == "timestamp" || p.tok(i-1).low == "seconds") && p.tok(i-2).low == "unix" && len(t.low) >= 9 && len(t.low) <= 11 && !strings.Contains(t.low, ".") {
			v, err := strconv.ParseInt(t.low, 10, 64)
			if err == nil {
				w := when{start: v * usSecond, end: v*usSecond + usSecond, prec: PrecInstant, i: i - 2, j: i + 1, text: p.span(i-2, i+1)}
				return w, true, nil
			}
		}
		if len(t.low) >= 13 && !strings.Contains(t.low, ".") {
			v, err := strconv.ParseInt(t.low, 10, 64)
			if err != nil {
				return bad(i+1, "too large for microseconds since the epoch")
			}
			return mk(v, v+1, PrecInstant, i+1)
		}
		if y, ok := isYear(t); ok {
			if q := p.tok(i + 1); q.kind == tQuarter && len(q.low) == 2 {
				return p.quarter(i, y, int(q.low[1]-'0'), i+2)
			}
			if yearPreps[p.tok(i-1).low] || yearAttention[p.tok(i-1).low] && (unitUS[p.tok(i+1).low] == 0 || p.tok(i+2).low == "by") ||
				yearDividers[p.tok(i-1).low] && p.tok(i+1).low == "into" || p.tok(i+1).text == ".." || p.tok(i-1).text == ".." || p.standaloneYear(i) {
				return mk(utc(y, 1, 1), utc(y+1, 1, 1), PrecYear, i+1)
			}
			return when{}, false, nil
		}
		if d, ok := dayNum(t); ok {
			j := i + 1
			if isOrdSuffix(p.tok(j)) {
				j++
			}
			if p.tok(j).low == "of" {
				j++
			}
			if m, ok := p.month(j); ok {
				return p.dayMonthYear(i, d, m, j+1)
			}
			if w, ok, err := p.compactDay(i, d, j); ok {
				return w, ok, err
			}
			if w, ok, err := p.restatedDay(i, d, j); ok {
				return w, ok, err
			}
		}
		if w, ok := p.monthSlashYear(i); ok {
			return w, true, nil
		}
		if w, ok, err := p.monthDay(i); ok {
			return w, ok, err
		}
		if p.isClock(i) {
			return p.clockFirst(i)
		}
	case tISO:
		return p.iso(i)
	case tSlash:
		parts := strings.Split(t.low, "/")
		a, _ := strconv.Atoi(parts[0])
		b, _ := strconv.Atoi(parts[1])
		c, _ := strconv.Atoi(parts[2])
		var y, m, d int
		how := ""
		switch {
		case len(parts[0]) == 4:
			y, m, d = a, b, c
		case len(parts[2]) == 4 || len(parts[2]) == 2 && len(parts[0]) <= 2:
			y = c
			if len(parts[2]) == 2 {
				// "3/24/13": the year of that century in the store's extent.
				var ok bool
				if y, ok = p.centuryOf(c); !ok {
					return bad(i+1, "which century? write the year with four digits")
				}
			}
			switch {
			case a > 12 && b <= 12:
				d, m = a, b
			case b > 12 && a <= 12:
				m, d = a, b
			case a == b:
				m, d = a, b
			default:
				var serr error
				if d, m, how, serr = p.ambiguousSlash(i, a, b, y); serr != nil {
					return bad(i+1, serr.Error())
				}
			}
		default:
			return bad(i+1, "write the year with four digits")
		}
		if !validDay(y, m, d) {
			return bad(i+1, "no such day")
		}
		w, ok, err := p.withClock(i, utc(y, m, d), i+1)
		if how != "" && err == nil {
			w.inferred = how
		}
		return w, ok, err
	case tClock:
		return p.clockFirst(i)
	case tWeek:
		parts := strings.SplitN(t.low, "-w", 2)
		y, _ := strconv.Atoi(parts[0])
		n, _ := strconv.Atoi(parts[1])
		return p.isoWeek(i, y, n, i+1)
	case tQuarter:
		if len(t.low) == 7 {
			y, _ := strconv.Atoi(t.low[:4])
			return p.quarter(i, y, int(t.low[6]-'0'), i+1)
		}
		j := i + 1
		if p.tok(j).low == "of" || p.tok(j).text == "," {
			j++
		}
		if y, ok := isYear(p.tok(j)); ok {
			return p.quarter(i, y, int(t.low[1]-'0'), j+1)
		}
		return bad(i+1, "which year? write the quarter as Q3 2004")
	case tWord:
		if t.low == "the" {
			w, ok, err := p.core(i + 1)
			if ok {
				w.i = i
				w.text = p.span(i, w.j)
			}
			return w, ok, err
		}
		if t.low == "noon" || t.low == "midnight" || t.low == "midday" {
			return p.clockFirst(i)
		}
		if _, _, _, ok := p.wordClock(i); ok {
			return p.clockFirst(i)
		}
		if wd, ok := weekdays[t.low]; ok {
			return p.weekdayDate(i, wd)
		}
		if w, ok, err := p.half(i); ok {
			return w, ok, err
		}
		if w, ok, err := p.partOf(i); ok {
			return w, ok, err
		}
		if w, ok, err := p.boundary(i); ok {
			return w, ok, err
		}
		if m, ok := p.month(i); ok {
			return p.monthFirst(i, m)
		}
		if n, ok := ordinals[t.low]; ok {
			switch p.tok(i + 1).low {
			case "week":
				return p.weekOf(i, n)
			case "quarter":
				j := i + 2
				if p.tok(j).low == "of" {
					j++
				}
				y, ok := isYear(p.tok(j))
				if !ok || n < 1 || n > 4 {
					return bad(j+1, "write the quarter as Q3 2004")
				}
				return p.quarter(i, y, n, j+1)
			}
		}
		if d, j, ok := p.ordinalDay(i); ok {
			if p.tok(j).low == "of" {
				j++
			}
			if m, ok := p.month(j); ok {
				return p.dayMonthYear(i, d, m, j+1)
			}
			if w, ok, err := p.compactDay(i, d, j); ok {
				return w, ok, err
			}
		}
		if t.low == "week" {
			if w, ok, err := p.weekFrom(i); ok {
				return w, ok, err
			}
			if p.tok(i+1).low == "of" {
				// "the week of May 3, 2004": seven days from that day.
				w, ok, err := p.core(i + 2)
				if !ok || err != nil || w.prec != PrecDay {
					return when{}, false, err
				}
				if w.compact {
					// "the week of 5 to 11 May": the range says which days.
					w.i, w.text = i, p.span(i, w.j)
					return w, true, nil
				}
				// "the week of 11/05 to 15/05": a range of days inside that week.
				if k, isConn := p.rangeConn(w.j); isConn && p.tok(w.j).low != "and" {
					if e, ok2, err2 := p.core(k); ok2 && err2 == nil && e.prec == PrecDay && e.start > w.start && e.start < w.start+usWeek {
						w.i, w.text, w.compact = i, p.span(i, w.j), true
						return w, true, nil
					}
				}
				wk, ok, err := mk(w.start, w.start+usWeek, PrecWeek, w.j)
				wk.inferred = w.inferred
				return wk, ok, err
			}
			if n, ok := dayNum(p.tok(i + 1)); ok || p.tok(i+1).kind == tNum {
				if !ok {
					n, _ = strconv.Atoi(p.tok(i + 1).low)
				}
				j := i + 2
				if p.tok(j).low == "of" || p.tok(j).text == "," {
					j++
				}
				if y, ok := isYear(p.tok(j)); ok {
					return p.isoWeek(i, y, n, j+1)
				}
			}
		}
	}
	return when{}, false, nil
}

func dayMonthText(d, m, y int) string {
	if m < 1 || m > 12 {
		return "?"
	}
	return fmt.Sprintf("%d %s %d", d, time.Month(m), y)
}

func (p *timeParser) isClock(i int) bool {
	t := p.tok(i)
	if t.kind == tClock || t.low == "noon" || t.low == "midnight" || t.low == "midday" {
		return true
	}
	if _, _, _, ok := p.wordClock(i); ok {
		return true
	}
	if t.kind == tNum {
		if n, err := strconv.Atoi(t.low); err == nil && n >= 1 && n <= 12 {
			a := p.tok(i + 1).low
			return a == "am" || a == "pm" || a == "a.m" || a == "p.m"
		}
	}
	return false
}

// clock reads a time of day at i with its zone: the offset from midnight
// UTC (µs; the zone's offset already applied), the precision span and the
// next token.
func (p *timeParser) clock(i int) (off, width int64, j int, err error) {
	t := p.tok(i)
	j = i + 1
	var h, m int
	var sec float64
	width = usMinute
	wh, wm, wj, wok := p.wordClock(i)
	switch {
	case wok:
		h, m, j = wh, wm, wj
	case t.low == "noon" || t.low == "midday":
		h = 12
	case t.low == "midnight":
		h = 0
	case t.kind == tNum:
		h, _ = strconv.Atoi(t.low)
	default:
		c := t.low
		zone := ""
		if k := strings.IndexAny(c, "z+-"); k > 0 {
			c, zone = c[:k], c[k:]
		}
		parts := strings.Split(c, ":")
		h, _ = strconv.Atoi(parts[0])
		m, _ = strconv.Atoi(parts[1])
		if len(parts) == 3 {
			sec, _ = strconv.ParseFloat(parts[2], 64)
			width = usSecond
			if strings.Contains(parts[2], ".") {
				width = 1
			}
		}
		if zone != "" && zone != "z" {
			zo, zerr := parseOffset(zone)
			if zerr != nil {
				return 0, 0, j, zerr
			}
			off -= zo
		}
	}
	if a := strings.ReplaceAll(p.tok(j).low, ".", ""); a == "am" || a == "pm" {
		if h < 1 || h > 12 {
			return 0, 0, j, fmt.Errorf("%d %s is not a time of day", h, a)
		}
		if a == "pm" && h != 12 {
			h += 12
		}
		if a == "am" && h == 12 {
			h = 0
		}
		j++
	}
	if h > 23 || m > 59 || sec >= 60 {
		return 0, 0, j, fmt.Errorf("no such time of day")
	}
	off += int64(h)*usHour + int64(m)*usMinute + int64(sec*1e6+0.5)
	zoff, j, err := p.zone(j)
	return off - zoff, width, j, err
}

// withClock reads an optional "[at] 15:30 [UTC]" after a day starting at
// day0 (tokens up to j).
func (p *timeParser) withClock(i int, day0 int64, j int) (when, bool, error) {
	k := j
	if p.tok(k).low == "at" || p.tok(k).text == "," && p.isClock(k+1) {
		k++
	}
	if p.isClock(k) {
		off, width, k2, err := p.clock(k)
		w := when{start: day0 + off, end: day0 + off + width, prec: PrecInstant, i: i, j: k2, text: p.span(i, k2)}
		if err != nil {
			return w, true, &dateErr{w.text, err.Error()}
		}
		if p.halfDayOnly(k) {
			return w, true, p.halfDayErr(i, k2)
		}
		return w, true, nil
	}
	// "2004-05-03 UTC": a day in UTC.
	if l := p.tok(j).low; l == "utc" || l == "gmt" {
		j++
	} else if _, j2, _ := p.zone(j); j2 == j+3 {
		j = j2
	}
	return when{start: day0, end: day0 + usDay, prec: PrecDay, i: i, j: j, text: p.span(i, j)}, true, nil
}

// clockFirst reads "15:30 UTC on May 3, 2004" and "noon on 2004-05-03".
func (p *timeParser) clockFirst(i int) (when, bool, error) {
	off, width, j, err := p.clock(i)
	if err != nil {
		return when{i: i, j: j}, true, &dateErr{p.span(i, j), err.Error()}
	}
	halfDay := p.halfDayOnly(i)
	// "a quarter past eight on the evening of 1 December": the part of the
	// day is written with the date.
	if part, k, ofDate := p.partOfDay(j); part != "" && ofDate {
		halfDay = false
		h, twelve, had := p.writtenHour(i)
		if had {
			return when{i: i, j: k}, true, &dateErr{p.span(i, k), "the part of the day is written twice"}
		}
		h2, perr := withPart(h, twelve, part)
		if perr != nil {
			return when{i: i, j: k}, true, &dateErr{p.span(i, k), perr.Error()}
		}
		off += int64(h2-h) * usHour
		j = k - 1 // the date follows "of"
	}
	// "midnight at the end of the Friday": the instant that day ends.
	if p.tok(i).low == "midnight" && p.tok(j).low == "at" && p.tok(j+1).low == "the" && (p.tok(j+2).low == "end" || p.tok(j+2).low == "close") && p.tok(j+3).low == "of" {
		d, ok, derr := p.core(j + 4)
		if derr != nil {
			return d, true, derr
		}
		if !ok || d.prec == PrecInstant {
			return when{i: i, j: j}, true, &dateErr{p.span(i, j+4), "midnight at the end of which day?"}
		}
		return when{start: d.end + off, end: d.end + off + width, prec: PrecInstant, i: i, j: d.j, text: p.span(i, d.j), inferred: d.inferred}, true, nil
	}
	k := j
	if p.tok(k).low == "on" || p.tok(k).low == "of" || p.tok(k).text == "," {
		k++
	}
	d, ok, derr := p.core(k)
	if derr != nil {
		return d, true, derr
	}
	if !ok || d.prec != PrecDay {
		// "between eight o'clock and noon on 14 January": the date of the
		// range's end.
		if k2, isConn := p.rangeConn(j); isConn && p.isClock(k2) {
			w2, ok2, err2 := p.clockFirst(k2)
			if ok2 && err2 != nil {
				return w2, true, err2
			}
			if ok2 {
				off2, _, _, _ := p.clock(k2)
				day := w2.start - off2
				if halfDay {
					h, _, _ := p.writtenHour(i)
					var settled bool
					if off, settled = settleHalfDay(off, h, w2.start-day); !settled {
						return when{i: i, j: j}, true, p.halfDayErr(i, j)
					}
				}
				return when{start: day + off, end: day + off + width, prec: PrecInstant, i: i, j: j, text: p.span(i, j), inferred: w2.inferred}, true, nil
			}
		}
		if w, ok, err := p.clockLater(i, off, width, j, halfDay); ok {
			return w, ok, err
		}
		if d, ok := p.dayBefore(i); ok && !halfDay {
			return when{start: d.start + off, end: d.start + off + width, prec: PrecInstant, i: i, j: j, text: p.span(i, j),
				inferred: "on " + d.text + ", the day written before it"}, true, nil
		}
		return when{i: i, j: j}, true, &dateErr{p.span(i, j), "a time of day needs a date, e.g. 15:30 UTC on 2004-05-03"}
	}
	if halfDay {
		return when{i: i, j: d.j}, true, p.halfDayErr(i, j)
	}
	return when{start: d.start + off, end: d.start + off + width, prec: PrecInstant, i: i, j: d.j, text: p.span(i, d.j), inferred: d.inferred}, true, nil
}

func (p *timeParser) iso(i int) (when, bool, error) {
	s := p.tok(i).text
	if strings.ContainsAny(s, "Tt") {
		s = strings.Replace(strings.Replace(s, "t", "T", 1), "z", "Z", 1)
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00", "2006-01-02T15:04:05.999999999", "2006-01-02T15:04"} {
			if tm, err := time.Parse(layout, s); err == nil {
				st := tm.UnixMicro()
				zoff, j, zerr := p.zone(i + 1)
				w := when{start: st - zoff, end: st - zoff + 1, prec: PrecInstant, i: i, j: j, text: p.span(i, j)}
				if zerr != nil {
					return w, true, &dateErr{w.text, zerr.Error()}
				}
				return w, true, nil
			}
		}
		return when{i: i, j: i + 1}, true, &dateErr{s, "not an RFC 3339 time"}
	}
	parts := strings.Split(s, "-")
	y, _ := strconv.Atoi(parts[0])
	m, _ := strconv.Atoi(parts[1])
	d, _ := strconv.Atoi(parts[2])
	if !validDay(y, m, d) {
		return when{i: i, j: i + 1}, true, &dateErr{s, "no such day"}
	}
	return p.withClock(i, utc(y, m, d), i+1)
}

// monthFirst reads "May 3, 2004", "May 3rd 2004", "May 2004", "May".
func (p *timeParser) monthFirst(i, m int) (when, bool, error) {
	j := i + 1
	if d, ok := dayNum(p.tok(j)); ok {
		if _, isY := isYear(p.tok(j)); !isY {
			j++
			if isOrdSuffix(p.tok(j)) {
				j++
			}
			return p.dayMonthYear(i, d, m, j)
		}
	}
	if p.tok(j).text == "," || p.tok(j).low == "of" {
		if _, ok := isYear(p.tok(j + 1)); ok {
			j++
		}
	}
	if y, ok := isYear(p.tok(j)); ok {
		return when{start: utc(y, m, 1), end: utc(y, m+1, 1), prec: PrecMonth, i: i, j: j + 1, text: p.span(i, j+1)}, true, nil
	}
	if y, k, ok, err := p.shortYear(j); ok {
		if err != nil {
			return when{i: i, j: k}, true, &dateErr{p.span(i, k), err.Error()}
		}
		return when{start: utc(y, m, 1), end: utc(y, m+1, 1), prec: PrecMonth, i: i, j: k, text: p.span(i, k)}, true, nil
	}
	if y, _, ok := p.laterEnd(i + 1); ok {
		// "January to June 1970": a compact range of whole months.
		return when{start: utc(y, m, 1), end: utc(y, m+1, 1), prec: PrecMonth, i: i, j: i + 1, text: p.span(i, i+1), compact: true}, true, nil
	}
	if w, ok, err := p.monthList(i, m); ok {
		return w, ok, err
	}
	y, how, err := p.inferYear(func(y int) (int64, int64) { return utc(y, m, 1), utc(y, m+1, 1) })
	w := when{prec: PrecMonth, i: i, j: i + 1, text: p.span(i, i+1), inferred: how}
	if err != nil {
		return w, true, &dateErr{w.text, err.Error()}
	}
	w.start, w.end = utc(y, m, 1), utc(y, m+1, 1)
	// "(July–September)": a range of month names without a year names
	// whole months, the last one included.
	if k, isConn := p.rangeConn(i + 1); isConn && monthNames[p.tok(k).low] > 0 && p.tok(k).kind == tWord {
		w.compact = true
	}
	return w, true, nil
}

// dayMonthYear finishes a day-and-month date at j with an optional year
// and time of day.
func (p *timeParser) dayMonthYear(i, d, m, j int) (when, bool, error) {
	k := j
	if p.tok(k).text == "," {
		k++
	}
	y, ok := isYear(p.tok(k))
	how := ""
	if ok {
		j = k + 1
	} else if y2, k2, ok2, err := p.shortYear(j); ok2 {
		if err != nil {
			return when{i: i, j: k2}, true, &dateErr{p.span(i, k2), err.Error()}
		}
		y, j = y2, k2
	} else if y2, _, ok2 := p.laterEnd(j); ok2 {
		y = y2
	} else if y2, ok2 := p.yearAfterDayRange(j); ok2 {
		y = y2
	} else {
		var err error
		y, how, err = p.inferYear(func(y int) (int64, int64) { return utc(y, m, d), utc(y, m, d) + usDay })
		if err != nil {
			return when{i: i, j: j}, true, &dateErr{p.span(i, j), err.Error()}
		}
	}
	if !validDay(y, m, d) {
		return when{i: i, j: j}, true, &dateErr{p.span(i, j), "no such day"}
	}
	w, ok2, err := p.withClock(i, utc(y, m, d), j)
	w.inferred = how
	return w, ok2, err
}
