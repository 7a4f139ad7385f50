package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/llm"
)

// askStore builds a small synthetic store with the CLI.
func askStore(t *testing.T) string {
	t.Helper()
	store := filepath.Join(t.TempDir(), "s")
	if _, errs, code := runCLI(t, "synth", "--store", store, "--events", "2000", "--seed", "5"); code != 0 {
		t.Fatalf("synth: exit %d: %s", code, errs)
	}
	return store
}

func storeExtent(t *testing.T, store string) (int64, int64) {
	t.Helper()
	out, errs, code := runCLI(t, "stats", "--store", store, "--json")
	if code != 0 {
		t.Fatalf("stats: %s", errs)
	}
	var st struct {
		VtMin int64 `json:"vt_min"`
		VtMax int64 `json:"vt_max"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("stats json: %v\n%s", err, out)
	}
	return st.VtMin, st.VtMax
}

func TestAskJSON(t *testing.T) {
	store := askStore(t)
	ta, tb := storeExtent(t, store)
	q := fmt.Sprintf("How many nodes can n1 reach along time-respecting paths (each edge no earlier than the one before) with events from %d to %d?", ta, tb)
	html := filepath.Join(t.TempDir(), "r.html")
	out, errs, code := runCLI(t, "ask", "--store", store, q, "--json", "--html", html)
	if code != 0 {
		t.Fatalf("ask: exit %d: %s", code, errs)
	}
	var got struct {
		Answer struct {
			Value any    `json:"value"`
			Kind  string `json:"kind"`
			Text  string `json:"text"`
		} `json:"answer"`
		UIDs     []string         `json:"uids"`
		Claims   []map[string]any `json:"claims"`
		Withheld []map[string]any `json:"withheld"`
		Attempts []map[string]any `json:"attempts"`
		Repairs  int              `json:"repairs"`
		Digest   string           `json:"trace_digest"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	if _, ok := got.Answer.Value.(float64); !ok || got.Answer.Kind != "count" {
		t.Fatalf("answer %+v", got.Answer)
	}
	if len(got.UIDs) != 1 || got.UIDs[0] != "n1" || len(got.Claims) != 1 || got.Claims[0]["verdict"] != "supported" ||
		got.Withheld == nil || len(got.Attempts) != 1 || got.Attempts[0]["admitted"] != true || got.Repairs != 0 || len(got.Digest) != 64 {
		t.Fatalf("shape: %s", out)
	}
	page, err := os.ReadFile(html)
	if err != nil || !strings.Contains(string(page), `id="trace-digest"`) {
		t.Fatalf("html report: %v", err)
	}

	// The human form.
	out, _, code = runCLI(t, "ask", "--store", store, q)
	if code != 0 || !strings.Contains(out, "certified answer (value ") || !strings.Contains(out, "[c1] The count is") {
		t.Fatalf("ask text: exit %d\n%s", code, out)
	}
}

func TestAskUnsupported(t *testing.T) {
	store := askStore(t)
	out, errs, code := runCLI(t, "ask", "--store", store, "What is the best node?")
	if code != 2 || !strings.Contains(errs, "unsupported question") {
		t.Fatalf("exit %d, stdout %s, stderr %s", code, out, errs)
	}
	out, errs, code = runCLI(t, "ask", "--store", store, "What is the best node?", "--json")
	if code != 2 || !strings.Contains(out, `"refusal": "unsupported question`) || !strings.Contains(out, `"value": null`) {
		t.Fatalf("json refusal: exit %d\n%s\n%s", code, out, errs)
	}
	if _, errs, code = runCLI(t, "ask", "--store", store, "x", "--planner", "oracle"); code != 2 || !strings.Contains(errs, "use rule or llm") {
		t.Fatalf("bad planner: exit %d %s", code, errs)
	}
}

// The demo asks its questions through the built-in reader, shows a changed
// answer after a correction, a repaired truncated count and a refusal, and
// writes the HTML report.
func TestDemoAsks(t *testing.T) {
	dir := t.TempDir()
	html := filepath.Join(dir, "report.html")
	out, errs, code := runCLI(t, "demo", "--store", filepath.Join(dir, "demo"), "--events", "5000", "--html", html)
	if code != 0 {
		t.Fatalf("demo: exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"== asking questions (built-in reader: no model, no network)",
		"-- before the correction", "the certified answer changed from 1 to 3",
		"refused at run time: E_LIMIT", "attempt 2: admitted and run",
		`refused: I cannot answer questions that ask for "influential"`, "try: Which 3 nodes sent the most events", "== HTML report of the repaired question: " + html,
	} {
		if !strings.Contains(out, want) {
			t.Fatalf("demo output lacks %q:\n%s", want, out)
		}
	}
	if page, err := os.ReadFile(html); err != nil || !strings.Contains(string(page), `id="attempt-2"`) {
		t.Fatalf("report: %v", err)
	}
}

// A node named by its name, not a uid, is resolved by the plan and the
// reading says which node it resolved to; small raw microsecond times are
// read when written with their unit. A name that matches no node is
// refused after the plan ran.
func TestAskResolvesNames(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "s")
	ops := write(t, dir, "ops.jsonl", `{"op":"assert_node","uid":"acme","label":"Org","props":{"name":"ACME Corp"}}
{"op":"ingest","events":[{"src":"acme","dst":"a1","rel_type":"PAY","vt_s":10},{"src":"a1","dst":"a2","rel_type":"PAY","vt_s":20}]}
`)
	if _, errs, code := runCLI(t, "write", "--store", store, "--ops", ops); code != 0 {
		t.Fatal(errs)
	}
	out, errs, code := runCLI(t, "ask", "--store", store, "--json",
		`How many nodes can "ACME Corp" reach along time-respecting paths (each edge no earlier than the one before) with events from 0 µs to 21 µs?`)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		Answer struct{ Value any } `json:"answer"`
		Plan   map[string]any      `json:"plan"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Answer.Value != float64(2) || !strings.Contains(out, `"op": "resolve_entities"`) {
		t.Fatalf("answer %v:\n%s", got.Answer.Value, out)
	}
	for _, want := range []string{`"intent": "reach-count"`, `"uid": "acme"`, `"by_name": true`, `"t_b": 21`} {
		if !strings.Contains(out, want) {
			t.Fatalf("reading lacks %s:\n%s", want, out)
		}
	}
	out, _, code = runCLI(t, "ask", "--store", store, `How many nodes can "Globex" reach from 0 µs to 21 µs?`)
	if code != 2 || !strings.Contains(out, `the name "Globex" matches no node`) {
		t.Fatalf("unknown name: exit %d:\n%s", code, out)
	}
}

// The first line says how the question was read; an unreadable one is
// refused with exit 2, what was wrong, and suggestions with its own slots.
func TestAskShowsReadingAndRefusesWell(t *testing.T) {
	store := askStore(t)
	out, _, code := runCLI(t, "ask", "--store", store, "How many events did n1 send?")
	if code != 0 || !strings.HasPrefix(out, "Read as: the number of events sent by n1, events in [") || !strings.Contains(out, "no window was written: the whole store") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	// The store has two relation types: "messages" could be either.
	out, _, code = runCLI(t, "ask", "--store", store, "How many messages did n1 send?")
	if code != 2 || !strings.Contains(out, `which relation does "messages" mean?`) {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	out, _, code = runCLI(t, "ask", "--store", store, "How many messages did n1 send on Mayy 3, 2020?")
	if code != 2 || !strings.Contains(out, `I could not read the date "Mayy 3"`) {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	out, _, code = runCLI(t, "ask", "--store", store, "--json", "What is the average number of messages n1 sent?")
	if code != 2 || !strings.Contains(out, `"suggestions": [`) || !strings.Contains(out, "n1") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

// --planner llm against a scripted OpenAI-compatible server: the first
// plan is rejected (an ungrounded uid), the repair is admitted.
func TestAskLLMPlanner(t *testing.T) {
	store := askStore(t)
	ta, tb := storeExtent(t, store)
	good := fmt.Sprintf(`{"plan_id":"p","steps":[{"id":"s1","op":"temporal_reachability","args":{"src":"n1","window":{"t_a":%d,"t_b":%d},"limit":10000},"depends_on":[]}],"answer_spec":{"kind":"count","from":"s1.rows_total"}}`, ta, tb)
	bad := strings.Replace(good, `"src":"n1"`, `"src":"n77"`, 1)
	srv, _ := llm.NewReplayServer(llm.Entry{Text: bad}, llm.Entry{Match: "E_GROUNDING", Text: good})
	defer srv.Close()
	q := fmt.Sprintf("How far does n1 reach between %d and %d?", ta, tb)
	out, errs, code := runCLI(t, "ask", "--store", store, q, "--planner", "llm", "--model", "m", "--api-base", srv.URL+"/v1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	if !strings.Contains(out, `"repairs": 1`) || !strings.Contains(out, `"code": "E_GROUNDING"`) || strings.Contains(out, `"value": null`) {
		t.Fatalf("output:\n%s", out)
	}
}
