package eventlog

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"

	"github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/internal/fault"
	"github.com/tgms-go/tgms/internal/vfs"
)

// Frame locates one record of a log and what identifies it: a checkpoint
// or seal stores the Frame of the last record it covers, and the store
// checks on open that the log still holds exactly that record there.
type Frame struct {
	Start int64 // offset of the record's frame header
	End   int64 // offset just past the record
	Seq   uint64
	TT    bitemporal.Time
	CRC   uint32 // the frame's stored CRC-32C of the payload
}

// Next is the chain after the record f: SHA-256 of the chain and f's
// seq, tt, CRC and end offset (8+8+4+8 bytes, little-endian).
func (c Chain) Next(f Frame) Chain {
	var b [ChainSize + 28]byte
	copy(b[:], c[:])
	binary.LittleEndian.PutUint64(b[32:], f.Seq)
	binary.LittleEndian.PutUint64(b[40:], uint64(f.TT))
	binary.LittleEndian.PutUint32(b[48:], f.CRC)
	binary.LittleEndian.PutUint64(b[52:], uint64(f.End))
	return sha256.Sum256(b[:])
}

// Source is the source a record names: a bulk ingest records what it
// loaded (see the package documentation for the text's form).
type Source struct {
	Seq  uint64
	TT   bitemporal.Time
	Text string
}

// scanner reads and checks records between two offsets of a file.
type scanner struct {
	path    string
	f       io.ReaderAt
	from    int64
	size    int64 // stop here
	off     int64 // start of the next record
	br      *bufio.Reader
	fh      int64 // frame header size: 12 (version 4) or 8
	hdr     [FrameHeaderSize]byte
	buf     []byte
	dec     decoder
	first   int64 // where the log's first record starts
	lastSeq uint64
	lastTT  bitemporal.Time
	last    Frame
	chain   Chain
	marks   map[int64]Chain // record ends whose chain to keep (nil: none)
	// ackedEnd, when not 0, is where the ack witness says the
	// acknowledged records end: nothing after it was acknowledged.
	ackedEnd int64
	sources  []Source
}

func newScanner(path string, f io.ReaderAt, hd header, from, size int64, build bool) *scanner {
	bs := 1 << 20
	if size-from < int64(bs) {
		bs = max(int(size-from), 16)
	}
	return &scanner{
		path: path, f: f, from: from, size: size, off: from, first: from, fh: max(hd.frame, FrameHeaderSizeV3),
		br:  bufio.NewReaderSize(io.NewSectionReader(f, from, size-from), bs),
		dec: decoder{build: build},
	}
}

// frameError is a record that does not frame: torn or corrupt, which the
// caller decides.
type frameError struct {
	off    int64
	reason string
	// damaged: a complete frame whose checksum fails and that shows
	// nothing a crash leaves (no zero-filled tail or block): corruption.
	damaged bool
}

func (e *frameError) Error() string { return fmt.Sprintf("byte offset %d: %s", e.off, e.reason) }

// next reads the frame at s.off and returns its payload, io.EOF at the end,
// a *frameError, or an I/O error.
func (s *scanner) next() ([]byte, error) {
	rem := s.size - s.off
	if rem == 0 {
		return nil, io.EOF
	}
	fh := s.fh
	if rem < fh {
		return nil, &frameError{off: s.off, reason: fmt.Sprintf("short record header (%d of %d bytes)", rem, fh)}
	}
	if _, err := io.ReadFull(s.br, s.hdr[:fh]); err != nil {
		return nil, fmt.Errorf("eventlog: read %s: %w", s.path, err)
	}
	if fh == FrameHeaderSize {
		if got, want := crc32.Checksum(s.hdr[:8], castagnoli), binary.LittleEndian.Uint32(s.hdr[8:]); got != want {
			if tornHeader(s.off, s.hdr[:fh]) {
				return nil, &frameError{off: s.off, reason: "record header of zero-filled bytes (never written)"}
			}
			return nil, &frameError{s.off, fmt.Sprintf("record header checksum mismatch (stored %08x, computed %08x): its length or payload checksum is damaged", want, got), true}
		}
	}
	n := int64(binary.LittleEndian.Uint32(s.hdr[:4]))
	switch {
	case n == 0:
		return nil, &frameError{off: s.off, reason: "zero-length record (zero-filled or garbage bytes)"}
	case n > MaxPayload:
		return nil, &frameError{off: s.off, reason: fmt.Sprintf("record length %d is over the %d-byte limit", n, MaxPayload)}
	case n > rem-fh:
		return nil, &frameError{off: s.off, reason: fmt.Sprintf("record of %d bytes runs past the end of the file (%d bytes left)", n, rem-fh)}
	}
	if int64(cap(s.buf)) < n {
		s.buf = make([]byte, n)
	}
	p := s.buf[:n]
	if _, err := io.ReadFull(s.br, p); err != nil {
		return nil, fmt.Errorf("eventlog: read %s: %w", s.path, err)
	}
	if got, want := crc32.Checksum(p, castagnoli), binary.LittleEndian.Uint32(s.hdr[4:]); got != want {
		if !crashLike(s.f, s.off+fh, p, s.size) {
			return nil, &frameError{s.off, fmt.Sprintf("checksum mismatch (stored %08x, computed %08x) in a complete record", want, got), true}
		}
		return nil, &frameError{s.off, fmt.Sprintf("checksum mismatch (stored %08x, computed %08x) in a record that ends in zero-filled bytes", want, got), false}
	}
	return p, nil
}

