package fresh

import (
	"cmp"
	"fmt"
	"slices"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
)

// TouchKind says what a touch changed.
type TouchKind uint8

// Touch kinds.
const (
	NodeTouch    TouchKind = iota + 1 // the believed versions of a node changed
	EdgeTouch                         // the believed versions of an edge identity changed
	Registration                      // a uid became known
)

func (k TouchKind) String() string {
	switch k {
	case NodeTouch:
		return "node"
	case EdgeTouch:
		return "edge"
	case Registration:
		return "registration"
	}
	return "?"
}

// Touch is one identity a batch changed. Hull spans the valid intervals of
// every version of the identity believed just before or just after the
// batch, so it covers whatever of the identity an operator may have read
// (fragments included).
type Touch struct {
	TT   bt.Time
	Seq  uint64
	Op   bt.OpKind // the first op of the batch that named the identity
	Kind TouchKind
	UID  string     // NodeTouch, Registration
	Edge bt.EdgeKey // EdgeTouch
	EID  string     // EdgeTouch
	Hull bt.Interval
	// PropsOnly (edges): the identity's valid intervals are the same before
	// and after the batch; only props or version ids changed.
	PropsOnly bool
}

// String renders the touch for a person.
func (t *Touch) String() string {
	switch t.Kind {
	case NodeTouch:
		return fmt.Sprintf("node %s over %s", t.UID, t.Hull)
	case EdgeTouch:
		return fmt.Sprintf("edge %s→%s %s disc %q over %s", t.Edge.Src, t.Edge.Dst, t.Edge.RelType, t.Edge.Disc, t.Hull)
	}
	return fmt.Sprintf("uid %s registered", t.UID)
}

// Batch is one write batch as the log records it.
type Batch struct {
	TT  bt.Time
	Seq uint64
	Ops []bt.Op
}

// Index lists the identities that batches written after a belief time
// touched, in transaction-time order, with lookups by uid and endpoint.
type Index struct {
	since   bt.Time // batches at or before since are not indexed
	last    bt.Time // the newest batch indexed (since when none)
	batches int
	touches []Touch
	byUID   map[string][]int32 // node touches and registrations, by uid
	byEnd   map[string][]int32 // edge touches, by src and by dst
	nodes   []int32            // every node touch
	edges   []int32            // every edge touch
	regs    []int32            // every registration
}

// NewIndex returns an empty index of the batches written after since.
func NewIndex(since bt.Time) *Index {
	return &Index{since: since, last: since, byUID: map[string][]int32{}, byEnd: map[string][]int32{}}
}

// Since is the belief time after which batches are indexed.
func (ix *Index) Since() bt.Time { return ix.since }

// Last is the transaction time of the newest indexed batch.
func (ix *Index) Last() bt.Time { return ix.last }

// Batches is the number of indexed batches.
func (ix *Index) Batches() int { return ix.batches }

// Touches is the number of indexed touches.
func (ix *Index) Touches() int { return len(ix.touches) }

// Add indexes batch b, which src has already applied; prevTT is the
// transaction time of the batch before it (0 for the first). Batches must
// come in order.
func (ix *Index) Add(src ops.Source, b Batch, prevTT bt.Time) error {
	if b.TT <= ix.last {
		if b.TT <= ix.since {
			return nil
		}
		return fmt.Errorf("fresh: batch %d at tt %d is not after the last indexed batch (tt %d)", b.Seq, b.TT, ix.last)
	}
	w := planTouches(b)
	var before, after snapshot
	err := src.Read(prevTT, func(r engine.Reader) error {
		before = measure(r, w)
		return nil
	})
	if err == nil {
		err = src.Read(b.TT, func(r engine.Reader) error {
			if r.AsOf() != b.TT {
				return fmt.Errorf("fresh: batch %d at tt %d is not durable in the store yet (last %d)", b.Seq, b.TT, r.AsOf())
			}
			after = measure(r, w)
			return nil
		})
	}
	if err != nil {
		return err
	}
	found := w.touches(b, &before, &after)
	for i := range found {
		ix.add(found[i])
	}
	ix.last = b.TT
	ix.batches++
	return nil
}

