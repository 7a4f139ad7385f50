package oracle

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
)

// Writes is a second, deliberately naive implementation of the write
// semantics, for tests only: every version ever written is kept in two
// plain lists, and each op applies the rules of DESIGN.md literally to
// them. It shares nothing with bitemporal.Plan (only the op types and
// bitemporal.Op.Validate, which checks an op in isolation), so a property
// test that both produce the same versions checks carving, retraction and
// correction against an independent reading of the rules.
//
// The rules, as this model reads them:
//   - A write at transaction time tt closes a version by setting tt_e = tt
//     and closed_by to the op; a version written earlier in the same batch
//     that is closed again has tt_s = tt_e and was never believed: it is
//     dropped.
//   - assert_node / assert_edge carve: every believed version of the
//     identity overlapping the asserted interval is closed, the parts of it
//     outside the interval are written again (created_by the assert), and
//     the asserted version is written.
//   - retract(t) ends the fact from t on: every believed version with
//     vt_e > t is closed by retract, its part before t (if any) written
//     again by retract. Nothing to retract is E_NOT_FOUND; t at the open end
//     is E_INVALID_ARG.
//   - correct(iv) replaces the props over iv: believed versions overlapping
//     iv are closed by correct, their parts outside iv written again by
//     correct, and one version with the new props covers all of iv (gaps
//     included), with the label of the earliest overlapped node version.
//     Nothing overlapping is E_NOT_FOUND.
//   - a moving correct (to_vt set) closes and carves the same versions, but
//     its one new version covers to_vt instead of iv; when, after the
//     carving, a believed version of the identity still overlaps to_vt the
//     op is E_CONFLICT (a fact is never believed twice over one instant).
//   - ingest writes one edge version per event; an event without a
//     discriminator gets "#<batch>.<n>" (n counting such events of the
//     batch from 0); an explicit discriminator that is taken or has that
//     reserved form is E_CONFLICT. Each endpoint with no believed node
//     version afterwards gets one, valid from its earliest event in the op
//     to the open end, with the op's label ("Node" by default).
//   - asserting an edge with a reserved discriminator that names no
//     existing edge is E_CONFLICT.
//   - A batch is atomic: a refused op leaves the store as it was.
//   - Every version a batch writes carries the batch's provenance, and
//     every version it closes the batch's provenance as its closing one
//     (see provenanceOf for what a batch's provenance is).
type Writes struct {
	Nodes   []bt.NodeVersion
	Edges   []bt.EdgeVersion
	uids    map[string]bool
	batches uint64
	lastTT  bt.Time
}

// NewWrites returns an empty naive store.
func NewWrites() *Writes { return &Writes{uids: map[string]bool{}} }

// batch is the working copy one batch is applied to.
type batch struct {
	*Writes
	tt   bt.Time
	seq  uint64
	auto int64
	prov *bt.Provenance
}

// Write applies ops as one batch at tt; on error nothing changes and the
// error is the refusing op's *bitemporal.OpError.
func (w *Writes) Write(tt bt.Time, ops []bt.Op) error {
	return w.WriteBatch(tt, "", bt.Batch{Ops: ops})
}

// WriteBatch is Write for a batch with its stated provenance and ingest
// source text.
func (w *Writes) WriteBatch(tt bt.Time, source string, bb bt.Batch) error {
	ops := bb.Ops
	if tt <= w.lastTT {
		return fmt.Errorf("transaction time %d is not after %d", tt, w.lastTT)
	}
	work := &Writes{Nodes: append([]bt.NodeVersion(nil), w.Nodes...), Edges: append([]bt.EdgeVersion(nil), w.Edges...), uids: map[string]bool{}}
	for u := range w.uids {
		work.uids[u] = true
	}
	b := &batch{Writes: work, tt: tt, seq: w.batches + 1, prov: provenanceOf(bb.Prov, source, ops)}
	for i := range ops {
		if err := ops[i].Validate(i); err != nil {
			return err
		}
		if err := b.apply(i, ops[i]); err != nil {
			return err
		}
	}
	work.dropUnbelieved(tt)
	work.batches, work.lastTT = b.seq, tt
	*w = *work
	return nil
}

