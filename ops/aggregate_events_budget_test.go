package ops_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
)

// budgetStore holds 20,000 messages among four nodes, one every second.
func budgetStore(t *testing.T) *engine.Store {
	t.Helper()
	var evs []bt.Event
	for i := range int64(20_000) {
		evs = append(evs, bt.Event{Src: fmt.Sprintf("n%d", i%4), Dst: fmt.Sprintf("n%d", (i+1)%4), RelType: "MSG",
			VtS: i * 1_000_000, Props: bt.Props(fmt.Sprintf(`{"w":%d}`, i%7))})
	}
	e := engine.New()
	eff, err := bt.Plan(e, 1, 1, []bt.Op{bt.Ingest(evs, "Node")})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Apply(eff); err != nil {
		t.Fatal(err)
	}
	return e
}

// The events the sequence aggregates keep count against the memory
// budget: one global group of 20,000 events fits 1 MiB, but not 64 KiB,
// and the E_LIMIT names the aggregate; a plain count keeps no event and
// fits the small budget.
func TestAggregateEventsChargesKeptEvents(t *testing.T) {
	e := budgetStore(t)
	call := func(agg map[string]any, budget int64) error {
		_, err := ops.ExecuteWith(context.Background(), storeSource{e}, "aggregate_events", map[string]any{
			"window": map[string]any{"t_a": int64(0), "t_b": int64(20_000_000_000)}, "group_by": []any{},
			"aggregates": []any{agg}}, ops.ExecOptions{MemBudget: budget})
		return err
	}
	for _, agg := range []map[string]any{
		{"agg": "returns", "gap": int64(0)},
		{"agg": "max_in_window", "span": int64(10)},
		{"agg": "max_distinct_in_window", "of": "dst", "span": int64(10)},
		{"agg": "reply_delay", "stat": "median"},
		{"agg": "first_k", "k": int64(5), "stat": "mean", "of": "prop", "prop": "w"},
		{"agg": "last_k", "k": int64(5), "stat": "count"},
	} {
		name := agg["agg"].(string)
		if err := call(agg, 1<<20); err != nil {
			t.Fatalf("%s under 1 MiB: %v", name, err)
		}
		err := call(agg, 64<<10)
		var oe *ops.Error
		if !errors.As(err, &oe) || oe.Code != ops.ELimit || !strings.Contains(oe.Error(), name) {
			t.Fatalf("%s under 64 KiB: %v, want E_LIMIT naming it", name, err)
		}
		t.Logf("%s: %v", name, err)
	}
	if err := call(map[string]any{"agg": "count"}, 64<<10); err != nil {
		t.Fatalf("count under 64 KiB: %v", err)
	}
}

// BenchmarkAggregateEventsPairGroupHeap1M measures what grouping the 1M
// synthetic store's events by directed pair really holds per group: the
// peak heap over the call (sampled every millisecond, less the heap
// before it), the heap still live with the result, and the charge the
// budget makes (from the E_LIMIT under a 1 MiB budget). The call runs
// whole (every row, as a plan step without limit), so the result is the
// payload the executor then charges.
func BenchmarkAggregateEventsPairGroupHeap1M(b *testing.B) {
	e, _ := benchStore1M(b)
	args := map[string]any{"window": aggBenchWindow(91), "group_by": []any{map[string]any{"dim": "pair"}},
		"aggregates": []any{map[string]any{"agg": "count"}}}
	_, err := ops.ExecuteWith(context.Background(), storeSource{e}, "aggregate_events", args, ops.ExecOptions{MemBudget: 1 << 20})
	var oe *ops.Error
	if !errors.As(err, &oe) || oe.Code != ops.ELimit {
		b.Fatalf("under 1 MiB: %v", err)
	}
	charge := float64(oe.Details["bytes"].(int64)) / float64(oe.Details["rows"].(int64))
	for range b.N {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		var peak atomic.Uint64
		done := make(chan struct{})
		go func() {
			var ms runtime.MemStats
			for {
				select {
				case <-done:
					return
				case <-time.After(time.Millisecond):
					runtime.ReadMemStats(&ms)
					if ms.HeapAlloc > peak.Load() {
						peak.Store(ms.HeapAlloc)
					}
				}
			}
		}()
		env, err := ops.ExecuteWith(context.Background(), storeSource{e}, "aggregate_events", args, ops.ExecOptions{MemBudget: 8 << 30, Whole: true})
		close(done)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		groups := float64(env.Result["rows_total"].(int64))
		b.ReportMetric(groups, "groups")
		b.ReportMetric(float64(peak.Load()-before.HeapAlloc)/groups, "peak-B/group")
		b.ReportMetric((float64(after.HeapAlloc)-float64(before.HeapAlloc))/groups, "live-B/group")
		b.ReportMetric(float64(env.Bytes)/groups, "payload-B/group")
		b.ReportMetric(charge, "charged-B/group")
		runtime.KeepAlive(env)
	}
}
