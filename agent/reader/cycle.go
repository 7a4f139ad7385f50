package reader

import (
	"fmt"
	"strings"
)

// Calendar cycles: "the hour of the day", "the day of the week" (or a
// weekday), "the month of the year". A question about the busiest
// position in a cycle groups events by that position across the window,
// at UTC, which is not the busiest single hour, day or month.

const (
	cCycleHour    = "cycle-hour"
	cCycleWeekday = "cycle-weekday"
	cCycleMonth   = "cycle-month"
)

// cycleAt reads a cycle phrase at i: "hour of (the) day", "time of day",
// "day of (the) week", "weekday", "month of (the) year". It returns the
// cycle's concept and the index after the phrase.
func (x *extractor) cycleAt(i int) (string, int) {
	t := x.tok(i)
	switch t.low {
	case "weekday":
		return cCycleWeekday, i + 1
	}
	of := map[string]map[string]string{
		"hour":  {"day": cCycleHour},
		"time":  {"day": cCycleHour},
		"day":   {"week": cCycleWeekday},
		"month": {"year": cCycleMonth},
	}[t.low]
	if of == nil || x.tok(i+1).low != "of" {
		return "", i
	}
	j := i + 2
	if x.tok(j).low == "the" {
		j++
	}
	if c, ok := of[x.tok(j).low]; ok {
		return c, j + 1
	}
	return "", i
}

// cycleField is the aggregate_events cycle and its row field for a cycle
// concept.
var cycleField = map[string][2]string{
	cCycleHour:    {"hour_of_day", "the hour of the day (0–23, %s)"},
	cCycleWeekday: {"day_of_week", "the day of the week (1 Monday … 7 Sunday, %s)"},
	cCycleMonth:   {"month_of_year", "the month of the year (1–12, %s)"},
}

func (x *extractor) cycle() string {
	for _, c := range []string{cCycleHour, cCycleWeekday, cCycleMonth} {
		if x.has(c) {
			return c
		}
	}
	return ""
}

var cycleIntent = &intent{name: "busiest-cycle", example: "At what hour of the day are the most messages sent {W}?",
	need:  []string{cCycleHour + "|" + cCycleWeekday + "|" + cCycleMonth, cPeak + "|" + cMost},
	allow: []string{cWhich, cWhen, cEvent, cSend, cTimeNoun, cCycleHour, cCycleWeekday, cCycleMonth}, window: true, belief: true,
	summary: func(r *Reading) string {
		return fmt.Sprintf(cycleField[r.Options["cycle"]][1], zoneText(parseInt(r.Options["utc_offset_minutes"]))) +
			" with the most events, counted over the window (ties by the row's canonical text)"
	},
	build: func(r *Reading, b *builder) {
		f := cycleField[r.Options["cycle"]][0]
		s := b.add("aggregate_events", b.asOf(map[string]any{"window": b.window(), "limit": rowLimit,
			"group_by":   []any{map[string]any{"dim": "calendar_cycle", "cycle": f, "utc_offset_minutes": parseInt(r.Options["utc_offset_minutes"])}},
			"aggregates": []any{map[string]any{"agg": "count"}}}))
		s2 := b.add("compute", map[string]any{"fn": "topk", "input": ref(s + ".rows"), "field": "count", "k": int64(1)})
		b.answer("value", s2+".rows[0]."+f)
	}}

func init() { intents = append(intents, cycleIntent) }

// zoneFits checks a written offset from UTC: it places the positions of
// a calendar cycle, with the whole store as the window (a window written
// in the question would be read in UTC, while its writer may mean the
// offset's calendar); any other question reads its times in UTC.
func (x *extractor) zoneFits(in *intent, r *Reading) string {
	z := x.s.zone
	if z == nil {
		// "which hour … in May 2004 (UTC+2)": the window is read at its
		// offset, but the cycle's positions would be counted in UTC.
		for _, t := range x.s.times {
			if in == cycleIntent && t.w.zoned {
				return fmt.Sprintf("the window %q is written at an offset from UTC, but the cycle would be counted in UTC; write the window in UTC and the cycle's offset after it (e.g. \"hour of the day at UTC+2\")", t.w.text)
			}
		}
		return ""
	}
	if in != cycleIntent {
		return fmt.Sprintf("%q: an offset from UTC is read only for the hour of the day, day of the week or month of the year; write the times in UTC", z.written)
	}
	if r.Window != nil && r.Window.Written != "" {
		return fmt.Sprintf("the window %q would be read in UTC, but the question counts in %s; write the window's ends in UTC (e.g. 2004-05-01T00:00Z) or ask over the whole store", r.Window.Written, zoneText(z.minutes))
	}
	return ""
}

// singleWords mark one particular bucket rather than a position of a
// cycle: "which single hour", "one particular hour", "the actual clock hour".
var singleWords = map[string]bool{"single": true, "particular": true, "specific": true, "given": true, "actual": true,
	"clock": true, "bucket": true, "buckets": true, "calendar": true}

// oneHour refuses a busiest-hour question whose hour is written alone
// ("at what hour are most messages sent?"): over more than a day it may
// mean the hour of the day across the window or one particular hour;
// only a word marking one bucket settles it for the bucket.
func (x *extractor) oneHour(r *Reading) string {
	if r.Bucket == nil || r.Bucket.Micros != usHour || strings.ToLower(r.Bucket.Written) != "hour" {
		return ""
	}
	// Within one day the hour of the day is one particular hour.
	if r.Window != nil && r.Window.End-r.Window.Start <= usDay {
		return ""
	}
	for _, t := range x.toks {
		if singleWords[t.low] {
			return ""
		}
	}
	return "the hour of the day across the window, or one particular hour? write \"which hour of the day\" or \"which single one-hour bucket\""
}

// negatesOnlyDates reports whether every negation in a cycle question
// sets a date aside ("a weekday name, not a date", "not one particular
// hour"): it restates that a position of the cycle is asked for.
func (x *extractor) negatesOnlyDates() bool {
	n := 0
	for k, t := range x.toks {
		if t.kind != tWord || concept(t.low) != cNot {
			continue
		}
		n++
		ok := false
		for j := k + 1; j <= k+4 && j < len(x.toks); j++ {
			l := x.toks[j].low
			if l == "date" || l == "dates" || singleWords[l] && l != "bucket" && l != "buckets" {
				ok = true
				break
			}
			if l != "a" && l != "an" && l != "the" && l != "one" && l != "any" && l != "mean" {
				break
			}
		}
		if !ok {
			return false
		}
	}
	return n > 0
}
