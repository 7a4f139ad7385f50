package main

import (
	"fmt"
	"strings"
	"testing"
)

// F8: tgms write bounds a batch in ops, not only in bytes (tiny ops under
// the byte limit once needed gigabytes), and names the limit; a refused
// batch changes nothing, and a batch at the limit is written.
func TestWriteBoundsOps(t *testing.T) {
	defer func(n int) { maxBatchOps = n }(maxBatchOps)
	maxBatchOps = 5
	store := smallStore(t)
	digest, _, _ := runCLI(t, "digest", "--store", store)
	ops := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, `{"op":"assert_node","uid":"op%d"}`+"\n", i)
		}
		return b.String()
	}
	f := write(t, t.TempDir(), "many.jsonl", ops(6))
	_, errs, code := runCLI(t, "write", "--store", store, "--ops", f)
	if code != exitInput || !strings.Contains(errs, "more than 5 ops") {
		t.Fatalf("exit %d: %q", code, errs)
	}
	if now, _, _ := runCLI(t, "digest", "--store", store); now != digest {
		t.Fatal("a refused batch changed the store")
	}
	f = write(t, t.TempDir(), "five.jsonl", ops(5))
	if _, errs, code := runCLI(t, "write", "--store", store, "--ops", f); code != 0 {
		t.Fatalf("a batch at the limit: exit %d: %s", code, errs)
	}
}
