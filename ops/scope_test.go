package ops_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/fresh"
	"github.com/tgms-go/tgms/internal/testenv"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
	"github.com/tgms-go/tgms/plan"
	"pgregory.net/rapid"
)

// memSource serves plans from an engine store the way a DB does: reads
// past the last batch are clamped to it.
type memSource struct{ s *engine.Store }

func (m memSource) Read(asOf bt.Time, fn func(engine.Reader) error) error {
	return fn(m.s.Reader(min(asOf, m.s.LastTT())))
}

func (m memSource) LastTT() bt.Time { return m.s.LastTT() }

// twin keeps the model store and the engine in step.
type twin struct {
	m *bt.MemStore
	e *engine.Store
}

// write applies one batch to both stores; a refused batch changes neither.
func (w *twin) write(tt bt.Time, batch []bt.Op) (bool, error) {
	errM := w.m.Write(tt, batch)
	eff, errE := bt.Plan(w.e, tt, w.e.Batches()+1, batch)
	if (errM == nil) != (errE == nil) {
		return false, fmt.Errorf("model and engine disagree on a batch at tt %d: %v vs %v", tt, errM, errE)
	}
	if errE != nil {
		return false, nil
	}
	return true, w.e.Apply(eff)
}

// freshCases is the number of random cases of the soundness property.
func freshCases() int {
	if n, err := strconv.Atoi(os.Getenv("TGMS_FRESH_CASES")); err == nil && n > 0 {
		return n
	}
	return 6000
}

// freshCISeed is the rapid seed of the soundness property under CI=true.
const freshCISeed = 20261201

// precision counts, per operator, the re-executions that did not change
// and how many of them the check called fresh.
type precision struct {
	mu                   sync.Mutex
	cases, unchanged, ok map[string]int
}

func (p *precision) note(op string, unchanged, fresh bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cases[op]++
	if unchanged {
		p.unchanged[op]++
		if fresh {
			p.ok[op]++
		}
	}
}

// TestFreshMeansUnchanged is the soundness property of dependency scopes:
// over random stores, random admitted plans over every operator (alone,
// or feeding a second step through a reference) and random later batches
// (asserts, retracts, corrections and ingests, some aimed at what the plan
// read), whenever the freshness check calls a trace FRESH, re-executing its
// plan at the newest belief time gives the same status and result digest
// for every step. It logs each operator's precision: the share of
// unchanged re-executions the check also called fresh.
func TestFreshMeansUnchanged(t *testing.T) {
	explicit, seeded := false, false
	flag.Visit(func(f *flag.Flag) {
		explicit = explicit || f.Name == "rapid.checks"
		seeded = seeded || f.Name == "rapid.seed"
	})
	if _, env := os.LookupEnv("RAPID_SEED"); testenv.CI() && !seeded && !env {
		// CI runs the same cases every time: a red run stays red on
		// rerun, and its seed (printed by rapid) reproduces it.
		flag.Set("rapid.seed", strconv.FormatUint(freshCISeed, 10))
		defer flag.Set("rapid.seed", "0")
	}
	if _, env := os.LookupEnv("RAPID_CHECKS"); !explicit && !env {
		n := freshCases()
		if testing.Short() {
			n = 500
		}
		flag.Set("rapid.checks", strconv.Itoa(n))
		defer flag.Set("rapid.checks", "100")
	}
	names := ops.Names()
	p := &precision{cases: map[string]int{}, unchanged: map[string]int{}, ok: map[string]int{}}
	rapid.Check(t, func(rt *rapid.T) {
		op := rapid.SampledFrom(names).Draw(rt, "op")
		seed := rapid.Uint64().Draw(rt, "seed")
		if err := freshCase(rand.New(rand.NewPCG(seed, uint64(len(op)))), op, p, caseOpts{}); err != nil {
			rt.Fatalf("%s, seed %d: %v", op, seed, err)
		}
	})
	var lines []string
	total := 0
	for _, op := range names {
		total += p.cases[op]
		if p.cases[op] == 0 {
			t.Errorf("%s: no admitted case ran", op)
		}
		lines = append(lines, fmt.Sprintf("%-30s cases %5d  unchanged %5d  called fresh %5d  precision %s", op, p.cases[op], p.unchanged[op], p.ok[op], ratio(p.ok[op], p.unchanged[op])))
	}
	sort.Strings(lines)
	t.Logf("freshness precision over %d cases (0 false fresh):\n%s", total, strings.Join(lines, "\n"))
}

