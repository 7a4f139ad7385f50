package eventlog

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"

	"github.com/tgms-go/tgms/internal/fault"
	"github.com/tgms-go/tgms/internal/vfs"
)

// StoreID names a store: 16 random bytes written into the log header once,
// when the log is created, and repeated in every checkpoint and seal of the
// store, so that files of different stores are never mixed up.
type StoreID [16]byte

// String is the id in lowercase hex.
func (id StoreID) String() string { return hex.EncodeToString(id[:]) }

// IsZero reports whether id is unset (a version 1 log has no id).
func (id StoreID) IsZero() bool { return id == StoreID{} }

// NewStoreID draws a new random store id.
func NewStoreID() (StoreID, error) {
	var id StoreID
	if _, err := rand.Read(id[:]); err != nil {
		return id, fmt.Errorf("store id: %w", err)
	}
	return id, nil
}

// header is a decoded file header.
type header struct {
	version uint32
	id      StoreID
	size    int64 // where the first record starts
	frame   int64 // the size of a record's frame header in this version
}

// frameSize is the size of a record's frame header in a log of format
// version v: 12 from version 4 on (length, payload CRC, header CRC), 8
// before (length, payload CRC).
func frameSize(v uint32) int64 {
	if v >= 4 {
		return FrameHeaderSize
	}
	return FrameHeaderSizeV3
}

// fileHeader is the file header of a new log of the current version.
func fileHeader(id StoreID) [HeaderSize]byte { return fileHeaderV(id, Version) }

// fileHeaderV is the file header of a log of format version v (2 to 4).
func fileHeaderV(id StoreID, v uint32) [HeaderSize]byte {
	var h [HeaderSize]byte
	copy(h[:], Magic)
	binary.LittleEndian.PutUint32(h[8:], v)
	copy(h[12:28], id[:])
	binary.LittleEndian.PutUint32(h[28:], crc32.Checksum(h[:28], castagnoli))
	return h
}

// readHeader reads and verifies the file header of f: version 2 (with a
// store id) to 4, or version 1 (16 bytes, no id) when v1 is true.
func readHeader(path string, f io.ReaderAt, v1 bool) (header, error) {
	var h [HeaderSize]byte
	n, err := f.ReadAt(h[:], 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return header{}, fmt.Errorf("eventlog: read %s: %w", path, err)
	}
	if n < len(Magic) || string(h[:len(Magic)]) != Magic {
		return header{}, fmt.Errorf("eventlog: %s: %w (the file does not start with %q)", path, ErrNotLog, Magic)
	}
	if n < 12 {
		return header{}, &CorruptionError{Path: path, Offset: int64(n), Reason: fmt.Sprintf("file header cut short (%d of %d bytes)", n, HeaderSize)}
	}
	v := binary.LittleEndian.Uint32(h[8:])
	size := int64(HeaderSize)
	if v == 1 {
		size = headerSizeV1
	}
	if int64(n) < size {
		return header{}, &CorruptionError{Path: path, Offset: int64(n), Reason: fmt.Sprintf("file header cut short (%d of %d bytes)", n, size)}
	}
	crcAt := size - 4
	if got, want := binary.LittleEndian.Uint32(h[crcAt:]), crc32.Checksum(h[:crcAt], castagnoli); got != want {
		return header{}, &CorruptionError{Path: path, Offset: crcAt, Reason: fmt.Sprintf("file header checksum mismatch (stored %08x, computed %08x)", got, want)}
	}
	switch {
	case v == 1 && !v1:
		return header{}, fmt.Errorf("eventlog: %s is a format version 1 log (written by an earlier build, without a store id); "+
			"this build writes version %d: convert it with 'tgms replay --log %s --store NEWDIR', which keeps every batch and transaction time", path, Version, path)
	case v < 1 || v > Version:
		return header{}, fmt.Errorf("eventlog: %s: unsupported format version %d; this build reads versions 1 to %d", path, v, Version)
	}
	hd := header{version: v, size: size, frame: frameSize(v)}
	if v >= 2 {
		copy(hd.id[:], h[12:28])
	}
	return hd, nil
}

