package ops

import "slices"

// Sliding-window distinct counts: max_distinct_in_window.

// aggWinEv is one event of a group as the sliding-window aggregates see
// it: its time and endpoints.
type aggWinEv struct {
	t        int64
	src, dst uint32
}

// aggMaxDistinctInWindow is the most distinct values (of src, dst, node =
// either endpoint, or pair) among the events of any window [t, t + span)
// that starts at an event time t; 0 for no events. Events at one time are
// all inside or all outside a window, so the result does not depend on
// their order. evs is sorted by time in place.
func aggMaxDistinctInWindow(evs []aggWinEv, of string, span int64) int64 {
	slices.SortFunc(evs, func(a, b aggWinEv) int {
		switch {
		case a.t < b.t:
			return -1
		case a.t > b.t:
			return 1
		}
		return 0
	})
	counts := map[uint64]int32{}
	var vals [2]uint64
	valuesOf := func(e aggWinEv) []uint64 {
		switch of {
		case "src":
			vals[0] = uint64(e.src)
		case "dst":
			vals[0] = uint64(e.dst)
		case "pair":
			vals[0] = uint64(e.src)<<32 | uint64(e.dst)
		default: // node
			vals[0], vals[1] = uint64(e.src), uint64(e.dst)
			if e.src != e.dst {
				return vals[:2]
			}
		}
		return vals[:1]
	}
	// Two pointers: after adding event j the held events are those with
	// t_i <= t <= t_j for the first i with t_j - t_i < span. That set lies
	// inside [t_i, t_i + span), and every window starting at an event time
	// is contained in the set held when its last event is added, so the
	// largest set held is the answer.
	best, i := int64(0), 0
	for _, e := range evs {
		for _, v := range valuesOf(e) {
			counts[v]++
		}
		for e.t-evs[i].t >= span {
			for _, v := range valuesOf(evs[i]) {
				if counts[v]--; counts[v] == 0 {
					delete(counts, v)
				}
			}
			i++
		}
		best = max(best, int64(len(counts)))
	}
	return best
}
