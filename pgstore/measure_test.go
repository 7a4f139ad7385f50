package pgstore

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/internal/pgtest"
)

// TestMeasureReplica prints the figures of the README's PostgreSQL section
// when TGMS_PG_MEASURE is set (TGMS_PG_MEASURE_EVENTS events, default
// 500,000): the ingest rate into a durable cluster (fsync and synchronous
// commit on), a replica's build and catch-up rates, the live follow delay
// and the replica's memory per version.
func TestMeasureReplica(t *testing.T) {
	if os.Getenv("TGMS_PG_MEASURE") == "" {
		t.Skip("set TGMS_PG_MEASURE=1 to measure")
	}
	n := int64(500_000)
	if v, err := strconv.ParseInt(os.Getenv("TGMS_PG_MEASURE_EVENTS"), 10, 64); err == nil {
		n = v
	}
	c, err := pgtest.Start(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	url := schemaURL(c, "measure")
	ctx := context.Background()
	events := synthEvents(t, n, 42)
	w, err := Open(ctx, url, Options{Write: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	start := time.Now()
	res, err := w.Ingest(ctx, events, "Node", nil)
	if err != nil {
		t.Fatal(err)
	}
	el := time.Since(start)
	t.Logf("ingest into PostgreSQL: %d events in %d batches, %.2f s, %.0f events/s", res.Events, res.Batches, el.Seconds(), float64(res.Events)/el.Seconds())

	// A replica built from the batches (catch-up from nothing).
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ckpt := t.TempDir() + "/r.ckpt"
	start = time.Now()
	r, err := OpenReplica(ctx, url, ReplicaOptions{})
	if err != nil {
		t.Fatal(err)
	}
	el = time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&after)
	st := r.Stats()
	versions := st.NodeVersions + st.EdgeVersions
	t.Logf("replica build: %d batches, %d events in %.2f s: %.1f batches/s, %.0f events/s", st.Batches, len(events), el.Seconds(), float64(st.Batches)/el.Seconds(), float64(len(events))/el.Seconds())
	t.Logf("replica memory: heap %+.1f MiB for %d versions (%d node, %d edge): %.0f bytes/version (engine's own count %.0f bytes/version)",
		float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/(1<<20), versions, st.NodeVersions, st.EdgeVersions,
		float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/float64(versions), float64(r.eng.MemoryBytes())/float64(versions))
	r.Close()

	// Small batches: a replica following them live, then one catching up
	// on them from its checkpoint.
	r, err = OpenReplica(ctx, url, ReplicaOptions{Checkpoint: ckpt})
	if err != nil {
		t.Fatal(err)
	}
	small := synthEvents(t, 20_000, 43)
	const per = 10
	var delays []time.Duration
	for i := 0; i+per <= len(small); i += per {
		res, err := w.Ingest(ctx, small[i:i+per], "Node", nil)
		if err != nil {
			t.Fatal(err)
		}
		if i%(100*per) == 0 {
			s := time.Now()
			waitFor(t, r, res.LastTT, time.Minute)
			delays = append(delays, time.Since(s))
		}
	}
	waitFor(t, r, w.LastTT(), time.Minute)
	t.Logf("live follow: delay from commit to applied, sampled every 100 batches of %d events: %v", per, delays)
	r.Close()
	r2, err := OpenReplica(ctx, url, ReplicaOptions{Checkpoint: ckpt})
	if err != nil {
		t.Fatal(err)
	}
	r2.Close()
	var big []bt.Event = synthEvents(t, 20_000, 44)
	written := 0
	for i := 0; i+per <= len(big); i += per {
		if _, err := w.Ingest(ctx, big[i:i+per], "Node", nil); err != nil {
			t.Fatal(err)
		}
		written += per
	}
	start = time.Now()
	r3, err := OpenReplica(ctx, url, ReplicaOptions{Checkpoint: ckpt})
	if err != nil {
		t.Fatal(err)
	}
	el = time.Since(start)
	caught := r3.Stats().Batches - r3.FromCheckpoint() // each ingest of per events is one batch
	t.Logf("catch-up from a checkpoint of %d batches: %d batches of %d events in %.2f s: %.0f batches/s, %.0f events/s", r3.FromCheckpoint(), caught, per, el.Seconds(), float64(caught)/el.Seconds(), float64(written)/el.Seconds())
	if r3.Digest() != w.Digest() {
		t.Fatal("the caught-up replica's digest differs from the writer's")
	}
	r3.Close()
}
