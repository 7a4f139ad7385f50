package campaign

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// With every fsync in place, a crash at any point leaves a store that
// opens with every acknowledged batch, whether the file system keeps only
// what was synced or also a reordered part of the rest.
func TestFSCrash(t *testing.T) {
	for _, reorder := range []bool{false, true} {
		rep, err := FSCrash(context.Background(), FSCrashConfig{Seeds: []uint64{1, 2}, Batches: 8, Reorder: reorder, Draws: 2, Dir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d distinct (workload, crash point) pairs, %d trials: %v", rep.Mode, rep.Pairs, rep.Trials, rep.Outcomes)
		for _, f := range rep.Failures {
			t.Log(f)
		}
		if rep.Outcomes[string(OK)] != rep.Trials || rep.Pairs < 50 {
			t.Fatalf("%s: %v over %d pairs", rep.Mode, rep.Outcomes, rep.Pairs)
		}
	}
}

// Removing any fsync the design relies on turns the campaign red: the
// log's fsync before the ack, the fsync of a new seal (or log header)
// before its rename, and the directory fsync after a rename.
func TestFSCrashGoesRedWithoutAnFsync(t *testing.T) {
	cases := map[string]FSCrashConfig{
		"log fsync":       {SkipSync: func(p string) bool { return filepath.Base(p) == "events.wal" }},
		"new seal fsync":  {SkipSync: func(p string) bool { return strings.Contains(filepath.Base(p), ".seal-") }},
		"directory fsync": {SkipDirSync: true},
	}
	for name, c := range cases {
		c.Seeds, c.Batches, c.Dir = []uint64{1}, 8, t.TempDir()
		rep, err := FSCrash(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("without the %s: %v (%v)", name, rep.Outcomes, rep.ByPoint)
		if rep.Outcomes[string(OK)] == rep.Trials {
			t.Errorf("without the %s the campaign stays green: %v", name, rep.Outcomes)
		}
	}
}
