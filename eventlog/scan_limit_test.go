package eventlog

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"strings"
	"testing"
)

// virtualLog is a log file held as a frame header and a length: every
// byte past the header reads as fill, so a gigabyte record costs no disk.
type virtualLog struct {
	hdr  [FrameHeaderSize]byte
	size int64
	fill byte
}

func (v *virtualLog) ReadAt(p []byte, off int64) (int, error) {
	if off >= v.size {
		return 0, io.EOF
	}
	n := len(p)
	if rem := v.size - off; int64(n) > rem {
		n = int(rem)
	}
	h := 0
	if off < FrameHeaderSizeV3 {
		h = copy(p[:n], v.hdr[off:FrameHeaderSizeV3])
	}
	for i := h; i < n; i++ {
		p[i] = v.fill
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// TestRecordLengthLimit pins the payload limit on both sides: a frame of
// exactly MaxPayload bytes is read whole and its checksum checked, one of
// MaxPayload+1 is refused as corruption for its length alone (before any
// byte of it is read), even when the file is long enough to hold it.
func TestRecordLengthLimit(t *testing.T) {
	const fill = 0x5a
	crc := func(n int64) uint32 {
		chunk := make([]byte, 1<<20)
		for i := range chunk {
			chunk[i] = fill
		}
		var c uint32
		for ; n > 0; n -= int64(len(chunk)) {
			c = crc32.Update(c, castagnoli, chunk[:min(n, int64(len(chunk)))])
		}
		return c
	}
	t.Run("exactly MaxPayload", func(t *testing.T) {
		v := &virtualLog{size: FrameHeaderSizeV3 + MaxPayload, fill: fill}
		binary.LittleEndian.PutUint32(v.hdr[:4], MaxPayload)
		binary.LittleEndian.PutUint32(v.hdr[4:], crc(MaxPayload))
		s := newScanner("virtual.wal", v, header{frame: FrameHeaderSizeV3}, 0, v.size, false)
		p, err := s.next()
		if err != nil {
			t.Fatalf("a frame of exactly the %d-byte limit: %v", MaxPayload, err)
		}
		if len(p) != MaxPayload || p[0] != fill || p[len(p)-1] != fill {
			t.Fatalf("payload of %d bytes (first %#x, last %#x), want %d bytes of %#x", len(p), p[0], p[len(p)-1], MaxPayload, fill)
		}
	})
	for _, extra := range []int64{1, 2, 1 << 20} {
		n := int64(MaxPayload) + extra
		v := &virtualLog{size: FrameHeaderSizeV3 + n, fill: fill}
		binary.LittleEndian.PutUint32(v.hdr[:4], uint32(n))
		binary.LittleEndian.PutUint32(v.hdr[4:], crc(0)) // never reached
		s := newScanner("virtual.wal", v, header{frame: FrameHeaderSizeV3}, 0, v.size, false)
		var fe *frameError
		if _, err := s.next(); !errors.As(err, &fe) || !strings.Contains(fe.reason, "over the") {
			t.Fatalf("frame of MaxPayload+%d bytes: next = %v, want the length refused as over the limit", extra, err)
		}
		s = newScanner("virtual.wal", v, header{frame: FrameHeaderSizeV3}, 0, v.size, false)
		var ce *CorruptionError
		if err := s.run(false, nil); !errors.As(err, &ce) || ce.Offset != 0 || !strings.Contains(ce.Reason, "over the") {
			t.Fatalf("frame of MaxPayload+%d bytes: run = %v, want a CorruptionError at offset 0 for the length", extra, err)
		}
	}
}
