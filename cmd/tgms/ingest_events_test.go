package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A refused load into a new store leaves no store behind, and a dry run
// summarizes the table from one streaming pass.
func TestEventTableNewStoreAndDryRun(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "st")
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("a,b,t,k\np,q,2024-01-01T00:00:00Z,PAID\np,r,yesterday,SENT\n"), 0o644)
	args := []string{"ingest", "--store", st, "--file", bad, "--src", "a", "--dst", "b", "--time", "t", "--rel-type-col", "k"}
	_, errs, code := runCLI(t, args...)
	if code != exitInput || !strings.Contains(errs, `bad.csv:3: column "t": value "yesterday"`) {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(st); !os.IsNotExist(err) {
		t.Fatalf("a refused load into a new store left %s (%v)", st, err)
	}
	good := filepath.Join(dir, "good.csv")
	os.WriteFile(good, []byte("a,b,t,k\np,q,2024-01-01T00:00:00Z,PAID\np,r,2024-01-03T00:00:00Z,SENT\nq,r,2024-01-02T00:00:00Z,PAID\n"), 0o644)
	args[4] = good
	out := mustRun(t, append(args, "--dry-run")...)
	for _, want := range []string{"3 events in 1 batches", "3 distinct node uids", "valid time 2024-01-01T00:00:00Z .. 2024-01-03T00:00:00.000001Z", "rel type PAID                 2", "e.g. p -[PAID]-> q"} {
		if !strings.Contains(out, want) {
			t.Errorf("dry run: no %q in\n%s", want, out)
		}
	}
	if _, err := os.Stat(st); !os.IsNotExist(err) {
		t.Fatal("a dry run created the store")
	}
	out = mustRun(t, args...)
	if !strings.Contains(out, "ingested 3 events") || !strings.Contains(out, "3 nodes") {
		t.Fatalf("load: %s", out)
	}
}
