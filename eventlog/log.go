package eventlog

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/tgms-go/tgms/bitemporal"
)

// Format constants.
const (
	// Magic opens every event log file.
	Magic = "TGMSWAL\x00"
	// Version is the format version this build reads and writes.
	Version = 1
	// HeaderSize is the size of the file header; the first record starts
	// here, so it is the offset to replay a whole log from.
	HeaderSize = 16
	// FrameHeaderSize is the size of a record's length and checksum.
	FrameHeaderSize = 8
	// MaxPayload is the largest record payload, 1 GiB.
	MaxPayload = 1 << 30
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrNotLog is wrapped by the error Open and ReadFile return for a file that
// does not start with the event log magic.
var ErrNotLog = errors.New("not a TGMS event log")

var errLocked = errors.New("locked")

// ErrClosed is returned by calls on a closed Log.
var ErrClosed = errors.New("eventlog: log is closed")

// CorruptionError reports damage that is not a torn final write: a bad
// record followed by records that frame correctly, a sequence number or
// transaction time out of order, a record whose checksum matches but whose
// payload does not decode, a damaged file header, or a replay offset that
// is not a record boundary. The log cannot be repaired automatically,
// because acknowledged batches may be at stake.
type CorruptionError struct {
	Path   string
	Offset int64 // byte offset of the damaged record (or header field)
	Reason string
}

func (e *CorruptionError) Error() string {
	return fmt.Sprintf("eventlog: %s is corrupt at byte offset %d: %s. "+
		"This is not a torn final write, so acknowledged batches may be affected: "+
		"stop, keep the file as it is, and restore the log (and the store) from a backup; "+
		"do not truncate or edit the file to make it open", e.Path, e.Offset, e.Reason)
}

// TornTailError is what ReadFile reports when the log ends in a torn final
// record: bytes from Offset to the end of the file that do not form a
// valid record, with no valid record after them. Such a record was never
// acknowledged; Open drops it (with a warning), ReadFile only reports it,
// after fn has seen every record before it.
type TornTailError struct {
	Path    string
	Offset  int64 // where the torn record starts (the end of the valid log)
	Dropped int64 // bytes from Offset to the end of the file
	Reason  string
}

func (e *TornTailError) Error() string {
	return fmt.Sprintf("eventlog: %s ends in a torn record at byte offset %d (%d bytes: %s); "+
		"it was never acknowledged, and opening the log for writing drops it",
		e.Path, e.Offset, e.Dropped, e.Reason)
}

// Options tune a Log.
type Options struct {
	// NoSync skips the fsync after each Append: an acknowledged batch can
	// then be lost by a machine crash (not by a process crash). For bulk
	// loads that call Sync at the end, and for tests.
	NoSync bool
	// Logf receives warnings: a torn final record dropped by Open. Nil
	// means the standard library's log.Printf.
	Logf func(format string, args ...any)
}

// Log is an open event log. Its methods are safe for concurrent use;
// appends are serialized.
type Log struct {
	path string
	opt  Options

	mu      sync.Mutex
	f       *os.File
	end     int64
	lastSeq uint64
	lastTT  bitemporal.Time
	dirty   bool  // written since the last fsync
	err     error // sticky: a failed write or sync
	closed  bool
	buf     []byte
}

// Open opens the event log at path, creating it if it does not exist, and
// verifies every record: framing, checksums, payload structure, sequence
// numbers (1, 2, 3, ...) and strictly increasing transaction times. A torn
// final record is truncated away with a warning through opt.Logf; any
// other damage is a *CorruptionError and nothing is changed. The file is
// locked (flock, where available) until Close, so a second Open of the same
// log fails.
func Open(path string, opt Options) (*Log, error) {
	if opt.Logf == nil {
		opt.Logf = log.Printf
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		if err := create(path); err != nil {
			return nil, err
		}
		f, err = os.OpenFile(path, os.O_RDWR, 0)
	}
	if err != nil {
		return nil, fmt.Errorf("eventlog: %w", err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		if errors.Is(err, errLocked) {
			return nil, fmt.Errorf("eventlog: %s is in use: another Log (in this or another process) has it open", path)
		}
		return nil, fmt.Errorf("eventlog: lock %s: %w", path, err)
	}
	l := &Log{path: path, opt: opt, f: f}
	if err := l.load(); err != nil {
		f.Close()
		return nil, err
	}
	return l, nil
}

// create writes a new, empty log atomically: header into a temporary file,
// fsync, rename, fsync the directory. A crash leaves either no log or a
// complete header.
func create(path string) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("eventlog: create %s: %w", path, err)
	}
	h := fileHeader()
	_, err = f.Write(h[:])
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err == nil {
		err = syncDir(filepath.Dir(path))
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("eventlog: create %s: %w", path, err)
	}
	return nil
}

