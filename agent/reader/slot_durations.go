package reader

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Durations and small counts: "3 days", "an hour", "10-day buckets",
// "top 5", "10 buckets of history".

var unitUS = map[string]int64{
	"µs": 1, "μs": 1, "us": 1, "microsecond": 1, "microseconds": 1,
	"ms": 1000, "millisecond": 1000, "milliseconds": 1000,
	"s": usSecond, "sec": usSecond, "secs": usSecond, "second": usSecond, "seconds": usSecond,
	"min": usMinute, "mins": usMinute, "minute": usMinute, "minutes": usMinute,
	"h": usHour, "hr": usHour, "hrs": usHour, "hour": usHour, "hours": usHour,
	"d": usDay, "day": usDay, "days": usDay,
	"wk": usWeek, "wks": usWeek, "week": usWeek, "weeks": usWeek,
}

var numberWords = map[string]int64{"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
	"sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
	"fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}

// numberWordAt reads a cardinal written in words at i: "five", "sixty",
// and a tens word joined by a hyphen to a unit word ("thirty-six"). It
// returns the value and the index after it, or 0 and i.
func (x *extractor) numberWordAt(i int) (int64, int) {
	t := x.tok(i)
	n := numberWords[t.low]
	if t.kind != tWord || n == 0 {
		return 0, i
	}
	if n >= 20 && n%10 == 0 && x.tok(i+1).text == "-" {
		if u := x.tok(i + 2); u.kind == tWord && numberWords[u.low] >= 1 && numberWords[u.low] <= 9 && u.low != "a" && u.low != "an" {
			return n + numberWords[u.low], i + 3
		}
	}
	return n, i + 1
}

// inclusiveAt reads a marker after a range's end that includes the end's
// whole period: "inclusive", ", inclusive", "(inclusive)", "both
// included", "both days included", "(both dates inclusive)". It returns
// the index after the marker, or j when there is none.
func (x *extractor) inclusiveAt(j int) int {
	k, paren := j, false
	switch x.tok(k).text {
	case ",":
		k++
	case "(":
		k, paren = k+1, true
	}
	switch l := x.tok(k).low; {
	case l == "inclusive" || l == "inclusively":
		k++
	case l == "both":
		k++
		switch x.tok(k).low {
		case "days", "dates", "ends", "endpoints", "bounds":
			k++
		}
		if l := x.tok(k).low; l != "included" && l != "inclusive" {
			return j
		}
		k++
	default:
		return j
	}
	if paren {
		if x.tok(k).text != ")" {
			return j
		}
		k++
	}
	return k
}

var adverbDur = map[string]int64{"hourly": usHour, "daily": usDay, "weekly": usWeek}

var bucketWords = map[string]bool{"bucket": true, "buckets": true, "bin": true, "bins": true, "slice": true, "slices": true,
	"chunk": true, "chunks": true, "period": true, "periods": true, "stretch": true, "window": true, "windows": true,
	"interval": true, "intervals": true, "burst": true, "bursts": true, "spell": true, "steps": true, "step": true}

// exactMicros reads "1.5" × unit exactly; ok is false when the product is
// not a whole number of microseconds.
func exactMicros(num string, unit int64) (int64, bool) {
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return 0, false
	}
	r.Mul(r, new(big.Rat).SetInt64(unit))
	if !r.IsInt() || !r.Num().IsInt64() || r.Num().Int64() <= 0 {
		return 0, false
	}
	return r.Num().Int64(), true
}

