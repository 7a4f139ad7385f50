package tgms

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/eventlog"

	"github.com/tgms-go/tgms/internal/testenv"
)

// closedStore writes a history into a new store and closes it (checkpoint
// and seal cover the whole log); it returns the digest.
func closedStore(t *testing.T, dir string) string {
	t.Helper()
	db := open(t, dir, nil)
	history(t, db)
	d := db.Digest()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return d
}

func quietOpen(dir string, logs *[]string, o Options) (*DB, error) {
	o.NoSync = true
	o.Logf = func(f string, a ...any) {
		if logs != nil {
			*logs = append(*logs, f)
		}
	}
	return Open(dir, &o)
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Another store's checkpoint is never served, and never silently replaced
// either (it may be the last copy of that store's batches): the witnesses
// disagree, so reads and writes refuse, nothing is changed, and the error
// says what each file says.
func TestForeignCheckpointIsRefused(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	want := closedStore(t, a)
	db := open(t, b, nil)
	if _, err := db.Write(bt.AssertNode("z", "Other", "", bt.Always)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_ = want
	copyFile(t, filepath.Join(b, CheckpointFile), filepath.Join(a, CheckpointFile))
	before := snapshotDir(t, a)
	for _, ro := range []bool{true, false} {
		_, err := quietOpen(a, nil, Options{ReadOnly: ro})
		var de *DamageError
		if !errors.As(err, &de) || !de.Witnesses || !strings.Contains(err.Error(), "names another store") ||
			!strings.Contains(err.Error(), "the seal: store id") || !strings.Contains(err.Error(), "--use-log") {
			t.Fatalf("read-only %v: err = %v", ro, err)
		}
	}
	if after := snapshotDir(t, a); after != before {
		t.Fatalf("a refused open changed the store:\n%s\n%s", before, after)
	}
}

// snapshotDir describes every file of dir (name, size, SHA-256).
func snapshotDir(t *testing.T, dir string) string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, e := range ents {
		if e.Name() == lockFile {
			continue
		}
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		fmt.Fprintf(&out, "%s %d %x\n", e.Name(), len(b), sha256.Sum256(b))
	}
	return out.String()
}

// A stale checkpoint (of the same store, covering fewer batches) is fine:
// the log after it is replayed.
func TestStaleCheckpointReplaysTheRest(t *testing.T) {
	dir := t.TempDir()
	db := open(t, dir, nil)
	history(t, db)
	db.Checkpoint()
	stale, _ := os.ReadFile(filepath.Join(dir, CheckpointFile))
	db.Write(bt.AssertNode("late", "P", "", bt.Always))
	want := db.Digest()
	db.Close()
	os.WriteFile(filepath.Join(dir, CheckpointFile), stale, 0o644)
	db, err := quietOpen(dir, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.Digest() != want {
		t.Fatal("stale checkpoint lost the batches after it")
	}
}

// Another store's log is refused by its store id: the checkpoint and the
// seal both name this store.
func TestSwappedLogIsRefused(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	closedStore(t, a)
	closedStore(t, b) // the same history, another store id
	copyFile(t, filepath.Join(b, LogFile), filepath.Join(a, LogFile))
	before, _ := os.ReadFile(filepath.Join(a, LogFile))
	_, err := quietOpen(a, nil, Options{})
	var de *DamageError
	if !errors.As(err, &de) || !errors.Is(err, ErrStoreDamaged) || !strings.Contains(err.Error(), "name different stores") {
		t.Fatalf("err = %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(a, LogFile)); !bytes.Equal(before, after) {
		t.Fatal("refused open changed the log")
	}
}

// A log cut exactly at a record boundary while the checkpoint lags is
// caught by the seal.
func TestTruncatedAtBoundaryIsRefused(t *testing.T) {
	dir := t.TempDir()
	db := open(t, dir, nil)
	history(t, db)
	db.Checkpoint()
	ckptEnd := db.log.End()
	stale, _ := os.ReadFile(filepath.Join(dir, CheckpointFile))
	db.Write(bt.AssertNode("late", "P", "", bt.Always))
	db.Write(bt.AssertNode("later", "P", "", bt.Always))
	db.Close()
	// The checkpoint lags (as after a crash), and the log is cut back to it.
	os.WriteFile(filepath.Join(dir, CheckpointFile), stale, 0o644)
	os.Truncate(filepath.Join(dir, LogFile), ckptEnd)
	for _, ro := range []bool{false, true} {
		_, err := quietOpen(dir, nil, Options{ReadOnly: ro})
		if !errors.Is(err, ErrStoreDamaged) || !strings.Contains(err.Error(), "truncated") {
			t.Fatalf("read-only %v: err = %v", ro, err)
		}
	}
	if st, _ := os.Stat(filepath.Join(dir, LogFile)); st.Size() != ckptEnd {
		t.Fatal("refused open changed the log")
	}
}

// A missing log with a checkpoint beside it is refused, not recreated empty.
func TestMissingLogIsRefused(t *testing.T) {
	dir := t.TempDir()
	closedStore(t, dir)
	os.Remove(filepath.Join(dir, LogFile))
	if _, err := quietOpen(dir, nil, Options{}); !errors.Is(err, ErrStoreDamaged) || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, LogFile)); err == nil {
		t.Fatal("a new empty log was created")
	}
}

// A bit flip in the last acknowledged record refuses to open; nothing is cut.
func TestFlipInLastRecordRefuses(t *testing.T) {
	dir := t.TempDir()
	closedStore(t, dir)
	logPath := filepath.Join(dir, LogFile)
	data, _ := os.ReadFile(logPath)
	data[len(data)-3] ^= 0x10
	os.WriteFile(logPath, data, 0o644)
	os.Remove(filepath.Join(dir, CheckpointFile))
	_, err := quietOpen(dir, nil, Options{})
	var de *DamageError
	if !errors.As(err, &de) || de.File != logPath || de.Offset <= 0 || !strings.Contains(err.Error(), "tgms check") {
		t.Fatalf("err = %v", err)
	}
	if got, _ := os.ReadFile(logPath); !bytes.Equal(got, data) {
		t.Fatal("the damaged log was changed")
	}
}

// Store files that are links are refused unless allowed; a planted
// temporary link is not followed when the log is created.
func TestSymlinkedFilesAreRefused(t *testing.T) {
	dir := t.TempDir()
	closedStore(t, dir)
	elsewhere := filepath.Join(t.TempDir(), "ckpt")
	os.Rename(filepath.Join(dir, CheckpointFile), elsewhere)
	os.Symlink(elsewhere, filepath.Join(dir, CheckpointFile))
	if _, err := quietOpen(dir, nil, Options{}); !errors.Is(err, ErrStoreDamaged) || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("err = %v", err)
	}
	db, err := quietOpen(dir, nil, Options{AllowSymlinks: true})
	if err != nil {
		t.Fatalf("allowed: %v", err)
	}
	db.Close()

	fresh := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(victim, []byte("keep"), 0o644)
	os.Symlink(victim, filepath.Join(fresh, LogFile+".tmp"))
	db = open(t, fresh, nil)
	db.Close()
	if got, _ := os.ReadFile(victim); string(got) != "keep" {
		t.Fatalf("planted link followed: %q", got)
	}
}

