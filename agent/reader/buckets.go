package reader

import (
	"strings"
	"time"
)

// Busiest-bucket and burst wordings: which periods a question ranks and
// how it names its buckets.

// ranksPeriods reports whether the question ranks periods: it asks for
// the busiest, the peak or the most.
func (x *extractor) ranksPeriods() bool {
	return x.has(cPeak) || x.has(cMost)
}

// calendarUnitText names each calendar unit of a bucket.
var calendarUnitText = map[string]string{"day": "day", "week": "week (ISO, Monday to Sunday)", "month": "month", "year": "year"}

// askedPeriod reports whether p, right before a period word, asks for
// one period ("which day", "the busiest week", "the most active hour").
func askedPeriod(p string) bool {
	switch p {
	case "which", "what", "busiest", "peak", "single", "heaviest", "active":
		return true
	}
	return false
}

// calendarBucketAt reads a calendar bucket at i: "calendar" before a
// period word ("which calendar day", "the busiest calendar week", "ISO
// week": Monday to Sunday), or a month or year asked for as the busiest
// ("which month", "the busiest year"), which have no fixed width and so
// are the calendar's. A day or week written without "calendar" is a
// fixed width counted from the window start (the slot pass reads it); a
// "calendar hour" is the clock's hour, which is the fixed hour only
// when the window starts on the hour (fill checks it).
func (x *extractor) calendarBucketAt(i int) (durSlot, bool) {
	t := x.toks[i]
	if t.kind != tWord {
		return durSlot{}, false
	}
	unit, k := t.low, i
	switch unit {
	case "hour", "day", "week", "month", "year":
		p, pk := x.prevWord(i)
		if p == "calendar" || p == "iso" && unit == "week" {
			k = pk
			// "the ISO calendar week": ISO weeks are the calendar's.
			if q, qk := x.prevWord(pk); q == "iso" && unit == "week" {
				k = qk
			}
			if q, _ := x.prevWord(k); !askedPeriod(q) {
				return durSlot{}, false
			}
		} else if unit == "hour" || unit == "day" || unit == "week" || !askedPeriod(p) {
			return durSlot{}, false
		}
	default:
		return durSlot{}, false
	}
	u := map[string]int64{"hour": usHour, "day": usDay, "week": usWeek, "month": 31 * usDay, "year": 366 * usDay}[unit]
	x.use(k, i+1)
	return durSlot{us: u, written: x.span(k, i+1), role: "bucket", i: k, j: i + 1, unit: unit}, true
}

// clockHours reads a calendar hour as fixed hours: the same buckets when
// the window starts on the hour, and refused otherwise.
func clockHours(d *durSlot, w *Window) string {
	if d.unit != "hour" {
		return ""
	}
	d.unit = ""
	if w == nil || w.Start%usHour != 0 {
		return "the window does not start on the hour, so hours counted from it are not the clock's"
	}
	return ""
}

// calendarBusiest groups the window's events by calendar unit at UTC
// and takes the bucket with the most events.
func calendarBusiest(r *Reading, b *builder) {
	s1 := b.add("aggregate_events", b.asOf(map[string]any{"window": b.window(), "limit": rowLimit,
		"group_by":   []any{map[string]any{"dim": "time_bucket", "unit": r.Options["calendar_unit"], "utc_offset_minutes": int64(0)}},
		"aggregates": countAgg()}))
	k, row := rankK(r, 1)
	s2 := b.add("compute", map[string]any{"fn": "topk", "input": ref(s1 + ".rows"), "field": "count", "k": k})
	b.answer("interval", s2+"."+row)
}

// unitByUnit reads "day by day", "hour by hour" and "by the day", "by
// the week" as buckets of that unit: the unit is the step the counting
// takes. "by the day after D" (a deadline) is no bucket: "by the unit"
// must end its clause or stand before a window's preposition.
func (x *extractor) unitByUnit(i int) (durSlot, int, bool) {
	t := x.tok(i)
	var unit string
	var j int
	switch {
	case t.low == "by" && x.tok(i+1).low == "the":
		unit, j = x.tok(i+2).low, i+3
	case x.tok(i+1).low == "by" && x.tok(i+2).low == t.low:
		unit, j = t.low, i+3
	default:
		return durSlot{}, i, false
	}
	u, ok := map[string]int64{"hour": usHour, "day": usDay, "week": usWeek}[unit]
	if !ok {
		return durSlot{}, i, false
	}
	if n := x.tok(j); j < len(x.toks) && !(n.kind == tPunct && n.text != "(" || validPreps[n.low] || n.low == "in" || n.low == "on" || n.low == "for" || n.low == "across") {
		return durSlot{}, i, false
	}
	return durSlot{us: u, written: x.span(i, j), role: "bucket", i: i}, j, true
}

// oneMonth refuses "which month" written without "calendar" unless the
// question writes a window inside one calendar year: there the month of
// the year and the calendar month are the same months; over more (or
// over the whole store, whatever it spans) it could be either.
func (x *extractor) oneMonth(r *Reading) string {
	if r.Options["calendar_unit"] != "month" || strings.ToLower(r.Bucket.Written) != "month" {
		return ""
	}
	if len(x.s.times) > 0 && r.Window != nil {
		a, b := time.UnixMicro(r.Window.Start).UTC(), time.UnixMicro(r.Window.End-1).UTC()
		if a.Year() == b.Year() {
			return ""
		}
	}
	return "the month of the year across the window, or one calendar month? write \"which month of the year\" or \"which calendar month\""
}