// run reads every record. With tail true a frame error is classified as a
// torn tail (*TornTailError) or corruption; otherwise it is always
// corruption. fn may be nil.
func (s *scanner) run(tail bool, fn func(*Record, int64) error) error {
	for {
		p, err := s.next()
		if err == io.EOF {
			return nil
		}
		var fe *frameError
		if errors.As(err, &fe) {
			if !tail {
				return &CorruptionError{Path: s.path, Offset: fe.off, Reason: fe.reason}
			}
			return s.classify(fe)
		}
		if err != nil {
			return err
		}
		var r Record
		if derr := s.decode(p, &r); derr != nil {
			return &CorruptionError{Path: s.path, Offset: s.off, Reason: "the record's checksum matches but its payload does not decode (" + derr.Error() + ")"}
		}
		if err := s.check(&r); err != nil {
			return err
		}
		start := s.off
		s.off += s.fh + int64(len(p))
		s.lastSeq, s.lastTT = r.Seq, r.TT
		s.last = Frame{Start: start, End: s.off, Seq: r.Seq, TT: r.TT, CRC: binary.LittleEndian.Uint32(s.hdr[4:])}
		s.chain = s.chain.Next(s.last)
		if _, ok := s.marks[s.off]; ok {
			s.marks[s.off] = s.chain
		}
		if r.Source != "" {
			s.sources = append(s.sources, Source{Seq: r.Seq, TT: r.TT, Text: r.Source})
		}
		if fn != nil {
			if err := fn(&r, s.off); err != nil {
				return err
			}
		}
		if cap(s.buf) > 64<<20 {
			s.buf = nil
		}
	}
}

func (s *scanner) decode(p []byte, r *Record) error {
	s.dec.b = p
	err := s.dec.record(r)
	s.dec.b = nil
	return err
}

// check enforces the order of sequence numbers and transaction times.
func (s *scanner) check(r *Record) error {
	switch {
	case r.Image != nil && s.off != s.first:
		return &CorruptionError{Path: s.path, Offset: s.off, Reason: fmt.Sprintf("a store image (batch %d) that is not the log's first record", r.Seq)}
	case s.off == s.from && s.from == s.first && r.Seq != 1 && r.Image == nil:
		return &CorruptionError{Path: s.path, Offset: s.off, Reason: fmt.Sprintf("the first record has sequence number %d, not 1", r.Seq)}
	case s.off == s.from && r.Seq == 0:
		return &CorruptionError{Path: s.path, Offset: s.off, Reason: "record has sequence number 0"}
	case s.off != s.from && r.Seq != s.lastSeq+1:
		return &CorruptionError{Path: s.path, Offset: s.off, Reason: fmt.Sprintf("sequence number %d follows %d (want %d)", r.Seq, s.lastSeq, s.lastSeq+1)}
	case s.off != s.from && r.TT <= s.lastTT:
		return &CorruptionError{Path: s.path, Offset: s.off, Reason: fmt.Sprintf("transaction time %d does not increase (the previous record has %d)", r.TT, s.lastTT)}
	}
	return nil
}

// classify decides whether a record that does not frame is a torn tail
// (nothing after it frames) or corruption (a valid record follows).
func (s *scanner) classify(fe *frameError) error {
	if s.ackedEnd > 0 && fe.off >= s.ackedEnd {
		return &TornTailError{Path: s.path, Offset: fe.off, Dropped: s.size - fe.off,
			Reason: fe.reason + ", after the last acknowledged record (byte " + fmt.Sprint(s.ackedEnd) + "), so never acknowledged"}
	}
	seen := s.off != s.from
	later := func(tt int64, seq uint64) bool {
		return seq > s.lastSeq && (!seen || tt > s.lastTT)
	}
	next, found, err := findFrame(s.f, s.fh, fe.off, s.size, later)
	switch {
	case err == nil && !found && fe.damaged:
		return &CorruptionError{Path: s.path, Offset: fe.off, Reason: fe.reason + ": a crash cannot leave a complete record with a wrong checksum, so this is damage to an acknowledged batch"}
	case errors.Is(err, errScanBudget):
		return &CorruptionError{Path: s.path, Offset: fe.off, Reason: fe.reason + ", and the bytes after it are too irregular to rule out valid records there (this is not what a torn write leaves)"}
	case err != nil:
		return fmt.Errorf("eventlog: read %s: %w", s.path, err)
	case found:
		return &CorruptionError{Path: s.path, Offset: fe.off, Reason: fmt.Sprintf("%s, yet a valid record follows at byte offset %d", fe.reason, next)}
	}
	return &TornTailError{Path: s.path, Offset: fe.off, Dropped: s.size - fe.off, Reason: fe.reason}
}

