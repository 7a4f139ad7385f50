package reader

import (
	"fmt"
	"strings"
)

// Averages per period (doc.go): "the average number of messages per day
// in June 2004" is the mean of the window's per-day counts, every day
// counted, quiet days as zero: the total over the number of days. The
// series is the store's per-bucket event count, so the window must be a
// whole number of those periods; an average over some of them only
// ("per active day", "on days with mail") is refused.

const cAverage = "average"

// perUnits are the periods an average may be taken per: fixed widths.
var perUnits = map[string]int64{"hour": usHour, "day": usDay, "week": usWeek}

// averageWords reads "average (mean) … per day" and the remarks that
// restate that every period counts ("quiet days included", "counting
// every one of the thirty days").
func (x *extractor) averageWords() {
	avg := -1
	for i, t := range x.toks {
		if !t.used && (t.low == "average" || t.low == "mean") && t.kind == tWord {
			avg = i
			break
		}
	}
	if avg < 0 {
		return
	}
	per, unit := -1, ""
	for i, t := range x.toks {
		if !t.used && t.low == "per" && perUnits[x.tok(i+1).low] > 0 && (x.tok(i+1).kind == tWord) {
			if per >= 0 {
				return // two periods: per what?
			}
			per, unit = i, x.tok(i+1).low
		}
	}
	if per < 0 {
		return
	}
	for k, t := range x.toks {
		if t.low == "active" || t.low == "busy" || t.low == "nonempty" {
			return // "per active day": some periods only
		}
		if t.low == "per" && k != per {
			return // "per user per day": an average over something else too
		}
		// "per user", "each account": an average over nodes, perhaps.
		if c := concept(t.low); (c == cNodeNoun || c == cSenders || c == cRecipients || c == cPartner) && t.low != "one" && t.low != "ones" {
			return
		}
	}
	x.toks[avg].used = true
	x.mark(cAverage, avg)
	x.use(per, per+2)
	x.s.durs = append(x.s.durs, durSlot{us: perUnits[unit], written: x.span(per, per+2), role: "bucket", i: per, j: per + 2})
	x.everyPeriod(unit)
}

// everyPeriod ignores the remarks that every period counts: "(quiet
// days included)", "empty days included", "counting every one of the
// 31 days" (the number is checked against the window when the plan is
// made: see averageOptions).
func (x *extractor) everyPeriod(unit string) {
	plural := unit + "s"
	for i, t := range x.toks {
		if t.used {
			continue
		}
		switch {
		case (t.low == "quiet" || t.low == "empty") && x.tok(i+1).low == plural && x.tok(i+2).low == "included":
			x.ignore(i, i+3)
		case t.low == "counting" && x.tok(i+1).low == "every" && x.tok(i+2).low == "one" && x.tok(i+3).low == "of" && x.tok(i+4).low == "the":
			// "the thirty days" was read as a duration: it is a number
			// of periods here.
			for k, d := range x.s.durs {
				if d.i == i+5 && d.us%perUnits[unit] == 0 && x.tok(d.j-1).low == plural {
					x.s.durs = append(x.s.durs[:k], x.s.durs[k+1:]...)
					x.ignore(i, d.j)
					x.s.periods = d.us / perUnits[unit]
					break
				}
			}
		}
	}
}

// averageOptions checks that the window is a whole number of periods,
// and the number of them a remark wrote.
func (x *extractor) averageOptions(r *Reading) string {
	for _, d := range x.s.durs {
		if u, ok := strings.CutPrefix(d.written, "per "); ok {
			r.Options["per"] = u
		}
	}
	if r.Window == nil || r.Bucket == nil {
		return "" // suggestions read the choices before the slots
	}
	w, per := r.Window.End-r.Window.Start, r.Bucket.Micros
	if w%per != 0 {
		return fmt.Sprintf("the window is not a whole number of %s, so an average %s would count a part period as a whole one", r.Bucket.Written[4:]+"s", r.Bucket.Written)
	}
	if w/per > rowLimit {
		return fmt.Sprintf("the window holds %d periods, more than one page of the series (%d)", w/per, rowLimit)
	}
	if x.s.periods > 0 && x.s.periods != w/per {
		return fmt.Sprintf("the question counts %d periods, but the window holds %d", x.s.periods, w/per)
	}
	return ""
}

var averageIntent = &intent{name: "average-per-period", example: "What was the average number of messages per day {W}?",
	need: []string{cAverage, cEvent}, allow: []string{cHowMany, cSend, cWhich}, window: true, bucket: true, belief: true,
	summary: func(r *Reading) string {
		return fmt.Sprintf("the mean of the window's edge events %s (every period counted, quiet ones as zero)", r.Bucket.Written)
	},
	build: func(r *Reading, b *builder) {
		s1 := b.add("graph_metric_timeseries", b.asOf(map[string]any{"metric": "edge_event_count", "window": b.window(), "stride": r.Bucket.Micros, "limit": rowLimit}))
		s2 := b.add("compute", map[string]any{"fn": "mean", "input": ref(s1 + ".rows"), "field": "value"})
		b.answer("value", s2+".value")
	}}

func init() { intents = append(intents, averageIntent) }
