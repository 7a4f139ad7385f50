package tgms

import (
	"os"
	"path/filepath"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// The default checkpoint interval grows with the checkpoint, so a growing
// store does not rewrite its whole image every 64 MiB of log; an explicit
// interval stays as given.
func TestCheckpointIntervalGrowsWithCheckpoint(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(dir, &Options{NoSync: true, Clock: testClock()})
	if err != nil {
		t.Fatal(err)
	}
	if got := db.checkpointAfter(); got != 64<<20 {
		t.Fatalf("empty store: checkpoint after %d bytes of log, want 64 MiB", got)
	}
	if _, err := db.Write(bt.AssertNode("a", "N", "", bt.Always)); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dir, CheckpointFile))
	if err != nil {
		t.Fatal(err)
	}
	db, err = Open(dir, &Options{NoSync: true, Clock: testClock()})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.ckptSize != st.Size() {
		t.Fatalf("reopened: checkpoint size %d, the file has %d", db.ckptSize, st.Size())
	}
	db.ckptSize = 100 << 20 // as after a checkpoint of a large store
	if got := db.checkpointAfter(); got != 100<<20 {
		t.Fatalf("after a 100 MiB checkpoint: checkpoint after %d bytes of log, want 100 MiB", got)
	}
	db.opt.CheckpointBytes, db.ckptGrow = 1<<10, false // as Open sets an explicit interval
	if got := db.checkpointAfter(); got != 1<<10 {
		t.Fatalf("explicit interval: checkpoint after %d bytes of log, want 1024", got)
	}
}

// A bulk ingest of several group commits checkpoints once, when it is
// all durable: the checkpoint then covers the whole log.
func TestBulkIngestCheckpointsAtItsEnd(t *testing.T) {
	db, err := Open(t.TempDir(), &Options{NoSync: true, Clock: testClock(), CheckpointBytes: 1 << 10, GroupEvents: ChunkEvents})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ev := make([]bt.Event, 0, 3*ChunkEvents)
	for i := range 3 * ChunkEvents {
		ev = append(ev, bt.Event{Src: "a", Dst: "b", RelType: "E", VtS: int64(i)})
	}
	res, err := db.Ingest(ev, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Batches != 3 {
		t.Fatalf("%d batches, want 3", res.Batches)
	}
	if db.ckptEnd != db.log.End() {
		t.Fatalf("after the ingest the checkpoint covers the log up to %d of %d", db.ckptEnd, db.log.End())
	}
	if db.bulk {
		t.Fatal("the ingest left the bulk flag set")
	}
}
