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
// only the far endpoint of each version, a block of them at a time (the
// loads overlap); a 4096-bit mask of ids rejects most of those outside
// the set without a search. The belief column is read for the versions
// inside the set alone, so a cold call costs about one cache miss per
// adjacency entry, not one per column.
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
	var mask [withinMaskBits / 64]uint64
	for _, id := range ids {
		mask[id/64%(withinMaskBits/64)] |= 1 << (id % 64)
	}
	read := 0
	var ends [64]uint32
	for _, id := range ids {
		list := r.startingIn(lists[id], start, end)
		read += len(list)
		for len(list) > 0 {
			blk := list[:min(len(list), len(ends))]
			list = list[len(blk):]
			for k, v := range blk {
				ends[k] = far.At(v)
			}
			for k, v := range blk {
				u := ends[k]
				if mask[u/64%(withinMaskBits/64)]&(1<<(u%64)) == 0 {
					continue
				}
				if _, ok := slices.BinarySearch(ids, u); ok && r.Believed(v) {
					dst = append(dst, v)
				}
			}
		}
	}
	return dst, read
}

// withinMaskBits is the size of EdgesWithin's membership mask.
const withinMaskBits = 4096

// startingIn is the part of an adjacency list (sorted by vt_s) whose
// versions start in [start, end). A window holding every stored start
// reads nothing; else a list wholly inside it costs two reads, its first
// and last starts.
func (r Reader) startingIn(list []uint32, start, end bt.Time) []uint32 {
	s := r.s
	if len(list) == 0 || start <= s.vtMin && end > s.maxStart {
		return list
	}
	vts := &s.eVtS
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
