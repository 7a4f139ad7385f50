package tools

import (
	"sync"

	"github.com/tgms-go/tgms/exec"
)

// TraceCache keeps the traces this server produced, by trace digest, so
// that agents can cite them (tgms://trace/<digest>, verify_answer,
// trace_verify) without sending them back. It holds at most its capacity;
// the oldest trace goes first. Nothing is written to disk.
type TraceCache struct {
	mu    sync.Mutex
	cap   int
	order []string
	byDig map[string]*exec.Trace
}

// NewTraceCache holds up to n traces (n <= 0: 256).
func NewTraceCache(n int) *TraceCache {
	if n <= 0 {
		n = 256
	}
	return &TraceCache{cap: n, byDig: map[string]*exec.Trace{}}
}

// Put keeps a trace.
func (c *TraceCache) Put(tr *exec.Trace) {
	if tr == nil || tr.TraceDigest == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byDig[tr.TraceDigest]; ok {
		c.byDig[tr.TraceDigest] = tr
		return
	}
	if len(c.order) == c.cap {
		delete(c.byDig, c.order[0])
		c.order = c.order[1:]
	}
	c.order = append(c.order, tr.TraceDigest)
	c.byDig[tr.TraceDigest] = tr
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
