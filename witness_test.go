package tgms

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/eventlog"
	"github.com/tgms-go/tgms/internal/fault"
)

// crashAfterAck leaves dir as a writer killed right after acknowledging
// its last batch: the log and the seal as written, no close, no
// checkpoint of the last batches. It returns the digest and the offset of
// the last record.
func crashAfterAck(t *testing.T, dir string, late int) (string, int64) {
	t.Helper()
	closedStore(t, dir)
	db := open(t, dir, nil)
	for i := range late {
		if _, err := db.Write(bt.AssertNode("late"+itoa(i), "P", "", bt.Always)); err != nil {
			t.Fatal(err)
		}
	}
	d := db.Digest()
	start := db.log.Last().Start
	db.sealW.Sync()
	db.log.Sync()
	db.closeFiles() // a kill: nothing more is written
	return d, start
}

func openErr(t *testing.T, dir string, ro bool) error {
	t.Helper()
	db, err := quietOpen(dir, nil, Options{ReadOnly: ro})
	if err == nil {
		db.Close()
		return errOpened
	}
	return err
}

var errOpened = errors.New("opened")

// F1: damage inside the last batch acknowledged after the last close (a
// flipped bit in its length field, a cut inside it, an aligned block of
// zeros) is corruption of an acknowledged batch, never a torn write: every
// open refuses it, the log is not trimmed, and check reports it.
func TestDamageAfterAckIsNeverATornTail(t *testing.T) {
	cases := map[string]func(data []byte, rec int64) []byte{
		"length bit flip": func(d []byte, rec int64) []byte { d[rec+1] ^= 1 << 6; return d },
		"length high bit": func(d []byte, rec int64) []byte { d[rec+3] ^= 0x80; return d },
		"cut inside":      func(d []byte, rec int64) []byte { return d[:rec+10] },
		"cut in header":   func(d []byte, rec int64) []byte { return d[:rec+3] },
		"zero length":     func(d []byte, rec int64) []byte { clear(d[rec : rec+4]); return d },
	}
	for name, damage := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			_, rec := crashAfterAck(t, dir, 2)
			logPath := filepath.Join(dir, LogFile)
			data, _ := os.ReadFile(logPath)
			data = damage(data, rec)
			os.WriteFile(logPath, data, 0o600)
			for _, ro := range []bool{true, false} {
				if err := openErr(t, dir, ro); !errors.Is(err, ErrStoreDamaged) {
					t.Fatalf("read-only %v: %v, want a damaged store", ro, err)
				}
			}
			if got, _ := os.ReadFile(logPath); string(got) != string(data) {
				t.Fatal("the log was changed")
			}
			res, err := Check(dir, true, nil)
			if err != nil || res.Clean() {
				t.Fatalf("check: %v %+v", err, res)
			}
		})
	}
}

// A 512-byte aligned block of zeros inside a big acknowledged record (a
// lost sector) is corruption too.
func TestZeroBlockAfterAckIsCorruption(t *testing.T) {
	dir := t.TempDir()
	closedStore(t, dir)
	db := open(t, dir, nil)
	var evs []bt.Event
	for i := range 400 {
		evs = append(evs, bt.Event{Src: "s" + itoa(i), Dst: "d", RelType: "M", VtS: int64(i)})
	}
	if _, err := db.Ingest(evs, "", nil); err != nil {
		t.Fatal(err)
	}
	last := db.log.Last()
	db.sealW.Sync()
	db.log.Sync()
	db.closeFiles()
	logPath := filepath.Join(dir, LogFile)
	data, _ := os.ReadFile(logPath)
	b := (last.Start + 8 + 511) / 512 * 512
	if b+512 > last.End {
		t.Fatalf("record [%d, %d) holds no aligned block", last.Start, last.End)
	}
	clear(data[b : b+512])
	os.WriteFile(logPath, data, 0o600)
	if err := openErr(t, dir, false); !errors.Is(err, ErrStoreDamaged) {
		t.Fatalf("%v, want a damaged store", err)
	}
}

