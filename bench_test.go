package tgms

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"

	"github.com/tgms-go/tgms/internal/testenv"
)

func synthEvents(b *testing.B, n int64) []bt.Event {
	b.Helper()
	var evs []bt.Event
	if _, err := datasets.Synthesize(datasets.SynthConfig{Events: n, Seed: 1, Triangles: -1, PingPongs: -1, Bursts: -1}, func(c []bt.Event) error {
		evs = append(evs, c...)
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	return evs
}

// benchIngest measures durable bulk ingest (log written and fsynced, group
// commit) of events into a new store.
func benchIngest(b *testing.B, evs []bt.Event) {
	b.ReportAllocs()
	var total time.Duration
	for range b.N {
		dir := b.TempDir()
		db, err := Open(dir, &Options{CheckpointBytes: -1})
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if _, err := db.Ingest(evs, "", nil); err != nil {
			b.Fatal(err)
		}
		total += time.Since(start)
		db.closeFiles()
		os.RemoveAll(dir)
	}
	b.ReportMetric(float64(len(evs))*float64(b.N)/total.Seconds(), "events/s")
}

func BenchmarkIngestEmailEU(b *testing.B) {
	spec, _ := datasets.Lookup("email-eu")
	path, ok := datasets.Locate(spec, filepath.Join("..", "shared", "data"))
	if !ok {
		testenv.Missing(b, "email-EU not found in ../shared/data")
	}
	evs, err := datasets.Load(spec, path)
	if err != nil {
		b.Fatal(err)
	}
	benchIngest(b, evs)
}

func BenchmarkIngestSynth1M(b *testing.B)  { benchIngest(b, synthEvents(b, 1_000_000)) }
func BenchmarkIngestSynth10M(b *testing.B) { benchIngest(b, synthEvents(b, 10_000_000)) }

// benchFootprint ingests n synthetic events with 1% corrections, then
// reports, per edge version: heap-B is the heap delta (live heap with the
// store open minus live heap after closing it, both after a GC: the store
// alone); rss-B is the process's resident set (VmRSS from /proc/self/status)
// with the store open, after a GC and returning freed memory to the OS: the
// whole process, so an upper bound. Also checkpoint bytes per edge version
// and the time to reopen from the checkpoint, and the store's own account
// of its bytes per edge version by structure (engine.Store.Memory).
func benchFootprint(b *testing.B, n int64) {
	for range b.N {
		dir := b.TempDir()
		db, err := Open(dir, &Options{NoSync: true, CheckpointBytes: -1})
		if err != nil {
			b.Fatal(err)
		}
		var buf []bt.Event
		manifest, err := datasets.Synthesize(datasets.SynthConfig{Events: n, Seed: 1, Corrections: 0.01}, func(c []bt.Event) error {
			buf = append(buf, c...)
			if len(buf) >= 4*ChunkEvents {
				_, err := db.Ingest(buf, "", nil)
				buf = buf[:0]
				return err
			}
			return nil
		})
		if err == nil && len(buf) > 0 {
			_, err = db.Ingest(buf, "", nil)
		}
		if err != nil {
			b.Fatal(err)
		}
		buf = nil
		_ = manifest
		if err := db.Checkpoint(); err != nil {
			b.Fatal(err)
		}
		edges := db.Stats().EdgeVersions
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		heapWithStore := ms.HeapAlloc
		parts := db.store.Memory()
		debug.FreeOSMemory()
		rss := residentBytes()
		ckpt, _ := os.Stat(filepath.Join(dir, CheckpointFile))
		db.Close()
		db = nil
		runtime.GC()
		runtime.ReadMemStats(&ms)
		storeBytes := float64(heapWithStore) - float64(ms.HeapAlloc)

		start := time.Now()
		db2, err := Open(dir, &Options{NoSync: true, CheckpointBytes: -1})
		if err != nil {
			b.Fatal(err)
		}
		reopen := time.Since(start)
		db2.closeFiles()
		b.ReportMetric(storeBytes/float64(edges), "heap-B/edge-version")
		if rss > 0 {
			b.ReportMetric(float64(rss)/float64(edges), "rss-B/edge-version")
		}
		b.ReportMetric(float64(ckpt.Size())/float64(edges), "ckpt-B/edge-version")
		b.ReportMetric(float64(reopen.Milliseconds()), "reopen-ms")
		b.ReportMetric(float64(edges), "edge-versions")
		for _, p := range parts {
			b.ReportMetric(float64(p.Bytes)/float64(edges), p.Name+"-B/v")
		}
	}
}

func BenchmarkFootprint1M(b *testing.B)  { benchFootprint(b, 1_000_000) }
func BenchmarkFootprint10M(b *testing.B) { benchFootprint(b, 10_000_000) }

// residentBytes is the process's resident set size (VmRSS in
// /proc/self/status), or 0 where that file does not exist.
func residentBytes() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(rest) // "123456 kB"
			if n, err := strconv.ParseInt(f[0], 10, 64); err == nil && len(f) == 2 && f[1] == "kB" {
				return n << 10
			}
		}
	}
	return 0
}
