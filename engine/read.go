package engine

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
)

// Reader is a read view of a Store pinned at one belief state: it sees
// exactly the versions believed as of its transaction time, whatever is
// written later. Readers are cheap values. The caller must keep writers out
// while it reads (DB does this).
type Reader struct {
	s      *Store
	seq    uint32
	vLimit uint32 // edge versions below this id were written at or before seq
	asOf   bt.Time
}

// Reader returns a view pinned at asOf (clamped; OpenEnd means the latest
// belief).
func (s *Store) Reader(asOf bt.Time) Reader {
	seq := s.SeqAt(asOf)
	return Reader{s: s, seq: seq, vLimit: s.edgeEnd[seq], asOf: bt.ClampTT(asOf)}
}

// AsOf is the pinned transaction time.
func (r Reader) AsOf() bt.Time { return r.asOf }

// Store returns the underlying store.
func (r Reader) Store() *Store { return r.s }

// Believed reports whether edge version v is believed at the pinned time.
func (r Reader) Believed(v uint32) bool {
	return v < r.vLimit && r.seq < r.s.eTTe.At(v)
}

// Node resolves a uid to its dense node id. A uid registered after the
// pinned belief time is unknown to the reader.
func (r Reader) Node(uid string) (uint32, bool) {
	id, ok := r.s.uids.lookup(uid)
	if !ok || r.s.uidSeq[id] > r.seq {
		return 0, false
	}
	return id, true
}

// Known reports whether dense node id was registered at the pinned time.
func (r Reader) Known(id uint32) bool { return r.s.uidSeq[id] <= r.seq }

// UID is the uid of a dense node id.
func (r Reader) UID(id uint32) string { return r.s.uids.s[id] }

// NumNodes is the number of known uids (dense ids are 0..NumNodes-1).
func (r Reader) NumNodes() int { return len(r.s.uids.s) }

// NodeHistory returns the node versions of id believed at the pinned time,
// sorted by valid start.
func (r Reader) NodeHistory(id uint32) []bt.NodeVersion {
	var out []bt.NodeVersion
	for _, i := range r.s.nodeHist[id] {
		n := &r.s.nodes[i]
		if n.tts <= r.seq && r.seq < n.tte {
			out = append(out, r.s.nodeVersion(i))
		}
	}
	slices.SortFunc(out, func(a, b bt.NodeVersion) int { return cmp.Compare(a.Valid.Start, b.Valid.Start) })
	return out
}

// filter keeps the believed versions of list, appending them to dst.
func (r Reader) filter(dst, list []uint32) []uint32 {
	if dst == nil {
		dst = make([]uint32, 0, len(list))
	}
	for _, v := range list {
		if r.Believed(v) {
			dst = append(dst, v)
		}
	}
	return dst
}

// keep filters a list the caller owns in place.
func (r Reader) keep(list []uint32) []uint32 {
	out := list[:0]
	for _, v := range list {
		if r.Believed(v) {
			out = append(out, v)
		}
	}
	return out
}

// Out returns the believed out-edges of node id, sorted by (vt_s, id).
func (r Reader) Out(id uint32) []uint32 { return r.filter(nil, r.s.out[id]) }

// In returns the believed in-edges of node id, sorted by (vt_s, id).
func (r Reader) In(id uint32) []uint32 { return r.filter(nil, r.s.in[id]) }

// EdgesOverlapping returns the believed edge versions whose valid interval
// overlaps iv, sorted by (vt_s, id).
func (r Reader) EdgesOverlapping(iv bt.Interval) []uint32 {
	return r.keep(r.s.byStart.overlapping(nil, iv.Start, iv.End))
}

// EdgesValidAt returns the believed edge versions valid at t.
func (r Reader) EdgesValidAt(t bt.Time) []uint32 {
	return r.EdgesOverlapping(bt.Interval{Start: t, End: t + 1})
}

// EdgesStartingIn returns the believed edge versions whose valid start lies
// in iv (events in a window), sorted by (vt_s, id).
func (r Reader) EdgesStartingIn(iv bt.Interval) []uint32 {
	return r.keep(r.s.byStart.startingIn(nil, iv.Start, iv.End))
}

// EdgeKey is edge version v's identity key, without the rest of the
// version.
func (r Reader) EdgeKey(v uint32) bt.EdgeKey {
	s := r.s
	return bt.EdgeKey{Src: s.uids.s[s.eSrc.At(v)], Dst: s.uids.s[s.eDst.At(v)], RelType: s.rels.s[s.eRel.At(v)], Disc: s.discString(v, s.edgeSeq(v))}
}

// Edge materializes edge version v.
func (r Reader) Edge(v uint32) bt.EdgeVersion { return r.s.EdgeVersion(v) }

// Src, Dst are the dense endpoint ids of edge version v.
func (r Reader) Src(v uint32) uint32 { return r.s.eSrc.At(v) }

// Dst is the dense destination id of edge version v.
func (r Reader) Dst(v uint32) uint32 { return r.s.eDst.At(v) }

// Valid is the valid interval of edge version v.
func (r Reader) Valid(v uint32) bt.Interval {
	return r.s.valid(v)
}

// RelType is the relation type of edge version v.
func (r Reader) RelType(v uint32) string { return r.s.rels.s[r.s.eRel.At(v)] }

// Props is the property bag of edge version v.
func (r Reader) Props(v uint32) bt.Props { return bt.Props(r.s.props.s[r.s.propsOf(v)]) }

