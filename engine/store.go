package engine

import (
	"fmt"
	"math"
	"slices"
	"sort"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/internal/strtab"
)

// openSeq marks a version that no batch has closed.
const openSeq = math.MaxUint32

// autoBit marks a disc column value as a store-assigned discriminator: the
// low 31 bits are its global auto index.
const autoBit = 1 << 31

// followsBit in the ops column marks a version that starts where another
// version of its identity ends, the only ones that can continue a fragment,
// so the search for one (Reader.Continues) is skipped for every other
// version. Stores written before it marked every version whose
// identity has others: a superset, which only costs reads.
const followsBit = 0x08

// NoVersion is the version id that names nothing.
const NoVersion = math.MaxUint32

// strTable numbers distinct strings in order of first interning.
type strTable struct {
	s  []string
	ix strtab.Index
}

func newStrTable(first ...string) strTable {
	var t strTable
	for _, s := range first {
		t.intern(s)
	}
	return t
}

// strTableOf is the table of ss, as a checkpoint lists it.
func strTableOf(ss []string) strTable { return strTable{s: ss, ix: strtab.Of(ss)} }

func (t *strTable) intern(s string) uint32 {
	id, added := t.ix.Add(t.s, s)
	if added {
		t.s = append(t.s, s)
	}
	return id
}

func (t *strTable) lookup(s string) (uint32, bool) { return t.ix.Find(t.s, s) }

type nodeRow struct {
	uid, label, props uint32
	valid             bt.Interval
	tts, tte          uint32 // batch sequence numbers; tte == openSeq while believed
	created, closed   bt.OpKind
}

type identKey struct{ src, dst, rel, disc uint32 }

// Store is the in-memory native engine: every node and edge version in
// compact columns, with the indexes reads need. It is not safe for
// concurrent use on its own; DB serializes writers and lets readers in
// through Store.Read.
type Store struct {
	uids, labels, rels, discs, props strTable

	batchTT   []bt.Time // batchTT[seq]; batchTT[0] = 0
	batchAuto []uint32  // first global auto index of batch seq; batchAuto[len] is the next one
	prov      provTable // the provenance of every batch
	kinds     propKinds // property types in use (see PropKinds)

	uidSeq   []uint32 // per node id: the batch that registered the uid
	nodes    []nodeRow
	nodeHist [][]uint32 // per node id: node row indexes in insertion order
	nodeOpen []uint32   // per node id: how many of its versions are believed

	eSrc, eDst, eRel col[uint32]
	eVtS             col[int64]
	eTTe             col[uint32] // closing batch seq, openSeq while believed
	edgeEnd          []uint32    // edgeEnd[seq]: edge versions stored after batch seq; tt_s is implicit
	eOps             col[uint8]  // created | followsBit | closed<<4
	eVtE             endCol      // about a byte per version (see endCol)

	// Columns most versions need not store (see sparse): the disc where
	// the batch's auto bookkeeping does not give it (see disc), and
	// non-empty props.
	eDisc  sparse
	eProps sparse

	// The first version of a store-assigned identity: for a regular batch
	// (its auto events stored contiguously, in order) autoBase[seq] + n;
	// otherwise autoIrregular[g].
	autoBase      []uint32
	autoIrregular map[uint32]uint32
	autoMore      map[uint32][]uint32 // further versions of store-assigned identities
	explicit      map[identKey][]uint32

	vtMin, vtMax bt.Time // valid-time extent of all edge versions (see Stats)
	maxStart     bt.Time // the largest vt_s of any edge version (0 when none)

	out, in [][]uint32 // per node id: edge version ids sorted by (vt_s, id)
	byStart classIndex // all edge versions by (duration class, vt_s)

	nodeErased, edgeErased map[uint32]string // erased versions: content hash by row / version id (see erase.go)

	text   nodeTextCache   // built on first use (see nodetext.go)
	bounds nodeBoundsCache // node rows by valid bounds, built on first use (see bounds.go)
	vids   nodeVIDCache    // node version ids, computed on first use (see nodevid.go)
	eids   edgeIDCache     // recently read edge ids, remembered (see edgevid.go)
}

