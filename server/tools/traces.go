package tools

import (
	"sync"

	"github.com/tgms-go/tgms/exec"
)

// TraceCache keeps the traces this server produced, by trace digest, so
// that agents can cite them (tgms://trace/<digest>, verify_answer,
// trace_verify) without sending them back. It holds at most its capacity
// of traces and of bytes (the payloads the traces' steps hold, as the
// plan budget measures them); the oldest trace goes first, and the newest
// is always kept. Nothing is written to disk.
type TraceCache struct {
	mu       sync.Mutex
	cap      int
	maxBytes int64
	bytes    int64
	order    []string
	byDig    map[string]*exec.Trace
	size     map[string]int64
}

// DefaultTraceCacheBytes bounds the payloads a trace cache holds.
const DefaultTraceCacheBytes = 64 << 20

// NewTraceCache holds up to n traces (n <= 0: 256) and up to
// DefaultTraceCacheBytes of their payloads.
func NewTraceCache(n int) *TraceCache {
	return NewTraceCacheBytes(n, 0)
}

// NewTraceCacheBytes holds up to n traces (n <= 0: 256) and up to
// maxBytes of their payloads (maxBytes <= 0: DefaultTraceCacheBytes).
func NewTraceCacheBytes(n int, maxBytes int64) *TraceCache {
	if n <= 0 {
		n = 256
	}
	if maxBytes <= 0 {
		maxBytes = DefaultTraceCacheBytes
	}
	return &TraceCache{cap: n, maxBytes: maxBytes, byDig: map[string]*exec.Trace{}, size: map[string]int64{}}
}

// Put keeps a trace.
func (c *TraceCache) Put(tr *exec.Trace) {
	if tr == nil || tr.TraceDigest == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	n := tr.Footprint()
	if _, ok := c.byDig[tr.TraceDigest]; ok {
		c.bytes += n - c.size[tr.TraceDigest]
		c.byDig[tr.TraceDigest], c.size[tr.TraceDigest] = tr, n
		return
	}
	c.order = append(c.order, tr.TraceDigest)
	c.byDig[tr.TraceDigest], c.size[tr.TraceDigest] = tr, n
	c.bytes += n
	for len(c.order) > 1 && (len(c.order) > c.cap || c.bytes > c.maxBytes) {
		old := c.order[0]
		c.bytes -= c.size[old]
		delete(c.byDig, old)
		delete(c.size, old)
		c.order = c.order[1:]
	}
}

// Bytes is the size of the payloads the kept traces hold.
func (c *TraceCache) Bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}

// Get finds a trace by digest.
func (c *TraceCache) Get(digest string) (*exec.Trace, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	tr, ok := c.byDig[digest]
	return tr, ok
}

// Digests lists the kept digests, oldest first.
func (c *TraceCache) Digests() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.order...)
}