// nodeBurstIntents are the burst questions about one node's own
// activity: the events it sends or receives, bucketed and tested like
// the whole graph's.
var nodeBurstIntents = []*intent{
	{name: "node-burst-count", example: "How many bursts did {x}'s activity have in {D} buckets {W}?",
		need: []string{cBurst, cHowMany}, allow: []string{cEvent, cBucket, cSend, cReceive, cEither, cAround, cOwnEvents}, nodes: 1, window: true, bucket: true, belief: true,
		summary: func(r *Reading) string { return "the number of buckets flagged as " + nodeBurstText(r) },
		build: func(r *Reading, b *builder) {
			s := b.add("burst_detection", nodeBurstArgs(r, b))
			b.answer("count", s+".rows_total")
		}},
	{name: "node-first-burst", example: "When did {x}'s activity first burst in {D} buckets {W}?",
		need: []string{cBurst, cFirst}, allow: []string{cWhen, cWhich, cFirst, cEvent, cBucket, cTimeNoun, cSend, cReceive, cEither, cAround, cOwnEvents}, nodes: 1, window: true, bucket: true, belief: true,
		summary: func(r *Reading) string { return "the first bucket flagged as " + nodeBurstText(r) },
		build: func(r *Reading, b *builder) {
			s := b.add("burst_detection", nodeBurstArgs(r, b))
			b.answer("interval", s+".rows[0]")
		}},
}

func init() { intents = append(intents, nodeBurstIntents...) }

func nodeBurstText(r *Reading) string {
	return "bursts of " + nodeText(r, "node") + "'s activity (events it sends or receives)" + strings.TrimPrefix(burstText(r), "bursts of the edge event rate")
}

func nodeBurstArgs(r *Reading, b *builder) map[string]any {
	args := burstArgs(r, b)
	args["target"] = map[string]any{"kind": "node_activity", "uid": b.node("node")}
	return args
}

// nodeBurstOptions refuses one direction: a node's activity is what it
// sends and what it receives together.
func (x *extractor) nodeBurstOptions() string {
	if x.has(cSend) != x.has(cReceive) {
		return "a node's bursts count the events it sends and receives together; ask about its activity, sent and received"
	}
	return ""
}

// possessivePeriod reports a period written in the possessive ("March
// 2013's pairs"): what follows is the period's, so the period is the
// window, whatever preposition stands before it.
func (x *extractor) possessivePeriod(t timeSlot) bool {
	last := x.tok(t.w.j - 1)
	return last.poss || strings.HasSuffix(last.text, "'s") || strings.HasSuffix(last.text, "’s")
}

// burstVerb reads a verb of arriving right after a burst noun ("when
// did the first burst hit", "the spike arrived") as the burst happening:
// its subject is the burst, so nothing reaches a node.
func (x *extractor) burstVerb(out map[string]int) {
	b, ok1 := out[cBurst]
	r, ok2 := out[cReach]
	if ok1 && ok2 && r == b+1 && x.toks[r].kind == tWord {
		delete(out, cReach)
	}
}

// stepBuckets reads the step buckets at i ("day by day", "by the hour"),
// or steps over a number before them ("1970 day by day" is no duration
// of 1970 days). It returns the index after what it read.
func (x *extractor) stepBuckets(i int) (int, bool) {
	if d, j, ok := x.unitByUnit(i); ok {
		d.j = j
		x.s.durs = append(x.s.durs, d)
		x.use(i, j)
		return j, true
	}
	if _, _, ok := x.unitByUnit(i + 1); ok && x.tok(i+1).low != "by" {
		return i + 1, true
	}
	return i, false
}

// calendarBucket records the calendar bucket at i, if there is one.
func (x *extractor) calendarBucket(i int) bool {
	d, ok := x.calendarBucketAt(i)
	if ok {
		x.s.durs = append(x.s.durs, d)
	}
	return ok
}

// cOwnEvents marks "looking only at n5's own traffic": the events the
// node sends or receives, which is what a node's activity is.
const cOwnEvents = "own-events"

// onlyOwn reads "only" confining a question to a node's own events
// ("looking only at n5's own traffic", "considering only n5's own
// messages"). Only a node's burst questions accept it: their series is
// that node's events, sent and received. Elsewhere it is refused, as
// "only" is.
func (x *extractor) onlyOwn(i int) {
	if x.toks[i].used {
		return
	}
	a := i
	if p := x.tok(i - 1).low; p == "looking" || p == "considering" || p == "counting" || p == "taking" {
		a = i - 1
	} else if !x.clauseStart(i) {
		return
	}
	k := i + 1
	if x.tok(k).low == "at" {
		k++
	}
	if !x.nodeAt(k) || !x.tok(k).poss && !strings.HasSuffix(x.tok(k).text, "'s") && !strings.HasSuffix(x.tok(k).text, "’s") {
		return
	}
	if x.tok(k+1).low != "own" || concept(x.tok(k+2).low) != cEvent {
		return
	}
	x.use(a, k)
	x.use(k+1, k+2)
	x.mark(cOwnEvents, i)
	x.s.ignored = append(x.s.ignored, x.span(a, k), x.toks[k+1].text)
}
