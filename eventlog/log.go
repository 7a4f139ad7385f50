package eventlog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"log"
	"os"
	"slices"
	"sync"

	"github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/internal/fault"
	"github.com/tgms-go/tgms/internal/vfs"
)

// Format constants.
const (
	// Magic opens every event log file.
	Magic = "TGMSWAL\x00"
	// Version is the format version this build writes for a new log: 4,
	// whose frame headers carry their own checksum, so a damaged length
	// is never taken for a torn write. Version 3 logs (8-byte frame
	// headers, a store that keeps the ack witness) are opened and
	// appended to in their own layout; version 2 logs (same layout, seal
	// written only at checkpoints and close) are opened and upgraded to
	// 3 by a writer; version 1 logs (no store id) are read by ReadFile
	// only, for conversion.
	Version = 4
	// WitnessVersion is the first version whose store keeps the ack
	// witness (the seal, advanced by every group commit): from it on, a
	// missing seal beside a log is a missing witness.
	WitnessVersion = 3
	// HeaderSize is the size of the file header; the first record starts
	// here, so it is the offset to replay a whole log from.
	HeaderSize   = 32
	headerSizeV1 = 16
	// FrameHeaderSize is the size of a record's frame header in a version
	// 4 log: length, payload checksum and header checksum.
	FrameHeaderSize = 12
	// FrameHeaderSizeV3 is the frame header size of versions 1 to 3:
	// length and payload checksum.
	FrameHeaderSizeV3 = 8
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
	// ReadOnly opens an existing log without ever writing to it: no lock
	// on the file, no creation, and a torn final record is left in place
	// (the log reads up to the last complete record before it). Append
	// and Sync fail.
	ReadOnly bool
	// Acked is a byte offset up to which records are known to have been
	// acknowledged (from the store's checkpoint or seal). Open never trims
	// below it, and a log that ends before it is a *CorruptionError.
	Acked int64
	// AllowSymlink lets the log file be a symbolic link. By default Open
	// refuses one (O_NOFOLLOW), so a link planted in a store directory
	// cannot redirect writes.
	AllowSymlink bool
	// Witnessed says that Acked comes from an ack witness, so every
	// acknowledged record ends at or before it: then a record that does
	// not frame after Acked is a torn tail even when valid records follow
	// it (a group commit whose later pages reached the disk first).
	Witnessed bool
	// Marks are record end offsets whose chains Open keeps for ChainAt
	// (a checkpoint's and a seal's last record).
	Marks []int64
}

// Log is an open event log. Its methods are safe for concurrent use;
// appends are serialized.
type Log struct {
	path string
	opt  Options

	mu      sync.Mutex
	f       vfs.File
	hdr     header
	end     int64
	lastSeq uint64
	lastTT  bitemporal.Time
	last    Frame // the last record (zero when empty)
	chain   Chain // the chain at the last record
	marks   map[int64]Chain
	sources []Source // records that name their source, in order
	dirty   bool     // written since the last fsync
	err     error    // sticky: a failed write or sync
	closed  bool
	buf     []byte
}

// Open opens the event log at path, creating it (with a new store id) if
// it does not exist, and verifies every record: framing, checksums,
// payload structure, sequence numbers (1, 2, 3, ...) and strictly
// increasing transaction times. A torn final record is copied to
// path.broken-<offset> and truncated away with a warning through
// opt.Logf; any other damage is a *CorruptionError and nothing is
// changed. The file is locked (flock, where available) until Close, so a
// second Open of the same log fails. With opt.ReadOnly nothing is created,
// locked or changed.
func Open(path string, opt Options) (*Log, error) {
	if opt.Logf == nil {
		opt.Logf = log.Printf
	}
	flags := os.O_RDWR
	if opt.ReadOnly {
		flags = os.O_RDONLY
	}
	if !opt.AllowSymlink {
		flags |= noFollow
	}
	f, err := vfs.Get().OpenFile(path, flags, 0)
	if errors.Is(err, os.ErrNotExist) && !opt.ReadOnly {
		if err := create(path); err != nil {
			return nil, err
		}
		f, err = vfs.Get().OpenFile(path, flags, 0)
	}
	if err != nil {
		if isSymlinkErr(path, err) {
			return nil, fmt.Errorf("eventlog: %s is a symbolic link; a store's files must be regular files (allow links explicitly to use it)", path)
		}
		return nil, fmt.Errorf("eventlog: %w", err)
	}
	if !opt.ReadOnly {
		if err := lockFile(f); err != nil {
			f.Close()
			if errors.Is(err, errLocked) {
				return nil, fmt.Errorf("eventlog: %s is in use: another Log (in this or another process) has it open", path)
			}
			return nil, fmt.Errorf("eventlog: lock %s: %w", path, err)
		}
	}
	l := &Log{path: path, opt: opt, f: f}
	if err := l.load(); err != nil {
		f.Close()
		return nil, err
	}
	return l, nil
}

