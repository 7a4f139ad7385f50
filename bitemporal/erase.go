package bitemporal

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"

	"github.com/tgms-go/tgms/canon"
)

// OpErase is the erase op: the contents (label and props) of every stored
// version of a node, and with Erasure.Edges the props of every version of
// its incident edges, are removed. Each such version stays as a tombstone:
// its identity, its four times, the ops that created and closed it, and
// the SHA-256 of what was erased (ContentHash). It is its own batch, and
// it is logged as kind byte 7 (see package eventlog).
const OpErase OpKind = 7

// Erasure is what an erase op removes: one tombstone per version, listed
// when the erase is planned so that replaying the log finds the same
// versions and the same hashes (the content itself is gone by then).
type Erasure struct {
	UID   string
	Edges bool // also the props of every edge with UID as an endpoint
	Tombs []Tombstone
}

// Tombstone names one erased version and the hash of its content.
type Tombstone struct {
	Kind     RefKind // RefNode (the version is Erasure.UID's) or RefEdge
	Edge     EdgeKey // RefEdge: the edge identity
	Valid    Interval
	TTs, TTe Time
	Hash     string // lowercase hex SHA-256 (ContentHash / EdgeContentHash)
}

// Erasing is one stored version an erase empties (Effect.Erase).
type Erasing struct {
	Node bool
	H    Handle
	Hash string
}

// ErasureView is the View side an erase is planned against: every stored
// version, closed ones included.
type ErasureView interface {
	// AllNodeVersions returns every stored version of uid.
	AllNodeVersions(uid string) []NodeHit
	// AllIncidentEdges returns every stored version of every edge that
	// has uid as its source or destination.
	AllIncidentEdges(uid string) []EdgeHit
}