func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil // directories cannot be opened for fsync there
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

func fileHeader() [HeaderSize]byte {
	var h [HeaderSize]byte
	copy(h[:], Magic)
	binary.LittleEndian.PutUint32(h[8:], Version)
	binary.LittleEndian.PutUint32(h[12:], crc32.Checksum(h[:12], castagnoli))
	return h
}

// putFrameHeader writes the length and checksum of payload into h.
func putFrameHeader(h, payload []byte) {
	binary.LittleEndian.PutUint32(h, uint32(len(payload)))
	binary.LittleEndian.PutUint32(h[4:], crc32.Checksum(payload, castagnoli))
}

// checkHeader verifies the file header of f.
func checkHeader(path string, f io.ReaderAt, size int64) error {
	var h [HeaderSize]byte
	n, err := f.ReadAt(h[:], 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("eventlog: read %s: %w", path, err)
	}
	if n < len(Magic) || string(h[:len(Magic)]) != Magic {
		return fmt.Errorf("eventlog: %s: %w (the file does not start with %q)", path, ErrNotLog, Magic)
	}
	if n < HeaderSize {
		return &CorruptionError{Path: path, Offset: int64(n), Reason: fmt.Sprintf("file header cut short (%d of %d bytes)", n, HeaderSize)}
	}
	if got, want := binary.LittleEndian.Uint32(h[12:]), crc32.Checksum(h[:12], castagnoli); got != want {
		return &CorruptionError{Path: path, Offset: 12, Reason: fmt.Sprintf("file header checksum mismatch (stored %08x, computed %08x)", got, want)}
	}
	if v := binary.LittleEndian.Uint32(h[8:]); v != Version {
		return fmt.Errorf("eventlog: %s: unsupported format version %d; this build reads version %d", path, v, Version)
	}
	return nil
}

// load verifies the log and repairs a torn tail.
func (l *Log) load() error {
	st, err := l.f.Stat()
	if err != nil {
		return fmt.Errorf("eventlog: %w", err)
	}
	size := st.Size()
	if err := checkHeader(l.path, l.f, size); err != nil {
		return err
	}
	s := newScanner(l.path, l.f, HeaderSize, size, false)
	err = s.run(true, nil)
	var torn *TornTailError
	if errors.As(err, &torn) {
		if err := l.f.Truncate(torn.Offset); err != nil {
			return fmt.Errorf("eventlog: %s: drop torn final record: %w", l.path, err)
		}
		if err := l.f.Sync(); err != nil {
			return fmt.Errorf("eventlog: %s: drop torn final record: %w", l.path, err)
		}
		l.opt.Logf("eventlog: %s: dropped a torn final record at byte offset %d (%d bytes: %s); it was never acknowledged",
			l.path, torn.Offset, torn.Dropped, torn.Reason)
	} else if err != nil {
		return err
	}
	l.end, l.lastSeq, l.lastTT = s.off, s.lastSeq, s.lastTT
	return nil
}

// Path returns the file name the log was opened with.
func (l *Log) Path() string { return l.path }

// End returns the byte offset just past the last record.
func (l *Log) End() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.end
}

// LastSeq returns the sequence number of the last record, 0 when empty.
func (l *Log) LastSeq() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lastSeq
}