// putFrameHeader writes the length and checksum of payload into h, and
// when h has room for it (a version 4 frame header, 12 bytes) the
// checksum of those 8 bytes.
func putFrameHeader(h, payload []byte) {
	binary.LittleEndian.PutUint32(h, uint32(len(payload)))
	binary.LittleEndian.PutUint32(h[4:], crc32.Checksum(payload, castagnoli))
	if len(h) >= FrameHeaderSize {
		binary.LittleEndian.PutUint32(h[8:], crc32.Checksum(h[:8], castagnoli))
	}
}

// load verifies the log and repairs a torn tail.
func (l *Log) load() error {
	st, err := l.f.Stat()
	if err != nil {
		return fmt.Errorf("eventlog: %w", err)
	}
	size := st.Size()
	if l.hdr, err = readHeader(l.path, l.f, false); err != nil {
		return err
	}
	s := newScanner(l.path, l.f, l.hdr, l.hdr.size, size, false)
	s.marks = map[int64]Chain{}
	if l.opt.Witnessed {
		s.ackedEnd = l.opt.Acked
	}
	for _, m := range l.opt.Marks {
		s.marks[m] = Chain{}
	}
	err = s.run(true, nil)
	var torn *TornTailError
	if errors.As(err, &torn) {
		if torn.Offset < l.opt.Acked {
			return &CorruptionError{Path: l.path, Offset: torn.Offset, Reason: fmt.Sprintf(
				"%s, inside the part of the log (up to byte %d) whose batches were acknowledged", torn.Reason, l.opt.Acked)}
		}
		if l.opt.ReadOnly {
			l.opt.Logf("eventlog: %s: reading up to byte offset %d: a torn final record follows (%d bytes: %s); it was never acknowledged, and the next writer drops it",
				l.path, torn.Offset, torn.Dropped, torn.Reason)
		} else if err := l.dropTail(torn); err != nil {
			return err
		}
	} else if err != nil {
		return err
	}
	if s.off < l.opt.Acked {
		return &CorruptionError{Path: l.path, Offset: s.off, Reason: fmt.Sprintf(
			"the log ends at byte %d, but batches up to byte %d were acknowledged (the store's checkpoint or seal says so): the log was truncated", s.off, l.opt.Acked)}
	}
	l.end, l.lastSeq, l.lastTT, l.last, l.sources = s.off, s.lastSeq, s.lastTT, s.last, s.sources
	l.chain, l.marks = s.chain, s.marks
	return nil
}

// Chain is the chain digest at the last record (zero when empty).
func (l *Log) Chain() Chain {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.chain
}

// ChainAt returns the chain at the record ending at off, for an offset in
// Options.Marks (or the log's end); ok is false when no record ends there.
func (l *Log) ChainAt(off int64) (c Chain, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if off == l.end && l.lastSeq > 0 {
		return l.chain, true
	}
	if off == l.hdr.size {
		return Chain{}, true
	}
	c, ok = l.marks[off]
	return c, ok && c != Chain{}
}

// Version is the log's format version (2 or 3).
func (l *Log) Version() uint32 { return l.hdr.version }

