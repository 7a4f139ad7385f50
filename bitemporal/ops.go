package bitemporal

import (
	"fmt"

	"github.com/tgms-go/tgms/canon"
)

// OpKind names a write operation. It is also recorded on every version as the
// op that created it and, once closed, the op that closed it.
type OpKind uint8

// The write operations.
const (
	OpNone       OpKind = iota // not closed (on ClosedBy)
	OpAssertNode               // assert_node: a node holds over an interval
	OpAssertEdge               // assert_edge: an edge holds over an interval
	OpRetract                  // retract: evolution, the fact ends from t on
	OpCorrect                  // correct: correction, we were wrong about an interval
	OpIngest                   // ingest: bulk instantaneous or interval events
	numOpKinds
)

var opNames = [...]string{"", "assert_node", "assert_edge", "retract", "correct", "ingest"}

// String returns the op's wire name ("assert_node", ...), or "" for OpNone.
func (k OpKind) String() string {
	if k == OpErase {
		return "erase"
	}
	if int(k) < len(opNames) {
		return opNames[k]
	}
	return fmt.Sprintf("op(%d)", uint8(k))
}

// ParseOpKind maps a wire name to its kind.
func ParseOpKind(s string) (OpKind, bool) {
	for i, n := range opNames {
		if i > 0 && n == s {
			return OpKind(i), true
		}
	}
	if s == "erase" {
		return OpErase, true
	}
	return OpNone, false
}

// IsCorrection reports whether closing a version with this op means "we were
// wrong" (correction) rather than "the world changed" (evolution).
func (k OpKind) IsCorrection() bool { return k == OpCorrect }

// Props is a property bag as canonical JSON object text. The empty string
// and "{}" both mean no properties; NewProps and ParseProps produce the
// canonical spelling, which is "" for an empty bag.
type Props string

// ParseProps canonicalizes JSON object text into Props.
func ParseProps(data []byte) (Props, error) {
	if len(data) == 0 {
		return "", nil
	}
	v, err := canon.Parse(data)
	if err != nil {
		return "", err
	}
	return NewProps(v)
}

// NewProps canonicalizes a decoded JSON object (map[string]any) into Props.
func NewProps(v any) (Props, error) {
	if v == nil {
		return "", nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return "", fmt.Errorf("props must be a JSON object, got %s", canon.Kind(v))
	}
	if len(m) == 0 {
		return "", nil
	}
	b, err := canon.Marshal(m)
	if err != nil {
		return "", err
	}
	return Props(b), nil
}

// JSON returns the canonical object text ("{}" when empty).
func (p Props) JSON() string {
	if p == "" {
		return "{}"
	}
	return string(p)
}

// Map decodes the bag into a new map; an empty bag decodes to an empty map.
// Its keys and unescaped string values share memory with p.
func (p Props) Map() map[string]any {
	if p == "" {
		return map[string]any{}
	}
	v, err := canon.ParseString(string(p))
	if err != nil {
		panic("bitemporal: stored props are not canonical JSON: " + err.Error())
	}
	return v.(map[string]any)
}

// EdgeKey is the logical identity of an edge. Disc (the discriminator) lets
// several independent edges with the same endpoints and type coexist.
type EdgeKey struct {
	Src, Dst, RelType, Disc string
}

// RefKind says whether a Ref names a node or an edge.
type RefKind uint8

// Ref kinds.
const (
	RefNode RefKind = iota + 1
	RefEdge
)

// Ref names one node (by uid) or one edge (by key), for retract and correct.
type Ref struct {
	Kind RefKind
	UID  string  // when Kind == RefNode
	Edge EdgeKey // when Kind == RefEdge
}

// NodeRef names a node.
func NodeRef(uid string) Ref { return Ref{Kind: RefNode, UID: uid} }

// EdgeRef names an edge.
func EdgeRef(k EdgeKey) Ref { return Ref{Kind: RefEdge, Edge: k} }

// String renders the ref for error messages.
func (r Ref) String() string {
	if r.Kind == RefNode {
		return fmt.Sprintf("node %q", r.UID)
	}
	return fmt.Sprintf("edge %s→%s %s disc %q", r.Edge.Src, r.Edge.Dst, r.Edge.RelType, r.Edge.Disc)
}

// Event is one edge event for bulk ingest. VtE == 0 means VtS+1 (an
// instantaneous event). Disc == "" means the store assigns a discriminator
// that no other edge has ("#<batch seq>.<index>").
type Event struct {
	Src, Dst, RelType string
	VtS, VtE          Time
	Disc              string
	Props             Props
}

