package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tgms-go/tgms/canon"
)

// Cached wraps client with a response cache in dir, so a rerun of the same
// conversation costs nothing. The key is the SHA-256 of the canonical JSON
// (package canon) of
//
//	{"messages":[{"content":…,"role":…},…], "model":…, "schema":…|null,
//	 "seed":…, "temperature":…}
//
// plus "extra" when the client's Identity has server knobs. Model,
// temperature, seed and extra come from client's Identity when it
// implements Identifier (as *OpenAI does), else they are zero. Each entry is
// the file dir/<key>.json holding {"key": <the keyed object>, "response":
// {"text","model","usage","format","finish_reason"}}; it is written atomically after a
// successful call and never expires (delete the directory to clear it).
// Errors are not cached. A hit returns Cached true and Attempts 0 with the
// usage recorded at the original call.
func Cached(client Client, dir string) Client {
	return &cachedClient{next: client, dir: dir}
}

type cachedClient struct {
	next Client
	dir  string
}

// Identity forwards the wrapped client's identity, so caches can stack.
func (c *cachedClient) Identity() Identity {
	if id, ok := c.next.(Identifier); ok {
		return id.Identity()
	}
	return Identity{}
}

type cacheEntry struct {
	Key      json.RawMessage `json:"key"`
	Response cachedResponse  `json:"response"`
}

type cachedResponse struct {
	Text         string `json:"text"`
	Model        string `json:"model"`
	Usage        Usage  `json:"usage"`
	Format       string `json:"format,omitempty"`
	FinishReason string `json:"finish_reason,omitempty"`
}

// CacheKey returns the cache key object's canonical JSON and its digest for
// req sent by a client with identity id.
func CacheKey(id Identity, req Request) (keyJSON []byte, digest string, err error) {
	msgs := make([]any, len(req.Messages))
	for i, m := range req.Messages {
		msgs[i] = map[string]any{"role": m.Role, "content": m.Content}
	}
	key := map[string]any{
		"model":       id.Model,
		"messages":    msgs,
		"temperature": id.Temperature,
		"seed":        id.Seed,
		"schema":      nil,
	}
	if req.JSONSchema != nil {
		raw, err := canonicalJSON(req.JSONSchema)
		if err != nil {
			return nil, "", fmt.Errorf("llm: cache key: schema: %w", err)
		}
		key["schema"] = raw
	}
	if len(id.Extra) > 0 {
		raw, err := canonicalJSON(id.Extra)
		if err != nil {
			return nil, "", fmt.Errorf("llm: cache key: extra: %w", err)
		}
		key["extra"] = raw
	}
	b, err := canon.Marshal(key)
	if err != nil {
		return nil, "", fmt.Errorf("llm: cache key: %w", err)
	}
	return b, canon.DigestBytes(b), nil
}

// canonicalJSON encodes an arbitrary Go value (any types encoding/json
// accepts) as canonical JSON.
func canonicalJSON(v any) (canon.Raw, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	c, err := canon.Canonicalize(b)
	if err != nil {
		return nil, err
	}
	return canon.Raw(c), nil
}

func (c *cachedClient) Complete(ctx context.Context, req Request) (Response, error) {
	if err := validateRequest(req); err != nil {
		return Response{}, err
	}
	keyJSON, digest, err := CacheKey(c.Identity(), req)
	if err != nil {
		return Response{}, err
	}
	path := filepath.Join(c.dir, digest+".json")
	if b, err := os.ReadFile(path); err == nil {
		var e cacheEntry
		if err := json.Unmarshal(b, &e); err != nil {
			return Response{}, fmt.Errorf("llm: cache entry %s is corrupt (%v): delete it", path, err)
		}
		return Response{Text: e.Response.Text, Model: e.Response.Model, Usage: e.Response.Usage,
			Format: e.Response.Format, FinishReason: e.Response.FinishReason, Cached: true}, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return Response{}, fmt.Errorf("llm: cache: %w", err)
	}
	resp, err := c.next.Complete(ctx, req)
	if err != nil {
		return resp, err
	}
	b, err := json.MarshalIndent(cacheEntry{Key: keyJSON, Response: cachedResponse{
		Text: resp.Text, Model: resp.Model, Usage: resp.Usage, Format: resp.Format, FinishReason: resp.FinishReason}}, "", "  ")
	if err != nil {
		return resp, fmt.Errorf("llm: cache: encode entry: %w", err)
	}
	if err := writeFileAtomic(path, append(b, '\n')); err != nil {
		return resp, fmt.Errorf("llm: cache: the call succeeded but its entry could not be stored (check that %s is writable): %w", c.dir, err)
	}
	return resp, nil
}

func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
