package tabular

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
	"github.com/tgms-go/tgms/canon"
)

// Stamp is a Parquet TIMESTAMP or DATE cell: a count of Unit nanoseconds
// since the epoch. It converts to microseconds exactly or not at all.
type Stamp struct {
	N    int64
	Unit int64 // nanoseconds per step: 1, 1000, 1e6, or 86400e9 for a DATE
}

// Micros converts the stamp, refusing sub-microsecond parts.
func (s Stamp) Micros() (int64, error) {
	switch {
	case s.Unit >= 1000:
		m := s.Unit / 1000
		if s.N < 0 {
			return 0, fmt.Errorf("before 1970-01-01T00:00:00Z: times cannot be negative")
		}
		if s.N > (1<<62-1)/m {
			return 0, fmt.Errorf("too far in the future")
		}
		return s.N * m, nil
	default:
		if s.N%1000 != 0 {
			return 0, fmt.Errorf("nanoseconds: finer than a microsecond is refused, not rounded")
		}
		if s.N < 0 {
			return 0, fmt.Errorf("before 1970-01-01T00:00:00Z: times cannot be negative")
		}
		return s.N / 1000, nil
	}
}

// parquetReader reads a flat Parquet file (no nested or repeated
// columns) column by column: a window of rows at a time, each column's
// values decoded page by page into typed arrays (see pqCol), so a row is
// an index into them, with no value built per cell.
type parquetReader struct {
	f      *os.File
	pf     *parquet.File
	name   string
	cols   []string
	stamps []int64 // per column: Stamp unit, or 0
	kinds  []parquet.Kind
	groups []parquet.RowGroup
	g      int
	pages  []parquet.Pages       // the group's column chunks, open while it is read
	vrs    []parquet.ValueReader // each column's current page
	cur    []parquet.Page
	win    []pqCol
	vbuf   []parquet.Value
	n, i   int   // rows in the window, next row in it
	row    int64 // row within the group of the window's first row
	left   int64 // rows of the group not yet in a window
	read   int64
	total  int64
	size   int64
}

// pqWindow is how many rows the reader decodes at a time.
const pqWindow = 4096

// pqCol is one column's values over the window.
type pqCol struct {
	kind parquet.Kind
	null []bool
	ints []int64   // Boolean (0 or 1), Int32, Int64, and timestamps
	flts []float64 // Float, Double
	data []byte    // byte arrays, one after another
	offs []uint32  // value k is data[offs[k]:offs[k+1]]
	bad  string    // a value of an unsupported kind: its text
	badK int       // and its row in the window (-1: none)
}

func newParquet(f *os.File, size int64, name string) (*parquetReader, error) {
	pf, err := openParquet(f, size)
	if err != nil {
		return nil, fmt.Errorf("%s: not a readable Parquet file: %v", name, err)
	}
	p := &parquetReader{f: f, pf: pf, name: name, groups: pf.RowGroups(), total: pf.NumRows(), size: size}
	for _, fld := range pf.Schema().Fields() {
		if !fld.Leaf() || fld.Repeated() {
			return nil, &CellError{Pos: Pos{File: name}, Column: fld.Name(), Msg: "a nested or repeated column", Expected: "a flat table: one primitive value (or null) per column"}
		}
		p.cols = append(p.cols, fld.Name())
		p.stamps = append(p.stamps, stampUnit(fld.Type()))
		p.kinds = append(p.kinds, fld.Type().Kind())
	}
	p.win = make([]pqCol, len(p.cols))
	for c := range p.win {
		p.win[c].kind = p.kinds[c]
	}
	p.vrs = make([]parquet.ValueReader, len(p.cols))
	p.cur = make([]parquet.Page, len(p.cols))
	p.vbuf = make([]parquet.Value, 512)
	return p, nil
}

func stampUnit(t parquet.Type) int64 {
	lt := t.LogicalType()
	if lt != nil {
		switch v := lt.Value.(type) {
		case *format.TimestampType:
			return int64(v.Unit.Value.Duration())
		case *format.DateType:
			return 86400e9
		}
	}
	return 0
}

func (p *parquetReader) Columns() []string { return p.cols }