func ratio(a, b int) string {
	if b == 0 {
		return "  n/a"
	}
	return fmt.Sprintf("%5.3f", float64(a)/float64(b))
}

// errFalseFresh marks the failure the property looks for.
var errFalseFresh = errors.New("called FRESH")

// caseOpts vary a case. narrow, when not nil, edits the first step's
// recorded scope before the check (the harness that shows an unsound scope
// rule is caught). aimed makes the case one of the power harness's: its
// arguments are always drawn towards the distinctions scope rules make,
// and its first step follows the newest belief time (a pinned step cannot
// change).
type caseOpts struct {
	narrow func(sc *ops.Scope) bool
	aimed  bool
}

// freshSetup is a case before its later batches: the store's history, the
// plan, its trace and the scope later batches aim at.
type freshSetup struct {
	op   string
	hist []oracle.Batch
	w    *twin // the store after hist; nil once a trial has used it
	pl   *plan.Plan
	tr   *exec.Trace
	aim  *ops.Scope
}

// setupCase draws a case's store and admitted plan and runs it; nil when
// the drawn plan is not admitted (or, with opt.narrow, when the narrowing
// leaves the recorded scope as it was).
func setupCase(rng *rand.Rand, op string, opt caseOpts) (*freshSetup, error) {
	c := &freshSetup{op: op, hist: oracle.RandomHistory(rng, 1+rng.IntN(8))}
	w, err := replay(c.hist)
	if err != nil {
		return nil, err
	}
	c.w = w
	world := newWorld(rng, w.m)
	var bias func(*rand.Rand, map[string]any)
	if rng.IntN(3) == 0 || opt.aimed {
		bias = scopeBias[op]
	}
	if b, extra := bias, aimBias[op]; opt.aimed && extra != nil {
		bias = func(rng *rand.Rand, args map[string]any) {
			if b != nil {
				b(rng, args)
			}
			extra(rng, args)
		}
	}
	pl, ok := randomPlan(rng, world, op, bias, opt.aimed)
	if !ok {
		return nil, nil
	}
	c.pl = pl
	c.tr = exec.Run(context.Background(), memSource{w.e}, pl, exec.Options{Sequential: true})
	c.aim = firstScope(c.tr) // later batches aim at the recorded scope's edges
	if s := &c.tr.Steps[0]; c.aim == nil && s.Status != "ok" {
		// A refused step: aim at the scope of its arguments (the uids it
		// looked up, registered later, change its outcome).
		if _, args, err := ops.Prepare(s.Op, pl.Steps[0].Args); err == nil {
			sc := ops.ScopeOf(s.Op, args)
			c.aim = &sc
		}
	}
	if opt.narrow != nil {
		e := c.tr.Steps[0].Evidence
		if e == nil || e.Scope == nil || e.Scope.All {
			return nil, nil
		}
		sc := cloneScope(*e.Scope)
		if !opt.narrow(&sc) {
			return nil, nil
		}
		e.Scope = &sc
		if opt.aimed {
			// What an unsound rule would have recorded is all a later
			// batch could aim at.
			c.aim = &sc
		}
	}
	return c, nil
}