// Temporary files left by a killed checkpoint are removed on open.
func TestStaleTempsRemoved(t *testing.T) {
	dir := t.TempDir()
	closedStore(t, dir)
	for _, n := range []string{".checkpoint-123", ".checkpoint-456", ".seal-9", LogFile + ".tmp-77"} {
		os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644)
	}
	var logs []string
	db, err := quietOpen(dir, &logs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	left, _ := filepath.Glob(filepath.Join(dir, ".*"))
	left2, _ := filepath.Glob(filepath.Join(dir, "*.tmp-*"))
	if len(left)+len(left2) != 0 || len(logs) == 0 {
		t.Fatalf("left %v %v, warnings %q", left, left2, logs)
	}
}

// Readers share the store, never write to it, and exclude a writer, whose
// error names them; a writer's error for a reader names the writer.
func TestReadersShareAndExcludeWriters(t *testing.T) {
	dir := t.TempDir()
	want := closedStore(t, dir)
	// Leave a torn tail: readers must not trim it.
	f, _ := os.OpenFile(filepath.Join(dir, LogFile), os.O_APPEND|os.O_WRONLY, 0)
	f.Write([]byte{0x40, 0, 0, 0, 1, 2, 3})
	f.Close()
	snapshot := dirBytes(t, dir)
	r1, err := OpenReadOnly(dir, &Options{Logf: func(string, ...any) {}})
	if err != nil {
		t.Fatal(err)
	}
	r2, err := OpenReadOnly(dir, &Options{Logf: func(string, ...any) {}})
	if err != nil {
		t.Fatalf("second reader: %v", err)
	}
	if r1.Digest() != want || r2.Digest() != want {
		t.Fatal("readers see other data")
	}
	if _, err := r1.Write(bt.AssertNode("x", "", "", bt.Always)); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("write to a reader: %v", err)
	}
	_, err = quietOpen(dir, nil, Options{})
	var iu *InUseError
	if !errors.Is(err, ErrStoreInUse) || !errors.As(err, &iu) || len(iu.Holders) == 0 || !strings.Contains(err.Error(), "shared lock") {
		t.Fatalf("writer beside readers: %v", err)
	}
	r1.Close()
	r2.Close()
	if !maps.Equal(dirBytes(t, dir), snapshot) {
		t.Fatal("read-only opens changed the store directory")
	}
	// A reader waits for a writer to finish, or names it.
	w, err := quietOpen(dir, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = OpenReadOnly(dir, nil)
	if !errors.Is(err, ErrStoreInUse) || !strings.Contains(err.Error(), "writing since") {
		t.Fatalf("reader beside a writer: %v", err)
	}
	go func() { time.Sleep(100 * time.Millisecond); w.Close() }()
	r, err := OpenReadOnly(dir, &Options{Wait: 10 * time.Second, Logf: func(string, ...any) {}})
	if err != nil {
		t.Fatalf("reader with Wait: %v", err)
	}
	r.Close()
}

