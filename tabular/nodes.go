package tabular

import (
	"cmp"
	"fmt"
	"slices"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// NodeTable is a node table read through a mapping: one assert_node op
// per row.
type NodeTable struct {
	Ops    []bt.Op
	Pos    []Pos // of each op's row
	Rows   int64
	SHA256 string
}

// ReadNodes reads every row of rd as one node version: uid, label (a
// label column, or one label for all), props, valid over [valid_from,
// valid_to) (an empty or absent valid_from: from the start of time; an
// empty or absent valid_to: still holding). Several rows of one uid are
// its history and must not overlap in valid time.
func ReadNodes(rd Reader, m *Mapping, opt Options) (*NodeTable, error) {
	b, err := newBinder(rd, rowFile(rd), m)
	if err != nil {
		return nil, mappingErr(err)
	}
	tf, err := ParseTimeFormat(m.TimeFormat, m.TZ)
	if err != nil {
		return nil, mappingErr(err)
	}
	uid, err := b.need(m.UID, "--uid", "the node uid")
	if err != nil {
		return nil, mappingErr(err)
	}
	var from, to, labelCol col
	if m.ValidFrom != "" {
		if from, err = b.bind(m.ValidFrom, "valid-from"); err != nil {
			return nil, mappingErr(err)
		}
	}
	if m.ValidTo != "" {
		if to, err = b.bind(m.ValidTo, "valid-to"); err != nil {
			return nil, mappingErr(err)
		}
	}
	if m.LabelCol != "" && m.Label != "" {
		return nil, mappingErr(fmt.Errorf("give one of --label NAME and --label-col COLUMN, not both"))
	}
	if m.LabelCol != "" {
		if labelCol, err = b.bind(m.LabelCol, "the node label"); err != nil {
			return nil, mappingErr(err)
		}
	}
	if err := b.bindProps(m.Props); err != nil {
		return nil, mappingErr(err)
	}
	label := m.Label
	if label == "" {
		label = DefaultNodeLabel
	}
	out := &NodeTable{}
	probs, n, err := b.each(opt, func(r *Row) *CellError {
		u, e := b.str(r, uid, true, "a node uid")
		if e != nil {
			return e
		}
		l := label
		if labelCol.ok() {
			if l, e = b.str(r, labelCol, false, "a node label"); e != nil {
				return e
			}
		}
		iv := bt.Interval{Start: 0, End: bt.OpenEnd}
		if from.ok() {
			t, _, e := b.time(r, from, tf)
			if e != nil {
				return e
			}
			iv.Start = t
		}
		if to.ok() {
			t, null, e := b.time(r, to, tf)
			if e != nil {
				return e
			}
			if !null {
				if t <= iv.Start {
					text, val, isText, _ := b.cell(r, to)
					return b.bad(r, to, text, val, isText, "not after valid-from "+bt.FormatRFC3339(iv.Start), "a valid-to after valid-from, or an empty cell for a version still holding")
				}
				iv.End = t
			}
		}
		p, e := b.propsOf(r)
		if e != nil {
			return e
		}
		out.Ops = append(out.Ops, bt.AssertNode(u, l, p, iv))
		out.Pos = append(out.Pos, r.Pos)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if probs == nil {
		probs = overlaps(out, max(1, opt.MaxProblems))
	}
	if probs != nil {
		return nil, probs
	}
	out.Rows = n
	out.SHA256 = rd.SHA256()
	return out, nil
}

// overlaps reports rows of one uid whose valid intervals overlap.
func overlaps(t *NodeTable, limit int) *Problems {
	idx := make([]int, len(t.Ops))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(t.Ops[a].UID, t.Ops[b].UID), cmp.Compare(t.Ops[a].Valid.Start, t.Ops[b].Valid.Start))
	})
	probs := &Problems{Limit: limit}
	for k := 1; k < len(idx); k++ {
		a, b := &t.Ops[idx[k-1]], &t.Ops[idx[k]]
		if a.UID == b.UID && b.Valid.Start < a.Valid.End {
			probs.add(&CellError{Pos: t.Pos[idx[k]], Msg: fmt.Sprintf("node %q: valid time %s overlaps %s of the row at %s", b.UID, b.Valid, a.Valid, t.Pos[idx[k-1]]), Expected: "one row per version: the versions of a uid must not overlap in valid time"})
		}
	}
	if probs.Count() == 0 {
		return nil
	}
	return probs
}
