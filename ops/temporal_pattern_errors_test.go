package ops_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

// Refusals name the argument that is wrong; empty and unknown bind lists
// are an empty, complete answer.
func TestTemporalPatternRefusals(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	_, e := build(t, oracle.RandomHistory(rng, 8))
	hop := func(s, d string) map[string]any { return map[string]any{"src": s, "dst": d} }
	with := func(h map[string]any, k string, v any) map[string]any { h[k] = v; return h }
	pred := func(cmp string, v ...any) []any {
		p := map[string]any{"prop": "w", "cmp": cmp}
		if len(v) > 0 {
			p["value"] = v[0]
		}
		return []any{p}
	}
	cases := []struct {
		name string
		args map[string]any
		want string // code and path
	}{
		{"self-loop hop", map[string]any{"hops": patHops(hop("u", "v"), hop("v", "v"))}, "E_INVALID_ARG /hops/1/dst"},
		{"pick on hop 0", map[string]any{"hops": patHops(with(hop("u", "v"), "pick", "first"))}, "E_INVALID_ARG /hops/0/pick"},
		{"bind an unused variable", map[string]any{"hops": patHops(hop("u", "v")), "bind": map[string]any{"w": []any{"a"}}}, "E_INVALID_ARG /bind/w"},
		{"min_gap above within", map[string]any{"hops": patHops(hop("u", "v"), hop("v", "w")), "within": int64(3), "min_gap": int64(4)}, "E_INVALID_ARG /min_gap"},
		{"boolean order", map[string]any{"hops": patHops(with(hop("u", "v"), "where", pred("lt", true)))}, "E_INVALID_ARG /hops/0/where/0/cmp"},
		{"missing value", map[string]any{"hops": patHops(with(hop("u", "v"), "where", pred("gt")))}, "E_INVALID_ARG /hops/0/where/0/value"},
		{"exists with a value", map[string]any{"hops": patHops(with(hop("u", "v"), "where", pred("exists", int64(1))))}, "E_INVALID_ARG /hops/0/where/0/value"},
		{"null value", map[string]any{"hops": patHops(with(hop("u", "v"), "where", pred("eq", nil)))}, "E_INVALID_ARG /hops/0/where/0/value"},
		{"unknown variable", map[string]any{"hops": patHops(hop("u", "q"))}, "E_SCHEMA /hops/0/dst"},
		{"five hops", map[string]any{"hops": patHops(hop("u", "v"), hop("v", "w"), hop("w", "x"), hop("x", "y"), hop("y", "z"))}, "E_SCHEMA /hops"},
		{"no hops", map[string]any{"hops": []any{}}, "E_SCHEMA /hops"},
		{"empty bind", map[string]any{"hops": patHops(hop("u", "v")), "bind": map[string]any{"u": []any{}}}, ""},
		{"unknown uid in bind", map[string]any{"hops": patHops(hop("u", "v")), "bind": map[string]any{"v": []any{"ghost"}}}, ""},
	}
	for _, c := range cases {
		c.args["window"] = fullWindow
		if got := patErrCode(e, c.args); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
			continue
		}
		if c.want == "" {
			r := patCall(t, e, c.args)
			if r["count"] != int64(0) || len(r["rows"].([]any)) != 0 || r["truncated"] != false {
				t.Errorf("%s: %v, want an empty, complete answer", c.name, r)
			}
		}
	}
}

// The cost model refuses an unbounded three-hop pattern over a large store
// before it runs and admits the same pattern within a minute.
func TestTemporalPatternCost(t *testing.T) {
	spec, _ := ops.Lookup("temporal_pattern")
	st := ops.Stats{Nodes: 20_000, NodeVersions: 20_000, EdgeVersions: 1_000_000, VtMin: 0, VtMax: 90 * patDay}
	hops := patHops(map[string]any{"src": "u", "dst": "v"}, map[string]any{"src": "v", "dst": "w"}, map[string]any{"src": "w", "dst": "x"})
	check := func(extra map[string]any) *ops.Error {
		raw := map[string]any{"window": map[string]any{"t_a": int64(0), "t_b": 90 * patDay}, "hops": hops}
		for k, v := range extra {
			raw[k] = v
		}
		_, args, err := ops.Prepare("temporal_pattern", raw)
		if err != nil {
			t.Fatal(err)
		}
		return ops.CheckCost(spec, args, st)
	}
	if err := check(nil); err == nil || err.Code != ops.ECost {
		t.Fatalf("unbounded 3-hop chain over 1M events: %v, want E_COST", err)
	}
	if err := check(map[string]any{"within": int64(60_000_000)}); err != nil {
		t.Fatalf("3-hop chain within a minute: %v", err)
	}
}

// FuzzTemporalPatternArgs: arbitrary arguments never panic or fail
// internally, and whatever passes the schema agrees with the oracle.
func FuzzTemporalPatternArgs(f *testing.F) {
	rng := rand.New(rand.NewPCG(5, 8))
	for range 20 {
		m, _ := build(f, oracle.RandomHistory(rng, 3))
		if b, err := canon.Marshal(patGenArgs(rng, newWorld(rng, m))); err == nil {
			f.Add(b)
		}
	}
	hist := oracle.RandomHistory(rand.New(rand.NewPCG(9, 9)), 8)
	m, e := build(f, hist)
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := canon.Parse(data)
		if err != nil {
			return
		}
		args, ok := v.(map[string]any)
		if !ok {
			return
		}
		env, errE := ops.ExecuteWith(context.Background(), storeSource{e}, "temporal_pattern", args, ops.ExecOptions{Whole: true})
		var oe *ops.Error
		if errE != nil && (!errors.As(errE, &oe) || oe.Code == ops.EInternal) {
			t.Fatalf("%s: %v", data, errE)
		}
		if errE != nil {
			return
		}
		_, prepared, _ := ops.Prepare("temporal_pattern", args)
		prepared["as_of_tt"] = min(env.AsOfTT, max(m.LastTT, 0))
		want, errO := oracle.Call(m, "temporal_pattern", prepared)
		if errO != nil {
			t.Fatalf("%s: engine ran, oracle refused: %v", data, errO)
		}
		rows, _ := want["rows"].([]any)
		want["rows_total"], want["cursor"], want["truncated"] = int64(len(rows)), nil, false
		wr, _ := canon.RoundFloats(want)
		gb, _ := canon.Marshal(env.Result)
		wb, _ := canon.Marshal(wr)
		if string(gb) != string(wb) {
			t.Fatalf("%s:\n engine %s\n oracle %s", data, gb, wb)
		}
	})
}
