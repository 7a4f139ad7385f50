package ops_test

import (
	"context"
	"testing"

	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
)

// compute without limit returns every row of its result (a reduction after
// a 549-row set difference must not meet a default page); with a limit it
// pages.
func TestComputeDefaultLimitIsTheInput(t *testing.T) {
	var in, other []any
	for i := range 600 {
		in = append(in, int64(i))
		if i%12 == 0 {
			other = append(other, int64(i))
		}
	}
	env, err := ops.Execute(context.Background(), storeSource{engine.New()}, "compute", map[string]any{"fn": "difference", "input": in, "other": other})
	if err != nil {
		t.Fatal(err)
	}
	r := env.Result
	if r["rows_total"] != int64(550) || len(r["rows"].([]any)) != 550 || r["truncated"] != false || r["cursor"] != nil {
		t.Fatalf("rows_total %v, %d rows, truncated %v", r["rows_total"], len(r["rows"].([]any)), r["truncated"])
	}
	env, err = ops.Execute(context.Background(), storeSource{engine.New()}, "compute", map[string]any{"fn": "difference", "input": in, "other": other, "limit": int64(100)})
	if err != nil {
		t.Fatal(err)
	}
	if r := env.Result; r["rows_total"] != int64(550) || len(r["rows"].([]any)) != 100 || r["truncated"] != true {
		t.Fatalf("with limit 100: rows_total %v, %d rows, truncated %v", r["rows_total"], len(r["rows"].([]any)), r["truncated"])
	}
}
