package reader

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// bucketStarts reads a parenthesis listing where buckets of whole days
// start, "(so blocks starting on the 1st, the 8th, the 15th and so on)":
// days of the month of the buckets' origin (the time after "from"), which
// must be the origin's day and then one bucket apart. It restates the
// buckets and is ignored and listed; a list that disagrees names both.
func (x *extractor) bucketStarts() error {
	for open := range x.toks {
		if x.tok(open).text != "(" || x.tok(open).used {
			continue
		}
		k := open + 1
		if l := x.tok(k).low; l == "so" || l == "i.e" || l == "ie" {
			k++
		}
		if !(concept(x.tok(k).low) == cBucket || x.tok(k).low == "weeks") || !startVerbs[x.tok(k+1).low] || x.tok(k+2).low != "on" {
			continue
		}
		k += 3
		var days []int
		for {
			if x.tok(k).low == "the" {
				k++
			}
			d, err := strconv.Atoi(x.tok(k).low)
			if err != nil || x.tok(k).kind != tNum || !isOrdSuffix(x.tok(k+1)) {
				break
			}
			days = append(days, d)
			k += 2
			if x.tok(k).text == "," {
				k++
			}
		}
		if x.tok(k).low == "and" && x.tok(k+1).low == "so" && x.tok(k+2).low == "on" {
			k += 3
		} else if x.tok(k).low == "etc" {
			k++
		}
		if len(days) < 2 || x.tok(k).text != ")" {
			continue
		}
		width, origin, ok := x.dayBucketOrigin()
		if !ok {
			return &Refusal{Problem: fmt.Sprintf("%q lists where buckets start, but the question writes no bucket of whole days counted from a day", x.span(open, k+1)), Missing: []string{"bucket"}}
		}
		at := time.UnixMicro(origin).UTC()
		for n, d := range days {
			want := at.AddDate(0, 0, n*width)
			if want.Month() != at.Month() || want.Day() != d {
				var ws []string
				for m := range days {
					ws = append(ws, strconv.Itoa(at.AddDate(0, 0, m*width).Day()))
				}
				return &Refusal{Problem: fmt.Sprintf("%q lists bucket starts that disagree with %d-day buckets from %s (days %s)", x.span(open, k+1), width, at.Format("2 January 2006"), strings.Join(ws, ", ")), Missing: []string{"bucket"}}
			}
		}
		x.ignore(open, k+1)
	}
	return nil
}

// dayBucketOrigin is the width in days of the question's one bucket of
// whole days and the day its buckets are counted from (the one time
// written after "from"); ok is false unless there is exactly one of each.
func (x *extractor) dayBucketOrigin() (width int, origin int64, ok bool) {
	var ws []int64
	for _, d := range x.s.durs {
		if d.role != "delta" && d.us > 0 {
			ws = append(ws, d.us)
		}
	}
	var os []int64
	for _, ts := range x.s.times {
		if ts.prep == "from" && ts.w.prec == PrecDay {
			os = append(os, ts.w.start)
		}
	}
	if len(ws) != 1 || len(os) != 1 || ws[0]%usDay != 0 {
		return 0, 0, false
	}
	return int(ws[0] / usDay), os[0], true
}
