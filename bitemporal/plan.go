package bitemporal

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// View is the read side a batch is planned against: the store's current
// beliefs (as of its last applied batch). Implementations return hits in
// any order; Plan sorts them.
type View interface {
	// NodeKnown reports whether uid is registered (by any earlier op).
	NodeKnown(uid string) bool
	// BelievedNodes returns the currently believed versions of uid whose
	// valid interval overlaps iv.
	BelievedNodes(uid string, iv Interval) []NodeHit
	// HasBelievedNode reports whether uid has any currently believed version.
	HasBelievedNode(uid string) bool
	// EdgeKnown reports whether any version of the edge identity exists.
	EdgeKnown(k EdgeKey) bool
	// BelievedEdges returns the currently believed versions of the edge
	// identity whose valid interval overlaps iv.
	BelievedEdges(k EdgeKey, iv Interval) []EdgeHit
}

// NodeIndexer is an optional View method. Bulk ingest uses it to resolve
// each distinct endpoint of a batch once, and passes the ids on in the
// effect (Effect.Ends) so that applying it needs no lookup per event.
type NodeIndexer interface {
	// NodeIndex returns uid's node id in the view, whether uid is known,
	// and whether it has a currently believed version.
	NodeIndex(uid string) (id uint32, known, believed bool)
}

// End is an edge endpoint named once per batch (see Effect.EdgeEnds).
type End struct {
	UID   string
	ID    uint32 // the View's node id (see NodeIndexer), when Known
	Known bool   // UID was known to the View before the batch
}

// NoEnd in Effect.EdgeEnds marks an edge whose endpoints are named by its
// key only.
const NoEnd = ^uint32(0)

// Closure closes a stored version: its TTe becomes the batch's tt.
type Closure struct {
	H  Handle
	By OpKind
}

// NewEdge is an edge version inserted by a batch. Auto >= 0 means the
// edge's discriminator was assigned by the store: Key.Disc is empty and the
// real discriminator is AutoDisc(Effect.Seq, Auto).
type NewEdge struct {
	V    EdgeVersion
	Auto int64
}

// Effect is what applying a batch does to a store: uids to register,
// stored versions to close, and new versions to insert (versions written and
// retired within the same batch never appear). Applying an effect cannot
// fail, which is what makes a batch atomic.
type Effect struct {
	TT         Time
	Seq        uint64   // the batch's sequence number in the store, from 1
	NewUIDs    []string // in first-registration order
	CloseNodes []Closure
	CloseEdges []Closure
	Nodes      []NodeVersion
	Edges      []NewEdge
	NumEvents  int   // events ingested by the batch
	NumAuto    int64 // store-assigned discriminators used: #<Seq>.0 .. #<Seq>.<NumAuto-1>

	// Ends lists the distinct endpoints of the batch's bulk-ingested
	// edges. When EdgeEnds is not nil, Edges[i] has its Src and Dst at
	// Ends[EdgeEnds[2i]] and Ends[EdgeEnds[2i+1]], or EdgeEnds[2i] is NoEnd
	// (an edge written by another op: its key names its endpoints).
	Ends     []End
	EdgeEnds []uint32

	// Prov is the batch's provenance (see Resolve), which the writer sets
	// after planning; nil reads as the default of a batch without an
	// ingest (system).
	Prov *Provenance
}

// SystemProvenance is the default provenance of a batch that states none
// and loads nothing in bulk.
var SystemProvenance = &Provenance{Authority: AuthSystem, Derived: true}

// Provenance returns eff.Prov, or SystemProvenance when it is nil.
func (eff *Effect) Provenance() *Provenance {
	if eff.Prov == nil {
		return SystemProvenance
	}
	return eff.Prov
}

// AutoDisc is the discriminator the store gives the i-th auto-identified
// event of batch seq: "#<seq>.<i>". No other edge can have it, so bulk
// ingest never reuses an identity.
func AutoDisc(seq uint64, i int64) string {
	b := make([]byte, 0, 24)
	b = append(b, '#')
	b = strconv.AppendUint(b, seq, 10)
	b = append(b, '.')
	b = strconv.AppendInt(b, i, 10)
	return string(b)
}