// New returns an empty store.
func New() *Store {
	s := &Store{
		uids: newStrTable(), labels: newStrTable(), rels: newStrTable(),
		discs: newStrTable(), props: newStrTable(""),
		batchTT: []bt.Time{0}, batchAuto: []uint32{0, 0}, edgeEnd: []uint32{0}, prov: newProvTable(),
		autoBase: []uint32{NoVersion}, autoIrregular: map[uint32]uint32{},
		autoMore: map[uint32][]uint32{}, explicit: map[identKey][]uint32{},
	}
	s.byStart.s = s
	return s
}

// Batches is the number of applied batches (the last sequence number).
func (s *Store) Batches() uint64 { return uint64(len(s.batchTT) - 1) }

// LastTT is the transaction time of the last applied batch (0 when empty).
func (s *Store) LastTT() bt.Time { return s.batchTT[len(s.batchTT)-1] }

// NumNodes is the number of known uids.
func (s *Store) NumNodes() int { return len(s.uids.s) }

// NumNodeVersions is the number of stored node versions.
func (s *Store) NumNodeVersions() int { return len(s.nodes) }

// NumEdgeVersions is the number of stored edge versions.
func (s *Store) NumEdgeVersions() int { return s.eVtS.Len() }

// seqTT maps a batch sequence number to its transaction time (OpenEnd for openSeq).
func (s *Store) seqTT(seq uint32) bt.Time {
	if seq == openSeq {
		return bt.OpenEnd
	}
	return s.batchTT[seq]
}

// SeqAt returns the number of batches whose transaction time is <= asOf
// (after clamping): the belief state a read pinned at asOf sees.
func (s *Store) SeqAt(asOf bt.Time) uint32 {
	c := bt.ClampTT(asOf)
	n := sort.Search(len(s.batchTT), func(i int) bool { return s.batchTT[i] > c })
	return uint32(n - 1)
}

// --- bitemporal.View -------------------------------------------------------

// NodeKnown implements bitemporal.View.
func (s *Store) NodeKnown(uid string) bool { _, ok := s.uids.lookup(uid); return ok }

// BelievedNodes implements bitemporal.View.
func (s *Store) BelievedNodes(uid string, iv bt.Interval) []bt.NodeHit {
	id, ok := s.uids.lookup(uid)
	if !ok {
		return nil
	}
	var out []bt.NodeHit
	for _, r := range s.nodeHist[id] {
		n := &s.nodes[r]
		if n.tte == openSeq && n.valid.Overlaps(iv) {
			out = append(out, bt.NodeHit{H: bt.Handle(r), V: s.nodeVersion(r)})
		}
	}
	return out
}

// HasBelievedNode implements bitemporal.View.
func (s *Store) HasBelievedNode(uid string) bool {
	id, ok := s.uids.lookup(uid)
	if !ok {
		return false
	}
	return s.nodeOpen[id] > 0
}

// NodeIndex implements bitemporal.NodeIndexer.
func (s *Store) NodeIndex(uid string) (id uint32, known, believed bool) {
	id, ok := s.uids.lookup(uid)
	if !ok {
		return 0, false, false
	}
	return id, true, s.nodeOpen[id] > 0
}

// NodeStart implements bitemporal.NodeStarter.
func (s *Store) NodeStart(id uint32) (bt.Time, bool) {
	var start bt.Time
	found := false
	for _, r := range s.nodeHist[id] {
		if n := &s.nodes[r]; n.tte == openSeq && (!found || n.valid.Start < start) {
			start, found = n.valid.Start, true
		}
	}
	return start, found
}

// EdgeKnown implements bitemporal.View.
func (s *Store) EdgeKnown(k bt.EdgeKey) bool { return len(s.identVersions(k)) > 0 }

