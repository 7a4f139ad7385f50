package engine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// varintStarts lists the offsets in body where a varint could start: the
// first byte and every byte after one without the continuation bit.
func varintStarts(body []byte) []int {
	out := []int{0}
	for i, c := range body {
		if c < 0x80 && i+1 < len(body) {
			out = append(out, i+1)
		}
	}
	return out
}

// replaceVarint returns body with the varint at off replaced by x.
func replaceVarint(body []byte, off int, x uint64) []byte {
	_, n := binary.Uvarint(body[off:])
	if n <= 0 {
		n = 1
	}
	out := append([]byte(nil), body[:off]...)
	out = binary.AppendUvarint(out, x)
	return append(out, body[off+n:]...)
}

// wrapCheckpoint frames a body as a checkpoint file with a valid checksum.
func wrapCheckpoint(body []byte) []byte {
	data := append([]byte("TGMSCKP\x00"), ckptVersion, 0, 0, 0, 0, 0, 0, 0)
	data = append(data, body...)
	data = binary.LittleEndian.AppendUint64(data, uint64(len(body)))
	return binary.LittleEndian.AppendUint32(data, crc32.Checksum(body, castagnoli))
}

func checkpointSeed(t testing.TB) []byte {
	b := newBoth()
	for _, ops := range goldenBatches() {
		if err := b.write(t, ops); err != nil {
			t.Fatal(err)
		}
	}
	return encodeBodyAt(b.eng, infoFor(b.eng, 1234))
}

// Every count and offset in a checkpoint is bounds-checked: replacing any
// varint of a valid body with values near the integer limits (including
// batch-table counts whose running sums wrap around 2^64) gives a
// *CheckpointError, never a panic, through ReadCheckpoint with a valid
// checksum.
func TestCheckpointBoundsStructured(t *testing.T) {
	body := checkpointSeed(t)
	path := filepath.Join(t.TempDir(), "ckpt")
	vals := []uint64{0, 1, 2, 1<<31 - 1, 1 << 32, 1<<63 - 1, 1 << 63, 1<<64 - 2, 1<<64 - 1}
	var data []byte
	try := func(what string) {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("%s: ReadCheckpoint panics: %v", what, p)
			}
		}()
		s, _, err := decodeCheckpoint(path, data)
		var ce *CheckpointError
		if err != nil && !errors.As(err, &ce) {
			t.Fatalf("%s: %v, want a *CheckpointError", what, err)
		}
		if err == nil {
			_ = s.Digest()
			_ = s.Stats()
		}
	}
	os.WriteFile(path, wrapCheckpoint(body), 0o600)
	if _, _, err := ReadCheckpoint(path); err != nil {
		t.Fatalf("the unmutated checkpoint: %v", err)
	}
	n := 0
	starts := varintStarts(body)
	for _, off := range starts {
		for _, x := range vals {
			data = wrapCheckpoint(replaceVarint(body, off, x))
			try(fmt.Sprintf("varint at body offset %d set to %d", off, x))
			n++
		}
	}
	// Pairs: one count set to 2^64-1 and a later one raised by 1, so that
	// running sums wrap around to the right total.
	for i, a := range starts {
		for _, b := range starts[i+1 : min(len(starts), i+12)] {
			old, _ := binary.Uvarint(body[b:])
			for _, pair := range [][2]uint64{{1<<64 - 1, old + 1}, {1<<64 - 2, old + 2}} {
				m := replaceVarint(replaceVarint(body, b, pair[1]), a, pair[0])
				data = wrapCheckpoint(m)
				try(fmt.Sprintf("varints at %d and %d set to %d and %d", a, b, pair[0], pair[1]))
				n++
			}
		}
	}
	if n < 200 {
		t.Fatalf("only %d mutations", n)
	}
}

// FuzzCheckpointStructured mutates a valid body structurally (a varint
// replaced by any value, a byte flipped, a span cut) and frames it with a
// valid checksum: ReadCheckpoint must return a store or a
// *CheckpointError, never panic.
func FuzzCheckpointStructured(f *testing.F) {
	body := checkpointSeed(f)
	starts := varintStarts(body)
	f.Add(uint16(0), uint64(1<<64-1), byte(0), uint16(0))
	f.Add(uint16(40), uint64(1<<63), byte(1), uint16(3))
	f.Fuzz(func(t *testing.T, at uint16, x uint64, mode byte, n uint16) {
		b := body
		switch mode % 3 {
		case 0:
			b = replaceVarint(body, starts[int(at)%len(starts)], x)
		case 1:
			b = append([]byte(nil), body...)
			b[int(at)%len(b)] ^= byte(x)
		case 2:
			i := int(at) % len(body)
			j := min(len(body), i+int(n%64))
			b = append(append([]byte(nil), body[:i]...), body[j:]...)
		}
		path := filepath.Join(t.TempDir(), "ckpt")
		os.WriteFile(path, wrapCheckpoint(b), 0o600)
		s, _, err := ReadCheckpoint(path)
		var ce *CheckpointError
		if err != nil && !errors.As(err, &ce) {
			t.Fatalf("%v, want a *CheckpointError", err)
		}
		if err == nil {
			_ = s.Digest()
		}
	})
}

var _ = bt.OpenEnd
