package bench

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
)

var updateDigests = flag.Bool("update", false, "rewrite testdata/registry_digests.golden")

// The registry's answers on a 200k-event synthetic store are pinned by
// their result digests: a kernel change that alters any answer, by one
// byte of its canonical JSON, turns this red. (-update rewrites the golden
// file; only a deliberate change of an operator's output may do that.)
func TestRegistryDigestsGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 200k-event store")
	}
	db := fixedClockStore(t, 200_000, 1)
	qs, err := Registry(db)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, q := range qs {
		env, err := db.Call(context.Background(), q.Op, q.Args)
		if err != nil {
			t.Fatalf("%s: %v", q.ID, err)
		}
		fmt.Fprintf(&b, "%s %s\n", q.ID, env.ResultDigest)
	}
	path := filepath.Join("testdata", "registry_digests.golden")
	if *updateDigests {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("registry digests changed:\n got:\n%s\nwant:\n%s", got, want)
	}
}

// fixedClockStore is synthStore with transaction times 1, 2, 3, ...
// (answers carry them, so a wall clock would change every digest).
func fixedClockStore(t *testing.T, n int64, seed uint64) *tgms.DB {
	t.Helper()
	var now bt.Time
	return synthStoreWith(t, n, seed, &tgms.Options{NoSync: true, CheckpointBytes: -1, Clock: func() bt.Time { now++; return now }})
}