// Valid returns the event's valid-time interval with the default end applied.
func (e *Event) Valid() Interval {
	if e.VtE == 0 {
		return Interval{e.VtS, e.VtS + 1}
	}
	return Interval{e.VtS, e.VtE}
}

// Op is one write operation. Which fields are used depends on Kind:
//
//	assert_node: UID, Label, Props, Valid
//	assert_edge: Edge, Props, Valid
//	retract:     Ref, At
//	correct:     Ref, Props, Valid
//	ingest:      Events, Label (the label of nodes it creates; default "Node")
type Op struct {
	Kind   OpKind
	UID    string
	Label  string
	Edge   EdgeKey
	Ref    Ref
	Props  Props
	Valid  Interval
	To     Interval // correct: where the fact really held (zero: where it was believed)
	At     Time
	Events []Event
	Erase  *Erasure // erase: what is erased (see erase.go)
}

// AssertNode builds an assert_node op.
func AssertNode(uid, label string, props Props, valid Interval) Op {
	return Op{Kind: OpAssertNode, UID: uid, Label: label, Props: props, Valid: valid}
}

// AssertEdge builds an assert_edge op.
func AssertEdge(k EdgeKey, props Props, valid Interval) Op {
	return Op{Kind: OpAssertEdge, Edge: k, Props: props, Valid: valid}
}

// Retract builds a retract op: the fact ends from t on (evolution).
func Retract(r Ref, t Time) Op { return Op{Kind: OpRetract, Ref: r, At: t} }

// Correct builds a correct op: over valid, the fact's props were wrong and
// are replaced by props (correction).
func Correct(r Ref, props Props, valid Interval) Op {
	return Op{Kind: OpCorrect, Ref: r, Props: props, Valid: valid}
}

// CorrectTime builds a correct op that moves a fact in valid time: what was
// believed over from in truth held over to, with props. It is a
// correction (we were wrong about when), not a retract and a new assert.
func CorrectTime(r Ref, props Props, from, to Interval) Op {
	return Op{Kind: OpCorrect, Ref: r, Props: props, Valid: from, To: to}
}

// Moves reports whether a correct op moves the fact in valid time.
func (op *Op) Moves() bool { return op.To != (Interval{}) }

// Ingest builds a bulk ingest op of events; nodes it creates get nodeLabel
// and are valid from their earliest event in the op. A writer that splits
// one load into several ops writes them in valid-time order, and corrects
// a believed node whose start an event precedes (see
// Planner.NodeStartCorrections).
func Ingest(events []Event, nodeLabel string) Op {
	return Op{Kind: OpIngest, Events: events, Label: nodeLabel}
}

// Error codes shared with the operator layer.
const (
	CodeInvalidArg = "E_INVALID_ARG"
	CodeNotFound   = "E_NOT_FOUND"
	CodeConflict   = "E_CONFLICT"
)

// OpError reports why one op of a batch was refused. The batch it belongs
// to is not applied.
type OpError struct {
	Code  string // E_INVALID_ARG, E_NOT_FOUND, E_CONFLICT
	Op    int    // index of the op in its batch
	Kind  OpKind
	Event int    // index of the event within an ingest op, or -1
	Field string // offending field, if one
	Msg   string
}

func (e *OpError) Error() string {
	where := fmt.Sprintf("op %d (%s)", e.Op, e.Kind)
	if e.Event >= 0 {
		where += fmt.Sprintf(" event %d", e.Event)
	}
	if e.Field != "" {
		where += " field " + e.Field
	}
	return fmt.Sprintf("%s: %s: %s", e.Code, where, e.Msg)
}

