package llm

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tgms-go/tgms/canon"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// sleeps records the delays a client asked for instead of sleeping.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeps) get() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

func testConfig(url string) Config {
	return Config{BaseURL: url + "/v1", Model: "test-model", Backoff: time.Millisecond}
}

func newTestClient(t *testing.T, cfg Config) (*OpenAI, *sleeps) {
	t.Helper()
	c, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	s := &sleeps{}
	c.sleep = s.sleep
	return c, s
}

func userReq(text string) Request {
	return Request{Messages: []Message{{Role: RoleSystem, Content: "You plan queries."}, {Role: RoleUser, Content: text}}}
}

// checkGolden compares got with testdata/name, rewriting it under -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./llm -update to create it)", err)
	}
	if string(want) != string(got) {
		t.Errorf("%s differs (run go test ./llm -update if the change is intended)\ngot:  %s\nwant: %s", path, got, want)
	}
}

func canonBody(t *testing.T, b []byte) []byte {
	t.Helper()
	c, err := canon.Canonicalize(b)
	if err != nil {
		t.Fatalf("request body is not JSON: %v\n%s", err, b)
	}
	return append(c, '\n')
}

func TestComplete(t *testing.T) {
	seven := int64(7)
	tests := []struct {
		name   string
		script []Entry
		cfg    func(*Config)
		req    Request
		golden string // golden file for the request body, if any
		check  func(t *testing.T, resp Response, recs []Recorded)
	}{
		{
			name:   "plain",
			script: []Entry{{Text: "Hello.", Usage: &Usage{PromptTokens: 12, CompletionTokens: 3, TotalTokens: 15}, Model: "served"}},
			req:    userReq("How many nodes?"),
			golden: "request_plain.golden.json",
			check: func(t *testing.T, resp Response, recs []Recorded) {
				if resp.Text != "Hello." || resp.Model != "served" || resp.Attempts != 1 || resp.Cached || resp.Format != "" || resp.FinishReason != "stop" {
					t.Errorf("resp = %+v", resp)
				}
				if recs[0].Path != "/v1/chat/completions" {
					t.Errorf("path = %s", recs[0].Path)
				}
				if got := recs[0].Header.Get("Authorization"); got != "Bearer EMPTY" {
					t.Errorf("Authorization = %q, want Bearer EMPTY", got)
				}
				if _, ok := recs[0].Params["response_format"]; ok {
					t.Errorf("response_format sent without a schema")
				}
			},
		},
		{
			name:   "truncated answer",
			script: []Entry{{Text: `{"steps":[`, FinishReason: "length"}},
			req:    Request{Messages: []Message{{Role: RoleUser, Content: "q"}}, MaxTokens: 5},
			check: func(t *testing.T, resp Response, recs []Recorded) {
				if resp.FinishReason != "length" {
					t.Errorf("finish reason %q", resp.FinishReason)
				}
				if _, err := ExtractJSON(resp.Text); err == nil || !strings.Contains(err.Error(), "MaxTokens") {
					t.Errorf("ExtractJSON of a truncated answer: %v", err)
				}
			},
		},
		{
			name:   "usage recorded",
			script: []Entry{{Text: "x", Usage: &Usage{PromptTokens: 100, CompletionTokens: 20, TotalTokens: 120}}},
			req:    userReq("q"),
			check: func(t *testing.T, resp Response, recs []Recorded) {
				if want := (Usage{100, 20, 120}); resp.Usage != want {
					t.Errorf("usage = %+v, want %+v", resp.Usage, want)
				}
				if resp.Model != "test-model" {
					t.Errorf("model = %q, want the requested one echoed", resp.Model)
				}
			},
		},
		{
			name:   "temperature 0 and seed 0 sent by default",
			script: []Entry{{Text: "x"}},
			req:    userReq("q"),
			check: func(t *testing.T, resp Response, recs []Recorded) {
				p := recs[0].Params
				if v, ok := p["temperature"]; !ok || v != float64(0) {
					t.Errorf("temperature = %v (present %v), want 0", v, ok)
				}
				if v, ok := p["seed"]; !ok || v != float64(0) {
					t.Errorf("seed = %v (present %v), want 0", v, ok)
				}
				if _, ok := p["max_tokens"]; ok {
					t.Errorf("max_tokens sent though unset")
				}
			},
		},
		{
			name:   "seed, key, max tokens and extra",
			script: []Entry{{Text: "x"}},
			cfg: func(c *Config) {
				c.Seed = &seven
				c.APIKey = "sk-test"
				c.Extra = map[string]any{"chat_template_kwargs": map[string]any{"enable_thinking": false}}
			},
			req:    Request{Messages: []Message{{Role: RoleUser, Content: "q"}}, MaxTokens: 4096},
			golden: "request_options.golden.json",
			check: func(t *testing.T, resp Response, recs []Recorded) {
				if got := recs[0].Header.Get("Authorization"); got != "Bearer sk-test" {
					t.Errorf("Authorization = %q", got)
				}
			},
		},
		{
			name:   "schema sent as json_schema",
			script: []Entry{{Text: `{"n":1}`}},
			req: Request{Messages: []Message{{Role: RoleUser, Content: "q"}}, SchemaName: "plan v1",
				JSONSchema: map[string]any{"type": "object", "required": []string{"n"}, "properties": map[string]any{"n": map[string]any{"type": "integer"}}}},
			golden: "request_schema.golden.json",
			check: func(t *testing.T, resp Response, recs []Recorded) {
				if resp.Format != "json_schema" {
					t.Errorf("format = %q", resp.Format)
				}
			},
		},
		{
			name:   "structured output off",
			script: []Entry{{Text: `{"n":1}`}},
			cfg:    func(c *Config) { c.StructuredOutput = StructuredOff },
			req:    Request{Messages: []Message{{Role: RoleUser, Content: "q"}}, JSONSchema: map[string]any{"type": "object"}},
			check: func(t *testing.T, resp Response, recs []Recorded) {
				if _, ok := recs[0].Params["response_format"]; ok || resp.Format != "text" {
					t.Errorf("response_format sent (%v) or format %q with mode off", ok, resp.Format)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, rp := NewReplayServer(tt.script...)
			defer srv.Close()
			cfg := testConfig(srv.URL)
			if tt.cfg != nil {
				tt.cfg(&cfg)
			}
			c, _ := newTestClient(t, cfg)
			resp, err := c.Complete(context.Background(), tt.req)
			if err != nil {
				t.Fatalf("Complete: %v", err)
			}
			recs := rp.Requests()
			if len(recs) != 1 {
				t.Fatalf("%d requests, want 1", len(recs))
			}
			if tt.golden != "" {
				checkGolden(t, tt.golden, canonBody(t, recs[0].Body))
			}
			tt.check(t, resp, recs)
			tot := c.Totals()
			if tot.Calls != 1 || tot.Requests != 1 || tot.Retries != 0 || tot.TotalTokens != resp.Usage.TotalTokens {
				t.Errorf("totals = %+v", tot)
			}
		})
	}
}

func TestRetries(t *testing.T) {
	tests := []struct {
		name       string
		script     []Entry
		maxRetries int
		wantErr    []string // substrings of the error; nil for success
		wantStatus int
		attempts   int
		sleeps     int
	}{
		{
			name:     "429 then success",
			script:   []Entry{{Status: 429, Headers: map[string]string{"Retry-After": "0"}}, {Text: "ok"}},
			attempts: 2, sleeps: 1,
		},
		{
			name:     "502 503 then success",
			script:   []Entry{{Status: 502, Body: "bad gateway"}, {Status: 503}, {Text: "ok"}},
			attempts: 3, sleeps: 2,
		},
		{
			name:       "500 five times",
			script:     []Entry{{Status: 500}, {Status: 500}, {Status: 500}, {Status: 500}, {Status: 500}, {Text: "never"}},
			wantErr:    []string{"HTTP 500", "after 5 attempts", "/v1/chat/completions", "server's logs"},
			wantStatus: 500, attempts: 5, sleeps: 4,
		},
		{
			name:       "400 not retried",
			script:     []Entry{{Status: 400, Body: `{"error":{"message":"maximum context length is 8192 tokens"}}`}, {Text: "never"}},
			wantErr:    []string{"HTTP 400", "after 1 attempt:", "maximum context length"},
			wantStatus: 400, attempts: 1,
		},
		{
			name:       "401 names the key variables",
			script:     []Entry{{Status: 401, Body: `{"error":{"message":"bad key"}}`}},
			wantErr:    []string{"HTTP 401", "TGMS_LLM_API_KEY"},
			wantStatus: 401, attempts: 1,
		},
		{
			name:       "404 names base URL and model",
			script:     []Entry{{Status: 404, Body: `{"error":{"message":"model not found"}}`}},
			wantErr:    []string{"HTTP 404", "/v1 suffix", `"test-model"`},
			wantStatus: 404, attempts: 1,
		},
		{
			name:       "retries disabled",
			script:     []Entry{{Status: 503}, {Text: "never"}},
			maxRetries: -1,
			wantErr:    []string{"HTTP 503", "after 1 attempt"},
			wantStatus: 503, attempts: 1,
		},
		{
			name:       "malformed 200",
			script:     []Entry{{Body: "not json"}},
			wantErr:    []string{"unusable response"},
			wantStatus: 0, attempts: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, rp := NewReplayServer(tt.script...)
			defer srv.Close()
			cfg := testConfig(srv.URL)
			cfg.MaxRetries = tt.maxRetries
			c, sl := newTestClient(t, cfg)
			resp, err := c.Complete(context.Background(), userReq("q"))
			if got := len(rp.Requests()); got != tt.attempts {
				t.Errorf("server saw %d requests, want %d", got, tt.attempts)
			}
			if got := len(sl.get()); got != tt.sleeps {
				t.Errorf("%d backoff waits, want %d", got, tt.sleeps)
			}
			if tt.wantErr == nil {
				if err != nil {
					t.Fatalf("Complete: %v", err)
				}
				if resp.Attempts != tt.attempts {
					t.Errorf("Attempts = %d, want %d", resp.Attempts, tt.attempts)
				}
				if tot := c.Totals(); tot.Retries != int64(tt.attempts-1) || tot.Requests != int64(tt.attempts) {
					t.Errorf("totals = %+v", tot)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, resp %+v", resp)
			}
			for _, s := range tt.wantErr {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
			var le *Error
			if !errors.As(err, &le) {
				t.Fatalf("error %T is not *Error", err)
			}
			if le.Status != tt.wantStatus || le.Attempts != tt.attempts {
				t.Errorf("status %d attempts %d, want %d %d", le.Status, le.Attempts, tt.wantStatus, tt.attempts)
			}
		})
	}
}

func TestRetryAfterAndBackoff(t *testing.T) {
	run := func() []time.Duration {
		srv, _ := NewReplayServer(
			Entry{Status: 429, Headers: map[string]string{"Retry-After": "2"}},
			Entry{Status: 429, Headers: map[string]string{"Retry-After": "86400"}},
			Entry{Status: 429, Headers: map[string]string{"retry-after-ms": "15"}},
			Entry{Status: 503},
			Entry{Status: 503},
			Entry{Text: "ok"},
		)
		defer srv.Close()
		cfg := testConfig(srv.URL)
		cfg.Backoff = 100 * time.Millisecond
		cfg.MaxRetries = 5
		c, sl := newTestClient(t, cfg)
		if _, err := c.Complete(context.Background(), userReq("q")); err != nil {
			t.Fatal(err)
		}
		return sl.get()
	}
	got := run()
	if len(got) != 5 {
		t.Fatalf("waits %v, want 5", got)
	}
	want := []time.Duration{2 * time.Second, MaxRetryAfter, 15 * time.Millisecond}
	for i, w := range want {
		if got[i] != w {
			t.Errorf("wait %d = %v, want %v", i, got[i], w)
		}
	}
	// Backoff for retries 4 and 5: base·2^3 and base·2^4, jittered into [d/2, d).
	for i, d := range []time.Duration{800 * time.Millisecond, 1600 * time.Millisecond} {
		if w := got[3+i]; w < d/2 || w >= d {
			t.Errorf("backoff %d = %v, want in [%v, %v)", 3+i, w, d/2, d)
		}
	}
	// The jitter source is seeded: a fresh client waits the same.
	if again := run(); fmt.Sprint(again) != fmt.Sprint(got) {
		t.Errorf("backoff not reproducible: %v then %v", got, again)
	}
}

func TestConnectionError(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there now
	cfg := testConfig(url)
	cfg.MaxRetries = 2
	c, sl := newTestClient(t, cfg)
	_, err := c.Complete(context.Background(), userReq("q"))
	var le *Error
	if !errors.As(err, &le) || le.Kind != KindConnection || le.Attempts != 3 {
		t.Fatalf("err = %v, want a connection error after 3 attempts", err)
	}
	if !strings.Contains(err.Error(), "TGMS_LLM_BASE_URL") || len(sl.get()) != 2 {
		t.Errorf("err = %v, waits %v", err, sl.get())
	}
}

func TestTimeoutPerCall(t *testing.T) {
	srv, rp := NewReplayServer(
		Entry{Text: "slow", Delay: 5 * time.Second},
		Entry{Text: "slow", Delay: 5 * time.Second},
		Entry{Text: "fast"},
	)
	defer srv.Close()
	cfg := testConfig(srv.URL)
	cfg.Timeout = 30 * time.Millisecond
	cfg.MaxRetries = 1
	c, _ := newTestClient(t, cfg)
	start := time.Now()
	_, err := c.Complete(context.Background(), userReq("q"))
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("took %v; the per-call timeout did not apply", el)
	}
	var le *Error
	if !errors.As(err, &le) || le.Kind != KindTimeout || le.Attempts != 2 {
		t.Fatalf("err = %v, want a timeout after 2 attempts", err)
	}
	if !strings.Contains(err.Error(), "timed out after 2 attempts") {
		t.Errorf("err = %v", err)
	}
	// The timeout is per call: the next call gets its own budget.
	resp, err := c.Complete(context.Background(), userReq("q"))
	if err != nil || resp.Text != "fast" {
		t.Fatalf("second call: %+v, %v", resp, err)
	}
	if n := len(rp.Requests()); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
}

func TestCallerCancel(t *testing.T) {
	srv, _ := NewReplayServer(Entry{Text: "slow", Delay: 5 * time.Second})
	defer srv.Close()
	c, _ := newTestClient(t, testConfig(srv.URL))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := c.Complete(ctx, userReq("q"))
	var le *Error
	if !errors.As(err, &le) || le.Kind != KindCanceled || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want canceled wrapping the context error", err)
	}
}

