package tools_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/internal/servertest/testdb"
	"github.com/tgms-go/tgms/server/tools"
)

// TestTraceCheckWhileWriting checks one trace from several goroutines while
// batches are written: the kept index never goes back (each caller sees
// batches_since grow or stay), a batch no step reads never makes the
// trace stale, and once the writes are done the check counts them all.
func TestTraceCheckWhileWriting(t *testing.T) {
	s := testdb.New(t)
	svc := tools.New(s.DB, tools.Options{})
	ctx := context.Background()
	out, f := svc.Call(ctx, "run_plan", map[string]any{"plan": testdb.HistoryPlan(), "uids": []any{"a"}})
	if f != nil {
		t.Fatal(f)
	}
	args := map[string]any{"trace_digest": out.(*tools.RunResult).TraceDigest}
	const writes = 5
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Go(func() {
			seen := 0
			for range 30 {
				out, f := svc.Call(ctx, "trace_check", args)
				if f != nil {
					errs <- f
					return
				}
				c := out.(*tools.CheckResult)
				if c.Batches < seen || !c.Fresh {
					errs <- fmt.Errorf("batches_since %d after %d, fresh %v", c.Batches, seen, c.Fresh)
					return
				}
				seen = c.Batches
			}
		})
	}
	for i := range writes {
		if _, err := s.DB.Write(bt.AssertNode(fmt.Sprintf("w%d", i), "Person", bt.Props(`{"name":"W"}`), bt.Interval{Start: 0, End: bt.OpenEnd})); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	out, f = svc.Call(ctx, "trace_check", args)
	if c := out.(*tools.CheckResult); f != nil || c.Batches != writes || !c.Fresh {
		t.Fatalf("after the writes: %+v %v", out, f)
	}
}
