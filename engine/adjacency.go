package engine

import "slices"

// buildAdjacency fills the out and in lists of every node from the src
// and dst columns, for a store decoded from a checkpoint (s.out and s.in
// allocated, one empty list per node). Each list is allocated once at its
// exact length (no growth by doubling, no slack for Compact to copy) and
// filled in version order; a list whose versions do not come in valid-time
// order is then sorted by (vt_s, id), the order reads need.
func (s *Store) buildAdjacency() {
	n := s.eSrc.Len()
	fill := func(lists [][]uint32, ends *col[uint32]) {
		deg := make([]uint32, len(lists))
		for i, ch := range ends.chunks {
			for _, u := range ch[:min(len(ch), n-i*chunkSize)] {
				deg[u]++
			}
		}
		for u, d := range deg {
			if d > 0 {
				lists[u] = make([]uint32, 0, d)
			}
		}
		deg = nil
		// last[u] is the vt_s of the last version put in u's list; a
		// version that starts before it leaves the list out of order.
		last := make([]int64, len(lists))
		unsorted := make([]bool, len(lists))
		for v := range uint32(n) {
			u := ends.At(v)
			vs := s.eVtS.At(v)
			if vs < last[u] {
				unsorted[u] = true
			}
			last[u] = vs
			lists[u] = append(lists[u], v)
		}
		for u, bad := range unsorted {
			if bad {
				slices.SortFunc(lists[u], s.edgeCmp)
			}
		}
	}
	fill(s.out, &s.eSrc)
	fill(s.in, &s.eDst)
}

// edgeCmp orders edge versions by (vt_s, id), as edgeLess does.
func (s *Store) edgeCmp(a, b uint32) int {
	switch {
	case s.edgeLess(a, b):
		return -1
	case a == b:
		return 0
	}
	return 1
}
