package tgms

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/eventlog"
)

// testClock returns 1, 2, 3, ... so digests are reproducible.
func testClock() func() bt.Time {
	var t bt.Time
	return func() bt.Time { t++; return t }
}

func open(t testing.TB, dir string, logs *[]string) *DB {
	t.Helper()
	db, err := Open(dir, &Options{Clock: testClock(), NoSync: true, Logf: func(f string, a ...any) {
		if logs != nil {
			*logs = append(*logs, fmt.Sprintf(f, a...))
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func mustProps(s string) bt.Props {
	p, err := bt.ParseProps([]byte(s))
	if err != nil {
		panic(err)
	}
	return p
}

func events(n int, src string) []bt.Event {
	evs := make([]bt.Event, n)
	for i := range evs {
		evs[i] = bt.Event{Src: fmt.Sprintf("%s%d", src, i%17), Dst: fmt.Sprintf("n%d", (i*7)%23), RelType: "MSG", VtS: bt.Time(1000 + i)}
	}
	return evs
}

// history writes a small history with every op kind.
func history(t testing.TB, db *DB) {
	t.Helper()
	ab := bt.EdgeKey{Src: "a", Dst: "b", RelType: "KNOWS"}
	steps := [][]bt.Op{
		{bt.AssertNode("a", "Person", mustProps(`{"name":"Ada"}`), bt.Always)},
		{bt.AssertEdge(ab, mustProps(`{"w":1}`), bt.Interval{Start: 10, End: 100})},
		{bt.Correct(bt.EdgeRef(ab), mustProps(`{"w":2}`), bt.Interval{Start: 40, End: 60})},
		{bt.Retract(bt.EdgeRef(ab), 80)},
	}
	for _, ops := range steps {
		if _, err := db.Write(ops...); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Ingest(events(120_000, "s"), "", nil); err != nil {
		t.Fatal(err)
	}
}

func TestReopenRecoversSameStore(t *testing.T) {
	dir := t.TempDir()
	db := open(t, dir, nil)
	history(t, db)
	want := db.Digest()
	wantStats := db.Stats()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	check := func(name string) {
		t.Helper()
		var logs []string
		db := open(t, dir, &logs)
		defer db.Close()
		if got := db.Digest(); got != want {
			t.Fatalf("%s: digest %s, want %s (warnings %v)", name, got, want, logs)
		}
		if got := db.Stats(); fmt.Sprint(got) != fmt.Sprint(wantStats) {
			t.Fatalf("%s: stats %+v, want %+v", name, got, wantStats)
		}
	}
	check("from checkpoint")
	os.Remove(filepath.Join(dir, CheckpointFile))
	check("from the log alone")
	// A damaged checkpoint is ignored with a warning, the log rebuilds all.
	db = open(t, dir, nil)
	db.Close()
	ck := filepath.Join(dir, CheckpointFile)
	data, _ := os.ReadFile(ck)
	data[len(data)/2] ^= 0xff
	os.WriteFile(ck, data, 0o644)
	var logs []string
	db = open(t, dir, &logs)
	if db.Digest() != want || len(logs) == 0 || !strings.Contains(logs[0], "checksum") {
		t.Fatalf("damaged checkpoint: digest ok=%v, warnings %v", db.Digest() == want, logs)
	}
	db.Close()
}

// A write after a checkpoint is replayed on top of it.
func TestReplayAfterCheckpoint(t *testing.T) {
	dir := t.TempDir()
	db := open(t, dir, nil)
	history(t, db)
	if err := db.Checkpoint(); err != nil {
		t.Fatal(err)
	}
	db.Write(bt.Correct(bt.NodeRef("a"), mustProps(`{"name":"Ada L."}`), bt.Interval{Start: 5, End: 50}))
	want := db.Digest()
	db.closeFiles() // a crash: no final checkpoint
	db = open(t, dir, nil)
	defer db.Close()
	if db.Digest() != want {
		t.Fatal("batch written after the checkpoint was lost")
	}
}

func TestTornTailIsTrimmed(t *testing.T) {
	dir := t.TempDir()
	db := open(t, dir, nil)
	history(t, db)
	want := db.Digest()
	db.closeFiles()
	f, _ := os.OpenFile(filepath.Join(dir, LogFile), os.O_APPEND|os.O_WRONLY, 0)
	f.Write([]byte{0x40, 0, 0, 0, 1, 2, 3}) // half a record header and payload
	f.Close()
	var logs []string
	db = open(t, dir, &logs)
	defer db.Close()
	if db.Digest() != want {
		t.Fatal("torn tail changed the store")
	}
	if len(logs) == 0 {
		t.Fatal("torn tail trimmed without a warning")
	}
}

func TestCheckpointAheadOfLogRefusesToOpen(t *testing.T) {
	dir := t.TempDir()
	db := open(t, dir, nil)
	history(t, db)
	db.Close() // writes a checkpoint covering the whole log
	logPath := filepath.Join(dir, LogFile)
	fi, _ := os.Stat(logPath)
	os.Truncate(logPath, fi.Size()-10)
	_, err := Open(dir, &Options{NoSync: true, Logf: func(string, ...any) {}})
	if !errors.Is(err, ErrStoreDamaged) || !strings.Contains(err.Error(), "acknowledged") {
		t.Fatalf("err = %v", err)
	}
}

func TestCorruptLogRefusesToOpen(t *testing.T) {
	dir := t.TempDir()
	db := open(t, dir, nil)
	history(t, db)
	db.closeFiles()
	os.Remove(filepath.Join(dir, CheckpointFile))
	logPath := filepath.Join(dir, LogFile)
	data, _ := os.ReadFile(logPath)
	data[eventlog.HeaderSize+12] ^= 0x01 // inside the first record
	os.WriteFile(logPath, data, 0o644)
	_, err := Open(dir, &Options{NoSync: true})
	var ce *eventlog.CorruptionError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), logPath) {
		t.Fatalf("err = %v, want a CorruptionError naming %s", err, logPath)
	}
}

func TestSecondOpenIsRefused(t *testing.T) {
	dir := t.TempDir()
	db := open(t, dir, nil)
	defer db.Close()
	if _, err := Open(dir, nil); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("err = %v", err)
	}
}

func TestBadInputLeavesStoreUnchanged(t *testing.T) {
	dir := t.TempDir()
	db := open(t, dir, nil)
	defer db.Close()
	history(t, db)
	want, batches := db.Digest(), db.Stats().Batches
	// Empty intervals at these events; the error names the first, as a
	// check in input order would, though chunks are checked in parallel.
	for _, at := range [][]int{{120_000}, {120_000, 129_999}, {60_000, 120_000}, {1, 60_000, 129_999}} {
		bad := events(130_000, "x")
		for _, i := range at {
			bad[i].VtE = bad[i].VtS
		}
		_, err := db.Ingest(bad, "", nil)
		var oe *bt.OpError
		if !errors.As(err, &oe) || oe.Event != at[0] {
			t.Fatalf("bad events %v: err = %v, want an OpError for event %d", at, err, at[0])
		}
	}
	dup := events(10, "y")
	dup[3].Disc, dup[7].Disc = "d", "d"
	dup[7].Src, dup[7].Dst = dup[3].Src, dup[3].Dst
	if _, err := db.Ingest(dup, "", nil); err == nil || !strings.Contains(err.Error(), "repeats event 3") {
		t.Fatalf("duplicate identities: err = %v", err)
	}
	if _, err := db.Write(bt.AssertNode("ok", "L", "", bt.Always), bt.Retract(bt.NodeRef("ghost"), 5)); err == nil {
		t.Fatal("retract of an unknown node accepted")
	}
	if db.Digest() != want || db.Stats().Batches != batches {
		t.Fatal("refused input changed the store")
	}
}

// Readers pinned at a belief time see the same thing while writers go on.
func TestConcurrentReadersSeeOneBelief(t *testing.T) {
	dir := t.TempDir()
	db := open(t, dir, nil)
	defer db.Close()
	history(t, db)
	asOf := db.LastTT()
	count := func() int {
		n := 0
		db.Read(asOf, func(r engine.Reader) error {
			n = len(r.EdgesOverlapping(bt.Always))
			return nil
		})
		return n
	}
	want := count()
	var wg sync.WaitGroup
	stop := make(chan struct{})
	errs := make(chan error, 4)
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if got := count(); got != want {
					errs <- fmt.Errorf("pinned read saw %d edges, want %d", got, want)
					return
				}
			}
		}()
	}
	for i := range 20 {
		if _, err := db.Ingest(events(5_000, fmt.Sprintf("w%d-", i)), "", nil); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}
