package engine

import (
	"cmp"
	"slices"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// EdgesWithin appends to dst the believed edge versions whose source and
// destination are both in ids (sorted, no duplicates) and whose valid
// start lies in [start, end), and returns it with the number of stored
// adjacency entries it read. The order is unspecified.
//
// It walks the out-lists or the in-lists of ids, whichever side stores
// fewer versions (every such version is on both sides), and reads first
// only the far endpoint of each version: the window and belief columns
// are read for the versions inside the set alone, so a cold call costs
// one column read per adjacency entry, not one per column.
func (r Reader) EdgesWithin(dst []uint32, ids []uint32, start, end bt.Time) ([]uint32, int) {
	s := r.s
	nOut, nIn := 0, 0
	for _, id := range ids {
		nOut += len(s.out[id])
		nIn += len(s.in[id])
	}
	lists, far := s.out, &s.eDst
	if nIn < nOut {
		lists, far = s.in, &s.eSrc
	}
	read := 0
	for _, id := range ids {
		list := r.startingIn(lists[id], start, end)
		read += len(list)
		for _, v := range list {
			if _, ok := slices.BinarySearch(ids, far.At(v)); ok && r.Believed(v) {
				dst = append(dst, v)
			}
		}
	}
	return dst, read
}

// startingIn is the part of an adjacency list (sorted by vt_s) whose
// versions start in [start, end). A list wholly inside the window costs
// two reads: its first and last starts.
func (r Reader) startingIn(list []uint32, start, end bt.Time) []uint32 {
	if len(list) == 0 {
		return list
	}
	vts := &r.s.eVtS
	lo, hi := 0, len(list)
	if vts.At(list[0]) < start {
		lo, _ = slices.BinarySearchFunc(list, start, func(v uint32, t bt.Time) int { return cmp.Compare(vts.At(v), t) })
	}
	if vts.At(list[len(list)-1]) >= end {
		hi, _ = slices.BinarySearchFunc(list, end, func(v uint32, t bt.Time) int { return cmp.Compare(vts.At(v), t) })
	}
	if hi < lo {
		return nil
	}
	return list[lo:hi]
}
