package engine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// reopenShapes are stores of the shapes that cost the most memory per
// checkpoint byte: ingested event edges (the common case), many nodes with
// short distinct uids, one-op batches, and edges corrected many times.
var reopenShapes = []struct {
	name  string
	build func(s *Store, n int)
}{
	{"ingested edges", func(s *Store, n int) {
		ev := make([]bt.Event, 0, n)
		for i := range n {
			ev = append(ev, bt.Event{Src: fmt.Sprint("u", i%500), Dst: fmt.Sprint("u", (i*7+1)%500), RelType: "E", VtS: int64(i)})
		}
		apply(s, bt.Ingest(ev, "N"))
	}},
	{"distinct nodes", func(s *Store, n int) {
		ops := make([]bt.Op, 0, n)
		for i := range n {
			ops = append(ops, bt.AssertNode(fmt.Sprint(i), "N", "", bt.Always))
		}
		apply(s, ops...)
	}},
	{"one-op batches", func(s *Store, n int) {
		for i := range n / 8 {
			apply(s, bt.AssertNode(fmt.Sprint(i%50), "N", "", bt.Interval{Start: int64(i), End: int64(i) + 1}))
		}
	}},
	{"corrected edges", func(s *Store, n int) {
		k := bt.EdgeKey{Src: "a", Dst: "b", RelType: "E"}
		apply(s, bt.AssertEdge(k, "", bt.Always))
		for i := range n / 16 {
			apply(s, bt.Correct(bt.Ref{Kind: bt.RefEdge, Edge: k}, bt.Props(fmt.Sprintf(`{"i":%d}`, i%3)), bt.Interval{Start: int64(i), End: int64(i) + 5}))
		}
	}},
}

func apply(s *Store, ops ...bt.Op) {
	eff, err := bt.Plan(s, s.LastTT()+1+int64(s.Batches()), uint64(s.Batches())+1, ops)
	if err != nil {
		panic(err)
	}
	if err := s.Apply(eff); err != nil {
		panic(err)
	}
}

// reopenCost writes s's checkpoint and returns its size and the bytes
// ReadCheckpoint allocates to load it (the file's bytes included): an
// upper bound of the memory a reopen needs for it.
func reopenCost(tb testing.TB, s *Store) (size int64, alloc uint64) {
	path := filepath.Join(tb.TempDir(), "ckpt")
	s.Compact()
	size, err := s.WriteCheckpoint(path, infoFor(s, 1234))
	if err != nil {
		tb.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got, _, err := ReadCheckpoint(path)
	runtime.ReadMemStats(&after)
	if err != nil {
		tb.Fatal(err)
	}
	if got.Digest() != s.Digest() {
		tb.Fatal("digest changed")
	}
	os.Remove(path)
	return size, after.TotalAlloc - before.TotalAlloc
}

// Reopening a store allocates at most ReopenMultiple times its checkpoint's
// size plus ReopenOverhead, for every shape (the bound engine/doc.go
// states).
func TestReopenMemoryBound(t *testing.T) {
	n := 20_000
	if testing.Short() {
		n = 4_000
	}
	for _, sh := range reopenShapes {
		s := New()
		sh.build(s, n)
		size, alloc := reopenCost(t, s)
		limit := ReopenMultiple*size + ReopenOverhead
		t.Logf("%s: checkpoint %d bytes, reopen allocates %d bytes (%.1fx; the bound is %d)", sh.name, size, alloc, float64(alloc)/float64(size), limit)
		if int64(alloc) > limit {
			t.Errorf("%s: reopen allocates %d bytes, over the stated %dx its checkpoint's %d bytes plus %d", sh.name, alloc, ReopenMultiple, size, ReopenOverhead)
		}
	}
}

// BenchmarkReopenMemory reports the bytes a reopen allocates per checkpoint
// byte, for each shape.
func BenchmarkReopenMemory(b *testing.B) {
	for _, sh := range reopenShapes {
		b.Run(sh.name, func(b *testing.B) {
			s := New()
			sh.build(s, 100_000)
			var size int64
			var alloc uint64
			for range b.N {
				size, alloc = reopenCost(b, s)
			}
			b.ReportMetric(float64(alloc)/float64(size), "alloc-B/ckpt-B")
			b.ReportMetric(float64(size), "ckpt-B")
		})
	}
}

// A checkpoint whose counts fit in its bytes but whose load would pass the
// memory bound (here 200,000 empty uids, one byte each on disk) is refused
// before the allocation, with the bound in the error.
func TestReopenMemoryBoundEnforced(t *testing.T) {
	var body []byte
	body = append(body, make([]byte, 16)...)      // store id
	body = append(body, 32, 0, 0, 0)              // end, start, seq, tt
	body = append(body, make([]byte, 4+32)...)    // crc, chain
	body = binary.AppendUvarint(body, 200_000)    // uids
	body = append(body, make([]byte, 200_000)...) // each of length 0
	data := append(append([]byte{}, ckptMagic[:]...), 3, 0, 0, 0, 0, 0, 0, 0)
	data = append(data, body...)
	data = binary.LittleEndian.AppendUint64(data, uint64(len(body)))
	data = binary.LittleEndian.AppendUint32(data, crc32.Checksum(body, castagnoli))
	_, _, err := decodeCheckpoint("crafted", data)
	var ce *CheckpointError
	if !errors.As(err, &ce) || !strings.Contains(ce.Reason, "may take to load") {
		t.Fatalf("got %v, want the memory bound", err)
	}
}
