package sqlengine

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/eventlog"
	"github.com/tgms-go/tgms/internal/pgtest"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
	"github.com/tgms-go/tgms/pgstore"
	"pgregory.net/rapid"
)

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.StopShared()
	os.Exit(code)
}

func schemaURL(c *pgtest.Cluster, schema string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable&schema=%s", c.Port, schema)
}

// native runs calls on a PostgreSQL store's read model, pinned as DB.Read
// pins them (clamped to the last batch).
type native struct{ s *pgstore.Store }

func (n native) Read(asOf bt.Time, fn func(engine.Reader) error) error {
	return fn(n.s.Engine().Reader(min(asOf, n.s.LastTT())))
}

// writeHistory writes an oracle random history to a new schema and returns
// the open store (its read model is the native engine). The batches state
// no provenance (Batch.Prov is left out), so entity_history is compared
// too; TestHistoryRefusedWithStatedProvenance covers the other case.
func writeHistory(t fataler, url string, hist []oracle.Batch) *pgstore.Store {
	ctx := context.Background()
	s, err := pgstore.Open(ctx, url, pgstore.Options{Write: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range hist {
		err := s.Append(ctx, &eventlog.Record{TT: b.TT, Seq: s.Engine().Batches() + 1, Ops: b.Ops})
		var oe *bt.OpError
		if err != nil && !errors.As(err, &oe) {
			t.Fatalf("batch %d: %v", i, err)
		}
	}
	return s
}

// calls draws the calls of the supported operators over a store's uids
// and batch times: every uid (and one unknown), belief times before,
// between and after the batches, pages, and series over random windows.
func calls(rng *rand.Rand, hist []oracle.Batch) []map[string]any {
	var out []map[string]any
	asOfs := []any{nil, int64(5)}
	for _, b := range hist {
		asOfs = append(asOfs, b.TT, b.TT+5)
	}
	with := func(op string, args map[string]any, asOf any) map[string]any {
		if asOf != nil {
			args["as_of_tt"] = asOf
		}
		return map[string]any{"op": op, "args": args}
	}
	for _, uid := range []string{"a", "b", "c", "d", "e", "f", "zz"} {
		for range 3 {
			t1 := int64(rng.IntN(110)) - 5
			args := map[string]any{"uid": uid, "t1": t1, "t2": t1 + 1 + int64(rng.IntN(100)), "limit": int64(1 + rng.IntN(3))}
			if rng.IntN(2) == 0 {
				args["stride"] = int64(1 + rng.IntN(20))
			}
			out = append(out, with("neighborhood_evolution", args, asOfs[rng.IntN(len(asOfs))]))
		}
		for _, asOf := range asOfs {
			out = append(out, with("entity_history", map[string]any{"uid": uid}, asOf))
			out = append(out, with("entity_history", map[string]any{"uid": uid, "include_edges": true, "limit": int64(1 + rng.IntN(3))}, asOf))
		}
	}
	uids := []any{"a", "b", "c", "d", "e", "f", "zz"}
	relSets := []any{nil, []any{"R"}, []any{"S", "R"}, []any{}}
	for range 40 {
		seeds := []any{}
		for _, u := range uids {
			if rng.IntN(3) == 0 {
				seeds = append(seeds, u)
			}
		}
		args := map[string]any{"seeds": seeds, "hops": int64(rng.IntN(4)), "t_valid": int64(rng.IntN(110)) - 5, "limit": int64(1 + rng.IntN(8))}
		if r := relSets[rng.IntN(len(relSets))]; r != nil {
			args["rel_types"] = r
		}
		out = append(out, with("snapshot_subgraph", args, asOfs[rng.IntN(len(asOfs))]))
	}
	for range 40 {
		ta := int64(rng.IntN(120)) - 10
		tb := ta + 1 + int64(rng.IntN(130))
		target := map[string]any{"kind": "edge_event_rate"}
		if r := rng.IntN(3); r > 0 {
			target["rel_type"] = []string{"R", "S"}[r-1]
		}
		args := map[string]any{"target": target, "window": map[string]any{"t_a": ta, "t_b": tb}, "stride": int64(1 + rng.IntN(20)),
			"method": []string{"zscore", "ratio", "kleinberg"}[rng.IntN(3)]}
		out = append(out, with("burst_detection", args, asOfs[rng.IntN(len(asOfs))]))
	}
	for range 40 {
		ta := int64(rng.IntN(120)) - 10
		tb := ta + 1 + int64(rng.IntN(130))
		dir := []string{"out", "in", "both"}[rng.IntN(3)]
		args := map[string]any{"src": uids[rng.IntN(len(uids))], "window": map[string]any{"t_a": ta, "t_b": tb}, "direction": dir, "limit": int64(1 + rng.IntN(8))}
		out = append(out, with("temporal_reachability", args, asOfs[rng.IntN(len(asOfs))]))
	}
	for range 40 {
		ta := int64(rng.IntN(120)) - 10
		tb := ta + 1 + int64(rng.IntN(130))
		for _, m := range seriesMetrics {
			args := map[string]any{"metric": m, "window": map[string]any{"t_a": ta, "t_b": tb}, "stride": int64(1 + rng.IntN(40))}
			out = append(out, with("graph_metric_timeseries", args, asOfs[rng.IntN(len(asOfs))]))
		}
	}
	return append(out, moreCalls(rng, asOfs)...)
}

// equal runs one call on both engines: the same refusal code, or the same
// envelope byte for byte (arguments, belief time, extent, result, digest).
func equal(t fataler, ctx context.Context, nat ops.Backend, sql ops.Backend, call map[string]any) (nonEmpty bool) {
	nonEmpty, err := compare(ctx, nat, sql, call)
	if err != nil {
		t.Fatal(err)
	}
	return nonEmpty
}

// compare is equal's test, reporting a difference as an error.
func compare(ctx context.Context, nat ops.Backend, sql ops.Backend, call map[string]any) (nonEmpty bool, err error) {
	op := call["op"].(string)
	args := call["args"].(map[string]any)
	clone := func() map[string]any {
		m := map[string]any{}
		for k, v := range args {
			m[k] = v
		}
		return m
	}
	want, werr := ops.ExecuteOn(ctx, nat, op, clone(), ops.ExecOptions{})
	got, gerr := ops.ExecuteOn(ctx, sql, op, clone(), ops.ExecOptions{})
	if werr != nil || gerr != nil {
		var we, ge *ops.Error
		if !errors.As(werr, &we) || !errors.As(gerr, &ge) || we.Code != ge.Code {
			return false, fmt.Errorf("%s %v: native %v, sql %v", op, args, werr, gerr)
		}
		return false, nil
	}
	wb, err := want.Canonical()
	if err != nil {
		return false, err
	}
	gb, err := got.Canonical()
	if err != nil {
		return false, err
	}
	if string(wb) != string(gb) {
		return false, fmt.Errorf("%s %v:\nnative %s\nsql    %s", op, args, wb, gb)
	}
	rows, _ := want.Result["rows"].([]any)
	gained, _ := want.Result["neighbors_gained_total"].(int64)
	lost, _ := want.Result["neighbors_lost_total"].(int64)
	var diffs int64
	for _, k := range []string{"nodes_added_total", "nodes_removed_total", "edges_added_total", "edges_removed_total", "props_changed_total"} {
		n, _ := want.Result[k].(int64)
		diffs += n
	}
	motifs, _ := want.Result["count"].(int64)
	if gb, _ := args["group_by"].([]any); op == "aggregate_events" && len(gb) == 0 {
		rows = nil // one row whatever matched: not evidence of an answer
	}
	return len(rows) > 0 || gained+lost > 0 || diffs > 0 || motifs > 0 || want.Result["value"] != nil, nil
}

// Random bi-temporal stores (the oracle's histories: colliding
// assertions, bulk events, retractions, corrections) written to
// PostgreSQL give every supported operator the same envelope under the
// SQL engine as on the in-memory engine, and the same refusals.
func TestSQLEngineMatchesNative(t *testing.T) {
	c := pgtest.Shared(t)
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "rapid.checks" })
	if _, env := os.LookupEnv("RAPID_CHECKS"); !explicit && !env {
		flag.Set("rapid.checks", "15")
		defer flag.Set("rapid.checks", "100")
	}
	ctx := context.Background()
	n, answered := 0, map[string]int{}
	rapid.Check(t, func(rt *rapid.T) {
		seed := rapid.Uint64().Draw(rt, "seed")
		batches := rapid.IntRange(1, 12).Draw(rt, "batches")
		n++
		url := schemaURL(c, fmt.Sprintf("equiv_%d", n))
		rng := rand.New(rand.NewPCG(seed, 1))
		hist := oracle.RandomHistory(rng, batches)
		s := writeHistory(rt, url, hist)
		defer s.Close()
		e, err := Open(ctx, url)
		if err != nil {
			rt.Fatal(err)
		}
		defer e.Close()
		// More compute calls, from a generator of their own, so that the
		// filter form (the one with rows) is compared many times per run
		// without changing the calls the other tests draw.
		for _, call := range append(calls(rng, hist), computeCalls(rand.New(rand.NewPCG(seed, 2)), 36)...) {
			if equal(rt, ctx, ops.NativeBackend{Src: native{s}}, e, call) {
				answered[call["op"].(string)]++
			}
		}
	})
	// The comparison is not vacuous: every supported operator answered
	// with rows many times.
	t.Logf("calls answered with rows, by operator: %v", answered)
	for _, op := range Supported() {
		if answered[op] < 10 {
			t.Fatalf("%s answered with rows only %d times", op, answered[op])
		}
	}
}

