package tabular

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// Batch is the changes recorded at one time: written as one batch whose
// transaction time is TT.
type Batch struct {
	TT   bt.Time
	Ops  []bt.Op
	Rows [][]Pos // per op, the rows it came from (one per event of an ingest op)
	// Prov is the provenance the batch's rows state (nil: none, the
	// batch gets its default) and Override their override cell.
	Prov     *bt.Provenance
	Override bool
}

// Where names the row of op i (event j of an ingest op, else -1).
func (b *Batch) Where(i, j int) Pos {
	if i < 0 || i >= len(b.Rows) || len(b.Rows[i]) == 0 {
		return Pos{}
	}
	if j >= 0 && j < len(b.Rows[i]) {
		return b.Rows[i][j]
	}
	return b.Rows[i][0]
}

// ChangeLog is a change log read through a mapping.
type ChangeLog struct {
	Batches []Batch // in increasing TT
	Rows    int64
	SHA256  string
}

// The change-log column names used when the mapping names none and the
// header has a column of that name (the names tgms export writes).
const (
	ColRecordedAt  = "recorded_at"
	ColOp          = "op"
	ColUID         = "uid"
	ColLabel       = "label"
	ColSrc         = "src"
	ColDst         = "dst"
	ColRelType     = "rel_type"
	ColDisc        = "disc"
	ColValidFrom   = "valid_from"
	ColValidTo     = "valid_to"
	ColToValidFrom = "to_valid_from"
	ColToValidTo   = "to_valid_to"
	ColProps       = "props"
)

type changeCols struct {
	rec, op, uid, label, src, dst, rel, disc, from, to, toFrom, toTo, pj col
}

