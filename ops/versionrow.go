package ops

import (
	"errors"
	"strconv"
	"unicode/utf8"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
)

// Version rows: node and edge version rows built from the engine's
// columns and encoded straight to canonical JSON, with no map per row.
// Each is a canon.Sized: the digest walk encodes it as it is, and its
// encoding and Footprint are byte for byte those of its map form (Map),
// which ExecuteOn builds for callers that read rows as maps. Rows whose
// property bag holds a float stay maps (the digest rounds floats, which
// the stored text does not).

// nodeVersionRow is a node version row seen at a pinned belief time
// (NodeRowSchema): tt_e is 2^62.
type nodeVersionRow struct {
	uid, vid, label string
	props           bt.Props // canonical text, float-free
	propsSize       int64    // Footprint of the decoded bag
	vts, vte, tts   int64
	createdBy       bt.OpKind
	prov            map[string]any // nil: none shown
}

// edgeVersionRow is an edge version row (EdgeRowSchema).
type edgeVersionRow struct {
	eid, vid, src, dst, rel string
	vts, vte                int64
	prov                    map[string]any // nil: none shown
}

// AppendCanonical appends the row's canonical JSON: its members in key
// byte order.
func (r *nodeVersionRow) AppendCanonical(b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"created_by":`...)
	b = canon.AppendString(b, r.createdBy.String())
	b = append(b, `,"label":`...)
	b = appendText(b, r.label, &err)
	b = append(b, `,"props":`...)
	b = append(b, r.props.JSON()...)
	if r.prov != nil {
		b = append(b, `,"provenance":`...)
		if b, err = canon.AppendValue(b, r.prov); err != nil {
			return b, err
		}
	}
	b = append(b, openTTe...)
	b = canon.AppendInt(b, r.tts)
	b = append(b, `,"uid":`...)
	b = appendText(b, r.uid, &err)
	b = append(b, `,"vid":`...)
	b = canon.AppendString(b, r.vid)
	b = append(b, `,"vt_e":`...)
	b = canon.AppendInt(b, r.vte)
	b = append(b, `,"vt_s":`...)
	b = canon.AppendInt(b, r.vts)
	return append(b, '}'), err
}

// Footprint is canon.Footprint of the row's map form.
func (r *nodeVersionRow) Footprint() int64 {
	n := int64(48) + 9*16 + int64(len("uidvidlabelpropsvt_svt_ett_stt_ecreated_by"))
	n += 16 + int64(len(r.uid)) + 16 + int64(len(r.vid)) + 16 + int64(len(r.label)) + r.propsSize
	n += 4 * 16 // vt_s, vt_e, tt_s, tt_e
	n += 16 + int64(len(r.createdBy.String()))
	if r.prov != nil {
		n += 16 + int64(len("provenance")) + canon.Footprint(r.prov)
	}
	return n
}

// Map is the row as a map, as the operators built it before rows were
// typed.
func (r *nodeVersionRow) Map() map[string]any {
	m := map[string]any{
		"uid": r.uid, "vid": r.vid, "label": r.label, "props": r.props.Map(),
		"vt_s": r.vts, "vt_e": r.vte, "tt_s": r.tts, "tt_e": bt.OpenEnd, "created_by": opName(r.createdBy),
	}
	if r.prov != nil {
		m["provenance"] = r.prov
	}
	return m
}

// AppendCanonical appends the row's canonical JSON.
func (r *edgeVersionRow) AppendCanonical(b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"dst":`...)
	b = appendText(b, r.dst, &err)
	b = append(b, `,"eid":`...)
	b = canon.AppendString(b, r.eid)
	if r.prov != nil {
		b = append(b, `,"provenance":`...)
		if b, err = canon.AppendValue(b, r.prov); err != nil {
			return b, err
		}
	}
	b = append(b, `,"rel_type":`...)
	b = appendText(b, r.rel, &err)
	b = append(b, `,"src":`...)
	b = appendText(b, r.src, &err)
	b = append(b, `,"vid":`...)
	b = canon.AppendString(b, r.vid)
	b = append(b, `,"vt_e":`...)
	b = canon.AppendInt(b, r.vte)
	b = append(b, `,"vt_s":`...)
	b = canon.AppendInt(b, r.vts)
	return append(b, '}'), err
}

// Footprint is canon.Footprint of the row's map form.
func (r *edgeVersionRow) Footprint() int64 {
	n := int64(48) + 7*16 + int64(len("eidvidsrcdstrel_typevt_svt_e"))
	n += 16 + int64(len(r.eid)) + 16 + int64(len(r.vid)) + 16 + int64(len(r.src)) + 16 + int64(len(r.dst)) + 16 + int64(len(r.rel))
	n += 2 * 16
	if r.prov != nil {
		n += 16 + int64(len("provenance")) + canon.Footprint(r.prov)
	}
	return n
}