// An operator without a SQL form is refused, naming those that have one.
func TestUnsupportedRefused(t *testing.T) {
	c := pgtest.Shared(t)
	ctx := context.Background()
	url := schemaURL(c, "refused")
	s := writeHistory(t, url, oracle.RandomHistory(rand.New(rand.NewPCG(1, 1)), 3))
	defer s.Close()
	e, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	_, err = ops.ExecuteOn(ctx, e, "version_history", map[string]any{"kind": "node", "window": map[string]any{"t_a": int64(0), "t_b": int64(100)}}, ops.ExecOptions{})
	var oe *ops.Error
	if !errors.As(err, &oe) || oe.Code != ops.EInvalidArg {
		t.Fatalf("got %v, want E_INVALID_ARG", err)
	}
	// Forms of supported operators without SQL are refused the same way.
	for _, call := range []struct {
		op   string
		args map[string]any
	}{
		{"temporal_reachability", map[string]any{"src": "a", "window": map[string]any{"t_a": int64(0), "t_b": int64(100)}, "delta_max_wait": int64(3)}},
		{"graph_metric_timeseries", map[string]any{"metric": "reciprocity", "window": map[string]any{"t_a": int64(0), "t_b": int64(100)}, "stride": int64(10)}},
		{"aggregate_events", map[string]any{"window": map[string]any{"t_a": int64(0), "t_b": int64(100)}, "group_by": []any{}, "aggregates": []any{map[string]any{"agg": "count"}}, "authority": []any{"user"}}},
	} {
		_, err := ops.ExecuteOn(ctx, e, call.op, call.args, ops.ExecOptions{})
		var ce *ops.Error
		if !errors.As(err, &ce) || ce.Code != ops.EInvalidArg || !strings.Contains(ce.Message, "no SQL form") {
			t.Fatalf("%s %v: got %v, want a refusal", call.op, call.args, err)
		}
	}
	allowed, _ := oe.Details["allowed"].([]string)
	if len(allowed) != len(Supported()) || allowed[0] != Supported()[0] {
		t.Fatalf("allowed %v, want %v", allowed, Supported())
	}
	if _, err := Open(ctx, schemaURL(c, "nostore")); err == nil {
		t.Fatal("a schema without a store opened")
	}
}

// fataler is what the helpers need of *testing.T and *rapid.T.
type fataler interface {
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// computeCalls draws n compute calls, half of them the filter form.
func computeCalls(rng *rand.Rand, n int) []map[string]any {
	uids := []any{"a", "b", "c", "d", "e", "f", "zz"}
	var out []map[string]any
	for range n {
		var in []any
		for range 1 + rng.IntN(5) {
			in = append(in, map[string]any{"uid": uids[rng.IntN(len(uids))], "n": int64(rng.IntN(9))})
		}
		args := map[string]any{"fn": []string{"count", "sum", "max", "median"}[rng.IntN(4)], "input": in, "field": "n"}
		if rng.IntN(2) == 0 {
			args = map[string]any{"fn": "filter", "input": in, "field": "n", "cmp": "gt", "value": int64(3)}
		}
		out = append(out, map[string]any{"op": "compute", "args": args})
	}
	return out
}
