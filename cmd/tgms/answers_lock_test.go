package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/answers"
)

// trace check and answers list/check read under the shared lock, beside
// another reader (a read-only server); answers save and refresh append to
// answers.log and are refused while anyone else holds the store.
func TestAnswersLocks(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "s")
	ops := write(t, dir, "ops.jsonl", `{"op":"assert_node","uid":"acme","label":"Org","props":{"name":"ACME Corp"}}
`)
	if _, errs, code := runCLI(t, "write", "--store", store, "--ops", ops); code != 0 {
		t.Fatal(errs)
	}
	p := write(t, dir, "history.json", `{"plan_id":"h","steps":[{"id":"s1","op":"entity_history","args":{"uid":"acme"},"depends_on":[]}],
 "answer_spec":{"kind":"value","from":"s1.rows[0].props"}}`)
	trace := filepath.Join(dir, "h.trace.json")
	if _, errs, code := runCLI(t, "plan", "run", "--store", store, p, "--uids", "acme", "--trace", trace); code != 0 {
		t.Fatal(errs)
	}
	if _, errs, code := runCLI(t, "answers", "save", "--store", store, "--name", "history", trace); code != 0 {
		t.Fatal(errs)
	}
	reader, err := tgms.OpenReadOnly(store, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	before, err := os.ReadFile(filepath.Join(store, answers.FileName))
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"trace", "check", "--store", store, trace},
		{"answers", "list", "--store", store},
		{"answers", "check", "--store", store},
	} {
		if out, errs, code := runCLI(t, args...); code != 0 {
			t.Errorf("%s beside a reader: exit %d: %s %s", strings.Join(args[:2], " "), code, out, errs)
		}
	}
	for _, args := range [][]string{
		{"answers", "save", "--store", store, "--name", "again", trace},
		{"answers", "refresh", "--store", store, "history"},
	} {
		if _, errs, code := runCLI(t, args...); code == 0 || !strings.Contains(errs, "in use") {
			t.Errorf("%s beside a reader: exit %d: %s", strings.Join(args[:2], " "), code, errs)
		}
	}
	after, err := os.ReadFile(filepath.Join(store, answers.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Fatalf("a refused append changed %s", answers.FileName)
	}
}
