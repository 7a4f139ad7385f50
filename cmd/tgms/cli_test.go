package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/internal/testenv"
)

const sharedData = "../../../shared/data" // beside the repository root

func needData(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(sharedData, name)
	if _, err := os.Stat(p); err != nil {
		testenv.Missing(t, "%s not found (the SNAP files live in ../shared/data beside the repository)", p)
	}
	return p
}

var digestRE = regexp.MustCompile(`digest ([0-9a-f]{64})`)

// The acceptance check: CollegeMsg ingests to 1,899 nodes and 59,835 edge
// versions, and replaying its log reproduces the digest.
func TestCollegeMsgIngestAndReplay(t *testing.T) {
	file := needData(t, "CollegeMsg.txt.gz")
	dir := t.TempDir()
	store := filepath.Join(dir, "college")
	out, errs, code := runCLI(t, "ingest", "--store", store, "--dataset", "collegemsg", "--file", file)
	if code != 0 {
		t.Fatalf("ingest: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "1899 nodes, 59835 edge versions") {
		t.Fatalf("ingest output: %s", out)
	}
	stats, _, code := runCLI(t, "stats", "--store", store, "--json")
	if code != 0 || !strings.Contains(stats, `"nodes": 1899`) || !strings.Contains(stats, `"edge_versions": 59835`) ||
		!strings.Contains(stats, `"vt_min": 1082040961000000`) || !strings.Contains(stats, `"vt_max": 1098777142000001`) {
		t.Fatalf("stats: %s", stats)
	}
	digest, _, _ := runCLI(t, "digest", "--store", store)
	out, errs, code = runCLI(t, "replay", "--log", filepath.Join(store, "events.wal"), "--store", filepath.Join(dir, "copy"))
	if code != 0 {
		t.Fatalf("replay: exit %d: %s", code, errs)
	}
	m := digestRE.FindStringSubmatch(out)
	if m == nil || m[1] != strings.TrimSpace(digest) {
		t.Fatalf("replay digest %v, store digest %s", m, digest)
	}
}

// The six-batch log of the Python system imports with its transaction
// times: the store matches the documented rows.
func TestImportTGMSPy(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "imported")
	out, errs, code := runCLI(t, "import", "--format", "tgms-py", "--log", "../../eventlog/testdata/anchor-appendix-a.jsonl", "--store", store)
	if code != 0 {
		t.Fatalf("import: exit %d: %s", code, errs)
	}
	// 3 nodes (a, b, c); node versions a, b, c; edge versions: 5 KNOWS + 3 MSG.
	if !strings.Contains(out, "imported 6 batches (0 skipped)") || !strings.Contains(out, "3 nodes, 3 node versions, 8 edge versions") {
		t.Fatalf("import output: %s", out)
	}
	stats, _, _ := runCLI(t, "stats", "--store", store, "--json")
	if !strings.Contains(stats, `"last_tt": 6`) || !strings.Contains(stats, `"batches": 6`) {
		t.Fatalf("transaction times not kept: %s", stats)
	}
	// Importing into a store that has data is refused.
	_, errs, code = runCLI(t, "import", "--format", "tgms-py", "--log", "../../eventlog/testdata/anchor-appendix-a.jsonl", "--store", store)
	if code != 2 || !strings.Contains(errs, "already exists") {
		t.Fatalf("second import: exit %d: %s", code, errs)
	}
}

func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestWriteAndBadInput(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "s")
	good := write(t, dir, "good.jsonl", `{"op":"assert_node","uid":"a","label":"Person","props":{"name":"Ada"}}
{"op":"assert_edge","src":"a","dst":"b","rel_type":"KNOWS","vt_s":"2020-01-01T00:00:00Z","vt_e":"2021-01-01T00:00:00Z"}
`)
	if out, errs, code := runCLI(t, "write", "--store", store, "--ops", good); code != 0 || !strings.Contains(out, "wrote 2 ops") {
		t.Fatalf("write: %d %s %s", code, out, errs)
	}
	digest, _, _ := runCLI(t, "digest", "--store", store)
	cases := []struct {
		name string
		args []string
		file string
		want string
		code int
	}{
		{"unknown op", []string{"write"}, `{"op":"delete","uid":"a"}`, `bad.jsonl:1: field "op": unknown op "delete"`, 2},
		{"truncated json", []string{"write"}, `{"op":"assert_node","uid":"a"` + "\n", "bad.jsonl:1: canon: offset", 2},
		{"bad second line", []string{"write"}, `{"op":"assert_node","uid":"x"}` + "\n" + `{"op":"assert_node","uid":"y","vt_s":5,"vt_e":5}`, "bad.jsonl:2:", 2},
		{"retract unknown", []string{"write"}, `{"op":"assert_node","uid":"z"}` + "\n" + `{"op":"retract","ref":{"kind":"node","uid":"ghost"},"t":3}`, "nothing written", 2},
		{"events end before start", []string{"ingest", "--events"}, `{"src":"a","dst":"b","rel_type":"M","vt_s":1}` + "\n" + `{"src":"a","dst":"b","rel_type":"M","vt_s":10,"vt_e":5}`, "bad.jsonl", 2},
		{"events unknown field", []string{"ingest", "--events"}, `{"src":"a","dst":"b","rel_type":"M","vt_s":1,"color":"red"}`, "bad.jsonl", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bad := write(t, dir, "bad.jsonl", c.file)
			args := append(c.args, bad, "--store", store)
			if c.args[0] == "write" {
				args = []string{"write", "--ops", bad, "--store", store}
			}
			_, errs, code := runCLI(t, args...)
			if code != c.code || !strings.Contains(errs, c.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d mentioning %q", code, errs, c.code, c.want)
			}
			if now, _, _ := runCLI(t, "digest", "--store", store); now != digest {
				t.Fatal("refused input changed the store")
			}
		})
	}
}