// LastTT returns the transaction time of the last record, 0 when empty.
func (l *Log) LastTT() bitemporal.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lastTT
}

// Append writes recs with one write and, unless Options.NoSync, one fsync
// (group commit), and returns the byte offset just past the last of them.
// The records must continue the log: sequence numbers LastSeq()+1,
// LastSeq()+2, ... and strictly increasing transaction times after
// LastTT(). Such a check failing, an unknown op kind or an oversized record
// is an error that writes nothing. A failed write or fsync makes the Log
// unusable: it tries to cut the file back to its previous end, and every
// later call returns the same error.
func (l *Log) Append(recs ...*Record) (int64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.usable(); err != nil {
		return l.end, err
	}
	if len(recs) == 0 {
		return l.end, nil
	}
	seq, tt, empty := l.lastSeq, l.lastTT, l.lastSeq == 0
	buf := l.buf[:0]
	for i, r := range recs {
		if r.Seq != seq+1 {
			return l.end, fmt.Errorf("eventlog: append to %s: record %d has sequence number %d, want %d", l.path, i, r.Seq, seq+1)
		}
		if !empty && r.TT <= tt {
			return l.end, fmt.Errorf("eventlog: append to %s: record %d (seq %d) has transaction time %d, not after %d", l.path, i, r.Seq, r.TT, tt)
		}
		for j := range r.Ops {
			if k := r.Ops[j].Kind; k < bitemporal.OpAssertNode || k > bitemporal.OpIngest {
				return l.end, fmt.Errorf("eventlog: append to %s: record %d (seq %d) op %d has unknown kind %d", l.path, i, r.Seq, j, uint8(k))
			}
		}
		start := len(buf)
		buf = append(buf, make([]byte, FrameHeaderSize)...)
		buf = AppendRecord(buf, r)
		n := len(buf) - start - FrameHeaderSize
		if n > MaxPayload {
			return l.end, fmt.Errorf("eventlog: append to %s: record %d (seq %d) encodes to %d bytes, over the %d-byte limit; split the batch", l.path, i, r.Seq, n, MaxPayload)
		}
		putFrameHeader(buf[start:], buf[start+FrameHeaderSize:])
		seq, tt, empty = r.Seq, r.TT, false
	}
	if cap(buf) <= 64<<20 {
		l.buf = buf
	} else {
		l.buf = nil
	}
	if _, err := l.f.WriteAt(buf, l.end); err != nil {
		return l.end, l.fail("write", err)
	}
	l.dirty = true
	if !l.opt.NoSync {
		if err := l.f.Sync(); err != nil {
			return l.end, l.fail("fsync", err)
		}
		l.dirty = false
	}
	l.end += int64(len(buf))
	l.lastSeq, l.lastTT = seq, tt
	return l.end, nil
}

func (l *Log) usable() error {
	if l.closed {
		return ErrClosed
	}
	return l.err
}

// fail makes the log unusable after an I/O error and tries to cut off
// whatever part of the failed append reached the file.
func (l *Log) fail(what string, err error) error {
	l.err = fmt.Errorf("eventlog: %s %s: %w (the log is now unusable; reopen it to recover)", what, l.path, err)
	if terr := l.f.Truncate(l.end); terr == nil {
		l.f.Sync()
	}
	return l.err
}

// Sync flushes appended records to stable storage. It is only needed with
// Options.NoSync.
func (l *Log) Sync() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.usable(); err != nil {
		return err
	}
	if !l.dirty {
		return nil
	}
	if err := l.f.Sync(); err != nil {
		return l.fail("fsync", err)
	}
	l.dirty = false
	return nil
}

// Close syncs outstanding appends and closes the file. Later calls return
// ErrClosed.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ErrClosed
	}
	l.closed = true
	var err error
	if l.err == nil && l.dirty {
		if err = l.f.Sync(); err != nil {
			err = fmt.Errorf("eventlog: fsync %s: %w", l.path, err)
		}
	}
	if cerr := l.f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("eventlog: close %s: %w", l.path, cerr)
	}
	return err
}

