package tgms

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/eventlog"
)

// check --repair --use-checkpoint, when the log and the checkpoint
// disagree (F4 and its relatives): the checkpoint's store is kept whole
// (same digest), the replaced files stay aside, the rebuilt store checks
// clean (a replay of its whole log gives the same digest), takes writes,
// and reopens with them.
func TestRepairUseCheckpoint(t *testing.T) {
	cases := map[string]func(t *testing.T, a, b string){
		"another store's log, seal deleted (F4)": func(t *testing.T, a, b string) {
			os.Remove(filepath.Join(a, SealFile))
			copyFile(t, filepath.Join(b, LogFile), filepath.Join(a, LogFile))
		},
		"another store's log": func(t *testing.T, a, b string) {
			copyFile(t, filepath.Join(b, LogFile), filepath.Join(a, LogFile))
		},
		"log missing": func(t *testing.T, a, b string) {
			os.Remove(filepath.Join(a, LogFile))
		},
		"log damaged in the middle": func(t *testing.T, a, b string) {
			p := filepath.Join(a, LogFile)
			data, _ := os.ReadFile(p)
			data[eventlog.HeaderSize+eventlog.FrameHeaderSize+3] ^= 0x10
			os.WriteFile(p, data, 0o600)
		},
	}
	for name, damage := range cases {
		t.Run(name, func(t *testing.T) {
			a, b := t.TempDir(), t.TempDir()
			want := smallStore(t, a)
			db := open(t, b, nil)
			if _, err := db.Write(bt.AssertNode("b-only", "P", "", bt.Always)); err != nil {
				t.Fatal(err)
			}
			db.Close()
			batches := func(dir string) uint64 {
				db, err := quietOpen(dir, nil, Options{ReadOnly: true})
				if err != nil {
					t.Fatal(err)
				}
				defer db.Close()
				return db.Stats().Batches
			}
			n := batches(a)
			damage(t, a, b)
			if err := openErr(t, a, true); !errors.Is(err, ErrStoreDamaged) {
				t.Fatalf("the damaged store opens: %v", err)
			}
			rep, err := RepairUseCheckpoint(a, &Options{NoSync: true, Logf: t.Logf})
			if err != nil {
				t.Fatalf("repair: %v", err)
			}
			if rep.Digest != want || rep.Batches != n {
				t.Fatalf("repair kept digest %s, %d batches; the store had %s, %d", rep.Digest, rep.Batches, want, n)
			}
			for _, f := range []string{LogFile, CheckpointFile} {
				if m, _ := filepath.Glob(filepath.Join(a, f+".broken-*")); len(m) != 1 && (f != LogFile || name != "log missing") {
					t.Fatalf("%s was not kept aside: %v (kept %v)", f, m, rep.Kept)
				}
			}
			db, err = quietOpen(a, nil, Options{ReadOnly: true})
			if err != nil {
				t.Fatalf("open after repair: %v", err)
			}
			if got := db.Digest(); got != want {
				t.Fatalf("digest after repair %s, want %s", got, want)
			}
			db.Close()
			fullCheck(t, a)
			db = open(t, a, nil)
			if _, err := db.Write(bt.AssertNode("after-repair", "P", "", bt.Always)); err != nil {
				t.Fatal(err)
			}
			db.Close()
			if got := batches(a); got != n+1 {
				t.Fatalf("after a write: %d batches, want %d", got, n+1)
			}
			fullCheck(t, a)
			// The rebuilt log is not read as ops by mistake.
			err = eventlog.ReadFile(filepath.Join(a, LogFile), func(*eventlog.Record, int64) error { return nil })
			if err == nil || !strings.Contains(err.Error(), "store image") {
				t.Fatalf("ReadFile of a rebuilt log: %v", err)
			}
		})
	}
}

// smallStore is closedStore with a small ingest, for tests that open the
// store many times.
func smallStore(t *testing.T, dir string) string {
	t.Helper()
	db := open(t, dir, nil)
	ab := bt.EdgeKey{Src: "a", Dst: "b", RelType: "KNOWS"}
	for _, ops := range [][]bt.Op{
		{bt.AssertNode("a", "Person", mustProps(`{"name":"Ada"}`), bt.Always)},
		{bt.AssertEdge(ab, mustProps(`{"w":1}`), bt.Interval{Start: 10, End: 100})},
		{bt.Correct(bt.EdgeRef(ab), mustProps(`{"w":2}`), bt.Interval{Start: 40, End: 60})},
		{bt.Retract(bt.EdgeRef(ab), 80)},
	} {
		if _, err := db.Write(ops...); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Ingest(events(500, "s"), "", nil); err != nil {
		t.Fatal(err)
	}
	d := db.Digest()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return d
}

func fullCheck(t *testing.T, dir string) {
	t.Helper()
	res, err := Check(dir, true, &Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Clean() || res.ReplayDigest != res.Digest || res.Digest == "" {
		t.Fatalf("check --full after repair: %+v", res.Findings)
	}
}

// A checkpoint that does not verify is never kept as the truth: the
// repair refuses and changes nothing.
func TestRepairUseCheckpointRefusesDamage(t *testing.T) {
	a := t.TempDir()
	smallStore(t, a)
	p := filepath.Join(a, CheckpointFile)
	data, _ := os.ReadFile(p)
	data[len(data)/2] ^= 1
	os.WriteFile(p, data, 0o600)
	before := snapshotDir(t, a)
	if _, err := RepairUseCheckpoint(a, &Options{NoSync: true, Logf: t.Logf}); err == nil || !strings.Contains(err.Error(), "Nothing was changed") {
		t.Fatalf("repair of a damaged checkpoint: %v", err)
	}
	if snapshotDir(t, a) != before {
		t.Fatal("a refused repair changed the store")
	}
}
