package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// trace check, answers save/list/check/refresh, and saved answers
// surviving a checkpoint and a replay.
func TestTraceCheckAndSavedAnswers(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "s")
	ops := write(t, dir, "ops.jsonl", `{"op":"assert_node","uid":"acme","label":"Org","props":{"name":"ACME Corp"}}
{"op":"assert_node","uid":"bob","label":"Person","props":{"name":"Bob"}}
{"op":"ingest","events":[{"src":"acme","dst":"a1","rel_type":"PAY","vt_s":10},{"src":"a1","dst":"a2","rel_type":"PAY","vt_s":20}]}
`)
	if _, errs, code := runCLI(t, "write", "--store", store, "--ops", ops); code != 0 {
		t.Fatal(errs)
	}
	history := write(t, dir, "history.json", `{"plan_id":"h","steps":[{"id":"s1","op":"entity_history","args":{"uid":"acme"},"depends_on":[]}],
 "answer_spec":{"kind":"value","from":"s1.rows[0].props"}}`)
	reach := write(t, dir, "reach.json", `{"plan_id":"r","steps":[{"id":"s1","op":"temporal_reachability","args":{"src":"acme","window":{"t_a":0,"t_b":100}},"depends_on":[]}],
 "answer_spec":{"kind":"count","from":"s1.rows_total"}}`)
	traces := map[string]string{}
	for name, p := range map[string]string{"history": history, "reach": reach} {
		traces[name] = filepath.Join(dir, name+".trace.json")
		if _, errs, code := runCLI(t, "plan", "run", "--store", store, p, "--uids", "acme", "--trace", traces[name]); code != 0 {
			t.Fatal(errs)
		}
		if out, errs, code := runCLI(t, "trace", "check", "--store", store, traces[name]); code != 0 || !strings.Contains(out, "FRESH: nothing written since") {
			t.Fatalf("check %s before writes: exit %d: %s %s", name, code, out, errs)
		}
		if out, errs, code := runCLI(t, "answers", "save", "--store", store, "--name", name, traces[name]); code != 0 || !strings.Contains(out, "generation 1") {
			t.Fatalf("save %s: exit %d: %s %s", name, code, out, errs)
		}
	}
	if _, errs, code := runCLI(t, "answers", "save", "--store", store, "--name", "history", traces["history"]); code != 2 || !strings.Contains(errs, "already saved") {
		t.Fatalf("saving a taken name: exit %d: %s", code, errs)
	}
	data, _ := os.ReadFile(traces["reach"])
	tampered := write(t, dir, "tampered.json", strings.Replace(string(data), `"result_digest": "`, `"result_digest": "00`, 1))
	if _, errs, code := runCLI(t, "answers", "save", "--store", store, "--name", "x", tampered); code != exitRejected {
		t.Fatalf("saving a trace that does not reproduce: exit %d: %s", code, errs)
	}
	if _, _, code := runCLI(t, "trace", "check", "--store", store); code != 2 {
		t.Fatalf("trace check without a file: exit %d", code)
	}

	// A correction of a node neither answer reads flags nothing.
	if _, errs, code := runCLI(t, "write", "--store", store, "--ops", write(t, dir, "bob.jsonl", `{"op":"correct","ref":{"kind":"node","uid":"bob"},"props":{"name":"Robert"}}`+"\n")); code != 0 {
		t.Fatal(errs)
	}
	if out, errs, code := runCLI(t, "answers", "check", "--store", store); code != 0 || strings.Count(out, "FRESH") != 2 {
		t.Fatalf("check after correcting bob: exit %d: %s %s", code, out, errs)
	}

	// Correcting acme flags the history only.
	if _, errs, code := runCLI(t, "write", "--store", store, "--ops", write(t, dir, "acme.jsonl", `{"op":"correct","ref":{"kind":"node","uid":"acme"},"props":{"name":"ACME Inc"}}`+"\n")); code != 0 {
		t.Fatal(errs)
	}
	out, _, code := runCLI(t, "answers", "check", "--store", store)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 1 || len(lines) != 2 || !strings.Contains(lines[0], "history") || !strings.Contains(lines[0], "POSSIBLY STALE: batch 3") ||
		!strings.Contains(lines[0], "correct touched node acme") || !strings.Contains(lines[1], "reach") || !strings.HasSuffix(lines[1], "FRESH") {
		t.Fatalf("check after correcting acme: exit %d:\n%s", code, out)
	}
	out, _, code = runCLI(t, "trace", "check", "--store", store, "--refresh", traces["history"])
	if code != 1 || !strings.Contains(out, "POSSIBLY STALE") || !strings.Contains(out, `new answer: {"name":"ACME Inc"}`) || !strings.Contains(out, "the answer CHANGED") {
		t.Fatalf("trace check --refresh: exit %d: %s", code, out)
	}
	out, errs, code := runCLI(t, "answers", "refresh", "--store", store, "history")
	if code != 0 || !strings.Contains(out, `old answer: {"name":"ACME Corp"}`) || !strings.Contains(out, "generation 2") {
		t.Fatalf("refresh: exit %d: %s %s", code, out, errs)
	}
	if out, _, code := runCLI(t, "answers", "check", "--store", store, "--name", "history"); code != 0 || !strings.Contains(out, "gen 2") {
		t.Fatalf("check after refresh: exit %d: %s", code, out)
	}
	if _, errs, code := runCLI(t, "answers", "refresh", "--store", store, "nope"); code != 2 {
		t.Fatalf("refresh of an unknown name: exit %d: %s", code, errs)
	}

	// Checkpoints and replay keep every generation.
	if _, errs, code := runCLI(t, "checkpoint", "--store", store); code != 0 {
		t.Fatal(errs)
	}
	list, _, _ := runCLI(t, "answers", "list", "--store", store)
	if strings.Count(list, "\n") != 3 || !strings.Contains(list, `answer {"name":"ACME Corp"}`) || !strings.Contains(list, `answer {"name":"ACME Inc"}`) {
		t.Fatalf("list: %s", list)
	}
	copyDir := filepath.Join(dir, "copy")
	if _, errs, code := runCLI(t, "replay", "--log", filepath.Join(store, "events.wal"), "--store", copyDir); code != 0 {
		t.Fatal(errs)
	}
	if again, _, _ := runCLI(t, "answers", "list", "--store", copyDir); again != list {
		t.Fatalf("replayed store lists\n%s\nwant\n%s", again, list)
	}
	if out, _, code := runCLI(t, "answers", "check", "--store", copyDir); code != 0 {
		t.Fatalf("check on the replayed store: exit %d: %s", code, out)
	}
}
