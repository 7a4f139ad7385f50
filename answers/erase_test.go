package answers

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestRewriteErasesMatchingRecords(t *testing.T) {
	dir := t.TempDir()
	f, _ := Open(dir)
	if _, err := f.Save("keep", testTrace(10, 1), 1); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Save("gone", testTrace(20, 777123), 2); err != nil {
		t.Fatal(err)
	}
	if _, err := f.AddGeneration("gone", testTrace(30, 3), 3); err != nil {
		t.Fatal(err)
	}
	to := filepath.Join(t.TempDir(), FileName)
	n, err := Rewrite(dir, to, func(p []byte) bool { return bytes.Contains(p, []byte("777123")) })
	if err != nil || n != 1 {
		t.Fatalf("rewrite: %d, %v", n, err)
	}
	data, _ := os.ReadFile(to)
	if bytes.Contains(data, []byte("777123")) {
		t.Fatal("the erased answer is still in the file")
	}
	g, err := Open(filepath.Dir(to))
	if err != nil {
		t.Fatal(err)
	}
	gens := g.Generations("gone")
	if len(gens) != 2 || gens[0].Erased == "" || gens[0].Trace != nil || gens[1].Erased != "" || gens[1].Trace == nil {
		t.Fatalf("generations after the rewrite: %+v", gens)
	}
	if k, ok := g.Latest("keep"); !ok || k.Erased != "" || k.Trace == nil {
		t.Fatalf("kept answer: %+v", k)
	}
	// An erased record is kept as it is by a second rewrite.
	to2 := filepath.Join(t.TempDir(), FileName)
	if n, err := Rewrite(filepath.Dir(to), to2, func([]byte) bool { return true }); err != nil || n != 2 {
		t.Fatalf("second rewrite: %d, %v", n, err)
	}
	if _, err := Rewrite(t.TempDir(), filepath.Join(t.TempDir(), FileName), func([]byte) bool { return true }); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("rewrite without a file: %v", err)
	}
}
