package engine

import (
	"cmp"
	"slices"
	"sort"
	"sync"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// What changes between the graph at valid time a and at b (a < b) is
// carried by the versions valid at exactly one of the two instants: a
// version valid at both is the same on both sides, and believed versions
// of one identity do not overlap, so an identity with a version valid at
// both has no other version at either. Those versions are the ones with a
// boundary in (a, b]: valid at a and ended by b, or started after a and
// valid at b. The reads below find them without reading the two whole
// snapshots.

// EdgesValidAtOneOf returns the believed edge versions valid at exactly
// one of the instants a and b, in no particular order (none when a ==
// b). It reads the interval index's classes by vt_s: a version of class
// c valid at hi = max(a, b) that started after lo = min(a, b) started in
// (max(lo, hi - 4^(c+1)), hi]; one valid at lo and ended by hi started
// in (lo - 4^(c+1), min(lo, hi - 4^c)]. So the read is bounded by the
// versions of each class starting near the instants, never a snapshot of
// the classes far shorter or far longer than b - a.
func (r Reader) EdgesValidAtOneOf(a, b bt.Time) []uint32 {
	lo, hi := min(a, b), max(a, b)
	if lo == hi {
		return nil
	}
	x := &r.s.byStart
	var out []uint32
	scan := func(list []uint32, from, to bt.Time, keep func(end bt.Time) bool) {
		if from > to {
			return
		}
		i := x.rangeStart(list, from)
		j := i + x.rangeStart(list[i:], to+1)
		for _, v := range list[i:j] {
			if keep(r.s.end(v, r.s.eVtS.At(v))) && r.Believed(v) {
				out = append(out, v)
			}
		}
	}
	startedIn := func(end bt.Time) bool { return end > hi }            // valid at hi
	endedIn := func(end bt.Time) bool { return end > lo && end <= hi } // valid at lo
	for c := range x.classes {
		cl := &x.classes[c]
		if len(cl.main)+len(cl.delta) == 0 {
			continue
		}
		span, least := classSpan(c), classLeast(c)
		for _, list := range [2][]uint32{cl.main, cl.delta} {
			scan(list, max(lo+1, hi-span+1), hi, startedIn)
			scan(list, lo-span+1, min(lo, hi-least), endedIn)
		}
	}
	return out
}

// classLeast is the least duration of class c (4^c; 0 for class 0,
// which also holds empty intervals).
func classLeast(c int) int64 {
	if c == 0 {
		return 0
	}
	return 1 << (2 * c)
}

// NodesValidAtOneOf returns, ascending and without repeats, the ids of the
// nodes with a node version believed at the reader's time and valid at
// exactly one of a and b (none when a == b): the only nodes whose version
// at a can differ from their version at b. It reads node rows by vt_s and
// by vt_e through an index built on first use (see nodeBounds), so it
// reads the rows with a boundary in (min(a, b), max(a, b)], not every
// node.
func (r Reader) NodesValidAtOneOf(a, b bt.Time) []uint32 {
	lo, hi := min(a, b), max(a, b)
	if lo == hi {
		return nil
	}
	s := r.s
	x := s.nodeBounds()
	var ids []uint32
	keep := func(row uint32) {
		n := &s.nodes[row]
		if n.tts <= r.seq && r.seq < n.tte && n.valid.Contains(lo) != n.valid.Contains(hi) {
			ids = append(ids, n.uid)
		}
	}
	for _, row := range x.startingIn(s, lo, hi) {
		keep(row)
	}
	for _, row := range x.endingIn(s, lo, hi) {
		keep(row)
	}
	for row := x.rows; row < len(s.nodes); row++ {
		keep(uint32(row))
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// nodeBounds orders node rows [0, rows) by vt_s and by vt_e. Rows only
// grow and a row's valid interval never changes (closing a version sets
// its tt_e; erasing empties its content), so an index stays exact for the
// rows it covers; rows stored since are read one by one until they are an
// eighth of the covered ones, when the index is rebuilt.
type nodeBounds struct {
	rows           int
	byStart, byEnd []uint32
}

// nodeBoundsCache holds the current index; mu serializes building.
type nodeBoundsCache struct {
	mu  sync.Mutex
	cur *nodeBounds
}

func (s *Store) nodeBounds() *nodeBounds {
	c := &s.bounds
	c.mu.Lock()
	defer c.mu.Unlock()
	if x := c.cur; x != nil && len(s.nodes)-x.rows <= x.rows/8 {
		return x
	}
	n := len(s.nodes)
	x := &nodeBounds{rows: n, byStart: make([]uint32, n), byEnd: make([]uint32, n)}
	for i := range n {
		x.byStart[i], x.byEnd[i] = uint32(i), uint32(i)
	}
	slices.SortFunc(x.byStart, func(a, b uint32) int { return cmp.Compare(s.nodes[a].valid.Start, s.nodes[b].valid.Start) })
	slices.SortFunc(x.byEnd, func(a, b uint32) int { return cmp.Compare(s.nodes[a].valid.End, s.nodes[b].valid.End) })
	c.cur = x
	return x
}

// startingIn is the covered rows with lo < vt_s <= hi.
func (x *nodeBounds) startingIn(s *Store, lo, hi bt.Time) []uint32 {
	at := func(t bt.Time) int {
		return sort.Search(len(x.byStart), func(i int) bool { return s.nodes[x.byStart[i]].valid.Start > t })
	}
	return x.byStart[at(lo):at(hi)]
}

// endingIn is the covered rows with lo < vt_e <= hi.
func (x *nodeBounds) endingIn(s *Store, lo, hi bt.Time) []uint32 {
	at := func(t bt.Time) int {
		return sort.Search(len(x.byEnd), func(i int) bool { return s.nodes[x.byEnd[i]].valid.End > t })
	}
	return x.byEnd[at(lo):at(hi)]
}
