package ops_test

import (
	"encoding/json"
	"reflect"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/ops"
)

// Every registered operator declares a scope rule with its manual text.
func TestEveryOperatorHasAScopeRule(t *testing.T) {
	for _, s := range ops.All() {
		if ops.ScopeDoc(s.Name) == "" {
			t.Errorf("%s has no scope rule: its results would depend on everything", s.Name)
		}
	}
	if sc := ops.ScopeOf("no_such_operator", nil); !sc.All {
		t.Fatalf("an unknown operator's scope is %+v, want everything", sc)
	}
}

func prepared(t *testing.T, op, args string) map[string]any {
	t.Helper()
	raw, err := canon.Parse([]byte(args))
	if err != nil {
		t.Fatal(err)
	}
	_, a, err := ops.Prepare(op, raw.(map[string]any))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestScopeOf(t *testing.T) {
	w := bt.Interval{Start: 10, End: 20}
	cases := []struct {
		op, args string
		want     ops.Scope
	}{
		{"entity_history", `{"uid":"a"}`, ops.Scope{Known: []string{"a"}, Nodes: []ops.NodeScope{{UIDs: []string{"a"}, Valid: bt.Always}}}},
		{"entity_history", `{"uid":"a","include_edges":true}`, ops.Scope{Known: []string{"a"}, Nodes: []ops.NodeScope{{UIDs: []string{"a"}, Valid: bt.Always}},
			Edges: []ops.EdgeScope{{Endpoints: []string{"a"}, Valid: bt.Always}}}},
		{"temporal_reachability", `{"src":"a","window":{"t_a":10,"t_b":20}}`, ops.Scope{Known: []string{"a"}, Edges: []ops.EdgeScope{{Valid: w, PropsFree: true}}}},
		{"aggregate_events", `{"window":{"t_a":10,"t_b":20},"group_by":[],"aggregates":[{"agg":"count"}],"endpoint_filter":{"role":"src","uids":["b","a","b"]},"rel_types":["R"]}`,
			ops.Scope{Known: []string{"a", "b"}, Edges: []ops.EdgeScope{{Endpoints: []string{"a", "b"}, RelTypes: []string{"R"}, Valid: w, PropsFree: true}}}},
		{"aggregate_events", `{"window":{"t_a":10,"t_b":20},"group_by":[],"aggregates":[{"agg":"sum","of":"prop","prop":"w"}]}`,
			ops.Scope{Edges: []ops.EdgeScope{{Valid: w}}}},
		{"aggregate_events", `{"window":{"t_a":10,"t_b":20},"group_by":[{"dim":"label","role":"src"}],"aggregates":[{"agg":"count"}]}`,
			ops.Scope{Nodes: []ops.NodeScope{{Valid: w}}, Edges: []ops.EdgeScope{{Valid: w, PropsFree: true}}}},
		{"snapshot_subgraph", `{"seeds":["a"],"hops":0,"t_valid":15,"rel_types":[]}`,
			ops.Scope{Known: []string{"a"}, Nodes: []ops.NodeScope{{UIDs: []string{"a"}, Valid: bt.Interval{Start: 15, End: 16}}},
				Edges: []ops.EdgeScope{{Endpoints: []string{"a"}, RelTypes: []string{}, Valid: bt.Interval{Start: 15, End: 16}}}}},
		{"burst_detection", `{"target":{"kind":"edge_event_rate","uid":"a"},"window":{"t_a":10,"t_b":20},"stride":5}`, ops.Scope{Edges: []ops.EdgeScope{{Valid: w, PropsFree: true}}}},
		{"graph_metric_timeseries", `{"metric":"node_count","window":{"t_a":10,"t_b":20},"stride":5}`, ops.Scope{Nodes: []ops.NodeScope{{Valid: w}}}},
		{"compute", `{"fn":"count","input":[1,2]}`, ops.Scope{}},
	}
	for _, c := range cases {
		got := ops.ScopeOf(c.op, prepared(t, c.op, c.args))
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %s:\n got  %+v\n want %+v", c.op, c.args, got, c.want)
		}
	}
}

// A scope survives its JSON form (what a trace file holds), "any" (null)
// and "none" ([]) kept apart, and Value is the canonical form of that JSON.
func TestScopeJSONRoundTrip(t *testing.T) {
	for _, sc := range []ops.Scope{
		{All: true},
		{},
		{Known: []string{"a"}, Nodes: []ops.NodeScope{{Valid: bt.Always}}, Edges: []ops.EdgeScope{{RelTypes: []string{}, EIDs: []string{"e"}, Valid: bt.Interval{Start: 1, End: 2}}, {PropsFree: true, Valid: bt.Always}}},
	} {
		b, err := json.Marshal(sc)
		if err != nil {
			t.Fatal(err)
		}
		var back ops.Scope
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, sc) {
			t.Errorf("%s read back as %+v", b, back)
		}
		cj, _ := canon.Canonicalize(b)
		cv, _ := canon.Marshal(sc.Value())
		if sc.All {
			cj = []byte(`{"all":true}`)
		}
		if string(cj) != string(cv) {
			t.Errorf("Value %s, JSON %s", cv, cj)
		}
	}
}

func TestMeets(t *testing.T) {
	sc := ops.ScopeOf("aggregate_events", map[string]any{"window": map[string]any{"t_a": int64(10), "t_b": int64(20)},
		"endpoint_filter": map[string]any{"uids": []any{"a"}}, "rel_types": []any{"R"}})
	k := bt.EdgeKey{Src: "x", Dst: "a", RelType: "R"}
	for _, c := range []struct {
		k    bt.EdgeKey
		hull bt.Interval
		want bool
	}{
		{k, bt.Interval{Start: 19, End: 20}, true},
		{k, bt.Interval{Start: 20, End: 21}, false}, // after the window
		{k, bt.Interval{Start: 0, End: 11}, true},   // a fragment reaching into it
		{bt.EdgeKey{Src: "x", Dst: "y", RelType: "R"}, bt.Interval{Start: 12, End: 13}, false},
		{bt.EdgeKey{Src: "a", Dst: "y", RelType: "S"}, bt.Interval{Start: 12, End: 13}, false},
	} {
		if got := sc.MeetsEdge(c.k, "", c.hull, false); got != c.want {
			t.Errorf("MeetsEdge(%v, %s) = %v", c.k, c.hull, got)
		}
	}
	if !sc.MeetsEdge(k, "", bt.Interval{Start: 12, End: 13}, false) || sc.MeetsEdge(k, "", bt.Interval{Start: 12, End: 13}, true) {
		t.Error("a count reads no edge props: a props-only write must not meet it, any other must")
	}
	if !sc.MeetsRegistration("a") || sc.MeetsRegistration("b") || sc.MeetsNode("a", bt.Always) {
		t.Error("registration or node test wrong for an edge-only scope")
	}
}
