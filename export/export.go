package export

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/parquet-go/parquet-go"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/eventlog"
)

// Table file names (with the format's extension).
const (
	NodesTable   = "nodes"
	EdgesTable   = "edges"
	ChangesTable = "changes"
)

// Summary counts what an export wrote.
type Summary struct {
	Files        []string
	NodeVersions int
	EdgeVersions int
	Changes      int
	Batches      int
}

// Write exports store (its event log at logPath) as of transaction time
// asOf (bt.OpenEnd: everything) into dir in format "csv" or "parquet".
// The caller keeps writers out while it runs.
func Write(store *engine.Store, logPath, dir, format string, asOf bt.Time) (*Summary, error) {
	return WriteFrom(store, func(fn func(*eventlog.Record) error) error {
		return eventlog.ReadFile(logPath, func(r *eventlog.Record, _ int64) error { return fn(r) })
	}, dir, format, asOf)
}

// WriteFrom is Write for a store whose log is read by records, which calls
// fn with every batch in order and stops at fn's first error (returning
// it); a PostgreSQL store reads its batches table.
func WriteFrom(store *engine.Store, records func(fn func(*eventlog.Record) error) error, dir, format string, asOf bt.Time) (*Summary, error) {
	if format == "" {
		format = "csv"
	}
	if format != "csv" && format != "parquet" {
		return nil, fmt.Errorf("export format %q: use csv or parquet", format)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	sum := &Summary{}
	open := func(name string, cols []string, rows func(emit func([]cell)) error) error {
		path := filepath.Join(dir, name+"."+format)
		f, err := os.Create(path + ".tmp")
		if err != nil {
			return err
		}
		var tw tableWriter
		if format == "csv" {
			tw = newCSVWriter(f, cols)
		} else {
			tw = newParquetWriter(f, cols)
		}
		err = rows(func(r []cell) {
			if err == nil {
				err = tw.write(r)
			}
		})
		if e := tw.close(); err == nil {
			err = e
		}
		if e := f.Sync(); err == nil {
			err = e
		}
		if e := f.Close(); err == nil {
			err = e
		}
		if err == nil {
			err = os.Rename(path+".tmp", path)
		}
		if err != nil {
			os.Remove(path + ".tmp")
			return fmt.Errorf("export %s: %w", path, err)
		}
		sum.Files = append(sum.Files, path)
		return nil
	}
	lastSeq := store.Batches()
	if asOf < bt.OpenEnd {
		lastSeq = uint64(store.SeqAt(asOf))
	}
	cut := store.BatchTT(lastSeq)
	if lastSeq == 0 {
		cut = -1
	}
	closed := func(tte bt.Time, by bt.OpKind) (bt.Time, bt.OpKind) {
		if tte > cut {
			return bt.OpenEnd, bt.OpNone
		}
		return tte, by
	}
	err := open(NodesTable, nodeCols, func(emit func([]cell)) error {
		for i := range store.NumNodeVersions() {
			v := store.NodeVersion(i)
			if v.TTs > cut {
				continue
			}
			tte, by := closed(v.TTe, v.ClosedBy)
			emit([]cell{str(v.UID), str(v.Label), tm(v.Valid.Start), tm(v.Valid.End), tm(v.TTs), tm(tte), str(v.CreatedBy.String()), str(by.String()), str(v.Props.JSON())})
			sum.NodeVersions++
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = open(EdgesTable, edgeCols, func(emit func([]cell)) error {
		for i := range store.NumEdgeVersions() {
			v := store.EdgeVersion(uint32(i))
			if v.TTs > cut {
				continue
			}
			tte, by := closed(v.TTe, v.ClosedBy)
			k := v.Key
			emit([]cell{str(k.Src), str(k.Dst), str(k.RelType), str(k.Disc), tm(v.Valid.Start), tm(v.Valid.End), tm(v.TTs), tm(tte), str(v.CreatedBy.String()), str(by.String()), str(v.Props.JSON())})
			sum.EdgeVersions++
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = open(ChangesTable, changeCols, func(emit func([]cell)) error {
		err := records(func(r *eventlog.Record) error {
			if r.Seq > lastSeq {
				return errStop
			}
			sum.Batches++
			pc := provCells(r)
			for i := range r.Ops {
				sum.Changes += changeRows(r.TT, &r.Ops[i], pc, emit)
			}
			return nil
		})
		if errors.Is(err, errStop) {
			return nil
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return sum, nil
}

// errStop ends the log read at the exported batch.
var errStop = errors.New("stop")

var (
	nodeCols   = []string{"uid", "label", "valid_from", "valid_to", "recorded_from", "recorded_to", "created_by", "closed_by", "props"}
	edgeCols   = []string{"src", "dst", "rel_type", "disc", "valid_from", "valid_to", "recorded_from", "recorded_to", "created_by", "closed_by", "props"}
	changeCols = []string{"recorded_at", "op", "uid", "label", "src", "dst", "rel_type", "disc", "valid_from", "valid_to", "to_valid_from", "to_valid_to", "props",
		"prov_authority", "prov_source", "prov_actor", "prov_ref", "prov_note", "override"}
)

// provCells are the provenance cells of a batch's rows: its stated
// provenance (as the store resolved it) and override, all null for a batch
// with its default.
func provCells(r *eventlog.Record) [6]cell {
	c := [6]cell{null, null, null, null, null, null}
	if p := r.Provenance(); !p.Derived {
		c[0], c[1], c[2], c[3], c[4] = str(p.Authority.String()), opt(p.Source), opt(p.Actor), opt(p.Ref), opt(p.Note)
	}
	if r.Override {
		c[5] = str("true")
	}
	return c
}

// changeRows emits the change-log rows of one op and returns how many.
func changeRows(tt bt.Time, op *bt.Op, pc [6]cell, emit func([]cell)) int {
	row := func(opw string, uid, label string, k bt.EdgeKey, from, to, toFrom, toTo cell, props bt.Props) {
		emit([]cell{tm(tt), str(opw), opt(uid), opt(label), opt(k.Src), opt(k.Dst), opt(k.RelType), opt(k.Disc), from, to, toFrom, toTo, optProps(props), pc[0], pc[1], pc[2], pc[3], pc[4], pc[5]})
	}
	refParts := func(r bt.Ref) (string, bt.EdgeKey) {
		if r.Kind == bt.RefNode {
			return r.UID, bt.EdgeKey{}
		}
		return "", r.Edge
	}
	switch op.Kind {
	case bt.OpAssertNode:
		row("assert", op.UID, op.Label, bt.EdgeKey{}, tm(op.Valid.Start), tm(op.Valid.End), null, null, op.Props)
	case bt.OpAssertEdge:
		row("assert", "", "", op.Edge, tm(op.Valid.Start), tm(op.Valid.End), null, null, op.Props)
	case bt.OpRetract:
		uid, k := refParts(op.Ref)
		row("retract", uid, "", k, tm(op.At), null, null, null, "")
	case bt.OpCorrect:
		uid, k := refParts(op.Ref)
		toFrom, toTo := null, null
		if op.Moves() {
			toFrom, toTo = tm(op.To.Start), tm(op.To.End)
		}
		row("correct", uid, "", k, tm(op.Valid.Start), tm(op.Valid.End), toFrom, toTo, op.Props)
	case bt.OpIngest:
		for i := range op.Events {
			e := &op.Events[i]
			end := null
			if e.VtE != 0 {
				end = tm(e.VtE)
			}
			row("ingest", "", op.Label, bt.EdgeKey{Src: e.Src, Dst: e.Dst, RelType: e.RelType, Disc: e.Disc}, tm(e.VtS), end, null, null, e.Props)
		}
		return len(op.Events)
	default:
		return 0
	}
	return 1
}

// cell is one exported value: a string or a time (µs), or null.
type cell struct {
	s      string
	t      bt.Time
	isTime bool
	null   bool
}

var null = cell{null: true}

func str(s string) cell { return cell{s: s} }

func opt(s string) cell {
	if s == "" {
		return null
	}
	return cell{s: s}
}

func optProps(p bt.Props) cell {
	if p == "" {
		return null
	}
	return cell{s: string(p)}
}

// tm is a time cell; the open end is null.
func tm(t bt.Time) cell {
	if t >= bt.OpenEnd {
		return null
	}
	return cell{t: t, isTime: true}
}

type tableWriter interface {
	write([]cell) error
	close() error
}

type csvWriter struct {
	w   *csv.Writer
	rec []string
}

func newCSVWriter(f io.Writer, cols []string) *csvWriter {
	w := csv.NewWriter(f)
	w.Write(cols)
	return &csvWriter{w: w, rec: make([]string, len(cols))}
}

func (c *csvWriter) write(r []cell) error {
	for i, x := range r {
		switch {
		case x.null:
			c.rec[i] = ""
		case x.isTime:
			c.rec[i] = bt.FormatRFC3339(x.t)
		default:
			c.rec[i] = x.s
		}
	}
	return c.w.Write(c.rec)
}

func (c *csvWriter) close() error {
	c.w.Flush()
	return c.w.Error()
}

// parquetWriter writes a flat schema: every column optional, times as
// TIMESTAMP(MICROS), the rest strings.
type parquetWriter struct {
	w    *parquet.GenericWriter[any]
	cols []string
	idx  []int // schema column index of cols[i]
	buf  []parquet.Row
}

func isTimeCol(name string) bool {
	switch name {
	case "valid_from", "valid_to", "recorded_from", "recorded_to", "recorded_at", "to_valid_from", "to_valid_to":
		return true
	}
	return false
}

func newParquetWriter(f io.Writer, cols []string) *parquetWriter {
	g := parquet.Group{}
	for _, c := range cols {
		if isTimeCol(c) {
			g[c] = parquet.Optional(parquet.Timestamp(parquet.Microsecond))
		} else {
			g[c] = parquet.Optional(parquet.String())
		}
	}
	schema := parquet.NewSchema("tgms", g)
	p := &parquetWriter{w: parquet.NewGenericWriter[any](f, schema, parquet.MaxRowsPerRowGroup(65536)), cols: cols}
	order := map[string]int{}
	for i, fld := range schema.Fields() {
		order[fld.Name()] = i
	}
	for _, c := range cols {
		p.idx = append(p.idx, order[c])
	}
	return p
}

func (p *parquetWriter) write(r []cell) error {
	row := make(parquet.Row, len(r))
	for i, x := range r {
		c := p.idx[i]
		switch {
		case x.null:
			row[c] = parquet.Value{}.Level(0, 0, c)
		case x.isTime:
			row[c] = parquet.Int64Value(x.t).Level(0, 1, c)
		default:
			row[c] = parquet.ByteArrayValue([]byte(x.s)).Level(0, 1, c)
		}
	}
	p.buf = append(p.buf, row)
	if len(p.buf) >= 4096 {
		return p.flush()
	}
	return nil
}

func (p *parquetWriter) flush() error {
	if len(p.buf) == 0 {
		return nil
	}
	_, err := p.w.WriteRows(p.buf)
	p.buf = p.buf[:0]
	return err
}

func (p *parquetWriter) close() error {
	if err := p.flush(); err != nil {
		return err
	}
	return p.w.Close()
}
