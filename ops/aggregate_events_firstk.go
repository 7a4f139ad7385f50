package ops

import (
	"cmp"
	"slices"
	"unsafe"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
)

// First and last k: first_k and last_k.

// aggKEv is one event of a group as first_k/last_k read it: its place in
// the order (time, src and dst uids, eid) and its version, from which the
// selected events' values are read.
type aggKEv struct {
	t        int64
	src, dst uint32
	v        uint32
}

// aggKEvBytes is what one kept event holds (the memory budget's unit).
const aggKEvBytes = int64(unsafe.Sizeof(aggKEv{}))

// aggSortKEvs orders a group's events by time, then src and dst uids in
// code-point order, then eid (first/last's tie rule, made total).
func aggSortKEvs(r Reader, evs []aggKEv) {
	slices.SortFunc(evs, func(a, b aggKEv) int {
		if a.t != b.t {
			return cmp.Compare(a.t, b.t)
		}
		if a.src != b.src {
			return cmp.Compare(r.UID(a.src), r.UID(b.src))
		}
		if a.dst != b.dst {
			return cmp.Compare(r.UID(a.dst), r.UID(b.dst))
		}
		return cmp.Compare(engine.EID(r.Edge(a.v).Key), engine.EID(r.Edge(b.v).Key))
	})
}

// aggKSelect returns the group's first k events of sorted (first_k), or
// its last k (last_k): the latest times first, and within one time the
// same tie order as first_k, so that last_k 1 is last's event.
func aggKSelect(sorted []aggKEv, k int64, last bool) []aggKEv {
	n := int(min(k, int64(len(sorted))))
	if !last {
		return sorted[:n]
	}
	out := make([]aggKEv, 0, n)
	for j := len(sorted); j > 0 && len(out) < n; {
		i := j - 1
		for i > 0 && sorted[i-1].t == sorted[j-1].t {
			i--
		}
		for _, e := range sorted[i:j] {
			if len(out) == n {
				break
			}
			out = append(out, e)
		}
		j = i
	}
	return out
}

// aggKStat is stat (count, sum, mean, min, max) of a's source over the
// selected events, their values read as the scan reads them for the plain
// aggregates; values that are not numbers are skipped.
func aggKStat(r Reader, props aggProps, prop string, sel []aggKEv, a aggAgg) (any, error) {
	if a.stat == "count" {
		return int64(len(sel)), nil
	}
	var acc aggAcc
	for _, e := range sel {
		switch a.src {
		case aggSrcVtS:
			acc.add(aggNum{i: e.t})
		case aggSrcDuration:
			if end := aggChainEnd(r, e.v, r.Valid(e.v)); end < bt.OpenEnd {
				acc.add(aggNum{i: end - e.t})
			}
		default:
			if x, ok := aggNumOf(props.get(r.Props(e.v))[prop]); ok {
				acc.add(x)
			}
		}
	}
	switch a.stat {
	case "sum":
		return acc.sum()
	case "mean":
		return acc.mean(), nil
	}
	if acc.s.n == 0 {
		return nil, nil
	}
	if a.stat == "min" {
		return acc.min.value(), nil
	}
	return acc.max.value(), nil
}