func TestDatasetChecksumAndParseErrors(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "s")
	tampered := write(t, dir, "CollegeMsg.txt", "1 2 1082040961\n3 4 1082040962\n")
	_, errs, code := runCLI(t, "ingest", "--store", store, "--dataset", "collegemsg", "--file", tampered)
	if code != 2 || !strings.Contains(errs, "SHA-256") && !strings.Contains(strings.ToLower(errs), "checksum") {
		t.Fatalf("wrong pin: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(store, "events.wal")); err == nil {
		t.Fatal("a refused dataset created a store")
	}
	_, errs, code = runCLI(t, "ingest", "--store", store, "--dataset", "nope")
	if code != 2 || !strings.Contains(errs, "collegemsg") {
		t.Fatalf("unknown dataset: exit %d: %s", code, errs)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"ingest", "--store", "x"},
		{"stats"},
		{"synth", "--store", "x"},
		{"import", "--format", "csv", "--log", "a", "--store", "b"},
		{"stats", "--store", "x", "extra"},
		{"write", "--bogus"},
	} {
		_, errs, code := runCLI(t, args...)
		if code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", args, code, errs)
		}
	}
	_, errs, code := runCLI(t, "stats", "--store", t.TempDir())
	if code != 2 || !strings.Contains(errs, "not a TGMS store") {
		t.Errorf("stats on an empty dir: exit %d: %s", code, errs)
	}
}

func TestDemo(t *testing.T) {
	store := filepath.Join(t.TempDir(), "demo")
	out, errs, code := runCLI(t, "demo", "--store", store, "--events", "5000")
	if code != 0 {
		t.Fatalf("demo: exit %d: %s", code, errs)
	}
	for _, want := range []string{"== stats", "what did we believe about node", "(written by correct)", `{"weight":2}`} {
		if !strings.Contains(out, want) {
			t.Fatalf("demo output lacks %q:\n%s", want, out)
		}
	}
	// Each run writes its report to a fresh path under the system
	// temporary directory, and prints it.
	reportRE := regexp.MustCompile(`== HTML report of the repaired question: (\S+)`)
	first := reportRE.FindStringSubmatch(out)
	out2, errs, code := runCLI(t, "demo", "--store", filepath.Join(t.TempDir(), "demo2"), "--events", "5000")
	second := reportRE.FindStringSubmatch(out2)
	if code != 0 || first == nil || second == nil || first[1] == second[1] {
		t.Fatalf("report paths %v and %v (exit %d: %s)", first, second, code, errs)
	}
	for _, p := range []string{first[1], second[1]} {
		defer os.RemoveAll(filepath.Dir(p))
		if _, err := os.Stat(p); err != nil || !strings.HasPrefix(p, os.TempDir()) {
			t.Fatalf("report %s: %v", p, err)
		}
	}
}

// runCLI runs the command line in-process and returns stdout, stderr and
// the exit code main would use.
func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	root := newRoot(&out, &errb)
	root.SetArgs(args)
	err := root.Execute()
	if err != nil {
		errb.WriteString(err.Error())
	}
	return out.String(), errb.String(), exitCode(err)
}

