package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestReadEntries(t *testing.T) {
	in := `# comment

{"text":"a"}
{"match":"q2","status":429,"headers":{"Retry-After":"1"},"delay":"5ms"}
{"body":"raw","usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3},"model":"m","finish_reason":"length"}
`
	es, err := ReadEntries(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 3 || es[0].Text != "a" || es[1].Match != "q2" || es[1].Status != 429 || es[1].Delay != 5*time.Millisecond ||
		es[1].Headers["Retry-After"] != "1" || es[2].Usage.TotalTokens != 3 || es[2].Model != "m" {
		t.Errorf("entries = %+v", es)
	}
	var buf bytes.Buffer
	if err := WriteEntries(&buf, es); err != nil {
		t.Fatal(err)
	}
	back, err := ReadEntries(&buf)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(es)
	b, _ := json.Marshal(back)
	if string(a) != string(b) {
		t.Errorf("round trip:\n%s\n%s", a, b)
	}

	bad := []struct{ in, msg string }{
		{"{\"text\":\"a\"}\n{\"txt\":\"b\"}", "line 2"},
		{`{"delay":"soon"}`, "delay"},
		{`{"status":7}`, "status 7"},
		{`not json`, "line 1"},
	}
	for _, b := range bad {
		if _, err := ReadEntries(strings.NewReader(b.in)); err == nil || !strings.Contains(err.Error(), b.msg) {
			t.Errorf("ReadEntries(%q) error = %v, want it to mention %q", b.in, err, b.msg)
		}
	}
	if _, err := LoadEntries(filepath.Join("testdata", "missing.jsonl")); err == nil {
		t.Error("missing file: no error")
	}
}

func TestReplayServer(t *testing.T) {
	es, err := LoadEntries(filepath.Join("testdata", "plain.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	srv, rp := NewReplayServer(es...)
	defer srv.Close()
	rp.Add(Entry{Match: "second", Text: "two"}, Entry{Match: "first", Text: "one"})

	cfg := testConfig(srv.URL)
	cfg.BaseURL = srv.URL // no /v1: the replay server answers both paths
	c, _ := newTestClient(t, cfg)
	ctx := context.Background()
	r, err := c.Complete(ctx, userReq("hello"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Text != "Hello from the replay server." || r.Model != "Qwen/Qwen3-8B" || r.Usage.TotalTokens != 19 {
		t.Errorf("resp = %+v", r)
	}
	// Matching skips entries whose match does not fit.
	if r, err := c.Complete(ctx, userReq("the first one")); err != nil || r.Text != "one" {
		t.Errorf("first: %+v %v", r, err)
	}
	if r, err := c.Complete(ctx, userReq("the second one")); err != nil || r.Text != "two" {
		t.Errorf("second: %+v %v", r, err)
	}
	// An exhausted script answers 400 "replay: …" and is not retried.
	_, err = c.Complete(ctx, userReq("more"))
	if err == nil || !strings.Contains(err.Error(), "replay: no script entry left for request 4") || !strings.Contains(err.Error(), "after 1 attempt") {
		t.Errorf("exhausted: %v", err)
	}
	recs := rp.Requests()
	if len(recs) != 4 || recs[0].Path != "/chat/completions" || recs[1].Entry != 2 || recs[2].Entry != 1 || recs[3].Entry != -1 {
		t.Errorf("recorded %+v", recs)
	}
	if m := recs[1].Messages(); len(m) != 2 || m[1].Content != "the first one" {
		t.Errorf("messages = %+v", m)
	}
	if rp.Remaining() != 0 {
		t.Errorf("remaining %d", rp.Remaining())
	}

	// Wrong route.
	resp, err := http.Get(srv.URL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /v1/models: %d", resp.StatusCode)
	}
}

func TestReplayDefaultUsage(t *testing.T) {
	srv, _ := NewReplayServer(Entry{Text: "12345678"})
	defer srv.Close()
	c, _ := newTestClient(t, testConfig(srv.URL))
	r, err := c.Complete(context.Background(), Request{Messages: []Message{{Role: RoleUser, Content: "abcd"}}})
	if err != nil {
		t.Fatal(err)
	}
	if want := (Usage{PromptTokens: 1, CompletionTokens: 2, TotalTokens: 3}); r.Usage != want {
		t.Errorf("usage %+v, want %+v", r.Usage, want)
	}
}

func TestRecordThenReplay(t *testing.T) {
	srv, _ := NewReplayServer(Entry{Text: `{"a":1}`, Usage: &Usage{PromptTokens: 5, CompletionTokens: 3, TotalTokens: 8}, Model: "real"})
	defer srv.Close()
	inner, _ := newTestClient(t, testConfig(srv.URL))
	var buf bytes.Buffer
	rec := Record(inner, &buf)
	want, err := rec.Complete(context.Background(), userReq("how many?"))
	if err != nil {
		t.Fatal(err)
	}
	es, err := ReadEntries(&buf)
	if err != nil || len(es) != 1 || es[0].Match != "how many?" {
		t.Fatalf("recorded %+v, %v", es, err)
	}
	srv2, _ := NewReplayServer(es...)
	defer srv2.Close()
	c2, _ := newTestClient(t, testConfig(srv2.URL))
	got, err := c2.Complete(context.Background(), userReq("how many?"))
	if err != nil || got.Text != want.Text || got.Usage != want.Usage || got.Model != want.Model {
		t.Errorf("replayed %+v, %v; recorded %+v", got, err, want)
	}
}