func opErr(code string, i int, k OpKind, field, format string, args ...any) *OpError {
	return &OpError{Code: code, Op: i, Kind: k, Event: -1, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Validate checks one op in isolation (everything that does not need the
// store): required fields, interval order and range, props canonical form.
// i is the op's index, used in the error.
func (op *Op) Validate(i int) error {
	k := op.Kind
	checkIv := func(field string, iv Interval) error {
		if iv.Start < 0 || iv.End > OpenEnd {
			return opErr(CodeInvalidArg, i, k, field, "interval %s outside [0, 2^62]", iv)
		}
		if iv.Start >= iv.End {
			return opErr(CodeInvalidArg, i, k, field, "interval %s is empty: the end must be after the start", iv)
		}
		return nil
	}
	switch k {
	case OpAssertNode:
		if op.UID == "" {
			return opErr(CodeInvalidArg, i, k, "uid", "uid must be a non-empty string")
		}
		if err := checkProps(i, k, op.Props); err != nil {
			return err
		}
		return checkIv("vt", op.Valid)
	case OpAssertEdge:
		if err := checkEdgeKey(i, k, op.Edge); err != nil {
			return err
		}
		if err := checkProps(i, k, op.Props); err != nil {
			return err
		}
		return checkIv("vt", op.Valid)
	case OpRetract:
		if err := checkRef(i, k, op.Ref); err != nil {
			return err
		}
		if op.At < 0 || op.At > OpenEnd {
			return opErr(CodeInvalidArg, i, k, "t", "time %d outside [0, 2^62]", op.At)
		}
		return nil
	case OpCorrect:
		if err := checkRef(i, k, op.Ref); err != nil {
			return err
		}
		if err := checkProps(i, k, op.Props); err != nil {
			return err
		}
		if op.Moves() {
			if err := checkIv("to_vt", op.To); err != nil {
				return err
			}
		}
		return checkIv("vt", op.Valid)
	case OpIngest:
		for j := range op.Events {
			if err := checkEvent(i, j, &op.Events[j]); err != nil {
				return err
			}
		}
		return nil
	case OpErase:
		return op.validateErase(i)
	}
	return opErr(CodeInvalidArg, i, k, "op", "unknown op kind %d: use assert_node, assert_edge, retract, correct or ingest", uint8(k))
}

func checkEdgeKey(i int, k OpKind, e EdgeKey) error {
	switch {
	case e.Src == "":
		return opErr(CodeInvalidArg, i, k, "src", "src must be a non-empty uid")
	case e.Dst == "":
		return opErr(CodeInvalidArg, i, k, "dst", "dst must be a non-empty uid")
	case e.RelType == "":
		return opErr(CodeInvalidArg, i, k, "rel_type", "rel_type must be a non-empty string")
	}
	return nil
}

func checkRef(i int, k OpKind, r Ref) error {
	switch r.Kind {
	case RefNode:
		if r.UID == "" {
			return opErr(CodeInvalidArg, i, k, "ref.uid", "node ref needs a non-empty uid")
		}
		return nil
	case RefEdge:
		return checkEdgeKey(i, k, r.Edge)
	}
	return opErr(CodeInvalidArg, i, k, "ref.kind", "ref kind must be \"node\" or \"edge\"")
}

func checkProps(i int, k OpKind, p Props) error {
	if p == "" {
		return nil
	}
	if p[0] == '{' && p != "{}" && canon.IsCanonical(string(p)) {
		return nil // the common case, decided without building the value
	}
	c, err := canon.Canonicalize([]byte(p))
	if err != nil {
		return opErr(CodeInvalidArg, i, k, "props", "%v", err)
	}
	if len(c) == 0 || c[0] != '{' {
		return opErr(CodeInvalidArg, i, k, "props", "props must be a JSON object")
	}
	if string(c) != string(p) || string(c) == "{}" {
		return opErr(CodeInvalidArg, i, k, "props", "props are not in canonical form (build them with NewProps or ParseProps)")
	}
	return nil
}

// Validate checks one event on its own (what bulk ingest checks).
func (e *Event) Validate() error {
	if err := checkEvent(0, 0, e); err != nil {
		oe := err.(*OpError)
		if oe.Field != "" {
			return fmt.Errorf("field %q: %s", oe.Field, oe.Msg)
		}
		return fmt.Errorf("%s", oe.Msg)
	}
	return nil
}

func checkEvent(i, j int, e *Event) error {
	fail := func(field, format string, args ...any) error {
		err := opErr(CodeInvalidArg, i, OpIngest, field, format, args...)
		err.Event = j
		return err
	}
	switch {
	case e.Src == "":
		return fail("src", "src must be a non-empty uid")
	case e.Dst == "":
		return fail("dst", "dst must be a non-empty uid")
	case e.RelType == "":
		return fail("rel_type", "rel_type must be a non-empty string")
	case e.VtS < 0 || e.VtS >= OpenEnd:
		return fail("vt_s", "time %d outside [0, 2^62)", e.VtS)
	case e.VtE != 0 && (e.VtE <= e.VtS || e.VtE > OpenEnd):
		return fail("vt_e", "end %d must be after start %d and at most 2^62", e.VtE, e.VtS)
	}
	if e.Props != "" {
		if err := checkProps(i, OpIngest, e.Props); err != nil {
			oe := err.(*OpError)
			oe.Event = j
			return oe
		}
	}
	return nil
}
