package sqlengine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/bench"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/eventlog"
	"github.com/tgms-go/tgms/internal/pgtest"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/pgstore"
)

// The benchmark registry on the in-memory engine and under the SQL engine
// on the same store, in one run: TGMS_SQL_REGISTRY_EVENTS=1000000 go test
// -run Registry -v -timeout 2h ./sqlengine/ (skipped without it). A file
// store is synthesized, its log replayed into PostgreSQL (same
// transaction times, same digest), and every query with a SQL form is
// checked for an equal result digest before both engines are timed,
// interleaved (median of reps).
func TestRegistryNativeVsSQL(t *testing.T) {
	n, _ := strconv.ParseInt(os.Getenv("TGMS_SQL_REGISTRY_EVENTS"), 10, 64)
	if n <= 0 {
		t.Skip("set TGMS_SQL_REGISTRY_EVENTS to measure (TGMS_SQL_REGISTRY_RUNS: timed runs per query, default 5)")
	}
	ctx := context.Background()
	db, err := tgms.Open(filepath.Join(t.TempDir(), "store"), &tgms.Options{NoSync: true, Logf: func(string, ...any) {}})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var events []bt.Event
	if _, err := datasets.Synthesize(datasets.SynthConfig{Events: n, Seed: 1, Corrections: 0.01}, func(c []bt.Event) error {
		events = append(events, c...)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Ingest(events, "Node", nil); err != nil {
		t.Fatal(err)
	}
	events = nil
	c, err := pgtest.Start(ctx, t.TempDir(), "fsync=off", "synchronous_commit=off", "full_page_writes=off", "shared_buffers=2GB", "work_mem=256MB", "max_wal_size=8GB")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	url := schemaURL(c, "registry")
	s, err := pgstore.Open(ctx, url, pgstore.Options{Write: true})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := eventlog.ReadFile(filepath.Join(db.Dir(), tgms.LogFile), func(r *eventlog.Record, _ int64) error {
		return s.Append(ctx, r)
	}); err != nil {
		t.Fatal(err)
	}
	load := time.Since(start)
	if s.Digest() != db.Digest() {
		t.Fatalf("PostgreSQL digest %s, file store's %s", s.Digest(), db.Digest())
	}
	st := db.Stats()
	t.Logf("%d edge versions, %d node versions; log replayed into PostgreSQL in %s (%.0f versions/s)",
		st.EdgeVersions, st.NodeVersions, load.Round(time.Millisecond), float64(st.EdgeVersions+st.NodeVersions)/load.Seconds())
	s.Close()
	e, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.conn.Exec(ctx, "ANALYZE"); err != nil {
		t.Fatal(err)
	}
	qs, err := bench.Registry(db)
	if err != nil {
		t.Fatal(err)
	}
	runs := 5
	if r, _ := strconv.Atoi(os.Getenv("TGMS_SQL_REGISTRY_RUNS")); r > 0 {
		runs = r
	}
	median := func(f func() error) (float64, error) {
		var ms []float64
		for range runs {
			t0 := time.Now()
			if err := f(); err != nil {
				return 0, err
			}
			ms = append(ms, float64(time.Since(t0).Microseconds())/1000)
		}
		slices.Sort(ms)
		return ms[len(ms)/2], nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-16s %-24s %12s %12s %9s\n", "query", "operator", "native ms", "sql ms", "sql/native")
	for _, q := range qs {
		want, err := db.Call(ctx, q.Op, q.Args)
		if err != nil {
			t.Fatalf("%s: %v", q.ID, err)
		}
		got, err := ops.ExecuteOn(ctx, e, q.Op, q.Args, ops.ExecOptions{})
		var oe *ops.Error
		if errors.As(err, &oe) && strings.Contains(oe.Message, "no SQL form") {
			fmt.Fprintf(&b, "%-16s %-24s %12s %12s %9s\n", q.ID, q.Op, "", "", "no SQL")
			continue
		}
		if err != nil {
			t.Fatalf("%s under the SQL engine: %v", q.ID, err)
		}
		if got.ResultDigest != want.ResultDigest {
			t.Fatalf("%s: SQL digest %s, native %s", q.ID, got.ResultDigest, want.ResultDigest)
		}
		nat, _ := median(func() error { _, err := db.Call(ctx, q.Op, q.Args); return err })
		sql, err := median(func() error { _, err := ops.ExecuteOn(ctx, e, q.Op, q.Args, ops.ExecOptions{}); return err })
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%-16s %-24s %12.3f %12.3f %8.0f×\n", q.ID, q.Op, nat, sql, sql/max(nat, 0.001))
	}
	t.Log("\n" + b.String())
}
