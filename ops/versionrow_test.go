package ops_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
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
		{"version_history", map[string]any{"kind": "node", "uids": []any{"n0", "n1"}, "window": map[string]any{"t_a": m.VtMin, "t_b": m.VtMax + 1}, "limit": int64(4)}},
		{"version_history", map[string]any{"kind": "edge", "uids": []any{"n0"}, "window": map[string]any{"t_a": m.VtMin, "t_b": mid}, "limit": int64(6), "provenance": true}},
		{"diff_snapshots", map[string]any{"t1": mid, "t2": mid + (m.VtMax-m.VtMin)/40, "limit": int64(20)}},
		{"neighborhood_evolution", map[string]any{"uid": "n0", "t1": mid, "t2": mid + (m.VtMax-m.VtMin)/10}},
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
			checkMapSummary(t, plain, typed)
			var list []any
			for _, k := range []string{"rows", "edges", "edges_added", "edges_removed", "props_changed", "degree_series"} {
				l, _ := plain.Result[k].([]any)
				list = append(list, l...)
			}
			for _, row := range list {
				if _, ok := row.(map[string]any); !ok {
					t.Fatalf("%s: a row of the default envelope is %T, not a map", call.op, row)
				}
			}
			rows += len(list)
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

// TestTypedRowsRandomStores compares the two encodings on random stores
// (corrections, retractions, float and empty property bags, provenance):
// every operator with an argument generator is run with map rows and with
// typed rows, and the canonical envelopes, digests and sizes must agree.
func TestTypedRowsRandomStores(t *testing.T) {
	ctx := context.Background()
	for _, spec := range ops.All() {
		gen, ok := argGens[spec.Name]
		if !ok {
			continue
		}
		t.Run(spec.Name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(len(spec.Name)), 7))
			compared := 0
			for i := range 150 {
				m, e := build(t, oracle.RandomHistory(rng, 2+rng.IntN(10)))
				args := gen(rng, newWorld(rng, m))
				if _, has := spec.Args.Properties["provenance"]; has && rng.IntN(3) == 0 {
					args["provenance"] = true
				}
				plain, err := ops.Execute(ctx, storeSource{e}, spec.Name, args)
				typed, errT := ops.ExecuteWith(ctx, storeSource{e}, spec.Name, args, ops.ExecOptions{Typed: true})
				if (err == nil) != (errT == nil) {
					t.Fatalf("case %d %v: map rows %v, typed %v", i, args, err, errT)
				}
				if err != nil {
					continue
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
					t.Fatalf("case %d %v: map and typed envelopes differ (%d and %d bytes):\n%s\n%s", i, args, plain.Bytes, typed.Bytes, a, b)
				}
				// Both envelopes are summarized before the rows become
				// maps: the map rows' own digest and size must agree.
				checkMapSummary(t, plain, typed)
				compared++
			}
			if compared < 30 {
				t.Fatalf("only %d of 150 calls answered", compared)
			}
		})
	}
}

// checkMapSummary checks that the digest and size of plain's map rows,
// computed afresh, are those typed's rows reported.
func checkMapSummary(t *testing.T, plain, typed *ops.Envelope) {
	t.Helper()
	sum, err := canon.Summarize(plain.Result, 1<<40)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Digest != typed.ResultDigest || sum.Footprint != typed.Bytes {
		t.Fatalf("%s: the map rows digest to %s and measure %d bytes, the typed rows %s and %d", plain.Op, sum.Digest, sum.Footprint, typed.ResultDigest, typed.Bytes)
	}
}
