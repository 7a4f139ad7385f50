package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// tgms serve --engine sql answers operator tools and plans with the
// digests of a read replica, refuses a plan with a step without SQL
// naming the step, offers no tool that needs the read model, and refuses
// to write.
func TestServeEngineSQL(t *testing.T) {
	p := newPGSynth(t, "servesql")
	url, first := p.URL, p.First
	replica := startServe(t, "--store", url)
	sql := startServe(t, "--store", url, "--engine", "sql")
	window := map[string]any{"t_a": int64(0), "t_b": int64(4_000_000_000_000_000)}
	for _, call := range []struct {
		tool string
		args map[string]any
	}{
		{"entity_history", map[string]any{"uid": first.Src, "include_edges": true}},
		{"temporal_reachability", map[string]any{"src": first.Src, "window": window, "direction": "both"}},
		{"co_active", map[string]any{"a_spec": map[string]any{"src": first.Src}, "b_spec": map[string]any{}, "allen_relation": map[string]any{"relation": "before", "gap": int64(1_000_000_000)}}},
		{"resolve_entities", map[string]any{"query": first.Src}},
	} {
		code, want := callTool(t, replica, call.tool, call.args)
		rows, _ := want["result"].(map[string]any)["rows"].([]any)
		if code != 200 || len(rows) == 0 {
			t.Fatalf("%s on the replica: %d %v (no rows: a comparison that tests nothing)", call.tool, code, want)
		}
		if code, got := callTool(t, sql, call.tool, call.args); code != 200 || got["result_digest"] != want["result_digest"] {
			t.Fatalf("%s under --engine sql: %d %v, the replica's digest %v", call.tool, code, got, want["result_digest"])
		}
	}
	plan := map[string]any{"plan_id": "p", "answer_spec": map[string]any{"kind": "count", "from": "s2.value"},
		"steps": []any{
			map[string]any{"id": "s1", "op": "temporal_reachability", "args": map[string]any{"src": first.Src, "window": window}, "depends_on": []any{}},
			map[string]any{"id": "s2", "op": "compute", "args": map[string]any{"fn": "count", "input": map[string]any{"$ref": "s1.rows"}}, "depends_on": []any{"s1"}},
		}}
	args := map[string]any{"plan": plan, "uids": []any{first.Src}}
	code, want := callTool(t, replica, "run_plan", args)
	if code != 200 || want["ok"] != true {
		t.Fatalf("run_plan on the replica: %d %v", code, want)
	}
	if code, got := callTool(t, sql, "run_plan", args); code != 200 || got["trace_digest"] != want["trace_digest"] {
		t.Fatalf("run_plan under --engine sql: %d %v, the replica's trace digest %v", code, got, want["trace_digest"])
	}
	plan["steps"] = append(plan["steps"].([]any), map[string]any{"id": "s3", "op": "version_history",
		"args": map[string]any{"kind": "node", "window": window}, "depends_on": []any{}})
	code, resp := callTool(t, sql, "run_plan", args)
	refused, _ := resp["error"].(map[string]any)
	if code != http.StatusUnprocessableEntity || !strings.Contains(fmt.Sprint(refused["message"]), "step s3 runs version_history") || refused["path"] != "/steps/2/op" {
		t.Fatalf("a plan with a step without SQL: %d %v", code, resp)
	}
	for _, tool := range []string{"version_history", "ask", "trace_verify"} {
		if code, resp := callTool(t, sql, tool, map[string]any{}); code != http.StatusNotFound {
			t.Fatalf("%s under --engine sql: %d %v, want it not offered", tool, code, resp)
		}
	}
	if _, errs, code := runCLI(t, "serve", "--http", "127.0.0.1:0", "--store", url, "--engine", "sql", "--allow-writes"); code != exitInput || !strings.Contains(errs, "--allow-writes") {
		t.Fatalf("--engine sql --allow-writes: exit %d %s", code, errs)
	}
}
