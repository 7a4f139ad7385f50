package engine

import (
	"sort"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// Uncovered is an edge version one of whose endpoints has no node version
// covering part of the edge's valid interval, at a reader's belief time.
type Uncovered struct {
	Edge     bt.EdgeKey
	Valid    bt.Interval // the edge version's valid interval
	Endpoint string      // the endpoint's uid (Edge.Src or Edge.Dst)
	Gap      bt.Interval // the first part of Valid no believed version of Endpoint covers
}

// UncoveredEdges checks that every edge version believed at the reader's
// time lies inside its endpoints' validity: that the union of each
// endpoint's believed node versions covers the edge's whole valid
// interval. It returns how many (edge version, endpoint) pairs fail, and
// the first limit of them in order of endpoint id, then edge (vt_s, id),
// out-edges of a node before its in-edges. A self loop counts once.
func (r Reader) UncoveredEdges(limit int) (int, []Uncovered) {
	n := 0
	var out []Uncovered
	var cover []bt.Interval
	for id := range uint32(r.NumNodes()) {
		if !r.Known(id) {
			continue
		}
		cover = mergeValid(cover[:0], r.NodeHistory(id))
		for pass, list := range [2][]uint32{r.Out(id), r.In(id)} {
			for _, v := range list {
				if pass == 1 && r.Src(v) == id {
					continue // a self loop, checked as an out-edge
				}
				iv := r.Valid(v)
				gap, ok := firstGap(cover, iv)
				if ok {
					continue
				}
				n++
				if len(out) < limit {
					out = append(out, Uncovered{Edge: r.EdgeKey(v), Valid: iv, Endpoint: r.UID(id), Gap: gap})
				}
			}
		}
	}
	return n, out
}

// mergeValid appends to dst the union of the versions' valid intervals
// (sorted by start, as NodeHistory returns them) as disjoint, non-adjacent
// intervals in order.
func mergeValid(dst []bt.Interval, versions []bt.NodeVersion) []bt.Interval {
	for _, v := range versions {
		iv := v.Valid
		if k := len(dst) - 1; k >= 0 && iv.Start <= dst[k].End {
			dst[k].End = max(dst[k].End, iv.End)
			continue
		}
		dst = append(dst, iv)
	}
	return dst
}

// firstGap reports whether cover (disjoint, sorted) covers all of iv, and
// if not, the first part of iv it leaves out.
func firstGap(cover []bt.Interval, iv bt.Interval) (bt.Interval, bool) {
	// The last interval starting at or before iv.Start.
	k := sort.Search(len(cover), func(i int) bool { return cover[i].Start > iv.Start }) - 1
	if k >= 0 && cover[k].End >= iv.End {
		return bt.Interval{}, true
	}
	from := iv.Start
	if k >= 0 && cover[k].End > from {
		from = cover[k].End
	}
	to := iv.End
	if k+1 < len(cover) {
		to = min(to, cover[k+1].Start)
	}
	return bt.Interval{Start: from, End: to}, false
}