// F2: after acknowledgements past the last close, an older copy of the
// log, a cut at a record boundary one or three batches back, and the log
// of a written copy of the directory are all refused.
func TestSwapsAfterAckAreRefused(t *testing.T) {
	t.Run("older copy", func(t *testing.T) {
		dir := t.TempDir()
		closedStore(t, dir)
		old, _ := os.ReadFile(filepath.Join(dir, LogFile))
		db := open(t, dir, nil)
		db.Write(bt.AssertNode("late", "P", "", bt.Always))
		db.closeFiles()
		os.WriteFile(filepath.Join(dir, LogFile), old, 0o600)
		if err := openErr(t, dir, true); !errors.Is(err, ErrStoreDamaged) {
			t.Fatalf("%v", err)
		}
	})
	for _, back := range []int{1, 3} {
		t.Run("cut "+itoa(back)+" back", func(t *testing.T) {
			dir := t.TempDir()
			closedStore(t, dir)
			db := open(t, dir, nil)
			var ends []int64
			for i := range 4 {
				db.Write(bt.AssertNode("late"+itoa(i), "P", "", bt.Always))
				ends = append(ends, db.log.End())
			}
			db.closeFiles()
			os.Truncate(filepath.Join(dir, LogFile), ends[len(ends)-1-back])
			if err := openErr(t, dir, true); !errors.Is(err, ErrStoreDamaged) {
				t.Fatalf("%v", err)
			}
		})
	}
	t.Run("fork", func(t *testing.T) {
		a := t.TempDir()
		closedStore(t, a)
		fork := filepath.Join(t.TempDir(), "fork")
		copyTree(t, a, fork)
		var logs []string
		db := open(t, fork, &logs)
		db.Write(bt.AssertNode("forked", "P", "", bt.Always))
		db.Close()
		ida, _ := eventlog.ReadID(filepath.Join(a, LogFile), false)
		idf, _ := eventlog.ReadID(filepath.Join(fork, LogFile), false)
		if ida == idf || !strings.Contains(strings.Join(logs, "\n"), "copy of store") {
			t.Fatalf("the written copy kept the store id %s (warnings %q)", ida, logs)
		}
		// Both open on their own, the fork also from its rewritten checkpoint.
		for _, d := range []string{a, fork} {
			if err := openErr(t, d, false); err != errOpened {
				t.Fatalf("%s: %v", d, err)
			}
		}
		copyFile(t, filepath.Join(fork, LogFile), filepath.Join(a, LogFile))
		if err := openErr(t, a, true); !errors.Is(err, ErrStoreDamaged) {
			t.Fatalf("the fork's log served as the original's: %v", err)
		}
	})
}

// copyTree copies the regular files of dir into a new directory to.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(from)
	for _, e := range ents {
		if e.Type().IsRegular() {
			copyFile(t, filepath.Join(from, e.Name()), filepath.Join(to, e.Name()))
		}
	}
}

// F3: when a checkpoint fails (a full disk), the acknowledged batches are
// still in the seal.
func TestSealAdvancesWhenCheckpointFails(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(dir, &Options{Clock: testClock(), CheckpointBytes: 1, Logf: func(string, ...any) {}})
	if err != nil {
		t.Fatal(err)
	}
	db.Write(bt.AssertNode("a", "P", "", bt.Always))
	fault.SetWriteFailure(3, false) // the log's and the seal's writes pass, the checkpoint's fails
	_, err = db.Write(bt.AssertNode("b", "P", "", bt.Always))
	fault.SetWriteFailure(0, false)
	if err != nil {
		t.Fatalf("write: %v", err)
	}
	end := db.log.End()
	db.closeFiles()
	s, err := eventlog.ReadSeal(filepath.Join(dir, LogFile), false)
	if err != nil || s.Last.End != end || s.Last.Seq != 2 {
		t.Fatalf("seal %+v %v, want batch 2 ending at %d", s.Last, err, end)
	}
	if _, info, err := engine.ReadCheckpoint(filepath.Join(dir, CheckpointFile)); err == nil && info.Last.Seq == 2 {
		t.Fatal("the checkpoint did not fail: the test proves nothing")
	}
}

// F4: with the seal deleted and another store's log copied over, reads
// refuse and a write changes nothing (the checkpoint, maybe the last copy
// of the store's batches, stays).
func TestSwappedLogWithoutSealIsRefused(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	closedStore(t, a)
	closedStore(t, b)
	os.Remove(filepath.Join(a, SealFile))
	copyFile(t, filepath.Join(b, LogFile), filepath.Join(a, LogFile))
	before := snapshotDir(t, a)
	for _, ro := range []bool{true, false} {
		if err := openErr(t, a, ro); !errors.Is(err, ErrStoreDamaged) {
			t.Fatalf("read-only %v: %v", ro, err)
		}
	}
	if snapshotDir(t, a) != before {
		t.Fatal("a refused open changed the store")
	}
}

// A store whose log is of version 3 (it keeps an ack witness) and whose
// seal is missing or damaged in both slots refuses to open.
func TestMissingWitnessIsRefused(t *testing.T) {
	for _, how := range []string{"missing", "damaged"} {
		dir := t.TempDir()
		crashAfterAck(t, dir, 1)
		p := filepath.Join(dir, SealFile)
		if how == "missing" {
			os.Remove(p)
		} else {
			os.WriteFile(p, make([]byte, 384), 0o600)
		}
		err := openErr(t, dir, true)
		var de *DamageError
		if !errors.As(err, &de) || !de.Witnesses || !strings.Contains(err.Error(), "seal") {
			t.Fatalf("%s seal: %v", how, err)
		}
	}
}

