package answers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// F9: a symbolic link planted as answers.log is refused, for reading and
// for writing, and nothing is written where it points.
func TestSymlinkedAnswersLogIsRefused(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "elsewhere")
	f, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Planted after the open, pointing nowhere yet.
	if err := os.Symlink(outside, filepath.Join(dir, FileName)); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("open of a dangling link: %v", err)
	}
	if _, err := f.Save("a", testTrace(10, 1), 1); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("save through a link: %v", err)
	}
	if _, err := os.Lstat(outside); !os.IsNotExist(err) {
		t.Fatal("a file was written through the link")
	}
	// A link to an existing answers file is refused on open.
	src, _ := saved(t)
	dir2 := t.TempDir()
	os.Symlink(filepath.Join(src, FileName), filepath.Join(dir2, FileName))
	if _, err := Open(dir2); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("open through a link: %v", err)
	}
}
