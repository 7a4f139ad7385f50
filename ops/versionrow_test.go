package ops_test

import (
	"bytes"
	"context"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
)

// TestTypedRowsEnvelopes runs the operators with version rows both ways,
// as maps (the default) and typed (ExecOptions.Typed), on pages and their
// continuations: the canonical envelopes must be the same bytes, and the
// map rows must be maps.
func TestTypedRowsEnvelopes(t *testing.T) {
	e := engine.New()
	m, err := datasets.Synthesize(datasets.SynthConfig{Events: 20_000, Seed: 5}, func(chunk []bt.Event) error {
		eff, err := bt.Plan(e, bt.Time(e.Batches()+1), e.Batches()+1, []bt.Op{bt.Ingest(chunk, "Node")})
		if err != nil {
			return err
		}
		return e.Apply(eff)
	})
	if err != nil {
		t.Fatal(err)
	}
	mid := m.VtMin + (m.VtMax-m.VtMin)/2
	r := e.Reader(bt.OpenEnd)
	var seed string
	for _, v := range r.EdgesValidAt(mid) {
		seed = r.UID(r.Src(v))
		break
	}
	calls := []struct {
		op   string
		args map[string]any
	}{
		{"entity_history", map[string]any{"uid": "n0"}},
		{"entity_history", map[string]any{"uid": "n0", "include_edges": true, "provenance": true, "limit": int64(7)}},
		{"snapshot_subgraph", map[string]any{"seeds": []any{seed}, "hops": int64(2), "t_valid": mid, "limit": int64(3)}},
		{"co_active", map[string]any{"a_spec": map[string]any{"src": "n0"}, "b_spec": map[string]any{"rel_type": "CALL"},
			"allen_relation": map[string]any{"relation": "overlaps", "gap": int64(60_000_000)}, "limit": int64(5)}},
	}
	ctx, src := context.Background(), storeSource{e}
	rows := 0
	for _, call := range calls {
		args := call.args
		for page := 0; page < 3; page++ {
			plain, err := ops.Execute(ctx, src, call.op, args)
			if err != nil {
				t.Fatalf("%s %v: %v", call.op, args, err)
			}
			typed, err := ops.ExecuteWith(ctx, src, call.op, args, ops.ExecOptions{Typed: true})
			if err != nil {
				t.Fatalf("%s %v (typed): %v", call.op, args, err)
			}
			a, err := plain.Canonical()
			if err != nil {
				t.Fatal(err)
			}
			b, err := typed.Canonical()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a, b) || plain.ResultDigest != typed.ResultDigest || plain.Bytes != typed.Bytes {
				t.Fatalf("%s %v: map and typed envelopes differ:\n%s\n%s", call.op, args, a, b)
			}
			list, _ := plain.Result["rows"].([]any)
			edges, _ := plain.Result["edges"].([]any)
			for _, row := range append(edges, list...) {
				if _, ok := row.(map[string]any); !ok {
					t.Fatalf("%s: a row of the default envelope is %T, not a map", call.op, row)
				}
			}
			rows += len(list) + len(edges)
			cur, _ := plain.Result["cursor"].(string)
			if cur == "" {
				break
			}
			args = map[string]any{}
			for k, v := range call.args {
				args[k] = v
			}
			args["cursor"] = cur
		}
	}
	if rows < 10 {
		t.Fatalf("only %d rows compared", rows)
	}
}
