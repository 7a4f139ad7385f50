package reader

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
	cCycleHour:    {"hour_of_day", "the hour of the day (0–23, UTC)"},
	cCycleWeekday: {"day_of_week", "the day of the week (1 Monday … 7 Sunday, UTC)"},
	cCycleMonth:   {"month_of_year", "the month of the year (1–12, UTC)"},
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
		return cycleField[r.Options["cycle"]][1] + " with the most events, counted over the window (ties by the row's canonical text)"
	},
	build: func(r *Reading, b *builder) {
		f := cycleField[r.Options["cycle"]][0]
		s := b.add("aggregate_events", b.asOf(map[string]any{"window": b.window(), "limit": rowLimit,
			"group_by":   []any{map[string]any{"dim": "calendar_cycle", "cycle": f, "utc_offset_minutes": int64(0)}},
			"aggregates": []any{map[string]any{"agg": "count"}}}))
		s2 := b.add("compute", map[string]any{"fn": "topk", "input": ref(s + ".rows"), "field": "count", "k": int64(1)})
		b.answer("value", s2+".rows[0]."+f)
	}}

func init() { intents = append(intents, cycleIntent) }
