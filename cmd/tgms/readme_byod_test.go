package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every command of the README's "Bring your own data" section runs as
// written, in order, against examples/own, and the rebuilt ledger has the
// ledger's digest.
func TestREADMEBringYourOwnData(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "## Bring your own data")
	if !ok {
		t.Fatal(`README.md has no "## Bring your own data" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	_, block, ok := strings.Cut(section, "```sh\n")
	if !ok {
		t.Fatal("the section has no sh block")
	}
	block, _, _ = strings.Cut(block, "```")
	examples, _ := filepath.Abs("../../examples")
	root := t.TempDir()
	if err := os.Symlink(examples, filepath.Join(root, "examples")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	n := 0
	for _, line := range strings.Split(block, "\n") {
		args := shellWords(t, line)
		if len(args) == 0 {
			continue
		}
		if args[0] != "bin/tgms" {
			t.Fatalf("README command %q does not run bin/tgms", line)
		}
		mustRun(t, args[1:]...)
		n++
	}
	if n < 8 {
		t.Fatalf("only %d commands", n)
	}
	if a, b := digestOf(t, "st/ledger"), digestOf(t, "st/ledger-again"); a != b {
		t.Fatalf("rebuilt ledger digest %s, want %s", b, a)
	}
	low := mustRun(t, "call", "--store", "st/ledger", "entity_history", `{"uid":"acct-dia","as_of_tt":1709596800000000}`)
	if !strings.Contains(low, `"risk":"low"`) {
		t.Fatalf("as of 2024-03-05: %s", low)
	}
	if _, err := os.Stat("st/pay-export/edges.parquet"); err != nil {
		t.Fatal(err)
	}
}