// A read-only open of a directory that is no store creates nothing.
func TestReadOnlyNeverCreates(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "none")
	if _, err := OpenReadOnly(dir, nil); err == nil {
		t.Fatal("read-only open of a missing store succeeded")
	}
	if _, err := os.Stat(dir); err == nil {
		t.Fatal("read-only open created the directory")
	}
}

// The holder of a store in another process is named with its pid.
func TestInUseNamesOtherProcess(t *testing.T) {
	if _, err := os.Stat("/proc/locks"); err != nil {
		testenv.Missing(t, "no /proc/locks")
	}
	dir := t.TempDir()
	closedStore(t, dir)
	cmd := exec.Command("flock", "-s", filepath.Join(dir, lockFile), "-c", "echo held; sleep 5")
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		testenv.Missing(t, "no flock(1)")
	}
	defer cmd.Process.Kill()
	var buf [5]byte
	if _, err := out.Read(buf[:]); err != nil {
		t.Fatal(err)
	}
	_, err := quietOpen(dir, nil, Options{})
	if !errors.Is(err, ErrStoreInUse) || !strings.Contains(err.Error(), "sleep 5") || !strings.Contains(err.Error(), "shared lock") {
		t.Fatalf("holder not named: %v", err)
	}
}

func dirBytes(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		out[e.Name()] = string(b)
	}
	return out
}

// A repeat ingest of the same content is refused unless allowed, and the
// source is in the log.
func TestRepeatIngestRefused(t *testing.T) {
	dir := t.TempDir()
	db := open(t, dir, nil)
	defer db.Close()
	src := Source{Name: "tiny", SHA256: strings.Repeat("ab", 32)}
	evs := events(120_000, "a")
	if _, err := db.IngestFrom(src, false, evs, "", nil); err != nil {
		t.Fatal(err)
	}
	before := db.Stats().EdgeVersions
	_, err := db.IngestFrom(src, false, events(10, "b"), "", nil)
	var re *RepeatIngestError
	if !errors.As(err, &re) || re.Batches != 3 || re.FirstSeq != 1 || !strings.Contains(err.Error(), "--again") {
		t.Fatalf("repeat: %v", err)
	}
	if db.Stats().EdgeVersions != before {
		t.Fatal("refused repeat wrote events")
	}
	if _, err := db.IngestFrom(src, true, events(10, "b"), "", nil); err != nil {
		t.Fatalf("repeat allowed: %v", err)
	}
	db.Close()
	var texts []string
	eventlog.ReadFile(filepath.Join(dir, LogFile), func(r *eventlog.Record, _ int64) error {
		texts = append(texts, r.Source)
		return nil
	})
	if len(texts) != 4 || texts[0] != "sha256="+src.SHA256+" part=1/3 name=tiny" || texts[3] != "sha256="+src.SHA256+" part=1/1 name=tiny" {
		t.Fatalf("sources in the log: %q", texts)
	}
	db = open(t, dir, nil)
	if _, err := db.IngestFrom(src, false, events(10, "c"), "", nil); !errors.Is(err, ErrRepeatIngest) {
		t.Fatalf("repeat after reopen: %v", err)
	}
	if s := db.Sources(); len(s) != 2 || s[0].Batches != 3 || s[1].Batches != 1 {
		t.Fatalf("Sources %+v", s)
	}
}