func (ix *Index) add(t Touch) {
	i := int32(len(ix.touches))
	ix.touches = append(ix.touches, t)
	switch t.Kind {
	case NodeTouch:
		ix.nodes = append(ix.nodes, i)
		ix.byUID[t.UID] = append(ix.byUID[t.UID], i)
	case Registration:
		ix.regs = append(ix.regs, i)
		ix.byUID[t.UID] = append(ix.byUID[t.UID], i)
	case EdgeTouch:
		ix.edges = append(ix.edges, i)
		ix.byEnd[t.Edge.Src] = append(ix.byEnd[t.Edge.Src], i)
		if t.Edge.Dst != t.Edge.Src {
			ix.byEnd[t.Edge.Dst] = append(ix.byEnd[t.Edge.Dst], i)
		}
	}
}

// after returns the suffix of list (touch numbers in tt order) written
// after tt.
func (ix *Index) after(list []int32, tt bt.Time) []int32 {
	i, _ := slices.BinarySearchFunc(list, tt, func(n int32, tt bt.Time) int {
		if ix.touches[n].TT <= tt {
			return -1
		}
		return 1
	})
	return list[i:]
}

// written is what a batch names: the uids and edge identities its ops
// touch, in first-mention order, and the new identities its ingest ops
// create (touched as they are, unless a later op names them again).
type written struct {
	nodes   []string
	nodeOp  map[string]bt.OpKind
	edges   []bt.EdgeKey
	edgeOp  map[bt.EdgeKey]bt.OpKind
	created []Touch
}

func planTouches(b Batch) *written {
	w := &written{nodeOp: map[string]bt.OpKind{}, edgeOp: map[bt.EdgeKey]bt.OpKind{}}
	node := func(uid string, k bt.OpKind) {
		if _, seen := w.nodeOp[uid]; !seen {
			w.nodeOp[uid] = k
			w.nodes = append(w.nodes, uid)
		}
	}
	edge := func(e bt.EdgeKey, k bt.OpKind) {
		if _, seen := w.edgeOp[e]; !seen {
			w.edgeOp[e] = k
			w.edges = append(w.edges, e)
		}
	}
	newEdges := map[bt.EdgeKey]int{}
	var auto int64
	for i := range b.Ops {
		op := &b.Ops[i]
		switch op.Kind {
		case bt.OpAssertNode:
			node(op.UID, op.Kind)
		case bt.OpAssertEdge:
			node(op.Edge.Src, op.Kind)
			node(op.Edge.Dst, op.Kind)
			edge(op.Edge, op.Kind)
		case bt.OpRetract, bt.OpCorrect:
			if op.Ref.Kind == bt.RefNode {
				node(op.Ref.UID, op.Kind)
			} else {
				edge(op.Ref.Edge, op.Kind)
			}
		case bt.OpIngest:
			for j := range op.Events {
				e := &op.Events[j]
				node(e.Src, op.Kind)
				node(e.Dst, op.Kind)
				k := bt.EdgeKey{Src: e.Src, Dst: e.Dst, RelType: e.RelType, Disc: e.Disc}
				if e.Disc == "" {
					k.Disc = bt.AutoDisc(b.Seq, auto)
					auto++
				}
				newEdges[k] = len(w.created)
				w.created = append(w.created, Touch{TT: b.TT, Seq: b.Seq, Op: op.Kind, Kind: EdgeTouch, Edge: k, Hull: e.Valid()})
			}
		}
	}
	// A created identity that an op names as well is measured like the
	// others; drop its event-only touch.
	keep := w.created[:0]
	for _, t := range w.created {
		if _, named := w.edgeOp[t.Edge]; !named {
			keep = append(keep, t)
		}
	}
	w.created = keep
	return w
}

// snapshot is what one reader believes about the identities a batch names.
type snapshot struct {
	known []bool
	nodes [][]bt.NodeVersion
	edges [][]bt.Interval
}