func refusal(code string, i int, k bt.OpKind, format string, args ...any) error {
	return &bt.OpError{Code: code, Op: i, Kind: k, Event: -1, Msg: fmt.Sprintf(format, args...)}
}

// outside returns the parts of v not covered by cut, in order.
func outside(v, cut bt.Interval) []bt.Interval {
	var out []bt.Interval
	if v.Start < cut.Start {
		out = append(out, bt.Interval{Start: v.Start, End: min(v.End, cut.Start)})
	}
	if cut.End < v.End {
		out = append(out, bt.Interval{Start: max(v.Start, cut.End), End: v.End})
	}
	return out
}

func overlaps(a, b bt.Interval) bool { return a.Start < b.End && b.Start < a.End }

// reserved reports whether disc has the store-assigned form #<n>.<m>.
func reserved(disc string) bool {
	rest, ok := strings.CutPrefix(disc, "#")
	if !ok {
		return false
	}
	a, c, ok := strings.Cut(rest, ".")
	if !ok {
		return false
	}
	x, err1 := strconv.ParseUint(a, 10, 64)
	y, err2 := strconv.ParseInt(c, 10, 64)
	return err1 == nil && err2 == nil && y >= 0 && strconv.FormatUint(x, 10) == a && strconv.FormatInt(y, 10) == c
}

func (b *batch) edgeExists(k bt.EdgeKey) bool {
	for _, v := range b.Edges {
		if v.Key == k {
			return true
		}
	}
	return false
}

// believedNodes are the indexes of uid's believed versions overlapping iv,
// by valid start.
func (b *batch) believedNodes(uid string, iv bt.Interval) []int {
	var out []int
	for i, v := range b.Nodes {
		if v.UID == uid && v.TTe == bt.OpenEnd && overlaps(v.Valid, iv) {
			out = append(out, i)
		}
	}
	sort.Slice(out, func(x, y int) bool { return b.Nodes[out[x]].Valid.Start < b.Nodes[out[y]].Valid.Start })
	return out
}

func (b *batch) believedEdges(k bt.EdgeKey, iv bt.Interval) []int {
	var out []int
	for i, v := range b.Edges {
		if v.Key == k && v.TTe == bt.OpenEnd && overlaps(v.Valid, iv) {
			out = append(out, i)
		}
	}
	sort.Slice(out, func(x, y int) bool { return b.Edges[out[x]].Valid.Start < b.Edges[out[y]].Valid.Start })
	return out
}

func (b *batch) closeNode(i int, by bt.OpKind) {
	b.Nodes[i].TTe, b.Nodes[i].ClosedBy, b.Nodes[i].ClosedProv = b.tt, by, b.prov
}

func (b *batch) closeEdge(i int, by bt.OpKind) {
	b.Edges[i].TTe, b.Edges[i].ClosedBy, b.Edges[i].ClosedProv = b.tt, by, b.prov
}

func (b *batch) addNode(v bt.NodeVersion, by bt.OpKind) {
	v.TTs, v.TTe, v.CreatedBy, v.ClosedBy = b.tt, bt.OpenEnd, by, bt.OpNone
	v.Prov, v.ClosedProv = b.prov, nil
	b.Nodes = append(b.Nodes, v)
}

func (b *batch) addEdge(v bt.EdgeVersion, by bt.OpKind) {
	v.TTs, v.TTe, v.CreatedBy, v.ClosedBy = b.tt, bt.OpenEnd, by, bt.OpNone
	v.Prov, v.ClosedProv = b.prov, nil
	b.Edges = append(b.Edges, v)
}

// carveNodes closes the given versions and writes their parts outside cut
// again.
func (b *batch) carveNodes(hits []int, cut bt.Interval, by bt.OpKind) {
	for _, i := range hits {
		old := b.Nodes[i]
		b.closeNode(i, by)
		for _, part := range outside(old.Valid, cut) {
			frag := old
			frag.Valid = part
			b.addNode(frag, by)
		}
	}
}

func (b *batch) carveEdges(hits []int, cut bt.Interval, by bt.OpKind) {
	for _, i := range hits {
		old := b.Edges[i]
		b.closeEdge(i, by)
		for _, part := range outside(old.Valid, cut) {
			frag := old
			frag.Valid = part
			b.addEdge(frag, by)
		}
	}
}

