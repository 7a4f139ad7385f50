package tabular

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
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
// columns) row group by row group.
type parquetReader struct {
	f      *os.File
	pf     *parquet.File
	name   string
	cols   []string
	stamps []int64 // per column: Stamp unit, or 0
	groups []parquet.RowGroup
	g      int
	rows   parquet.Rows
	buf    []parquet.Row
	n, i   int   // rows in buf, next row in buf
	row    int64 // next row within the group
	read   int64
	total  int64
	size   int64
	vals   []any
	bytes  [][]byte
}

func newParquet(f *os.File, size int64, name string) (*parquetReader, error) {
	pf, err := parquet.OpenFile(f, size)
	if err != nil {
		return nil, fmt.Errorf("%s: not a readable Parquet file: %v", name, err)
	}
	p := &parquetReader{f: f, pf: pf, name: name, groups: pf.RowGroups(), total: pf.NumRows(), size: size, buf: make([]parquet.Row, 1024)}
	for _, fld := range pf.Schema().Fields() {
		if !fld.Leaf() || fld.Repeated() {
			return nil, &CellError{Pos: Pos{File: name}, Column: fld.Name(), Msg: "a nested or repeated column", Expected: "a flat table: one primitive value (or null) per column"}
		}
		p.cols = append(p.cols, fld.Name())
		p.stamps = append(p.stamps, stampUnit(fld.Type()))
	}
	p.vals = make([]any, len(p.cols))
	p.bytes = make([][]byte, len(p.cols))
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
		if p.rows == nil {
			if p.g >= len(p.groups) {
				return io.EOF
			}
			p.rows = p.groups[p.g].Rows()
			p.row = 0
		}
		n, err := p.rows.ReadRows(p.buf)
		p.n, p.i = n, 0
		if n == 0 && err == nil {
			err = io.EOF
		}
		if err != nil && err != io.EOF {
			// Damaged data is a problem with the input, not with the
			// reader: report it at the row where reading stopped and go
			// on with the next row group, so a dry run lists them all.
			ce := &CellError{Pos: Pos{File: p.name, RowGroup: p.g, Row: p.row},
				Msg: fmt.Sprintf("the row group cannot be read (%v); its remaining rows were skipped", err), Expected: "an undamaged Parquet file"}
			p.rows.Close()
			p.rows, p.n, p.i = nil, 0, 0
			p.g++
			return ce
		}
		if err == io.EOF && n == 0 {
			p.rows.Close()
			p.rows = nil
			p.g++
		}
	}
	row := p.buf[p.i]
	p.i++
	clear(p.vals)
	clear(p.bytes)
	pos := Pos{File: p.name, RowGroup: p.g, Row: p.row}
	p.row++
	p.read++
	for _, v := range row {
		c := v.Column()
		if c < 0 || c >= len(p.vals) || v.IsNull() {
			continue
		}
		if u := p.stamps[c]; u != 0 {
			n := v.Int64()
			if v.Kind() == parquet.Int32 {
				n = int64(v.Int32())
			}
			p.vals[c] = Stamp{N: n, Unit: u}
			continue
		}
		switch v.Kind() {
		case parquet.Boolean:
			p.vals[c] = v.Boolean()
		case parquet.Int32:
			p.vals[c] = int64(v.Int32())
		case parquet.Int64:
			p.vals[c] = v.Int64()
		case parquet.Float:
			p.vals[c] = float64(v.Float())
		case parquet.Double:
			p.vals[c] = v.Double()
		case parquet.ByteArray, parquet.FixedLenByteArray:
			p.bytes[c] = v.ByteArray()
		default:
			return &CellError{Pos: pos, Column: p.cols[c], Value: v.String(), Msg: fmt.Sprintf("unsupported Parquet type %s", v.Kind()), Expected: "boolean, int32, int64, float, double, byte array (string), timestamp or date"}
		}
	}
	r.Pos, r.Text, r.Vals, r.Obj, r.Bytes = pos, nil, p.vals, nil, p.bytes
	return nil
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
	if p.rows != nil {
		p.rows.Close()
	}
	return p.f.Close()
}
