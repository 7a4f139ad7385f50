package vfs

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// The image holds what was synced and named by a synced directory: an
// unsynced write is dropped, a rename without a directory sync is undone,
// and reorder mode lets through only pieces of unsynced writes.
func TestCrashFSImage(t *testing.T) {
	dir := t.TempDir()
	fs := NewCrashFS()
	f, err := fs.OpenFile(filepath.Join(dir, "a"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteAt([]byte("durable"), 0)
	f.Sync()
	fs.SyncDir(dir)
	f.WriteAt([]byte("-lost"), 7)
	tmp, _ := fs.CreateTemp(dir, "t-*")
	tmp.Write([]byte("new"))
	tmp.Sync()
	fs.Rename(tmp.Name(), filepath.Join(dir, "b")) // no directory sync
	img := filepath.Join(t.TempDir(), "img")
	if err := fs.Image(dir, img, nil); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(img, "a")); string(b) != "durable" {
		t.Fatalf("a = %q", b)
	}
	if _, err := os.Stat(filepath.Join(img, "b")); !os.IsNotExist(err) {
		t.Fatal("a rename without a directory sync survived")
	}
	fs.SyncDir(dir)
	img2 := filepath.Join(t.TempDir(), "img")
	fs.Image(dir, img2, nil)
	if b, _ := os.ReadFile(filepath.Join(img2, "b")); string(b) != "new" {
		t.Fatalf("b = %q after the directory sync", b)
	}
	// Reorder: the unsynced "-lost" is there whole, in part or not at all,
	// and the synced prefix always.
	seen := map[string]bool{}
	for i := range 64 {
		img := filepath.Join(t.TempDir(), "r")
		fs.Image(dir, img, rand.New(rand.NewPCG(uint64(i), 1)))
		b, _ := os.ReadFile(filepath.Join(img, "a"))
		if string(b[:7]) != "durable" {
			t.Fatalf("reorder lost synced bytes: %q", b)
		}
		seen[string(b)] = true
	}
	if !seen["durable"] || !seen["durable-lost"] {
		t.Fatalf("reorder images %v", seen)
	}
	// A removed fsync keeps nothing.
	fs2 := NewCrashFS()
	fs2.SkipSync = func(string) bool { return true }
	g, _ := fs2.OpenFile(filepath.Join(dir, "c"), os.O_RDWR|os.O_CREATE, 0o644)
	g.WriteAt([]byte("x"), 0)
	g.Sync()
	fs2.SyncDir(dir)
	img3 := filepath.Join(t.TempDir(), "img")
	fs2.Image(dir, img3, nil)
	if b, _ := os.ReadFile(filepath.Join(img3, "c")); len(b) != 0 {
		t.Fatalf("a skipped fsync made %q durable", b)
	}
}
