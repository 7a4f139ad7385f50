package ops

import (
	"cmp"
	"slices"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// EdgesWithin is the believed edge versions with both endpoints in ids
// (sorted, no duplicates) and valid start in iv, in no set order, with the
// number of adjacency entries read (for the work budget). The engine walks
// the smaller side and reads one column per entry; another Reader scans
// the believed out-edges of each id in iv.
func (h *hotReader) EdgesWithin(ids []uint32, iv bt.Interval) ([]uint32, int) {
	if h.native {
		return h.nat.EdgesWithin(nil, ids, iv.Start, iv.End)
	}
	var vs []uint32
	read := 0
	for _, id := range ids {
		out := h.r.Out(id)
		lo, _ := slices.BinarySearchFunc(out, iv.Start, func(v uint32, t int64) int { return cmp.Compare(h.r.Valid(v).Start, t) })
		for _, v := range out[lo:] {
			read++
			if h.r.Valid(v).Start >= iv.End {
				break
			}
			if _, ok := slices.BinarySearch(ids, h.r.Dst(v)); ok {
				vs = append(vs, v)
			}
		}
	}
	return vs, read
}