// Replay calls fn for each record from byte offset from to the end of the
// log (as of the call), with the offset just past the record. from must be
// a record boundary: HeaderSize or an offset returned by Append, End or an
// earlier Replay. An offset inside a record fails its checksum and is a
// *CorruptionError (a false pass has odds of 2^-32 per frame, and the
// sequence numbers must then also line up to the log's last record).
// fn owns the records it is given. An error from fn stops the replay and is
// returned as is.
func (l *Log) Replay(from int64, fn func(r *Record, end int64) error) error {
	l.mu.Lock()
	if err := l.usable(); err != nil {
		l.mu.Unlock()
		return err
	}
	end, lastSeq, f := l.end, l.lastSeq, l.f
	l.mu.Unlock()
	if from < HeaderSize || from > end {
		return &CorruptionError{Path: l.path, Offset: from, Reason: fmt.Sprintf("replay offset %d is outside the log's records [%d, %d]", from, HeaderSize, end)}
	}
	s := newScanner(l.path, f, from, end, true)
	if err := s.run(false, fn); err != nil {
		var ce *CorruptionError
		if errors.As(err, &ce) && ce.Offset == from && from != HeaderSize {
			ce.Reason = fmt.Sprintf("no valid record starts at replay offset %d (%s): the offset is not a record boundary, or the file changed", from, ce.Reason)
		}
		return err
	}
	if from < end && s.lastSeq != lastSeq {
		return &CorruptionError{Path: l.path, Offset: from, Reason: fmt.Sprintf("replay from offset %d ended at sequence number %d, not the log's last (%d): the offset is not a record boundary", from, s.lastSeq, lastSeq)}
	}
	return nil
}

// ReadFile reads the log at path without changing it, calling fn for each
// record with the offset just past it. It verifies what Open verifies. A
// torn final record is reported as a *TornTailError after fn has seen
// every record before it; other damage is a *CorruptionError, also after
// the records before it. An error from fn stops the read and is returned
// as is.
func ReadFile(path string, fn func(r *Record, end int64) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("eventlog: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("eventlog: %w", err)
	}
	if err := checkHeader(path, f, st.Size()); err != nil {
		return err
	}
	s := newScanner(path, f, HeaderSize, st.Size(), true)
	return s.run(true, fn)
}

// scanner reads and checks records between two offsets of a file.
type scanner struct {
	path    string
	f       io.ReaderAt
	from    int64
	size    int64 // stop here
	off     int64 // start of the next record
	br      *bufio.Reader
	hdr     [FrameHeaderSize]byte
	buf     []byte
	dec     decoder
	lastSeq uint64
	lastTT  bitemporal.Time
}

func newScanner(path string, f io.ReaderAt, from, size int64, build bool) *scanner {
	bs := 1 << 20
	if size-from < int64(bs) {
		bs = max(int(size-from), 16)
	}
	return &scanner{
		path: path, f: f, from: from, size: size, off: from,
		br:  bufio.NewReaderSize(io.NewSectionReader(f, from, size-from), bs),
		dec: decoder{build: build},
	}
}

// frameError is a record that does not frame: torn or corrupt, which the
// caller decides.
type frameError struct {
	off    int64
	reason string
}

func (e *frameError) Error() string { return fmt.Sprintf("byte offset %d: %s", e.off, e.reason) }