// BelievedEdges implements bitemporal.View.
func (s *Store) BelievedEdges(k bt.EdgeKey, iv bt.Interval) []bt.EdgeHit {
	var out []bt.EdgeHit
	for _, v := range s.identVersions(k) {
		if s.eTTe.At(v) == openSeq && s.valid(v).Overlaps(iv) {
			out = append(out, bt.EdgeHit{H: bt.Handle(v), V: s.EdgeVersion(v)})
		}
	}
	return out
}

// identVersions returns every version id of an edge identity.
func (s *Store) identVersions(k bt.EdgeKey) []uint32 {
	src, ok1 := s.uids.lookup(k.Src)
	dst, ok2 := s.uids.lookup(k.Dst)
	rel, ok3 := s.rels.lookup(k.RelType)
	if !ok1 || !ok2 || !ok3 {
		return nil
	}
	if seq, i, ok := bt.ParseAutoDisc(k.Disc); ok {
		g, ok := s.autoIndex(seq, i)
		if !ok {
			return nil
		}
		first := s.autoFirst(seq, g)
		if first == NoVersion || s.eSrc.At(first) != src || s.eDst.At(first) != dst || s.eRel.At(first) != rel {
			return nil
		}
		return append([]uint32{first}, s.autoMore[g]...)
	}
	disc, ok := s.discs.lookup(k.Disc)
	if !ok {
		return nil
	}
	return s.explicit[identKey{src, dst, rel, disc}]
}

func (s *Store) autoIndex(seq uint64, i int64) (uint32, bool) {
	if seq == 0 || seq >= uint64(len(s.batchTT)) {
		return 0, false
	}
	g := uint64(s.batchAuto[seq]) + uint64(i)
	if g >= uint64(s.batchAuto[seq+1]) {
		return 0, false
	}
	return uint32(g), true
}

// Disc returns the discriminator string of edge version v.
func (s *Store) Disc(v uint32) string { return s.discString(v, s.edgeSeq(v)) }

// discString is Disc for a version v of batch seq.
func (s *Store) discString(v, seq uint32) string {
	d := s.discIn(v, seq)
	if d&autoBit == 0 {
		return s.discs.s[d]
	}
	g := d &^ autoBit
	// The batch whose auto range holds g: mostly v's own.
	if g < s.batchAuto[seq] || g >= s.batchAuto[seq+1] {
		seq = uint32(sort.Search(len(s.batchAuto), func(i int) bool { return s.batchAuto[i] > g }) - 1)
	}
	return bt.AutoDisc(uint64(seq), int64(g-s.batchAuto[seq]))
}

// disc is the disc column's value for edge version v: an explicit disc's
// table index, or autoBit | the global auto index.
func (s *Store) disc(v uint32) uint32 { return s.discIn(v, s.edgeSeq(v)) }

// discIn is disc for a version v of batch seq. The column stores only the
// discs that derivedDisc does not give.
func (s *Store) discIn(v, seq uint32) uint32 {
	if d, ok := s.eDisc.Get(v); ok {
		return d
	}
	d, _ := s.derivedDisc(v, seq)
	return d
}

// derivedDisc is the disc of version v of batch seq when the batch's
// auto bookkeeping gives it: in a regular batch (see setAutoFirsts) the
// first versions of its store-assigned identities are contiguous, from
// autoBase[seq], in auto index order.
func (s *Store) derivedDisc(v, seq uint32) (uint32, bool) {
	base := s.autoBase[seq]
	if base == NoVersion || v < base || v-base >= s.batchAuto[seq+1]-s.batchAuto[seq] {
		return 0, false
	}
	return autoBit | (s.batchAuto[seq] + (v - base)), true
}

// appendDiscs appends the discs of batch seq's edge versions, after its
// auto firsts are set, storing only those derivedDisc does not give.
func (s *Store) appendDiscs(seq uint32, discs []uint32) {
	v := s.edgeEnd[seq-1]
	for i, d := range discs {
		if dd, ok := s.derivedDisc(v+uint32(i), seq); ok && dd == d {
			s.eDisc.AppendDefault()
		} else {
			s.eDisc.Append(d)
		}
	}
}

