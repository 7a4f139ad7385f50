package tabular

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/tgms-go/tgms/canon"
)

// MaxLine bounds one JSONL line.
const MaxLine = 16 << 20

// jsonlReader reads one JSON object per line; blank lines are skipped.
type jsonlReader struct {
	sc   *bufio.Scanner
	src  *counting
	name string
	line int64
}

func newJSONL(in io.Reader, src *counting, name string) *jsonlReader {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
	return &jsonlReader{sc: sc, src: src, name: name}
}

func (j *jsonlReader) Columns() []string { return nil }

func (j *jsonlReader) Next(r *Row) error {
	for j.sc.Scan() {
		j.line++
		b := bytes.TrimSpace(j.sc.Bytes())
		if len(b) == 0 {
			continue
		}
		pos := Pos{File: j.name, Line: j.line}
		v, err := canon.Parse(b)
		if err != nil {
			return &CellError{Pos: pos, Msg: err.Error(), Expected: "one JSON object per line"}
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return &CellError{Pos: pos, Msg: fmt.Sprintf("a JSON %s", canon.Kind(v)), Expected: "one JSON object per line"}
		}
		r.Pos, r.Text, r.Obj, r.pq = pos, nil, obj, nil
		return nil
	}
	if err := j.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return &CellError{Pos: Pos{File: j.name, Line: j.line + 1}, Msg: fmt.Sprintf("line longer than %d bytes", MaxLine), Expected: "one JSON object per line"}
		}
		return fmt.Errorf("%s: %w", j.name, err)
	}
	return io.EOF
}

func (j *jsonlReader) Done() float64  { return j.src.done() }
func (j *jsonlReader) SHA256() string { return j.src.sum() }
func (j *jsonlReader) Close() error   { return j.src.f.Close() }