// next reads the frame at s.off and returns its payload, io.EOF at the end,
// a *frameError, or an I/O error.
func (s *scanner) next() ([]byte, error) {
	rem := s.size - s.off
	if rem == 0 {
		return nil, io.EOF
	}
	if rem < FrameHeaderSize {
		return nil, &frameError{s.off, fmt.Sprintf("short record header (%d of %d bytes)", rem, FrameHeaderSize)}
	}
	if _, err := io.ReadFull(s.br, s.hdr[:]); err != nil {
		return nil, fmt.Errorf("eventlog: read %s: %w", s.path, err)
	}
	n := int64(binary.LittleEndian.Uint32(s.hdr[:4]))
	switch {
	case n == 0:
		return nil, &frameError{s.off, "zero-length record (zero-filled or garbage bytes)"}
	case n > MaxPayload:
		return nil, &frameError{s.off, fmt.Sprintf("record length %d is over the %d-byte limit", n, MaxPayload)}
	case n > rem-FrameHeaderSize:
		return nil, &frameError{s.off, fmt.Sprintf("record of %d bytes runs past the end of the file (%d bytes left)", n, rem-FrameHeaderSize)}
	}
	if int64(cap(s.buf)) < n {
		s.buf = make([]byte, n)
	}
	p := s.buf[:n]
	if _, err := io.ReadFull(s.br, p); err != nil {
		return nil, fmt.Errorf("eventlog: read %s: %w", s.path, err)
	}
	if got, want := crc32.Checksum(p, castagnoli), binary.LittleEndian.Uint32(s.hdr[4:]); got != want {
		return nil, &frameError{s.off, fmt.Sprintf("checksum mismatch (stored %08x, computed %08x)", want, got)}
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
		s.off += FrameHeaderSize + int64(len(p))
		s.lastSeq, s.lastTT = r.Seq, r.TT
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
	case s.off == s.from && s.from == HeaderSize && r.Seq != 1:
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
	seen := s.off != s.from
	later := func(tt int64, seq uint64) bool {
		return seq > s.lastSeq && (!seen || tt > s.lastTT)
	}
	next, found, err := findFrame(s.f, fe.off, s.size, later)
	switch {
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
func findFrame(f io.ReaderAt, bad, size int64, later func(tt int64, seq uint64) bool) (int64, bool, error) {
	budget := 256<<20 + 32*(size-bad)
	var scratch []byte
	// frameAt checks the candidate at p whose frame header is h and whose
	// payload starts with pre (the bytes available in memory, maybe none).
	frameAt := func(p int64, h, pre []byte) (bool, error) {
		n := int64(binary.LittleEndian.Uint32(h))
		if n < 4 || n > MaxPayload || n > size-p-FrameHeaderSize {
			return false, nil
		}
		if int64(len(pre)) < min(n, 21) {
			var buf [21]byte
			pre = buf[:min(n, 21)]
			if _, err := f.ReadAt(pre, p+FrameHeaderSize); err != nil {
				return false, err
			}
		}
		pre = pre[:min(int64(len(pre)), n)]
		if pre[0] != recordBatch {
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
		if _, err := f.ReadAt(b, p+FrameHeaderSize); err != nil {
			return false, err
		}
		return crc32.Checksum(b, castagnoli) == binary.LittleEndian.Uint32(h[4:]), nil
	}
	var hdr [FrameHeaderSize]byte
	if size-bad >= FrameHeaderSize {
		if _, err := f.ReadAt(hdr[:], bad); err != nil {
			return 0, false, err
		}
		if n := int64(binary.LittleEndian.Uint32(hdr[:4])); n > 0 && n <= size-bad-2*FrameHeaderSize {
			p := bad + FrameHeaderSize + n
			if _, err := f.ReadAt(hdr[:], p); err != nil {
				return 0, false, err
			}
			if ok, err := frameAt(p, hdr[:], nil); ok || err != nil {
				return p, ok, err
			}
		}
	}
	// Scan byte by byte through a window.
	const window = 4 << 20
	w := make([]byte, 0, min(window+FrameHeaderSize+1, max(size-bad, 0)))
	var ws int64 // file offset of w[0]
	for p := bad + 1; p+FrameHeaderSize+4 <= size; p++ {
		if p+FrameHeaderSize+1 > ws+int64(len(w)) {
			ws = p
			w = w[:min(int64(cap(w)), size-p)]
			if _, err := f.ReadAt(w, p); err != nil {
				return 0, false, err
			}
		}
		i := p - ws
		if ok, err := frameAt(p, w[i:i+FrameHeaderSize], w[i+FrameHeaderSize:]); ok || err != nil {
			return p, ok, err
		}
	}
	return 0, false, nil
}
