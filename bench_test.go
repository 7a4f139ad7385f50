package tgms

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
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
		b.Skip("email-EU not found in ../shared/data")
	}
	evs, err := datasets.Load(spec, path)
	if err != nil {
		b.Fatal(err)
	}
	benchIngest(b, evs)
}

func BenchmarkIngestSynth1M(b *testing.B) { benchIngest(b, synthEvents(b, 1_000_000)) }

// benchFootprint ingests n synthetic events with 1% corrections, then
// reports resident heap per edge version, checkpoint bytes per edge version
// and the time to reopen from the checkpoint.
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
		b.ReportMetric(float64(ckpt.Size())/float64(edges), "ckpt-B/edge-version")
		b.ReportMetric(float64(reopen.Milliseconds()), "reopen-ms")
		b.ReportMetric(float64(edges), "edge-versions")
	}
}

func BenchmarkFootprint1M(b *testing.B)  { benchFootprint(b, 1_000_000) }
func BenchmarkFootprint10M(b *testing.B) { benchFootprint(b, 10_000_000) }
