package tabular

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// Errors of the CSV record parser, in encoding/csv's words.
var (
	errBareQuote  = errors.New(`bare " in non-quoted-field`)
	errQuote      = errors.New(`extraneous or missing " in quoted-field`)
	errFieldCount = errors.New("wrong number of cells")
)

// csvParser reads the records of RFC 4180 CSV (or TSV, with lazy quotes)
// as encoding/csv does, with one difference: a quoted cell keeps its bytes
// exactly, line breaks included. encoding/csv turns a CR LF inside a
// quoted cell into LF, so a cell written with CR LF would not come back
// as written. Outside quotes a record ends at LF or CR LF, empty lines are
// skipped, and a CR just before the end of the input is dropped, as there.
type csvParser struct {
	r     *bufio.Reader
	comma byte
	lazy  bool // TSV: a quote inside a cell, or after a closing one, is literal
	want  int  // cells per record (0: any)

	line    int64 // lines read so far
	recLine int64 // the line the last record starts on

	text   []byte   // the record's cells, back to back
	ends   []int    // end of each cell in text
	fields []string // the cells, reused from record to record
	more   []byte   // a line longer than the reader's buffer
}

// csvError is a malformed record: the line the problem is on.
type csvError struct {
	line int64
	err  error
}

func (e *csvError) Error() string { return e.err.Error() }

func newCSVParser(in io.Reader, comma byte, lazy bool) *csvParser {
	return &csvParser{r: bufio.NewReaderSize(in, 256<<10), comma: comma, lazy: lazy}
}

// readLine returns the next line with its line break, nil at the end of
// the input. The slice is valid until the next call.
func (p *csvParser) readLine() ([]byte, error) {
	line, err := p.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		p.more = append(p.more[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = p.r.ReadSlice('\n')
			p.more = append(p.more, line...)
		}
		line = p.more
	}
	if len(line) > 0 && err == io.EOF {
		err = nil
		if line[len(line)-1] == '\r' {
			line = line[:len(line)-1] // a CR before the end of the input
		}
	}
	if len(line) > 0 {
		p.line++
	}
	return line, err
}

// lineEnd is the length of line's break: 2 for CR LF, 1 for LF, else 0.
func lineEnd(line []byte) int {
	n := len(line)
	switch {
	case n >= 2 && line[n-2] == '\r' && line[n-1] == '\n':
		return 2
	case n >= 1 && line[n-1] == '\n':
		return 1
	}
	return 0
}

// read returns the next record's cells (valid until the next call), or
// io.EOF after the last.
func (p *csvParser) read() ([]string, error) {
	if err := p.readRaw(); err != nil {
		return nil, err
	}
	return p.cells(), nil
}

// readRaw reads the next record into p.text and p.ends, or returns
// io.EOF after the last.
func (p *csvParser) readRaw() error {
	var line []byte
	for {
		l, err := p.readLine()
		if err != nil {
			return err
		}
		if len(l) == 0 {
			return io.EOF
		}
		if len(l) > lineEnd(l) {
			line = l
			break
		}
	}
	p.recLine = p.line
	p.text, p.ends = p.text[:0], p.ends[:0]
	q := []byte{'"'}
	for {
		if len(line) == 0 || line[0] != '"' {
			// An unquoted cell: up to the next delimiter or the line break.
			i := bytes.IndexByte(line, p.comma)
			cell := line
			if i >= 0 {
				cell = line[:i]
			} else {
				cell = cell[:len(cell)-lineEnd(cell)]
			}
			if !p.lazy && bytes.IndexByte(cell, '"') >= 0 {
				return &csvError{p.line, errBareQuote}
			}
			p.text = append(p.text, cell...)
			p.ends = append(p.ends, len(p.text))
			if i < 0 {
				break
			}
			line = line[i+1:]
			continue
		}
		// A quoted cell: its bytes as they are, up to the closing quote.
		startLine := p.line
		line = line[1:]
		for {
			i := bytes.Index(line, q)
			if i < 0 {
				p.text = append(p.text, line...)
				next, err := p.readLine()
				if err != nil && err != io.EOF {
					return err
				}
				if len(next) == 0 {
					if !p.lazy {
						return &csvError{startLine, errQuote}
					}
					p.ends = append(p.ends, len(p.text))
					return p.counted()
				}
				line = next
				continue
			}
			p.text = append(p.text, line[:i]...)
			line = line[i+1:]
			switch {
			case len(line) > 0 && line[0] == '"':
				p.text = append(p.text, '"')
				line = line[1:]
				continue
			case len(line) > 0 && line[0] == p.comma:
				line = line[1:]
				p.ends = append(p.ends, len(p.text))
			case len(line) == lineEnd(line):
				p.ends = append(p.ends, len(p.text))
				return p.counted()
			case p.lazy:
				p.text = append(p.text, '"')
				continue
			default:
				return &csvError{p.line, errQuote}
			}
			break
		}
	}
	return p.counted()
}

// counted checks the record's cell count.
func (p *csvParser) counted() error {
	if p.want > 0 && len(p.ends) != p.want {
		return &csvError{p.recLine, errFieldCount}
	}
	return nil
}

// cells cuts the record's text into cells: one string for the record,
// cells sharing it.
func (p *csvParser) cells() []string {
	s := string(p.text)
	p.fields = p.fields[:0]
	prev := 0
	for _, e := range p.ends {
		p.fields = append(p.fields, s[prev:e])
		prev = e
	}
	return p.fields
}

func (e *csvError) Unwrap() error { return e.err }
