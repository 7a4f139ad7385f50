package eventlog

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sync"

	"github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/internal/strtab"
)

// Record is one write batch: the ops applied together at transaction time
// TT. Seq numbers batches from 1 without gaps. Source, when not empty,
// names what a bulk ingest loaded (see the package documentation).
//
// A record with an Image is not a batch but a store image: the bytes of a
// checkpoint file holding the whole store as of batch Seq at TT, written as
// the first record of a log rebuilt from a checkpoint ('tgms check --repair
// --use-checkpoint'). It has no ops and no source; the records after it
// are batches Seq+1, Seq+2, ...
type Record struct {
	TT     bitemporal.Time
	Seq    uint64
	Source string
	Ops    []bitemporal.Op
	Image  []byte
	// Prov is the provenance the batch stated (nil: none, the batch has
	// its default) and Override whether it allowed replacing users' facts
	// (see bitemporal.Batch). A derived Prov is stored as none.
	Prov     *bitemporal.Provenance
	Override bool
}

// Provenance returns the batch's provenance: the stated one or its
// default (bitemporal.Resolve).
func (r *Record) Provenance() bitemporal.Provenance {
	return bitemporal.Resolve(r.Prov, r.Source, r.Ops)
}

// stated reports whether the record needs the provenance fields.
func (r *Record) stated() bool {
	return r.Override || (r.Prov != nil && !r.Provenance().Derived)
}

// Payload constants.
const (
	recordBatch   = 1 // a batch
	recordSourced = 2 // a batch that names its source
	recordProv    = 3 // a batch with its stated provenance (and a source, possibly empty)
	recordImage   = 8 // a store image (the first record of a rebuilt log)

	flagOverride = 1 // prov flags: the batch may replace users' facts

	// Smallest encodings, used to bound counts by the bytes left.
	minOpSize    = 3 // retract with an empty ref, ingest with no events
	minEventSize = 7 // src, dst, rel_type, vt_s, duration, disc, props
)

// AppendRecord appends the payload encoding of r to dst and returns the
// extended slice. Only the fields an op's kind uses are stored (see the
// package documentation); everything else decodes as the zero value. Ops of
// an unknown kind are written as the kind byte alone, which DecodeRecord
// rejects: Log.Append refuses them before encoding.
func AppendRecord(dst []byte, r *Record) []byte {
	if r.Image != nil {
		dst = append(dst, recordImage)
		dst = binary.AppendVarint(dst, r.TT)
		dst = binary.AppendUvarint(dst, r.Seq)
		dst = binary.AppendUvarint(dst, uint64(len(r.Image)))
		return append(dst, r.Image...)
	}
	prov := r.stated()
	switch {
	case prov:
		dst = append(dst, recordProv)
	case r.Source == "":
		dst = append(dst, recordBatch)
	default:
		dst = append(dst, recordSourced)
	}
	dst = binary.AppendVarint(dst, r.TT)
	dst = binary.AppendUvarint(dst, r.Seq)
	if prov || r.Source != "" {
		dst = appendString(dst, r.Source)
	}
	if prov {
		var flags byte
		if r.Override {
			flags |= flagOverride
		}
		p := r.Prov
		if p == nil || p.Derived {
			p = &bitemporal.Provenance{}
		}
		dst = append(dst, flags, byte(p.Authority))
		dst = appendString(dst, p.Source)
		dst = appendString(dst, p.Actor)
		dst = appendString(dst, p.Ref)
		dst = appendString(dst, p.Note)
	}
	dst = binary.AppendUvarint(dst, uint64(len(r.Ops)))
	var d *encDict
	for i := range r.Ops {
		op := &r.Ops[i]
		if op.Kind == bitemporal.OpCorrect && op.Moves() {
			dst = append(dst, opCorrectMoving)
			dst = appendRef(dst, &op.Ref)
			dst = appendString(dst, string(op.Props))
			for _, t := range []bitemporal.Time{op.Valid.Start, op.Valid.End, op.To.Start, op.To.End} {
				dst = binary.AppendVarint(dst, t)
			}
			continue
		}
		dst = append(dst, byte(op.Kind))
		switch op.Kind {
		case bitemporal.OpAssertNode:
			dst = appendString(dst, op.UID)
			dst = appendString(dst, op.Label)
			dst = appendString(dst, string(op.Props))
			dst = binary.AppendVarint(dst, op.Valid.Start)
			dst = binary.AppendVarint(dst, op.Valid.End)
		case bitemporal.OpAssertEdge:
			dst = appendEdgeKey(dst, &op.Edge)
			dst = appendString(dst, string(op.Props))
			dst = binary.AppendVarint(dst, op.Valid.Start)
			dst = binary.AppendVarint(dst, op.Valid.End)
		case bitemporal.OpRetract:
			dst = appendRef(dst, &op.Ref)
			dst = binary.AppendVarint(dst, op.At)
		case bitemporal.OpCorrect:
			dst = appendRef(dst, &op.Ref)
			dst = appendString(dst, string(op.Props))
			dst = binary.AppendVarint(dst, op.Valid.Start)
			dst = binary.AppendVarint(dst, op.Valid.End)
		case bitemporal.OpIngest:
			if d == nil {
				d = dictPool.Get().(*encDict)
			}
			dst = d.appendIngest(dst, op)
		case bitemporal.OpErase:
			dst = appendErase(dst, op.Erase)
		}
	}
	if d != nil {
		d.release()
	}
	return dst
}