// Map is the row as a map (edgeRow's form).
func (r *edgeVersionRow) Map() map[string]any {
	m := map[string]any{
		"eid": r.eid, "vid": r.vid, "src": r.src, "dst": r.dst, "rel_type": r.rel,
		"vt_s": r.vts, "vt_e": r.vte,
	}
	if r.prov != nil {
		m["provenance"] = r.prov
	}
	return m
}

// pairRow is a co_active row: {"a": edge row, "b": edge row}.
type pairRow struct{ a, b *edgeVersionRow }

// AppendCanonical appends the pair's canonical JSON.
func (p *pairRow) AppendCanonical(b []byte) ([]byte, error) {
	b = append(b, `{"a":`...)
	b, err := p.a.AppendCanonical(b)
	if err != nil {
		return b, err
	}
	b = append(b, `,"b":`...)
	if b, err = p.b.AppendCanonical(b); err != nil {
		return b, err
	}
	return append(b, '}'), nil
}

// Footprint is canon.Footprint of the pair's map form.
func (p *pairRow) Footprint() int64 {
	return 48 + 2*(16+1) + p.a.Footprint() + p.b.Footprint()
}

// Map is the pair as a map of its two typed rows (plainRows turns them
// into maps too).
func (p *pairRow) Map() map[string]any { return map[string]any{"a": p.a, "b": p.b} }

// appendText appends s as a canonical JSON string, or fails as Marshal
// would when s is not UTF-8.
func appendText(b []byte, s string, err *error) []byte {
	if !utf8.ValidString(s) && *err == nil {
		*err = errNotUTF8
	}
	return canon.AppendString(b, s)
}

var errNotUTF8 = errors.New("canon: invalid UTF-8 in string")

// provMap is the provenance member of a version row written by a batch
// of provenance p (nil: the store's default), or nil when the row shows
// none: a batch's default (derived) provenance only when all.
func provMap(p *bt.Provenance, all bool) map[string]any {
	if p == nil {
		p = bt.SystemProvenance
	}
	if !p.Derived || all {
		return p.Map()
	}
	return nil
}

// newNodeVersionRow is node version v (id vid) as a typed row, or nil
// when its bag holds a float (the caller then builds the map row).
func newNodeVersionRow(v bt.NodeVersion, vid string) *nodeVersionRow {
	r, ok := makeNodeVersionRow(v, vid)
	if !ok {
		return nil
	}
	return &r
}

// makeNodeVersionRow is newNodeVersionRow as a value, and false when the
// bag holds a float.
func makeNodeVersionRow(v bt.NodeVersion, vid string) (nodeVersionRow, bool) {
	size, floats := canon.TextFootprint(v.Props.JSON())
	if floats {
		return nodeVersionRow{}, false
	}
	return nodeVersionRow{uid: v.UID, vid: vid, label: v.Label, props: v.Props, propsSize: size,
		vts: v.Valid.Start, vte: v.Valid.End, tts: v.TTs, createdBy: v.CreatedBy}, true
}

// newEdgeVersionRow is edge version v as a typed row.
func newEdgeVersionRow(r Reader, v uint32) *edgeVersionRow {
	eid, vid := r.EdgeIDs(v)
	iv := r.Valid(v)
	return &edgeVersionRow{eid: eid, vid: vid, src: r.UID(r.Src(v)), dst: r.UID(r.Dst(v)), rel: r.RelType(v),
		vts: iv.Start, vte: iv.End}
}

// typedRow is a row that encodes itself (canon.Sized) and has a map form.
type typedRow interface {
	canon.Sized
	Map() map[string]any
}

// openTTe is the tt_e member of a pinned read's node row (2^62) and the
// start of the next, written once.
var openTTe = `,"tt_e":` + strconv.FormatInt(bt.OpenEnd, 10) + `,"tt_s":`

// rowMap is a row, map or typed, as a map (row keys read it).
func rowMap(row any) map[string]any {
	switch x := row.(type) {
	case map[string]any:
		return x
	case typedRow:
		return x.Map()
	}
	return nil
}

// plainRows replaces the typed rows in payload, at any depth, with their
// map forms; a typed row that appears twice becomes one shared map, as
// the operators shared them.
func plainRows(payload map[string]any) {
	seen := map[any]map[string]any{}
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case typedRow:
			m, ok := seen[x]
			if !ok {
				m = x.Map()
				seen[x] = m
				for k, e := range m {
					if _, ok := e.(typedRow); ok { // a pair row's members are rows
						m[k] = walk(e)
					}
				}
			}
			return m
		case []any:
			for i, e := range x {
				x[i] = walk(e)
			}
		case map[string]any:
			for k, e := range x {
				switch e.(type) {
				case typedRow, []any, map[string]any:
					x[k] = walk(e)
				}
			}
		}
		return v
	}
	walk(payload)
}
