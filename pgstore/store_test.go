package pgstore

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/eventlog"
	"github.com/tgms-go/tgms/internal/pgtest"
)

func fixedClock() bt.Time { return 1_600_000_000_000_000 }

// synthSmall is a small synthetic stream and its corrections as ops, keyed
// as a one-batch ingest names its edges (#1.<event index>).
func synthSmall(t *testing.T) ([]bt.Event, [][]bt.Op) {
	t.Helper()
	var events []bt.Event
	m, err := datasets.Synthesize(datasets.SynthConfig{Events: 3_000, Seed: 7, Corrections: 0.05}, func(c []bt.Event) error {
		events = append(events, c...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var writes [][]bt.Op
	for _, c := range m.Corrections {
		var key bt.EdgeKey
		if c.Node == "" {
			e := events[c.Event]
			key = bt.EdgeKey{Src: e.Src, Dst: e.Dst, RelType: e.RelType, Disc: bt.AutoDisc(1, c.Event)}
		}
		op, err := c.Op(key)
		if err != nil {
			t.Fatal(err)
		}
		writes = append(writes, []bt.Op{op})
	}
	if len(writes) == 0 {
		t.Fatal("the stream has no corrections")
	}
	return events, writes
}

// fileStore ingests events and applies writes to a new file store.
func fileStore(t *testing.T, events []bt.Event, writes [][]bt.Op) *tgms.DB {
	t.Helper()
	db, err := tgms.Open(filepath.Join(t.TempDir(), "store"), &tgms.Options{NoSync: true, Clock: fixedClock, Logf: func(string, ...any) {}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Ingest(events, "Node", nil); err != nil {
		t.Fatal(err)
	}
	refused := 0
	for _, ops := range writes {
		if _, err := db.Write(ops...); err != nil {
			var oe *bt.OpError
			if !errors.As(err, &oe) {
				t.Fatal(err)
			}
			refused++
		}
	}
	if refused == len(writes) {
		t.Fatal("every correction was refused")
	}
	return db
}

func schemaURL(c *pgtest.Cluster, schema string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable&schema=%s", c.Port, schema)
}

func openPG(t *testing.T, url string, opt Options) *Store {
	t.Helper()
	s, err := Open(context.Background(), url, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// tableDigest is the store digest computed from the version tables alone.
func tableDigest(t *testing.T, url string) string {
	t.Helper()
	ctx := context.Background()
	cfg, schema, err := ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	cfg.RuntimeParams["search_path"] = schema
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	props := func(b []byte) bt.Props {
		p, err := bt.ParseProps(b)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	var nodes []bt.NodeVersion
	rows, _ := conn.Query(ctx, "SELECT uid, label, props::text, vt_s, vt_e, tt_s, tt_e, opened_by, closed_by FROM node_versions")
	var (
		v      bt.NodeVersion
		e      bt.EdgeVersion
		p      []byte
		ob, cb int16
	)
	if _, err := pgx.ForEachRow(rows, []any{&v.UID, &v.Label, &p, &v.Valid.Start, &v.Valid.End, &v.TTs, &v.TTe, &ob, &cb}, func() error {
		v.Props, v.CreatedBy, v.ClosedBy = props(p), bt.OpKind(ob), bt.OpKind(cb)
		nodes = append(nodes, v)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var edges []bt.EdgeVersion
	rows, _ = conn.Query(ctx, "SELECT src, dst, rel_type, disc, props::text, vt_s, vt_e, tt_s, tt_e, opened_by, closed_by FROM edge_versions")
	if _, err := pgx.ForEachRow(rows, []any{&e.Key.Src, &e.Key.Dst, &e.Key.RelType, &e.Key.Disc, &p, &e.Valid.Start, &e.Valid.End, &e.TTs, &e.TTe, &ob, &cb}, func() error {
		e.Props, e.CreatedBy, e.ClosedBy = props(p), bt.OpKind(ob), bt.OpKind(cb)
		edges = append(edges, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(edges, func(a, b bt.EdgeVersion) int { return bt.CompareEdges(&a, &b) })
	slices.SortFunc(nodes, func(a, b bt.NodeVersion) int { return bt.CompareNodes(&a, &b) })
	d := bt.NewDigester()
	for i := range edges {
		d.Edge(&edges[i])
	}
	for i := range nodes {
		d.Node(&nodes[i])
	}
	return d.Sum()
}

// The batches of a file store's log, appended to a PostgreSQL store, give
// the file store's digest when reopened, and so do the version tables.
func TestReplayedLogMatchesFileStore(t *testing.T) {
	c := pgtest.Shared(t)
	events, writes := synthSmall(t)
	db := fileStore(t, events, writes)
	want := db.Digest()
	url := schemaURL(c, "replayed")
	s := openPG(t, url, Options{Write: true})
	n := 0
	if err := eventlog.ReadFile(filepath.Join(db.Dir(), tgms.LogFile), func(r *eventlog.Record, _ int64) error {
		n++
		return s.Append(context.Background(), r)
	}); err != nil {
		t.Fatal(err)
	}
	if n < 2 {
		t.Fatalf("the file store logged %d batches", n)
	}
	if got := s.Digest(); got != want {
		t.Fatalf("digest after appending %d batches: %s, file store's %s", n, got, want)
	}
	s.Close()
	r := openPG(t, url, Options{})
	if got := r.Digest(); got != want {
		t.Fatalf("digest of the reopened store: %s, file store's %s", got, want)
	}
	if got := tableDigest(t, url); got != want {
		t.Fatalf("digest of the version tables: %s, file store's %s", got, want)
	}
	if st := r.Stats(); st.Batches != uint64(n) || st.EdgeVersions != db.Stats().EdgeVersions {
		t.Fatalf("stats %+v, file store's %+v", st, db.Stats())
	}
}

// Ingest and writes through a PostgreSQL store give the digest of the same
// ingest and writes through a file store.
func TestIngestAndWritesMatchFileStore(t *testing.T) {
	c := pgtest.Shared(t)
	events, writes := synthSmall(t)
	want := fileStore(t, events, writes).Digest()
	url := schemaURL(c, "written")
	s := openPG(t, url, Options{Write: true, Clock: fixedClock})
	if _, err := s.Ingest(context.Background(), events, "Node", nil); err != nil {
		t.Fatal(err)
	}
	for _, ops := range writes {
		if _, err := s.Write(context.Background(), ops...); err != nil {
			var oe *bt.OpError
			if !errors.As(err, &oe) {
				t.Fatal(err)
			}
		}
	}
	if got := s.Digest(); got != want {
		t.Fatalf("digest %s, file store's %s", got, want)
	}
	s.Close()
	if got := openPG(t, url, Options{}).Digest(); got != want {
		t.Fatalf("reopened digest %s, file store's %s", got, want)
	}
	if got := tableDigest(t, url); got != want {
		t.Fatalf("version tables' digest %s, file store's %s", got, want)
	}
}

// A refused batch writes nothing: no batch row, no version change.
func TestRefusedBatchWritesNothing(t *testing.T) {
	c := pgtest.Shared(t)
	url := schemaURL(c, "refused")
	s := openPG(t, url, Options{Write: true})
	ctx := context.Background()
	if _, err := s.Write(ctx, bt.AssertNode("a", "Person", "", bt.Interval{Start: 10, End: bt.OpenEnd})); err != nil {
		t.Fatal(err)
	}
	before := s.Digest()
	_, err := s.Write(ctx, bt.Retract(bt.NodeRef("nobody"), 20))
	var oe *bt.OpError
	if !errors.As(err, &oe) {
		t.Fatalf("retracting an unknown node: %v, want an OpError", err)
	}
	s.Close()
	r := openPG(t, url, Options{})
	if r.Digest() != before || r.Stats().Batches != 1 {
		t.Fatalf("after a refused batch: %d batches, digest changed %v", r.Stats().Batches, r.Digest() != before)
	}
}

// A batch row whose payload does not match its checksum is refused with
// its tt, and so is one whose columns disagree with its payload.
func TestDamagedBatchRefused(t *testing.T) {
	c := pgtest.Shared(t)
	ctx := context.Background()
	for _, tc := range []struct{ name, damage, want string }{
		{"payload", "UPDATE batches SET payload = overlay(payload placing '\\xff'::bytea from length(payload) for 1) WHERE seq = 2", "checksum"},
		{"checksum", "UPDATE batches SET checksum = (checksum + 1) % 4294967296 WHERE seq = 2", "checksum"},
		{"source", "UPDATE batches SET source = 'forged' WHERE seq = 2", "disagree"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := schemaURL(c, "damaged_"+tc.name)
			s := openPG(t, url, Options{Write: true})
			var tt2 bt.Time
			for i := range 3 {
				tt, err := s.Write(ctx, bt.AssertNode(fmt.Sprintf("n%d", i), "Person", "", bt.Interval{Start: 10, End: bt.OpenEnd}))
				if err != nil {
					t.Fatal(err)
				}
				if i == 1 {
					tt2 = tt
				}
			}
			if _, err := s.conn.Exec(ctx, tc.damage); err != nil {
				t.Fatal(err)
			}
			s.Close()
			_, err := Open(ctx, url, Options{})
			var ce *ChecksumError
			if !errors.As(err, &ce) || ce.TT != tt2 || !strings.Contains(err.Error(), fmt.Sprint(tt2)) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("open after damaging the batch at tt %d: %v", tt2, err)
			}
		})
	}
}

// A second writer is refused, naming the holder; readers are not.
func TestSecondWriterRefused(t *testing.T) {
	c := pgtest.Shared(t)
	url := schemaURL(c, "locked")
	w := openPG(t, url, Options{Write: true})
	var pid int
	if err := w.conn.QueryRow(context.Background(), "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), url, Options{Write: true})
	var le *LockedError
	if !errors.As(err, &le) || !errors.Is(err, tgms.ErrStoreInUse) || le.PID != pid || !strings.HasPrefix(le.App, "tgms pid ") {
		t.Fatalf("second writer: %v (want the holder's pid %d)", err, pid)
	}
	// A writer that waits gets the store once the holder closes.
	done := make(chan error, 1)
	go func() {
		s, err := Open(context.Background(), url, Options{Write: true, Wait: time.Minute})
		if err == nil {
			s.Close()
		}
		done <- err
	}()
	openPG(t, url, Options{}) // a reader opens beside the writer
	// Another schema is another store, with its own lock.
	openPG(t, schemaURL(c, "other"), Options{Write: true})
	select {
	case err := <-done:
		t.Fatalf("a waiting writer returned (%v) while the holder still held the store", err)
	case <-time.After(500 * time.Millisecond):
	}
	w.Close()
	if err := <-done; err != nil {
		t.Fatalf("the waiting writer: %v", err)
	}
	openPG(t, url, Options{Write: true})
}

// A read-only open of a schema without a store is refused, creating nothing.
func TestReadOnlyOpenOfNoStore(t *testing.T) {
	c := pgtest.Shared(t)
	_, err := Open(context.Background(), schemaURL(c, "empty"), Options{})
	if !errors.Is(err, ErrNoStore) {
		t.Fatalf("read-only open of an empty schema: %v", err)
	}
}

// An ingest of events from before the nodes' believed validity starts
// those nodes at the events (node-start corrections in front of the
// batch), as in a file store.
func TestLateIngestCorrectsNodeStarts(t *testing.T) {
	c := pgtest.Shared(t)
	events, _ := synthSmall(t)
	late, early := events[len(events)/2:], events[:len(events)/2]
	db, err := tgms.Open(filepath.Join(t.TempDir(), "store"), &tgms.Options{NoSync: true, Clock: fixedClock, Logf: func(string, ...any) {}})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	url := schemaURL(c, "late")
	s := openPG(t, url, Options{Write: true, Clock: fixedClock})
	ctx := context.Background()
	for _, part := range [][]bt.Event{late, early} {
		if _, err := db.Ingest(part, "Node", nil); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Ingest(ctx, part, "Node", nil); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := s.Digest(), db.Digest(); got != want {
		t.Fatalf("digest %s, file store's %s", got, want)
	}
	var payload []byte
	if err := s.conn.QueryRow(ctx, "SELECT payload FROM batches WHERE seq = 2").Scan(&payload); err != nil {
		t.Fatal(err)
	}
	rec, err := eventlog.DecodeRecord(payload)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Ops) < 2 || rec.Ops[0].Kind != bt.OpCorrect {
		t.Fatalf("the late batch holds %d ops, want node-start corrections before the ingest", len(rec.Ops))
	}
	if got, want := tableDigest(t, url), db.Digest(); got != want {
		t.Fatalf("version tables' digest %s, file store's %s", got, want)
	}
}