// durAt reads a duration at i: "3 days", "10-day", "1.5 hours", "an hour",
// "90 min", "weekly", "day-long", each optionally followed by "(N µs)".
func (x *extractor) durAt(i int) (durSlot, int, error) {
	t := x.tok(i)
	if us, ok := adverbDur[t.low]; ok {
		return durSlot{us: us, written: t.text, role: "bucket", i: i}, i + 1, nil
	}
	var num string
	j := i + 1
	switch {
	case t.kind == tNum:
		num = t.low
	case numberWords[t.low] > 0 && t.kind == tWord:
		var n int64
		n, j = x.numberWordAt(i)
		num = strconv.FormatInt(n, 10)
	case t.low == "quarter" && x.tok(i+1).low == "of" && x.tok(i+2).low == "an" && x.tok(i+3).low == "hour":
		// "a quarter of an hour": fifteen minutes.
		return durSlot{us: 15 * usMinute, written: x.span(i, i+4), i: i}, i + 4, nil
	case t.low == "the" && x.tok(i-1).low == "within" && (x.tok(i+1).low == "hour" || x.tok(i+1).low == "minute"):
		// "closed within the hour": within one hour. ("within the day"
		// or "the month" may name a calendar period: not read.)
		return durSlot{us: unitUS[x.tok(i+1).low], written: x.span(i, i+2), i: i}, i + 2, nil
	case t.low == "half" && (x.tok(i+1).low == "a" || x.tok(i+1).low == "an") && x.tok(i+2).kind == tWord && unitUS[x.tok(i+2).low] >= usMinute:
		// "half an hour", "half a day": half of one unit, exactly.
		u := unitUS[x.tok(i+2).low]
		if s := x.tok(i + 2).low; strings.HasSuffix(s, "s") && s != "s" || u%2 != 0 {
			return durSlot{}, i, nil
		}
		return durSlot{us: u / 2, written: x.span(i, i+3), i: i}, i + 3, nil
	default:
		// "day-long", "hour-long"
		if u, ok := unitUS[t.low]; ok && u >= usHour && x.tok(i+1).text == "-" && x.tok(i+2).low == "long" {
			return durSlot{us: u, written: x.span(i, i+3), role: "bucket", i: i}, i + 3, nil
		}
		return durSlot{}, i, nil
	}
	if x.tok(j).text == "-" {
		j++
	}
	unit, ok := unitUS[x.tok(j).low]
	if !ok || x.tok(j).kind != tWord {
		return durSlot{}, i, nil
	}
	if num == "1" && t.kind == tWord && t.low != "one" && j == i+1 && unit < usHour && x.tok(j).low != "minute" && x.tok(j).low != "second" {
		return durSlot{}, i, nil
	}
	j++
	written := x.span(i, j)
	us, exact := exactMicros(num, unit)
	// "(371520000000 µs)" beside a rounded figure pins the exact value.
	if x.tok(j).text == "(" && x.tok(j+1).kind == tNum && x.tok(j+3).text == ")" {
		if u := x.tok(j + 2).low; u == "µs" || u == "μs" || u == "us" {
			v, err := strconv.ParseInt(x.tok(j+1).low, 10, 64)
			f, _ := strconv.ParseFloat(num, 64)
			shown := float64(v) / float64(unit)
			dec := 0
			if k := strings.IndexByte(num, '.'); k >= 0 {
				dec = len(num) - k - 1
			}
			if err != nil || v <= 0 || math.Abs(shown-f) > 0.5*math.Pow10(-dec)+1e-12 {
				return durSlot{}, j + 4, fmt.Errorf("the duration %q and its microseconds %s disagree", written, x.tok(j+1).low)
			}
			written = x.span(i, j+4)
			return durSlot{us: v, written: written, i: i}, j + 4, nil
		}
	}
	if !exact {
		return durSlot{}, j, fmt.Errorf("the duration %q is not a whole number of microseconds; write it in a smaller unit", written)
	}
	if strings.HasSuffix(x.tok(j).low, "long") && x.tok(j-1).text == "-" {
		j++
	}
	return durSlot{us: us, written: written, i: i}, j, nil
}

// count reads a small count at i: "5" or "five".
func (x *extractor) count(i int) (int64, bool) {
	t := x.tok(i)
	if t.kind == tNum {
		n, err := strconv.ParseInt(t.low, 10, 64)
		return n, err == nil && n >= 1 && n <= 1000
	}
	if n := numberWords[t.low]; n > 1 || t.low == "one" {
		return n, true
	}
	return 0, false
}

// historyAt reads "10 buckets of history", "previous 10 buckets",
// "a 10-bucket history", "history of 10 buckets".
func (x *extractor) historyAt(i int) (int64, int, bool) {
	n, ok := x.count(i)
	if !ok {
		return 0, i, false
	}
	j := i + 1
	if x.tok(j).text == "-" {
		j++
	}
	if l := x.tok(j).low; l != "bucket" && l != "buckets" {
		return 0, i, false
	}
	j++
	switch {
	case x.tok(j).low == "of" && x.tok(j+1).low == "history":
		return n, j + 2, true
	case x.tok(j).low == "history":
		return n, j + 1, true
	case x.tok(i-1).low == "previous" || x.tok(i-1).low == "preceding" || x.tok(i-1).low == "prior" || x.tok(i-1).low == "last":
		x.toks[i-1].used = true
		return n, j, true
	}
	return 0, i, false
}

// durRole says whether a duration sizes buckets or bounds a motif/gap.
func (x *extractor) durRole(d durSlot, i, j int) string {
	if d.role != "" {
		return d.role
	}
	next := x.tok(j).low
	if bucketWords[next] || (x.tok(j).text == "-" && bucketWords[x.tok(j+1).low]) {
		return "bucket"
	}
	for k := i - 1; k >= 0 && k >= i-3; k-- {
		switch x.tok(k).low {
		case "buckets", "bucket", "bins", "slices", "chunks", "per", "each", "every", "steps", "stride":
			return "bucket"
		case "within", "δ", "delta", "most", "apart", "gap", "span", "spanning", "than", "inside":
			return "delta"
		}
	}
	return ""
}