func appendString(dst []byte, s string) []byte {
	if len(s) < 0x80 {
		dst = append(dst, byte(len(s)))
	} else {
		dst = binary.AppendUvarint(dst, uint64(len(s)))
	}
	return append(dst, s...)
}

func appendEdgeKey(dst []byte, k *bitemporal.EdgeKey) []byte {
	dst = appendString(dst, k.Src)
	dst = appendString(dst, k.Dst)
	dst = appendString(dst, k.RelType)
	return appendString(dst, k.Disc)
}

func appendRef(dst []byte, r *bitemporal.Ref) []byte {
	dst = append(dst, byte(r.Kind))
	switch r.Kind {
	case bitemporal.RefNode:
		dst = appendString(dst, r.UID)
	case bitemporal.RefEdge:
		dst = appendEdgeKey(dst, &r.Edge)
	}
	return dst
}

// encDict is the per-op string dictionary of an ingest op: strings in
// order of first use, indexed by value.
type encDict struct {
	ix   strtab.Index
	strs []string
}

var dictPool = sync.Pool{New: func() any { return new(encDict) }}

func (d *encDict) release() {
	if len(d.strs) > 1<<16 {
		*d = encDict{} // do not pin huge tables
	} else {
		d.reset()
	}
	dictPool.Put(d)
}

func (d *encDict) reset() {
	d.ix.Reset()
	clear(d.strs)
	d.strs = d.strs[:0]
}

// ref appends the dictionary reference for s: its index, or the next index
// followed by s itself when s is new.
func (d *encDict) ref(dst []byte, s string) ([]byte, uint64) {
	id, added := d.ix.Add(d.strs, s)
	i := uint64(id)
	if !added {
		if i < 0x80 {
			return append(dst, byte(i)), i
		}
		return binary.AppendUvarint(dst, i), i
	}
	d.strs = append(d.strs, s)
	dst = binary.AppendUvarint(dst, i)
	return appendString(dst, s), i
}

func (d *encDict) appendIngest(dst []byte, op *bitemporal.Op) []byte {
	d.reset()
	if n := len(op.Events); n > 0 {
		// Room for all events at about the first one's size (the payload
		// otherwise grows by copying itself several times).
		e := &op.Events[0]
		dst = slices.Grow(dst, n*(12+len(e.Src)/2+len(e.Disc)+len(e.Props)))
	}
	dst = appendString(dst, op.Label)
	dst = binary.AppendUvarint(dst, uint64(len(op.Events)))
	var prev bitemporal.Time
	// Consecutive events often share a relation type or a source; skip the
	// map lookup when they do.
	lastRel, lastRelIdx := "", uint64(0)
	lastSrc, lastSrcIdx := "", uint64(0)
	for j := range op.Events {
		e := &op.Events[j]
		if j > 0 && e.Src == lastSrc && lastSrcIdx < 0x80 {
			dst = append(dst, byte(lastSrcIdx))
		} else {
			dst, lastSrcIdx = d.ref(dst, e.Src)
			lastSrc = e.Src
		}
		dst, _ = d.ref(dst, e.Dst)
		if j > 0 && e.RelType == lastRel && lastRelIdx < 0x80 {
			dst = append(dst, byte(lastRelIdx))
		} else {
			dst, lastRelIdx = d.ref(dst, e.RelType)
			lastRel = e.RelType
		}
		dst = binary.AppendVarint(dst, e.VtS-prev)
		prev = e.VtS
		dst = binary.AppendUvarint(dst, encodeDuration(e.VtS, e.VtE))
		dst = appendString(dst, e.Disc)
		dst = appendString(dst, string(e.Props))
	}
	return dst
}