var errScanBudget = errors.New("scan budget exhausted")

// findFrame looks for a valid frame anywhere in (bad, size): a length in
// range, a payload that starts with the batch record type and a tt and seq
// for which later reports true (a genuine record after the damage has a
// higher seq and tt than the last good one), and a matching checksum. It
// first tries the offset the bad record's own length points to, which is
// where the next record is when only the payload was damaged.
//
// The checksums cost up to one payload per candidate offset, so the total
// is capped (256 MiB plus 32 bytes per byte scanned); past the cap it gives
// up with errScanBudget, which the caller treats as corruption: it never
// drops bytes it has not ruled out.
func findFrame(f io.ReaderAt, fh, bad, size int64, later func(tt int64, seq uint64) bool) (int64, bool, error) {
	budget := 256<<20 + 32*(size-bad)
	var scratch []byte
	// frameAt checks the candidate at p whose frame header is h and whose
	// payload starts with pre (the bytes available in memory, maybe none).
	frameAt := func(p int64, h, pre []byte) (bool, error) {
		if fh == FrameHeaderSize && crc32.Checksum(h[:8], castagnoli) != binary.LittleEndian.Uint32(h[8:]) {
			return false, nil
		}
		n := int64(binary.LittleEndian.Uint32(h))
		if n < 4 || n > MaxPayload || n > size-p-fh {
			return false, nil
		}
		if int64(len(pre)) < min(n, 21) {
			var buf [21]byte
			pre = buf[:min(n, 21)]
			if _, err := f.ReadAt(pre, p+fh); err != nil {
				return false, err
			}
		}
		pre = pre[:min(int64(len(pre)), n)]
		if pre[0] != recordBatch && pre[0] != recordSourced && pre[0] != recordProv {
			return false, nil
		}
		d := decoder{b: pre[1:]}
		tt := d.varint("tt")
		seq := d.uvarint("seq")
		if d.err != nil || !later(tt, seq) { // 21 bytes always hold type, tt and seq
			return false, nil
		}
		if budget -= n; budget < 0 {
			return false, errScanBudget
		}
		if int64(cap(scratch)) < n {
			scratch = make([]byte, n)
		}
		b := scratch[:n]
		if _, err := f.ReadAt(b, p+fh); err != nil {
			return false, err
		}
		return crc32.Checksum(b, castagnoli) == binary.LittleEndian.Uint32(h[4:]), nil
	}
	var hdr [FrameHeaderSize]byte
	if size-bad >= fh {
		if _, err := f.ReadAt(hdr[:fh], bad); err != nil {
			return 0, false, err
		}
		if n := int64(binary.LittleEndian.Uint32(hdr[:4])); n > 0 && n <= size-bad-2*fh {
			p := bad + fh + n
			if _, err := f.ReadAt(hdr[:fh], p); err != nil {
				return 0, false, err
			}
			if ok, err := frameAt(p, hdr[:fh], nil); ok || err != nil {
				return p, ok, err
			}
		}
	}
	// Scan byte by byte through a window.
	const window = 4 << 20
	w := make([]byte, 0, min(window+fh+1, max(size-bad, 0)))
	var ws int64 // file offset of w[0]
	for p := bad + 1; p+fh+4 <= size; p++ {
		if p+fh+1 > ws+int64(len(w)) {
			ws = p
			w = w[:min(int64(cap(w)), size-p)]
			if _, err := f.ReadAt(w, p); err != nil {
				return 0, false, err
			}
		}
		i := p - ws
		if ok, err := frameAt(p, w[i:i+fh], w[i+fh:]); ok || err != nil {
			return p, ok, err
		}
	}
	return 0, false, nil
}

// tornHeader reports whether a version 4 frame header h at file offset
// off whose checksum fails looks like what a crash leaves: all zeros, or
// zeros on one side of a 512-byte boundary inside it (a sector written
// and its neighbour not). A bit flip or a changed byte is neither.
func tornHeader(off int64, h []byte) bool {
	if allZero(h) {
		return true
	}
	for i := 1; i < len(h); i++ {
		if (off+int64(i))%512 == 0 && (allZero(h[:i]) || allZero(h[i:])) {
			return true
		}
	}
	return false
}