func measure(r engine.Reader, w *written) snapshot {
	s := snapshot{known: make([]bool, len(w.nodes)), nodes: make([][]bt.NodeVersion, len(w.nodes)), edges: make([][]bt.Interval, len(w.edges))}
	for i, uid := range w.nodes {
		if id, ok := r.Node(uid); ok {
			s.known[i], s.nodes[i] = true, r.NodeHistory(id)
		}
	}
	for i, k := range w.edges {
		s.edges[i] = identityVersions(r, k)
	}
	return s
}

// touches compares the two snapshots.
func (w *written) touches(b Batch, before, after *snapshot) []Touch {
	var out []Touch
	for i, uid := range w.nodes {
		if !after.known[i] {
			continue // never registered: nothing changed
		}
		if !before.known[i] {
			out = append(out, Touch{TT: b.TT, Seq: b.Seq, Op: w.nodeOp[uid], Kind: Registration, UID: uid, Hull: bt.Always})
		}
		if sameNodeVersions(before.nodes[i], after.nodes[i]) {
			continue
		}
		out = append(out, Touch{TT: b.TT, Seq: b.Seq, Op: w.nodeOp[uid], Kind: NodeTouch, UID: uid, Hull: nodeHull(before.nodes[i], after.nodes[i])})
	}
	for i, k := range w.edges {
		vs := append(append([]bt.Interval(nil), before.edges[i]...), after.edges[i]...)
		if len(vs) == 0 {
			continue
		}
		hull := vs[0]
		for _, iv := range vs[1:] {
			hull.Start, hull.End = min(hull.Start, iv.Start), max(hull.End, iv.End)
		}
		out = append(out, Touch{TT: b.TT, Seq: b.Seq, Op: w.edgeOp[k], Kind: EdgeTouch, Edge: k, EID: engine.EID(k), Hull: hull,
			PropsOnly: sameIntervals(before.edges[i], after.edges[i])})
	}
	for _, t := range w.created {
		t.EID = engine.EID(t.Edge)
		out = append(out, t)
	}
	return out
}

// identityVersions returns the valid intervals of the versions of edge
// identity k that r believes.
func identityVersions(r engine.Reader, k bt.EdgeKey) []bt.Interval {
	src, ok := r.Node(k.Src)
	if !ok {
		return nil
	}
	var out []bt.Interval
	for _, v := range r.Out(src) {
		if r.RelType(v) != k.RelType || r.UID(r.Dst(v)) != k.Dst {
			continue
		}
		if e := r.Edge(v); e.Key == k {
			out = append(out, e.Valid)
		}
	}
	return out
}

// sameIntervals reports whether two lists hold the same intervals (as
// multisets), and are not empty.
func sameIntervals(a, b []bt.Interval) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	cmpIv := func(x, y bt.Interval) int {
		if x.Start != y.Start {
			return cmp.Compare(x.Start, y.Start)
		}
		return cmp.Compare(x.End, y.End)
	}
	a, b = slices.Clone(a), slices.Clone(b)
	slices.SortFunc(a, cmpIv)
	slices.SortFunc(b, cmpIv)
	return slices.Equal(a, b)
}

func sameNodeVersions(a, b []bt.NodeVersion) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.Valid != y.Valid || x.TTs != y.TTs || x.Label != y.Label || x.Props != y.Props || x.CreatedBy != y.CreatedBy {
			return false
		}
	}
	return true
}

func nodeHull(a, b []bt.NodeVersion) bt.Interval {
	hull := bt.Interval{Start: bt.OpenEnd, End: 0}
	for _, l := range [][]bt.NodeVersion{a, b} {
		for _, v := range l {
			hull.Start, hull.End = min(hull.Start, v.Valid.Start), max(hull.End, v.Valid.End)
		}
	}
	if hull.Start >= hull.End {
		return bt.Always // no versions on either side cannot differ; be safe
	}
	return hull
}