// create writes a new, empty log with a fresh store id atomically: the
// header into a new temporary file (O_EXCL, so a planted file or link is
// never followed), fsync, rename, fsync the directory. A crash leaves
// either no log or a complete header, and at worst a temporary file that
// the store removes on its next open.
func create(path string) error {
	id, err := NewStoreID()
	if err != nil {
		return fmt.Errorf("eventlog: create %s: %w", path, err)
	}
	h := fileHeader(id)
	if err := writeAtomic(path, filepath.Base(path)+TempPattern, h[:], "log.create"); err != nil {
		return fmt.Errorf("eventlog: create %s: %w", path, err)
	}
	return nil
}

// writeAtomic writes data to path through a new temporary file in its
// directory (os.CreateTemp with pattern: O_EXCL, so a planted file or link
// is never followed): write, fsync, close, rename, fsync the directory. A
// crash leaves either the old file or the new one whole, and at worst a
// temporary that the store removes on its next open; on an error the
// temporary is removed. The fault points are point+".fsync", ".rename" and
// ".dirsync".
func writeAtomic(path, pattern string, data []byte, point string) error {
	dir := filepath.Dir(path)
	fs := vfs.Get()
	f, err := fs.CreateTemp(dir, pattern)
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = fault.Writer(f).Write(data)
	if err == nil {
		fault.Point(point + ".fsync")
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		fault.Point(point + ".rename")
		err = fs.Rename(tmp, path)
	}
	if err == nil {
		fault.Point(point + ".dirsync")
		err = fs.SyncDir(dir)
	}
	if err != nil {
		fs.Remove(tmp)
	}
	return err
}

// TempPattern is the suffix pattern (for os.CreateTemp) of the temporary
// file a new log is written to: "events.wal.tmp-123456".
const TempPattern = ".tmp-*"

func syncDir(dir string) error { return vfs.Get().SyncDir(dir) }

// CreateFromImage writes a new log at path, which must not exist: a
// version 4 header with store id id and one record, the store image img
// (a record with an Image, Seq the last batch it holds, TT that batch's
// transaction time). It is written atomically (temporary file, fsync,
// rename, fsync of the directory), and returns the record's Frame.
func CreateFromImage(path string, id StoreID, img *Record) (Frame, error) {
	if img.Image == nil || len(img.Ops) > 0 || img.Source != "" || img.Seq == 0 {
		return Frame{}, fmt.Errorf("eventlog: create %s: a store image needs image bytes and a batch number, and no ops or source", path)
	}
	h := fileHeader(id)
	b := append(h[:], make([]byte, FrameHeaderSize)...)
	b = AppendRecord(b, img)
	n := len(b) - HeaderSize - FrameHeaderSize
	if n > MaxPayload {
		return Frame{}, fmt.Errorf("eventlog: create %s: the store image encodes to %d bytes, over the %d-byte record limit", path, n, MaxPayload)
	}
	putFrameHeader(b[HeaderSize:HeaderSize+FrameHeaderSize], b[HeaderSize+FrameHeaderSize:])
	if _, err := os.Lstat(path); err == nil || !errors.Is(err, os.ErrNotExist) {
		return Frame{}, fmt.Errorf("eventlog: create %s: the file exists (or cannot be checked: %v); move it aside first", path, err)
	}
	if err := writeAtomic(path, filepath.Base(path)+TempPattern, b, "log.create"); err != nil {
		return Frame{}, fmt.Errorf("eventlog: create %s: %w", path, err)
	}
	return Frame{Start: HeaderSize, End: int64(len(b)), Seq: img.Seq, TT: img.TT,
		CRC: binary.LittleEndian.Uint32(b[HeaderSize+4:])}, nil
}
