package engine

import (
	"math/bits"
	"unsafe"
)

// MemoryPart is the resident size of one structure of a store.
type MemoryPart struct {
	Name  string
	Bytes int64
}

// Memory breaks the bytes the store holds down by structure: every column,
// index and table, counted by capacity (slack included) with slice headers.
// Map sizes are estimates from their entry counts; the node text index
// (reported by NodeTextBytes) and the node bounds index (8 bytes a node
// version) are left out: both are built on first use.
func (s *Store) Memory() []MemoryPart {
	colBytes := func(n int, width int64) int64 { return int64(n)*width + 24 }
	var out, in int64
	for i := range s.out {
		out += int64(cap(s.out[i]))*4 + 24
		in += int64(cap(s.in[i]))*4 + 24
	}
	var byStart int64
	for _, c := range s.byStart.classes {
		byStart += int64(cap(c.main)+cap(c.delta)) * 4
	}
	explicit := mapBytes(len(s.explicit), int64(unsafe.Sizeof(identKey{}))+24)
	for _, l := range s.explicit {
		explicit += int64(cap(l)) * 4
	}
	auto := mapBytes(len(s.autoMore), 4+24) + mapBytes(len(s.autoIrregular), 8)
	for _, l := range s.autoMore {
		auto += int64(cap(l)) * 4
	}
	auto += int64(cap(s.autoBase)) * 4
	nodes := int64(cap(s.nodes))*int64(unsafe.Sizeof(nodeRow{})) + int64(cap(s.uidSeq)+cap(s.nodeOpen))*4
	for _, h := range s.nodeHist {
		nodes += int64(cap(h))*4 + 24
	}
	var strs int64
	for _, t := range []*strTable{&s.uids, &s.labels, &s.rels, &s.discs, &s.props} {
		strs += int64(cap(t.s))*16 + t.ix.Bytes()
		for _, x := range t.s {
			strs += int64(len(x))
		}
	}
	batches := int64(cap(s.batchTT))*8 + int64(cap(s.batchAuto)+cap(s.edgeEnd))*4 + s.prov.bytes()
	return []MemoryPart{
		{"src", colBytes(s.eSrc.cap(), 4)},
		{"dst", colBytes(s.eDst.cap(), 4)},
		{"rel", colBytes(s.eRel.cap(), 4)},
		{"disc", s.eDisc.bytes()},
		{"vt_s", colBytes(s.eVtS.cap(), 8)},
		{"vt_e", s.eVtE.bytes()},
		{"tt_e", colBytes(s.eTTe.cap(), 4)},
		{"props", s.eProps.bytes()},
		{"ops", colBytes(s.eOps.cap(), 1)},
		{"out", out},
		{"in", in},
		{"interval", byStart},
		{"explicit", explicit},
		{"auto", auto},
		{"nodes", nodes},
		{"strings", strs},
		{"batches", batches},
	}
}

// MemoryBytes is the sum of Memory.
func (s *Store) MemoryBytes() int64 {
	var b int64
	for _, p := range s.Memory() {
		b += p.Bytes
	}
	return b
}

// mapBytes estimates a Go map of n entries of kv bytes each: groups of
// eight slots plus a control word, at most 7/8 full, in power-of-two
// tables.
func mapBytes(n int, kv int64) int64 {
	if n == 0 {
		return 0
	}
	groups := (n + 6) / 7
	groups = 1 << bits.Len(uint(groups-1))
	return int64(groups) * (8 + 8*kv)
}
