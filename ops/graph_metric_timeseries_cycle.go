package ops

import (
	"slices"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// A cyclic series folds a window by a calendar cycle: one row per position
// of the cycle (every position, empty ones included), the event metrics
// taken over the window's events whose local time falls at that position.
// Positions are those of aggregate_events' calendar_cycle (aggCycleOf).

// gmtsCycles are the cycles and their positions lo..hi.
var gmtsCycles = map[string][2]int64{
	"hour_of_day":   {0, 23},
	"day_of_week":   {1, 7},
	"day_of_month":  {1, 31},
	"month_of_year": {1, 12},
}

// gmtsCycle is a parsed cycle argument.
type gmtsCycle struct {
	unit   string
	off    int64 // µs
	lo, hi int64
}

func (cy gmtsCycle) n() int { return int(cy.hi - cy.lo + 1) }

// index is the row of the event at UTC time t.
func (cy gmtsCycle) index(t int64) int { return int(aggCycleOf(cy.unit, t+cy.off) - cy.lo) }

// gmtsCycleSchema is the schema of the cycle argument.
func gmtsCycleSchema() *Schema {
	return Obj("fold the series by a calendar cycle of local time (null: stride buckets)", map[string]*Schema{
		"unit":               Enum("the cycle", "hour_of_day", "day_of_week", "day_of_month", "month_of_year"),
		"utc_offset_minutes": Int("fixed local offset from UTC in minutes (no DST); 0 for UTC").Range(-1440, 1440),
	}, "unit", "utc_offset_minutes").OrNull()
}

// gmtsCycleMetrics are the metrics a cycle folds: those taken over the
// events of a bucket.
var gmtsCycleMetrics = []string{"edge_event_count", "new_node_rate", "reciprocity"}

// gmtsParseCycle reads the call's cycle and checks it against stride and
// metric: exactly one of stride and cycle, and a cycle only with an event
// metric.
func gmtsParseCycle(c *Call) (gmtsCycle, bool, error) {
	hasCycle, hasStride := c.Has("cycle"), c.Has("stride")
	switch {
	case hasCycle && hasStride:
		return gmtsCycle{}, false, Errorf(EInvalidArg, map[string]any{"path": "/stride", "hint": "drop stride: a cyclic series has one row per cycle position"},
			"stride and cycle are both given")
	case !hasCycle && !hasStride:
		return gmtsCycle{}, false, Errorf(EInvalidArg, map[string]any{"path": "/stride", "hint": `add "stride" (µs) or "cycle": {"unit": "hour_of_day", "utc_offset_minutes": 0}`},
			"a series needs stride or cycle")
	case !hasCycle:
		return gmtsCycle{}, false, nil
	}
	if m := c.Str("metric"); !slices.Contains(gmtsCycleMetrics, m) {
		return gmtsCycle{}, false, Errorf(EInvalidArg, map[string]any{"path": "/cycle", "metric": m,
			"hint": "a cycle folds edge_event_count, new_node_rate or reciprocity; use stride for a point-in-time metric"},
			"metric %s is a value at an instant and cannot be folded by a cycle", m)
	}
	m, _ := c.Args["cycle"].(map[string]any)
	unit, _ := m["unit"].(string)
	r := gmtsCycles[unit]
	return gmtsCycle{unit: unit, off: toInt(m["utc_offset_minutes"]) * 60_000_000, lo: r[0], hi: r[1]}, true, nil
}

// runGraphMetricCycle computes a cyclic series.
func runGraphMetricCycle(c *Call, cy gmtsCycle) (map[string]any, error) {
	w := c.Window("window")
	var values []any
	switch c.Str("metric") {
	case "edge_event_count":
		counts := make([]int64, cy.n())
		err := gmtsVisit(c, w, true, func(v uint32, iv bt.Interval) {
			if !c.R.Continues(v) {
				counts[cy.index(iv.Start)]++
			}
		})
		if err != nil {
			return nil, err
		}
		values = gmtsInts(counts)
	case "new_node_rate":
		births := make([]int64, cy.n())
		for id := range c.R.NumNodes() {
			if !c.R.Known(uint32(id)) {
				continue
			}
			hist := c.R.NodeHistory(uint32(id))
			if err := c.Work(int64(1 + len(hist))); err != nil {
				return nil, err
			}
			if len(hist) > 0 {
				if t := hist[0].Valid.Start; w.Start <= t && t < w.End {
					births[cy.index(t)]++
				}
			}
		}
		values = gmtsInts(births)
	default: // reciprocity
		var err error
		if values, err = gmtsReciprocityBy(c, cy.n(), w, cy.index); err != nil {
			return nil, err
		}
	}
	rows := make([]any, cy.n())
	for i := range rows {
		rows[i] = map[string]any{"position": cy.lo + int64(i), "value": values[i]}
	}
	return map[string]any{"rows": rows, "n_buckets": int64(cy.n())}, nil
}

// gmtsRowKey orders stride rows by t_a and cyclic rows by position.
func gmtsRowKey(row map[string]any) []any {
	if p, ok := row["position"]; ok {
		return []any{p}
	}
	return []any{row["t_a"]}
}