// EID is the edge identity id: the first 24 hex digits of the SHA-256 of the
// canonical JSON array [src, dst, rel_type, disc].
func EID(k bt.EdgeKey) string {
	b := make([]byte, 0, 64)
	b = append(b, '[')
	b = canon.AppendString(b, k.Src)
	b = append(b, ',')
	b = canon.AppendString(b, k.Dst)
	b = append(b, ',')
	b = canon.AppendString(b, k.RelType)
	b = append(b, ',')
	b = canon.AppendString(b, k.Disc)
	b = append(b, ']')
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
}

// VID is the version id: the first 24 hex digits of the SHA-256 of
// "<identity>:<tt_s>:<vt_s>", identity being the uid or the EID.
func VID(identity string, tts, vts bt.Time) string {
	b := make([]byte, 0, 64)
	b = append(b, identity...)
	b = append(b, ':')
	b = strconv.AppendInt(b, tts, 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, vts, 10)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
}

// AutoEdge returns the identity of the i-th store-assigned edge of batch
// seq ("#<seq>.<i>"), if there is one.
func (s *Store) AutoEdge(seq uint64, i int64) (bt.EdgeKey, bool) {
	g, ok := s.autoIndex(seq, i)
	if !ok {
		return bt.EdgeKey{}, false
	}
	v := s.autoFirst(seq, g)
	if v == NoVersion {
		return bt.EdgeKey{}, false
	}
	return s.EdgeVersion(v).Key, true
}

// Continues reports whether believed edge version v continues another
// believed version of the same identity (one that ends exactly where v
// starts): a fragment left by carving an interval, not a new occurrence.
// Event-counting operators count an occurrence once, at the start of its
// first fragment.
func (r Reader) Continues(v uint32) bool {
	s := r.s
	if s.eOps.At(v)&followsBit == 0 {
		return false
	}
	start := s.eVtS.At(v)
	for _, w := range s.identityOf(v) {
		if w != v && r.Believed(w) && s.end(w, s.eVtS.At(w)) == start { // belief first: it is one column read
			return true
		}
	}
	return false
}

// IdentityVersions returns every stored version of the identity of edge
// version v (believed or not), v included.
func (r Reader) IdentityVersions(v uint32) []uint32 { return r.s.identityOf(v) }

// IdentityMin is the smallest version id of edge version v's identity
// (believed or not): the same for all its versions and distinct across
// identities, found without building the list.
func (r Reader) IdentityMin(v uint32) uint32 { return r.s.identityMin(v) }

// BatchTT is the transaction time of batch seq (0 if there is no such batch).
func (s *Store) BatchTT(seq uint64) bt.Time {
	if seq >= uint64(len(s.batchTT)) {
		return 0
	}
	return s.batchTT[seq]
}

// EachStartingIn calls fn for every believed edge version whose valid start
// lies in iv, in no particular order and without building a list: the
// cheapest way to aggregate over the events of a window.
func (r Reader) EachStartingIn(iv bt.Interval, fn func(v uint32)) {
	r.s.byStart.each(iv.Start, iv.End, false, func(v uint32) {
		if r.Believed(v) {
			fn(v)
		}
	})
}

// EachOverlapping calls fn for every believed edge version whose valid
// interval overlaps iv, in no particular order and without building a list.
func (r Reader) EachOverlapping(iv bt.Interval, fn func(v uint32)) {
	r.s.byStart.each(iv.Start, iv.End, true, func(v uint32) {
		if r.Believed(v) {
			fn(v)
		}
	})
}

// RelID is the store's dense id of the relation type of edge version v
// (ids are below the number of relation types the store has seen).
func (r Reader) RelID(v uint32) uint32 { return r.s.eRel.At(v) }

// RelName is the relation type with dense id id.
func (r Reader) RelName(id uint32) string { return r.s.rels.s[id] }

// NodeVersion materializes stored node version i (0 <= i <
// NumNodeVersions()), believed or not: exporters read the whole table.
func (s *Store) NodeVersion(i int) bt.NodeVersion { return s.nodeVersion(uint32(i)) }

// CountNodeVersions is the number of node versions of id believed at the
// pinned time (the length of NodeHistory, without building it).
func (r Reader) CountNodeVersions(id uint32) int {
	n := 0
	for _, i := range r.s.nodeHist[id] {
		if v := &r.s.nodes[i]; v.tts <= r.seq && r.seq < v.tte {
			n++
		}
	}
	return n
}

// EachNodeVersion calls fn for every node version of id believed at the
// pinned time, in stored order (NodeHistory sorts them), without building
// a list.
func (r Reader) EachNodeVersion(id uint32, fn func(nv bt.NodeVersion)) {
	for _, i := range r.s.nodeHist[id] {
		n := &r.s.nodes[i]
		if n.tts <= r.seq && r.seq < n.tte {
			fn(r.s.nodeVersion(i))
		}
	}
}

// LatestNodeVersion is the label and property bag of id's latest node
// version believed at the pinned time, by (vt_s, vid), and how many
// versions of id are believed (0: none; label and props are then empty).
// Only the latest version is read out of the columns.
func (r Reader) LatestNodeVersion(id uint32) (label string, props bt.Props, believed int) {
	var best *nodeRow
	for _, i := range r.s.nodeHist[id] {
		n := &r.s.nodes[i]
		if n.tts > r.seq || r.seq >= n.tte {
			continue
		}
		believed++
		if best == nil || n.valid.Start > best.valid.Start ||
			n.valid.Start == best.valid.Start && r.s.nodeVID(n) > r.s.nodeVID(best) {
			best = n
		}
	}
	if best == nil {
		return "", "", 0
	}
	return r.s.labels.s[best.label], bt.Props(r.s.props.s[best.props]), believed
}

// nodeVID is the vid of node row n.
func (s *Store) nodeVID(n *nodeRow) string {
	return VID(s.uids.s[n.uid], s.seqTT(n.tts), n.valid.Start)
}
