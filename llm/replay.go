package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"time"
)

// Entry is one scripted answer of a Replay server. See the package
// documentation for its JSONL form.
type Entry struct {
	// Match, when set, restricts the entry to requests whose last user
	// message contains it.
	Match string
	// Status is the HTTP status to answer with; 0 means 200.
	Status int
	// Text is the assistant message content of a 200 answer, wrapped in a
	// chat.completion object. Ignored when Body is set.
	Text string
	// Body, when set, is sent verbatim (an error body, a malformed body…).
	Body string
	// Headers are added to the answer (e.g. Retry-After).
	Headers map[string]string
	// Delay holds the answer back; a client that gives up first sees a
	// timeout.
	Delay time.Duration
	// Usage is reported in a Text answer; nil reports an estimate of one
	// token per four bytes of the prompt contents and of Text.
	Usage *Usage
	// Model is reported in a Text answer; "" echoes the requested model.
	Model string
	// FinishReason is reported in a Text answer; "" reports "stop".
	FinishReason string
}

type entryJSON struct {
	Match   string            `json:"match,omitempty"`
	Status  int               `json:"status,omitempty"`
	Text    string            `json:"text,omitempty"`
	Body    string            `json:"body,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Delay   string            `json:"delay,omitempty"`
	Usage   *Usage            `json:"usage,omitempty"`
	Model   string            `json:"model,omitempty"`
	Finish  string            `json:"finish_reason,omitempty"`
}

// MarshalJSON writes the JSONL form of e (Delay as a Go duration string).
func (e Entry) MarshalJSON() ([]byte, error) {
	j := entryJSON{Match: e.Match, Status: e.Status, Text: e.Text, Body: e.Body,
		Headers: e.Headers, Usage: e.Usage, Model: e.Model, Finish: e.FinishReason}
	if e.Delay != 0 {
		j.Delay = e.Delay.String()
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads the JSONL form of an entry; unknown fields are errors.
func (e *Entry) UnmarshalJSON(b []byte) error {
	var j entryJSON
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return err
	}
	var d time.Duration
	if j.Delay != "" {
		var err error
		if d, err = time.ParseDuration(j.Delay); err != nil {
			return fmt.Errorf("delay: %w", err)
		}
	}
	*e = Entry{Match: j.Match, Status: j.Status, Text: j.Text, Body: j.Body,
		Headers: j.Headers, Delay: d, Usage: j.Usage, Model: j.Model, FinishReason: j.Finish}
	return nil
}

// ReadEntries reads a replay script in JSONL form: one Entry per line;
// blank lines and lines starting with '#' are skipped. Errors name the line.
func ReadEntries(r io.Reader) ([]Entry, error) {
	var out []Entry
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var e Entry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			return nil, fmt.Errorf("llm: replay script line %d: %w", n, err)
		}
		if e.Status != 0 && (e.Status < 100 || e.Status > 999) {
			return nil, fmt.Errorf("llm: replay script line %d: status %d is not an HTTP status", n, e.Status)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("llm: replay script: %w", err)
	}
	return out, nil
}

// LoadEntries reads a replay script file (see ReadEntries).
func LoadEntries(path string) ([]Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("llm: %w", err)
	}
	defer f.Close()
	es, err := ReadEntries(f)
	if err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, path)
	}
	return es, nil
}

// WriteEntries writes entries in JSONL form.
func WriteEntries(w io.Writer, entries []Entry) error {
	for _, e := range entries {
		b, err := json.Marshal(e)
		if err != nil {
			return err
		}
		if _, err := w.Write(append(b, '\n')); err != nil {
			return err
		}
	}
	return nil
}

// Recorded is one request a Replay server received.
type Recorded struct {
	Method string
	Path   string
	Header http.Header
	// Body is the raw request body.
	Body []byte
	// Params is Body decoded as a JSON object (nil if it is not one).
	Params map[string]any
	// Entry is the index of the script entry that answered, or -1.
	Entry int
}

// Messages returns the request's messages as role/content pairs.
func (r Recorded) Messages() []Message {
	var req struct {
		Messages []Message `json:"messages"`
	}
	_ = json.Unmarshal(r.Body, &req)
	return req.Messages
}

// Replay is an http.Handler that answers chat completion requests from a
// script, in order, and records what it received. Each entry answers once:
// a request takes the first unused entry whose Match is empty or occurs in
// the request's last user message. A request with no such entry gets 400
// with a body starting "replay:" (not retried by the client), so a script
// that runs short fails the test loudly. Safe for concurrent use.
type Replay struct {
	mu       sync.Mutex
	entries  []Entry
	used     []bool
	requests []Recorded
}

// NewReplay returns a handler serving entries.
func NewReplay(entries ...Entry) *Replay {
	return &Replay{entries: entries, used: make([]bool, len(entries))}
}

// NewReplayServer starts an httptest server answering from entries. Point a
// client at srv.URL or srv.URL+"/v1"; close the server when done.
func NewReplayServer(entries ...Entry) (*httptest.Server, *Replay) {
	r := NewReplay(entries...)
	return httptest.NewServer(r), r
}

// Add appends entries to the script.
func (r *Replay) Add(entries ...Entry) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.entries = append(r.entries, entries...)
	r.used = append(r.used, make([]bool, len(entries))...)
}

// Requests returns a copy of the requests received so far, in order.
func (r *Replay) Requests() []Recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Recorded(nil), r.requests...)
}

// Remaining returns the number of script entries not used yet.
func (r *Replay) Remaining() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, u := range r.used {
		if !u {
			n++
		}
	}
	return n
}

func (r *Replay) ServeHTTP(w http.ResponseWriter, hr *http.Request) {
	body, _ := io.ReadAll(hr.Body)
	rec := Recorded{Method: hr.Method, Path: hr.URL.Path, Header: hr.Header.Clone(), Body: body, Entry: -1}
	_ = json.Unmarshal(body, &rec.Params)
	if hr.Method != http.MethodPost || (hr.URL.Path != "/v1/chat/completions" && hr.URL.Path != "/chat/completions") {
		r.record(rec)
		replayError(w, http.StatusNotFound, fmt.Sprintf("replay: no route for %s %s; POST /v1/chat/completions or /chat/completions", hr.Method, hr.URL.Path))
		return
	}
	last := lastUser(rec.Messages())
	r.mu.Lock()
	idx := -1
	for i, e := range r.entries {
		if !r.used[i] && (e.Match == "" || strings.Contains(last, e.Match)) {
			idx = i
			r.used[i] = true
			break
		}
	}
	rec.Entry = idx
	r.requests = append(r.requests, rec)
	n := len(r.requests)
	var e Entry
	if idx >= 0 {
		e = r.entries[idx]
	}
	r.mu.Unlock()
	if idx < 0 {
		replayError(w, http.StatusBadRequest, fmt.Sprintf("replay: no script entry left for request %d (last user message %s)", n, preview(last)))
		return
	}
	if e.Delay > 0 {
		t := time.NewTimer(e.Delay)
		select {
		case <-t.C:
		case <-hr.Context().Done():
			t.Stop()
			return
		}
	}
	for k, v := range e.Headers {
		w.Header().Set(k, v)
	}
	status := e.Status
	if status == 0 {
		status = http.StatusOK
	}
	out := []byte(e.Body)
	if e.Body == "" {
		if status < 300 {
			out = completionBody(e, rec, n)
		} else {
			out, _ = json.Marshal(map[string]any{"error": map[string]any{
				"message": fmt.Sprintf("replay: scripted HTTP %d", status), "type": "replay_error", "code": status}})
		}
	}
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(status)
	_, _ = w.Write(out)
}

func (r *Replay) record(rec Recorded) {
	r.mu.Lock()
	r.requests = append(r.requests, rec)
	r.mu.Unlock()
}

func replayError(w http.ResponseWriter, status int, msg string) {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": "replay_error", "code": status}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func lastUser(msgs []Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == RoleUser {
			return msgs[i].Content
		}
	}
	return ""
}

func completionBody(e Entry, rec Recorded, n int) []byte {
	model := e.Model
	if model == "" {
		model, _ = rec.Params["model"].(string)
	}
	u := e.Usage
	if u == nil {
		var prompt int64
		for _, m := range rec.Messages() {
			prompt += int64(len(m.Content))
		}
		est := Usage{PromptTokens: (prompt + 3) / 4, CompletionTokens: int64(len(e.Text)+3) / 4}
		est.TotalTokens = est.PromptTokens + est.CompletionTokens
		u = &est
	}
	finish := e.FinishReason
	if finish == "" {
		finish = "stop"
	}
	b, _ := json.Marshal(map[string]any{
		"id":      fmt.Sprintf("chatcmpl-replay-%d", n),
		"object":  "chat.completion",
		"created": 0,
		"model":   model,
		"choices": []any{map[string]any{
			"index":         0,
			"message":       map[string]any{"role": "assistant", "content": e.Text},
			"finish_reason": finish,
		}},
		"usage": map[string]any{
			"prompt_tokens":     u.PromptTokens,
			"completion_tokens": u.CompletionTokens,
			"total_tokens":      u.TotalTokens,
		},
	})
	return b
}

// Record wraps client so that each successful exchange is appended to w as
// a replay Entry (JSONL), matched by the full last user message. Point it at
// a real server once and replay the file in tests. Cached responses are
// recorded too; failures are not. Writes are serialized; a write error is
// returned with the response.
func Record(client Client, w io.Writer) Client {
	return &recorder{next: client, w: w}
}

type recorder struct {
	next Client
	mu   sync.Mutex
	w    io.Writer
}

func (r *recorder) Identity() Identity {
	if id, ok := r.next.(Identifier); ok {
		return id.Identity()
	}
	return Identity{}
}

func (r *recorder) Complete(ctx context.Context, req Request) (Response, error) {
	resp, err := r.next.Complete(ctx, req)
	if err != nil {
		return resp, err
	}
	u := resp.Usage
	e := Entry{Match: lastUser(req.Messages), Text: resp.Text, Usage: &u, Model: resp.Model}
	r.mu.Lock()
	defer r.mu.Unlock()
	if werr := WriteEntries(r.w, []Entry{e}); werr != nil {
		return resp, fmt.Errorf("llm: record: %w", werr)
	}
	return resp, nil
}
