package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// tgms plan run on a PostgreSQL store: --engine sql runs a plan whose
// steps all have SQL to the trace digest of the in-memory read model; a
// plan with a step without SQL is refused before anything runs, naming
// the step and the operators that have SQL; --engine sql on a directory
// is a usage error.
func TestPlanRunEngineSQL(t *testing.T) {
	p := newPGSynth(t, "sqlplan")
	dir, url := p.Dir, p.URL
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.json", `{"plan_id":"p1","steps":[
 {"id":"s1","op":"resolve_entities","args":{"query":"n1"},"depends_on":[]},
 {"id":"s2","op":"temporal_reachability","args":{"src":{"$ref":"s1.rows[0].uid"},"window":{"t_a":0,"t_b":4000000000000000},"direction":"both"},"depends_on":["s1"]},
 {"id":"s3","op":"compute","args":{"fn":"count","input":{"$ref":"s2.rows"}},"depends_on":["s2"]}],
 "answer_spec":{"kind":"count","from":"s3.value"}}`)
	digest := regexp.MustCompile(`trace digest ([0-9a-f]{64})`)
	run := func(eng string) string {
		t.Helper()
		out, errs, code := runCLI(t, "plan", "run", "--store", url, "--engine", eng, "--trace", filepath.Join(dir, eng+".json"), good)
		m := digest.FindStringSubmatch(out)
		if code != 0 || m == nil || !strings.Contains(out, "certified") || strings.Contains(out, "failed") {
			t.Fatalf("plan run --engine %s: exit %d\n%s%s", eng, code, out, errs)
		}
		if !regexp.MustCompile(`s2 +temporal_reachability +ok +rows_total=[1-9]`).MatchString(out) {
			t.Fatalf("plan run --engine %s reached nobody, a comparison that tests nothing:\n%s", eng, out)
		}
		return m[1]
	}
	if n, s := run(engineNative), run(engineSQL); n != s {
		t.Fatalf("trace digest under --engine sql %s, on the read model %s", s, n)
	}
	bad := write("bad.json", `{"plan_id":"p2","steps":[
 {"id":"s1","op":"resolve_entities","args":{"query":"n1"},"depends_on":[]},
 {"id":"s2","op":"version_history","args":{"kind":"node","window":{"t_a":0,"t_b":4000000000000000}},"depends_on":[]},
 {"id":"s3","op":"compute","args":{"fn":"count","input":{"$ref":"s1.rows"}},"depends_on":["s1"]}],
 "answer_spec":{"kind":"count","from":"s3.value"}}`)
	out, errs, code := runCLI(t, "plan", "run", "--store", url, "--engine", engineSQL, "--uids", "n1,n2", "--trace", filepath.Join(dir, "bad-trace.json"), bad)
	if code != exitInput || !strings.Contains(errs, "step s2 runs version_history") || !strings.Contains(errs, "resolve_entities") || strings.Contains(out, "answer") {
		t.Fatalf("a step without SQL: exit %d\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad-trace.json")); err == nil {
		t.Fatal("a refused plan wrote a trace")
	}
	// The same plan runs on the read model.
	if out, errs, code := runCLI(t, "plan", "run", "--store", url, "--uids", "n1,n2", bad); code != 0 {
		t.Fatalf("the plan on the read model: exit %d %s %s", code, out, errs)
	}
	if _, errs, code := runCLI(t, "plan", "run", "--store", filepath.Join(dir, "nostore"), "--engine", engineSQL, good); code == 0 || !strings.Contains(errs, "PostgreSQL store") {
		t.Fatalf("--engine sql on a directory: exit %d %s", code, errs)
	}
}
