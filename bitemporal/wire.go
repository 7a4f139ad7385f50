package bitemporal

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tgms-go/tgms/canon"
)

// The JSON wire form of write ops, read by `tgms write --ops` (one op per
// line, the file being one batch) and written by EncodeOp:
//
//	{"op":"assert_node","uid":"a","label":"Person","props":{...},"vt_s":T,"vt_e":T}
//	{"op":"assert_edge","src":"a","dst":"b","rel_type":"KNOWS","disc":"","props":{...},"vt_s":T,"vt_e":T}
//	{"op":"retract","ref":REF,"t":T}
//	{"op":"correct","ref":REF,"props":{...},"vt_s":T,"vt_e":T}
//	{"op":"correct","ref":REF,"props":{...},"vt_s":T,"vt_e":T,"to_vt_s":T,"to_vt_e":T}
//	    (the fact believed over [vt_s, vt_e) held over [to_vt_s, to_vt_e))
//	{"op":"ingest","node_label":"Node","events":[{"src":..,"dst":..,"rel_type":..,"vt_s":T,"vt_e":T,"disc":..,"props":{...}}, ...]}
//
// REF is {"kind":"node","uid":"a"} or {"kind":"edge","src":..,"dst":..,"rel_type":..,"disc":..}.
// A time T is an integer (µs since the epoch) or an RFC 3339 string. props,
// disc, label, node_label, vt_s (0) and vt_e (open; for events vt_s+1) may
// be left out. Unknown fields are errors.

// DecodeOp reads one op from its JSON text.
func DecodeOp(data []byte) (Op, error) {
	v, err := canon.Parse(data)
	if err != nil {
		return Op{}, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return Op{}, fmt.Errorf("an op must be a JSON object, got %s", canon.Kind(v))
	}
	d := &decoder{m: m, used: map[string]bool{}}
	var op Op
	name := d.str("op", true)
	kind, ok := ParseOpKind(name)
	if d.err == nil && !ok {
		d.fail("op", "unknown op %q: use assert_node, assert_edge, retract, correct or ingest", name)
	}
	op.Kind = kind
	switch kind {
	case OpAssertNode:
		op.UID, op.Label = d.str("uid", true), d.str("label", false)
		op.Props, op.Valid = d.props("props"), d.interval()
	case OpAssertEdge:
		op.Edge = EdgeKey{d.str("src", true), d.str("dst", true), d.str("rel_type", true), d.str("disc", false)}
		op.Props, op.Valid = d.props("props"), d.interval()
	case OpRetract:
		op.Ref, op.At = d.ref(), d.time("t", true, 0)
	case OpCorrect:
		op.Ref, op.Props, op.Valid = d.ref(), d.props("props"), d.interval()
		if _, moves := d.m["to_vt_s"]; moves {
			op.To = Interval{d.time("to_vt_s", true, 0), d.time("to_vt_e", false, OpenEnd)}
		} else if _, end := d.m["to_vt_e"]; end {
			d.fail("to_vt_s", "is required with to_vt_e (where the fact really started)")
		}
	case OpIngest:
		op.Label = d.str("node_label", false)
		evs, _ := d.field("events", true).([]any)
		if d.err == nil && evs == nil {
			d.fail("events", "must be an array of events")
		}
		for i, ev := range evs {
			if d.err != nil {
				break
			}
			em, ok := ev.(map[string]any)
			if !ok {
				d.fail(fmt.Sprintf("events[%d]", i), "an event must be a JSON object")
				break
			}
			e, err := decodeEvent(em)
			if err != nil {
				d.err = fmt.Errorf("events[%d]: %w", i, err)
				break
			}
			op.Events = append(op.Events, e)
		}
	}
	if err := d.done(); err != nil {
		return Op{}, err
	}
	return op, nil
}

// DecodeEvent reads one ingest event from a decoded JSON object.
func DecodeEvent(m map[string]any) (Event, error) { return decodeEvent(m) }

func decodeEvent(m map[string]any) (Event, error) {
	d := &decoder{m: m, used: map[string]bool{}}
	e := Event{Src: d.str("src", true), Dst: d.str("dst", true), RelType: d.str("rel_type", true), Disc: d.str("disc", false)}
	e.VtS = d.time("vt_s", true, 0)
	e.VtE = d.time("vt_e", false, 0)
	if _, given := m["vt_e"]; given && d.err == nil && e.VtE <= e.VtS {
		d.fail("vt_e", "%d must be after vt_s %d (leave vt_e out for an instantaneous event)", e.VtE, e.VtS)
	}
	e.Props = d.props("props")
	return e, d.done()
}

type decoder struct {
	m    map[string]any
	used map[string]bool
	err  error
}

