package tgms

import (
	"path/filepath"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/eventlog"
)

// Stores written by the previous format (a version 3 log with 8-byte frame
// headers, a version 2 seal, a version 3 checkpoint), cleanly closed or
// killed right after acknowledging a batch, open with the same digest. A
// writer keeps their log in its own layout (version 3) and appends to it,
// and the store checks clean after.
func TestVersion3StoresOpen(t *testing.T) {
	want := map[string]string{
		"sealed":  "8d86218c38ce917441758626f88aa52d99ccace426b522a045f4be0dc08f71b0",
		"crashed": "02c01ada4459a19c7d6fe789468a709f74a75b34026cf48ce08ec99a5d755b18",
	}
	for name, d := range want {
		dir := filepath.Join(t.TempDir(), name)
		copyTree(t, filepath.Join("testdata", "v3-stores", name), dir)
		for _, ro := range []bool{true, false, true} {
			db, err := quietOpen(dir, nil, Options{ReadOnly: ro})
			if err != nil {
				t.Fatalf("%s read-only %v: %v", name, ro, err)
			}
			if got := db.Digest(); got != d {
				t.Fatalf("%s: digest %s, want %s", name, got, d)
			}
			db.Close()
		}
		db, err := quietOpen(dir, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		n := db.Stats().Batches
		if _, err := db.Write(bt.AssertNode("new", "P", "", bt.Always)); err != nil {
			t.Fatal(err)
		}
		db.Close()
		if _, v, _ := eventlog.ReadHeader(filepath.Join(dir, LogFile), false); v != 3 {
			t.Fatalf("%s: log version %d after a write, want 3 (its own layout)", name, v)
		}
		res, err := Check(dir, true, nil)
		if err != nil || !res.Clean() || res.Batches != n+1 || res.ReplayDigest != res.Digest {
			t.Fatalf("%s after a write: %v %d batches %+v", name, err, res.Batches, res.Findings)
		}
	}
}