// replay writes a history into a new model store and engine.
func replay(hist []oracle.Batch) (*twin, error) {
	w := &twin{m: bt.NewMemStore(), e: engine.New()}
	for _, b := range hist {
		if _, err := w.write(b.TT, b.Ops); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// trial writes n later batches drawn by next (from the store as it is
// before each), checks the trace's freshness and re-executes its plan. It
// reports whether some step changed and whether the check called the
// trace fresh; the error wraps errFalseFresh when both hold.
func (c *freshSetup) trial(n int, next func(m *bt.MemStore) []bt.Op) (changed, isFresh bool, err error) {
	w := c.w
	if c.w = nil; w == nil {
		if w, err = replay(c.hist); err != nil {
			return false, false, err
		}
	}
	src := memSource{w.e}
	ix := fresh.NewIndex(fresh.Since(c.tr))
	prev := w.e.LastTT()
	for range n {
		tt := prev + 10
		batch := next(w.m)
		written, err := w.write(tt, batch)
		if err != nil {
			return false, false, err
		}
		if !written {
			continue
		}
		if err := ix.Add(src, fresh.Batch{TT: tt, Seq: w.e.Batches(), Ops: batch}, prev); err != nil {
			return false, false, err
		}
		prev = tt
	}
	tr := c.tr
	rep := ix.Check(tr, fresh.Options{})
	again := exec.Run(context.Background(), src, c.pl, exec.Options{Sequential: true})
	for i := range tr.Steps {
		a, b := &tr.Steps[i], &again.Steps[i]
		if a.Status == b.Status && a.ResultDigest == b.ResultDigest {
			continue
		}
		if rep.Fresh {
			if os.Getenv("TGMS_FRESH_DEBUG") != "" {
				ra, _ := canon.Marshal(tr.FullResult(a.StepID))
				rb, _ := canon.Marshal(again.FullResult(a.StepID))
				fmt.Printf("before %s\nafter  %s\n", ra, rb)
			}
			return true, true, fmt.Errorf("%w, but step %s (%s) changed from %s %s to %s %s\nplan %s\nlater batches after tt %d: %s", errFalseFresh,
				a.StepID, a.Op, a.Status, a.ResultDigest, b.Status, b.ResultDigest, planText(c.pl), tr.AsOfTT, batchesText(w.m, tr.AsOfTT))
		}
		return true, false, nil
	}
	return false, rep.Fresh, nil
}

// freshCase runs one case for operator op; it returns an error wrapping
// errFalseFresh when the check called a changed result fresh. One case in
// three has its arguments drawn towards the distinctions scope rules make
// (scopeBias).
func freshCase(rng *rand.Rand, op string, p *precision, opt caseOpts) error {
	c, err := setupCase(rng, op, opt)
	if c == nil || err != nil {
		return err
	}
	changed, isFresh, err := c.trial(1+rng.IntN(3), func(m *bt.MemStore) []bt.Op { return laterBatch(rng, m, c.aim) })
	if err != nil {
		return err
	}
	p.note(op, !changed, isFresh)
	return nil
}

// randomPlan builds an admitted plan whose first step calls op with
// random arguments; sometimes a second step reads the first (a compute
// over its rows, or an entity_history of a uid it returned).
func randomPlan(rng *rand.Rand, w *world, op string, bias func(*rand.Rand, map[string]any), unpinned bool) (*plan.Plan, bool) {
	gen, ok := argGens[op]
	if op == "count_temporal_motifs" {
		// Not in argGens (see count_temporal_motifs_test.go); it takes the
		// same arguments as the instance lister, without paging.
		gen, ok = func(rng *rand.Rand, w *world) map[string]any {
			spec, _ := ops.Lookup("count_temporal_motifs")
			return motifGenArgs(rng, w, spec.Args.Properties["motif"].Enum)
		}, true
	}
	if !ok {
		return nil, false
	}
	args := gen(rng, w)
	if bias != nil {
		bias(rng, args)
	}
	delete(args, "cursor")
	if rng.IntN(4) > 0 || unpinned {
		delete(args, "as_of_tt") // most steps follow the plan's pin
	}
	steps := []any{map[string]any{"id": "s1", "op": op, "args": args, "depends_on": []any{}}}
	answer := "s1"
	spec, _ := ops.Lookup(op)
	rows := spec.Result.Properties["rows"]
	if rows != nil && rows.Items != nil && rng.IntN(2) == 0 {
		if u := rows.Items.Properties["uid"]; u != nil && u.UID && rng.IntN(2) == 0 {
			steps = append(steps, map[string]any{"id": "s2", "op": "entity_history", "depends_on": []any{"s1"},
				"args": map[string]any{"uid": map[string]any{"$ref": "s1.rows[0].uid"}}})
		} else {
			steps = append(steps, map[string]any{"id": "s2", "op": "compute", "depends_on": []any{"s1"},
				"args": map[string]any{"fn": "count", "input": map[string]any{"$ref": "s1.rows"}}})
		}
		answer = "s2"
	}
	raw := map[string]any{"plan_id": "p", "steps": steps, "answer_spec": map[string]any{"kind": "value", "from": answer}}
	b, err := canon.Marshal(raw)
	if err != nil {
		return nil, false
	}
	v := plan.ValidateJSON(b, plan.Options{UIDs: append(append([]string{}, w.UIDs...), "ghost")})
	return v.Plan, v.Valid
}

// firstScope is the scope recorded for the plan's first step, if any.
func firstScope(tr *exec.Trace) *ops.Scope {
	if e := tr.Steps[0].Evidence; e != nil && e.Scope != nil && !e.Scope.All {
		return e.Scope
	}
	return nil
}

// laterBatch draws a batch written after the plan ran: random history
// ops, or ops aimed at what is stored (an edge or node corrected over
// exactly its interval, corrected over part of it, or retracted).
func laterBatch(rng *rand.Rand, m *bt.MemStore, sc *ops.Scope) []bt.Op {
	inside := sc != nil && rng.IntN(2) == 0 // aim at what the first step read
	var believed []bt.EdgeVersion
	for _, v := range m.Edges {
		if v.TTe == bt.OpenEnd && (!inside || sc.MeetsEdge(v.Key, engine.EID(v.Key), v.Valid, false)) {
			believed = append(believed, v)
		}
	}
	var nodes []bt.NodeVersion
	for _, v := range m.Nodes {
		if v.TTe == bt.OpenEnd && (!inside || sc.MeetsNode(v.UID, v.Valid)) {
			nodes = append(nodes, v)
		}
	}
	var out []bt.Op
	for range 1 + rng.IntN(2) {
		if sc != nil && rng.IntN(2) == 0 {
			out = append(out, boundaryOp(rng, m, sc))
			continue
		}
		switch k := rng.IntN(6); {
		case k < 2 || len(believed) == 0 && len(nodes) == 0:
			out = append(out, oracle.RandomHistory(rng, 1)[0].Ops...)
		case k < 4 && len(believed) > 0:
			v := believed[rng.IntN(len(believed))]
			switch rng.IntN(3) {
			case 0:
				out = append(out, bt.Correct(bt.EdgeRef(v.Key), bt.Props(`{"w":9}`), v.Valid))
			case 1:
				part := bt.Interval{Start: v.Valid.Start, End: min(v.Valid.End, v.Valid.Start+1+bt.Time(rng.IntN(5)))}
				out = append(out, bt.Correct(bt.EdgeRef(v.Key), bt.Props(`{"w":7}`), part))
			default:
				out = append(out, bt.Retract(bt.EdgeRef(v.Key), v.Valid.Start+bt.Time(rng.IntN(3))))
			}
		case len(nodes) > 0:
			v := nodes[rng.IntN(len(nodes))]
			if rng.IntN(2) == 0 {
				out = append(out, bt.Correct(bt.NodeRef(v.UID), bt.Props(`{"name":"Zed"}`), v.Valid))
			} else {
				out = append(out, bt.Retract(bt.NodeRef(v.UID), v.Valid.Start+bt.Time(rng.IntN(20))))
			}
		default:
			out = append(out, oracle.RandomHistory(rng, 1)[0].Ops...)
		}
	}
	return out
}

func planText(p *plan.Plan) string {
	b, _ := p.JSON()
	return string(b)
}

func batchesText(m *bt.MemStore, after bt.Time) string {
	var out []string
	for _, v := range m.Edges {
		if v.TTs > after || v.TTe > after && v.TTe < bt.OpenEnd {
			out = append(out, fmt.Sprintf("edge %v %s tt [%d,%d) %s/%s", v.Key, v.Valid, v.TTs, v.TTe, v.CreatedBy, v.ClosedBy))
		}
	}
	for _, v := range m.Nodes {
		if v.TTs > after || v.TTe > after && v.TTe < bt.OpenEnd {
			out = append(out, fmt.Sprintf("node %s %s tt [%d,%d) %s/%s", v.UID, v.Valid, v.TTs, v.TTe, v.CreatedBy, v.ClosedBy))
		}
	}
	return strings.Join(out, "; ")
}
