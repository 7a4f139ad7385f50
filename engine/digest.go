package engine

import (
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
	// One integer sort key per version: (src, dst) ranks, (rel rank, disc
	// key), tt_s, vt_s. A store-assigned disc's key is its global auto
	// index, which orders by (batch, n) and sorts before explicit discs.
	type key struct {
		ends, relDisc uint64
		vts           int64
		tts, v        uint32
	}
	n := s.eVtS.Len()
	keys := make([]key, n)
	seq := uint32(1)
	for i := range n {
		v := uint32(i)
		for s.edgeEnd[seq] <= v {
			seq++
		}
		disc := uint64(s.discIn(v, seq))
		if disc&autoBit != 0 {
			disc &^= autoBit
		} else {
			disc = 1<<32 | uint64(discRank[disc])
		}
		keys[i] = key{
			ends:    uint64(uidRank[s.eSrc.At(v)])<<32 | uint64(uidRank[s.eDst.At(v)]),
			relDisc: uint64(relRank[s.eRel.At(v)])<<33 | disc,
			vts:     s.eVtS.At(v), tts: seq, v: v,
		}
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(a.ends, b.ends), cmp.Compare(a.relDisc, b.relDisc), cmp.Compare(a.tts, b.tts), cmp.Compare(a.vts, b.vts))
	})
	ids := make([]uint32, n)
	for i := range keys {
		ids[i] = keys[i].v
	}
	keys = nil
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
	Card         *Card    `json:"card,omitempty"` // filled by callers that describe the dataset (Store.Card)

	// Replication is filled by a read replica of a PostgreSQL store.
	Replication *Replication `json:"replication,omitempty"`
}

// Replication is a read replica's position against the database it
// follows: the last batch it applied and the last the database held.
type Replication struct {
	AppliedTT  bt.Time `json:"applied_tt"`
	DatabaseTT bt.Time `json:"database_tt"`
	BehindUS   int64   `json:"behind_us"`  // database_tt - applied_tt
	CheckedAt  string  `json:"checked_at"` // when the database was last asked (RFC 3339)
	Connected  bool    `json:"connected"`  // connected and listening for new batches
	Error      string  `json:"error,omitempty"`
}

// Counts are the sizes and valid-time extent of Stats, without the rel-type
// list: what every query reads, at no allocation.
type Counts struct {
	Nodes, NodeVersions, EdgeVersions int
	VtMin, VtMax                      bt.Time
}

// Counts returns the store's sizes and valid-time extent, as in Stats.
func (s *Store) Counts() Counts {
	return Counts{Nodes: len(s.uids.s), NodeVersions: len(s.nodes), EdgeVersions: s.eVtS.Len(), VtMin: s.vtMin, VtMax: s.vtMax}
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
