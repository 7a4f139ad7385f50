package eventlog

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// warnings collects Logf output.
type warnings struct {
	mu  sync.Mutex
	msg []string
}

func (w *warnings) logf(format string, args ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msg = append(w.msg, fmt.Sprintf(format, args...))
}

func (w *warnings) all() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.msg...)
}

func smallRecord(seq uint64) *Record {
	uid := fmt.Sprint("n", seq)
	return &Record{TT: int64(seq) * 10, Seq: seq, Ops: []bt.Op{
		bt.AssertNode(uid, "Person", bt.Props(fmt.Sprintf(`{"i":%d}`, seq)), bt.Always),
		bt.Ingest([]bt.Event{{Src: uid, Dst: "hub", RelType: "R", VtS: int64(seq)}}, "Node"),
	}}
}

// writeLog creates a log with records 1..n and returns the end offsets.
func writeLog(t *testing.T, path string, n int) []int64 {
	t.Helper()
	l, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	var ends []int64
	for i := 1; i <= n; i++ {
		end, err := l.Append(smallRecord(uint64(i)))
		if err != nil {
			t.Fatal(err)
		}
		ends = append(ends, end)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return ends
}

// readAll returns the seqs of all records and the ends ReadFile reports.
func readAll(t *testing.T, path string) ([]uint64, []int64, error) {
	t.Helper()
	var seqs []uint64
	var ends []int64
	err := ReadFile(path, func(r *Record, end int64) error {
		seqs = append(seqs, r.Seq)
		ends = append(ends, end)
		return nil
	})
	return seqs, ends, err
}

func replayAll(t *testing.T, l *Log, from int64) ([]*Record, []int64, error) {
	t.Helper()
	var recs []*Record
	var ends []int64
	err := l.Replay(from, func(r *Record, end int64) error {
		recs = append(recs, r)
		ends = append(ends, end)
		return nil
	})
	return recs, ends, err
}

func TestCreateAppendReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.wal")
	l, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if l.End() != HeaderSize || l.LastSeq() != 0 || l.LastTT() != 0 || l.Path() != path {
		t.Fatalf("new log: end %d seq %d tt %d", l.End(), l.LastSeq(), l.LastTT())
	}
	if _, err := os.Stat(path + ".tmp"); !os.IsNotExist(err) {
		t.Fatalf("temporary file left behind: %v", err)
	}
	// A group commit of three records, then one more.
	end, err := l.Append(smallRecord(1), smallRecord(2), smallRecord(3))
	if err != nil {
		t.Fatal(err)
	}
	end4, err := l.Append(smallRecord(4))
	if err != nil {
		t.Fatal(err)
	}
	if end4 <= end || l.End() != end4 || l.LastSeq() != 4 || l.LastTT() != 40 {
		t.Fatalf("after appends: end %d/%d seq %d tt %d", end, l.End(), l.LastSeq(), l.LastTT())
	}
	if end, err := l.Append(); err != nil || end != end4 {
		t.Fatalf("empty append: %d %v", end, err)
	}
	recs, ends, err := replayAll(t, l, HeaderSize)
	if err != nil || len(recs) != 4 || ends[3] != end4 {
		t.Fatalf("replay: %d records, %v, %v", len(recs), ends, err)
	}
	for i, r := range recs {
		if want := smallRecord(uint64(i + 1)); !equalRecords(r, want) {
			t.Fatalf("record %d: %+v, want %+v", i, r, want)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); !errors.Is(err, ErrClosed) {
		t.Fatalf("second close: %v", err)
	}
	if _, err := l.Append(smallRecord(5)); !errors.Is(err, ErrClosed) {
		t.Fatalf("append after close: %v", err)
	}

	var w warnings
	l, err = Open(path, Options{Logf: w.logf})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if l.End() != end4 || l.LastSeq() != 4 || l.LastTT() != 40 || len(w.all()) != 0 {
		t.Fatalf("reopened: end %d seq %d tt %d warnings %q", l.End(), l.LastSeq(), l.LastTT(), w.all())
	}
	if _, err := l.Append(smallRecord(5)); err != nil {
		t.Fatal(err)
	}
	seqs, _, err := readAll(t, path)
	if err != nil || fmt.Sprint(seqs) != "[1 2 3 4 5]" {
		t.Fatalf("ReadFile: %v %v", seqs, err)
	}
}

func TestAppendChecks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.wal")
	l, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	tests := []struct {
		name string
		recs []*Record
		want string
	}{
		{"first seq not 1", []*Record{{TT: 1, Seq: 2}}, "sequence number 2, want 1"},
		{"gap in group", []*Record{{TT: 1, Seq: 1}, {TT: 2, Seq: 3}}, "record 1 has sequence number 3, want 2"},
		{"tt not increasing", []*Record{{TT: 5, Seq: 1}, {TT: 5, Seq: 2}}, "transaction time 5, not after 5"},
		{"unknown op", []*Record{{TT: 1, Seq: 1, Ops: []bt.Op{{Kind: 9}}}}, "unknown kind 9"},
		{"op none", []*Record{{TT: 1, Seq: 1, Ops: []bt.Op{{}}}}, "unknown kind 0"},
	}
	for _, tc := range tests {
		if _, err := l.Append(tc.recs...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
	// Refused appends write nothing and leave the log usable.
	if l.End() != HeaderSize {
		t.Fatalf("end moved to %d", l.End())
	}
	if _, err := l.Append(&Record{TT: -3, Seq: 1}, &Record{TT: 7, Seq: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(&Record{TT: 7, Seq: 3}); err == nil {
		t.Fatal("equal tt accepted")
	}
}

func TestTornTailEveryOffset(t *testing.T) {
	dir := t.TempDir()
	orig := filepath.Join(dir, "orig.wal")
	ends := writeLog(t, orig, 3)
	data, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(data)) != ends[2] {
		t.Fatalf("file is %d bytes, end %d", len(data), ends[2])
	}
	for cut := ends[1] + 1; cut < ends[2]; cut++ {
		path := filepath.Join(dir, fmt.Sprintf("cut%d.wal", cut))
		if err := os.WriteFile(path, data[:cut], 0o600); err != nil {
			t.Fatal(err)
		}
		// Read-only: records 1 and 2, then a TornTailError; nothing changes.
		seqs, _, err := readAll(t, path)
		var torn *TornTailError
		if !errors.As(err, &torn) || torn.Offset != ends[1] || torn.Dropped != cut-ends[1] || fmt.Sprint(seqs) != "[1 2]" {
			t.Fatalf("cut %d: ReadFile: %v, %v", cut, seqs, err)
		}
		if st, _ := os.Stat(path); st.Size() != cut {
			t.Fatalf("cut %d: ReadFile changed the file", cut)
		}
		// Open trims and warns.
		var w warnings
		l, err := Open(path, Options{Logf: w.logf, NoSync: true})
		if err != nil {
			t.Fatalf("cut %d: %v", cut, err)
		}
		msgs := w.all()
		wantMsg := fmt.Sprintf("%s: dropped a torn final record at byte offset %d (%d bytes", path, ends[1], cut-ends[1])
		if len(msgs) != 1 || !strings.Contains(msgs[0], wantMsg) {
			t.Fatalf("cut %d: warnings %q, want %q", cut, msgs, wantMsg)
		}
		if l.End() != ends[1] || l.LastSeq() != 2 || l.LastTT() != 20 {
			t.Fatalf("cut %d: end %d seq %d", cut, l.End(), l.LastSeq())
		}
		if st, _ := os.Stat(path); st.Size() != ends[1] {
			t.Fatalf("cut %d: file not truncated (%d bytes)", cut, st.Size())
		}
		// Appending after the repair works and the log reads back whole.
		if _, err := l.Append(smallRecord(3)); err != nil {
			t.Fatal(err)
		}
		recs, _, err := replayAll(t, l, HeaderSize)
		if err != nil || len(recs) != 3 || !equalRecords(recs[2], smallRecord(3)) {
			t.Fatalf("cut %d: replay after repair: %d records, %v", cut, len(recs), err)
		}
		l.Close()
		if _, err := os.ReadFile(path); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
			t.Fatalf("cut %d: repaired and re-appended log differs from the original", cut)
		}
		os.Remove(path)
	}
}

func TestFlippedByteIsCorruption(t *testing.T) {
	dir := t.TempDir()
	orig := filepath.Join(dir, "orig.wal")
	ends := writeLog(t, orig, 3)
	data, _ := os.ReadFile(orig)
	mid := ends[0] // record 2 starts here
	for pos := mid; pos < ends[1]; pos++ {
		path := filepath.Join(dir, "flip.wal")
		bad := bytes.Clone(data)
		bad[pos] ^= 0x40
		os.WriteFile(path, bad, 0o600)
		_, err := Open(path, Options{Logf: t.Logf})
		var ce *CorruptionError
		if !errors.As(err, &ce) || ce.Offset != mid || ce.Path != path {
			t.Fatalf("flip at %d: got %v, want a CorruptionError at %d", pos, err, mid)
		}
		msg := err.Error()
		for _, want := range []string{path, fmt.Sprintf("byte offset %d", mid), "restore", "backup"} {
			if !strings.Contains(msg, want) {
				t.Fatalf("flip at %d: message %q lacks %q", pos, msg, want)
			}
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, bad) {
			t.Fatalf("flip at %d: Open changed a corrupt file", pos)
		}
		// ReadFile delivers record 1, then the same error.
		seqs, _, err := readAll(t, path)
		if !errors.As(err, &ce) || ce.Offset != mid || fmt.Sprint(seqs) != "[1]" {
			t.Fatalf("flip at %d: ReadFile: %v %v", pos, seqs, err)
		}
	}
}

// rewrite builds a log file from raw frames (bypassing Append's checks).
func rewrite(t *testing.T, path string, recs ...*Record) []byte {
	t.Helper()
	h := fileHeader(testID)
	b := h[:]
	for _, r := range recs {
		b = appendFrame(b, r)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return b
}

func TestOrderingIsCorruption(t *testing.T) {
	dir := t.TempDir()
	r := func(seq uint64, tt int64) *Record { return &Record{TT: tt, Seq: seq} }
	first := int64(HeaderSize)
	second := first + FrameHeaderSize + int64(len(AppendRecord(nil, r(1, 1))))
	tests := []struct {
		name string
		recs []*Record
		off  int64
		want string
	}{
		{"first seq", []*Record{r(2, 1)}, first, "first record has sequence number 2"},
		{"seq gap at the end", []*Record{r(1, 1), r(3, 2)}, second, "sequence number 3 follows 1"},
		{"seq repeat", []*Record{r(1, 1), r(1, 2)}, second, "sequence number 1 follows 1"},
		{"tt equal", []*Record{r(1, 5), r(2, 5)}, second, "transaction time 5 does not increase"},
		{"tt back", []*Record{r(1, 5), r(2, 4), r(3, 6)}, second, "transaction time 4"},
	}
	for _, tc := range tests {
		path := filepath.Join(dir, "o.wal")
		rewrite(t, path, tc.recs...)
		_, err := Open(path, Options{Logf: t.Logf})
		var ce *CorruptionError
		if !errors.As(err, &ce) || ce.Offset != tc.off || !strings.Contains(ce.Reason, tc.want) {
			t.Errorf("%s: got %v, want corruption at %d: %q", tc.name, err, tc.off, tc.want)
		}
	}
	// A valid checksum over a payload that does not decode.
	path := filepath.Join(dir, "bad-payload.wal")
	h := fileHeader(testID)
	b := appendFrame(h[:], r(1, 1))
	p := []byte{1, 4, 2, 1, 77, 0, 0}
	b = append(b, make([]byte, FrameHeaderSize)...)
	putFrameHeader(b[len(b)-FrameHeaderSize:], p)
	b = append(b, p...)
	os.WriteFile(path, b, 0o600)
	_, err := Open(path, Options{Logf: t.Logf})
	var ce *CorruptionError
	if !errors.As(err, &ce) || ce.Offset != second || !strings.Contains(ce.Reason, "unknown op kind 77") {
		t.Errorf("undecodable payload: %v", err)
	}
}

func TestGarbageTails(t *testing.T) {
	dir := t.TempDir()
	orig := filepath.Join(dir, "orig.wal")
	ends := writeLog(t, orig, 2)
	data, _ := os.ReadFile(orig)
	valid := appendFrame(nil, smallRecord(3))
	tests := []struct {
		name string
		tail []byte
		torn bool
	}{
		{"zeros 1", make([]byte, 1), true},
		{"zeros 8", make([]byte, 8), true},
		{"zeros 4096", make([]byte, 4096), true},
		// A version 4 frame header of garbage fails its own checksum
		// without the zeros a crash leaves: damage, never a torn write.
		{"ones", bytes.Repeat([]byte{0xff}, 100), false},
		{"huge length", []byte{0xff, 0xff, 0xff, 0x7f, 1, 2, 3, 4, 5}, true},
		{"record then zeros", append(bytes.Clone(valid[:len(valid)-10]), make([]byte, 64)...), true},
		{"zeros then valid record", append(make([]byte, 100), valid...), false},
		{"garbage then valid record", append([]byte("garbage!garbage!"), valid...), false},
	}
	for _, tc := range tests {
		path := filepath.Join(dir, "g.wal")
		os.WriteFile(path, append(bytes.Clone(data), tc.tail...), 0o600)
		var w warnings
		l, err := Open(path, Options{Logf: w.logf})
		if !tc.torn {
			var ce *CorruptionError
			if !errors.As(err, &ce) || ce.Offset != ends[1] || !strings.Contains(ce.Reason, "a valid record follows") && !strings.Contains(ce.Reason, "header checksum mismatch") {
				t.Errorf("%s: got %v, want corruption at %d", tc.name, err, ends[1])
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if l.End() != ends[1] || len(w.all()) != 1 || !strings.Contains(w.all()[0], fmt.Sprintf("%d bytes", len(tc.tail))) {
			t.Errorf("%s: end %d, warnings %q", tc.name, l.End(), w.all())
		}
		if _, err := l.Append(smallRecord(3)); err != nil {
			t.Errorf("%s: append after repair: %v", tc.name, err)
		}
		l.Close()
		if seqs, _, err := readAll(t, path); err != nil || len(seqs) != 3 {
			t.Errorf("%s: after repair: %v %v", tc.name, seqs, err)
		}
	}
}

func TestHeaderErrors(t *testing.T) {
	dir := t.TempDir()
	good := fileHeader(testID)
	v5 := good
	binary.LittleEndian.PutUint32(v5[8:], 5)
	binary.LittleEndian.PutUint32(v5[28:], crcOf(v5[:28]))
	badCRC := good
	badCRC[13] ^= 1
	var v1 [headerSizeV1]byte
	copy(v1[:], Magic)
	binary.LittleEndian.PutUint32(v1[8:], 1)
	binary.LittleEndian.PutUint32(v1[12:], crcOf(v1[:12]))
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not a TGMS event log"},
		{"jsonl", []byte(`{"format":"tgms-eventlog","version":1}` + "\n"), "not a TGMS event log"},
		{"short", good[:10], "file header cut short"},
		{"version 5", v5[:], "unsupported format version 5; this build reads versions 1 to 4"},
		{"header crc", badCRC[:], "file header checksum mismatch"},
	}
	for _, tc := range tests {
		path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_"))
		os.WriteFile(path, tc.data, 0o600)
		_, err := Open(path, Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: Open: %v, want %q naming the file", tc.name, err, tc.want)
		}
		err = ReadFile(path, func(*Record, int64) error { return nil })
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: ReadFile: %v", tc.name, err)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, tc.data) {
			t.Errorf("%s: file changed", tc.name)
		}
	}
	if _, err := Open(filepath.Join(dir, "empty"), Options{}); !errors.Is(err, ErrNotLog) {
		t.Errorf("ErrNotLog not wrapped: %v", err)
	}
	if _, err := Open(filepath.Join(dir, "no", "such", "dir", "x.wal"), Options{}); err == nil {
		t.Error("Open in a missing directory succeeded")
	}
}

func crcOf(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

var testID = StoreID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}

func TestReplayFrom(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.wal")
	ends := writeLog(t, path, 5)
	l, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for i, from := range append([]int64{HeaderSize}, ends...) {
		recs, got, err := replayAll(t, l, from)
		if err != nil || len(recs) != 5-i {
			t.Fatalf("from %d: %d records, %v", from, len(recs), err)
		}
		for j, r := range recs {
			if r.Seq != uint64(i+j+1) || got[j] != ends[i+j] {
				t.Fatalf("from %d: record %d has seq %d end %d", from, j, r.Seq, got[j])
			}
		}
	}
	// Every offset that is not a boundary fails with a CorruptionError.
	boundary := map[int64]bool{HeaderSize: true}
	for _, e := range ends {
		boundary[e] = true
	}
	for from := int64(-1); from <= ends[4]+2; from++ {
		if boundary[from] {
			continue
		}
		n := 0
		err := l.Replay(from, func(*Record, int64) error { n++; return nil })
		var ce *CorruptionError
		if !errors.As(err, &ce) || ce.Path != path {
			t.Fatalf("from %d: got %v after %d records, want a CorruptionError", from, err, n)
		}
	}
	// fn's error stops the replay and comes back as is.
	stop := errors.New("stop")
	n := 0
	err = l.Replay(HeaderSize, func(*Record, int64) error { n++; return stop })
	if err != stop || n != 1 {
		t.Fatalf("fn error: %v after %d", err, n)
	}
}

// TestSyncedAppend exercises the fsync path and Sync.
func TestSyncedAppend(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.wal")
	l, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(ingestRecord(1, 1000)); err != nil {
		t.Fatal(err)
	}
	if err := l.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Sync(); !errors.Is(err, ErrClosed) {
		t.Fatalf("sync after close: %v", err)
	}
}

// TestWriteFailureIsSticky closes the file under the log to make the write
// fail.
func TestWriteFailureIsSticky(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.wal")
	l, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(smallRecord(1)); err != nil {
		t.Fatal(err)
	}
	end := l.End()
	l.f.Close()
	_, err = l.Append(smallRecord(2))
	if err == nil || !strings.Contains(err.Error(), "unusable") {
		t.Fatalf("append on a broken file: %v", err)
	}
	if _, err2 := l.Append(smallRecord(2)); err2 == nil || err2.Error() != err.Error() {
		t.Fatalf("second append: %v", err2)
	}
	if err2 := l.Replay(HeaderSize, func(*Record, int64) error { return nil }); err2 == nil {
		t.Fatal("replay on an unusable log succeeded")
	}
	if l.End() != end {
		t.Fatalf("end moved to %d", l.End())
	}
}

func TestConcurrentAppendReplay(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.wal")
	l, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 1; i <= 200; i++ {
			if _, err := l.Append(smallRecord(uint64(i))); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for range 50 {
		if err := l.Replay(HeaderSize, func(*Record, int64) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
}

func FuzzOpen(f *testing.F) {
	valid := appendFrame(nil, smallRecord(1))
	two := appendFrame(bytes.Clone(valid), smallRecord(2))
	f.Add([]byte{})
	f.Add(valid)
	f.Add(two)
	f.Add(two[:len(two)-5])
	f.Add(append(bytes.Clone(valid), make([]byte, 32)...))
	f.Add(append(make([]byte, 20), valid...))
	f.Add(appendFrame(nil, ingestRecord(1, 20)))
	f.Fuzz(func(t *testing.T, tail []byte) {
		path := filepath.Join(t.TempDir(), "fuzz.wal")
		h := fileHeader(testID)
		if err := os.WriteFile(path, append(h[:], tail...), 0o600); err != nil {
			t.Fatal(err)
		}
		_, _, rerr := readAll(t, path)
		l, err := Open(path, Options{Logf: func(string, ...any) {}, NoSync: true})
		if err != nil {
			var ce *CorruptionError
			if !errors.As(err, &ce) {
				t.Fatalf("Open: %v is not a CorruptionError", err)
			}
			if !errors.As(rerr, &ce) {
				t.Fatalf("Open reports corruption (%v), ReadFile %v", err, rerr)
			}
			return
		}
		defer l.Close()
		var torn *TornTailError
		if rerr != nil && !errors.As(rerr, &torn) {
			t.Fatalf("Open succeeded, ReadFile: %v", rerr)
		}
		// What Open kept replays, and it can be appended to.
		recs, _, err := replayAll(t, l, HeaderSize)
		if err != nil || uint64(len(recs)) != l.LastSeq() {
			t.Fatalf("replay after open: %d records, %v", len(recs), err)
		}
		if _, err := l.Append(&Record{TT: l.LastTT() + 1, Seq: l.LastSeq() + 1}); err != nil {
			t.Fatal(err)
		}
	})
}

func benchAppend(b *testing.B, opt Options, perAppend int) {
	path := filepath.Join(b.TempDir(), "bench.wal")
	l, err := Open(path, opt)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	const n = 50_000
	recs := make([]*Record, 8)
	for i := range recs {
		recs[i] = ingestRecord(uint64(i+1), n)
	}
	b.ResetTimer()
	events := 0
	for i := 0; b.Loop(); i++ {
		batch := make([]*Record, perAppend)
		for j := range batch {
			r := *recs[(i*perAppend+j)%len(recs)]
			r.Seq = l.LastSeq() + uint64(j) + 1
			r.TT = l.LastTT() + int64(j) + 1
			batch[j] = &r
		}
		if _, err := l.Append(batch...); err != nil {
			b.Fatal(err)
		}
		events += n * perAppend
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
	b.SetBytes((l.End() - HeaderSize) / int64(max(b.N, 1)))
}

// BenchmarkAppendIngest encodes and appends 50,000-event ingest records.
func BenchmarkAppendIngest(b *testing.B) {
	b.Run("nosync", func(b *testing.B) { benchAppend(b, Options{NoSync: true}, 1) })
	b.Run("sync", func(b *testing.B) { benchAppend(b, Options{}, 1) })
}

func BenchmarkReplayIngest(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.wal")
	l, err := Open(path, Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	for i := 1; i <= 20; i++ {
		if _, err := l.Append(ingestRecord(uint64(i), 50_000)); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(l.End())
	b.ResetTimer()
	for b.Loop() {
		if err := l.Replay(HeaderSize, func(*Record, int64) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*20*50_000/b.Elapsed().Seconds(), "events/s")
}

func BenchmarkOpenIngest(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.wal")
	l, err := Open(path, Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	for i := 1; i <= 20; i++ {
		if _, err := l.Append(ingestRecord(uint64(i), 50_000)); err != nil {
			b.Fatal(err)
		}
	}
	size := l.End()
	l.Close()
	b.SetBytes(size)
	b.ResetTimer()
	for b.Loop() {
		l, err := Open(path, Options{NoSync: true})
		if err != nil {
			b.Fatal(err)
		}
		l.Close()
	}
	b.ReportMetric(float64(b.N)*20*50_000/b.Elapsed().Seconds(), "events/s")
}

// TestLargeTornGroup cuts a group commit of four 50,000-event records in
// the middle of its third record: Open must see a torn tail, quickly.
func TestLargeTornGroup(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 2 MB")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "big.wal")
	l, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	end1, _ := l.Append(ingestRecord(1, 50_000))
	recs := []*Record{ingestRecord(2, 50_000), ingestRecord(3, 50_000), ingestRecord(4, 50_000), ingestRecord(5, 50_000)}
	for i, r := range recs {
		r.TT = 1_700_000_000_000_000 + int64(i) // realistic µs timestamps
	}
	recs[0].TT = 1_600_000_000_000_000
	if _, err := l.Append(recs...); err != nil {
		t.Fatal(err)
	}
	l.Close()
	data, _ := os.ReadFile(path)
	size2 := int64(len(appendFrame(nil, recs[0])))
	size3 := int64(len(appendFrame(nil, recs[1])))
	cut := end1 + size2 + size3/2
	for _, tail := range [][]byte{data[:cut], append(bytes.Clone(data[:cut]), make([]byte, 1<<20)...)} {
		os.WriteFile(path, tail, 0o600)
		var w warnings
		l, err := Open(path, Options{Logf: w.logf, NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		if l.End() != end1+size2 || l.LastSeq() != 2 || len(w.all()) != 1 {
			t.Fatalf("end %d seq %d warnings %q", l.End(), l.LastSeq(), w.all())
		}
		l.Close()
	}
}

// TestScanBudget builds a tail full of near-valid frame headers: the search
// for a later valid record gives up and reports corruption rather than
// spend unbounded time or drop bytes it has not ruled out.
func TestScanBudget(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "budget.wal")
	writeLog(t, path, 1)
	data, _ := os.ReadFile(path)
	var pat []byte
	pat = binary.LittleEndian.AppendUint32(pat, 600_000)
	pat = binary.LittleEndian.AppendUint32(pat, 12345)
	pat = binary.LittleEndian.AppendUint32(pat, crcOf(pat)) // a valid header checksum
	pat = append(pat, recordBatch)
	pat = binary.AppendVarint(pat, 1<<40)
	pat = binary.AppendUvarint(pat, 7)
	for len(data) < 2<<20 {
		data = append(data, pat...)
	}
	os.WriteFile(path, data, 0o600)
	_, err := Open(path, Options{Logf: t.Logf})
	var ce *CorruptionError
	if !errors.As(err, &ce) || !strings.Contains(ce.Reason, "too irregular") {
		t.Fatalf("got %v", err)
	}
}

func TestOpenTwice(t *testing.T) {
	path := filepath.Join(t.TempDir(), "l.wal")
	l, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path, Options{}); err == nil || !strings.Contains(err.Error(), "in use") {
		if runtime.GOOS == "linux" || runtime.GOOS == "darwin" {
			t.Fatalf("second Open: %v", err)
		}
	}
	if err := ReadFile(path, func(*Record, int64) error { return nil }); err != nil {
		t.Fatalf("ReadFile of an open log: %v", err)
	}
	l.Close()
	l, err = Open(path, Options{})
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	l.Close()
}