func TestPlanCheckRunAndVerify(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "s")
	ops := write(t, dir, "ops.jsonl", `{"op":"assert_node","uid":"acme","label":"Org","props":{"name":"ACME Corp"}}
{"op":"ingest","events":[{"src":"acme","dst":"a1","rel_type":"PAY","vt_s":10},{"src":"a1","dst":"a2","rel_type":"PAY","vt_s":20}]}
`)
	if _, errs, code := runCLI(t, "write", "--store", store, "--ops", ops); code != 0 {
		t.Fatal(errs)
	}
	good := write(t, dir, "good.json", `{"plan_id":"p","steps":[
 {"id":"s1","op":"resolve_entities","args":{"query":"ACME"},"depends_on":[]},
 {"id":"s2","op":"temporal_reachability","args":{"src":{"$ref":"s1.rows[0].uid"},"window":{"t_a":0,"t_b":100}},"depends_on":["s1"]}],
 "answer_spec":{"kind":"count","from":"s2.rows_total"}}`)
	bad := write(t, dir, "bad.json", `{"plan_id":"p","steps":[
 {"id":"s1","op":"temporal_reachability","args":{"src":"acme","window":{"t_a":100,"t_b":0}},"depends_on":[]}],
 "answer_spec":{"kind":"count","from":"s1.count"}}`)
	out, _, code := runCLI(t, "plan", "check", "--store", store, good)
	if code != 0 || !strings.Contains(out, `"valid": true`) {
		t.Fatalf("good plan: exit %d: %s", code, out)
	}
	out, _, code = runCLI(t, "plan", "check", "--store", store, bad)
	if code != exitRejected || !strings.Contains(out, "ground.literal_uid") || !strings.Contains(out, "time.window_order") || !strings.Contains(out, "rows_total") {
		t.Fatalf("bad plan: exit %d: %s", code, out)
	}
	if _, _, code := runCLI(t, "plan", "check", "--store", store, filepath.Join(dir, "missing.json")); code != 2 {
		t.Fatalf("missing plan file: exit %d", code)
	}
	trace := filepath.Join(dir, "trace.json")
	out, errs, code := runCLI(t, "plan", "run", "--store", store, good, "--trace", trace)
	if code != 0 || !strings.Contains(out, "answer (count, as of tt") || !strings.Contains(out, "): 2") {
		t.Fatalf("run: exit %d: %s %s", code, out, errs)
	}
	// A later correction does not stop the trace from reproducing.
	fix := write(t, dir, "fix.jsonl", `{"op":"retract","ref":{"kind":"edge","src":"a1","dst":"a2","rel_type":"PAY","disc":"#1.1"},"t":20}`+"\n")
	if _, errs, code := runCLI(t, "write", "--store", store, "--ops", fix); code != 0 {
		t.Fatal(errs)
	}
	out, errs, code = runCLI(t, "trace", "verify", "--store", store, trace)
	if code != 0 || !strings.Contains(out, ": true") {
		t.Fatalf("verify: exit %d: %s %s", code, out, errs)
	}
	// A tampered trace does not verify.
	data, _ := os.ReadFile(trace)
	os.WriteFile(trace, bytes.Replace(data, []byte(`"result_digest": "`), []byte(`"result_digest": "00`), 1), 0o644)
	if out, _, code := runCLI(t, "trace", "verify", "--store", store, trace); code != exitRejected || !strings.Contains(out, "DIFFERS") {
		t.Fatalf("tampered trace: exit %d: %s", code, out)
	}
}

func TestVerifyCommand(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "s")
	ops := write(t, dir, "ops.jsonl", `{"op":"ingest","events":[{"src":"x","dst":"a1","rel_type":"PAY","vt_s":10},{"src":"a1","dst":"a2","rel_type":"PAY","vt_s":20}]}`+"\n")
	if _, errs, code := runCLI(t, "write", "--store", store, "--ops", ops); code != 0 {
		t.Fatal(errs)
	}
	p := write(t, dir, "p.json", `{"plan_id":"p","steps":[{"id":"s1","op":"temporal_reachability","args":{"src":"x","window":{"t_a":0,"t_b":100}},"depends_on":[]}],"answer_spec":{"kind":"count","from":"s1.rows_total"}}`)
	trace := filepath.Join(dir, "t.json")
	if _, errs, code := runCLI(t, "plan", "run", "--store", store, "--uids", "x", p, "--trace", trace); code != 0 {
		t.Fatal(errs)
	}
	ans := write(t, dir, "a.json", `{"text":"x reached 2","claims":[{"id":"c1","kind":"count","step":"s1","path":"rows_total","value":2},{"id":"c2","kind":"complete_set","step":"s1","path":"rows[*].uid","uids":["a1"]}]}`)
	out, errs, code := runCLI(t, "verify", "--trace", trace, "--answer", ans)
	if code != 0 || !strings.Contains(out, "[c1] The count is 2") || !strings.Contains(out, "withheld c2 (unsupported): the claimed set omits 1 member(s): a2") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	bad := write(t, dir, "bad.json", `{"claims":[{"id":"c1","kind":"count","step":"s1","value":2}]}`)
	if _, errs, code := runCLI(t, "verify", "--trace", trace, "--answer", bad); code != 2 || !strings.Contains(errs, `needs "path"`) {
		t.Fatalf("malformed answer: exit %d: %s", code, errs)
	}
}

