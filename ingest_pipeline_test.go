package tgms

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/internal/fault"
)

// A bulk ingest stages each group while the previous one is logged. When
// a group's log write fails (a full disk), the groups acknowledged before
// it stay and are all that a reopen finds, the error counts them, and the
// group staged meanwhile is never acknowledged.
func TestIngestLogFailureMidway(t *testing.T) {
	for _, failAt := range []int64{1, 3, 5} { // writes: log, seal, log, seal, ...
		dir := t.TempDir()
		db, err := Open(dir, &Options{Clock: testClock(), GroupEvents: ChunkEvents, CheckpointBytes: -1, Logf: func(string, ...any) {}})
		if err != nil {
			t.Fatal(err)
		}
		var acks []int
		fault.SetWriteFailure(failAt, false)
		res, err := db.Ingest(events(4*ChunkEvents, "s"), "", func(done int, _ bt.Time) { acks = append(acks, done) })
		fault.SetWriteFailure(0, false)
		durable := int(failAt-1) / 2 * ChunkEvents
		if !errors.Is(err, ErrFailed) || !strings.Contains(err.Error(), "after "+strconv.Itoa(durable)+" durable events") {
			t.Fatalf("write %d fails: err = %v, want ErrFailed after %d durable events", failAt, err, durable)
		}
		if res.Events != durable || len(acks) != durable/ChunkEvents || (len(acks) > 0 && acks[len(acks)-1] != durable) {
			t.Fatalf("write %d fails: result %+v, acks %v; want %d events acknowledged", failAt, res, acks, durable)
		}
		db.closeFiles()
		db, err = Open(dir, &Options{Logf: func(string, ...any) {}})
		if err != nil {
			t.Fatal(err)
		}
		if got := db.Stats().EdgeVersions; got != durable {
			t.Fatalf("write %d fails: the reopened store has %d edges, want the %d acknowledged", failAt, got, durable)
		}
		db.Close()
	}
}

// An ingest whose context is done stops between groups: the groups logged
// so far stay, acknowledged and counted.
func TestIngestStopsBetweenGroups(t *testing.T) {
	db, err := Open(t.TempDir(), &Options{NoSync: true, Clock: testClock(), GroupEvents: ChunkEvents, CheckpointBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var acks []int
	res, err := db.IngestFromContext(ctx, Source{Name: "e", SHA256: strings.Repeat("ab", 32)}, false, events(4*ChunkEvents, "s"), "", func(done int, _ bt.Time) {
		acks = append(acks, done)
		if done == 2*ChunkEvents {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	// The third group may have been staged when the second was
	// acknowledged: it is logged, never dropped.
	if n := res.Events; (n != 2*ChunkEvents && n != 3*ChunkEvents) || acks[len(acks)-1] != n || db.Stats().EdgeVersions != n {
		t.Fatalf("result %+v, acks %v, %d edges: want the acknowledged groups and nothing else", res, acks, db.Stats().EdgeVersions)
	}
}
