package eventlog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"

	"github.com/tgms-go/tgms/internal/fault"
	"github.com/tgms-go/tgms/internal/vfs"
)

// SealSuffix names a log's seal file: events.wal.sealed beside events.wal.
const SealSuffix = ".sealed"

// SealTempPattern is the os.CreateTemp pattern of a seal being written.
const SealTempPattern = ".seal-*"

const (
	sealMagic     = "TGMSSEAL"
	sealVersion   = 2
	sealSizeV1    = 8 + 4 + 16 + 8 + 8 + 8 + 8 + 4 + 4
	sealSlot      = 192
	sealSize      = 2 * sealSlot
	sealSlotCRCAt = sealSlot - 4
)

// ChainSize is the size of a record chain digest.
const ChainSize = 32

// Chain is the running digest of a log's records up to one of them:
// SHA-256 over the previous chain and the record's seq, tt, stored CRC and
// end offset (see the package documentation). Two logs with equal chains at
// a record hold the same records up to it.
type Chain [ChainSize]byte

// DirID identifies the directory a store lives in (device and inode on
// Unix): a copy of the directory (cp -r) has another one.
type DirID [16]byte

// Seal is the ack witness of a log: the store id and the last record of
// the log at a moment when every record up to it had been acknowledged.
// A log only grows past its seal (a torn tail is never below it), so a log
// that is shorter than its seal, or holds another record where the seal's
// last record was, lost acknowledged batches.
type Seal struct {
	StoreID StoreID
	// Parent is the store id this store was forked from (a copy of the
	// directory that was written to got a new id), zero otherwise.
	Parent StoreID
	Last   Frame
	Chain  Chain // the log's chain at Last (zero in a version 1 seal)
	Dir    DirID // the directory the seal was written in (zero in version 1)
	Gen    uint64
	// Version is the seal's format version (1: one slot, no chain).
	Version int
	// Damaged reports that the other slot of a version 2 seal is damaged:
	// the newest acknowledgement may be lost with it.
	Damaged bool
}

func encodeSlot(b []byte, s *Seal) {
	clear(b)
	copy(b, sealMagic)
	binary.LittleEndian.PutUint32(b[8:], sealVersion)
	binary.LittleEndian.PutUint64(b[12:], s.Gen)
	copy(b[20:36], s.StoreID[:])
	copy(b[36:52], s.Parent[:])
	binary.LittleEndian.PutUint64(b[52:], uint64(s.Last.Start))
	binary.LittleEndian.PutUint64(b[60:], uint64(s.Last.End))
	binary.LittleEndian.PutUint64(b[68:], s.Last.Seq)
	binary.LittleEndian.PutUint64(b[76:], uint64(s.Last.TT))
	binary.LittleEndian.PutUint32(b[84:], s.Last.CRC)
	copy(b[88:104], s.Dir[:])
	copy(b[104:136], s.Chain[:])
	binary.LittleEndian.PutUint32(b[sealSlotCRCAt:], crc32.Checksum(b[:sealSlotCRCAt], castagnoli))
}

// decodeSlot decodes one slot; ok is false when it does not verify.
func decodeSlot(b []byte) (s Seal, ok bool) {
	if string(b[:8]) != sealMagic || binary.LittleEndian.Uint32(b[8:]) != sealVersion ||
		binary.LittleEndian.Uint32(b[sealSlotCRCAt:]) != crc32.Checksum(b[:sealSlotCRCAt], castagnoli) {
		return Seal{}, false
	}
	s.Version = sealVersion
	s.Gen = binary.LittleEndian.Uint64(b[12:])
	copy(s.StoreID[:], b[20:36])
	copy(s.Parent[:], b[36:52])
	s.Last = Frame{
		Start: int64(binary.LittleEndian.Uint64(b[52:])),
		End:   int64(binary.LittleEndian.Uint64(b[60:])),
		Seq:   binary.LittleEndian.Uint64(b[68:]),
		TT:    int64(binary.LittleEndian.Uint64(b[76:])),
		CRC:   binary.LittleEndian.Uint32(b[84:]),
	}
	copy(s.Dir[:], b[88:104])
	copy(s.Chain[:], b[104:136])
	return s, true
}

// WriteSeal writes the seal of the log at logPath atomically (a new
// temporary file, fsync, rename, fsync of the directory), with s in both
// slots. It starts a seal; SealWriter advances it in place.
func WriteSeal(logPath string, s Seal) error {
	var b [sealSize]byte
	encodeSlot(b[:sealSlot], &s)
	copy(b[sealSlot:], b[:sealSlot])
	fault.Point("seal.create")
	if err := writeAtomic(logPath+SealSuffix, SealTempPattern, b[:], "seal"); err != nil {
		return fmt.Errorf("eventlog: seal %s: %w", logPath, err)
	}
	return nil
}

// SealWriter advances a version 2 seal in place: each Advance writes the
// slot the previous one did not (generation parity) and fsyncs it, so a
// crash during an Advance leaves the previous acknowledgement in the other
// slot intact.
type SealWriter struct {
	f      vfs.File
	path   string
	gen    uint64
	noSync bool
	buf    [sealSlot]byte
}

// OpenSealWriter opens the seal of the log at logPath (written by
// WriteSeal) for advancing; last is the seal as read, whose generation it
// continues. noSync skips the fsync (Options.NoSync).
func OpenSealWriter(logPath string, last Seal, noSync bool) (*SealWriter, error) {
	path := logPath + SealSuffix
	f, err := vfs.Get().OpenFile(path, os.O_RDWR|noFollow, 0)
	if err != nil {
		return nil, fmt.Errorf("eventlog: open seal %s: %w", path, err)
	}
	return &SealWriter{f: f, path: path, gen: last.Gen, noSync: noSync}, nil
}