// F6: a forged checkpoint that copies the store id and the last record
// from the seal, holding other batches, is refused: its record chain does
// not match the log's.
func TestForgedCheckpointIsRefused(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	closedStore(t, a)
	s, err := eventlog.ReadSeal(filepath.Join(a, LogFile), false)
	if err != nil {
		t.Fatal(err)
	}
	dbb := open(t, b, nil)
	for i := range s.Last.Seq { // as many batches as a, other content
		dbb.Write(bt.AssertNode("x"+itoa(int(i)), "Q", "", bt.Always))
	}
	dbb.Close()
	other, binfo, err := engine.ReadCheckpoint(filepath.Join(b, CheckpointFile))
	if err != nil {
		t.Fatal(err)
	}
	forged := engine.CheckpointInfo{StoreID: s.StoreID, Last: s.Last, Chain: binfo.Chain, HasChain: true}
	if _, err := other.WriteCheckpoint(filepath.Join(a, CheckpointFile), forged); err != nil {
		t.Fatal(err)
	}
	err = openErr(t, a, true)
	var de *DamageError
	if !errors.As(err, &de) || !strings.Contains(err.Error(), "chain") {
		t.Fatalf("forged checkpoint: %v", err)
	}
	if res, err := Check(a, false, nil); err != nil || res.Clean() {
		t.Fatalf("check of a forged checkpoint: %v %+v", err, res)
	}
}

// Stores written by the previous format (a version 2 log, a version 1
// seal, a version 2 checkpoint) open with the same digest, cleanly closed
// or with a batch acknowledged after the seal; a writable open upgrades
// them to an ack witness and keeps the digest.
func TestVersion2StoresOpen(t *testing.T) {
	want := map[string]string{
		"sealed":  "c1963f9de1e4e26a1bd5f547f07a91abb46da8fb48b06f50040fe8176ccc3d67",
		"crashed": "c0746e5f95adc9f743454b5887decc64a42ed993b98fc57620e636ff0993a66b",
	}
	for name, d := range want {
		dir := filepath.Join(t.TempDir(), name)
		copyTree(t, filepath.Join("testdata", "v2-stores", name), dir)
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
		_, v, _ := eventlog.ReadHeader(filepath.Join(dir, LogFile), false)
		s, err := eventlog.ReadSeal(filepath.Join(dir, LogFile), false)
		if v != eventlog.WitnessVersion || err != nil || s.Version != 2 {
			t.Fatalf("%s: not upgraded: log version %d, seal %+v %v", name, v, s, err)
		}
	}
}

// F8: a batch over MaxBatchOps is refused before anything is written.
func TestMaxBatchOps(t *testing.T) {
	dir := t.TempDir()
	db := open(t, dir, nil)
	defer db.Close()
	ops := make([]bt.Op, MaxBatchOps+1)
	for i := range ops {
		ops[i] = bt.AssertNode("n"+itoa(i), "", "", bt.Always)
	}
	end := db.log.End()
	if _, err := db.Write(ops...); err == nil || !strings.Contains(err.Error(), "limit of 100000") {
		t.Fatalf("err = %v", err)
	}
	if n, err := db.WriteBatches([][]bt.Op{ops[:1], ops}); n != 1 || err == nil {
		t.Fatalf("WriteBatches: %d, %v", n, err)
	}
	if db.log.End() == end || db.Stats().Batches != 1 {
		t.Fatal("the batch under the limit was not written")
	}
}

// A damaged slot of the seal is reported, nothing after the other slot
// is taken for a torn write, and a writable open rewrites the seal.
func TestDamagedSealSlot(t *testing.T) {
	dir := t.TempDir()
	crashAfterAck(t, dir, 2)
	p := filepath.Join(dir, SealFile)
	b, _ := os.ReadFile(p)
	s, _ := eventlog.ReadSeal(filepath.Join(dir, LogFile), false)
	older := (s.Gen + 1) % 2 // the slot not holding the newest advance
	b[older*192+30] ^= 1
	os.WriteFile(p, b, 0o600)
	var logs []string
	db, err := quietOpen(dir, &logs, Options{})
	if err != nil || !strings.Contains(strings.Join(logs, "\n"), "slots") {
		t.Fatalf("%v, warnings %q", err, logs)
	}
	db.Close()
	if s, err := eventlog.ReadSeal(filepath.Join(dir, LogFile), false); err != nil || s.Damaged {
		t.Fatalf("the seal was not rewritten: %+v %v", s, err)
	}
}
