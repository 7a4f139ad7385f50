package tabular

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/internal/strtab"
)

// Options tune reading a table.
type Options struct {
	// MaxProblems is how many problems are collected before reading stops
	// (0 means 1: stop at the first, for a load; a dry run passes more).
	MaxProblems int
	// Progress, if not nil, is called every few thousand rows with the
	// fraction of the input read and the rows read.
	Progress func(done float64, rows int64)
}

// col is a bound column: its header index (-1 for JSONL, looked up by
// name), or absent (name "").
type col struct {
	name string
	idx  int
}

func (c col) ok() bool { return c.name != "" }

type propCol struct {
	col
	typ Type
	key []byte // `"name":` in canonical form
}

// binder resolves mapping names against a table's header and reads
// cells of a row.
type binder struct {
	rd     Reader
	file   string
	header map[string]int
	used   map[string]bool
	// Identifier cells (uids, rel types, labels) seen so far, one copy of
	// each, and a smaller cache of property bags.
	idx, pidx   strtab.Index
	strs, pstrs []string
	prefix      string
	props       []propCol
	all         bool // props '*' on JSONL: every unused field
	types       map[string]Type
	buf         []byte
	// clean says no row has been bad so far (each sets it before it
	// calls fn); fn sets stop to end the read with that error.
	clean bool
	stop  error
}

func newBinder(rd Reader, file string, m *Mapping) (*binder, error) {
	b := &binder{rd: rd, file: file, used: map[string]bool{}, prefix: m.UIDPrefix, types: map[string]Type{}}
	if cols := rd.Columns(); cols != nil {
		b.header = map[string]int{}
		for i, c := range cols {
			b.header[c] = i
		}
	}
	for c, t := range m.Types {
		typ, err := ParseType(t)
		if err != nil {
			return nil, fmt.Errorf("types: column %q: %v", c, err)
		}
		b.types[c] = typ
	}
	return b, nil
}

// need binds a required column (what names the role in errors).
func (b *binder) need(name, flag, what string) (col, error) {
	if name == "" {
		return col{}, fmt.Errorf("no column given for %s: use %s COLUMN (or the %q key of --mapping)", what, flag, strings.TrimPrefix(strings.ReplaceAll(flag, "-", "_"), "__"))
	}
	return b.bind(name, what)
}

// bind binds a column named by the mapping; it must exist in the header.
func (b *binder) bind(name, what string) (col, error) {
	b.used[name] = true
	if b.header == nil {
		return col{name: name, idx: -1}, nil
	}
	i, ok := b.header[name]
	if !ok {
		return col{}, &CellError{Pos: Pos{File: b.file, Line: 1}, Column: name, Msg: fmt.Sprintf("no such column (given for %s)", what), Expected: "one of the header's columns " + fmt.Sprint(b.rd.Columns())}
	}
	return col{name: name, idx: i}, nil
}

// optional binds name if the mapping gave it, or def if the header has a
// column of that name (JSONL: always).
func (b *binder) optional(name, def, what string) (col, error) {
	if name != "" {
		return b.bind(name, what)
	}
	if def == "" {
		return col{}, nil
	}
	if b.header != nil {
		if _, ok := b.header[def]; !ok {
			return col{}, nil
		}
	}
	return b.bind(def, what)
}

// bindProps binds the property columns: names, or "*" for every column
// the mapping does not use otherwise. Call it after every other column is
// bound.
func (b *binder) bindProps(names []string) error {
	if len(names) == 1 && names[0] == "*" {
		if b.header == nil {
			b.all = true
			return nil
		}
		names = nil
		for _, c := range b.rd.Columns() {
			if !b.used[c] {
				names = append(names, c)
			}
		}
	}
	seen := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" || seen[n] {
			continue
		}
		seen[n] = true
		c, err := b.bind(n, "a property")
		if err != nil {
			return err
		}
		b.props = append(b.props, propCol{col: c, typ: b.types[n], key: append(canon.AppendString(nil, n), ':')})
	}
	slices.SortFunc(b.props, func(x, y propCol) int { return strings.Compare(x.name, y.name) })
	for n := range b.types {
		if !seen[n] && !b.all {
			return fmt.Errorf("types: column %q is not a property column (list it in --props)", n)
		}
	}
	return nil
}