func (b *batch) apply(i int, op bt.Op) error {
	fromT := bt.Interval{Start: op.At, End: bt.OpenEnd}
	switch op.Kind {
	case bt.OpAssertNode:
		b.uids[op.UID] = true
		b.carveNodes(b.believedNodes(op.UID, op.Valid), op.Valid, op.Kind)
		b.addNode(bt.NodeVersion{UID: op.UID, Label: op.Label, Props: op.Props, Valid: op.Valid}, op.Kind)
	case bt.OpAssertEdge:
		if reserved(op.Edge.Disc) && !b.edgeExists(op.Edge) {
			return refusal(bt.CodeConflict, i, op.Kind, "reserved discriminator %q names no edge", op.Edge.Disc)
		}
		b.uids[op.Edge.Src], b.uids[op.Edge.Dst] = true, true
		b.carveEdges(b.believedEdges(op.Edge, op.Valid), op.Valid, op.Kind)
		b.addEdge(bt.EdgeVersion{Key: op.Edge, Props: op.Props, Valid: op.Valid}, op.Kind)
	case bt.OpRetract:
		if op.At >= bt.OpenEnd {
			return refusal(bt.CodeInvalidArg, i, op.Kind, "retract at the open end")
		}
		if op.Ref.Kind == bt.RefNode {
			hits := b.believedNodes(op.Ref.UID, fromT)
			if len(hits) == 0 {
				return refusal(bt.CodeNotFound, i, op.Kind, "nothing to retract")
			}
			b.carveNodes(hits, fromT, op.Kind)
			return nil
		}
		hits := b.believedEdges(op.Ref.Edge, fromT)
		if len(hits) == 0 {
			return refusal(bt.CodeNotFound, i, op.Kind, "nothing to retract")
		}
		b.carveEdges(hits, fromT, op.Kind)
	case bt.OpCorrect:
		if op.Ref.Kind == bt.RefNode {
			hits := b.believedNodes(op.Ref.UID, op.Valid)
			if len(hits) == 0 {
				return refusal(bt.CodeNotFound, i, op.Kind, "nothing to correct")
			}
			label := b.Nodes[hits[0]].Label
			b.carveNodes(hits, op.Valid, op.Kind)
			to, err := b.target(i, op, len(b.believedNodes(op.Ref.UID, op.To)))
			if err != nil {
				return err
			}
			b.addNode(bt.NodeVersion{UID: op.Ref.UID, Label: label, Props: op.Props, Valid: to}, op.Kind)
			return nil
		}
		hits := b.believedEdges(op.Ref.Edge, op.Valid)
		if len(hits) == 0 {
			return refusal(bt.CodeNotFound, i, op.Kind, "nothing to correct")
		}
		b.carveEdges(hits, op.Valid, op.Kind)
		to, err := b.target(i, op, len(b.believedEdges(op.Ref.Edge, op.To)))
		if err != nil {
			return err
		}
		b.addEdge(bt.EdgeVersion{Key: op.Ref.Edge, Props: op.Props, Valid: to}, op.Kind)
	case bt.OpIngest:
		return b.ingest(i, op)
	}
	return nil
}

// target is where a correct op's new version goes: the corrected interval,
// or for a move (To set) the interval it moves onto, which must hold no
// believed version of the identity (believedThere counts them, after the
// carve).
func (b *batch) target(i int, op bt.Op, believedThere int) (bt.Interval, error) {
	if op.To == (bt.Interval{}) {
		return op.Valid, nil
	}
	if believedThere > 0 {
		return bt.Interval{}, refusal(bt.CodeConflict, i, op.Kind, "moving onto %v, where the fact is still believed", op.To)
	}
	return op.To, nil
}

