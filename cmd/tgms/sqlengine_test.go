package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// tgms call on a PostgreSQL store: --engine sql gives the result digest of
// the in-memory read model (--engine native); an operator without SQL is refused naming those with
// it; --engine sql on a directory is a usage error.
func TestCallEngineSQL(t *testing.T) {
	p := newPGSynth(t, "sqlcall")
	dir, url := p.Dir, p.URL
	files := filepath.Join(dir, "store")
	if out, errs, code := runCLI(t, "ingest", "--events", p.Events, "--store", files); code != 0 {
		t.Fatalf("ingest into %s: exit %d %s %s", files, code, out, errs)
	}
	// (The file store has other transaction times, so other version ids:
	// it serves the usage error below.)
	digest := func(args ...string) string {
		t.Helper()
		out, errs, code := runCLI(t, append([]string{"call"}, args...)...)
		var env struct {
			Result       map[string]any `json:"result"`
			ResultDigest string         `json:"result_digest"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &env) != nil || env.ResultDigest == "" {
			t.Fatalf("call %v: exit %d %s %s", args, code, out, errs)
		}
		if rows, _ := env.Result["rows"].([]any); len(rows) == 0 {
			t.Fatalf("call %v: no rows, a comparison that tests nothing", args)
		}
		return env.ResultDigest
	}
	for _, call := range [][]string{
		{"entity_history", `{"uid":"n1","include_edges":true,"limit":5}`},
		{"graph_metric_timeseries", `{"metric":"edge_event_count","window":{"t_a":0,"t_b":4000000000000000},"stride":100000000000000}`},
		{"graph_metric_timeseries", `{"metric":"node_count","window":{"t_a":0,"t_b":4000000000000000},"stride":100000000000000}`},
		{"temporal_reachability", `{"src":"n1","window":{"t_a":0,"t_b":4000000000000000},"direction":"both"}`},
	} {
		want := digest("--store", url, call[0], call[1])
		if got := digest("--store", url, "--engine", "sql", call[0], call[1]); got != want {
			t.Fatalf("%s --engine sql: digest %s, the read model's %s", call[0], got, want)
		}
	}
	out, _, code := runCLI(t, "call", "--store", url, "--engine", "sql", "version_history", `{"kind":"node","window":{"t_a":0,"t_b":10}}`)
	if code != exitInput || !strings.Contains(out, "no SQL form") || !strings.Contains(out, "entity_history") {
		t.Fatalf("an operator without SQL: exit %d %s", code, out)
	}
	if _, errs, code := runCLI(t, "call", "--store", files, "--engine", "sql", "entity_history", `{"uid":"n1"}`); code == 0 || !strings.Contains(errs, "PostgreSQL store") {
		t.Fatalf("--engine sql on a directory: exit %d %s", code, errs)
	}
}