// crashLike reports whether a complete record whose checksum fails looks
// like what a crash leaves: its payload p (at file offset off) ends in zero
// bytes that continue to the end of the file past the record (16 or more
// zeros in all), or ends in
// zeros from a 512-byte-aligned offset, or holds a whole 512-byte-aligned
// block of zeros (a sector or page that was allocated but never written).
// A bit flip, a changed byte or garbage in a complete record is none of
// these.
func crashLike(f io.ReaderAt, off int64, p []byte, size int64) bool {
	const sector = 512
	const minZeroTail = 16 // fewer trailing zeros are common in real records
	end := off + int64(len(p))
	z := len(p)
	for z > 0 && p[z-1] == 0 {
		z--
	}
	if z < len(p) {
		if (off+int64(z))%sector == 0 {
			return true
		}
		if end < size && size-(off+int64(z)) >= minZeroTail && zerosTo(f, end, size) {
			return true
		}
	}
	for b := (off + sector - 1) / sector * sector; b+sector <= end; b += sector {
		if allZero(p[b-off : b-off+sector]) {
			return true
		}
	}
	return false
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// zerosTo reports whether f holds only zero bytes in [from, to).
func zerosTo(f io.ReaderAt, from, to int64) bool {
	buf := make([]byte, min(to-from, 1<<16))
	for p := from; p < to; {
		n := min(int64(len(buf)), to-p)
		if _, err := f.ReadAt(buf[:n], p); err != nil || !allZero(buf[:n]) {
			return false
		}
		p += n
	}
	return true
}

// keepBroken copies the bytes [from, to) of f into a new file next to path
// named path.broken-<from> (with a numeric suffix if that name is taken),
// fsyncs it and its directory, and returns its name. The file is created
// with O_EXCL, so nothing existing is overwritten or followed.
func keepBroken(path string, f vfs.File, from, to int64) (string, error) {
	var out vfs.File
	var name string
	for i := 0; ; i++ {
		name = fmt.Sprintf("%s.broken-%d", path, from)
		if i > 0 {
			name = fmt.Sprintf("%s.%d", name, i)
		}
		var err error
		out, err = vfs.Get().OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow, 0o600)
		if err == nil {
			break
		}
		if !errors.Is(err, os.ErrExist) || i >= 1000 {
			return "", err
		}
	}
	_, err := io.Copy(fault.Writer(out), io.NewSectionReader(f, from, to-from))
	if err == nil {
		fault.Point("log.broken.fsync")
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = syncDir(filepath.Dir(path))
	}
	if err != nil {
		vfs.Get().Remove(name)
		return "", err
	}
	return name, nil
}

// FrameAt reads and checks the record whose frame starts at off: a length
// in range that fits before the end of the log, a matching checksum and a
// decodable type, tt and seq. It is how a store checks that its log still
// holds the last record a checkpoint or seal covers.
func (l *Log) FrameAt(off int64) (Frame, error) {
	l.mu.Lock()
	end, f := l.end, l.f
	l.mu.Unlock()
	bad := func(format string, args ...any) (Frame, error) {
		return Frame{}, &CorruptionError{Path: l.path, Offset: off, Reason: fmt.Sprintf(format, args...)}
	}
	fh := l.hdr.frame
	if off < l.hdr.size || off+fh > end {
		return bad("no record starts at byte offset %d: the log's records end at %d", off, end)
	}
	var h [FrameHeaderSize]byte
	if _, err := f.ReadAt(h[:fh], off); err != nil {
		return Frame{}, fmt.Errorf("eventlog: read %s: %w", l.path, err)
	}
	if fh == FrameHeaderSize && crc32.Checksum(h[:8], castagnoli) != binary.LittleEndian.Uint32(h[8:]) {
		return bad("the record header at byte offset %d fails its checksum", off)
	}
	n := int64(binary.LittleEndian.Uint32(h[:4]))
	if n == 0 || n > end-off-fh {
		return bad("no record of a valid length starts at byte offset %d", off)
	}
	p := make([]byte, n)
	if _, err := f.ReadAt(p, off+fh); err != nil {
		return Frame{}, fmt.Errorf("eventlog: read %s: %w", l.path, err)
	}
	crc := binary.LittleEndian.Uint32(h[4:])
	if crc32.Checksum(p, castagnoli) != crc {
		return bad("the record at byte offset %d fails its checksum", off)
	}
	d := decoder{b: p}
	var r Record
	if err := d.header(&r); err != nil {
		return bad("the record at byte offset %d does not decode: %v", off, err)
	}
	return Frame{Start: off, End: off + fh + n, Seq: r.Seq, TT: r.TT, CRC: crc}, nil
}
