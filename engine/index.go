package engine

import (
	"math/bits"
	"slices"
	"sort"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// numClasses is the number of duration classes: class c holds versions
// whose duration lies in [4^c, 4^(c+1)).
const numClasses = 32

// deltaMax bounds the unsorted-arrival buffer of one class before it is
// merged into the main run.
const deltaMax = 1 << 15

// classIndex is the interval index. Edge versions are partitioned by
// duration class, and each class is sorted by (vt_s, id). A version of class
// c that is valid at t started in (t - 4^(c+1), t], so "valid at t" and
// "overlapping [a, b)" are a bounded range scan per class: the scan reads at
// most the answers plus versions that ended shortly before a, never the
// whole store.
//
// Each class is a sorted main run plus a small sorted delta of versions that
// arrived out of time order (corrections of the past); the delta is merged
// into the main run when it grows past deltaMax.
type classIndex struct {
	s       *Store
	classes [numClasses]struct{ main, delta []uint32 }
}

func durationClass(d int64) int {
	if d < 1 {
		d = 1
	}
	return (bits.Len64(uint64(d)) - 1) / 2
}

// classSpan is 4^(c+1), the exclusive upper bound of class c's durations.
func classSpan(c int) int64 {
	if 2*(c+1) >= 63 {
		return 1 << 62
	}
	return 1 << (2 * (c + 1))
}

func (x *classIndex) insert(v uint32) {
	iv := x.s.valid(v)
	c := &x.classes[durationClass(iv.End-iv.Start)]
	if len(c.delta) == 0 && (len(c.main) == 0 || !x.s.edgeLess(v, c.main[len(c.main)-1])) {
		c.main = append(c.main, v)
		return
	}
	i := sort.Search(len(c.delta), func(i int) bool { return x.s.edgeLess(v, c.delta[i]) })
	c.delta = slices.Insert(c.delta, i, v)
	if len(c.delta) > deltaMax {
		x.mergeClass(c)
	}
}

func (x *classIndex) mergeClass(c *struct{ main, delta []uint32 }) {
	if len(c.delta) == 0 {
		return
	}
	merged := make([]uint32, 0, len(c.main)+len(c.delta))
	i, j := 0, 0
	for i < len(c.main) && j < len(c.delta) {
		if x.s.edgeLess(c.delta[j], c.main[i]) {
			merged = append(merged, c.delta[j])
			j++
		} else {
			merged = append(merged, c.main[i])
			i++
		}
	}
	merged = append(merged, c.main[i:]...)
	merged = append(merged, c.delta[j:]...)
	c.main, c.delta = merged, nil
}

func (x *classIndex) merge() {
	for i := range x.classes {
		x.mergeClass(&x.classes[i])
		x.classes[i].main = slices.Clip(x.classes[i].main)
	}
}

// rangeStart returns the first position in list whose vt_s >= t.
func (x *classIndex) rangeStart(list []uint32, t bt.Time) int {
	return sort.Search(len(list), func(i int) bool { return x.s.eVtS.At(list[i]) >= t })
}

// overlapping appends to dst every edge version (believed or not) whose
// valid interval overlaps [a, b), sorted by (vt_s, id).
func (x *classIndex) overlapping(dst []uint32, a, b bt.Time) []uint32 {
	var runs [][]uint32
	for c := range x.classes {
		cl := &x.classes[c]
		if len(cl.main)+len(cl.delta) == 0 {
			continue
		}
		lo := a - classSpan(c) + 1
		for _, list := range [2][]uint32{cl.main, cl.delta} {
			start := x.rangeStart(list, lo)
			list = list[start : start+x.rangeStart(list[start:], b)]
			if len(list) == 0 {
				continue
			}
			run := make([]uint32, 0, len(list))
			for _, v := range list {
				if x.s.end(v, x.s.eVtS.At(v)) > a {
					run = append(run, v)
				}
			}
			if len(run) > 0 {
				runs = append(runs, run)
			}
		}
	}
	if len(runs) == 1 && dst == nil {
		return runs[0] // a fresh list: no need to copy it
	}
	return x.s.mergeRuns(dst, runs)
}

// startingIn appends every edge version with a <= vt_s < b, sorted by (vt_s, id).
func (x *classIndex) startingIn(dst []uint32, a, b bt.Time) []uint32 {
	var runs [][]uint32
	for c := range x.classes {
		cl := &x.classes[c]
		for _, list := range [2][]uint32{cl.main, cl.delta} {
			start := x.rangeStart(list, a)
			end := start + x.rangeStart(list[start:], b)
			if end > start {
				runs = append(runs, list[start:end])
			}
		}
	}
	return x.s.mergeRuns(dst, runs)
}

// mergeRuns merges (vt_s, id)-sorted runs into dst: a k-way merge over
// the runs' heads, so each version's vt_s is read once, when it becomes
// its run's head, and nothing is allocated but dst.
func (s *Store) mergeRuns(dst []uint32, runs [][]uint32) []uint32 {
	switch len(runs) {
	case 0:
		return dst
	case 1:
		return append(dst, runs[0]...)
	}
	n := 0
	for _, r := range runs {
		n += len(r)
	}
	dst = slices.Grow(dst, n)
	h := mergeHeap{s: s, runs: runs, heads: make([]mergeHead, len(runs))}
	for i, r := range runs {
		h.heads[i] = mergeHead{s.eVtS.At(r[0]), r[0], uint32(i), 0}
	}
	for i := len(h.heads)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
	for len(h.heads) > 1 {
		top := &h.heads[0]
		dst = append(dst, top.v)
		if top.pos++; int(top.pos) < len(runs[top.run]) {
			top.v = runs[top.run][top.pos]
			top.t = s.eVtS.At(top.v)
		} else {
			h.heads[0] = h.heads[len(h.heads)-1]
			h.heads = h.heads[:len(h.heads)-1]
		}
		h.down(0)
	}
	last := h.heads[0]
	return append(dst, runs[last.run][last.pos:]...)
}

// mergeHead is a run's next version in a k-way merge, with its vt_s.
type mergeHead struct {
	t        int64
	v        uint32
	run, pos uint32
}

func (a mergeHead) less(b mergeHead) bool { return a.t < b.t || a.t == b.t && a.v < b.v }

// mergeHeap is a min-heap of run heads by (vt_s, id).
type mergeHeap struct {
	s     *Store
	runs  [][]uint32
	heads []mergeHead
}

func (h *mergeHeap) down(i int) {
	for {
		l, m := 2*i+1, i
		if l < len(h.heads) && h.heads[l].less(h.heads[m]) {
			m = l
		}
		if l+1 < len(h.heads) && h.heads[l+1].less(h.heads[m]) {
			m = l + 1
		}
		if m == i {
			return
		}
		h.heads[i], h.heads[m] = h.heads[m], h.heads[i]
		i = m
	}
}

// each calls fn, in no particular order and without copying, for every
// edge version of the index (believed or not) that overlaps [a, hi) when
// overlap is set, or that starts in [a, hi) otherwise.
func (x *classIndex) each(a, hi bt.Time, overlap bool, fn func(v uint32)) {
	for c := range x.classes {
		cl := &x.classes[c]
		if len(cl.main)+len(cl.delta) == 0 {
			continue
		}
		lo := a
		if overlap {
			lo = a - classSpan(c) + 1
		}
		for _, list := range [2][]uint32{cl.main, cl.delta} {
			for _, v := range list[x.rangeStart(list, lo):] {
				vs := x.s.eVtS.At(v)
				if vs >= hi {
					break
				}
				if !overlap || x.s.end(v, vs) > a {
					fn(v)
				}
			}
		}
	}
}
