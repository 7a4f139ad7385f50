package engine

import (
	"encoding/hex"
	"math/bits"
	"slices"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// Erased versions (bitemporal.OpErase) keep their row; their label and
// props point at the empty entries of the string tables, and the hash of
// what they held is kept in nodeErased / edgeErased, by row and version
// id. Both maps are empty in a store that never erased anything, and the
// checkpoint then keeps its version 3 layout. An erase empties rows but
// does not renumber the string tables, which keep the erased strings until
// the store is rebuilt from a log without them (as tgms.DB.Erase does
// before it checkpoints).

// AllNodeVersions implements bitemporal.ErasureView.
func (s *Store) AllNodeVersions(uid string) []bt.NodeHit {
	id, ok := s.uids.lookup(uid)
	if !ok {
		return nil
	}
	out := make([]bt.NodeHit, 0, len(s.nodeHist[id]))
	for _, r := range s.nodeHist[id] {
		out = append(out, bt.NodeHit{H: bt.Handle(r), V: s.nodeVersion(r)})
	}
	return out
}

// AllIncidentEdges implements bitemporal.ErasureView.
func (s *Store) AllIncidentEdges(uid string) []bt.EdgeHit {
	id, ok := s.uids.lookup(uid)
	if !ok {
		return nil
	}
	var out []bt.EdgeHit
	for _, v := range s.out[id] {
		out = append(out, bt.EdgeHit{H: bt.Handle(v), V: s.EdgeVersion(v)})
	}
	for _, v := range s.in[id] {
		if s.eSrc.At(v) != id { // a self-loop is in both lists
			out = append(out, bt.EdgeHit{H: bt.Handle(v), V: s.EdgeVersion(v)})
		}
	}
	return out
}

// NumErased is the number of erased node and edge versions.
func (s *Store) NumErased() (nodes, edges int) { return len(s.nodeErased), len(s.edgeErased) }

// applyErase empties the versions an erase effect names.
func (s *Store) applyErase(eff *bt.Effect) {
	if len(eff.Erase) == 0 {
		return
	}
	if s.nodeErased == nil {
		s.nodeErased = map[uint32]string{}
	}
	if s.edgeErased == nil {
		s.edgeErased = map[uint32]string{}
	}
	empty := s.labels.intern("")
	for _, e := range eff.Erase {
		if e.Node {
			n := &s.nodes[e.H]
			n.label, n.props = empty, 0
			s.nodeErased[uint32(e.H)] = e.Hash
			continue
		}
		s.eProps.clear(uint32(e.H))
		s.edgeErased[uint32(e.H)] = e.Hash
	}
}

// clear makes row i hold the empty property bag (props table entry 0).
func (c *sparse) clear(i uint32) {
	if len(c.vals) == 0 {
		return
	}
	w := c.words[i>>5]
	b := uint32(1) << (i & 31)
	if uint32(w)&b != 0 {
		c.vals[uint32(w>>32)+uint32(bits.OnesCount32(uint32(w)&(b-1)))] = 0
	}
}

// ckptVersionErased is the checkpoint version of a store with erased
// versions: version 4 followed by the erased section (see doc.go).
const ckptVersionErased = 5

func (s *Store) hasErased() bool { return len(s.nodeErased)+len(s.edgeErased) > 0 }

func sortedKeys(m map[uint32]string) []uint32 {
	ks := make([]uint32, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// encodeErased writes the erased section: for node rows, then for edge
// versions, a uvarint count and per entry the uvarint distance from the
// previous entry's index (the first: the index + 1) and the 32-byte hash.
func (s *Store) encodeErased(c *ckptWriter) {
	for _, m := range []map[uint32]string{s.nodeErased, s.edgeErased} {
		ks := sortedKeys(m)
		c.uvarint(uint64(len(ks)))
		prev := int64(-1)
		for _, k := range ks {
			c.uvarint(uint64(int64(k) - prev))
			prev = int64(k)
			h, _ := hex.DecodeString(m[k])
			c.write(h)
		}
	}
}

func (s *Store) decodeErased(r *ckptReader) {
	limits := []int{len(s.nodes), s.eVtS.Len()}
	for part := range 2 {
		n := r.count(33)
		if r.err != nil {
			return
		}
		m := make(map[uint32]string, n)
		prev := int64(-1)
		for range n {
			d := r.uvarint()
			if r.err != nil {
				return
			}
			if d == 0 || d > uint64(limits[part]) || prev+int64(d) >= int64(limits[part]) {
				r.fail("erased version index out of range")
				return
			}
			prev += int64(d)
			if r.off+32 > len(r.b) {
				r.fail("truncated erased version hash")
				return
			}
			k := uint32(prev)
			if part == 0 && (s.labels.s[s.nodes[k].label] != "" || s.nodes[k].props != 0) ||
				part == 1 && s.propsOf(k) != 0 {
				r.fail("an erased version still has content")
				return
			}
			m[k] = hex.EncodeToString(r.b[r.off : r.off+32])
			r.off += 32
		}
		if part == 0 {
			s.nodeErased = m
		} else {
			s.edgeErased = m
		}
	}
}

// ErasedUIDs lists the uids that have erased node versions, sorted.
func (s *Store) ErasedUIDs() []string {
	seen := map[string]bool{}
	for r := range s.nodeErased {
		seen[s.uids.s[s.nodes[r].uid]] = true
	}
	out := make([]string, 0, len(seen))
	for u := range seen {
		out = append(out, u)
	}
	slices.Sort(out)
	return out
}

// ErasedEdges reports whether any edge version incident to uid is erased.
func (s *Store) ErasedEdges(uid string) bool {
	for v := range s.edgeErased {
		if s.uids.s[s.eSrc.At(v)] == uid || s.uids.s[s.eDst.At(v)] == uid {
			return true
		}
	}
	return false
}

// SharedTexts returns the texts that occur in the label or props of some
// version other than those an erase of uid (with edges: and of its
// incident edges) empties: erasing uid cannot remove them from the store.
func (s *Store) SharedTexts(texts []string, uid string, edges bool) map[string]bool {
	id, _ := s.uids.lookup(uid)
	labels := map[uint32]bool{}
	props := map[uint32]bool{}
	for r := range s.nodes {
		if n := &s.nodes[r]; n.uid != id {
			labels[n.label], props[n.props] = true, true
		}
	}
	for v := range uint32(s.eVtS.Len()) {
		if !edges || s.eSrc.At(v) != id && s.eDst.At(v) != id {
			props[s.propsOf(v)] = true
		}
	}
	out := map[string]bool{}
	for _, t := range texts {
		for l := range labels {
			if strings.Contains(s.labels.s[l], t) {
				out[t] = true
			}
		}
		for p := range props {
			if !out[t] && strings.Contains(s.props.s[p], t) {
				out[t] = true
			}
		}
	}
	return out
}
