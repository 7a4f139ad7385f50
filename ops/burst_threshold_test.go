package ops_test

import (
	"context"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

// A bucket whose score equals the threshold is flagged (the rule is
// score >= z, score >= r); one a step below the threshold's 9 decimals is
// not. The bucket [100, 110) follows ten buckets of 1, 2, 1, 2, …
// events.
func TestBurstThresholdIsInclusive(t *testing.T) {
	var evs []bt.Event
	for b := range 10 {
		for i := range 1 + b%2 {
			evs = append(evs, bt.Event{Src: "a", Dst: "b", RelType: "R", VtS: bt.Time(10*b + i)})
		}
	}
	for i := range 4 {
		evs = append(evs, bt.Event{Src: "a", Dst: "b", RelType: "R", VtS: bt.Time(100 + i)})
	}
	_, e := build(t, []oracle.Batch{{TT: 10, Ops: []bt.Op{bt.Ingest(evs, "")}}})
	call := func(method, param string, v float64) []any {
		t.Helper()
		env, err := ops.Execute(context.Background(), storeSource{e}, "burst_detection", map[string]any{
			"target": map[string]any{"kind": "edge_event_rate"}, "window": map[string]any{"t_a": int64(0), "t_b": int64(110)},
			"stride": int64(10), "method": method, "params": map[string]any{param: v}})
		if err != nil {
			t.Fatal(err)
		}
		rows, _ := env.Result["rows"].([]any)
		return rows
	}
	for _, c := range []struct{ method, param string }{{"zscore", "z"}, {"ratio", "r"}} {
		rows := call(c.method, c.param, 1.01)
		var score float64
		for _, r := range rows {
			if m := r.(map[string]any); m["t_a"] == int64(100) {
				score, _ = m["score"].(float64)
			}
		}
		if score <= 1.01 {
			t.Fatalf("%s: fixture: bucket [100, 110) not flagged with a score: %v", c.method, rows)
		}
		if got := call(c.method, c.param, score); len(got) == 0 || got[len(got)-1].(map[string]any)["t_a"] != int64(100) {
			t.Errorf("%s %s = %v (the bucket's score): bucket [100, 110) not flagged: %v", c.method, c.param, score, got)
		}
		for _, r := range call(c.method, c.param, score+1e-9) {
			if r.(map[string]any)["t_a"] == int64(100) {
				t.Errorf("%s %s = %v + 1e-9: bucket [100, 110) still flagged", c.method, c.param, score)
			}
		}
	}
}