// valid is the valid interval of edge version v.
func (s *Store) valid(v uint32) bt.Interval {
	start := s.eVtS.chunks[v>>chunkBits][v&chunkMask]
	return bt.Interval{Start: start, End: s.eVtE.end(v, start)}
}

// end is vt_e of edge version v, whose vt_s is start.
func (s *Store) end(v uint32, start int64) int64 { return s.eVtE.end(v, start) }

// propsOf is the props table index of edge version v (0: none).
func (s *Store) propsOf(v uint32) uint32 {
	p, _ := s.eProps.Get(v)
	return p
}

// EdgeVersion materializes edge version v.
func (s *Store) EdgeVersion(v uint32) bt.EdgeVersion {
	ops := s.eOps.At(v)
	seq := s.edgeSeq(v)
	return bt.EdgeVersion{
		Key:       bt.EdgeKey{Src: s.uids.s[s.eSrc.At(v)], Dst: s.uids.s[s.eDst.At(v)], RelType: s.rels.s[s.eRel.At(v)], Disc: s.discString(v, seq)},
		Props:     bt.Props(s.props.s[s.propsOf(v)]),
		Valid:     s.valid(v),
		TTs:       s.seqTT(seq),
		TTe:       s.seqTT(s.eTTe.At(v)),
		CreatedBy: bt.OpKind(ops & 0x7),
		ClosedBy:  bt.OpKind(ops >> 4),
		Erased:    s.edgeErased[v],
		Prov:      s.prov.of(seq), ClosedProv: s.prov.of(s.eTTe.At(v)),
	}
}

func (s *Store) nodeVersion(r uint32) bt.NodeVersion {
	n := &s.nodes[r]
	return bt.NodeVersion{
		UID: s.uids.s[n.uid], Label: s.labels.s[n.label], Props: bt.Props(s.props.s[n.props]),
		Valid: n.valid, TTs: s.seqTT(n.tts), TTe: s.seqTT(n.tte),
		CreatedBy: n.created, ClosedBy: n.closed,
		Erased: s.nodeErased[r],
		Prov:   s.prov.of(n.tts), ClosedProv: s.prov.of(n.tte),
	}
}

// --- applying effects --------------------------------------------------------

