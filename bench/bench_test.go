package bench

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
)

// Every registry query runs on a small synthetic store: none is refused or
// unsupported, each reports its timings and answer digest, and every
// answer is non-empty (the arguments are drawn so that each query works).
func TestRegistryRuns(t *testing.T) {
	db := synthStore(t, 20_000, 1)
	qs, err := Registry(db)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 13 {
		t.Fatalf("%d queries, want 13", len(qs))
	}
	for _, r := range Run(context.Background(), db, qs, 1, 3) {
		if r.Status != "ok" || r.Reps < 3 || len(r.Digest) != 64 || r.P95Ms < r.P50Ms {
			t.Errorf("%s (%s): %+v", r.ID, r.Op, r)
		}
		if r.Size == 0 {
			t.Errorf("%s (%s): empty answer for %v", r.ID, r.Op, qs[slices.IndexFunc(qs, func(q Query) bool { return q.ID == r.ID })].Args)
		}
	}
}

func TestRegistryNeedsEdges(t *testing.T) {
	db, err := tgms.Open(t.TempDir(), &tgms.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := Registry(db); err == nil {
		t.Fatal("a registry over an empty store")
	}
}

// The registry is a function of the store: drawn twice, the same queries.
func TestRegistryDeterministic(t *testing.T) {
	db := synthStore(t, 5_000, 2)
	a, err := Registry(db)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Registry(db)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("two draws differ:\n%v\n%v", a, b)
	}
}

// synthStore is a fresh store holding a synthetic graph of n events.
func synthStore(t testing.TB, n int64, seed uint64) *tgms.DB {
	t.Helper()
	return synthStoreWith(t, n, seed, &tgms.Options{NoSync: true, CheckpointBytes: -1})
}

// synthStoreWith is synthStore opened with o.
func synthStoreWith(t testing.TB, n int64, seed uint64, o *tgms.Options) *tgms.DB {
	t.Helper()
	db, err := tgms.Open(t.TempDir(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var evs []bt.Event
	if _, err := datasets.Synthesize(datasets.SynthConfig{Events: n, Seed: seed}, func(c []bt.Event) error {
		evs = append(evs, c...)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Ingest(evs, "", nil); err != nil {
		t.Fatal(err)
	}
	return db
}
