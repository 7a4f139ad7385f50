package ops

import (
	"maps"
	"slices"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// Row builders and orders shared by the operators.

// EdgeRowSchema is the schema of edgeRow.
func EdgeRowSchema(desc string) *Schema {
	return Obj(desc, map[string]*Schema{
		"eid":        Str("edge identity id: first 24 hex of sha256 of [src,dst,rel_type,disc]"),
		"vid":        Str("version id: first 24 hex of sha256 of eid:tt_s:vt_s"),
		"src":        UIDField("source node"),
		"dst":        UIDField("destination node"),
		"rel_type":   Str("relation type"),
		"vt_s":       Int("valid from (µs)"),
		"vt_e":       Int("valid until, exclusive (µs; 2^62 = open)"),
		"provenance": ProvenanceSchema("entity_history: the provenance of the batch that wrote the version (see the operator)"),
	})
}

// vidOf is the version id of edge version v.
func vidOf(r Reader, v uint32) string {
	_, vid := r.EdgeIDs(v)
	return vid
}

// sortByStartVID orders edge versions by (vt_s, vid), the default order of
// rows that come from a scan. vids are hashed only to break ties.
func sortByStartVID(r Reader, vs []uint32) {
	cache := map[uint32]string{}
	vid := func(v uint32) string {
		if s, ok := cache[v]; ok {
			return s
		}
		s := vidOf(r, v)
		cache[v] = s
		return s
	}
	slices.SortStableFunc(vs, func(a, b uint32) int {
		sa, sb := r.Valid(a).Start, r.Valid(b).Start
		if sa != sb {
			return cmpOrdered(sa, sb)
		}
		if a == b {
			return 0
		}
		return strings.Compare(vid(a), vid(b))
	})
}

// nodeRows renders node versions as rows seen at belief time asOf: tt_e is
// censored to 2^62 (a read pinned at asOf cannot know later closings). The
// versions of one node repeat its uid and mostly its label, which are
// boxed once for all its rows (a boxed string is immutable, so rows may
// share it), and often its property bag, which is decoded once and copied.
type nodeRows struct {
	uid, label boxedString
	props      bt.Props       // the last bag decoded
	flat       map[string]any // its map, when no value in it is an array or object
}

func (nr *nodeRows) row(v bt.NodeVersion, vid string) map[string]any {
	return map[string]any{
		"uid": nr.uid.of(v.UID), "vid": vid, "label": nr.label.of(v.Label),
		"props": nr.propsMap(v.Props), "vt_s": v.Valid.Start, "vt_e": v.Valid.End,
		"tt_s": v.TTs, "tt_e": bt.OpenEnd, "created_by": opName(v.CreatedBy),
	}
}

// propsMap decodes p into a map of the row's own. A bag equal to the last
// one is copied from it instead, when it is flat: its values are then
// immutable scalars, and no row shares a container with another.
func (nr *nodeRows) propsMap(p bt.Props) map[string]any {
	if nr.flat != nil && p == nr.props {
		return maps.Clone(nr.flat)
	}
	m := p.Map()
	nr.props, nr.flat = p, m
	for _, v := range m {
		switch v.(type) {
		case []any, map[string]any:
			nr.flat = nil
		}
	}
	return m
}

// boxedString boxes strings as values of a payload, reusing the box of the
// previous string when it repeats.
type boxedString struct {
	s string
	v any
}

func (b *boxedString) of(s string) any {
	if b.v == nil || b.s != s {
		b.s, b.v = s, s
	}
	return b.v
}

// opNames holds the names of the write ops, boxed once.
var opNames = func() (names [8]any) {
	for i := range names {
		names[i] = bt.OpKind(i).String()
	}
	return names
}()

// opName is the name of op k as a payload value.
func opName(k bt.OpKind) any {
	if int(k) < len(opNames) {
		return opNames[k]
	}
	return k.String()
}

// NodeRowSchema is the schema of a node version row (nodeRows).
func NodeRowSchema(desc string) *Schema {
	return Obj(desc, map[string]*Schema{
		"uid":        UIDField("node uid"),
		"vid":        Str("version id: first 24 hex of sha256 of uid:tt_s:vt_s"),
		"label":      Str("node label"),
		"props":      Any("property bag (JSON object)"),
		"vt_s":       Int("valid from (µs)"),
		"vt_e":       Int("valid until, exclusive (µs; 2^62 = open)"),
		"tt_s":       Int("believed from (transaction time, µs)"),
		"tt_e":       Int("believed until: 2^62 (a pinned read cannot see later closings)"),
		"created_by": Enum("the write op that produced this version", "assert_node", "retract", "correct", "ingest"),
		"provenance": ProvenanceSchema("entity_history: the provenance of the batch that wrote the version (see the operator)"),
	})
}

// keyOf returns a RowKey that reads the named fields.
func keyOf(fields ...string) func(map[string]any) []any {
	return func(row map[string]any) []any {
		k := make([]any, len(fields))
		for i, f := range fields {
			k[i] = row[f]
		}
		return k
	}
}

// rowsOf wraps row maps as the []any a payload holds.
func rowsOf(rows []map[string]any) []any {
	out := make([]any, len(rows))
	for i, r := range rows {
		out[i] = r
	}
	return out
}