func schemaReq(q string) Request {
	return Request{
		Messages:   []Message{{Role: RoleUser, Content: q}},
		JSONSchema: map[string]any{"type": "object", "properties": map[string]any{"answer": map[string]any{"type": "integer"}}},
		SchemaName: "answer",
	}
}

func responseFormat(r Recorded) string {
	rf, ok := r.Params["response_format"].(map[string]any)
	if !ok {
		return "none"
	}
	s, _ := rf["type"].(string)
	return s
}

func TestStructuredFallback(t *testing.T) {
	reject := func(what string) Entry {
		return Entry{Status: 400, Body: `{"error":{"message":"response_format ` + what + ` is not supported"}}`}
	}
	tests := []struct {
		name      string
		script    []Entry
		mode      string
		calls     []string // questions; the answers must contain "ok"
		wantSent  []string // response_format type of each request
		wantFmt   string   // Response.Format of the calls
		fallbacks int64
		wantErr   string
	}{
		{
			name:     "json_schema accepted",
			script:   []Entry{{Text: "ok"}, {Text: "ok"}},
			calls:    []string{"first", "second"},
			wantSent: []string{"json_schema", "json_schema"},
			wantFmt:  "json_schema",
		},
		{
			name:      "json_schema rejected, json_object accepted and remembered",
			script:    []Entry{reject("json_schema"), {Text: "ok"}, {Text: "ok"}},
			calls:     []string{"first", "second"},
			wantSent:  []string{"json_schema", "json_object", "json_object"},
			wantFmt:   "json_object",
			fallbacks: 1,
		},
		{
			name:      "both rejected, plain text",
			script:    []Entry{reject("json_schema"), reject("json_object"), {Text: "ok"}, {Text: "ok"}},
			calls:     []string{"first", "second"},
			wantSent:  []string{"json_schema", "json_object", "none", "none"},
			wantFmt:   "text",
			fallbacks: 2,
		},
		{
			name:     "422 unsupported also falls back",
			script:   []Entry{{Status: 422, Body: `{"detail":"unsupported field"}`}, {Text: "ok"}},
			calls:    []string{"first"},
			wantSent: []string{"json_schema", "json_object"}, wantFmt: "json_object", fallbacks: 1,
		},
		{
			name:     "other 400 does not fall back",
			script:   []Entry{{Status: 400, Body: `{"error":{"message":"prompt too long"}}`}},
			calls:    []string{"first"},
			wantSent: []string{"json_schema"},
			wantErr:  "prompt too long",
		},
		{
			name:     "explicit json_schema mode fails instead",
			script:   []Entry{reject("json_schema")},
			mode:     StructuredJSONSchema,
			calls:    []string{"first"},
			wantSent: []string{"json_schema"},
			wantErr:  "HTTP 400",
		},
		{
			name:     "explicit json_object mode",
			script:   []Entry{{Text: "ok"}},
			mode:     StructuredJSONObject,
			calls:    []string{"first"},
			wantSent: []string{"json_object"},
			wantFmt:  "json_object",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, rp := NewReplayServer(tt.script...)
			defer srv.Close()
			cfg := testConfig(srv.URL)
			cfg.StructuredOutput = tt.mode
			c, _ := newTestClient(t, cfg)
			for _, q := range tt.calls {
				resp, err := c.Complete(context.Background(), schemaReq(q))
				if tt.wantErr != "" {
					if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
						t.Fatalf("err = %v, want it to mention %q", err, tt.wantErr)
					}
					continue
				}
				if err != nil {
					t.Fatalf("Complete: %v", err)
				}
				if resp.Format != tt.wantFmt {
					t.Errorf("Format = %q, want %q", resp.Format, tt.wantFmt)
				}
			}
			var sent []string
			for _, r := range rp.Requests() {
				sent = append(sent, responseFormat(r))
			}
			if fmt.Sprint(sent) != fmt.Sprint(tt.wantSent) {
				t.Errorf("sent %v, want %v", sent, tt.wantSent)
			}
			if tt.wantFmt != "" && c.StructuredOutput() != tt.wantFmt {
				t.Errorf("StructuredOutput() = %q, want %q", c.StructuredOutput(), tt.wantFmt)
			}
			if got := c.Totals().Fallbacks; got != tt.fallbacks {
				t.Errorf("Fallbacks = %d, want %d", got, tt.fallbacks)
			}
		})
	}
}

