package tools

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/exec"
)

// The cache holds at most its bytes: the oldest traces go first, the
// newest is always kept, and a trace put again is not counted twice.
func TestTraceCacheBoundedByBytes(t *testing.T) {
	c := NewTraceCacheBytes(256, 10_000)
	big := strings.Repeat("x", 3_000)
	for i := range 20 {
		c.Put(&exec.Trace{TraceDigest: fmt.Sprintf("d%02d", i), Answer: big})
		if c.Bytes() > 10_000 {
			t.Fatalf("after %d traces the cache holds %d bytes, over its 10000", i+1, c.Bytes())
		}
	}
	got := c.Digests()
	if len(got) != 3 || got[2] != "d19" || got[0] != "d17" {
		t.Fatalf("kept %v, want the three newest (d17..d19)", got)
	}
	c.Put(&exec.Trace{TraceDigest: "d19", Answer: big})
	if n := c.Bytes(); n != 3*(16+3_000) {
		t.Fatalf("a trace put again changed the count to %d", n)
	}
	// One trace over the whole bound is still kept: a caller may cite it
	// right away.
	c.Put(&exec.Trace{TraceDigest: "huge", Answer: strings.Repeat("y", 50_000)})
	if got := c.Digests(); len(got) != 1 || got[0] != "huge" {
		t.Fatalf("kept %v, want only the newest", got)
	}
	if _, ok := c.Get("huge"); !ok {
		t.Fatal("the newest trace is not kept")
	}
}

// The count bound still holds for small traces.
func TestTraceCacheBoundedByCount(t *testing.T) {
	c := NewTraceCache(4)
	for i := range 10 {
		c.Put(&exec.Trace{TraceDigest: fmt.Sprintf("d%d", i)})
	}
	if got := c.Digests(); len(got) != 4 || got[0] != "d6" {
		t.Fatalf("kept %v, want d6..d9", got)
	}
}