// encodeDuration maps an event's end to the stored duration field: 0 for
// VtE == 0 (the default end), VtE-VtS otherwise. The two values that would
// collide, VtE == 0 and VtE == VtS (an empty interval that validation
// rejects but the log still records faithfully), are swapped, so every
// (VtS, VtE) pair survives a round trip. All arithmetic wraps.
func encodeDuration(vs, ve bitemporal.Time) uint64 {
	switch {
	case ve == 0:
		return 0
	case ve == vs:
		return uint64(-vs)
	}
	return uint64(ve - vs)
}

func decodeDuration(vs bitemporal.Time, u uint64) bitemporal.Time {
	if u == 0 {
		return 0
	}
	ve := vs + int64(u)
	if ve == 0 {
		return vs
	}
	return ve
}

// decodeError says where and why a payload does not decode.
type decodeError struct {
	off int
	msg string
}

func (e *decodeError) Error() string {
	return fmt.Sprintf("payload byte %d: %s", e.off, e.msg)
}

// decoder reads one payload. With build false it only checks the structure
// and allocates nothing but the record's TT and Seq are still filled in.
type decoder struct {
	b     []byte
	i     int
	err   *decodeError
	build bool
	typ   byte     // the record type read by header
	dict  []string // ingest dictionary, reused across ops
	ndict int      // dictionary size when not building
}

func (d *decoder) fail(msg string) {
	if d.err == nil {
		d.err = &decodeError{off: d.i, msg: msg}
	}
	d.i = len(d.b) // every later read fails fast
}

func (d *decoder) left() int { return len(d.b) - d.i }

func (d *decoder) byte1(what string) byte {
	if d.i >= len(d.b) {
		d.fail("truncated " + what)
		return 0
	}
	c := d.b[d.i]
	d.i++
	return c
}

func (d *decoder) uvarint(what string) uint64 {
	if d.i < len(d.b) && d.b[d.i] < 0x80 {
		c := d.b[d.i]
		d.i++
		return uint64(c)
	}
	v, n := binary.Uvarint(d.b[d.i:])
	if n <= 0 {
		if n == 0 {
			d.fail("truncated " + what)
		} else {
			d.fail("overlong varint in " + what)
		}
		return 0
	}
	d.i += n
	return v
}

func (d *decoder) varint(what string) int64 {
	u := d.uvarint(what)
	return int64(u>>1) ^ -int64(u&1)
}

// count reads an element count and checks that that many elements of at
// least min bytes each fit in what is left.
func (d *decoder) count(what string, min int) int {
	n := d.uvarint(what)
	if d.err != nil {
		return 0
	}
	if n > uint64(d.left()/min) {
		d.fail(fmt.Sprintf("%s %d does not fit in the %d bytes left", what, n, d.left()))
		return 0
	}
	return int(n)
}

// bytes reads a length-prefixed byte string without copying.
func (d *decoder) bytes(what string) []byte {
	n := d.uvarint(what) // "truncated <what>" if the length is cut
	if d.err != nil {
		return nil
	}
	if n > uint64(d.left()) {
		d.fail(fmt.Sprintf("%s length %d runs past the end of the payload", what, n))
		return nil
	}
	s := d.b[d.i : d.i+int(n)]
	d.i += int(n)
	return s
}

func (d *decoder) str(what string) string {
	b := d.bytes(what)
	if !d.build || len(b) == 0 {
		return ""
	}
	return string(b)
}