// ParseAutoDisc inverts AutoDisc.
func ParseAutoDisc(disc string) (seq uint64, i int64, ok bool) {
	if len(disc) < 4 || disc[0] != '#' {
		return 0, 0, false
	}
	a, b, found := strings.Cut(disc[1:], ".")
	if !found {
		return 0, 0, false
	}
	s, err1 := strconv.ParseUint(a, 10, 64)
	n, err2 := strconv.ParseInt(b, 10, 64)
	if err1 != nil || err2 != nil || n < 0 || strconv.FormatUint(s, 10) != a || strconv.FormatInt(n, 10) != b {
		return 0, 0, false
	}
	return s, n, true
}

// Plan computes the effect of ops as one batch at transaction time tt with
// sequence number seq, against the beliefs in v. Ops see the effects of
// earlier ops of the same batch. On error the batch is refused as a whole
// and v is untouched.
func Plan(v View, tt Time, seq uint64, ops []Op) (*Effect, error) {
	var pl Planner
	return pl.Plan(v, tt, seq, ops)
}

// A Planner plans batches one after another and reuses its memory from one
// to the next: the effect a call returns is valid until the next call.
// Planning a stream of large batches this way, each applied before the
// next is planned, allocates little. The zero value is ready to use; Plan
// is the one-off form.
type Planner struct {
	p planner
	// Validated says the ops given to Plan have already passed
	// Op.Validate (bulk ingest validates every chunk before it writes
	// any), so Plan does not check them again.
	Validated bool
}

// Plan is Plan, reusing the memory of the planner's previous batch.
func (pl *Planner) Plan(v View, tt Time, seq uint64, ops []Op) (*Effect, error) {
	p := &pl.p
	p.reset(v, tt, seq)
	for i := range ops {
		if !pl.Validated {
			if err := ops[i].Validate(i); err != nil {
				return nil, err
			}
		}
		if err := p.apply(i, &ops[i]); err != nil {
			return nil, err
		}
	}
	p.finish()
	return p.eff, nil
}

type pendingNode struct {
	v    NodeVersion
	dead bool
}

type pendingEdge struct {
	v        EdgeVersion
	auto     int64
	src, dst uint32 // indexes into Effect.Ends, or NoEnd
	dead     bool
}

type planner struct {
	v          View
	tt         Time
	seq        uint64
	eff        *Effect
	closedNode map[Handle]bool
	closedEdge map[Handle]bool
	nodeOrder  []*pendingNode
	edgeOrder  []*pendingEdge
	nodes      map[string][]*pendingNode
	edges      map[EdgeKey][]*pendingEdge
	registered map[string]bool
	autoPend   []*pendingEdge           // auto-identified events of this batch, by number
	autoFrags  map[int64][]*pendingEdge // versions of those identities written later in the batch

	late []lateStart // endpoints believed only from after an event of the batch (see NodeStartCorrections)

	// Memory kept from the previous batch (see Planner).
	pendBuf  []pendingEdge     // bulk-ingested edges, the batch's in pendBuf[:len]
	index    map[string]uint32 // an ingest op's endpoints: place in firsts
	firsts   []Time
	edgeEnds []uint32
}

// reset readies p for a new batch, keeping the memory of the last one.
func (p *planner) reset(v View, tt Time, seq uint64) {
	old := p.eff
	p.v, p.tt, p.seq = v, tt, seq
	p.eff = &Effect{TT: tt, Seq: seq}
	if old == nil {
		p.closedNode, p.closedEdge = map[Handle]bool{}, map[Handle]bool{}
		p.nodes, p.edges = map[string][]*pendingNode{}, map[EdgeKey][]*pendingEdge{}
		p.registered = map[string]bool{}
		return
	}
	p.eff.NewUIDs, p.eff.Nodes, p.eff.Edges, p.eff.Ends = old.NewUIDs[:0], old.Nodes[:0], old.Edges[:0], old.Ends[:0]
	p.eff.CloseNodes, p.eff.CloseEdges = old.CloseNodes[:0], old.CloseEdges[:0]
	clear(p.closedNode)
	clear(p.closedEdge)
	clear(p.nodes)
	clear(p.edges)
	clear(p.registered)
	clear(p.autoFrags)
	p.nodeOrder, p.edgeOrder, p.autoPend = p.nodeOrder[:0], p.edgeOrder[:0], p.autoPend[:0]
	p.pendBuf = p.pendBuf[:0]
	p.late = p.late[:0]
}

