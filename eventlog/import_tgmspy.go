package eventlog

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
)

// ImportTGMSPy reads the JSONL event log of the reference (Python) system
// and calls fn once per batch, in order, with the batch's transaction time
// and its ops mapped to bitemporal ops. name is used in error messages,
// which have the form "name:line: problem".
//
// The first non-blank line must be the header
// {"format":"tgms-eventlog","version":1}; every later non-blank line is one
// batch {"batch_id","ops","tt"}. Each batch_id must equal the first 16 hex
// digits of sha256(canonical_json({"ops":ops,"tt":tt})) and transaction
// times must strictly increase. A last line without its terminating
// newline is refused: the reference system treats it as a torn record that
// was never acknowledged, so recover the store there first (or remove the
// line) rather than import it.
//
// Ops map as follows; fields the reference writes with defaults may be
// absent and then take those defaults (props {}, vt_s 0, vt_e 2^62, disc
// "", node_label "Node", offset 0); "source" and "provenance_ref" are
// accepted and ignored, as are src_label and dst_label on assert_edge; any
// other unknown field is an error.
//
//	assert_node   {uid, label, props, vt_s, vt_e}
//	assert_edge   {src, dst, rel_type, disc, props, vt_s, vt_e}
//	retract       {ref, t}
//	correct       {ref, props, vt_s, vt_e}
//	ingest_events {events, node_label, offset}
//
// An ingest event {src, dst, rel_type, vt_s, vt_e, disc, props} with no
// disc (or an empty one) gets the explicit disc "#"+decimal(offset+index),
// the identity the reference store gave it; vt_e missing or 0 means the
// default end (vt_s+1).
//
// An error from fn stops the import and is returned wrapped with the
// file name and line number.
func ImportTGMSPy(r io.Reader, name string, fn func(tt bitemporal.Time, ops []bitemporal.Op) error) error {
	br := bufio.NewReaderSize(r, 1<<20)
	var (
		line      []byte
		lineNo    int
		sawHeader bool
		lastTT    bitemporal.Time
		batches   int
	)
	for {
		var err error
		line, err = readLine(br, line[:0])
		if err == io.EOF && len(line) == 0 {
			break
		}
		lineNo++
		if err != nil && err != io.EOF {
			return fmt.Errorf("%s:%d: %w", name, lineNo, err)
		}
		if err == io.EOF && len(bytes.TrimSpace(line)) > 0 {
			return fmt.Errorf("%s:%d: the last line has no terminating newline: the reference system treats it as a torn, unacknowledged record; recover the store with the reference system first, or remove the line", name, lineNo)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			if err == io.EOF {
				break
			}
			continue
		}
		v, perr := canon.Parse(line)
		if perr != nil {
			return fmt.Errorf("%s:%d: invalid JSON: %v", name, lineNo, perr)
		}
		if !sawHeader {
			if err := checkPyHeader(v); err != nil {
				return fmt.Errorf("%s:%d: %v", name, lineNo, err)
			}
			sawHeader = true
			continue
		}
		tt, ops, err := pyBatch(v)
		if err != nil {
			return fmt.Errorf("%s:%d: %v", name, lineNo, err)
		}
		if batches > 0 && tt <= lastTT {
			return fmt.Errorf("%s:%d: non-monotonic tt: %d does not follow %d", name, lineNo, tt, lastTT)
		}
		lastTT = tt
		batches++
		if err := fn(tt, ops); err != nil {
			return fmt.Errorf("%s:%d: %w", name, lineNo, err)
		}
	}
	if !sawHeader {
		return fmt.Errorf("%s: empty file: missing the header line {\"format\":\"tgms-eventlog\",\"version\":1}", name)
	}
	return nil
}