// dictStr reads a dictionary reference of an ingest event.
func (d *decoder) dictStr(what string) string {
	size := d.ndict
	if d.build {
		size = len(d.dict)
	}
	i := d.uvarint(what)
	if d.err != nil {
		return ""
	}
	if i < uint64(size) {
		if d.build {
			return d.dict[i]
		}
		return ""
	}
	if i > uint64(size) {
		d.fail(fmt.Sprintf("%s refers to dictionary entry %d of %d", what, i, size))
		return ""
	}
	s := d.str(what)
	if d.err != nil {
		return ""
	}
	if d.build {
		d.dict = append(d.dict, s)
	} else {
		d.ndict++
	}
	return s
}

func (d *decoder) edgeKey(k *bitemporal.EdgeKey) {
	k.Src = d.str("src")
	k.Dst = d.str("dst")
	k.RelType = d.str("rel_type")
	k.Disc = d.str("disc")
}

func (d *decoder) ref(r *bitemporal.Ref) {
	r.Kind = bitemporal.RefKind(d.byte1("ref kind"))
	switch r.Kind {
	case bitemporal.RefNode:
		r.UID = d.str("ref uid")
	case bitemporal.RefEdge:
		d.edgeKey(&r.Edge)
	}
}

// DecodeRecord decodes a payload written by AppendRecord. It never panics,
// and it allocates in proportion to len(payload): a count that cannot fit
// in the bytes left is reported as an error before anything is allocated.
// Trailing bytes after the last op are an error.
func DecodeRecord(payload []byte) (Record, error) {
	var r Record
	d := decoder{b: payload, build: true}
	if err := d.record(&r); err != nil {
		return Record{}, fmt.Errorf("eventlog: %w", err)
	}
	return r, nil
}

// header decodes a payload's type, tt, seq and source.
func (d *decoder) header(r *Record) error {
	d.i, d.err, d.ndict = 0, nil, 0
	t := d.byte1("record type")
	d.typ = t
	if d.err == nil && t != recordBatch && t != recordSourced && t != recordProv && t != recordImage {
		d.i--
		d.fail(fmt.Sprintf("unknown record type %d", t))
	}
	r.TT = d.varint("tt")
	r.Seq = d.uvarint("seq")
	r.Source, r.Prov, r.Override = "", nil, false
	if t == recordSourced || t == recordProv {
		b := d.bytes("source")
		if d.err == nil && len(b) == 0 && t == recordSourced {
			d.fail("empty source in a record of type 2")
		}
		r.Source = string(b)
	}
	if t == recordProv {
		d.prov(r)
	}
	if d.err != nil {
		return d.err
	}
	return nil
}

// prov decodes the provenance fields of a type 3 record. An authority of
// 0 (none stated) is allowed only with the override flag.
func (d *decoder) prov(r *Record) {
	flags := d.byte1("provenance flags")
	if d.err == nil && flags&^flagOverride != 0 {
		d.i--
		d.fail(fmt.Sprintf("unknown provenance flags %#x", flags))
	}
	a := bitemporal.Authority(d.byte1("authority"))
	if d.err == nil && (a > bitemporal.AuthSystem || (a == bitemporal.AuthNone && flags == 0)) {
		d.i--
		d.fail(fmt.Sprintf("authority %d is not 1 to 4 (user, model, import, system)", uint8(a)))
	}
	p := bitemporal.Provenance{Authority: a}
	p.Source = string(d.bytes("provenance source"))
	p.Actor = string(d.bytes("provenance actor"))
	p.Ref = string(d.bytes("provenance ref"))
	p.Note = string(d.bytes("provenance note"))
	if d.err != nil {
		return
	}
	r.Override = flags&flagOverride != 0
	if a != bitemporal.AuthNone {
		r.Prov = &p
	}
}

