package ops

import (
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
)

// Reader is what an operator reads: a store pinned at one belief time,
// seen through scans, lookups, adjacency and counts. Operators take a
// Reader (Call.R), never a concrete engine, so that a kernel does not know
// which backend answers it. The in-memory engine implements it (Native);
// backends that run whole operators elsewhere (package sqlengine) plug in
// through Backend instead and need not implement it.
//
// Nodes and edge versions are dense ids: a node id is below NumNodes, an
// edge version id below NumEdgeVersions. Methods that take an edge version
// id read the stored version (believed or not); Believed tells which are
// visible at AsOf. Lists come back in the order of their doc comments in
// package engine; a caller may sort them in place.
type Reader interface {
	// AsOf is the pinned transaction time.
	AsOf() bt.Time

	// --- lookups ------------------------------------------------------------

	// Node resolves a uid known at the pinned time to its dense id.
	Node(uid string) (uint32, bool)
	// Known reports whether a dense node id was registered at the pinned time.
	Known(id uint32) bool
	// UID is the uid of a dense node id.
	UID(id uint32) string
	// NodeHistory is a node's believed versions, in (vt_s, tt_s) order.
	NodeHistory(id uint32) []bt.NodeVersion
	// NodeHistoryVIDs is NodeHistory with each version's vid.
	NodeHistoryVIDs(id uint32) ([]bt.NodeVersion, []string)
	// CountNodeVersions is len(NodeHistory(id)) without building it.
	CountNodeVersions(id uint32) int
	// LatestNodeVersion is the label and bag of id's latest believed
	// version by (vt_s, vid), and its number of believed versions.
	LatestNodeVersion(id uint32) (label string, props bt.Props, believed int)
	// EachNodeVersion calls fn for each believed version of id, stored order.
	EachNodeVersion(id uint32, fn func(nv bt.NodeVersion))
	// NodeTextCandidates narrows a lower-case substring search of uids and
	// names to candidate ids (ok false: no index narrows it).
	NodeTextCandidates(lq string) (ids []uint32, ok bool)
	// UIDOrderRanks gives node ids in uid order and each id's rank in it.
	UIDOrderRanks() (order, rank []uint32)

	// --- edge versions --------------------------------------------------------

	// Believed reports whether edge version v is believed at the pinned time.
	Believed(v uint32) bool
	Edge(v uint32) bt.EdgeVersion
	EdgeKey(v uint32) bt.EdgeKey
	Src(v uint32) uint32
	Dst(v uint32) uint32
	Valid(v uint32) bt.Interval
	RelType(v uint32) string
	Props(v uint32) bt.Props
	// RelID is the dense id of v's relation type (below NumRels).
	RelID(v uint32) uint32
	RelName(id uint32) string
	RelIDOf(name string) (uint32, bool)
	// Continues reports whether v is a carved fragment continuing another
	// believed version of its identity (not a new occurrence).
	Continues(v uint32) bool
	// IdentityVersions lists every stored version of v's identity.
	IdentityVersions(v uint32) []uint32
	// IdentityMin is the smallest version id of v's identity.
	IdentityMin(v uint32) uint32
	// EdgeIDs is v's identity id and version id (EID of its key, VID of
	// that, tt_s and vt_s).
	EdgeIDs(v uint32) (eid, vid string)
	// EdgeProvenance is the provenance of the batch that wrote v (nil:
	// the default of a batch that stated none).
	EdgeProvenance(v uint32) *bt.Provenance

	// --- adjacency and scans ------------------------------------------------------

	// Out and In are a node's believed out- and in-edge versions, by vt_s.
	Out(id uint32) []uint32
	In(id uint32) []uint32
	EdgesOverlapping(iv bt.Interval) []uint32
	EdgesValidAt(t bt.Time) []uint32
	EdgesStartingIn(iv bt.Interval) []uint32
	// EdgesValidAtOneOf and NodesValidAtOneOf are what can differ between
	// two instants: the believed edge versions valid at exactly one of a
	// and b, and the nodes with such a node version (diff_snapshots).
	EdgesValidAtOneOf(a, b bt.Time) []uint32
	NodesValidAtOneOf(a, b bt.Time) []uint32
	EachStartingIn(iv bt.Interval, fn func(v uint32))
	// CountEventStarts and TallyEventStarts are the columnar event scans
	// of the aggregation kernels (see package engine).
	CountEventStarts(ta, tb, stride int64, rel uint32, out []int64)
	TallyEventStarts(sp engine.TallySpec, t *engine.Tally)

	// --- counts -----------------------------------------------------------------

	// NumNodes is the number of dense node ids (known at any time).
	NumNodes() int
	// NumRels is the number of relation types the store has seen.
	NumRels() int
	// NumEdgeVersions is the number of stored edge versions (any belief).
	NumEdgeVersions() int
	// Batches is the number of batches the store holds.
	Batches() uint64
	// Counts are the store's sizes and valid-time extent.
	Counts() engine.Counts

	// --- other belief times -----------------------------------------------------

	// SeqAt is the number of batches written at or before tt.
	SeqAt(tt bt.Time) uint32
	// At is the same store pinned at another belief time.
	At(tt bt.Time) Reader
}

