package tabular

import (
	"fmt"
	"slices"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// DefaultNodeLabel is the label of nodes that events create when the
// mapping gives none.
const DefaultNodeLabel = "Node"

// EventTable is an event table read through a mapping.
type EventTable struct {
	Events    []bt.Event
	Rows      int64
	NodeLabel string // label of the nodes the events create
	SHA256    string // of the file's bytes
}

// ReadEvents reads every row of rd as one edge event: src and dst are
// node uids, time is the event's valid-time start; with an end column the
// event holds over [time, end) (an empty end cell: still holding),
// without one it is an instant (valid for one microsecond). Nothing is
// returned when any row is bad: the error is a *Problems naming each bad
// cell (up to opt.MaxProblems).
func ReadEvents(rd Reader, m *Mapping, opt Options) (*EventTable, error) {
	out := &EventTable{}
	sc, err := scanEvents(rd, m, opt, func(ev *bt.Event) error {
		if len(out.Events) == cap(out.Events) {
			out.Events = growFor(out.Events, rd.Done())
		}
		out.Events = append(out.Events, *ev)
		return nil
	})
	if err != nil {
		return nil, err
	}
	out.Rows, out.NodeLabel, out.SHA256 = sc.Rows, sc.NodeLabel, sc.SHA256
	return out, nil
}

// EventScan is what ScanEvents reports of a table it read.
type EventScan struct {
	Rows      int64
	NodeLabel string // label of the nodes the events create
	SHA256    string // of the file's bytes
}

// ScanEvents reads rd as ReadEvents does, but hands the events to fn as
// it goes, in order, in slices of at most chunk events (the slice is
// reused once fn returns), so memory does not grow with the table. fn is
// called only while every row so far was good: after a bad row ScanEvents
// goes on collecting problems (up to opt.MaxProblems) and returns them as
// a *Problems. An error from fn stops the read and is returned as it is.
func ScanEvents(rd Reader, m *Mapping, opt Options, chunk int, fn func(events []bt.Event) error) (*EventScan, error) {
	buf := make([]bt.Event, 0, max(1, chunk))
	sc, err := scanEvents(rd, m, opt, func(ev *bt.Event) error {
		buf = append(buf, *ev)
		if len(buf) < cap(buf) {
			return nil
		}
		err := fn(buf)
		buf = buf[:0]
		return err
	})
	if err == nil && len(buf) > 0 {
		err = fn(buf)
	}
	if err != nil {
		return nil, err
	}
	return sc, nil
}

// NodeLabelOf is the label of the nodes an event table's events create.
func NodeLabelOf(m *Mapping) string {
	if m.Label == "" {
		return DefaultNodeLabel
	}
	return m.Label
}

// scanEvents reads every row of rd through m and calls emit with each
// event while no row has been bad.
func scanEvents(rd Reader, m *Mapping, opt Options, emit func(ev *bt.Event) error) (*EventScan, error) {
	file := rowFile(rd)
	b, err := newBinder(rd, file, m)
	if err != nil {
		return nil, mappingErr(err)
	}
	tf, err := ParseTimeFormat(m.TimeFormat, m.TZ)
	if err != nil {
		return nil, mappingErr(err)
	}
	src, err := b.need(m.Src, "--src", "the source node")
	if err != nil {
		return nil, mappingErr(err)
	}
	dst, err := b.need(m.Dst, "--dst", "the destination node")
	if err != nil {
		return nil, mappingErr(err)
	}
	tcol, err := b.need(m.Time, "--time", "the event time")
	if err != nil {
		return nil, mappingErr(err)
	}
	var end, relCol col
	if m.End != "" {
		if end, err = b.bind(m.End, "the end time"); err != nil {
			return nil, mappingErr(err)
		}
	}
	switch {
	case m.RelTypeCol != "" && m.RelType != "":
		return nil, mappingErr(fmt.Errorf("give one of --rel-type NAME and --rel-type-col COLUMN, not both"))
	case m.RelTypeCol != "":
		if relCol, err = b.bind(m.RelTypeCol, "the rel type"); err != nil {
			return nil, mappingErr(err)
		}
	case m.RelType == "":
		return nil, mappingErr(fmt.Errorf("no rel type: give --rel-type NAME (one type for every event) or --rel-type-col COLUMN"))
	}
	if m.LabelCol != "" {
		return nil, mappingErr(fmt.Errorf("--label-col applies to node tables; for events --label names the label of the nodes they create"))
	}
	if err := b.bindProps(m.Props); err != nil {
		return nil, mappingErr(err)
	}
	out := &EventScan{NodeLabel: NodeLabelOf(m)}
	rel := m.RelType
	var ev bt.Event // one for every row: emit takes its address
	probs, n, err := b.each(opt, func(r *Row) *CellError {
		ev = bt.Event{}
		var e *CellError
		if ev.Src, e = b.str(r, src, true, "a node uid"); e != nil {
			return e
		}
		if ev.Dst, e = b.str(r, dst, true, "a node uid"); e != nil {
			return e
		}
		ev.RelType = rel
		if relCol.ok() {
			if ev.RelType, e = b.str(r, relCol, false, "a rel type name"); e != nil {
				return e
			}
		}
		t, null, e := b.time(r, tcol, tf)
		if e != nil {
			return e
		}
		if null {
			text, val, isText, _ := b.cell(r, tcol)
			return b.bad(r, tcol, text, val, isText, "empty", tf.Expected())
		}
		if t >= bt.OpenEnd-1 {
			text, val, isText, _ := b.cell(r, tcol)
			return b.bad(r, tcol, text, val, isText, "too far in the future", tf.Expected())
		}
		ev.VtS = t
		if end.ok() {
			te, null, e := b.time(r, end, tf)
			if e != nil {
				return e
			}
			if null {
				te = bt.OpenEnd
			}
			if te <= t {
				text, val, isText, _ := b.cell(r, end)
				return b.bad(r, end, text, val, isText, fmt.Sprintf("not after the start %s", bt.FormatRFC3339(t)), "an end after the start (the fact holds over [start, end)), or an empty cell for a fact still holding")
			}
			ev.VtE = te
		}
		if ev.Props, e = b.propsOf(r); e != nil {
			return e
		}
		if b.clean {
			b.stop = emit(&ev)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if probs != nil {
		return nil, probs
	}
	out.Rows = n
	out.SHA256 = rd.SHA256()
	return out, nil
}

// growFor grows a full slice of rows read so far to what the whole input
// will likely need, from the fraction of it read: one allocation of about
// the final size instead of a chain of ever larger copies. Early on (or
// when the fraction says nothing) it leaves the growth to append.
func growFor[T any](s []T, done float64) []T {
	n := len(s)
	if n < 4096 || done <= 0 || done >= 1 {
		return s
	}
	want := int(float64(n)/done*1.02) + 1024
	if want <= n || want > 1<<28 {
		return s
	}
	return slices.Grow(s, want-n)
}

// rowFile is the file name a reader reports positions in.
func rowFile(rd Reader) string {
	switch r := rd.(type) {
	case *delimited:
		return r.name
	case *jsonlReader:
		return r.name
	case *parquetReader:
		return r.name
	}
	return ""
}
