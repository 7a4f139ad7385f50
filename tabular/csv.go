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

	blocks, free chan *csvBlock // parsed ahead (see start)
	done         chan struct{}  // closed by Close: the parse stops
	cur          *csvBlock      // the block Next reads from
	i            int            // its next record
	fields       []string       // the last record's cells
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
	if d.blocks == nil {
		d.start()
	}
	for d.cur == nil || d.i == len(d.cur.recs) {
		if d.cur != nil {
			if d.cur.end != nil {
				if d.cur.end == io.EOF {
					return io.EOF
				}
				return fmt.Errorf("%s: %w", d.name, d.cur.end)
			}
			select {
			case d.free <- d.cur:
			default:
			}
		}
		d.cur, d.i = <-d.blocks, 0
	}
	rec := &d.cur.recs[d.i]
	d.i++
	if rec.err != nil {
		return csvCellError(d.name, rec.err)
	}
	// One string per record, the cells sharing it, as encoding/csv gives
	// them: a cell a caller keeps holds its record, not the block.
	text := string(d.cur.text[rec.text:rec.textEnd])
	d.fields = d.fields[:0]
	prev := 0
	for _, e := range d.cur.ends[rec.cell:rec.cellEnd] {
		d.fields = append(d.fields, text[prev:e])
		prev = e
	}
	r.Pos = Pos{File: d.name, Line: rec.line}
	r.Text, r.Obj, r.pq = d.fields, nil, nil
	return nil
}

// csvBlock is a run of records parsed ahead of the reader (see start).
type csvBlock struct {
	text []byte
	ends []int // per record, cell ends relative to the record's text
	recs []csvRec
	end  error // after the records: io.EOF or the I/O error that stopped the parse
}

type csvRec struct {
	line          int64
	text, textEnd int
	cell, cellEnd int
	err           error // a malformed record (a *csvError)
}

// start parses the rest of the input on its own goroutine, a block of
// records ahead of Next, so that on a machine with two cores parsing
// overlaps with what the caller does with each row.
func (d *delimited) start() {
	d.blocks = make(chan *csvBlock, 2)
	d.free = make(chan *csvBlock, 4)
	d.done = make(chan struct{})
	go func() {
		p := d.cr
		for {
			var b *csvBlock
			select {
			case b = <-d.free:
				b.text, b.ends, b.recs = b.text[:0], b.ends[:0], b.recs[:0]
			default:
				b = &csvBlock{}
			}
			for len(b.recs) < 1024 && len(b.text) < 256<<10 {
				err := p.readRaw()
				if err != nil {
					var ce *csvError
					if errors.As(err, &ce) {
						b.recs = append(b.recs, csvRec{err: err})
						continue
					}
					b.end = err
					break
				}
				r := csvRec{line: p.recLine, text: len(b.text), cell: len(b.ends)}
				b.text = append(b.text, p.text...)
				b.ends = append(b.ends, p.ends...)
				r.textEnd, r.cellEnd = len(b.text), len(b.ends)
				b.recs = append(b.recs, r)
			}
			select {
			case d.blocks <- b:
			case <-d.done:
				return
			}
			if b.end != nil {
				return
			}
		}
	}()
}

func (d *delimited) Done() float64  { return d.src.done() }
func (d *delimited) SHA256() string { return d.src.sum() }
func (d *delimited) Close() error {
	if d.done != nil {
		close(d.done)
		d.done = nil
	}
	return d.src.f.Close()
}
