package peers

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/bench"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/engine"

	"github.com/tgms-go/tgms/internal/testenv"
)

func TestSameLines(t *testing.T) {
	for _, tc := range []struct {
		name        string
		ours, peer  []string
		ordered, eq bool
	}{
		{"equal", []string{"a", "b"}, []string{"a", "b"}, true, true},
		{"permuted, unordered", []string{"a", "b"}, []string{"b", "a"}, false, true},
		{"permuted, ordered", []string{"a", "b"}, []string{"b", "a"}, true, false},
		{"missing line", []string{"a", "b"}, []string{"a"}, false, false},
		{"extra line", []string{"a"}, []string{"a", "a"}, false, false},
		{"both empty", nil, nil, true, true},
		{"one value differs", []string{"x|1"}, []string{"x|2"}, false, false},
	} {
		if eq, diff := sameLines(tc.ours, tc.peer, tc.ordered); eq != tc.eq {
			t.Errorf("%s: equal %v (%s), want %v", tc.name, eq, diff, tc.eq)
		}
	}
}

func TestLineText(t *testing.T) {
	for _, tc := range []struct {
		vals []any
		want string
	}{
		{[]any{"n1", int64(3), nil}, "n1|3|null"},
		{[]any{226.0, 3.756927444}, "226|3.75693"},
		{[]any{int32(7), true}, "7|true"},
		{[]any{map[string]any{"b": int64(1), "a": "x"}}, `{"a":"x","b":1}`},
	} {
		if got := line(tc.vals...); got != tc.want {
			t.Errorf("line(%v) = %q, want %q", tc.vals, got, tc.want)
		}
	}
}

// Every registry query has a SQL form.
func TestEveryRegistryQueryHasSQL(t *testing.T) {
	db := synthStore(t, 2_000)
	qs, err := bench.Registry(db)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		if !Supported(q) {
			t.Errorf("%s has no SQL form", q.ID)
		}
	}
}

// synthStore is a synthetic store with corrections and retractions, so
// carved fragments, corrected props and closed versions are all present.
func synthStore(t testing.TB, events int64) *tgms.DB {
	t.Helper()
	db, err := tgms.Open(t.TempDir(), &tgms.Options{NoSync: true, CheckpointBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var evs []bt.Event
	m, err := datasets.Synthesize(datasets.SynthConfig{Events: events, Seed: 3, Corrections: 0.02}, func(c []bt.Event) error {
		evs = append(evs, c...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := db.Ingest(evs, "Node", nil)
	if err != nil {
		t.Fatal(err)
	}
	var batches [][]bt.Op
	db.Read(bt.OpenEnd, func(r engine.Reader) error {
		for _, c := range m.Corrections {
			var key bt.EdgeKey
			if c.Node == "" {
				k, ok := r.Store().AutoEdge(res.FirstSeq+uint64(c.Event/tgms.ChunkEvents), c.Event%tgms.ChunkEvents)
				if !ok {
					t.Fatalf("correction of event %d: no such edge", c.Event)
				}
				key = k
			}
			op, err := c.Op(key)
			if err != nil {
				t.Fatal(err)
			}
			batches = append(batches, []bt.Op{op})
		}
		return nil
	})
	for len(batches) > 0 {
		n, err := db.WriteBatches(batches)
		var oe *bt.OpError
		if err != nil && !errors.As(err, &oe) {
			t.Fatal(err)
		}
		if err == nil {
			break
		}
		batches = batches[n+1:]
	}
	if db.Stats().Batches < 3 {
		t.Fatalf("only %d batches: the corrections were not written", db.Stats().Batches)
	}
	return db
}

// agreeOn loads a synthetic store into the named system and checks that
// every registry query's answer equals the native one; then a query with
// a deliberate error must be caught.
func agreeOn(t *testing.T, name string) {
	ctx := context.Background()
	db := synthStore(t, 20_000)
	dir := t.TempDir()
	tables, err := Export(db, dir)
	if err != nil {
		t.Fatal(err)
	}
	sysDir := filepath.Join(dir, name)
	if err := os.MkdirAll(sysDir, 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, name, sysDir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Load(ctx, tables); err != nil {
		t.Fatal(err)
	}
	qs, err := bench.Registry(db)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := Compare(ctx, db, qs, []*System{s}, Options{Reps: 1, Budget: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(qs) {
		t.Fatalf("%d rows for %d queries", len(rows), len(qs))
	}
	for _, r := range rows {
		if c := r.Peers[name]; c.Status != "ok" || c.Reps < 1 || r.Native.Reps < 1 {
			t.Errorf("%s: native %+v, %s %+v", r.ID, r.Native, name, c)
		}
	}

	// A wrong SQL form (the series shifted by one microsecond) must be
	// reported as a mismatch and not timed.
	orig := queries["series.count"]
	defer func() { queries["series.count"] = orig }()
	wrong := orig
	wrong.sql = func(d dialect, a args) string {
		return strings.Replace(orig.sql(d, a), "vt_s >= ", "vt_s > ", 1)
	}
	queries["series.count"] = wrong
	var series []bench.Query
	for _, q := range qs {
		if q.ID == "series.count" {
			series = append(series, q)
		}
	}
	rows, err = Compare(ctx, db, series, []*System{s}, Options{Reps: 1, Budget: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if c := rows[0].Peers[name]; c.Status != "mismatch" || c.Reps != 0 {
		t.Errorf("a wrong series SQL was not caught: %+v", c)
	}
}

func TestPostgresAgrees(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a PostgreSQL server")
	}
	if _, err := os.Stat(filepath.Join(PostgresBin, "postgres")); err != nil {
		testenv.Missing(t, "no PostgreSQL server binaries: %v", err)
	}
	agreeOn(t, "postgres")
}
