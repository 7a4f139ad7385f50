package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// storeBytes reads every file under dir.
func storeBytes(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func holds(files map[string][]byte, s string) []string {
	var at []string
	for p, b := range files {
		if bytes.Contains(b, []byte(s)) {
			at = append(at, filepath.Base(p))
		}
	}
	return at
}

func TestEraseCommand(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "s")
	ops := write(t, dir, "ops.jsonl", `{"op":"assert_node","uid":"dana","label":"Person","props":{"name":"Dana Quuxley","alias":"DQ-Secretname"},"vt_s":0}
{"op":"assert_node","uid":"bob","label":"Person","props":{"name":"Bob Keepme"},"vt_s":0}
{"op":"assert_node","uid":"carol","label":"Person","props":{"name":"Carol Keeptoo"},"vt_s":0}
{"op":"assert_edge","src":"dana","dst":"bob","rel_type":"KNOWS","disc":"x","props":{"note":"EdgeSecretXyz"},"vt_s":5}
{"op":"assert_edge","src":"bob","dst":"carol","rel_type":"KNOWS","disc":"x","props":{"note":"KeepEdgeAbc"},"vt_s":5}
`)
	if _, errs, code := runCLI(t, "write", "--store", store, "--ops", ops); code != 0 {
		t.Fatal(errs)
	}
	touching := write(t, dir, "dana.json", `{"plan_id":"p","steps":[
 {"id":"s1","op":"resolve_entities","args":{"query":"Dana Quuxley"},"depends_on":[]},
 {"id":"s2","op":"entity_history","args":{"uid":{"$ref":"s1.rows[0].uid"}},"depends_on":["s1"]}],
 "answer_spec":{"kind":"count","from":"s2.rows_total"}}`)
	other := write(t, dir, "carol.json", `{"plan_id":"p","steps":[
 {"id":"s1","op":"resolve_entities","args":{"query":"Carol Keeptoo"},"depends_on":[]},
 {"id":"s2","op":"entity_history","args":{"uid":{"$ref":"s1.rows[0].uid"}},"depends_on":["s1"]}],
 "answer_spec":{"kind":"count","from":"s2.rows_total"}}`)
	traceA, traceB := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	for _, c := range [][2]string{{touching, traceA}, {other, traceB}} {
		if out, errs, code := runCLI(t, "plan", "run", "--store", store, c[0], "--trace", c[1]); code != 0 {
			t.Fatalf("plan run: exit %d: %s %s", code, out, errs)
		}
	}
	for _, c := range [][2]string{{"dana-answer", traceA}, {"carol-answer", traceB}} {
		if out, errs, code := runCLI(t, "answers", "save", "--store", store, "--name", c[0], c[1]); code != 0 {
			t.Fatalf("answers save: exit %d: %s %s", code, out, errs)
		}
	}
	secrets := []string{"Dana Quuxley", "DQ-Secretname", "EdgeSecretXyz"}
	kept := []string{"Bob Keepme", "Carol Keeptoo", "KeepEdgeAbc"}
	before := storeBytes(t, store)
	for _, s := range append(secrets, kept...) {
		if len(holds(before, s)) == 0 {
			t.Fatalf("%q is not in the store before the erase", s)
		}
	}

	// An unknown uid is refused and changes nothing.
	_, errs, code := runCLI(t, "erase", "--store", store, "--uid", "nobody", "--edges")
	if code != 2 || !strings.Contains(errs, `"nobody"`) {
		t.Fatalf("erase of an unknown uid: exit %d: %s", code, errs)
	}
	after := storeBytes(t, store)
	if len(after) != len(before) {
		t.Fatalf("a refused erase changed the files: %d before, %d after", len(before), len(after))
	}
	for p, b := range before {
		if !bytes.Equal(after[p], b) {
			t.Fatalf("a refused erase changed %s", p)
		}
	}

	out, errs, code := runCLI(t, "erase", "--store", store, "--uid", "dana", "--edges")
	if code != 0 || !strings.Contains(out, "1 saved answers erased") {
		t.Fatalf("erase: exit %d: %s %s", code, out, errs)
	}
	after = storeBytes(t, store)
	for _, s := range secrets {
		if at := holds(after, s); len(at) > 0 {
			t.Errorf("erased %q is still in %v", s, at)
		}
	}
	for _, s := range kept {
		if len(holds(after, s)) == 0 {
			t.Errorf("%q was not erased but is gone", s)
		}
	}
	if out, errs, code := runCLI(t, "check", "--store", store, "--full"); code != 0 || !strings.Contains(out, "equals a replay of the whole log") {
		t.Fatalf("check --full after erase: exit %d: %s %s", code, out, errs)
	}
	out, _, code = runCLI(t, "trace", "verify", "--store", store, traceA)
	if code != exitRejected || !strings.Contains(out, "ERASED") {
		t.Fatalf("verify of a trace that read erased content: exit %d: %s", code, out)
	}
	if out, errs, code := runCLI(t, "trace", "verify", "--store", store, traceB); code != 0 || strings.Contains(out, "ERASED") {
		t.Fatalf("verify of a trace that did not: exit %d: %s %s", code, out, errs)
	}
	out, errs, code = runCLI(t, "answers", "list", "--store", store)
	if code != 0 || !strings.Contains(out, "dana-answer") || !strings.Contains(out, "ERASED") || strings.Count(out, "ERASED") != 1 {
		t.Fatalf("answers list: exit %d: %s %s", code, out, errs)
	}
	if _, errs, code := runCLI(t, "answers", "check", "--store", store, "--name", "carol-answer"); code != 0 {
		t.Fatalf("answers check of a kept answer: exit %d: %s", code, errs)
	}
	// A second erase has nothing left to erase.
	if _, errs, code := runCLI(t, "erase", "--store", store, "--uid", "dana", "--edges"); code != 2 || !strings.Contains(errs, "erased already") {
		t.Fatalf("second erase: exit %d: %s", code, errs)
	}
}
