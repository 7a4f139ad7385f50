package ops_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

// world is what an argument generator may draw from.
type world struct {
	UIDs  []string  // uids registered in the store (maybe empty)
	Times []bt.Time // interesting valid times (0..150)
	TTs   []bt.Time // batch transaction times
	Rels  []string
	Edges []bt.EdgeVersion // edge versions believed now (maybe empty)
}

// argGens holds one random-argument generator per operator; each operator's
// test file registers its own in an init function.
var argGens = map[string]func(rng *rand.Rand, w *world) map[string]any{}

// storeSource serves calls from an engine store without a DB.
type storeSource struct{ s *engine.Store }

func (src storeSource) Read(asOf bt.Time, fn func(engine.Reader) error) error {
	return fn(src.s.Reader(asOf))
}

// build applies a history to the model store and the engine, skipping the
// batches the model refuses (the engine must refuse the same ones).
func build(t testing.TB, hist []oracle.Batch) (*bt.MemStore, *engine.Store) {
	m, e := bt.NewMemStore(), engine.New()
	for _, b := range hist {
		errM := m.WriteBatch(b.TT, "", bt.Batch{Ops: b.Ops, Prov: b.Prov})
		eff, errE := bt.Plan(e, b.TT, e.Batches()+1, b.Ops)
		if (errM == nil) != (errE == nil) {
			t.Fatalf("model and engine disagree on batch at tt %d: %v vs %v", b.TT, errM, errE)
		}
		if errE == nil {
			p := bt.Resolve(b.Prov, "", b.Ops)
			eff.Prov = &p
			if err := e.Apply(eff); err != nil {
				t.Fatal(err)
			}
		}
	}
	return m, e
}

func newWorld(rng *rand.Rand, m *bt.MemStore) *world {
	w := &world{UIDs: append([]string(nil), m.UIDs...), Rels: []string{"R", "S"}}
	for range 6 {
		w.Times = append(w.Times, bt.Time(rng.IntN(150)))
	}
	for tt := bt.Time(10); tt <= m.LastTT; tt += 10 {
		w.TTs = append(w.TTs, tt)
	}
	for _, v := range m.Edges {
		if v.TTe == bt.OpenEnd {
			w.Edges = append(w.Edges, v)
		}
	}
	return w
}

// pickEdge draws an edge version believed now, so that generators can aim
// at data: its endpoints exist and a window around its start overlaps it.
func pickEdge(rng *rand.Rand, w *world) (bt.EdgeVersion, bool) {
	if len(w.Edges) == 0 {
		return bt.EdgeVersion{}, false
	}
	return w.Edges[rng.IntN(len(w.Edges))], true
}

// windowAround is a window that contains t, reaching up to span either side.
func windowAround(rng *rand.Rand, t bt.Time, span int) map[string]any {
	a := max(0, t-int64(rng.IntN(span)))
	return map[string]any{"t_a": a, "t_b": t + 1 + int64(rng.IntN(span))}
}

func casesPerOp() int {
	if n, err := strconv.Atoi(os.Getenv("TGMS_ORACLE_CASES")); err == nil && n > 0 {
		return n
	}
	return 500
}

// TestOperatorsMatchOracle runs every operator that has an argument
// generator against its brute-force oracle on random stores: the payloads
// must be byte-identical canonical JSON, refusals must carry the same code,
// paging through the rows must give the same rows, and a result pinned at an
// earlier belief time must not change when later batches are written.
func TestOperatorsMatchOracle(t *testing.T) {
	for _, spec := range ops.All() {
		gen, ok := argGens[spec.Name]
		if !ok || !oracle.Has(spec.Name) {
			continue
		}
		t.Run(spec.Name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(len(spec.Name)), 42))
			cov := coverage{op: spec.Name, refusals: map[string]int{}}
			for i := range casesPerOp() {
				hist := oracle.RandomHistory(rng, 2+rng.IntN(10))
				m, e := build(t, hist)
				w := newWorld(rng, m)
				args := gen(rng, w)
				special := ""
				switch rng.IntN(10) {
				case 0, 1:
					special = edgeValue(rng, args)
				case 2:
					refusalCase(rng, args)
				}
				o := compareOne(t, i, spec, m, e, args)
				cov.add(o)
				cov.special(t, i, spec.Name, args, special, o)
				checkPinned(t, i, spec, hist, e, args)
			}
			t.Log(cov.String())
			cov.check(t, floorsOf(spec.Name))
		})
	}
}