func (p *parquetReader) Next(r *Row) error {
	for p.i >= p.n {
		if p.pages == nil {
			if p.g >= len(p.groups) {
				return io.EOF
			}
			if err := p.openGroup(); err != nil {
				return err
			}
		}
		if p.left == 0 {
			p.closeGroup()
			p.g++
			continue
		}
		if err := p.fill(); err != nil {
			// Damaged data is a problem with the input, not with the
			// reader: report it at the row where reading stopped and go
			// on with the next row group, so a dry run lists them all.
			ce := &CellError{Pos: Pos{File: p.name, RowGroup: p.g, Row: p.row},
				Msg: fmt.Sprintf("the row group cannot be read (%v); its remaining rows were skipped", err), Expected: "an undamaged Parquet file"}
			p.closeGroup()
			p.g++
			return ce
		}
	}
	k := p.i
	p.i++
	p.read++
	pos := Pos{File: p.name, RowGroup: p.g, Row: p.row + int64(k)}
	for c := range p.win {
		if w := &p.win[c]; w.badK == k {
			return &CellError{Pos: pos, Column: p.cols[c], Value: w.bad, Msg: fmt.Sprintf("unsupported Parquet type %s", w.kind), Expected: "boolean, int32, int64, float, double, byte array (string), timestamp or date"}
		}
	}
	r.Pos, r.Text, r.Obj, r.pq, r.pi = pos, nil, nil, p, k
	return nil
}

func (p *parquetReader) openGroup() error {
	g := p.groups[p.g]
	chunks := g.ColumnChunks()
	if len(chunks) != len(p.cols) {
		err := &CellError{Pos: Pos{File: p.name, RowGroup: p.g}, Msg: fmt.Sprintf("the row group has %d columns, the schema %d; it was skipped", len(chunks), len(p.cols)), Expected: "an undamaged Parquet file"}
		p.g++
		return err
	}
	p.pages = make([]parquet.Pages, len(chunks))
	for c, cc := range chunks {
		p.pages[c] = cc.Pages()
	}
	p.row, p.left, p.n, p.i = 0, g.NumRows(), 0, 0
	return nil
}

func (p *parquetReader) closeGroup() {
	for c := range p.pages {
		if p.cur[c] != nil {
			parquet.Release(p.cur[c])
			p.cur[c], p.vrs[c] = nil, nil
		}
		p.pages[c].Close()
	}
	p.pages, p.n, p.i = nil, 0, 0
}

// fill decodes the next window of rows of every column.
func (p *parquetReader) fill() error {
	p.row += int64(p.n)
	w := int(min(p.left, pqWindow))
	for c := range p.win {
		if err := p.fillCol(c, w); err != nil {
			return err
		}
	}
	p.n, p.i = w, 0
	p.left -= int64(w)
	return nil
}

// fillCol decodes w rows of column c.
func (p *parquetReader) fillCol(c, w int) error {
	col := &p.win[c]
	col.null, col.ints, col.flts = col.null[:0], col.ints[:0], col.flts[:0]
	col.data, col.offs = col.data[:0], append(col.offs[:0], 0)
	col.badK = -1
	for got := 0; got < w; {
		if p.vrs[c] == nil {
			pg, err := p.readPage(c)
			if err == io.EOF {
				return fmt.Errorf("column %q ends after %d of the group's rows", p.cols[c], p.row+int64(got))
			}
			if err != nil {
				return err
			}
			p.cur[c], p.vrs[c] = pg, pg.Values()
		}
		n, err := p.vrs[c].ReadValues(p.vbuf[:min(len(p.vbuf), w-got)])
		for _, v := range p.vbuf[:n] {
			col.add(v, p.stamps[c] != 0, got)
			got++
		}
		if err == io.EOF {
			parquet.Release(p.cur[c])
			p.cur[c], p.vrs[c] = nil, nil
		} else if err != nil {
			return err
		} else if n == 0 {
			return fmt.Errorf("column %q: a page yields no values", p.cols[c])
		}
	}
	return nil
}

// openParquet opens a Parquet file. The library panics on some damaged
// footers (a page index past its buffer); that is an unreadable file,
// reported as any other. Only the library call is guarded.
func openParquet(f *os.File, size int64) (pf *parquet.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			pf, err = nil, fmt.Errorf("its footer cannot be decoded (%v)", r)
		}
	}()
	return parquet.OpenFile(f, size)
}

// readPage reads column c's next page. The Parquet decoder panics on
// some damaged pages (a level count past the page's end); that is a
// damaged input, reported like any other unreadable page. Only the
// library call is guarded: a panic in this package's own code still
// crashes (and fails the fuzz targets).
func (p *parquetReader) readPage(c int) (pg parquet.Page, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("column %q: a page cannot be decoded (%v)", p.cols[c], r)
		}
	}()
	return p.pages[c].ReadPage()
}

