package tabular

import (
	"fmt"
	"strconv"
	"strings"
)

// Pos is where a row is in its file: a line (CSV, TSV, JSONL; 1 is the
// first line, the header of a CSV) or a Parquet row group and row (both
// from 0).
type Pos struct {
	File     string
	Line     int64 // > 0 for line-oriented files
	RowGroup int
	Row      int64 // Parquet: row within the row group
}

func (p Pos) String() string {
	if p.Line > 0 {
		return p.File + ":" + strconv.FormatInt(p.Line, 10)
	}
	return fmt.Sprintf("%s: row group %d row %d", p.File, p.RowGroup, p.Row)
}

// CellError is one bad cell (or row): where, which column, the value, and
// what was expected.
type CellError struct {
	Pos      Pos
	Column   string // "" for a row-level problem
	Value    string // the cell as read ("" with Column == "" )
	Expected string
	Msg      string // what is wrong with the value
}

func (e *CellError) Error() string {
	var b strings.Builder
	b.WriteString(e.Pos.String())
	if e.Column != "" {
		fmt.Fprintf(&b, ": column %q: value %s", e.Column, quoteCell(e.Value))
	}
	if e.Msg != "" {
		b.WriteString(": ")
		b.WriteString(e.Msg)
	}
	if e.Expected != "" {
		b.WriteString("; expected ")
		b.WriteString(e.Expected)
	}
	return b.String()
}

func quoteCell(s string) string {
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return strconv.Quote(s)
}

// Problems is every problem found in an input, up to a limit. Nothing is
// written when an input has any.
type Problems struct {
	List    []*CellError
	More    int // problems found beyond the limit
	Limit   int
	Scanned int64 // rows read
}

func (p *Problems) add(e *CellError) {
	if len(p.List) < p.Limit {
		p.List = append(p.List, e)
	} else {
		p.More++
	}
}

func (p *Problems) full() bool { return len(p.List) >= p.Limit && p.Limit > 0 }

// Count is the number of problems found.
func (p *Problems) Count() int { return len(p.List) + p.More }

func (p *Problems) Error() string {
	var b strings.Builder
	n := p.Count()
	if n == 1 {
		b.WriteString(p.List[0].Error())
	} else {
		fmt.Fprintf(&b, "%d problems:", n)
		for _, e := range p.List {
			b.WriteString("\n  ")
			b.WriteString(e.Error())
		}
		if p.More > 0 {
			fmt.Fprintf(&b, "\n  ... and %d more (not listed)", p.More)
		}
	}
	b.WriteString("\nnothing was written")
	return b.String()
}

// First returns the first problem.
func (p *Problems) First() *CellError { return p.List[0] }

// Unwrap returns the problems as errors (errors.As finds a *CellError).
func (p *Problems) Unwrap() []error {
	out := make([]error, len(p.List))
	for i, e := range p.List {
		out[i] = e
	}
	return out
}

// MappingError is a mapping that does not fit the table (a column it
// names is missing, a setting is incomplete or contradictory): nothing
// was read.
type MappingError struct{ Err error }

func (e *MappingError) Error() string { return e.Err.Error() }
func (e *MappingError) Unwrap() error { return e.Err }

// mappingErr wraps err as a *MappingError unless it already names a cell.
func mappingErr(err error) error {
	if _, ok := err.(*CellError); ok {
		return err
	}
	return &MappingError{Err: err}
}