// Apply applies a planned batch. The effect must have been planned against
// this store's current state with Seq == Batches()+1.
func (s *Store) Apply(eff *bt.Effect) error {
	seq := uint32(len(s.batchTT))
	if eff.Seq != uint64(seq) {
		return fmt.Errorf("engine: batch seq %d does not follow %d", eff.Seq, seq-1)
	}
	if eff.TT <= s.LastTT() {
		return fmt.Errorf("engine: batch tt %d is not after the last batch's %d", eff.TT, s.LastTT())
	}
	autoStart := s.batchAuto[seq]
	if uint64(autoStart)+uint64(eff.NumAuto) >= autoBit {
		return fmt.Errorf("engine: more than 2^31 store-assigned edge identities")
	}
	if uint64(s.eVtS.Len())+uint64(len(eff.Edges)) >= NoVersion {
		return fmt.Errorf("engine: more than 2^32-1 edge versions")
	}
	if err := s.checkEnds(eff); err != nil {
		return err
	}
	s.batchTT = append(s.batchTT, eff.TT)
	s.batchAuto = append(s.batchAuto, autoStart+uint32(eff.NumAuto))
	s.prov.add(eff.Provenance())
	firsts := make([]uint32, eff.NumAuto)
	for i := range firsts {
		firsts[i] = NoVersion
	}
	for _, uid := range eff.NewUIDs {
		s.uids.intern(uid)
		s.uidSeq = append(s.uidSeq, seq)
		s.nodeHist = append(s.nodeHist, nil)
		s.nodeOpen = append(s.nodeOpen, 0)
		s.out = append(s.out, nil)
		s.in = append(s.in, nil)
	}
	for _, c := range eff.CloseNodes {
		n := &s.nodes[c.H]
		n.tte, n.closed = seq, c.By
		s.nodeOpen[n.uid]--
	}
	for _, c := range eff.CloseEdges {
		v := uint32(c.H)
		s.eTTe.Set(v, seq)
		s.eOps.Set(v, s.eOps.At(v)&0xf|uint8(c.By)<<4)
	}
	for i := range eff.Nodes {
		nv := &eff.Nodes[i]
		uid, _ := s.uids.lookup(nv.UID)
		r := uint32(len(s.nodes))
		s.nodes = append(s.nodes, nodeRow{
			uid: uid, label: s.labels.intern(nv.Label), props: s.props.intern(string(nv.Props)),
			valid: nv.Valid, tts: seq, tte: openSeq, created: nv.CreatedBy,
		})
		s.nodeHist[uid] = append(s.nodeHist[uid], r)
		s.nodeOpen[uid]++
	}
	var ends []uint32 // node ids of eff.Ends
	if eff.EdgeEnds != nil {
		ends = make([]uint32, len(eff.Ends))
		for j := range eff.Ends {
			if e := &eff.Ends[j]; e.Known {
				ends[j] = e.ID
			} else {
				ends[j], _ = s.uids.lookup(e.UID)
			}
		}
	}
	var lastRel string
	var lastRelID uint32
	discs := make([]uint32, len(eff.Edges))
	for i := range eff.Edges {
		ne := &eff.Edges[i]
		k := &ne.V.Key
		var src, dst uint32
		if ends != nil && eff.EdgeEnds[2*i] != bt.NoEnd {
			src, dst = ends[eff.EdgeEnds[2*i]], ends[eff.EdgeEnds[2*i+1]]
		} else {
			src, _ = s.uids.lookup(k.Src)
			dst, _ = s.uids.lookup(k.Dst)
		}
		if i == 0 || k.RelType != lastRel {
			lastRel, lastRelID = k.RelType, s.rels.intern(k.RelType)
		}
		v := uint32(s.eVtS.Len())
		var disc uint32
		g, auto := uint32(0), false
		if ne.Auto >= 0 {
			g, auto = autoStart+uint32(ne.Auto), true
		} else if aseq, ai, ok := bt.ParseAutoDisc(k.Disc); ok {
			g, auto = s.autoIndex(aseq, ai)
		}
		if auto {
			disc = autoBit | g
			if g >= autoStart && firsts[g-autoStart] == NoVersion {
				firsts[g-autoStart] = v
			} else {
				s.autoMore[g] = append(s.autoMore[g], v)
			}
		} else {
			disc = s.discs.intern(k.Disc)
			ik := identKey{src, dst, lastRelID, disc}
			s.explicit[ik] = append(s.explicit[ik], v)
		}
		discs[i] = disc
		s.eSrc.Append(src)
		s.eDst.Append(dst)
		s.eRel.Append(lastRelID)
		s.eVtS.Append(ne.V.Valid.Start)
		s.eVtE.Append(ne.V.Valid.Start, ne.V.Valid.End)
		s.eTTe.Append(openSeq)
		if ne.V.Props == "" {
			s.eProps.AppendDefault()
		} else {
			s.eProps.Append(s.props.intern(string(ne.V.Props)))
		}
		s.eOps.Append(uint8(ne.V.CreatedBy))
		// v has the largest id: when no stored version starts later, it
		// sorts last in every (vt_s, id) order.
		last := ne.V.Valid.Start >= s.maxStart
		s.noteExtent(ne.V.Valid)
		if last {
			s.out[src] = append(s.out[src], v)
			s.in[dst] = append(s.in[dst], v)
		} else {
			s.out[src] = s.insertAdj(s.out[src], v)
			s.in[dst] = s.insertAdj(s.in[dst], v)
		}
		s.byStart.insert(v)
	}
	s.edgeEnd = append(s.edgeEnd, uint32(s.eVtS.Len()))
	s.setAutoFirsts(autoStart, firsts)
	s.appendDiscs(seq, discs)
	s.markFollowing(s.edgeEnd[seq-1], s.edgeEnd[seq])
	s.applyErase(eff)
	return nil
}