// nodeHit is a believed node version: stored (pend == nil) or written
// earlier in this batch.
type nodeHit struct {
	h    Handle
	pend *pendingNode
	v    NodeVersion
}

type edgeHit struct {
	h    Handle
	pend *pendingEdge
	v    EdgeVersion
}

func (p *planner) register(uid string) {
	if p.registered[uid] || p.v.NodeKnown(uid) {
		return
	}
	p.registered[uid] = true
	p.eff.NewUIDs = append(p.eff.NewUIDs, uid)
}

func (p *planner) believedNodes(uid string, iv Interval) []nodeHit {
	var out []nodeHit
	for _, h := range p.v.BelievedNodes(uid, iv) {
		if !p.closedNode[h.H] {
			out = append(out, nodeHit{h: h.H, v: h.V})
		}
	}
	for _, pn := range p.nodes[uid] {
		if !pn.dead && pn.v.Valid.Overlaps(iv) {
			out = append(out, nodeHit{pend: pn, v: pn.v})
		}
	}
	slices.SortFunc(out, func(a, b nodeHit) int { return cmp.Compare(a.v.Valid.Start, b.v.Valid.Start) })
	return out
}

func (p *planner) believedEdges(k EdgeKey, iv Interval) []edgeHit {
	var out []edgeHit
	for _, h := range p.v.BelievedEdges(k, iv) {
		if !p.closedEdge[h.H] {
			out = append(out, edgeHit{h: h.H, v: h.V})
		}
	}
	pend := p.edges[k]
	if seq, i, ok := ParseAutoDisc(k.Disc); ok && seq == p.seq {
		pend = nil
		cands := p.autoFrags[i]
		if i < int64(len(p.autoPend)) {
			cands = append([]*pendingEdge{p.autoPend[i]}, cands...)
		}
		for _, pe := range cands {
			if pe.v.Key.Src == k.Src && pe.v.Key.Dst == k.Dst && pe.v.Key.RelType == k.RelType {
				pend = append(pend, pe)
			}
		}
	}
	for _, pe := range pend {
		if !pe.dead && pe.v.Valid.Overlaps(iv) {
			out = append(out, edgeHit{pend: pe, v: pe.v})
		}
	}
	slices.SortFunc(out, func(a, b edgeHit) int { return cmp.Compare(a.v.Valid.Start, b.v.Valid.Start) })
	return out
}

// supersede closes a stored version, or retires one written earlier in
// this batch (it was never believed at any instant).
func (p *planner) supersedeNode(h nodeHit, by OpKind) {
	if h.pend != nil {
		h.pend.dead = true
		return
	}
	p.closedNode[h.h] = true
	p.eff.CloseNodes = append(p.eff.CloseNodes, Closure{h.h, by})
}

func (p *planner) supersedeEdge(h edgeHit, by OpKind) {
	if h.pend != nil {
		h.pend.dead = true
		return
	}
	p.closedEdge[h.h] = true
	p.eff.CloseEdges = append(p.eff.CloseEdges, Closure{h.h, by})
}

func (p *planner) insertNode(v NodeVersion) {
	v.TTs, v.TTe, v.ClosedBy = p.tt, OpenEnd, OpNone
	pn := &pendingNode{v: v}
	p.nodes[v.UID] = append(p.nodes[v.UID], pn)
	p.nodeOrder = append(p.nodeOrder, pn)
}

func (p *planner) insertEdge(v EdgeVersion, auto int64) {
	v.TTs, v.TTe, v.ClosedBy = p.tt, OpenEnd, OpNone
	pe := &pendingEdge{v: v, auto: auto, src: NoEnd, dst: NoEnd}
	if auto < 0 {
		p.edges[v.Key] = append(p.edges[v.Key], pe)
	} else {
		if p.autoFrags == nil {
			p.autoFrags = map[int64][]*pendingEdge{}
		}
		p.autoFrags[auto] = append(p.autoFrags[auto], pe)
	}
	p.edgeOrder = append(p.edgeOrder, pe)
}