// ReadChanges reads a change log: each row is an assert, correct or
// retract of a node (a uid cell) or an edge (src and dst cells), or an
// ingest of an edge event, recorded at the row's recorded_at time. Rows
// are grouped by recorded_at into batches (in file order within one
// time), and the batches sorted by time.
//
//	assert   node: label, props, valid [valid_from, valid_to)
//	         edge: rel_type, disc, props, valid [valid_from, valid_to)
//	ingest   edge event (store-assigned disc when disc is empty): valid
//	         [valid_from, valid_to), valid_to empty: an instant; label is
//	         the label of nodes it creates
//	correct  node or edge: over [valid_from, valid_to) the props were
//	         wrong, replaced by props; with to_valid_from/to_valid_to the
//	         fact really held over that interval instead
//	retract  node or edge: the fact ends at valid_from
//
// An empty valid_from is the start of time and an empty valid_to open
// (except for ingest). Props come from a JSON object column (props) and
// from property columns.
//
// The provenance columns (prov_authority, prov_source, prov_actor,
// prov_ref, prov_note, override; see the package documentation) give
// each batch's Prov and Override when the header has them.
func ReadChanges(rd Reader, m *Mapping, opt Options) (*ChangeLog, error) {
	b, err := newBinder(rd, rowFile(rd), m)
	if err != nil {
		return nil, mappingErr(err)
	}
	tf, err := ParseTimeFormat(m.TimeFormat, m.TZ)
	if err != nil {
		return nil, mappingErr(err)
	}
	var c changeCols
	bindings := []struct {
		dst        *col
		name, def  string
		what, flag string
	}{
		{&c.rec, m.RecordedAt, ColRecordedAt, "the recorded-at time", "--recorded-at"},
		{&c.op, m.Op, ColOp, "the op (assert, correct, retract, ingest)", "--op-col"},
		{&c.uid, m.UID, ColUID, "the node uid", "--uid"},
		{&c.label, m.LabelCol, ColLabel, "the node label", "--label-col"},
		{&c.src, m.Src, ColSrc, "the source node", "--src"},
		{&c.dst, m.Dst, ColDst, "the destination node", "--dst"},
		{&c.rel, m.RelTypeCol, ColRelType, "the rel type", "--rel-type-col"},
		{&c.disc, m.Disc, ColDisc, "the edge discriminator", "--disc"},
		{&c.from, cmp.Or(m.ValidFrom, m.Time), ColValidFrom, "valid-from", "--valid-from"},
		{&c.to, cmp.Or(m.ValidTo, m.End), ColValidTo, "valid-to", "--valid-to"},
		{&c.toFrom, m.ToValidFrom, ColToValidFrom, "the corrected valid-from", "--to-valid-from"},
		{&c.toTo, m.ToValidTo, ColToValidTo, "the corrected valid-to", "--to-valid-to"},
		{&c.pj, m.PropsJSON, ColProps, "a JSON object of props", "--props-json"},
	}
	for _, bd := range bindings {
		if *bd.dst, err = b.optional(bd.name, bd.def, bd.what); err != nil {
			return nil, mappingErr(err)
		}
	}
	if !c.rec.ok() {
		return nil, mappingErr(fmt.Errorf("no recorded-at column: use --recorded-at COLUMN (the time each change was recorded; it becomes the transaction time)"))
	}
	if !c.op.ok() {
		return nil, mappingErr(fmt.Errorf("no op column: use --op-col COLUMN (a column of assert, correct, retract or ingest)"))
	}
	if !c.uid.ok() && !(c.src.ok() && c.dst.ok()) {
		return nil, mappingErr(fmt.Errorf("no uid column (node changes) and no src and dst columns (edge changes): use --uid or --src and --dst"))
	}
	var pc provCols
	if err := b.bindProv(&pc); err != nil {
		return nil, mappingErr(err)
	}
	if err := b.bindProps(m.Props); err != nil {
		return nil, mappingErr(err)
	}
	label := cmp.Or(m.Label, DefaultNodeLabel)
	type change struct {
		tt  bt.Time
		op  bt.Op
		pos Pos
	}
	var all []change
	type batchProv struct {
		p   rowProv
		pos Pos
	}
	provs := map[bt.Time]batchProv{}
	probs, n, err := b.each(opt, func(r *Row) *CellError {
		ch, e := readChange(b, r, &c, tf, m.RelType, label)
		if e != nil {
			return e
		}
		tt, _, e := b.time(r, c.rec, tf)
		if e != nil {
			return e
		}
		if pc.any() {
			rp, e := b.readProv(r, &pc)
			if e != nil {
				return e
			}
			if first, ok := provs[tt]; !ok {
				provs[tt] = batchProv{rp, r.Pos}
			} else if !first.p.equal(rp) {
				return &CellError{Pos: r.Pos, Msg: fmt.Sprintf("provenance %s differs from that of %s (%s), recorded at the same time", rp.text(), first.pos, first.p.text()), Expected: "the same provenance and override on every row of one batch (one recorded_at time)"}
			}
		}
		all = append(all, change{tt, ch, r.Pos})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if probs != nil {
		return nil, probs
	}
	slices.SortStableFunc(all, func(x, y change) int { return cmp.Compare(x.tt, y.tt) })
	out := &ChangeLog{Rows: n, SHA256: rd.SHA256()}
	for _, ch := range all {
		if len(out.Batches) == 0 || out.Batches[len(out.Batches)-1].TT != ch.tt {
			bp := provs[ch.tt].p
			out.Batches = append(out.Batches, Batch{TT: ch.tt, Prov: bp.prov, Override: bp.override})
		}
		bb := &out.Batches[len(out.Batches)-1]
		if ch.op.Kind == bt.OpIngest && len(bb.Ops) > 0 {
			last := &bb.Ops[len(bb.Ops)-1]
			if last.Kind == bt.OpIngest && last.Label == ch.op.Label {
				last.Events = append(last.Events, ch.op.Events...)
				bb.Rows[len(bb.Rows)-1] = append(bb.Rows[len(bb.Rows)-1], ch.pos)
				continue
			}
		}
		bb.Ops = append(bb.Ops, ch.op)
		bb.Rows = append(bb.Rows, []Pos{ch.pos})
	}
	return out, nil
}

func readChange(b *binder, r *Row, c *changeCols, tf *TimeFormat, relDefault, label string) (bt.Op, *CellError) {
	var none bt.Op
	if _, _, _, null := b.cell(r, c.rec); null {
		return none, b.bad(r, c.rec, "", nil, true, "empty", tf.Expected())
	}
	opText, e := b.str(r, c.op, false, "assert, correct, retract or ingest")
	if e != nil {
		return none, e
	}
	uid, e := b.optStr(r, c.uid, "a node uid")
	if e != nil {
		return none, e
	}
	src, e := b.optStr(r, c.src, "a node uid")
	if e != nil {
		return none, e
	}
	dst, e := b.optStr(r, c.dst, "a node uid")
	if e != nil {
		return none, e
	}
	isNode := uid != ""
	switch {
	case isNode && (src != "" || dst != ""):
		return none, &CellError{Pos: r.Pos, Msg: "both a uid and src/dst", Expected: "a node change (uid) or an edge change (src and dst), not both"}
	case !isNode && (src == "" || dst == ""):
		return none, &CellError{Pos: r.Pos, Msg: "neither a uid nor both src and dst", Expected: "a node change (uid) or an edge change (src and dst)"}
	}
	if isNode && b.prefix != "" {
		uid = b.internStr(b.prefix + uid)
	}
	if !isNode && b.prefix != "" {
		src, dst = b.internStr(b.prefix+src), b.internStr(b.prefix+dst)
	}
	var key bt.EdgeKey
	if !isNode {
		rel := relDefault
		if c.rel.ok() {
			if s, e := b.optStr(r, c.rel, "a rel type name"); e != nil {
				return none, e
			} else if s != "" {
				rel = s
			}
		}
		if rel == "" {
			return none, &CellError{Pos: r.Pos, Column: c.rel.name, Msg: "no rel type", Expected: "a rel type name for an edge change (a rel_type column, or --rel-type)"}
		}
		disc, e := b.optStr(r, c.disc, "a discriminator")
		if e != nil {
			return none, e
		}
		key = bt.EdgeKey{Src: src, Dst: dst, RelType: rel, Disc: disc}
	}
	timeOr := func(cl col, def bt.Time) (bt.Time, bool, *CellError) {
		if !cl.ok() {
			return def, true, nil
		}
		t, null, e := b.time(r, cl, tf)
		if null {
			t = def
		}
		return t, null, e
	}
	from, _, e := timeOr(c.from, 0)
	if e != nil {
		return none, e
	}
	to, toNull, e := timeOr(c.to, bt.OpenEnd)
	if e != nil {
		return none, e
	}
	props, e := b.changeProps(r, c.pj)
	if e != nil {
		return none, e
	}
	iv := bt.Interval{Start: from, End: to}
	badIv := func() *CellError {
		return &CellError{Pos: r.Pos, Column: c.to.name, Value: bt.FormatRFC3339(to), Msg: "not after valid_from " + bt.FormatRFC3339(from), Expected: "valid_to after valid_from (empty: still holding)"}
	}
	var ref bt.Ref
	if isNode {
		ref = bt.NodeRef(uid)
	} else {
		ref = bt.EdgeRef(key)
	}
	switch strings.ToLower(opText) {
	case "assert", "assert_node", "assert_edge":
		if !iv.Valid() {
			return none, badIv()
		}
		if isNode {
			l := label
			if c.label.ok() {
				if s, e := b.optStr(r, c.label, "a node label"); e != nil {
					return none, e
				} else if s != "" {
					l = s
				}
			}
			return bt.AssertNode(uid, l, props, iv), nil
		}
		return bt.AssertEdge(key, props, iv), nil
	case "ingest":
		if isNode {
			return none, &CellError{Pos: r.Pos, Column: c.op.name, Value: opText, Msg: "ingest of a node", Expected: "ingest for edge events only (assert a node)"}
		}
		ev := bt.Event{Src: src, Dst: dst, RelType: key.RelType, Disc: key.Disc, VtS: from, Props: props}
		if !toNull {
			if to <= from {
				return none, badIv()
			}
			ev.VtE = to
		}
		l := label
		if c.label.ok() {
			if s, e := b.optStr(r, c.label, "a node label"); e != nil {
				return none, e
			} else if s != "" {
				l = s
			}
		}
		return bt.Ingest([]bt.Event{ev}, l), nil
	case "retract":
		if !c.from.ok() {
			return none, &CellError{Pos: r.Pos, Msg: "retract without a time", Expected: "a valid_from column: the time from which the fact no longer holds"}
		}
		return bt.Retract(ref, from), nil
	case "correct":
		if !iv.Valid() {
			return none, badIv()
		}
		if c.toFrom.ok() || c.toTo.ok() {
			tf0, fromNull, e := timeOr(c.toFrom, 0)
			if e != nil {
				return none, e
			}
			tt0, toNull2, e := timeOr(c.toTo, bt.OpenEnd)
			if e != nil {
				return none, e
			}
			if !fromNull || !toNull2 {
				mv := bt.Interval{Start: tf0, End: tt0}
				if !mv.Valid() {
					return none, &CellError{Pos: r.Pos, Column: c.toTo.name, Msg: "the corrected interval is empty", Expected: "to_valid_to after to_valid_from"}
				}
				return bt.CorrectTime(ref, props, iv, mv), nil
			}
		}
		return bt.Correct(ref, props, iv), nil
	}
	return none, b.bad(r, c.op, opText, nil, true, "unknown op", "assert, correct, retract or ingest")
}

// changeProps merges the JSON props column and the property columns.
func (b *binder) changeProps(r *Row, pj col) (bt.Props, *CellError) {
	p, e := b.propsOf(r)
	if e != nil || !pj.ok() {
		return p, e
	}
	text, val, isText, null := b.cell(r, pj)
	if null {
		return p, nil
	}
	var raw []byte
	switch {
	case isText:
		raw = []byte(text)
	default:
		if s, ok := val.(string); ok {
			raw = []byte(s)
		} else if mv, ok := val.(map[string]any); ok {
			jp, err := bt.NewProps(mv)
			if err != nil {
				return "", b.bad(r, pj, text, val, isText, err.Error(), "a JSON object")
			}
			raw = []byte(jp)
		} else {
			return "", b.bad(r, pj, text, val, isText, "a "+typeOf(val), "a JSON object")
		}
	}
	jp, err := bt.ParseProps(raw)
	if err != nil {
		return "", b.bad(r, pj, text, val, isText, err.Error(), "a JSON object")
	}
	if p == "" {
		return jp, nil
	}
	if jp == "" {
		return p, nil
	}
	merged := jp.Map()
	for k, v := range p.Map() {
		if _, dup := merged[k]; dup {
			return "", b.bad(r, pj, text, val, isText, fmt.Sprintf("property %q is also a property column", k), "each property given once")
		}
		merged[k] = v
	}
	out, err := bt.NewProps(merged)
	if err != nil {
		return "", b.bad(r, pj, text, val, isText, err.Error(), "a JSON object")
	}
	return out, nil
}