// checkEnds refuses an effect whose endpoint table (Effect.Ends and
// EdgeEnds) does not fit its edges or this store.
func (s *Store) checkEnds(eff *bt.Effect) error {
	if eff.EdgeEnds == nil {
		return nil
	}
	if len(eff.EdgeEnds) != 2*len(eff.Edges) {
		return fmt.Errorf("engine: batch %d names endpoints for %d edges, it has %d", eff.Seq, len(eff.EdgeEnds)/2, len(eff.Edges))
	}
	for i := 0; i < len(eff.EdgeEnds); i += 2 {
		a, b := eff.EdgeEnds[i], eff.EdgeEnds[i+1]
		if (a == bt.NoEnd) != (b == bt.NoEnd) || a != bt.NoEnd && (a >= uint32(len(eff.Ends)) || b >= uint32(len(eff.Ends))) {
			return fmt.Errorf("engine: batch %d edge %d names endpoints %d and %d of %d", eff.Seq, i/2, a, b, len(eff.Ends))
		}
	}
	for j := range eff.Ends {
		if e := &eff.Ends[j]; e.Known && e.ID >= uint32(len(s.uids.s)) {
			return fmt.Errorf("engine: batch %d endpoint %q has node id %d; the store has %d nodes", eff.Seq, e.UID, e.ID, len(s.uids.s))
		}
	}
	return nil
}

// markFollowing sets followsBit on each version of [from, to) that starts
// where another version of its identity ends, and on each older version
// that starts where one of them ends.
func (s *Store) markFollowing(from, to uint32) {
	for v := from; v < to; v++ {
		s.markFollows(v)
	}
}

// markFollows sets followsBit on v if it starts where another version of
// its identity ends, and on each other version that starts where v ends.
func (s *Store) markFollows(v uint32) {
	if d := s.disc(v); d&autoBit != 0 && len(s.autoMore[d&^autoBit]) == 0 {
		return // a store-assigned identity with this one version
	}
	vs := s.identityOf(v)
	if len(vs) < 2 {
		return
	}
	iv := s.valid(v)
	for _, w := range vs {
		if w == v {
			continue
		}
		if wv := s.valid(w); wv.End == iv.Start {
			s.eOps.Set(v, s.eOps.At(v)|followsBit)
		} else if iv.End == wv.Start {
			s.eOps.Set(w, s.eOps.At(w)|followsBit)
		}
	}
}

// refineFollowing narrows followsBit to the versions that start where
// another of their identity ends: checkpoints of earlier releases set it on every version
// of an identity with several. Only the marked versions are looked at.
func (s *Store) refineFollowing() {
	var marked []uint32
	for v := range uint32(s.eOps.Len()) {
		if s.eOps.At(v)&followsBit != 0 {
			marked = append(marked, v)
		}
	}
	for _, v := range marked {
		s.eOps.Set(v, s.eOps.At(v)&^followsBit)
	}
	for _, v := range marked {
		s.markFollows(v)
	}
}

// identityMin is the smallest version id of v's identity: identityOf's
// minimum, without building the list.
func (s *Store) identityMin(v uint32) uint32 {
	d := s.disc(v)
	var vs []uint32
	if d&autoBit != 0 {
		g := d &^ autoBit
		vs = s.autoMore[g]
		if len(vs) == 0 {
			return v
		}
		seq := sort.Search(len(s.batchAuto), func(i int) bool { return s.batchAuto[i] > g }) - 1
		v = min(v, s.autoFirst(uint64(seq), g))
	} else {
		vs = s.explicit[identKey{s.eSrc.At(v), s.eDst.At(v), s.eRel.At(v), d}]
	}
	for _, w := range vs {
		v = min(v, w)
	}
	return v
}

