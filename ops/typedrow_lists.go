package ops

import (
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
)

// diffEdgeRow is an entry of diff_snapshots' edge lists (diffEdgeSchema).
type diffEdgeRow struct{ eid, src, dst, rel string }

// AppendCanonical appends the entry's canonical JSON.
func (r *diffEdgeRow) AppendCanonical(b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"dst":`...)
	b = appendText(b, r.dst, &err)
	b = append(b, `,"eid":`...)
	b = canon.AppendString(b, r.eid)
	b = append(b, `,"rel_type":`...)
	b = appendText(b, r.rel, &err)
	b = append(b, `,"src":`...)
	b = appendText(b, r.src, &err)
	return append(b, '}'), err
}

// Footprint is canon.Footprint of the entry's map form.
func (r *diffEdgeRow) Footprint() int64 {
	return 48 + 4*16 + int64(len("eidsrcdstrel_type")) + 4*16 + int64(len(r.eid)+len(r.src)+len(r.dst)+len(r.rel))
}

// Map is the entry as a map.
func (r *diffEdgeRow) Map() map[string]any {
	return map[string]any{"eid": r.eid, "src": r.src, "dst": r.dst, "rel_type": r.rel}
}

// diffChangeRow is an entry of props_changed: a node's label and props,
// or an edge's props, at t1 (from) and t2 (to).
type diffChangeRow struct {
	node               bool
	id                 string
	fromLabel, toLabel string // node entries
	from, to           bt.Props
	fromSize, toSize   int64 // Footprint of the decoded bags
}

// newDiffChangeRow is the entry, or its map form when a bag holds a
// float (which the digest rounds).
func newDiffChangeRow(r *diffChangeRow) any {
	var f1, f2 bool
	r.fromSize, f1 = canon.TextFootprint(r.from.JSON())
	r.toSize, f2 = canon.TextFootprint(r.to.JSON())
	if f1 || f2 {
		return r.Map()
	}
	return r
}

// AppendCanonical appends the entry's canonical JSON.
func (r *diffChangeRow) AppendCanonical(b []byte) ([]byte, error) {
	var err error
	content := func(label string, p bt.Props) {
		b = append(b, '{')
		if r.node {
			b = append(b, `"label":`...)
			b = appendText(b, label, &err)
			b = append(b, ',')
		}
		b = append(b, `"props":`...)
		b = append(b, p.JSON()...)
		b = append(b, '}')
	}
	b = append(b, `{"from":`...)
	content(r.fromLabel, r.from)
	b = append(b, `,"id":`...)
	b = appendText(b, r.id, &err)
	b = append(b, `,"kind":`...)
	b = append(b, r.kind()...)
	b = append(b, `,"to":`...)
	content(r.toLabel, r.to)
	return append(b, '}'), err
}

// kind is the entry's kind as JSON text.
func (r *diffChangeRow) kind() string {
	if r.node {
		return `"node"`
	}
	return `"edge"`
}

// Footprint is canon.Footprint of the entry's map form.
func (r *diffChangeRow) Footprint() int64 {
	content := func(label string, size int64) int64 {
		n := 48 + 16 + int64(len("props")) + size
		if r.node {
			n += 16 + int64(len("label")) + 16 + int64(len(label))
		}
		return n
	}
	n := int64(48) + 4*16 + int64(len("kindidfromto"))
	n += 16 + int64(len(r.id)) + 16 + 4 // kind: "node" or "edge"
	return n + content(r.fromLabel, r.fromSize) + content(r.toLabel, r.toSize)
}

// Map is the entry as a map, as diff_snapshots built it before entries
// were typed.
func (r *diffChangeRow) Map() map[string]any {
	if r.node {
		return map[string]any{"kind": "node", "id": r.id,
			"from": map[string]any{"label": r.fromLabel, "props": r.from.Map()},
			"to":   map[string]any{"label": r.toLabel, "props": r.to.Map()}}
	}
	return map[string]any{"kind": "edge", "id": r.id,
		"from": map[string]any{"props": r.from.Map()},
		"to":   map[string]any{"props": r.to.Map()}}
}

// degreeRow is an entry of neighborhood_evolution's degree_series.
type degreeRow struct{ t, degree int64 }

// AppendCanonical appends the entry's canonical JSON.
func (r *degreeRow) AppendCanonical(b []byte) ([]byte, error) {
	b = append(b, `{"degree":`...)
	b = canon.AppendInt(b, r.degree)
	b = append(b, `,"t":`...)
	b = canon.AppendInt(b, r.t)
	return append(b, '}'), nil
}

// Footprint is canon.Footprint of the entry's map form.
func (r *degreeRow) Footprint() int64 { return 48 + 2*(16+16) + int64(len("degreet")) }

// Map is the entry as a map.
func (r *degreeRow) Map() map[string]any { return map[string]any{"t": r.t, "degree": r.degree} }