// Native is the in-memory engine's reader as an operator Reader.
type Native struct{ engine.Reader }

var _ Reader = Native{}

// NumEdgeVersions is the number of stored edge versions.
func (n Native) NumEdgeVersions() int { return n.Store().NumEdgeVersions() }

// EdgeProvenance is the provenance of the batch that wrote v.
func (n Native) EdgeProvenance(v uint32) *bt.Provenance { return n.Store().EdgeProvenance(v) }

// Batches is the number of batches the store holds.
func (n Native) Batches() uint64 { return n.Store().Batches() }

// Counts are the store's sizes and valid-time extent.
func (n Native) Counts() engine.Counts { return n.Store().Counts() }

// SeqAt is the number of batches written at or before tt.
func (n Native) SeqAt(tt bt.Time) uint32 { return n.Store().SeqAt(tt) }

// At is the same store pinned at another belief time.
func (n Native) At(tt bt.Time) Reader { return Native{n.Store().Reader(tt)} }

// Backend computes operator payloads for ExecuteOn: the in-memory engine
// (NativeBackend) or an engine that runs operators elsewhere (package
// sqlengine runs them as SQL over a PostgreSQL store's version tables).
type Backend interface {
	// Pin runs fn with the store pinned at belief time asOf (clamped;
	// bt.OpenEnd is the latest belief).
	Pin(asOf bt.Time, fn func(Pinned) error) error
}

// Pinned is a backend pinned at one belief time.
type Pinned interface {
	// AsOf is the pinned transaction time.
	AsOf() bt.Time
	// Counts are the store's sizes and valid-time extent (the cost
	// models' statistics and the envelope's dataset extent).
	Counts() engine.Counts
	// Reader is the operator Reader, or nil for a backend that runs whole
	// operators (cost models then estimate from Counts alone).
	Reader() Reader
	// Run computes spec's payload for the prepared call c.
	Run(spec *Spec, c *Call) (map[string]any, error)
}

// NativeBackend runs operators on the in-memory engine behind a Source.
type NativeBackend struct{ Src Source }

// Pin pins the Source's engine at asOf.
func (b NativeBackend) Pin(asOf bt.Time, fn func(Pinned) error) error {
	return b.Src.Read(asOf, func(r engine.Reader) error { return fn(nativePinned{Native{r}}) })
}

type nativePinned struct{ r Native }

func (p nativePinned) AsOf() bt.Time                                   { return p.r.AsOf() }
func (p nativePinned) Counts() engine.Counts                           { return p.r.Counts() }
func (p nativePinned) Reader() Reader                                  { return p.r }
func (p nativePinned) Run(spec *Spec, c *Call) (map[string]any, error) { return spec.Run(c) }
