package ops

import (
	"context"
	"fmt"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
)

// TestTemporalPathsWorkFollowsSrc: the work temporal_paths spends follows
// the neighbourhood of src, not the window. dst has 20,000 senders, each
// with a sender of its own, that src cannot reach; src reaches 50 nodes
// that are too late for dst. The single path a→b→hub may read the hub's
// in-edges once, but nothing of the senders behind them.
func TestTemporalPathsWorkFollowsSrc(t *testing.T) {
	const fan, near = 20_000, 50
	evs := []bt.Event{
		{Src: "a", Dst: "b", RelType: "MSG", VtS: 10},
		{Src: "b", Dst: "hub", RelType: "MSG", VtS: 20},
	}
	for i := range int64(fan) {
		evs = append(evs, bt.Event{Src: fmt.Sprintf("s%d", i), Dst: "hub", RelType: "MSG", VtS: 5 + i},
			bt.Event{Src: fmt.Sprintf("r%d", i), Dst: fmt.Sprintf("s%d", i), RelType: "MSG", VtS: 4})
	}
	for i := range int64(near) {
		evs = append(evs,
			bt.Event{Src: "b", Dst: fmt.Sprintf("late%d", i), RelType: "MSG", VtS: 100_000 + i},
			bt.Event{Src: fmt.Sprintf("late%d", i), Dst: "hub", RelType: "MSG", VtS: 1 + i%5})
	}
	e := engine.New()
	eff, err := bt.Plan(e, 1, 1, []bt.Op{bt.Ingest(evs, "Node")})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Apply(eff); err != nil {
		t.Fatal(err)
	}
	for _, hops := range []int64{2, 3, 6} {
		c := &Call{Ctx: context.Background(), R: Native{e.Reader(bt.OpenEnd)}, limit: MaxWork, Args: map[string]any{
			"src": "a", "dst": "hub", "window": map[string]any{"t_a": int64(0), "t_b": int64(1_000_000)},
			"k": int64(5), "max_hops": hops, "order": "earliest_arrival"}}
		res, err := runTemporalPaths(c)
		if err != nil {
			t.Fatalf("max_hops %d: %v", hops, err)
		}
		if got := res["rows_total"]; got != int64(1) {
			t.Fatalf("max_hops %d: rows_total %v, want 1 (a→b→hub)", hops, got)
		}
		// The hub's in-list once, and a's, b's and the late nodes'
		// out-lists a few times; never the senders' in-lists.
		if limit := int64(fan + 20*near); c.work > limit {
			t.Fatalf("max_hops %d: %d work units, want at most %d", hops, c.work, limit)
		}
		t.Logf("max_hops %d: %d work units", hops, c.work)
	}
}