// ContentHash is the hash a node version's tombstone carries: the lowercase
// hex SHA-256 of the canonical JSON {"label":L,"props":{...}}.
func ContentHash(label string, props Props) string {
	b := append([]byte(`{"label":`), canon.AppendString(nil, label)...)
	b = append(b, `,"props":`...)
	b = append(b, props.JSON()...)
	b = append(b, '}')
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// EdgeContentHash is the hash an edge version's tombstone carries: the
// SHA-256 of the canonical JSON {"props":{...}}.
func EdgeContentHash(props Props) string {
	h := sha256.Sum256([]byte(`{"props":` + props.JSON() + `}`))
	return hex.EncodeToString(h[:])
}

// ErrNothingToErase is wrapped by PlanErase when every version it would
// erase already is.
var ErrNothingToErase = errors.New("nothing left to erase")

// ErrNoSuchNode is wrapped by PlanErase for a uid without node versions.
var ErrNoSuchNode = errors.New("no such node")

// PlanErase builds the erase op for uid against v: a tombstone for every
// stored version of uid (and with edges, of its incident edges), in
// canonical order. A uid without versions is an error, and so is one whose
// versions are all erased already (wrapping ErrNothingToErase).
func PlanErase(v ErasureView, uid string, edges bool) (Op, error) {
	if uid == "" {
		return Op{}, fmt.Errorf("erase: the uid is empty")
	}
	nodes := v.AllNodeVersions(uid)
	if len(nodes) == 0 {
		return Op{}, fmt.Errorf("erase: uid %q has no node version in the store (%w); nothing was erased (uids are case-sensitive: check it with entity_history)", uid, ErrNoSuchNode)
	}
	e := &Erasure{UID: uid, Edges: edges}
	pending := 0
	for _, h := range nodes {
		t := Tombstone{Kind: RefNode, Valid: h.V.Valid, TTs: h.V.TTs, TTe: h.V.TTe, Hash: h.V.Erased}
		if t.Hash == "" {
			t.Hash, pending = ContentHash(h.V.Label, h.V.Props), pending+1
		}
		e.Tombs = append(e.Tombs, t)
	}
	if edges {
		for _, h := range v.AllIncidentEdges(uid) {
			t := Tombstone{Kind: RefEdge, Edge: h.V.Key, Valid: h.V.Valid, TTs: h.V.TTs, TTe: h.V.TTe, Hash: h.V.Erased}
			if t.Hash == "" {
				t.Hash, pending = EdgeContentHash(h.V.Props), pending+1
			}
			e.Tombs = append(e.Tombs, t)
		}
	}
	if pending == 0 {
		return Op{}, fmt.Errorf("erase: every version of %q is erased already: %w", uid, ErrNothingToErase)
	}
	slices.SortFunc(e.Tombs, compareTombs)
	return Op{Kind: OpErase, Erase: e}, nil
}

func compareTombs(a, b Tombstone) int {
	if c := cmp.Compare(a.Kind, b.Kind); c != 0 {
		return c
	}
	if c := CompareEdgeKeys(a.Edge, b.Edge); c != 0 {
		return c
	}
	return cmp.Or(cmp.Compare(a.TTs, b.TTs), cmp.Compare(a.Valid.Start, b.Valid.Start))
}

func isHexHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func (op *Op) validateErase(i int) error {
	e := op.Erase
	if e == nil || e.UID == "" {
		return opErr(CodeInvalidArg, i, OpErase, "uid", "erase needs a non-empty uid")
	}
	for j, t := range e.Tombs {
		field := fmt.Sprintf("tombs[%d]", j)
		switch t.Kind {
		case RefNode:
		case RefEdge:
			if !e.Edges {
				return opErr(CodeInvalidArg, i, OpErase, field, "an edge tombstone in an erase without edges")
			}
			if t.Edge.Src != e.UID && t.Edge.Dst != e.UID {
				return opErr(CodeInvalidArg, i, OpErase, field, "edge %s→%s %s is not incident to %q", t.Edge.Src, t.Edge.Dst, t.Edge.RelType, e.UID)
			}
		default:
			return opErr(CodeInvalidArg, i, OpErase, field, "tombstone kind must be node or edge")
		}
		if t.Valid.Start >= t.Valid.End || t.TTs >= t.TTe {
			return opErr(CodeInvalidArg, i, OpErase, field, "empty interval (vt %s, tt [%d, %d))", t.Valid, t.TTs, t.TTe)
		}
		if !isHexHash(t.Hash) {
			return opErr(CodeInvalidArg, i, OpErase, field, "hash must be 64 lowercase hex digits")
		}
	}
	return nil
}

// checkEraseBatch refuses an erase op that shares its batch.
func checkEraseBatch(ops []Op) error {
	if len(ops) < 2 {
		return nil
	}
	for i := range ops {
		if ops[i].Kind == OpErase {
			return opErr(CodeInvalidArg, i, OpErase, "op", "an erase must be the only op of its batch")
		}
	}
	return nil
}

type tombKey struct {
	kind     RefKind
	edge     EdgeKey
	tts, vts Time
}

// erase matches the op's tombstones one to one with the stored versions.
func (p *planner) erase(i int, op *Op) error {
	ev, ok := p.v.(ErasureView)
	if !ok {
		return opErr(CodeInvalidArg, i, OpErase, "op", "this store cannot erase: erasure needs a store that lists every stored version (the native engine and the model store do)")
	}
	e := op.Erase
	type stored struct {
		h      Handle
		valid  Interval
		tte    Time
		erased string
		used   bool
	}
	have := map[tombKey]*stored{}
	for _, h := range ev.AllNodeVersions(e.UID) {
		have[tombKey{RefNode, EdgeKey{}, h.V.TTs, h.V.Valid.Start}] = &stored{h: h.H, valid: h.V.Valid, tte: h.V.TTe, erased: h.V.Erased}
	}
	if e.Edges {
		for _, h := range ev.AllIncidentEdges(e.UID) {
			have[tombKey{RefEdge, h.V.Key, h.V.TTs, h.V.Valid.Start}] = &stored{h: h.H, valid: h.V.Valid, tte: h.V.TTe, erased: h.V.Erased}
		}
	}
	if len(have) == 0 {
		return opErr(CodeNotFound, i, OpErase, "uid", "uid %q has no stored version", e.UID)
	}
	for j, t := range e.Tombs {
		field := fmt.Sprintf("tombs[%d]", j)
		s := have[tombKey{t.Kind, t.Edge, t.TTs, t.Valid.Start}]
		switch {
		case s == nil:
			return opErr(CodeNotFound, i, OpErase, field, "names no stored version (vt %s, tt_s %d)", t.Valid, t.TTs)
		case s.used:
			return opErr(CodeConflict, i, OpErase, field, "names a version another tombstone names")
		case s.valid != t.Valid || s.tte != t.TTe:
			return opErr(CodeConflict, i, OpErase, field, "the stored version has vt %s and tt_e %d, the tombstone vt %s and tt_e %d", s.valid, s.tte, t.Valid, t.TTe)
		case s.erased != "" && s.erased != t.Hash:
			return opErr(CodeConflict, i, OpErase, field, "the version was erased before with another hash")
		}
		s.used = true
		p.eff.Erase = append(p.eff.Erase, Erasing{Node: t.Kind == RefNode, H: s.h, Hash: t.Hash})
	}
	if len(e.Tombs) != len(have) {
		return opErr(CodeConflict, i, OpErase, "tombs", "the erase lists %d versions, but the store holds %d for %q", len(e.Tombs), len(have), e.UID)
	}
	return nil
}

// Scrub returns op with the content it holds about uid removed: the label
// and props of an assert_node of uid, the props of a correct of uid, and
// with edges the props of every assert_edge, correct and ingest event of
// an edge incident to uid. Identities, times and the shape of the op stay,
// so planning the scrubbed op writes the same versions (content never
// decides which versions a batch writes). The returned op shares nothing
// that was changed with op; changed reports whether anything was removed.
func Scrub(op Op, uid string, edges bool) (out Op, changed bool) {
	incident := func(k EdgeKey) bool { return edges && (k.Src == uid || k.Dst == uid) }
	switch op.Kind {
	case OpAssertNode:
		if op.UID == uid && (op.Label != "" || op.Props != "") {
			op.Label, op.Props, changed = "", "", true
		}
	case OpAssertEdge:
		if incident(op.Edge) && op.Props != "" {
			op.Props, changed = "", true
		}
	case OpCorrect:
		if op.Props != "" && (op.Ref.Kind == RefNode && op.Ref.UID == uid || op.Ref.Kind == RefEdge && incident(op.Ref.Edge)) {
			op.Props, changed = "", true
		}
	case OpIngest:
		if !edges {
			break
		}
		var evs []Event
		for j := range op.Events {
			e := &op.Events[j]
			if e.Props != "" && (e.Src == uid || e.Dst == uid) {
				if evs == nil {
					evs = slices.Clone(op.Events)
				}
				evs[j].Props = ""
			}
		}
		if evs != nil {
			op.Events, changed = evs, true
		}
	}
	return op, changed
}

// AllNodeVersions implements ErasureView.
func (m *MemStore) AllNodeVersions(uid string) []NodeHit {
	var out []NodeHit
	for _, i := range m.byUID[uid] {
		out = append(out, NodeHit{H: Handle(i), V: m.Nodes[i]})
	}
	return out
}

// AllIncidentEdges implements ErasureView.
func (m *MemStore) AllIncidentEdges(uid string) []EdgeHit {
	var out []EdgeHit
	for i, v := range m.Edges {
		if v.Key.Src == uid || v.Key.Dst == uid {
			out = append(out, EdgeHit{H: Handle(i), V: v})
		}
	}
	return out
}

// applyErase empties the versions an erase effect names.
func (m *MemStore) applyErase(eff *Effect) {
	for _, e := range eff.Erase {
		if e.Node {
			v := &m.Nodes[e.H]
			v.Label, v.Props, v.Erased = "", "", e.Hash
		} else {
			v := &m.Edges[e.H]
			v.Props, v.Erased = "", e.Hash
		}
	}
}