// The workload commands end to end on a small synthetic store: a suite,
// the agent's answers scored against it, fault injection and the contract
// ablation.
func TestEvalCommands(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "s")
	manifest := filepath.Join(dir, "m.json")
	if _, errs, code := runCLI(t, "synth", "--store", store, "--events", "20000", "--seed", "3", "--manifest", manifest, "--no-sync"); code != 0 {
		t.Fatal(errs)
	}
	suite := filepath.Join(dir, "suite.json")
	before, _, _ := runCLI(t, "digest", "--store", store)
	out, errs, code := runCLI(t, "tasks", "--store", store, "--dataset", "synth", "--seed", "1", "--manifest", manifest, "--out", suite, "--sizes", "t1=12,t3=5,t4=4,probes=2")
	if code != 0 || !strings.Contains(out, "correction probes: 2 injected (written into a copy of the store; the store itself is unchanged)") {
		t.Fatalf("tasks: %s %s", out, errs)
	}
	// tasks never writes into the store it reads.
	if after, _, _ := runCLI(t, "digest", "--store", store); after != before {
		t.Fatalf("tasks changed the store: digest %s, then %s", before, after)
	}
	// The same suite again, with the copy kept: the same gold.
	copyDir := filepath.Join(dir, "probed")
	suite2 := filepath.Join(dir, "suite2.json")
	if out, errs, code := runCLI(t, "tasks", "--store", store, "--dataset", "synth", "--seed", "1", "--manifest", manifest, "--out", suite2, "--sizes", "t1=12,t3=5,t4=4,probes=2", "--probe-store", copyDir); code != 0 {
		t.Fatalf("tasks --probe-store: %s %s", out, errs)
	}
	// Generating twice from one store and seed gives the same bytes: the
	// probes' transaction times come from the store, not the clock.
	a, errA := os.ReadFile(suite)
	b, errB := os.ReadFile(suite2)
	if errA != nil || errB != nil || !bytes.Equal(a, b) {
		t.Fatalf("two suites from one store and seed differ (%v, %v):\n%.400s\n%.400s", errA, errB, a, b)
	}

	answers := filepath.Join(dir, "answers.jsonl")
	out, errs, code = runCLI(t, "eval", "run", "--store", store, "--suite", suite, "--split", "all", "--out", answers)
	if code != 0 || !strings.Contains(out, "emitted answers with an unsupported claim: 0 before gating, 0 after") {
		t.Fatalf("eval run: exit %d: %s %s", code, out, errs)
	}
	if out, _, code := runCLI(t, "score", "--suite", suite, "--answers", answers, "--split", "all"); code != 0 || !strings.Contains(out, "t1") {
		t.Fatalf("score: exit %d: %s", code, out)
	}
	out, errs, code = runCLI(t, "eval", "faults", "--store", store, "--suite", suite, "--out", filepath.Join(dir, "faults.json"), "--classic", "20", "--extended", "10", "--truncated", "2")
	if code != 0 || !regexp.MustCompile(`(?m)^count_pm1 +\d+ +20 +20 +100\.0% \| +20 +0 +0 \| +\d+ +0$`).MatchString(out) {
		t.Fatalf("eval faults: exit %d: %s %s", code, out, errs)
	}
	out, errs, code = runCLI(t, "eval", "contract-ablation", "--store", store, "--suite", suite)
	if code != 0 || !strings.Contains(out, "wrong_field_name") {
		t.Fatalf("contract-ablation: exit %d: %s %s", code, out, errs)
	}
	if _, _, code := runCLI(t, "eval", "run", "--store", store, "--suite", suite, "--out", answers, "--gating", "maybe"); code != 2 {
		t.Fatalf("bad --gating: exit %d", code)
	}
	// The kept copy serves the suite as it is; another store is refused.
	out, errs, code = runCLI(t, "eval", "faults", "--store", copyDir, "--suite", suite2, "--out", filepath.Join(dir, "faults2.json"), "--classic", "20", "--extended", "10", "--truncated", "2")
	if code != 0 || !regexp.MustCompile(`(?m)^count_pm1 +\d+ +20 +20 +100\.0% \| +20 +0 +0 \| +\d+ +0$`).MatchString(out) {
		t.Fatalf("eval faults on the kept copy: exit %d: %s %s", code, out, errs)
	}
	other := filepath.Join(dir, "other")
	if _, errs, code := runCLI(t, "synth", "--store", other, "--events", "20000", "--seed", "4", "--no-sync"); code != 0 {
		t.Fatal(errs)
	}
	if _, errs, code := runCLI(t, "eval", "run", "--store", other, "--suite", suite, "--out", answers); code != 2 || !strings.Contains(errs, "is not the store suite") {
		t.Fatalf("eval run on another store: exit %d: %s", code, errs)
	}
	if after, _, _ := runCLI(t, "digest", "--store", store); after != before {
		t.Fatal("the eval commands changed the store")
	}
}