func (p *planner) apply(i int, op *Op) error {
	switch op.Kind {
	case OpAssertNode:
		p.register(op.UID)
		for _, h := range p.believedNodes(op.UID, op.Valid) {
			p.supersedeNode(h, OpAssertNode)
			for _, part := range Remainder(h.v.Valid, op.Valid) {
				frag := h.v
				frag.Valid, frag.CreatedBy = part, OpAssertNode
				p.insertNode(frag)
			}
		}
		p.insertNode(NodeVersion{UID: op.UID, Label: op.Label, Props: op.Props, Valid: op.Valid, CreatedBy: OpAssertNode})
	case OpAssertEdge:
		if _, _, reserved := ParseAutoDisc(op.Edge.Disc); reserved && !p.edgeKnown(op.Edge) {
			return opErr(CodeConflict, i, op.Kind, "disc", "disc %q has the form #<batch>.<n>, which is reserved for discriminators the store assigns; it names no existing edge %s→%s %s", op.Edge.Disc, op.Edge.Src, op.Edge.Dst, op.Edge.RelType)
		}
		p.register(op.Edge.Src)
		p.register(op.Edge.Dst)
		key, auto := op.Edge, int64(-1)
		if seq, n, ok := ParseAutoDisc(key.Disc); ok && seq == p.seq {
			key.Disc, auto = "", n
		}
		for _, h := range p.believedEdges(op.Edge, op.Valid) {
			p.supersedeEdge(h, OpAssertEdge)
			for _, part := range Remainder(h.v.Valid, op.Valid) {
				frag := h.v
				frag.Valid, frag.CreatedBy = part, OpAssertEdge
				p.insertEdge(frag, h.auto())
			}
		}
		p.insertEdge(EdgeVersion{Key: key, Props: op.Props, Valid: op.Valid, CreatedBy: OpAssertEdge}, auto)
	case OpRetract:
		return p.retract(i, op)
	case OpCorrect:
		return p.correct(i, op)
	case OpIngest:
		return p.ingest(i, op)
	}
	return nil
}

// retract ends the fact from op.At on: every believed version of the
// identity with vt_e > t is closed, and the part before t (if any) is
// re-inserted.
func (p *planner) retract(i int, op *Op) error {
	cut := Interval{op.At, OpenEnd}
	if op.At >= OpenEnd {
		return opErr(CodeInvalidArg, i, op.Kind, "t", "cannot retract at the open end")
	}
	if op.Ref.Kind == RefNode {
		hits := p.believedNodes(op.Ref.UID, cut)
		if len(hits) == 0 {
			return p.notFound(i, op, p.v.NodeKnown(op.Ref.UID) || p.registered[op.Ref.UID])
		}
		for _, h := range hits {
			p.supersedeNode(h, OpRetract)
			if h.v.Valid.Start < op.At {
				frag := h.v
				frag.Valid, frag.CreatedBy = Interval{h.v.Valid.Start, op.At}, OpRetract
				p.insertNode(frag)
			}
		}
		return nil
	}
	hits := p.believedEdges(op.Ref.Edge, cut)
	if len(hits) == 0 {
		return p.notFound(i, op, p.edgeKnown(op.Ref.Edge))
	}
	for _, h := range hits {
		p.supersedeEdge(h, OpRetract)
		if h.v.Valid.Start < op.At {
			frag := h.v
			frag.Valid, frag.CreatedBy = Interval{h.v.Valid.Start, op.At}, OpRetract
			p.insertEdge(frag, h.auto())
		}
	}
	return nil
}

func (h edgeHit) auto() int64 {
	if h.pend != nil {
		return h.pend.auto
	}
	return -1
}

func (p *planner) edgeKnown(k EdgeKey) bool {
	if seq, i, ok := ParseAutoDisc(k.Disc); ok && seq == p.seq {
		return i < int64(len(p.autoPend)) && p.autoPend[i].v.Key.Src == k.Src &&
			p.autoPend[i].v.Key.Dst == k.Dst && p.autoPend[i].v.Key.RelType == k.RelType
	}
	return p.v.EdgeKnown(k) || len(p.edges[k]) > 0
}