func (d *decoder) record(r *Record) error {
	d.header(r)
	r.Image = nil
	if d.err == nil && d.typ == recordImage {
		b := d.bytes("store image")
		switch {
		case d.err == nil && len(b) == 0:
			d.fail("empty store image")
		case d.err == nil && d.i != len(d.b):
			d.fail(fmt.Sprintf("%d unexpected bytes after the store image", len(d.b)-d.i))
		case d.err == nil && d.build:
			r.Image = slices.Clone(b)
		case d.err == nil:
			r.Image = b[:0:0] // non-nil: the scanner knows it is an image
		}
		r.Ops = nil
		if d.err != nil {
			return d.err
		}
		return nil
	}
	n := d.count("op count", minOpSize)
	r.Ops = nil
	if d.build && n > 0 {
		r.Ops = make([]bitemporal.Op, n)
	}
	var scratch bitemporal.Op
	for i := 0; i < n && d.err == nil; i++ {
		op := &scratch
		if d.build {
			op = &r.Ops[i]
		}
		d.op(op)
	}
	if d.err == nil && d.i != len(d.b) {
		d.fail(fmt.Sprintf("%d unexpected bytes after the last op", len(d.b)-d.i))
	}
	if d.err != nil {
		r.Ops = nil
		return d.err
	}
	return nil
}

// opCorrectMoving is the kind byte of a correct that moves the fact in
// valid time (bitemporal.CorrectTime); a plain correct keeps byte 4, so
// logs written before it decode unchanged.
const opCorrectMoving = 6

func (d *decoder) op(op *bitemporal.Op) {
	k := bitemporal.OpKind(d.byte1("op kind"))
	op.Kind = k
	if k == opCorrectMoving {
		op.Kind = bitemporal.OpCorrect
		d.ref(&op.Ref)
		op.Props = bitemporal.Props(d.str("props"))
		op.Valid.Start = d.varint("vt_s")
		op.Valid.End = d.varint("vt_e")
		op.To.Start = d.varint("to_vt_s")
		op.To.End = d.varint("to_vt_e")
		return
	}
	switch k {
	case bitemporal.OpAssertNode:
		op.UID = d.str("uid")
		op.Label = d.str("label")
		op.Props = bitemporal.Props(d.str("props"))
		op.Valid.Start = d.varint("vt_s")
		op.Valid.End = d.varint("vt_e")
	case bitemporal.OpAssertEdge:
		d.edgeKey(&op.Edge)
		op.Props = bitemporal.Props(d.str("props"))
		op.Valid.Start = d.varint("vt_s")
		op.Valid.End = d.varint("vt_e")
	case bitemporal.OpRetract:
		d.ref(&op.Ref)
		op.At = d.varint("t")
	case bitemporal.OpCorrect:
		d.ref(&op.Ref)
		op.Props = bitemporal.Props(d.str("props"))
		op.Valid.Start = d.varint("vt_s")
		op.Valid.End = d.varint("vt_e")
	case bitemporal.OpIngest:
		d.ingest(op)
	case bitemporal.OpErase:
		d.erase(op)
	default:
		if d.err == nil {
			d.i--
			d.fail(fmt.Sprintf("unknown op kind %d", uint8(k)))
		}
	}
}

func (d *decoder) ingest(op *bitemporal.Op) {
	op.Label = d.str("node label")
	n := d.count("event count", minEventSize)
	if d.err != nil {
		return
	}
	d.dict, d.ndict = d.dict[:0], 0
	if !d.build {
		var prev bitemporal.Time
		for j := 0; j < n && d.err == nil; j++ {
			d.dictStr("src")
			d.dictStr("dst")
			d.dictStr("rel_type")
			prev += d.varint("vt_s")
			d.uvarint("duration")
			d.bytes("disc")
			d.bytes("props")
		}
		return
	}
	if n > 0 {
		op.Events = make([]bitemporal.Event, n)
	}
	var prev bitemporal.Time
	for j := 0; j < n && d.err == nil; j++ {
		e := &op.Events[j]
		e.Src = d.dictStr("src")
		e.Dst = d.dictStr("dst")
		e.RelType = d.dictStr("rel_type")
		prev += d.varint("vt_s")
		e.VtS = prev
		e.VtE = decodeDuration(prev, d.uvarint("duration"))
		e.Disc = d.str("disc")
		e.Props = bitemporal.Props(d.str("props"))
	}
	// Drop references into the dictionary so a reused decoder does not keep
	// this record's strings alive.
	clear(d.dict)
}