// Advance records s as the newest acknowledgement (its Gen is set). It
// returns once the slot is on stable storage.
func (w *SealWriter) Advance(s Seal) error {
	s.Gen = w.gen + 1
	encodeSlot(w.buf[:], &s)
	fault.Point("seal.write")
	if _, err := fault.WriteAt(w.f, w.buf[:], int64(s.Gen%2)*sealSlot); err != nil {
		return fmt.Errorf("eventlog: advance seal %s: %w", w.path, err)
	}
	if !w.noSync {
		fault.Point("seal.fsync")
		if err := w.f.Sync(); err != nil {
			return fmt.Errorf("eventlog: advance seal %s: fsync: %w", w.path, err)
		}
	}
	w.gen = s.Gen
	return nil
}

// Sync flushes the seal (for NoSync writers before a checkpoint).
func (w *SealWriter) Sync() error { return w.f.Sync() }

// Close closes the seal file.
func (w *SealWriter) Close() error { return w.f.Close() }

// ErrNoSeal is wrapped by ReadSeal's error when the log has no seal.
var ErrNoSeal = errors.New("no seal")

// ReadSeal reads the seal of the log at logPath: of a version 2 seal, the
// verified slot with the higher generation (Seal.Damaged when the other
// slot is neither valid nor empty). A missing seal is an error satisfying
// errors.Is(err, ErrNoSeal); a damaged one (both slots, or a symbolic
// link, unless allowSymlink) is a *CorruptionError naming the seal file.
func ReadSeal(logPath string, allowSymlink bool) (Seal, error) {
	path := logPath + SealSuffix
	flags := os.O_RDONLY
	if !allowSymlink {
		flags |= noFollow
	}
	f, err := os.OpenFile(path, flags, 0)
	if errors.Is(err, os.ErrNotExist) {
		return Seal{}, fmt.Errorf("eventlog: %s: %w", path, ErrNoSeal)
	}
	if err != nil {
		if isSymlinkErr(path, err) {
			return Seal{}, &CorruptionError{Path: path, Reason: "the seal is a symbolic link"}
		}
		return Seal{}, fmt.Errorf("eventlog: %w", err)
	}
	defer f.Close()
	var b [sealSize + 1]byte
	n, err := io.ReadFull(f, b[:])
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return Seal{}, fmt.Errorf("eventlog: read %s: %w", path, err)
	}
	bad := func(reason string) (Seal, error) { return Seal{}, &CorruptionError{Path: path, Reason: reason} }
	if n == sealSizeV1 {
		return readSealV1(b[:n], bad)
	}
	if n != sealSize {
		return bad(fmt.Sprintf("the seal is %d bytes or more, not %d", n, sealSize))
	}
	a, aok := decodeSlot(b[:sealSlot])
	c, cok := decodeSlot(b[sealSlot:sealSize])
	switch {
	case !aok && !cok:
		if string(b[:8]) != sealMagic && string(b[sealSlot:sealSlot+8]) != sealMagic {
			return bad("not a seal file")
		}
		return bad("both slots of the seal fail their checksums")
	case aok && cok:
		if c.Gen > a.Gen {
			a = c
		}
	case cok:
		a = c
		a.Damaged = !allZero(b[:sealSlot])
	default:
		a.Damaged = !allZero(b[sealSlot:sealSize])
	}
	return a, nil
}

func readSealV1(b []byte, bad func(string) (Seal, error)) (Seal, error) {
	switch {
	case string(b[:8]) != sealMagic:
		return bad("not a seal file")
	case binary.LittleEndian.Uint32(b[64:]) != crc32.Checksum(b[:64], castagnoli):
		return bad("seal checksum mismatch")
	case binary.LittleEndian.Uint32(b[8:]) != 1:
		return bad(fmt.Sprintf("seal format version %d, this build reads 1 and %d", binary.LittleEndian.Uint32(b[8:]), sealVersion))
	}
	s := Seal{Version: 1}
	copy(s.StoreID[:], b[12:28])
	s.Last = Frame{
		Start: int64(binary.LittleEndian.Uint64(b[28:])),
		End:   int64(binary.LittleEndian.Uint64(b[36:])),
		Seq:   binary.LittleEndian.Uint64(b[44:]),
		TT:    int64(binary.LittleEndian.Uint64(b[52:])),
		CRC:   binary.LittleEndian.Uint32(b[60:]),
	}
	return s, nil
}

// ReadID returns the store id in the header of the log at path, without
// reading further. A version 1 log has the zero id.
func ReadID(path string, allowSymlink bool) (StoreID, error) {
	id, _, err := ReadHeader(path, allowSymlink)
	return id, err
}

// ReadHeader returns the store id and format version in the header of the
// log at path, without reading further.
func ReadHeader(path string, allowSymlink bool) (StoreID, uint32, error) {
	flags := os.O_RDONLY
	if !allowSymlink {
		flags |= noFollow
	}
	f, err := os.OpenFile(path, flags, 0)
	if err != nil {
		if isSymlinkErr(path, err) {
			return StoreID{}, 0, fmt.Errorf("eventlog: %s is a symbolic link; a store's files must be regular files (allow links explicitly to use it)", path)
		}
		return StoreID{}, 0, fmt.Errorf("eventlog: %w", err)
	}
	defer f.Close()
	h, err := readHeader(path, f, true)
	return h.id, h.version, err
}
