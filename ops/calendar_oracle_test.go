package ops_test

import (
	"math/rand/v2"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

// The calendar mode of the oracle comparison: the random stores of
// TestOperatorsMatchOracle hold valid times 0..150 µs, which never reach a
// day, week or month boundary, so calendar rules (same_day, calendar time
// buckets and cycles) were compared only inside one day. Here events lie
// at realistic times over several weeks, many of them on the first and last
// microsecond of a local day in fixed-offset (DST-free) zones, and every
// operator with a calendar rule is compared with its oracle there.

const (
	calDay  = int64(86_400_000_000)
	calBase = int64(1_709_078_400_000_000) // 2024-02-28 00:00 UTC: a leap day and a month end follow
)

// calOffsets are fixed UTC offsets in minutes of zones without daylight
// saving time: UTC, Kolkata, Kathmandu, Tokyo, Buenos Aires, the
// Marquesas, Kiritimati, and the schema's extremes.
var calOffsets = []int64{0, 330, 345, 540, -180, -570, 840, -1440, 1440}

// calTime draws a time near a local day boundary of some offset (its last
// microsecond, its first, or one either side), or anywhere in the span.
func calTime(rng *rand.Rand) bt.Time {
	day := calBase + int64(rng.IntN(21))*calDay
	if rng.IntN(4) == 0 {
		return day + rng.Int64N(calDay)
	}
	off := calOffsets[rng.IntN(len(calOffsets))] * 60_000_000
	return day - off + int64(rng.IntN(4)) - 2 // midnight local -2 .. +1 µs
}

// calHistory is a store of events at calendar times among a few nodes,
// with some corrections (carved fragments must not count as events).
func calHistory(rng *rand.Rand) []oracle.Batch {
	uids := []string{"a", "b", "c", "d"}
	var out []oracle.Batch
	for b := range 1 + rng.IntN(3) {
		n := 4 + rng.IntN(30)
		evs := make([]bt.Event, n)
		for i := range evs {
			evs[i] = bt.Event{Src: uids[rng.IntN(4)], Dst: uids[rng.IntN(4)], RelType: []string{"R", "S"}[rng.IntN(2)], VtS: calTime(rng)}
			if rng.IntN(5) == 0 {
				evs[i].VtE = evs[i].VtS + 1 + rng.Int64N(calDay)
			}
		}
		if b == 0 && rng.IntN(2) == 0 {
			// A planted chain x→y, y→z within one local day of some
			// offset: the first hop on its first µs, the second on its
			// last (or the next day's first).
			off := calOffsets[rng.IntN(len(calOffsets))] * 60_000_000
			d := calBase + int64(rng.IntN(21))*calDay - off
			x, y, z := uids[rng.IntN(4)], uids[rng.IntN(4)], uids[rng.IntN(4)]
			evs = append(evs, bt.Event{Src: x, Dst: y, RelType: "R", VtS: d + int64(rng.IntN(2))},
				bt.Event{Src: y, Dst: z, RelType: "R", VtS: d + calDay - 1 + int64(rng.IntN(2))})
		}
		ops := []bt.Op{bt.Ingest(evs, "")}
		if rng.IntN(3) == 0 {
			t := calTime(rng)
			ops = append(ops, bt.AssertNode(uids[rng.IntN(4)], "Org", `{"w":1}`, bt.Interval{Start: t, End: t + rng.Int64N(3*calDay) + 1}))
		}
		out = append(out, oracle.Batch{TT: bt.Time(10 * (b + 1)), Ops: ops})
	}
	return out
}

func calWindow(rng *rand.Rand) map[string]any {
	a := calBase - calDay + rng.Int64N(3*calDay)
	if rng.IntN(3) == 0 {
		a = calTime(rng)
	}
	return map[string]any{"t_a": a, "t_b": a + calDay/2 + rng.Int64N(25*calDay)}
}

// calArgs draws arguments that exercise op's calendar or duration rule;
// cd describes the store's events (durations drawn from their gaps fall
// exactly on the boundaries events create). Operators whose rules are
// durations register theirs in calendar_durations_test.go.
var calArgs = map[string]func(rng *rand.Rand, cd calData) map[string]any{
	"temporal_pattern": func(rng *rand.Rand, cd calData) map[string]any {
		hops := []any{map[string]any{"src": "x", "dst": "y"}, map[string]any{"src": []string{"y", "x", "z"}[rng.IntN(3)], "dst": []string{"z", "x", "w"}[rng.IntN(3)]}}
		off := calOffsets[rng.IntN(len(calOffsets))]
		if len(cd.lastOffsets) > 0 && rng.IntN(3) > 0 {
			off = cd.lastOffsets[rng.IntN(len(cd.lastOffsets))] // an event on its local day's last µs
		}
		args := map[string]any{"window": calWindow(rng), "hops": hops[:1+rng.IntN(2)],
			"same_day": map[string]any{"utc_offset_minutes": off}}
		if rng.IntN(2) == 0 {
			args["output"] = "count"
		}
		if rng.IntN(3) == 0 {
			args["within"] = rng.Int64N(2 * calDay)
		}
		for _, k := range []string{"within", "min_gap", "span"} {
			if rng.IntN(4) == 0 {
				args[k] = calDur(rng, cd) - 1 + int64(rng.IntN(2)) // 0 is allowed here
			}
		}
		if rng.IntN(3) == 0 {
			delete(args, "same_day") // the duration rules alone, across days
		}
		if h, ok := cd.aim(rng); ok {
			// Two hops x→y, y→z exactly one bound apart.
			args["hops"] = []any{map[string]any{"src": "x", "dst": "y"}, map[string]any{"src": "y", "dst": "z"}}
			args["window"] = h.around(rng)
			delete(args, "same_day")
			k := []string{"within", "min_gap", "span"}[rng.IntN(3)]
			args[k] = h.t2 - h.t1
		}
		return args
	},
	"aggregate_events": func(rng *rand.Rand, cd calData) map[string]any {
		off := calOffsets[rng.IntN(len(calOffsets))]
		var dim map[string]any
		if rng.IntN(2) == 0 {
			dim = map[string]any{"dim": "time_bucket", "unit": []string{"day", "week", "month", "year"}[rng.IntN(4)], "utc_offset_minutes": off}
		} else {
			dim = map[string]any{"dim": "calendar_cycle", "cycle": []string{"hour_of_day", "day_of_week", "day_of_month", "month_of_year"}[rng.IntN(4)], "utc_offset_minutes": off}
		}
		aggs := []any{map[string]any{"agg": "count"}}
		if rng.IntN(2) == 0 {
			aggs = append(aggs, map[string]any{"agg": "count_distinct", "of": "node"})
		}
		return map[string]any{"window": calWindow(rng), "group_by": []any{dim}, "aggregates": aggs}
	},
	"graph_metric_timeseries": func(rng *rand.Rand, cd calData) map[string]any {
		return map[string]any{"metric": []string{"edge_event_count", "new_node_rate", "reciprocity"}[rng.IntN(3)], "window": calWindow(rng),
			"cycle": map[string]any{"unit": []string{"hour_of_day", "day_of_week", "day_of_month", "month_of_year"}[rng.IntN(4)], "utc_offset_minutes": calOffsets[rng.IntN(len(calOffsets))]}}
	},
}

func TestCalendarOperatorsMatchOracle(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 60
	}
	for op, gen := range calArgs {
		spec, ok := ops.Lookup(op)
		if !ok || !oracle.Has(op) {
			t.Fatalf("%s: no operator or no oracle", op)
		}
		t.Run(op, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(len(op)), 86400))
			answered, refused := 0, 0
			for i := range n {
				h := calHistory(rng)
				m, e := build(t, h)
				o := compareOne(t, i, spec, m, e, gen(rng, calDataOf(h)))
				switch {
				case o.refusal != "" || o.schemaError:
					refused++
				case o.content:
					answered++
				}
			}
			t.Logf("%d cases: %d with content, %d refused", n, answered, refused)
			if answered < n/2 {
				t.Errorf("only %d of %d cases answered anything: the generator misses the data", answered, n)
			}
		})
	}
}