func (p *planner) notFound(i int, op *Op, known bool) error {
	what := "has no version believed at or after t"
	if op.Kind == OpCorrect {
		what = "has no believed version overlapping " + op.Valid.String()
	}
	if !known {
		what = "does not exist"
	}
	return opErr(CodeNotFound, i, op.Kind, "ref", "%s %s", op.Ref, what)
}

// correct replaces the props of the identity over op.Valid: believed
// versions overlapping it are closed, their parts outside it re-inserted,
// and one corrected version covers all of op.Valid (gaps included). A
// moving correct (op.To set) puts that version over op.To instead, which
// must not overlap what stays believed.
func (p *planner) correct(i int, op *Op) error {
	if op.Ref.Kind == RefNode {
		hits := p.believedNodes(op.Ref.UID, op.Valid)
		if len(hits) == 0 {
			return p.notFound(i, op, p.v.NodeKnown(op.Ref.UID) || p.registered[op.Ref.UID])
		}
		for _, h := range hits {
			p.supersedeNode(h, OpCorrect)
			for _, part := range Remainder(h.v.Valid, op.Valid) {
				frag := h.v
				frag.Valid, frag.CreatedBy = part, OpCorrect
				p.insertNode(frag)
			}
		}
		to := op.Valid
		if op.Moves() {
			to = op.To
			if len(p.believedNodes(op.Ref.UID, to)) > 0 {
				return p.moveConflict(i, op)
			}
		}
		p.insertNode(NodeVersion{UID: op.Ref.UID, Label: hits[0].v.Label, Props: op.Props, Valid: to, CreatedBy: OpCorrect})
		return nil
	}
	hits := p.believedEdges(op.Ref.Edge, op.Valid)
	if len(hits) == 0 {
		return p.notFound(i, op, p.edgeKnown(op.Ref.Edge))
	}
	auto := hits[0].auto()
	for _, h := range hits {
		p.supersedeEdge(h, OpCorrect)
		for _, part := range Remainder(h.v.Valid, op.Valid) {
			frag := h.v
			frag.Valid, frag.CreatedBy = part, OpCorrect
			p.insertEdge(frag, h.auto())
		}
	}
	to := op.Valid
	if op.Moves() {
		to = op.To
		if len(p.believedEdges(op.Ref.Edge, to)) > 0 {
			return p.moveConflict(i, op)
		}
	}
	p.insertEdge(EdgeVersion{Key: hits[0].v.Key, Props: op.Props, Valid: to, CreatedBy: OpCorrect}, auto)
	return nil
}

// moveConflict refuses a move onto valid time the identity is still
// believed over (outside the interval it moves from).
func (p *planner) moveConflict(i int, op *Op) error {
	return opErr(CodeConflict, i, op.Kind, "to_vt", "%s is still believed over part of %s outside %s: correct or retract that part first, or move onto free valid time",
		op.Ref, op.To, op.Valid)
}