// cell returns a row's cell: text (CSV, TSV) or a typed value, and
// whether it is null (an empty text cell, a missing or null field).
func (b *binder) cell(r *Row, c col) (text string, val any, isText, null bool) {
	switch {
	case r.Text != nil:
		s := r.Text[c.idx]
		return s, nil, true, s == ""
	case r.pq != nil:
		v := r.pq.value(c.idx, r.pi)
		return "", v, false, v == nil
	default:
		v := r.Obj[c.name]
		return "", v, false, v == nil
	}
}

func shown(text string, val any, isText bool) string {
	if isText {
		return text
	}
	switch x := val.(type) {
	case string:
		return x
	case Stamp:
		return fmt.Sprintf("%d (timestamp, %d ns units)", x.N, x.Unit)
	}
	bs, err := canon.Marshal(val)
	if err != nil {
		return fmt.Sprint(val)
	}
	return string(bs)
}

func (b *binder) bad(r *Row, c col, text string, val any, isText bool, msg, expected string) *CellError {
	return &CellError{Pos: r.Pos, Column: c.name, Value: shown(text, val, isText), Msg: msg, Expected: expected}
}

func (b *binder) internStr(s string) string {
	if len(b.strs) >= 1<<22 {
		if id, ok := b.idx.Find(b.strs, s); ok {
			return b.strs[id]
		}
		return strings.Clone(s)
	}
	id, added := b.idx.Add(b.strs, s)
	if added {
		b.strs = append(b.strs, strings.Clone(s))
	}
	return b.strs[id]
}

// str reads a required identifier cell (uid, rel type, label): non-empty
// text, or a string or integer field. uid adds the uid prefix.
func (b *binder) str(r *Row, c col, uid bool, what string) (string, *CellError) {
	if r.pq != nil && c.idx >= 0 && (!uid || b.prefix == "") {
		if bs, ok := r.pq.bytesAt(c.idx, r.pi); ok && len(bs) > 0 {
			if id, ok := b.idx.FindBytes(b.strs, bs); ok { // no copy to look up
				return b.strs[id], nil
			}
		}
	}
	text, val, isText, null := b.cell(r, c)
	if null {
		return "", b.bad(r, c, text, val, isText, "empty", what)
	}
	if !isText {
		switch x := val.(type) {
		case string:
			text = x
		case int64:
			text = strconv.FormatInt(x, 10)
		default:
			return "", b.bad(r, c, text, val, isText, "a "+typeOf(val), what)
		}
		if text == "" {
			return "", b.bad(r, c, text, val, isText, "empty", what)
		}
	}
	if uid && b.prefix != "" {
		return b.internStr(b.prefix + text), nil
	}
	return b.internStr(text), nil
}

// optStr is str for an optional cell: "" when null or unbound.
func (b *binder) optStr(r *Row, c col, what string) (string, *CellError) {
	if !c.ok() {
		return "", nil
	}
	if _, _, _, null := b.cell(r, c); null {
		return "", nil
	}
	return b.str(r, c, false, what)
}

// time reads a time cell; null reports an empty cell.
func (b *binder) time(r *Row, c col, tf *TimeFormat) (t bt.Time, null bool, e *CellError) {
	if r.pq != nil && c.idx >= 0 {
		if r.pq.isNull(c.idx, r.pi) {
			return 0, true, nil
		}
		if u := r.pq.stamps[c.idx]; u != 0 {
			if t, err := (Stamp{N: r.pq.win[c.idx].ints[r.pi], Unit: u}).Micros(); err == nil {
				return t, false, nil
			} // the general path below reports it
		}
	}
	text, val, isText, null := b.cell(r, c)
	if null {
		return 0, true, nil
	}
	var err error
	switch x := val.(type) {
	case nil:
		t, err = tf.Parse(text)
	case string:
		t, err = tf.Parse(x)
	case Stamp:
		t, err = x.Micros()
	case int64, float64:
		t, err = tf.fromNumber(x)
	default:
		err = fmt.Errorf("a %s", typeOf(val))
	}
	if err != nil {
		exp := tf.Expected()
		if _, isStamp := val.(Stamp); isStamp {
			exp = "a timestamp at microsecond precision or coarser"
		}
		return 0, false, b.bad(r, c, text, val, isText, err.Error(), exp)
	}
	return t, false, nil
}

