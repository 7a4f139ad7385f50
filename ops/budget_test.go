package ops_test

import (
	"context"
	"errors"
	"testing"

	"github.com/tgms-go/tgms/ops"
)

// The executor charges a payload its PayloadBytes, measured in the same
// walk as its digest: a budget of exactly that admits the call with the
// same digest, and any smaller one is refused with E_LIMIT naming the
// whole size, however early the walk stopped.
func TestExecuteChargesPayloadBytes(t *testing.T) {
	src := storeSource{budgetStore(t)}
	ctx := context.Background()
	for _, c := range []struct {
		op   string
		args map[string]any
	}{
		{"entity_history", map[string]any{"uid": "n0", "include_edges": true, "limit": int64(40)}},
		{"snapshot_subgraph", map[string]any{"seeds": []any{"n1"}, "hops": int64(2), "t_valid": int64(5_000_000)}},
	} {
		env, err := ops.Execute(ctx, src, c.op, c.args)
		if err != nil {
			t.Fatal(err)
		}
		size := ops.PayloadBytes(env.Result)
		if env.Bytes != size {
			t.Fatalf("%s: envelope charges %d bytes, PayloadBytes of its result is %d", c.op, env.Bytes, size)
		}
		at, err := ops.ExecuteWith(ctx, src, c.op, c.args, ops.ExecOptions{MemBudget: size})
		if err != nil || at.ResultDigest != env.ResultDigest || at.Bytes != size {
			t.Fatalf("%s under a budget of exactly %d bytes: %v", c.op, size, err)
		}
		for _, budget := range []int64{size - 1, size / 2, 100, 1} {
			_, err := ops.ExecuteWith(ctx, src, c.op, c.args, ops.ExecOptions{MemBudget: budget})
			var oe *ops.Error
			if !errors.As(err, &oe) || oe.Code != ops.ELimit {
				t.Fatalf("%s under a budget of %d bytes (payload %d): %v, want E_LIMIT", c.op, budget, size, err)
			}
			if oe.Details["bytes"] != size || oe.Details["mem_budget"] != budget {
				t.Fatalf("%s under a budget of %d bytes: details %v, want bytes %d", c.op, budget, oe.Details, size)
			}
		}
	}
}
