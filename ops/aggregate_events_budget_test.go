package ops_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

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
