package llm

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCached(t *testing.T) {
	srv, rp := NewReplayServer(
		Entry{Match: "count", Text: `{"n":3}`, Usage: &Usage{PromptTokens: 10, CompletionTokens: 2, TotalTokens: 12}},
		Entry{Match: "other", Text: `{"n":4}`},
		Entry{Match: "count", Text: `{"n":5}`},
	)
	defer srv.Close()
	dir := t.TempDir()
	inner, _ := newTestClient(t, testConfig(srv.URL))
	c := Cached(inner, dir)
	ctx := context.Background()

	first, err := c.Complete(ctx, schemaReq("count the nodes"))
	if err != nil {
		t.Fatal(err)
	}
	if first.Cached || first.Attempts != 1 || first.Text != `{"n":3}` {
		t.Fatalf("first = %+v", first)
	}
	second, err := c.Complete(ctx, schemaReq("count the nodes"))
	if err != nil {
		t.Fatal(err)
	}
	if !second.Cached || second.Attempts != 0 || second.Text != first.Text || second.Usage != first.Usage || second.Format != "json_schema" {
		t.Errorf("second = %+v, want a cache hit of %+v", second, first)
	}
	if n := len(rp.Requests()); n != 1 {
		t.Fatalf("server saw %d requests, want 1 (the second must come from the cache)", n)
	}
	if _, err := c.Complete(ctx, schemaReq("other question")); err != nil {
		t.Fatal(err)
	}
	if n := len(rp.Requests()); n != 2 {
		t.Errorf("a different question must miss: %d requests", n)
	}

	// A new process over the same directory still hits.
	inner2, _ := newTestClient(t, testConfig(srv.URL))
	if r, err := Cached(inner2, dir).Complete(ctx, schemaReq("count the nodes")); err != nil || !r.Cached {
		t.Errorf("rerun: %+v, %v", r, err)
	}
	// A different seed is a different key.
	seven := int64(7)
	cfg := testConfig(srv.URL)
	cfg.Seed = &seven
	inner3, _ := newTestClient(t, cfg)
	if r, err := Cached(inner3, dir).Complete(ctx, schemaReq("count the nodes")); err != nil || r.Cached || r.Text != `{"n":5}` {
		t.Errorf("other seed: %+v, %v", r, err)
	}
	if n := inner.Totals().Calls; n != 2 {
		t.Errorf("inner client called %d times, want 2", n)
	}

	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != 3 {
		t.Fatalf("%d cache files, want 3: %v", len(files), files)
	}
	_, digest, err := CacheKey(inner.Identity(), schemaReq("count the nodes"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, digest+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var e struct {
		Key      map[string]any `json:"key"`
		Response map[string]any `json:"response"`
	}
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatal(err)
	}
	if e.Key["model"] != "test-model" || e.Key["seed"] != float64(0) || e.Key["schema"] == nil || e.Response["text"] != `{"n":3}` {
		t.Errorf("entry = %s", b)
	}
}

func TestCacheKey(t *testing.T) {
	id := Identity{Model: "m"}
	req := Request{Messages: []Message{{Role: RoleUser, Content: "q"}}}
	key, digest, err := CacheKey(id, req)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "cache_key.golden.json", append(key, '\n'))
	if len(digest) != 64 {
		t.Errorf("digest %q", digest)
	}
	vary := []struct {
		name string
		id   Identity
		req  Request
	}{
		{"model", Identity{Model: "m2"}, req},
		{"temperature", Identity{Model: "m", Temperature: 0.5}, req},
		{"seed", Identity{Model: "m", Seed: 1}, req},
		{"extra", Identity{Model: "m", Extra: map[string]any{"top_k": 1}}, req},
		{"message", id, Request{Messages: []Message{{Role: RoleUser, Content: "q2"}}}},
		{"role", id, Request{Messages: []Message{{Role: RoleSystem, Content: "q"}}}},
		{"schema", id, Request{Messages: req.Messages, JSONSchema: map[string]any{"type": "object"}}},
	}
	for _, v := range vary {
		_, d, err := CacheKey(v.id, v.req)
		if err != nil || d == digest {
			t.Errorf("%s: digest %s unchanged (err %v)", v.name, d, err)
		}
	}
	// MaxTokens and SchemaName are not part of the key.
	same := req
	same.MaxTokens = 10
	if _, d, _ := CacheKey(id, same); d != digest {
		t.Errorf("MaxTokens changed the key")
	}
}

func TestCachedCorruptEntry(t *testing.T) {
	dir := t.TempDir()
	req := Request{Messages: []Message{{Role: RoleUser, Content: "q"}}}
	_, digest, _ := CacheKey(Identity{}, req)
	if err := os.WriteFile(filepath.Join(dir, digest+".json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Cached(clientFunc(func(context.Context, Request) (Response, error) {
		t.Fatal("inner client called")
		return Response{}, nil
	}), dir).Complete(context.Background(), req)
	if err == nil || !strings.Contains(err.Error(), "corrupt") || !strings.Contains(err.Error(), "delete it") {
		t.Errorf("err = %v", err)
	}
}

type clientFunc func(context.Context, Request) (Response, error)

func (f clientFunc) Complete(ctx context.Context, r Request) (Response, error) { return f(ctx, r) }