// compareOne checks one call against the oracle and reports what the case
// exercised.
func compareOne(t *testing.T, i int, spec *ops.Spec, m *bt.MemStore, e *engine.Store, args map[string]any) outcome {
	t.Helper()
	full := clone(args)
	if spec.Paged {
		full["limit"] = int64(10_000)
	}
	env, errE := ops.Execute(context.Background(), storeSource{e}, spec.Name, full)
	_, prepared, errP := ops.Prepare(spec.Name, full)
	var want map[string]any
	var errO error
	if errP == nil {
		asOf := bt.OpenEnd
		switch v := prepared["as_of_tt"].(type) {
		case int64:
			asOf = v
		case float64: // an integral float, as the schema allows (-0 included)
			asOf = int64(v)
		}
		prepared["as_of_tt"] = min(asOf, max(m.LastTT, 0))
		if m.LastTT == 0 {
			prepared["as_of_tt"] = int64(0)
		}
		want, errO = oracle.Call(m, spec.Name, prepared)
	}
	if errE != nil || errO != nil || errP != nil {
		var oe *ops.Error
		if !errors.As(errE, &oe) {
			t.Fatalf("case %d %s(%v): engine error %v is not an *ops.Error", i, spec.Name, args, errE)
		}
		if errP != nil {
			return outcome{schemaError: true, refusal: oe.Code} // a schema or argument error: the oracle does not see it
		}
		code := ""
		var nf oracle.NotFound
		var rf oracle.Refused
		switch {
		case errors.As(errO, &nf):
			code = ops.ENotFound
		case errors.As(errO, &rf):
			code = rf.Code
		case errO != nil:
			t.Fatalf("case %d %s(%v): oracle failed: %v", i, spec.Name, args, errO)
		}
		if oe.Code != code {
			t.Fatalf("case %d %s(%v): engine refused with %v, oracle with %q", i, spec.Name, args, errE, code)
		}
		return outcome{refusal: code}
	}
	got := env.Result
	if spec.Paged {
		rows, _ := want["rows"].([]any)
		want["rows_total"] = int64(len(rows))
		want["cursor"] = nil
		if _, ok := want["truncated"]; !ok {
			want["truncated"] = false
		}
	}
	wantR, err := canon.RoundFloats(want)
	if err != nil {
		t.Fatal(err)
	}
	gb, _ := canon.Marshal(got)
	wb, _ := canon.Marshal(wantR)
	if string(gb) != string(wb) {
		t.Fatalf("case %d %s(%v) as of %v:\n engine %s\n oracle %s", i, spec.Name, args, env.AsOfTT, gb, wb)
	}
	if spec.Paged {
		checkPaging(t, i, spec, e, args, got)
	}
	o := outcome{content: hasContent(got)}
	for _, v := range got { // the longest list of the payload: rows, nodes, edges, ...
		if list, ok := v.([]any); ok {
			o.hasRows, o.rows = true, max(o.rows, len(list))
		}
	}
	return o
}

// hasContent reports whether a payload says anything: a non-empty list or
// a non-zero number anywhere in it.
func hasContent(v any) bool {
	switch x := v.(type) {
	case []any:
		return len(x) > 0
	case map[string]any:
		for k, e := range x {
			if k != "truncated" && hasContent(e) {
				return true
			}
		}
	case int64:
		return x != 0
	case float64:
		return x != 0
	}
	return false
}

// checkPaging pages through the result with a small limit and requires the
// concatenated pages to equal the full rows.
func checkPaging(t *testing.T, i int, spec *ops.Spec, e *engine.Store, args, full map[string]any) {
	rows := full["rows"].([]any)
	if len(rows) < 2 {
		return
	}
	limit := int64(1 + i%3)
	var got []any
	a := clone(args)
	a["limit"] = limit
	for pages := 0; ; pages++ {
		env, err := ops.Execute(context.Background(), storeSource{e}, spec.Name, a)
		if err != nil {
			t.Fatalf("case %d %s: page %d: %v", i, spec.Name, pages, err)
		}
		if env.Result["rows_total"] != full["rows_total"] {
			t.Fatalf("case %d %s: page %d rows_total %v, want %v", i, spec.Name, pages, env.Result["rows_total"], full["rows_total"])
		}
		got = append(got, env.Result["rows"].([]any)...)
		cur, _ := env.Result["cursor"].(string)
		if cur == "" {
			break
		}
		if pages > len(rows) {
			t.Fatalf("case %d %s: paging does not end", i, spec.Name)
		}
		a["cursor"] = cur
		delete(a, "as_of_tt") // the cursor pins the belief time
	}
	gb, _ := canon.Marshal(got)
	wb, _ := canon.Marshal(rows)
	if string(gb) != string(wb) {
		t.Fatalf("case %d %s: pages of %d differ from the full result\n pages %s\n full  %s", i, spec.Name, limit, gb, wb)
	}
}

// checkPinned: a call pinned at the belief time of an earlier batch gives
// the same digest on the store that stopped there and on the full store.
func checkPinned(t *testing.T, i int, spec *ops.Spec, hist []oracle.Batch, full *engine.Store, args map[string]any) {
	if len(hist) < 2 {
		return
	}
	cut := len(hist) / 2
	_, prefix := build(t, hist[:cut])
	a := clone(args)
	a["as_of_tt"] = hist[cut-1].TT
	delete(a, "cursor")
	env1, err1 := ops.Execute(context.Background(), storeSource{prefix}, spec.Name, a)
	env2, err2 := ops.Execute(context.Background(), storeSource{full}, spec.Name, a)
	if (err1 == nil) != (err2 == nil) {
		t.Fatalf("case %d %s: pinned call failed on one store only: %v / %v", i, spec.Name, err1, err2)
	}
	if err1 == nil && env1.ResultDigest != env2.ResultDigest {
		t.Fatalf("case %d %s(%v): result pinned at tt %d changed after later writes", i, spec.Name, a, hist[cut-1].TT)
	}
}

func clone(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Helpers for generators.

func pickUID(rng *rand.Rand, w *world) string {
	if len(w.UIDs) == 0 || rng.IntN(20) == 0 {
		return "ghost"
	}
	return w.UIDs[rng.IntN(len(w.UIDs))]
}

func pickAsOf(rng *rand.Rand, w *world) (any, bool) {
	switch {
	case len(w.TTs) == 0 || rng.IntN(3) == 0:
		return nil, false
	case rng.IntN(4) == 0:
		return int64(rng.IntN(int(w.TTs[len(w.TTs)-1]) + 5)), true
	}
	return w.TTs[rng.IntN(len(w.TTs))], true
}

func pickWindow(rng *rand.Rand) map[string]any {
	a := int64(rng.IntN(120))
	return map[string]any{"t_a": a, "t_b": a + 1 + int64(rng.IntN(80))}
}

func withAsOf(rng *rand.Rand, w *world, args map[string]any) map[string]any {
	if v, ok := pickAsOf(rng, w); ok {
		args["as_of_tt"] = v
	}
	return args
}