// SetHeader rewrites the file header in place with store id id, as version
// 3 for a version 2 log (same record layout) and otherwise as the log's own
// version, and fsyncs it: a writer upgrades a version 2 log once its
// seal is an ack witness, and gives a copied store its own id. The header
// is 32 bytes at offset 0 with its own checksum, inside one sector.
func (l *Log) SetHeader(id StoreID) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.usable(); err != nil {
		return err
	}
	if l.opt.ReadOnly || l.hdr.size != HeaderSize {
		return fmt.Errorf("eventlog: rewrite the header of %s: the log is read-only or of version 1", l.path)
	}
	v := max(l.hdr.version, WitnessVersion) // the record layout stays
	h := fileHeaderV(id, v)
	fault.Point("log.header")
	if _, err := fault.WriteAt(l.f, h[:], 0); err != nil {
		return l.fail("rewrite header of", err)
	}
	if !l.opt.NoSync {
		if err := l.f.Sync(); err != nil {
			return l.fail("fsync", err)
		}
	}
	l.hdr.id, l.hdr.version = id, v
	return nil
}

// dropTail keeps the bytes of a torn tail in path.broken-<offset>, then
// truncates the log at the torn record.
func (l *Log) dropTail(torn *TornTailError) error {
	kept, err := keepBroken(l.path, l.f, torn.Offset, torn.Offset+torn.Dropped)
	if err != nil {
		return fmt.Errorf("eventlog: %s: keep the torn final record aside before dropping it: %w", l.path, err)
	}
	fault.Point("log.trim")
	if err := l.f.Truncate(torn.Offset); err != nil {
		return fmt.Errorf("eventlog: %s: drop torn final record: %w", l.path, err)
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("eventlog: %s: drop torn final record: %w", l.path, err)
	}
	l.opt.Logf("eventlog: %s: dropped a torn final record at byte offset %d (%d bytes: %s); it was never acknowledged; its bytes are kept in %s",
		l.path, torn.Offset, torn.Dropped, torn.Reason, kept)
	return nil
}

// ID is the store id in the log header (zero for a version 1 log).
func (l *Log) ID() StoreID { return l.hdr.id }

// Start is the offset of the first record (HeaderSize).
func (l *Log) Start() int64 { return l.hdr.size }

// Last describes the last record (the zero Frame when the log is empty).
func (l *Log) Last() Frame {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.last
}

// Sources lists the records that name their source (bulk ingests), in log
// order, as of the last Append.
func (l *Log) Sources() []Source {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.sources)
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
	return l.appendFrames(len(recs), func(i int) (*Record, []byte) { return recs[i], nil })
}