func (b *batch) ingest(i int, op bt.Op) error {
	label := op.Label
	if label == "" {
		label = "Node"
	}
	first := map[string]bt.Time{}
	var order []string
	for j, e := range op.Events {
		key := bt.EdgeKey{Src: e.Src, Dst: e.Dst, RelType: e.RelType, Disc: e.Disc}
		if e.Disc == "" {
			key.Disc = fmt.Sprintf("#%d.%d", b.seq, b.auto)
			b.auto++
		} else if reserved(e.Disc) || b.edgeExists(key) {
			err := refusal(bt.CodeConflict, i, op.Kind, "event %d: discriminator %q taken or reserved", j, e.Disc).(*bt.OpError)
			err.Event = j
			return err
		}
		end := e.VtE
		if end == 0 {
			end = e.VtS + 1
		}
		b.addEdge(bt.EdgeVersion{Key: key, Props: e.Props, Valid: bt.Interval{Start: e.VtS, End: end}}, op.Kind)
		for _, u := range []string{e.Src, e.Dst} {
			if t, seen := first[u]; !seen {
				first[u] = e.VtS
				order = append(order, u)
			} else if e.VtS < t {
				first[u] = e.VtS
			}
		}
	}
	for _, u := range order {
		b.uids[u] = true
		if len(b.believedNodes(u, bt.Interval{Start: 0, End: bt.OpenEnd})) == 0 {
			b.addNode(bt.NodeVersion{UID: u, Label: label, Valid: bt.Interval{Start: first[u], End: bt.OpenEnd}}, op.Kind)
		}
	}
	return nil
}

// dropUnbelieved removes the versions a batch wrote and closed again.
func (w *Writes) dropUnbelieved(tt bt.Time) {
	nodes := w.Nodes[:0]
	for _, v := range w.Nodes {
		if !(v.TTs == tt && v.TTe == tt) {
			nodes = append(nodes, v)
		}
	}
	edges := w.Edges[:0]
	for _, v := range w.Edges {
		if !(v.TTs == tt && v.TTe == tt) {
			edges = append(edges, v)
		}
	}
	w.Nodes, w.Edges = nodes, edges
}

// VersionSet renders node and edge versions as canonical JSON: each
// version an object of all its fields (provenance and closed_provenance
// left out when they are the system default), the lists sorted by their canonical
// text, so two stores holding the same versions give the same bytes
// whatever order they were written in.
func VersionSet(nodes []bt.NodeVersion, edges []bt.EdgeVersion) []byte {
	op := func(k bt.OpKind) any {
		if k == bt.OpNone {
			return nil
		}
		return k.String()
	}
	rows := func(n int, row func(i int) map[string]any) []any {
		texts := make([]string, n)
		for i := range n {
			b, err := canon.Marshal(row(i))
			if err != nil {
				panic(err)
			}
			texts[i] = string(b)
		}
		sort.Strings(texts)
		out := make([]any, n)
		for i, t := range texts {
			v, _ := canon.Parse([]byte(t))
			out[i] = v
		}
		return out
	}
	props := func(p bt.Props) any {
		v, _ := canon.Parse([]byte(p.JSON()))
		return v
	}
	doc := map[string]any{
		"nodes": rows(len(nodes), func(i int) map[string]any {
			v := nodes[i]
			m := map[string]any{"uid": v.UID, "label": v.Label, "props": props(v.Props), "vt_s": v.Valid.Start, "vt_e": v.Valid.End,
				"tt_s": v.TTs, "tt_e": v.TTe, "created_by": op(v.CreatedBy), "closed_by": op(v.ClosedBy)}
			putProv(m, v.Prov, v.ClosedProv, v.ClosedBy != bt.OpNone)
			return m
		}),
		"edges": rows(len(edges), func(i int) map[string]any {
			v := edges[i]
			m := map[string]any{"src": v.Key.Src, "dst": v.Key.Dst, "rel_type": v.Key.RelType, "disc": v.Key.Disc, "props": props(v.Props),
				"vt_s": v.Valid.Start, "vt_e": v.Valid.End, "tt_s": v.TTs, "tt_e": v.TTe, "created_by": op(v.CreatedBy), "closed_by": op(v.ClosedBy)}
			putProv(m, v.Prov, v.ClosedProv, v.ClosedBy != bt.OpNone)
			return m
		}),
	}
	b, err := canon.Marshal(doc)
	if err != nil {
		panic(err)
	}
	return b
}