// readLine appends one line (without its newline) to buf. At the end of
// input it returns io.EOF with whatever unterminated text there was.
func readLine(br *bufio.Reader, buf []byte) ([]byte, error) {
	for {
		chunk, err := br.ReadSlice('\n')
		buf = append(buf, chunk...)
		switch {
		case err == nil:
			return buf[:len(buf)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return buf, err
		}
	}
}

func checkPyHeader(v any) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("header: want {\"format\":\"tgms-eventlog\",\"version\":1}, got %s", canon.Kind(v))
	}
	if f, _ := m["format"].(string); f != "tgms-eventlog" {
		return fmt.Errorf("header: format is %s, want \"tgms-eventlog\": not a reference event log", show(m["format"]))
	}
	if ver, _ := m["version"].(int64); ver != 1 {
		return fmt.Errorf("header: unsupported version %s; this importer reads version 1", show(m["version"]))
	}
	return nil
}

func pyBatch(v any) (bitemporal.Time, []bitemporal.Op, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return 0, nil, fmt.Errorf("batch: want a JSON object, got %s", canon.Kind(v))
	}
	o := newObj(m, "batch")
	id := o.str("batch_id", nil)
	rawOps := o.array("ops")
	tt := o.int("tt", nil)
	if err := o.done(); err != nil {
		return 0, nil, err
	}
	want, err := canon.Marshal(map[string]any{"ops": rawOps, "tt": tt})
	if err != nil {
		return 0, nil, fmt.Errorf("batch: %v", err)
	}
	if sum := canon.DigestBytes(want)[:16]; id != sum {
		return 0, nil, fmt.Errorf("batch_id %q does not match its content (computed %q): the line was altered or damaged", id, sum)
	}
	ops := make([]bitemporal.Op, len(rawOps))
	for i, ov := range rawOps {
		if err := pyOp(ov, &ops[i]); err != nil {
			return 0, nil, fmt.Errorf("op %d: %v", i, err)
		}
	}
	return tt, ops, nil
}

func pyOp(v any, op *bitemporal.Op) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("want a JSON object, got %s", canon.Kind(v))
	}
	o := newObj(m, "op")
	kind := o.str("op", nil)
	if o.err != nil {
		return o.err
	}
	o.what = kind
	o.ignore("source", "provenance_ref")
	open := bitemporal.OpenEnd
	zero := int64(0)
	empty := ""
	switch kind {
	case "assert_node":
		op.Kind = bitemporal.OpAssertNode
		op.UID = o.str("uid", nil)
		op.Label = o.str("label", nil)
		op.Props = o.props("props")
		op.Valid = bitemporal.Interval{Start: o.int("vt_s", &zero), End: o.int("vt_e", &open)}
	case "assert_edge":
		op.Kind = bitemporal.OpAssertEdge
		o.ignore("src_label", "dst_label")
		op.Edge = bitemporal.EdgeKey{Src: o.str("src", nil), Dst: o.str("dst", nil), RelType: o.str("rel_type", nil), Disc: o.str("disc", &empty)}
		op.Props = o.props("props")
		op.Valid = bitemporal.Interval{Start: o.int("vt_s", &zero), End: o.int("vt_e", &open)}
	case "retract":
		op.Kind = bitemporal.OpRetract
		op.Ref = o.ref("ref")
		op.At = o.int("t", nil)
	case "correct":
		op.Kind = bitemporal.OpCorrect
		op.Ref = o.ref("ref")
		op.Props = o.props("props")
		op.Valid = bitemporal.Interval{Start: o.int("vt_s", &zero), End: o.int("vt_e", &open)}
	case "ingest_events":
		op.Kind = bitemporal.OpIngest
		node := "Node"
		op.Label = o.str("node_label", &node)
		offset := o.int("offset", &zero)
		evs := o.array("events")
		if o.err != nil {
			return o.err
		}
		if len(evs) > 0 {
			op.Events = make([]bitemporal.Event, len(evs))
		}
		for j, ev := range evs {
			if err := pyEvent(ev, offset+int64(j), &op.Events[j]); err != nil {
				return fmt.Errorf("ingest_events event %d: %v", j, err)
			}
		}
	default:
		return fmt.Errorf("unknown op %q: want assert_node, assert_edge, retract, correct or ingest_events", kind)
	}
	return o.done()
}