// identityOf returns every stored version of the identity of version v.
func (s *Store) identityOf(v uint32) []uint32 {
	d := s.disc(v)
	if d&autoBit != 0 {
		g := d &^ autoBit
		more := s.autoMore[g]
		if len(more) == 0 {
			return []uint32{v}
		}
		seq := sort.Search(len(s.batchAuto), func(i int) bool { return s.batchAuto[i] > g }) - 1
		return append([]uint32{s.autoFirst(uint64(seq), g)}, more...)
	}
	return s.explicit[identKey{s.eSrc.At(v), s.eDst.At(v), s.eRel.At(v), d}]
}

// setAutoFirsts records the first versions of the store-assigned
// identities of the batch just applied.
func (s *Store) setAutoFirsts(autoStart uint32, firsts []uint32) {
	regular := len(firsts) > 0 && firsts[0] != NoVersion
	for i, v := range firsts {
		if v != firsts[0]+uint32(i) {
			regular = false
			break
		}
	}
	if regular || len(firsts) == 0 {
		base := uint32(NoVersion)
		if regular {
			base = firsts[0]
		}
		s.autoBase = append(s.autoBase, base)
		return
	}
	s.autoBase = append(s.autoBase, NoVersion)
	for i, v := range firsts {
		s.autoIrregular[autoStart+uint32(i)] = v
	}
}

// autoFirst is the first version of store-assigned identity g of batch
// seq, or NoVersion.
func (s *Store) autoFirst(seq uint64, g uint32) uint32 {
	if base := s.autoBase[seq]; base != NoVersion {
		return base + (g - s.batchAuto[seq])
	}
	if v, ok := s.autoIrregular[g]; ok {
		return v
	}
	return NoVersion
}

// noteExtent widens the valid-time extent and maxStart to cover an edge
// version; an open end counts as start + 1.
func (s *Store) noteExtent(iv bt.Interval) {
	end := iv.End
	if end >= bt.OpenEnd {
		end = iv.Start + 1
	}
	if s.eVtS.Len() == 1 || iv.Start < s.vtMin {
		s.vtMin = iv.Start
	}
	if end > s.vtMax {
		s.vtMax = end
	}
	s.maxStart = max(s.maxStart, iv.Start)
}

// insertAdj inserts v into a (vt_s, id)-sorted adjacency list.
func (s *Store) insertAdj(list []uint32, v uint32) []uint32 {
	n := len(list)
	if n == 0 || !s.edgeLess(v, list[n-1]) {
		return append(list, v)
	}
	i := sort.Search(n, func(i int) bool { return s.edgeLess(v, list[i]) })
	return slices.Insert(list, i, v)
}

// edgeLess orders edge versions by (vt_s, id).
func (s *Store) edgeLess(a, b uint32) bool {
	sa, sb := s.eVtS.At(a), s.eVtS.At(b)
	return sa < sb || sa == sb && a < b
}

// Compact trims slack capacity left by growth in per-node lists. Call it
// after bulk loads.
func (s *Store) Compact() {
	trim := func(lists [][]uint32) {
		for i, l := range lists {
			if cap(l) > len(l)+len(l)/8+4 {
				lists[i] = slices.Clip(slices.Clone(l))
			}
		}
	}
	trim(s.out)
	trim(s.in)
	trim(s.nodeHist)
	s.eVtE.Clip()
	s.eDisc.Clip()
	s.eProps.Clip()
	s.byStart.merge()
}

// edgeSeq is the batch that wrote edge version v: versions are stored in
// batch order, so it is found from the batch boundaries.
func (s *Store) edgeSeq(v uint32) uint32 {
	return uint32(sort.Search(len(s.edgeEnd), func(i int) bool { return s.edgeEnd[i] > v }))
}
