package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEditedTraceIsRefused: a trace whose answer was edited fails 'trace
// verify' (exit 3, naming the field), is refused by 'verify' and 'answers
// save', and never shows up in 'answers list'.
func TestEditedTraceIsRefused(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "s")
	ops := write(t, dir, "ops.jsonl", `{"op":"assert_node","uid":"acme","label":"Org","props":{"name":"ACME Corp"}}
{"op":"ingest","events":[{"src":"acme","dst":"a1","rel_type":"PAY","vt_s":10},{"src":"a1","dst":"a2","rel_type":"PAY","vt_s":20}]}
`)
	if _, errs, code := runCLI(t, "write", "--store", store, "--ops", ops); code != 0 {
		t.Fatal(errs)
	}
	p := write(t, dir, "p.json", `{"plan_id":"p","steps":[
 {"id":"s1","op":"resolve_entities","args":{"query":"ACME"},"depends_on":[]},
 {"id":"s2","op":"temporal_reachability","args":{"src":{"$ref":"s1.rows[0].uid"},"window":{"t_a":0,"t_b":100}},"depends_on":["s1"]}],
 "answer_spec":{"kind":"count","from":"s2.rows_total"}}`)
	trace := filepath.Join(dir, "trace.json")
	if out, errs, code := runCLI(t, "plan", "run", "--store", store, p, "--trace", trace); code != 0 || !strings.Contains(out, "certified") {
		t.Fatalf("run: exit %d: %s %s", code, out, errs)
	}
	data, _ := os.ReadFile(trace)
	for _, want := range []string{`"tgms_trace": 2`, `"certified": true`, `"verdict": "supported"`} {
		if !bytes.Contains(data, []byte(want)) {
			t.Fatalf("trace lacks %s", want)
		}
	}
	if out, errs, code := runCLI(t, "trace", "verify", "--store", store, trace); code != 0 {
		t.Fatalf("verify: exit %d: %s %s", code, out, errs)
	}
	edited := filepath.Join(dir, "edited.json")
	os.WriteFile(edited, bytes.Replace(data, []byte(`"answer": 2,`), []byte(`"answer": 999,`), 1), 0o644)
	out, errs, code := runCLI(t, "trace", "verify", "--store", store, edited)
	if code != exitRejected || !strings.Contains(out, "DIFFERS /answer: recorded 999, recomputed 2") || !strings.Contains(errs, "/answer") {
		t.Fatalf("edited trace: exit %d: %s %s", code, out, errs)
	}
	ans := write(t, dir, "a.json", `{"text":"","claims":[{"id":"c1","kind":"count","step":"s2","path":"rows_total","value":2}]}`)
	if _, errs, code := runCLI(t, "verify", "--trace", edited, "--answer", ans); code != exitRejected || !strings.Contains(errs, "trace_digest") {
		t.Fatalf("verify of an edited trace: exit %d: %s", code, errs)
	}
	if _, errs, code := runCLI(t, "answers", "save", "--store", store, "--name", "x", edited); code != exitRejected || !strings.Contains(errs, "/answer") {
		t.Fatalf("answers save of an edited trace: exit %d: %s", code, errs)
	}
	if out, _, _ := runCLI(t, "answers", "list", "--store", store); strings.Contains(out, "999") {
		t.Fatalf("answers list shows the edited answer: %s", out)
	}
	if _, errs, code := runCLI(t, "answers", "save", "--store", store, "--name", "x", trace); code != 0 {
		t.Fatalf("answers save: exit %d: %s", code, errs)
	}
}
