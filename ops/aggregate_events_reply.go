package ops

import (
	"cmp"
	"slices"
	"sort"
)

// aggPairTime is one event of the population: its directed pair
// (src<<32 | dst) and time.
type aggPairTime struct {
	pair uint64
	t    int64
}

func (a aggPairTime) cmp(b aggPairTime) int {
	switch {
	case a.pair != b.pair:
		return cmp.Compare(a.pair, b.pair)
	case a.t != b.t:
		return cmp.Compare(a.t, b.t)
	}
	return 0
}

// Reply delays: reply_delay.

// aggReplyDelays is, for each event of a group that has a reply, the delay
// to it: the first event of the population from the event's dst to its src
// strictly later than it. pop is the population sorted by pair and time.
// The delays come back sorted (never nil).
func aggReplyDelays(evs []aggWinEv, pop []aggPairTime) []int64 {
	out := []int64{}
	for _, e := range evs {
		back := aggPairTime{uint64(e.dst)<<32 | uint64(e.src), e.t}
		i := sort.Search(len(pop), func(i int) bool {
			return pop[i].pair > back.pair || pop[i].pair == back.pair && pop[i].t > back.t
		})
		if i < len(pop) && pop[i].pair == back.pair {
			out = append(out, pop[i].t-e.t)
		}
	}
	slices.Sort(out)
	return out
}

// aggDelayStat is stat of sorted delays: count (of replied events), min,
// median (the lower middle value), mean (exact, rounded once), max; nil
// for no delay except count.
func aggDelayStat(d []int64, stat string) any {
	if stat == "count" {
		return int64(len(d))
	}
	if len(d) == 0 {
		return nil
	}
	switch stat {
	case "min":
		return d[0]
	case "max":
		return d[len(d)-1]
	case "median":
		return d[(len(d)-1)/2]
	}
	var acc aggAcc
	for _, x := range d {
		acc.add(aggNum{i: x})
	}
	return acc.mean()
}
