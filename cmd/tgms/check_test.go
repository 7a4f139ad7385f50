package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tgms-go/tgms"
)

// checkStore makes a store of two batches with 'tgms write'.
func checkStore(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	store := filepath.Join(dir, "s")
	for i, op := range []string{`{"op":"assert_node","uid":"a","label":"P"}`, `{"op":"assert_node","uid":"b","label":"P"}`} {
		f := write(t, dir, "b"+string(rune('0'+i))+".jsonl", op+"\n")
		if _, errs, code := runCLI(t, "write", "--store", store, "--ops", f); code != 0 {
			t.Fatalf("write: %s", errs)
		}
	}
	return store
}

// F11: check exits 5 for every damaged state (a missing log beside a
// checkpoint, a missing ack witness, witnesses naming other stores), and
// says what each witness says.
func TestCheckExitsFiveForDamage(t *testing.T) {
	cases := map[string]struct {
		damage func(store string)
		want   string
	}{
		"missing log":  {func(s string) { os.Remove(filepath.Join(s, tgms.LogFile)) }, "event log is missing"},
		"missing seal": {func(s string) { os.Remove(filepath.Join(s, tgms.SealFile)) }, "ack witness"},
		"foreign checkpoint": {func(s string) {
			other := checkStore(t)
			b, _ := os.ReadFile(filepath.Join(other, tgms.CheckpointFile))
			os.WriteFile(filepath.Join(s, tgms.CheckpointFile), b, 0o600)
		}, "names another store"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			store := checkStore(t)
			tc.damage(store)
			out, errs, code := runCLI(t, "check", "--store", store)
			if code != exitDamaged || !strings.Contains(out+errs, tc.want) {
				t.Fatalf("exit %d, want %d with %q:\n%s%s", code, exitDamaged, tc.want, out, errs)
			}
			// Reads refuse the same way.
			if _, errs, code := runCLI(t, "stats", "--store", store); code != exitDamaged {
				t.Fatalf("stats: exit %d: %s", code, errs)
			}
		})
	}
}

// --repair --use-log keeps the log, keeps the replaced files aside and
// leaves a clean store.
func TestCheckRepairUseLog(t *testing.T) {
	store := checkStore(t)
	other := checkStore(t)
	b, _ := os.ReadFile(filepath.Join(other, tgms.CheckpointFile))
	os.WriteFile(filepath.Join(store, tgms.CheckpointFile), b, 0o600)
	if _, _, code := runCLI(t, "write", "--store", store, "--ops", write(t, t.TempDir(), "c.jsonl", `{"op":"assert_node","uid":"c"}`+"\n")); code != exitDamaged {
		t.Fatalf("a write ran while the witnesses disagree: exit %d", code)
	}
	out, errs, code := runCLI(t, "check", "--store", store, "--repair", "--use-log")
	if code != 0 || !strings.Contains(out, "kept aside") || !strings.Contains(out, "clean: 2 batches") {
		t.Fatalf("repair: exit %d\n%s%s", code, out, errs)
	}
	if m, _ := filepath.Glob(filepath.Join(store, tgms.CheckpointFile+".broken-*")); len(m) != 1 {
		t.Fatalf("the replaced checkpoint was not kept: %v", m)
	}
	if _, errs, code := runCLI(t, "stats", "--store", store); code != 0 {
		t.Fatalf("stats after repair: %s", errs)
	}
}

// --repair --use-checkpoint keeps the checkpoint when another store's log
// was copied over the store's and its seal deleted (F4): the store keeps
// its digest, the output says what was kept and lost, and the store checks
// clean afterwards.
func TestCheckRepairUseCheckpoint(t *testing.T) {
	store := checkStore(t)
	other := checkStore(t)
	before, _, code := runCLI(t, "check", "--full", "--store", store)
	if code != 0 {
		t.Fatalf("check: exit %d", code)
	}
	b, _ := os.ReadFile(filepath.Join(other, tgms.LogFile))
	os.WriteFile(filepath.Join(store, tgms.LogFile), b, 0o600)
	os.Remove(filepath.Join(store, tgms.SealFile))
	if _, _, code := runCLI(t, "stats", "--store", store); code != exitDamaged {
		t.Fatalf("stats of a store with another's log: exit %d", code)
	}
	out, errs, code := runCLI(t, "check", "--full", "--store", store, "--repair", "--use-checkpoint")
	if code != 0 || !strings.Contains(out, "kept aside") || !strings.Contains(out, "kept: everything the checkpoint held") ||
		!strings.Contains(out, "the old event log's 2 batches") || !strings.Contains(out, "clean: 2 batches") {
		t.Fatalf("repair: exit %d\n%s%s", code, out, errs)
	}
	if d := digestLine(before); d == "" || !strings.Contains(out, d) {
		t.Fatalf("the digest changed: before\n%s\nafter\n%s", before, out)
	}
	if m, _ := filepath.Glob(filepath.Join(store, tgms.LogFile+".broken-*")); len(m) != 1 {
		t.Fatalf("the replaced log was not kept: %v", m)
	}
}

// digestLine is the line of check's output that names the digest.
func digestLine(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "digest") {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// A directory that is no store is bad input (2); check never exits 2 for
// a store.
func TestCheckNoStore(t *testing.T) {
	if _, _, code := runCLI(t, "check", "--store", t.TempDir()); code != exitInput {
		t.Fatalf("exit %d", code)
	}
}