// ingest is the bulk path: every event becomes a new edge identity with one
// version; endpoints without any believed node version get one, valid from
// their earliest event in this op. Endpoints believed only from after
// their earliest event here are noted for NodeStartCorrections.
func (p *planner) ingest(i int, op *Op) error {
	label := op.Label
	if label == "" {
		label = "Node"
	}
	// The op's distinct endpoints, in order of first appearance, become
	// Effect.Ends[base:], each with the earliest vt_s it has in the op.
	base := uint32(len(p.eff.Ends))
	if p.index == nil {
		p.index = make(map[string]uint32, len(op.Events))
	}
	index := p.index
	clear(index)
	firsts := p.firsts[:0]
	note := func(uid string, t Time) uint32 {
		if k, ok := index[uid]; ok {
			firsts[k] = min(firsts[k], t)
			return base + k
		}
		k := uint32(len(firsts))
		index[uid] = k
		firsts = append(firsts, t)
		p.eff.Ends = append(p.eff.Ends, End{UID: uid})
		return base + k
	}
	pend := p.pending(len(op.Events))
	for j := range op.Events {
		e := &op.Events[j]
		pe := &pend[j]
		*pe = pendingEdge{
			v:    EdgeVersion{Key: EdgeKey{e.Src, e.Dst, e.RelType, e.Disc}, Props: e.Props, Valid: e.Valid(), TTs: p.tt, TTe: OpenEnd, CreatedBy: OpIngest},
			auto: -1,
			src:  note(e.Src, e.VtS),
			dst:  note(e.Dst, e.VtS),
		}
		if e.Disc == "" {
			pe.auto = int64(len(p.autoPend))
			p.autoPend = append(p.autoPend, pe)
		} else {
			if _, _, reserved := ParseAutoDisc(e.Disc); reserved || p.edgeKnown(pe.v.Key) {
				err := opErr(CodeConflict, i, op.Kind, "disc", "edge %s→%s %s disc %q already exists or uses the reserved form #<batch>.<n>; bulk ingest only creates new edges (use assert_edge or correct to change one)", e.Src, e.Dst, e.RelType, e.Disc)
				err.Event = j
				return err
			}
			p.edges[pe.v.Key] = append(p.edges[pe.v.Key], pe)
		}
		p.edgeOrder = append(p.edgeOrder, pe)
	}
	p.firsts = firsts
	p.eff.NumEvents += len(op.Events)
	// With nothing about nodes written earlier in the batch, the view
	// alone says what each endpoint is: one lookup resolves it.
	ix, fast := p.v.(NodeIndexer)
	fast = fast && len(p.registered) == 0 && len(p.nodes) == 0 && len(p.closedNode) == 0
	for k, first := range firsts {
		end := &p.eff.Ends[base+uint32(k)]
		uid := end.UID
		if fast {
			id, known, believed := ix.NodeIndex(uid)
			end.ID, end.Known = id, known
			if !known {
				p.registered[uid] = true
				p.eff.NewUIDs = append(p.eff.NewUIDs, uid)
			}
			if believed {
				p.noteStart(uid, id, true, first)
				continue
			}
		} else {
			p.register(uid)
			if p.hasBelievedNode(uid) {
				p.noteStart(uid, 0, false, first)
				continue
			}
		}
		p.insertNode(NodeVersion{UID: uid, Label: label, Valid: Interval{first, OpenEnd}, CreatedBy: OpIngest})
	}
	return nil
}

// pending returns room for n bulk-ingested edges of this batch: from
// pendBuf when it has it (the batch's earlier ops keep theirs), else new.
func (p *planner) pending(n int) []pendingEdge {
	if len(p.pendBuf)+n > cap(p.pendBuf) {
		p.pendBuf = make([]pendingEdge, 0, max(n, 2*cap(p.pendBuf)))
	}
	start := len(p.pendBuf)
	p.pendBuf = p.pendBuf[:start+n]
	return p.pendBuf[start:]
}

func (p *planner) hasBelievedNode(uid string) bool {
	for _, pn := range p.nodes[uid] {
		if !pn.dead {
			return true
		}
	}
	if !p.v.HasBelievedNode(uid) {
		return false
	}
	if len(p.closedNode) == 0 {
		return true // nothing closed in this batch: the believed version stands
	}
	for _, h := range p.v.BelievedNodes(uid, Always) {
		if !p.closedNode[h.H] {
			return true
		}
	}
	return false
}

// finish moves the surviving pending versions into the effect, in the order
// they were written, with their endpoints' places in Ends.
func (p *planner) finish() {
	p.eff.NumAuto = int64(len(p.autoPend))
	for _, pn := range p.nodeOrder {
		if !pn.dead {
			p.eff.Nodes = append(p.eff.Nodes, pn.v)
		}
	}
	p.eff.Edges = slices.Grow(p.eff.Edges, len(p.edgeOrder))
	if len(p.eff.Ends) > 0 {
		p.eff.EdgeEnds = slices.Grow(p.edgeEnds[:0], 2*len(p.edgeOrder))
	}
	for _, pe := range p.edgeOrder {
		if !pe.dead {
			p.eff.Edges = append(p.eff.Edges, NewEdge{V: pe.v, Auto: pe.auto})
			if p.eff.EdgeEnds != nil {
				p.eff.EdgeEnds = append(p.eff.EdgeEnds, pe.src, pe.dst)
			}
		}
	}
	if p.eff.EdgeEnds != nil {
		p.edgeEnds = p.eff.EdgeEnds
	}
}
