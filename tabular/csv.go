package tabular

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// delimited reads CSV (RFC 4180: quoted fields may hold the delimiter,
// quotes and newlines) or TSV (the same with tabs). The first line is the
// header; every row must have as many cells as it.
type delimited struct {
	cr   *csvParser
	src  *counting
	name string
	cols []string
}

func newDelimited(in io.Reader, src *counting, name string, comma rune) (*delimited, error) {
	cr := newCSVParser(in, byte(comma), comma == '\t')
	hdr, err := cr.read()
	if err == io.EOF {
		return nil, &CellError{Pos: Pos{File: name, Line: 1}, Msg: "the file is empty", Expected: "a header line naming the columns"}
	}
	if err != nil {
		return nil, csvCellError(name, err)
	}
	d := &delimited{cr: cr, src: src, name: name}
	seen := map[string]bool{}
	for i, h := range hdr {
		h = strings.TrimSpace(h)
		if i == 0 {
			h = strings.TrimPrefix(h, "\ufeff")
		}
		if h == "" {
			return nil, &CellError{Pos: Pos{File: name, Line: 1}, Msg: fmt.Sprintf("header cell %d is empty", i+1), Expected: "a header line naming every column"}
		}
		if seen[h] {
			return nil, &CellError{Pos: Pos{File: name, Line: 1}, Msg: fmt.Sprintf("header names column %q twice", h), Expected: "distinct column names"}
		}
		seen[h] = true
		d.cols = append(d.cols, h)
	}
	cr.want = len(d.cols)
	return d, nil
}

func csvCellError(name string, err error) error {
	var pe *csvError
	if errors.As(err, &pe) {
		return &CellError{Pos: Pos{File: name, Line: pe.line}, Msg: pe.err.Error(), Expected: "a row with one cell per header column"}
	}
	return fmt.Errorf("%s: %w", name, err)
}

func (d *delimited) Columns() []string { return d.cols }

func (d *delimited) Next(r *Row) error {
	rec, err := d.cr.read()
	if err != nil {
		if err == io.EOF {
			return io.EOF
		}
		return csvCellError(d.name, err)
	}
	r.Pos = Pos{File: d.name, Line: d.cr.recLine}
	r.Text, r.Obj, r.pq = rec, nil, nil
	return nil
}

func (d *delimited) Done() float64  { return d.src.done() }
func (d *delimited) SHA256() string { return d.src.sum() }
func (d *delimited) Close() error   { return d.src.f.Close() }
