package ops_test

import (
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

// TestResolveEntitiesAt: names as they were at a valid time. An alias a
// node had over [0, 100) finds it at 50 (the row says which version
// matched), not at 150; a name two nodes held at once is two candidates;
// without at the rows are what they always were.
func TestResolveEntitiesAt(t *testing.T) {
	m, e := build(t, []oracle.Batch{
		{TT: 1, Ops: []bt.Op{bt.AssertNode("u1", "Person", `{"name":"Dana Ray"}`, bt.Interval{Start: 0, End: 100})}},
		{TT: 2, Ops: []bt.Op{bt.AssertNode("u1", "Person", `{"name":"Dana Smith"}`, bt.Interval{Start: 100, End: bt.OpenEnd})}},
		{TT: 3, Ops: []bt.Op{bt.AssertNode("u2", "Org", `{"name":"Ray Corp"}`, bt.Interval{Start: 50, End: 300})}},
		{TT: 4, Ops: []bt.Op{bt.Correct(bt.NodeRef("u2"), `{"name":"Dana Ray Ltd"}`, bt.Interval{Start: 200, End: 300})}},
	})
	cases := []resolveOpCase{
		{name: "alias at its time", args: map[string]any{"query": "dana ray", "at": int64(50)},
			want: `{"cursor":null,"rows":[{"label":"Person","match":2,"name":"Dana Ray","uid":"u1","vt_e":100,"vt_s":0}],"rows_total":1,"truncated":false}`},
		{name: "alias after it", args: map[string]any{"query": "smith", "at": int64(50)},
			want: `{"cursor":null,"rows":[],"rows_total":0,"truncated":false}`},
		{name: "new name", args: map[string]any{"query": "smith", "at": int64(150)},
			want: `{"cursor":null,"rows":[{"label":"Person","match":2,"name":"Dana Smith","uid":"u1","vt_e":4611686018427387904,"vt_s":100}],"rows_total":1,"truncated":false}`},
		{name: "two candidates at once", args: map[string]any{"query": "ray", "at": int64(60)},
			want: `{"cursor":null,"rows":[{"label":"Person","match":2,"name":"Dana Ray","uid":"u1","vt_e":100,"vt_s":0},{"label":"Org","match":2,"name":"Ray Corp","uid":"u2","vt_e":200,"vt_s":50}],"rows_total":2,"truncated":false}`},
		{name: "corrected name", args: map[string]any{"query": "ltd", "at": int64(250)},
			want: `{"cursor":null,"rows":[{"label":"Org","match":2,"name":"Dana Ray Ltd","uid":"u2","vt_e":300,"vt_s":200}],"rows_total":1,"truncated":false}`},
		{name: "belief before the correction", args: map[string]any{"query": "ltd", "at": int64(250), "as_of_tt": int64(3)},
			want: `{"cursor":null,"rows":[],"rows_total":0,"truncated":false}`},
		{name: "uid needs a version then", args: map[string]any{"query": "u2", "at": int64(10)},
			want: `{"cursor":null,"rows":[],"rows_total":0,"truncated":false}`},
		{name: "label as of then", args: map[string]any{"query": "u", "at": int64(10), "label": "Person"},
			want: `{"cursor":null,"rows":[{"label":"Person","match":1,"name":"Dana Ray","uid":"u1","vt_e":100,"vt_s":0}],"rows_total":1,"truncated":false}`},
		{name: "without at: any valid time, no interval", args: map[string]any{"query": "dana ray"},
			want: `{"cursor":null,"rows":[{"label":"Person","match":2,"name":"Dana Smith","uid":"u1"},{"label":"Org","match":2,"name":"Dana Ray Ltd","uid":"u2"}],"rows_total":2,"truncated":false}`},
		{name: "negative at", args: map[string]any{"query": "x", "at": int64(-1)}, code: ops.ESchema},
	}
	resolveRunCases(t, "resolve_entities", e, cases)
	// The oracle agrees on every case that is not a refusal.
	for _, tc := range cases {
		if tc.code != "" {
			continue
		}
		args := map[string]any{}
		for k, v := range tc.args {
			args[k] = v
		}
		if _, ok := args["as_of_tt"]; !ok {
			args["as_of_tt"] = int64(4)
		}
		got, err := oracle.Call(m, "resolve_entities", args)
		if err != nil {
			t.Fatalf("%s: oracle: %v", tc.name, err)
		}
		rows, _ := got["rows"].([]any)
		if want := countRows(tc.want); len(rows) != want {
			t.Errorf("%s: oracle has %d rows, the operator %d", tc.name, len(rows), want)
		}
	}
}

func countRows(payload string) int {
	n := 0
	for i := 0; i+6 <= len(payload); i++ {
		if payload[i:i+6] == `"uid":` {
			n++
		}
	}
	return n
}
