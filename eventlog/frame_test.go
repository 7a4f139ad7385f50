package eventlog

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Every single bit flip in the frame header of a version 4 log's final
// record is corruption, never a torn tail, even with no ack witness to
// say the record was acknowledged: the header checksum catches a damaged
// length or payload checksum. Nothing is trimmed or kept aside. (In a
// version 3 log, 29 of the 32 length bits read as a torn write here.)
func TestFrameHeaderBitFlipsAreCorruption(t *testing.T) {
	dir := t.TempDir()
	orig := filepath.Join(dir, "orig.wal")
	ends := writeLog(t, orig, 3)
	data, _ := os.ReadFile(orig)
	last := ends[1] // the final record's frame header starts here
	path := filepath.Join(dir, "flip.wal")
	for bit := 0; bit < 8*FrameHeaderSize; bit++ {
		d := append([]byte(nil), data...)
		d[last+int64(bit/8)] ^= 1 << (bit % 8)
		os.WriteFile(path, d, 0o600)
		for _, ro := range []bool{true, false} {
			var w warnings
			l, err := Open(path, Options{ReadOnly: ro, NoSync: true, Logf: w.logf})
			var ce *CorruptionError
			if !errors.As(err, &ce) || ce.Offset != last {
				if l != nil {
					l.Close()
				}
				t.Fatalf("bit %d of the header (read-only %v): %v, warnings %q; want corruption at byte %d", bit, ro, err, w.all(), last)
			}
		}
		var torn *TornTailError
		var ce *CorruptionError
		if err := ReadFile(path, func(*Record, int64) error { return nil }); errors.As(err, &torn) || !errors.As(err, &ce) {
			t.Fatalf("bit %d: ReadFile: %v", bit, err)
		}
		if got, _ := os.ReadFile(path); string(got) != string(d) {
			t.Fatalf("bit %d: the log was changed", bit)
		}
		if m, _ := filepath.Glob(path + ".broken-*"); len(m) > 0 {
			t.Fatalf("bit %d: bytes were kept aside as a torn tail: %v", bit, m)
		}
	}
}

// What a crash leaves in a version 4 frame header is still a torn tail: a
// header cut short, all zeros, or zeros on one side of a sector boundary
// inside it.
func TestTornFrameHeaders(t *testing.T) {
	dir := t.TempDir()
	orig := filepath.Join(dir, "orig.wal")
	ends := writeLog(t, orig, 3)
	data, _ := os.ReadFile(orig)
	last := ends[1]
	cases := map[string]func([]byte) []byte{
		"cut in header": func(d []byte) []byte { return d[:last+5] },
		"zero header":   func(d []byte) []byte { clear(d[last : last+FrameHeaderSize]); return d },
		"zero payload":  func(d []byte) []byte { clear(d[last+FrameHeaderSize:]); return append(d, make([]byte, 64)...) },
	}
	for name, damage := range cases {
		path := filepath.Join(dir, "torn.wal")
		os.WriteFile(path, damage(append([]byte(nil), data...)), 0o600)
		var w warnings
		l, err := Open(path, Options{NoSync: true, Logf: w.logf})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if l.End() != last || len(w.all()) != 1 {
			t.Fatalf("%s: end %d (want %d), warnings %q", name, l.End(), last, w.all())
		}
		l.Close()
	}
	if !tornHeader(1020, append(make([]byte, 4), 1, 2, 3, 4, 5, 6, 7, 8)) || !tornHeader(1020, append([]byte{1, 2, 3, 4}, make([]byte, 8)...)) {
		t.Fatal("zeros on one side of a sector boundary inside a header are what a crash leaves")
	}
	if tornHeader(1000, append(make([]byte, 4), 1, 2, 3, 4, 5, 6, 7, 8)) {
		t.Fatal("zeros that do not meet a sector boundary are damage")
	}
}