// TestFallbackScript runs the recorded conversation in testdata/fallback.jsonl.
func TestFallbackScript(t *testing.T) {
	entries, err := LoadEntries(filepath.Join("testdata", "fallback.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	srv, rp := NewReplayServer(entries...)
	defer srv.Close()
	c, _ := newTestClient(t, testConfig(srv.URL))
	r1, err := c.Complete(context.Background(), schemaReq("first question"))
	if err != nil {
		t.Fatal(err)
	}
	r2, err := c.Complete(context.Background(), schemaReq("second question"))
	if err != nil {
		t.Fatal(err)
	}
	if r1.Text != `{"answer":1}` || r1.Attempts != 2 || r2.Text != `{"answer":2}` || r2.Attempts != 1 {
		t.Errorf("r1 = %+v\nr2 = %+v", r1, r2)
	}
	if tot := c.Totals(); tot.Calls != 2 || tot.Requests != 3 || tot.PromptTokens != 41 || tot.TotalTokens != 51 || tot.Fallbacks != 1 {
		t.Errorf("totals = %+v", tot)
	}
	if rp.Remaining() != 0 {
		t.Errorf("%d entries unused", rp.Remaining())
	}
	checkGolden(t, "request_fallback.golden.json", canonBody(t, rp.Requests()[1].Body))
}

func TestTotalsConcurrent(t *testing.T) {
	const n = 16
	entries := make([]Entry, n)
	for i := range entries {
		entries[i] = Entry{Text: "x", Usage: &Usage{PromptTokens: 2, CompletionTokens: 1, TotalTokens: 3}}
	}
	srv, _ := NewReplayServer(entries...)
	defer srv.Close()
	c, _ := newTestClient(t, testConfig(srv.URL))
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			if _, err := c.Complete(context.Background(), userReq("q")); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if tot := c.Totals(); tot.Calls != n || tot.Succeeded != n || tot.PromptTokens != 2*n || tot.TotalTokens != 3*n {
		t.Errorf("totals = %+v", tot)
	}
}

func TestConfig(t *testing.T) {
	tests := []struct {
		name    string
		cfg     Config
		wantErr []string
	}{
		{"empty", Config{}, []string{"no base URL", "TGMS_LLM_BASE_URL", "OPENAI_BASE_URL", "no model", "TGMS_LLM_MODEL"}},
		{"no model", Config{BaseURL: "http://localhost:8000/v1"}, []string{"no model: set TGMS_LLM_MODEL"}},
		{"bad url", Config{BaseURL: "localhost:8000", Model: "m"}, []string{`base URL "localhost:8000" is not an http(s) URL`}},
		{"bad mode", Config{BaseURL: "http://h/v1", Model: "m", StructuredOutput: "guided"}, []string{`"guided" is not one of`, "TGMS_LLM_STRUCTURED_OUTPUT"}},
		{"bad temperature", Config{BaseURL: "http://h/v1", Model: "m", Temperature: -1}, []string{"temperature -1"}},
		{"negative timeout", Config{BaseURL: "http://h/v1", Model: "m", Timeout: -time.Second}, []string{"timeout -1s is negative"}},
		{"reserved extra", Config{BaseURL: "http://h/v1", Model: "m", Extra: map[string]any{"seed": 1}}, []string{`Config.Extra sets "seed"`}},
		{"ok", Config{BaseURL: "http://h/v1", Model: "m"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := New(tt.cfg)
			if tt.wantErr == nil {
				if err != nil {
					t.Fatal(err)
				}
				got := c.Config()
				if got.Timeout != DefaultTimeout || got.MaxRetries != DefaultMaxRetries || got.Backoff != DefaultBackoff ||
					got.StructuredOutput != StructuredAuto || got.APIKey != EmptyAPIKey || *got.Seed != 0 || got.Temperature != 0 {
					t.Errorf("defaults not applied: %+v", got)
				}
				if c.Endpoint() != "http://h/v1/chat/completions" {
					t.Errorf("endpoint %q", c.Endpoint())
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			for _, s := range tt.wantErr {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
		})
	}
}

func TestConfigFromEnv(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want Config
	}{
		{"nothing", nil, Config{}},
		{"tgms names win", map[string]string{
			"TGMS_LLM_BASE_URL": "http://local:8000/v1", "OPENAI_BASE_URL": "https://api.openai.com/v1",
			"TGMS_LLM_API_KEY": "k1", "OPENAI_API_KEY": "k2", "TGMS_LLM_MODEL": "m",
		}, Config{BaseURL: "http://local:8000/v1", APIKey: "k1", Model: "m"}},
		{"openai names as fallback", map[string]string{
			"OPENAI_BASE_URL": "https://api.openai.com/v1", "OPENAI_API_KEY": "k2", "TGMS_LLM_BASE_URL": "",
		}, Config{BaseURL: "https://api.openai.com/v1", APIKey: "k2"}},
		{"structured output", map[string]string{"TGMS_LLM_STRUCTURED_OUTPUT": "json_object"}, Config{StructuredOutput: "json_object"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := configFromLookup(func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok })
			if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
	t.Run("real environment", func(t *testing.T) {
		t.Setenv("TGMS_LLM_BASE_URL", "http://x/v1")
		t.Setenv("TGMS_LLM_MODEL", "mm")
		t.Setenv("TGMS_LLM_API_KEY", "")
		t.Setenv("OPENAI_API_KEY", "")
		if got := ConfigFromEnv(); got.BaseURL != "http://x/v1" || got.Model != "mm" || got.APIKey != "" {
			t.Errorf("got %+v", got)
		}
	})
}

func TestRequestValidation(t *testing.T) {
	c, _ := newTestClient(t, Config{BaseURL: "http://127.0.0.1:1/v1", Model: "m"})
	if _, err := c.Complete(context.Background(), Request{}); err == nil || !strings.Contains(err.Error(), "no messages") {
		t.Errorf("err = %v", err)
	}
	_, err := c.Complete(context.Background(), Request{Messages: []Message{{Role: "tool", Content: "x"}}})
	if err == nil || !strings.Contains(err.Error(), `role "tool"`) {
		t.Errorf("err = %v", err)
	}
}

// The SDK reads OPENAI_BASE_URL and OPENAI_API_KEY itself; Config must win.
func TestConfigOverridesSDKEnvironment(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	t.Setenv("OPENAI_API_KEY", "sk-from-env")
	srv, rp := NewReplayServer(Entry{Text: "ok"})
	defer srv.Close()
	c, _ := newTestClient(t, testConfig(srv.URL))
	if _, err := c.Complete(context.Background(), userReq("q")); err != nil {
		t.Fatal(err)
	}
	if got := rp.Requests()[0].Header.Get("Authorization"); got != "Bearer EMPTY" {
		t.Errorf("Authorization = %q, want Bearer EMPTY", got)
	}
}

func TestRejectsFormatUsesWholeBody(t *testing.T) {
	srv, rp := NewReplayServer(
		Entry{Status: 400, Body: `{"error":{"message":"Invalid parameter.","param":"response_format","type":"invalid_request_error"}}`},
		Entry{Text: "ok"},
	)
	defer srv.Close()
	c, _ := newTestClient(t, testConfig(srv.URL))
	r, err := c.Complete(context.Background(), schemaReq("q"))
	if err != nil || r.Format != "json_object" || len(rp.Requests()) != 2 {
		t.Errorf("resp %+v, err %v, %d requests", r, err, len(rp.Requests()))
	}
}
