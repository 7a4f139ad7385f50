package engine

import bt "github.com/tgms-go/tgms/bitemporal"

// OutOverlapping appends to dst the believed out-edge versions of node id
// whose valid interval overlaps [start, end), in (vt_s, id) order. The
// list is sorted by vt_s, so the scan stops at the first version starting
// at or after end, leaving the rest unread; of the others it reads vt_s
// and the end code first, and the belief column only for those that
// overlap. (A binary search for the stop would add dependent reads: the
// versions before it are read anyway.)
func (r Reader) OutOverlapping(dst []uint32, id uint32, start, end bt.Time) []uint32 {
	return r.adjOverlapping(dst, r.s.out[id], start, end)
}

// InOverlapping is OutOverlapping over the in-edge versions of node id.
func (r Reader) InOverlapping(dst []uint32, id uint32, start, end bt.Time) []uint32 {
	return r.adjOverlapping(dst, r.s.in[id], start, end)
}

// AdjLen is the number of stored out- and in-edge versions of node id,
// believed or not: a bound on what a walk from id reads.
func (r Reader) AdjLen(id uint32) (out, in int) { return len(r.s.out[id]), len(r.s.in[id]) }

func (r Reader) adjOverlapping(dst, list []uint32, start, end bt.Time) []uint32 {
	s := r.s
	for _, v := range list {
		vs := s.eVtS.At(v)
		if vs >= end {
			break
		}
		if s.eVtE.end(v, vs) > start && r.Believed(v) {
			dst = append(dst, v)
		}
	}
	return dst
}

// NodeLabelAt is the label of node id's believed version valid at t, the
// one with the earliest vt_s if several are, without materializing the
// versions; ok is false when none is valid at t.
func (r Reader) NodeLabelAt(id uint32, t bt.Time) (label string, ok bool) {
	best := -1
	for _, i := range r.s.nodeHist[id] {
		n := &r.s.nodes[i]
		if n.tts <= r.seq && r.seq < n.tte && n.valid.Contains(t) && (best < 0 || n.valid.Start < r.s.nodes[best].valid.Start) {
			best = int(i)
		}
	}
	if best < 0 {
		return "", false
	}
	return r.s.labels.s[r.s.nodes[best].label], true
}