func (d *decoder) fail(field, format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("field %q: %s", field, fmt.Sprintf(format, args...))
	}
}

func (d *decoder) field(name string, required bool) any {
	d.used[name] = true
	v, ok := d.m[name]
	switch {
	case !ok && required:
		d.fail(name, "is required")
	case ok && v == nil:
		d.fail(name, "must not be null (leave the field out for its default)")
	}
	return v
}

func (d *decoder) str(name string, required bool) string {
	v := d.field(name, required)
	if v == nil {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		d.fail(name, "must be a string, got %s", canon.Kind(v))
	}
	return s
}

func (d *decoder) time(name string, required bool, def Time) Time {
	v := d.field(name, required)
	switch x := v.(type) {
	case nil:
		return def
	case int64:
		return x
	case string:
		t, err := ParseTime(x)
		if err != nil {
			d.fail(name, "%v", err)
		}
		return t
	}
	d.fail(name, "must be an integer (µs since the epoch) or an RFC 3339 string, got %s", canon.Kind(v))
	return 0
}

func (d *decoder) interval() Interval {
	return Interval{d.time("vt_s", false, 0), d.time("vt_e", false, OpenEnd)}
}

func (d *decoder) props(name string) Props {
	v := d.field(name, false)
	if v == nil {
		return ""
	}
	p, err := NewProps(v)
	if err != nil {
		d.fail(name, "%v", err)
	}
	return p
}

func (d *decoder) ref() Ref {
	v := d.field("ref", true)
	m, ok := v.(map[string]any)
	if !ok {
		if v != nil {
			d.fail("ref", "must be an object {\"kind\":\"node\",\"uid\":...} or {\"kind\":\"edge\",...}")
		}
		return Ref{}
	}
	sub := &decoder{m: m, used: map[string]bool{}}
	var r Ref
	switch kind := sub.str("kind", true); kind {
	case "node":
		r = NodeRef(sub.str("uid", true))
	case "edge":
		r = EdgeRef(EdgeKey{sub.str("src", true), sub.str("dst", true), sub.str("rel_type", true), sub.str("disc", false)})
	default:
		sub.fail("kind", "must be \"node\" or \"edge\", got %q", kind)
	}
	if err := sub.done(); err != nil && d.err == nil {
		d.err = fmt.Errorf("ref: %w", err)
	}
	return r
}

func (d *decoder) done() error {
	if d.err != nil {
		return d.err
	}
	var extra []string
	for k := range d.m {
		if !d.used[k] {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		slices.Sort(extra)
		return fmt.Errorf("unknown field(s) %s", strings.Join(extra, ", "))
	}
	return nil
}

// EncodeOp renders an op in its canonical JSON wire form (all defaults
// written out), the inverse of DecodeOp.
func EncodeOp(op Op) ([]byte, error) {
	m := map[string]any{"op": op.Kind.String()}
	props := func(p Props) any { return canon.Raw(p.JSON()) }
	ref := func(r Ref) map[string]any {
		if r.Kind == RefNode {
			return map[string]any{"kind": "node", "uid": r.UID}
		}
		return map[string]any{"kind": "edge", "src": r.Edge.Src, "dst": r.Edge.Dst, "rel_type": r.Edge.RelType, "disc": r.Edge.Disc}
	}
	switch op.Kind {
	case OpAssertNode:
		m["uid"], m["label"], m["props"], m["vt_s"], m["vt_e"] = op.UID, op.Label, props(op.Props), op.Valid.Start, op.Valid.End
	case OpAssertEdge:
		m["src"], m["dst"], m["rel_type"], m["disc"] = op.Edge.Src, op.Edge.Dst, op.Edge.RelType, op.Edge.Disc
		m["props"], m["vt_s"], m["vt_e"] = props(op.Props), op.Valid.Start, op.Valid.End
	case OpRetract:
		m["ref"], m["t"] = ref(op.Ref), op.At
	case OpCorrect:
		m["ref"], m["props"], m["vt_s"], m["vt_e"] = ref(op.Ref), props(op.Props), op.Valid.Start, op.Valid.End
		if op.Moves() {
			m["to_vt_s"], m["to_vt_e"] = op.To.Start, op.To.End
		}
	case OpIngest:
		evs := make([]any, len(op.Events))
		for i, e := range op.Events {
			iv := e.Valid()
			evs[i] = map[string]any{"src": e.Src, "dst": e.Dst, "rel_type": e.RelType, "disc": e.Disc, "props": props(e.Props), "vt_s": iv.Start, "vt_e": iv.End}
		}
		m["node_label"], m["events"] = op.Label, evs
	default:
		return nil, fmt.Errorf("cannot encode op kind %d", op.Kind)
	}
	return canon.Marshal(m)
}