func pyEvent(v any, n int64, e *bitemporal.Event) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("want a JSON object, got %s", canon.Kind(v))
	}
	o := newObj(m, "event")
	zero := int64(0)
	empty := ""
	e.Src = o.str("src", nil)
	e.Dst = o.str("dst", nil)
	e.RelType = o.str("rel_type", nil)
	e.VtS = o.int("vt_s", nil)
	e.VtE = o.int("vt_e", &zero)
	e.Disc = o.str("disc", &empty)
	if e.Disc == "" {
		e.Disc = "#" + strconv.FormatInt(n, 10)
	}
	e.Props = o.props("props")
	return o.done()
}

// obj reads the fields of one JSON object, remembering the first problem
// and which fields were read.
type obj struct {
	m    map[string]any
	what string
	used []string
	buf  [12]string
	err  error
}

func newObj(m map[string]any, what string) *obj {
	o := &obj{m: m, what: what}
	o.used = o.buf[:0]
	return o
}

func (o *obj) setErr(format string, args ...any) {
	if o.err == nil {
		o.err = fmt.Errorf(format, args...)
	}
}

// field returns the value of key and marks it read; a missing field is an
// error when required.
func (o *obj) field(key string, required bool) (any, bool) {
	v, ok := o.m[key]
	if !ok {
		if required {
			o.setErr("%s: missing field %q", o.what, key)
		}
		return nil, false
	}
	o.used = append(o.used, key)
	return v, true
}

func (o *obj) ignore(keys ...string) {
	for _, k := range keys {
		o.field(k, false)
	}
}

func (o *obj) str(key string, def *string) string {
	v, ok := o.field(key, def == nil)
	if !ok {
		if def != nil {
			return *def
		}
		return ""
	}
	s, ok := v.(string)
	if !ok {
		o.setErr("%s: %s must be a string, got %s", o.what, key, canon.Kind(v))
	}
	return s
}

func (o *obj) int(key string, def *int64) int64 {
	v, ok := o.field(key, def == nil)
	if !ok {
		if def != nil {
			return *def
		}
		return 0
	}
	i, ok := v.(int64)
	if !ok {
		o.setErr("%s: %s must be an integer, got %s", o.what, key, canon.Kind(v))
	}
	return i
}

func (o *obj) array(key string) []any {
	v, ok := o.field(key, true)
	if !ok {
		return nil
	}
	a, ok := v.([]any)
	if !ok {
		o.setErr("%s: %s must be an array, got %s", o.what, key, canon.Kind(v))
	}
	return a
}

func (o *obj) props(key string) bitemporal.Props {
	v, ok := o.field(key, false)
	if !ok {
		return ""
	}
	p, err := bitemporal.NewProps(v)
	if err != nil {
		o.setErr("%s: %s: %v", o.what, key, err)
	}
	return p
}

func (o *obj) ref(key string) bitemporal.Ref {
	v, ok := o.field(key, true)
	if !ok {
		return bitemporal.Ref{}
	}
	m, ok := v.(map[string]any)
	if !ok {
		o.setErr("%s: %s must be an object, got %s", o.what, key, canon.Kind(v))
		return bitemporal.Ref{}
	}
	r := newObj(m, o.what+" "+key)
	empty := ""
	var ref bitemporal.Ref
	switch k := r.str("kind", nil); k {
	case "node":
		ref = bitemporal.NodeRef(r.str("uid", nil))
	case "edge":
		ref = bitemporal.EdgeRef(bitemporal.EdgeKey{Src: r.str("src", nil), Dst: r.str("dst", nil), RelType: r.str("rel_type", nil), Disc: r.str("disc", &empty)})
	default:
		r.setErr("%s: kind must be \"node\" or \"edge\", got %s", r.what, show(m["kind"]))
	}
	if err := r.done(); err != nil && o.err == nil {
		o.err = err
	}
	return ref
}

// done reports the first problem, or else a field that was never read.
func (o *obj) done() error {
	if o.err != nil || len(o.used) == len(o.m) {
		return o.err
	}
	for k := range o.m {
		if !slices.Contains(o.used, k) {
			return fmt.Errorf("%s: unknown field %q", o.what, k)
		}
	}
	return nil
}

func show(v any) string {
	if v == nil {
		return "missing"
	}
	b, err := canon.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}
