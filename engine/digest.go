package engine

import (
	"bytes"
	"cmp"
	"slices"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// Digest returns the store digest (bitemporal.Digester), identical to the
// model store's for the same history.
func (s *Store) Digest() string {
	uidRank := ranks(s.uids.s)
	relRank := ranks(s.rels.s)
	discRank := ranks(s.discs.s)
	ids := make([]uint32, s.eVtS.Len())
	for i := range ids {
		ids[i] = uint32(i)
	}
	var ba, bb [32]byte
	discBytes := func(buf *[32]byte, v uint32) []byte {
		d := s.eDisc.At(v)
		if d&autoBit == 0 {
			return nil
		}
		return append(buf[:0], s.Disc(v)...)
	}
	slices.SortFunc(ids, func(a, b uint32) int {
		if c := cmp.Compare(uidRank[s.eSrc.At(a)], uidRank[s.eSrc.At(b)]); c != 0 {
			return c
		}
		if c := cmp.Compare(uidRank[s.eDst.At(a)], uidRank[s.eDst.At(b)]); c != 0 {
			return c
		}
		if c := cmp.Compare(relRank[s.eRel.At(a)], relRank[s.eRel.At(b)]); c != 0 {
			return c
		}
		da, db := s.eDisc.At(a), s.eDisc.At(b)
		switch {
		case da&autoBit == 0 && db&autoBit == 0:
			if c := cmp.Compare(discRank[da], discRank[db]); c != 0 {
				return c
			}
		case da != db:
			x, y := discBytes(&ba, a), discBytes(&bb, b)
			if x == nil {
				x = []byte(s.discs.s[da])
			}
			if y == nil {
				y = []byte(s.discs.s[db])
			}
			if c := bytes.Compare(x, y); c != 0 {
				return c
			}
		}
		if c := cmp.Compare(s.edgeSeq(a), s.edgeSeq(b)); c != 0 {
			return c
		}
		return cmp.Compare(s.eVtS.At(a), s.eVtS.At(b))
	})
	d := bt.NewDigester()
	for _, v := range ids {
		ev := s.EdgeVersion(v)
		d.Edge(&ev)
	}
	nodes := make([]uint32, len(s.nodes))
	for i := range nodes {
		nodes[i] = uint32(i)
	}
	slices.SortFunc(nodes, func(a, b uint32) int {
		na, nb := &s.nodes[a], &s.nodes[b]
		if c := cmp.Compare(uidRank[na.uid], uidRank[nb.uid]); c != 0 {
			return c
		}
		if c := cmp.Compare(na.tts, nb.tts); c != 0 {
			return c
		}
		return cmp.Compare(na.valid.Start, nb.valid.Start)
	})
	for _, r := range nodes {
		nv := s.nodeVersion(r)
		d.Node(&nv)
	}
	return d.Sum()
}

// ranks returns, for each string, its position in byte order.
func ranks(ss []string) []uint32 {
	order := make([]uint32, len(ss))
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(a, b uint32) int {
		switch {
		case ss[a] < ss[b]:
			return -1
		case ss[a] > ss[b]:
			return 1
		}
		return 0
	})
	r := make([]uint32, len(ss))
	for pos, i := range order {
		r[i] = uint32(pos)
	}
	return r
}

// Stats summarizes a store.
type Stats struct {
	Nodes        int      `json:"nodes"`
	NodeVersions int      `json:"node_versions"`
	EdgeVersions int      `json:"edge_versions"`
	Batches      uint64   `json:"batches"`
	LastTT       bt.Time  `json:"last_tt"`
	VtMin        bt.Time  `json:"vt_min"`
	VtMax        bt.Time  `json:"vt_max"`
	RelTypes     []string `json:"rel_types"`
}

// Stats summarizes the store. The valid-time extent runs from the earliest
// edge start to the latest edge end over all edge versions, superseded ones
// included (an open end counts as its start + 1); both are 0 when there are
// no edges.
func (s *Store) Stats() Stats {
	st := Stats{
		Nodes: len(s.uids.s), NodeVersions: len(s.nodes), EdgeVersions: s.eVtS.Len(),
		Batches: s.Batches(), LastTT: s.LastTT(), RelTypes: slices.Sorted(slices.Values(s.rels.s)),
	}
	st.VtMin, st.VtMax = s.vtMin, s.vtMax
	if st.RelTypes == nil {
		st.RelTypes = []string{}
	}
	return st
}

// MemoryBytes estimates the bytes the store's columns and indexes hold.
func (s *Store) MemoryBytes() int64 {
	var b int64
	b += int64(s.eSrc.cap()+s.eDst.cap()+s.eRel.cap()+s.eDisc.cap()+s.eTTe.cap()+s.eProps.cap()) * 4
	b += int64(s.eVtS.cap()+s.eVtE.cap()) * 8
	b += int64(s.eOps.cap())
	for i := range s.out {
		b += int64(cap(s.out[i])+cap(s.in[i])) * 4
	}
	for _, c := range s.byStart.classes {
		b += int64(cap(c.main)+cap(c.delta)) * 4
	}
	return b
}