// add appends one value; k is its row in the window.
func (col *pqCol) add(v parquet.Value, stamp bool, k int) {
	null := v.IsNull()
	col.null = append(col.null, null)
	var n int64
	var f float64
	if !null {
		kind := v.Kind()
		if kind != col.kind && col.badK < 0 {
			col.bad, col.badK = v.String(), k
		}
		switch kind {
		case parquet.Boolean:
			if v.Boolean() {
				n = 1
			}
		case parquet.Int32:
			n = int64(v.Int32())
		case parquet.Int64:
			n = v.Int64()
		case parquet.Float:
			f = float64(v.Float())
		case parquet.Double:
			f = v.Double()
		case parquet.ByteArray, parquet.FixedLenByteArray:
			col.data = append(col.data, v.ByteArray()...)
		default:
			if col.badK < 0 {
				col.bad, col.badK = v.String(), k
			}
		}
		if stamp && kind != parquet.Int32 && kind != parquet.Int64 && col.badK < 0 {
			col.bad, col.badK = v.String(), k
		}
	}
	col.ints = append(col.ints, n)
	col.flts = append(col.flts, f)
	col.offs = append(col.offs, uint32(len(col.data)))
}

// Typed cells of a Parquet row (see Row.pq).

func (p *parquetReader) isNull(c, k int) bool { return p.win[c].null[k] }

func (p *parquetReader) bytesAt(c, k int) ([]byte, bool) {
	col := &p.win[c]
	if col.null[k] || (col.kind != parquet.ByteArray && col.kind != parquet.FixedLenByteArray) {
		return nil, false
	}
	return col.data[col.offs[k]:col.offs[k+1]], true
}

// appendCell appends the canonical JSON of cell (c, k) read as type t,
// for the plain cases: a string, number or boolean kept as its own type
// (or an integer read as a float). ok false leaves the cell to the general
// path, which converts it or reports why it cannot.
func (p *parquetReader) appendCell(dst []byte, c, k int, t Type) ([]byte, bool) {
	col := &p.win[c]
	if p.stamps[c] != 0 || col.badK >= 0 {
		return dst, false
	}
	switch col.kind {
	case parquet.ByteArray, parquet.FixedLenByteArray:
		bs := col.data[col.offs[k]:col.offs[k+1]]
		if (t == TypeAuto || t == TypeString) && utf8.Valid(bs) {
			return canon.AppendString(dst, string(bs)), true
		}
	case parquet.Int32, parquet.Int64:
		switch t {
		case TypeAuto, TypeInt:
			return canon.AppendInt(dst, col.ints[k]), true
		case TypeFloat:
			return canon.AppendFloat(dst, float64(col.ints[k])), true
		}
	case parquet.Float, parquet.Double:
		if f := col.flts[k]; (t == TypeAuto || t == TypeFloat) && !math.IsNaN(f) && !math.IsInf(f, 0) {
			return canon.AppendFloat(dst, f), true
		}
	case parquet.Boolean:
		if t == TypeAuto || t == TypeBool {
			return strconv.AppendBool(dst, col.ints[k] != 0), true
		}
	}
	return dst, false
}

// value is the cell as the generic binder reads it: nil, bool, int64,
// float64, string or Stamp.
func (p *parquetReader) value(c, k int) any {
	col := &p.win[c]
	if col.null[k] {
		return nil
	}
	if u := p.stamps[c]; u != 0 {
		return Stamp{N: col.ints[k], Unit: u}
	}
	switch col.kind {
	case parquet.Boolean:
		return col.ints[k] != 0
	case parquet.Int32, parquet.Int64:
		return col.ints[k]
	case parquet.Float, parquet.Double:
		return col.flts[k]
	}
	return string(col.data[col.offs[k]:col.offs[k+1]])
}

func (p *parquetReader) Done() float64 {
	if p.total == 0 {
		return 1
	}
	return float64(p.read) / float64(p.total)
}

// SHA256 hashes the whole file (Parquet is read by offset, not in order).
func (p *parquetReader) SHA256() string {
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(p.f, 0, p.size)); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (p *parquetReader) Close() error {
	if p.pages != nil {
		p.closeGroup()
	}
	return p.f.Close()
}
