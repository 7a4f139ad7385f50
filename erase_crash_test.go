package tgms_test

import (
	"fmt"
	"path/filepath"
	"testing"

	tgms "github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/internal/fault"
	"github.com/tgms-go/tgms/internal/vfs"
)

// A crash at any point of an erase leaves either the store before it or
// the store after it: each crash image opens, checks clean, and has the
// digest of one of the two, with the erased text everywhere or nowhere.
func TestEraseCrashAtEveryPoint(t *testing.T) {
	cfs := vfs.NewCrashFS()
	restore := vfs.Set(cfs)
	defer restore()
	dir := t.TempDir()
	eraseStore(t, dir)
	db, err := tgms.Open(dir, &tgms.Options{})
	if err != nil {
		t.Fatal(err)
	}
	oldDigest := db.Digest()
	images := t.TempDir()
	var points []string
	fault.SetHook(func(name string) {
		img := filepath.Join(images, fmt.Sprint(len(points)))
		points = append(points, name)
		if err := cfs.Image(dir, img, nil); err != nil {
			t.Errorf("image at %s: %v", name, err)
		}
	})
	res, err := db.Erase("dana", true)
	fault.SetHook(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	cfs.CloseAll()
	restore()
	if len(points) < 8 {
		t.Fatalf("only %d crash points during an erase: %v", len(points), points)
	}
	var before, after int
	for i, name := range points {
		img := filepath.Join(images, fmt.Sprint(i))
		db, err := tgms.Open(img, &tgms.Options{NoSync: true, Logf: func(string, ...any) {}})
		if err != nil {
			t.Errorf("crash at point %d (%s): the store does not open: %v", i, name, err)
			continue
		}
		d := db.Digest()
		db.Close()
		files := scanStore(t, img)
		secret := find(files, erasedStrings[1])
		switch {
		case d == oldDigest && len(secret) > 0:
			before++
		case d == res.Digest && len(secret) == 0:
			after++
		default:
			t.Errorf("crash at point %d (%s): digest %s (before %s, after %s), erased text in %v", i, name, d, oldDigest, res.Digest, secret)
			continue
		}
		chk, err := tgms.Check(img, true, nil)
		if err != nil || !chk.Clean() {
			t.Errorf("crash at point %d (%s): check --full: %v %v", i, name, err, chk.Findings)
		}
	}
	if before == 0 || after == 0 {
		t.Errorf("crash images: %d before, %d after the erase; want both", before, after)
	}
	t.Logf("%d crash points: %d images before the erase, %d after", len(points), before, after)
}