// props builds the row's property bag from the property columns.
func (b *binder) propsOf(r *Row) (bt.Props, *CellError) {
	if b.all {
		return b.allProps(r)
	}
	if len(b.props) == 0 {
		return "", nil
	}
	buf := append(b.buf[:0], '{')
	n := 0
	for i := range b.props {
		p := &b.props[i]
		if r.pq != nil && p.idx >= 0 {
			if r.pq.isNull(p.idx, r.pi) {
				continue
			}
			at := len(buf)
			if n > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, p.key...)
			if out, ok := r.pq.appendCell(buf, p.idx, r.pi, p.typ); ok {
				buf = out
				n++
				continue
			}
			buf = buf[:at] // not a plain cell: the general path below
		}
		text, val, isText, null := b.cell(r, p.col)
		if null {
			continue
		}
		if n > 0 {
			buf = append(buf, ',')
		}
		n++
		buf = append(buf, p.key...)
		var err error
		if isText {
			buf, err = appendText(buf, p.typ, text)
		} else {
			if s, ok := val.(Stamp); ok {
				us, e := s.Micros()
				if e != nil {
					return "", b.bad(r, p.col, text, val, isText, e.Error(), "a timestamp at microsecond precision or coarser")
				}
				val = bt.FormatRFC3339(us)
			}
			buf, err = appendTyped(buf, p.typ, val)
		}
		if err != nil {
			t := p.typ
			if t == TypeAuto {
				t = TypeString
			}
			return "", b.bad(r, p.col, text, val, isText, err.Error(), t.expected())
		}
	}
	b.buf = buf
	if n == 0 {
		return "", nil
	}
	buf = append(buf, '}')
	b.buf = buf
	// Repeated bags share one string until the cache fills; a table whose
	// bags rarely repeat fills it and stops paying for lookups.
	if len(b.pstrs) >= 1<<16 {
		return bt.Props(string(buf)), nil
	}
	if id, ok := b.pidx.FindBytes(b.pstrs, buf); ok {
		return bt.Props(b.pstrs[id]), nil
	}
	t := string(buf)
	b.pidx.Add(b.pstrs, t)
	b.pstrs = append(b.pstrs, t)
	return bt.Props(t), nil
}

// allProps is props '*' on JSONL: every field the mapping does not use.
func (b *binder) allProps(r *Row) (bt.Props, *CellError) {
	m := map[string]any{}
	for k, v := range r.Obj {
		if b.used[k] || v == nil {
			continue
		}
		if t, ok := b.types[k]; ok {
			enc, err := appendTyped(nil, t, v)
			if err != nil {
				return "", b.bad(r, col{name: k}, "", v, false, err.Error(), t.expected())
			}
			v, _ = canon.Parse(enc)
		}
		m[k] = v
	}
	p, err := bt.NewProps(m)
	if err != nil {
		return "", &CellError{Pos: r.Pos, Msg: err.Error(), Expected: "properties that are valid JSON values"}
	}
	return p, nil
}

// each reads every row of the binder's table and calls fn; it collects
// the problems fn and the reader report, up to opt.MaxProblems.
func (b *binder) each(opt Options, fn func(r *Row) *CellError) (*Problems, int64, error) {
	probs := &Problems{Limit: max(1, opt.MaxProblems)}
	var row Row
	var n int64
	for {
		err := b.rd.Next(&row)
		if err == io.EOF {
			break
		}
		if err != nil {
			ce, ok := err.(*CellError)
			if !ok {
				return nil, n, err
			}
			probs.add(ce)
			if probs.full() {
				break
			}
			continue
		}
		n++
		b.clean = probs.Count() == 0
		e := fn(&row)
		if b.stop != nil {
			return nil, n, b.stop
		}
		if e != nil {
			probs.add(e)
			if probs.full() {
				break
			}
		}
		if opt.Progress != nil && n&8191 == 0 {
			opt.Progress(b.rd.Done(), n)
		}
	}
	if opt.Progress != nil {
		opt.Progress(b.rd.Done(), n)
	}
	probs.Scanned = n
	if probs.Count() == 0 {
		return nil, n, nil
	}
	return probs, n, nil
}