// appendFrames is Append for n records, the i-th given by rec: the record
// and its payload, or a nil payload to encode it here.
func (l *Log) appendFrames(n int, rec func(i int) (*Record, []byte)) (int64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.usable(); err != nil {
		return l.end, err
	}
	if n == 0 {
		return l.end, nil
	}
	if l.opt.ReadOnly {
		return l.end, fmt.Errorf("eventlog: append to %s: the log was opened read-only", l.path)
	}
	seq, tt, empty := l.lastSeq, l.lastTT, l.lastSeq == 0
	buf := l.buf[:0]
	last, chain := l.last, l.chain
	var srcs []Source
	for i := range n {
		r, payload := rec(i)
		if r.Seq != seq+1 {
			return l.end, fmt.Errorf("eventlog: append to %s: record %d has sequence number %d, want %d", l.path, i, r.Seq, seq+1)
		}
		if !empty && r.TT <= tt {
			return l.end, fmt.Errorf("eventlog: append to %s: record %d (seq %d) has transaction time %d, not after %d", l.path, i, r.Seq, r.TT, tt)
		}
		if r.Image != nil {
			return l.end, fmt.Errorf("eventlog: append to %s: record %d (seq %d) is a store image, which only CreateFromImage writes", l.path, i, r.Seq)
		}
		for j := range r.Ops {
			if k := r.Ops[j].Kind; (k < bitemporal.OpAssertNode || k > bitemporal.OpIngest) && (k != bitemporal.OpErase || r.Ops[j].Erase == nil) {
				return l.end, fmt.Errorf("eventlog: append to %s: record %d (seq %d) op %d has unknown kind %d", l.path, i, r.Seq, j, uint8(k))
			}
		}
		start := len(buf)
		fh := int(l.hdr.frame)
		buf = append(buf, make([]byte, fh)...)
		if payload == nil {
			buf = AppendRecord(buf, r)
		} else {
			buf = append(buf, payload...)
		}
		n := len(buf) - start - fh
		if n > MaxPayload {
			return l.end, fmt.Errorf("eventlog: append to %s: record %d (seq %d) encodes to %d bytes, over the %d-byte limit; split the batch", l.path, i, r.Seq, n, MaxPayload)
		}
		putFrameHeader(buf[start:start+fh], buf[start+fh:])
		seq, tt, empty = r.Seq, r.TT, false
		last = Frame{Start: l.end + int64(start), End: l.end + int64(len(buf)), Seq: r.Seq, TT: r.TT, CRC: binary.LittleEndian.Uint32(buf[start+4:])}
		chain = chain.Next(last)
		if r.Source != "" {
			srcs = append(srcs, Source{Seq: r.Seq, TT: r.TT, Text: r.Source})
		}
	}
	if cap(buf) <= 64<<20 {
		l.buf = buf
	} else {
		l.buf = nil
	}
	fault.Point("log.write")
	if _, err := fault.WriteAt(l.f, buf, l.end); err != nil {
		return l.end, l.fail("write", err)
	}
	l.dirty = true
	if !l.opt.NoSync {
		fault.Point("log.fsync")
		if err := l.f.Sync(); err != nil {
			return l.end, l.fail("fsync", err)
		}
		l.dirty = false
	}
	fault.Point("log.synced")
	l.end += int64(len(buf))
	l.lastSeq, l.lastTT, l.last, l.chain = seq, tt, last, chain
	l.sources = append(l.sources, srcs...)
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
	if l.opt.ReadOnly {
		return l.err
	}
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
	fault.Point("log.fsync")
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
	if from < l.hdr.size || from > end {
		return &CorruptionError{Path: l.path, Offset: from, Reason: fmt.Sprintf("replay offset %d is outside the log's records [%d, %d]", from, l.hdr.size, end)}
	}
	s := newScanner(l.path, f, l.hdr, from, end, true)
	s.first = l.hdr.size
	if err := s.run(false, fn); err != nil {
		var ce *CorruptionError
		if errors.As(err, &ce) && ce.Offset == from && from != l.hdr.size {
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
// record with the offset just past it. It verifies what Open verifies, and
// also reads version 1 logs (which Open refuses), so that they can be
// converted by replaying them into a new store. A
// torn final record is reported as a *TornTailError after fn has seen
// every record before it; other damage is a *CorruptionError, also after
// the records before it. An error from fn stops the read and is returned
// as is.
func ReadFile(path string, fn func(r *Record, end int64) error) error {
	return readFile(path, false, fn)
}

// ReadFileImages is ReadFile for a caller that handles a store image (a
// record with an Image, only ever the first): ReadFile refuses one,
// because the batches it stands for are not in the log as ops.
func ReadFileImages(path string, fn func(r *Record, end int64) error) error {
	return readFile(path, true, fn)
}

func readFile(path string, images bool, fn func(r *Record, end int64) error) error {
	if !images {
		inner := fn
		fn = func(r *Record, end int64) error {
			if r.Image != nil {
				return fmt.Errorf("eventlog: %s starts with a store image of batches 1..%d (it was rebuilt from a checkpoint by 'tgms check --repair --use-checkpoint'), so those batches are not in it as ops; "+
					"read the store instead: its versions hold them", path, r.Seq)
			}
			if inner == nil {
				return nil
			}
			return inner(r, end)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("eventlog: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("eventlog: %w", err)
	}
	h, err := readHeader(path, f, true)
	if err != nil {
		return err
	}
	s := newScanner(path, f, h, h.size, st.Size(), true)
	return s.run(true, fn)
}
