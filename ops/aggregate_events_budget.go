package ops

import (
	"fmt"
	"slices"
	"strings"
	"unsafe"
)

// The memory the sequence aggregates keep while a call runs: each group's
// event times (returns, max_in_window), its events (max_distinct_in_window,
// reply_delay, first_k, last_k) and, for reply_delay, the whole
// population's (pair, time) list. It is charged to the memory budget with
// the groups, per kept entry at the size of what is kept, so a refusal
// depends only on the population, never on storage order.

// aggKept is what one event of a group costs the sequence aggregates of a
// plan, and their names (for the error).
func aggKept(p *aggPlan) (perEvent int64, names []string) {
	for _, a := range p.aggs {
		switch a.agg {
		case "returns", "max_in_window", "max_distinct_in_window", "reply_delay", "first_k", "last_k":
			if !slices.Contains(names, a.agg) {
				names = append(names, a.agg)
			}
		}
	}
	if p.needTimes {
		perEvent += int64(unsafe.Sizeof(int64(0)))
	}
	if p.needWinEvs {
		perEvent += int64(unsafe.Sizeof(aggWinEv{}))
	}
	if p.needKEvs {
		perEvent += aggKEvBytes
	}
	return perEvent, names
}

// aggReplyBytes is what reply_delay keeps per event of the population.
const aggReplyBytes = int64(unsafe.Sizeof(aggPairTime{}))

// aggHeldErr is the E_LIMIT of a call whose groups and kept events exceed
// the budget. The counts are those when the scan noticed (checked every
// 4,096 events and at its end), hence "at least"; whether a call is
// refused depends only on the totals.
func aggHeldErr(c *Call, p *aggPlan, groups, kept, replies int64) error {
	per, names := aggKept(p)
	total := groups*p.rowBytes + kept*per + replies*aggReplyBytes
	b := c.MemBudget()
	pop := ""
	if replies > 0 {
		pop = fmt.Sprintf(", and reply_delay's list of the population's %d events of %d bytes", replies, aggReplyBytes)
	}
	return Errorf(ELimit, map[string]any{"groups": groups, "kept_events": kept, "population_events": replies, "bytes": total, "mem_budget": b,
		"hint": "narrow the window or add an endpoint_filter, rel_types or prop_filter: " + strings.Join(names, ", ") + " keep every event of their groups"},
		"aggregate_events %s keep at least %d events of %d bytes in %d groups of about %d bytes%s (%s in all), over the memory budget of %s",
		strings.Join(names, ", "), kept, per, groups, p.rowBytes, pop, FormatBytes(total), FormatBytes(b))
}
