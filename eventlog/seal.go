package eventlog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"

	"github.com/tgms-go/tgms/internal/fault"
)

// SealSuffix names a log's seal file: events.wal.sealed beside events.wal.
const SealSuffix = ".sealed"

// SealTempPattern is the os.CreateTemp pattern of a seal being written.
const SealTempPattern = ".seal-*"

const (
	sealMagic   = "TGMSSEAL"
	sealVersion = 1
	sealSize    = 8 + 4 + 16 + 8 + 8 + 8 + 8 + 4 + 4
)

// Seal is a lower bound on a log: the store id and the last record of the
// log at a moment when every record up to it had been acknowledged. A log
// only grows past its seal (a torn tail is never below it), so a log that
// is shorter than its seal, or holds another record where the seal's last
// record was, lost acknowledged batches.
type Seal struct {
	StoreID StoreID
	Last    Frame
}

// WriteSeal writes the seal of the log at logPath atomically (a new
// temporary file, fsync, rename, fsync of the directory).
func WriteSeal(logPath string, s Seal) error {
	var b [sealSize]byte
	copy(b[:], sealMagic)
	binary.LittleEndian.PutUint32(b[8:], sealVersion)
	copy(b[12:28], s.StoreID[:])
	binary.LittleEndian.PutUint64(b[28:], uint64(s.Last.Start))
	binary.LittleEndian.PutUint64(b[36:], uint64(s.Last.End))
	binary.LittleEndian.PutUint64(b[44:], s.Last.Seq)
	binary.LittleEndian.PutUint64(b[52:], uint64(s.Last.TT))
	binary.LittleEndian.PutUint32(b[60:], s.Last.CRC)
	binary.LittleEndian.PutUint32(b[64:], crc32.Checksum(b[:64], castagnoli))
	fault.Point("seal.create")
	if err := writeAtomic(logPath+SealSuffix, SealTempPattern, b[:], "seal"); err != nil {
		return fmt.Errorf("eventlog: seal %s: %w", logPath, err)
	}
	return nil
}

// ErrNoSeal is wrapped by ReadSeal's error when the log has no seal.
var ErrNoSeal = errors.New("no seal")

// ReadSeal reads the seal of the log at logPath. A missing seal is an error
// satisfying errors.Is(err, ErrNoSeal); a damaged one (or a symbolic link,
// unless allowSymlink) is a *CorruptionError naming the seal file.
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
	switch {
	case n != sealSize:
		return bad(fmt.Sprintf("the seal is %d bytes or more, not %d", n, sealSize))
	case string(b[:8]) != sealMagic:
		return bad("not a seal file")
	case binary.LittleEndian.Uint32(b[64:]) != crc32.Checksum(b[:64], castagnoli):
		return bad("seal checksum mismatch")
	case binary.LittleEndian.Uint32(b[8:]) != sealVersion:
		return bad(fmt.Sprintf("seal format version %d, this build reads %d", binary.LittleEndian.Uint32(b[8:]), sealVersion))
	}
	var s Seal
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
	flags := os.O_RDONLY
	if !allowSymlink {
		flags |= noFollow
	}
	f, err := os.OpenFile(path, flags, 0)
	if err != nil {
		if isSymlinkErr(path, err) {
			return StoreID{}, fmt.Errorf("eventlog: %s is a symbolic link; a store's files must be regular files (allow links explicitly to use it)", path)
		}
		return StoreID{}, fmt.Errorf("eventlog: %w", err)
	}
	defer f.Close()
	h, err := readHeader(path, f, true)
	return h.id, err
}
