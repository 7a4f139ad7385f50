package bitemporal

import (
	"fmt"
	"slices"

	"github.com/tgms-go/tgms/canon"
)

// MemStore is the model store: every version in a plain slice, every read a
// scan. It defines the write semantics the engine must reproduce and serves
// as the oracle's storage; it is not built for speed.
type MemStore struct {
	Nodes   []NodeVersion
	Edges   []EdgeVersion
	UIDs    []string        // registration order
	known   map[string]Time // uid → transaction time of the batch that registered it
	byUID   map[string][]int
	byEdge  map[EdgeKey][]int
	LastTT  Time
	Batches uint64
}

// NewMemStore returns an empty model store.
func NewMemStore() *MemStore {
	return &MemStore{known: map[string]Time{}, byUID: map[string][]int{}, byEdge: map[EdgeKey][]int{}}
}

// NodeKnown implements View.
func (m *MemStore) NodeKnown(uid string) bool { _, ok := m.known[uid]; return ok }

// KnownAt reports whether uid was registered by a batch with transaction
// time <= asOf (clamped): identifiers are bi-temporal too.
func (m *MemStore) KnownAt(uid string, asOf Time) bool {
	tt, ok := m.known[uid]
	return ok && tt <= ClampTT(asOf)
}

// BelievedNodes implements View.
func (m *MemStore) BelievedNodes(uid string, iv Interval) []NodeHit {
	var out []NodeHit
	for _, i := range m.byUID[uid] {
		v := m.Nodes[i]
		if v.TTe == OpenEnd && v.Valid.Overlaps(iv) {
			out = append(out, NodeHit{Handle(i), v})
		}
	}
	return out
}

// HasBelievedNode implements View.
func (m *MemStore) HasBelievedNode(uid string) bool {
	return len(m.BelievedNodes(uid, Always)) > 0
}

// EdgeKnown implements View.
func (m *MemStore) EdgeKnown(k EdgeKey) bool { return len(m.byEdge[k]) > 0 }

// BelievedEdges implements View.
func (m *MemStore) BelievedEdges(k EdgeKey, iv Interval) []EdgeHit {
	var out []EdgeHit
	for _, i := range m.byEdge[k] {
		v := m.Edges[i]
		if v.TTe == OpenEnd && v.Valid.Overlaps(iv) {
			out = append(out, EdgeHit{Handle(i), v})
		}
	}
	return out
}

// Write plans ops as one batch at tt and applies it. tt must exceed the
// last batch's.
func (m *MemStore) Write(tt Time, ops []Op) error {
	return m.WriteBatch(tt, "", Batch{Ops: ops})
}

// WriteBatch is Write for a batch with its stated provenance and the
// ingest source text (empty: none), which give its provenance (Resolve).
func (m *MemStore) WriteBatch(tt Time, source string, b Batch) error {
	if tt <= m.LastTT {
		return fmt.Errorf("transaction time %d is not after the last batch's %d", tt, m.LastTT)
	}
	eff, err := Plan(m, tt, m.Batches+1, b.Ops)
	if err != nil {
		return err
	}
	p := Resolve(b.Prov, source, b.Ops)
	eff.Prov = &p
	m.Apply(eff)
	return nil
}

// Apply applies a planned effect.
func (m *MemStore) Apply(eff *Effect) {
	for _, uid := range eff.NewUIDs {
		m.known[uid] = eff.TT
		m.UIDs = append(m.UIDs, uid)
	}
	prov := eff.Provenance()
	for _, c := range eff.CloseNodes {
		m.Nodes[c.H].TTe, m.Nodes[c.H].ClosedBy, m.Nodes[c.H].ClosedProv = eff.TT, c.By, prov
	}
	for _, c := range eff.CloseEdges {
		m.Edges[c.H].TTe, m.Edges[c.H].ClosedBy, m.Edges[c.H].ClosedProv = eff.TT, c.By, prov
	}
	for _, v := range eff.Nodes {
		v.Prov, v.ClosedProv = prov, nil
		m.byUID[v.UID] = append(m.byUID[v.UID], len(m.Nodes))
		m.Nodes = append(m.Nodes, v)
	}
	for _, ne := range eff.Edges {
		v := ne.V
		v.Prov, v.ClosedProv = prov, nil
		if ne.Auto >= 0 {
			v.Key.Disc = AutoDisc(eff.Seq, ne.Auto)
		}
		m.byEdge[v.Key] = append(m.byEdge[v.Key], len(m.Edges))
		m.Edges = append(m.Edges, v)
	}
	m.applyErase(eff)
	m.LastTT = eff.TT
	m.Batches = eff.Seq
}

// Digest returns the store digest (see Digester).
func (m *MemStore) Digest() string {
	edges := slices.Clone(m.Edges)
	slices.SortFunc(edges, func(a, b EdgeVersion) int { return CompareEdges(&a, &b) })
	nodes := slices.Clone(m.Nodes)
	slices.SortFunc(nodes, func(a, b NodeVersion) int { return CompareNodes(&a, &b) })
	d := NewDigester()
	for i := range edges {
		d.Edge(&edges[i])
	}
	for i := range nodes {
		d.Node(&nodes[i])
	}
	return d.Sum()
}

// PropKinds lists the JSON types stored values of property key have, on
// any version ("string", "int", "float", "bool", "array", "object").
func (m *MemStore) PropKinds(key string) []string {
	var out []string
	note := func(p Props) {
		if p == "" {
			return
		}
		x, ok := p.Map()[key]
		if !ok {
			return
		}
		if x == nil {
			return
		}
		t := canon.TypeName(x)
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	for i := range m.Nodes {
		note(m.Nodes[i].Props)
	}
	for i := range m.Edges {
		note(m.Edges[i].Props)
	}
	slices.Sort(out)
	return out
}
