package eval

import (
	"context"
	"fmt"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/evidence"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/plan"
)

// FaultRow is one line of the fault-injection report. Mutants are
// distinct (two mutants that are the same claim about the same task count
// once); Detected are those the verifier did not certify, split by verdict.
// Clean counts the unmutated claims this class draws from, and
// FalsePositives those of them the verifier did not support.
type FaultRow struct {
	Class           string `json:"class"`
	Base            int    `json:"base_claims"`
	Mutants         int    `json:"mutants"`
	Detected        int    `json:"detected"`
	Unsupported     int    `json:"unsupported"`
	Unverifiable    int    `json:"unverifiable"`
	WeaklySupported int    `json:"weakly_supported"`
	Clean           int    `json:"clean"`
	FalsePositives  int    `json:"false_positives"`
}

// DetectionRate is Detected / Mutants (0 without mutants).
func (r FaultRow) DetectionRate() float64 {
	if r.Mutants == 0 {
		return 0
	}
	return float64(r.Detected) / float64(r.Mutants)
}

func (r *FaultRow) count(verdict string) {
	r.Mutants++
	switch verdict {
	case evidence.Supported:
		return
	case evidence.Unsupported:
		r.Unsupported++
	case evidence.Unverifiable:
		r.Unverifiable++
	case evidence.WeaklySupported:
		r.WeaklySupported++
	}
	r.Detected++
}

func (r *FaultRow) clean(verdict string) {
	r.Clean++
	if verdict != evidence.Supported {
		r.FalsePositives++
	}
}

// FaultReport is the outcome of the fault-injection experiments.
type FaultReport struct {
	Dataset string     `json:"dataset"`
	Clean   int        `json:"clean_claims"` // unmutated claims drawn from the oracle traces
	Pool    int        `json:"pool"`         // of those, the ones the verifier supports (mutants derive from these)
	Rows    []FaultRow `json:"rows"`
	Skipped []string   `json:"skipped,omitempty"`
}

// FaultConfig sizes the experiments.
type FaultConfig struct {
	Classic   int // distinct mutants wanted per classic class (count ±1, fabricated uid); default 250
	Extended  int // distinct mutants wanted per extended class; default 100
	Truncated int // page cases (truncated counts, complete sets over a page); default 15
	// Verifier is the verifier configuration under test; its ablation
	// switches exist so a test can show the experiment goes red when a
	// check is disabled.
	Verifier evidence.Options
}

// pooled is one clean claim with the trace it is about.
type pooled struct {
	task      *Task
	trace     *exec.Trace
	claim     evidence.Claim
	supported bool
}

// key identifies a claim about a task, for counting distinct mutants.
func (p *pooled) key(c evidence.Claim) string {
	c.ID = ""
	b, err := canon.Marshal(c)
	if err != nil {
		b = fmt.Appendf(nil, "%#v", c)
	}
	return p.task.ID + "\x00" + string(b)
}

// Faults runs the fault-injection experiments on the tasks of a suite: it
// executes every oracle plan at the task's belief time, collects the clean
// claims a reporter would make from each trace (the supported ones form the
// pool), mutates pool claims class by class into distinct mutants, and
// counts the mutants that are not certified (any verdict other than
// supported). A clean claim the verifier does not support is a false
// positive of every class that draws from it. It needs no model and is
// deterministic.
func Faults(ctx context.Context, db *tgms.DB, tasks []Task, cfg FaultConfig) (*FaultReport, error) {
	if cfg.Classic <= 0 {
		cfg.Classic = 250
	}
	if cfg.Extended <= 0 {
		cfg.Extended = 100
	}
	if cfg.Truncated <= 0 {
		cfg.Truncated = 15
	}
	rep := &FaultReport{}
	env, clean, err := collect(ctx, db, tasks, cfg.Verifier, rep)
	if err != nil {
		return nil, err
	}
	rep.Clean = len(clean)
	for _, p := range clean {
		if p.supported {
			rep.Pool++
		}
	}
	for _, cl := range faultClasses(cfg) {
		rep.Rows = append(rep.Rows, env.run(cl, clean, cfg.Verifier))
	}
	on, off, err := truncatedCounts(ctx, db, tasks, cfg)
	if err != nil {
		return nil, err
	}
	setOn, setOff := setsOnPages(ctx, db, clean, cfg)
	rep.Rows = append(rep.Rows, on, off, setOn, setOff, setsOverUncertified(ctx, db, clean, cfg), floatsNearIntegers(ctx, db, clean, cfg))
	return rep, nil
}

// collect runs every task's oracle plan and gathers the clean claims and
// the belief-time partners the mutators draw from.
func collect(ctx context.Context, db *tgms.DB, tasks []Task, opt evidence.Options, rep *FaultReport) (*faultEnv, []pooled, error) {
	env := &faultEnv{uids: storeUIDs(db), partners: map[*Task][]*exec.Trace{}}
	var clean []pooled
	byPlan := map[string][]*Task{}
	traces := map[*Task]*exec.Trace{}
	for i := range tasks {
		t := &tasks[i]
		rep.Dataset = t.Dataset
		p, err := taskPlan(t)
		if err != nil {
			return nil, nil, err
		}
		tr := exec.Run(ctx, db, p, exec.Options{AsOf: t.AsOfTT})
		if !tr.OK {
			rep.Skipped = append(rep.Skipped, fmt.Sprintf("%s: the oracle plan did not run", t.ID))
			continue
		}
		traces[t] = tr
		k := beliefFreeKey(t.OraclePlan)
		byPlan[k] = append(byPlan[k], t)
		for _, c := range cleanClaims(tr, p) {
			r := verify(tr, c, opt)
			if r.Verdict != evidence.Supported {
				rep.Skipped = append(rep.Skipped, fmt.Sprintf("%s %s %s: clean claim not supported: %s", t.ID, c.Kind, c.Path, r.Reason))
			}
			clean = append(clean, pooled{t, tr, c, r.Verdict == evidence.Supported})
		}
	}
	// Tasks that ask the same plan at different belief times are partners:
	// each one's answer is the other's realistic wrong-belief answer.
	for _, group := range byPlan {
		for _, t := range group {
			for _, u := range group {
				if u != t {
					env.partners[t] = append(env.partners[t], traces[u])
				}
			}
		}
	}
	return env, clean, nil
}

func verify(tr *exec.Trace, c evidence.Claim, opt evidence.Options) evidence.Result {
	return evidence.Verify(tr, &evidence.Answer{Claims: []evidence.Claim{c}}, opt)[0]
}

// maxRounds bounds the draws per base claim.
const maxRounds = 1000

// run builds distinct mutants of one class: round k asks every base claim
// for its k-th mutant, so the quota is spread over all base claims; it
// stops at the quota or when a round yields nothing new.
func (e *faultEnv) run(cl faultClass, clean []pooled, opt evidence.Options) FaultRow {
	row := FaultRow{Class: cl.name}
	for i := range clean {
		p := &clean[i]
		if !e.eligible(cl, p) {
			continue
		}
		row.clean(verify(p.trace, p.claim, opt).Verdict)
		if p.supported {
			row.Base++
		}
	}
	seen := map[string]bool{}
	for k := 0; k < maxRounds && row.Mutants < cl.n; k++ {
		added := false
		for i := range clean {
			p := &clean[i]
			if !p.supported || row.Mutants >= cl.n {
				continue
			}
			m, tr, ok := cl.mutate(e, k, p)
			if !ok || seen[p.key(m)] {
				continue
			}
			seen[p.key(m)], added = true, true
			row.count(verify(tr, m, opt).Verdict)
		}
		if !added {
			break
		}
	}
	return row
}

// eligible reports whether a class can mutate a clean claim at all.
func (e *faultEnv) eligible(cl faultClass, p *pooled) bool {
	for k := range 8 {
		if _, _, ok := cl.mutate(e, k, p); ok {
			return true
		}
	}
	return false
}

func taskPlan(t *Task) (*plan.Plan, error) {
	b, err := canon.Marshal(t.OraclePlan)
	if err != nil {
		return nil, err
	}
	v := plan.ValidateJSON(b, plan.Options{UIDs: t.InputUIDs})
	if v.Plan == nil || !v.Valid {
		return nil, fmt.Errorf("task %s: its oracle plan is not admitted: %+v", t.ID, v.Violations)
	}
	return v.Plan, nil
}

// beliefFreeKey is a plan's steps with every as_of_tt argument removed:
// two tasks with the same key ask the same thing at different belief times.
func beliefFreeKey(p map[string]any) string {
	steps, _ := p["steps"].([]any)
	var out []any
	for _, s := range steps {
		m, _ := s.(map[string]any)
		args, _ := m["args"].(map[string]any)
		a := map[string]any{}
		for k, v := range args {
			if k != "as_of_tt" {
				a[k] = v
			}
		}
		out = append(out, map[string]any{"op": m["op"], "id": m["id"], "args": a})
	}
	b, _ := canon.Marshal(map[string]any{"steps": out, "answer_spec": p["answer_spec"]})
	return string(b)
}

// truncatedCounts builds the controlled truncated-count cases: a count task
// whose plan has a paginated step is re-run with that step's limit at 3;
// when the step then holds more rows than its page, the claim "the count is
// the page's length" is verified with completeness tracking on and off. The
// clean counterpart is the repaired claim, rows_total.
func truncatedCounts(ctx context.Context, db *tgms.DB, tasks []Task, cfg FaultConfig) (on, off FaultRow, err error) {
	on, off = FaultRow{Class: "truncated_count"}, FaultRow{Class: "truncated_count_tracking_off"}
	offOpt := cfg.Verifier
	offOpt.IgnoreCompleteness = true
	for i := range tasks {
		if on.Mutants >= cfg.Truncated {
			break
		}
		t := &tasks[i]
		p, err := taskPlan(t)
		if err != nil {
			return on, off, err
		}
		for j := range p.Steps {
			s := &p.Steps[j]
			if _, paged := s.Args["limit"]; !paged && !pagedOp(s.Op) {
				continue
			}
			tr := exec.Run(ctx, db, withLimit(p, j, 3), exec.Options{AsOf: t.AsOfTT})
			r, ok := tr.Step(s.ID)
			if !ok || r.Status != "ok" || r.RowsTotal <= 3 {
				continue
			}
			m := evidence.Claim{ID: "c1", Kind: evidence.KindCount, Step: s.ID, Path: "rows", Value: r.RowsReturned}
			good := evidence.Claim{ID: "c1", Kind: evidence.KindCount, Step: s.ID, Path: "rows_total", Value: r.RowsTotal}
			on.count(verify(tr, m, cfg.Verifier).Verdict)
			off.count(verify(tr, m, offOpt).Verdict)
			on.clean(verify(tr, good, cfg.Verifier).Verdict)
			off.clean(verify(tr, good, offOpt).Verdict)
			on.Base++
			off.Base++
			break
		}
	}
	return on, off, nil
}

// setsOnPages builds the page case of complete sets: a supported
// complete_set claim over a paginated step is re-run with that step's
// limit below its row count, and the page's members are claimed as the
// complete set (with completeness tracking on and off). The clean
// counterpart is the membership claim over the same page, which a page
// does support.
func setsOnPages(ctx context.Context, db *tgms.DB, clean []pooled, cfg FaultConfig) (on, off FaultRow) {
	on, off = FaultRow{Class: "complete_set_on_page"}, FaultRow{Class: "complete_set_on_page_tracking_off"}
	offOpt := cfg.Verifier
	offOpt.IgnoreCompleteness = true
	seen := map[string]bool{}
	for i := range clean {
		pc := &clean[i]
		c := pc.claim
		if on.Mutants >= cfg.Truncated || !pc.supported || c.Kind != evidence.KindCompleteSet || len(c.UIDs) < 2 {
			continue
		}
		p, err := taskPlan(pc.task)
		if err != nil {
			continue
		}
		st, j, ok := p.Step(c.Step)
		if !ok || !pagedOp(st.Op) || seen[pc.task.ID+c.Step+c.Path] {
			continue
		}
		seen[pc.task.ID+c.Step+c.Path] = true
		rows, _ := pc.trace.FullResult(c.Step)["rows"].([]any)
		tr := exec.Run(ctx, db, withLimit(p, j, int64(max(1, len(rows)/2))), exec.Options{AsOf: pc.task.AsOfTT})
		page, ok := pathUIDs(tr, c.Step, c.Path)
		if !ok || len(page) == 0 || len(page) >= len(c.UIDs) {
			continue
		}
		m := c
		m.UIDs = page
		good := m
		good.Kind = evidence.KindEntity
		on.Base++
		off.Base++
		on.count(verify(tr, m, cfg.Verifier).Verdict)
		off.count(verify(tr, m, offOpt).Verdict)
		on.clean(verify(tr, good, cfg.Verifier).Verdict)
		off.clean(verify(tr, good, offOpt).Verdict)
	}
	return on, off
}

// pathUIDs reads the distinct uids a path projects from a step of a trace.
func pathUIDs(tr *exec.Trace, step, path string) ([]string, bool) {
	ref, err := plan.ParseRef(step+"."+path, false)
	if err != nil {
		return nil, false
	}
	v, err := exec.Eval(tr.FullResult(step), ref)
	if err != nil {
		return nil, false
	}
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	var out []string
	seen := map[string]bool{}
	for _, x := range list {
		s, ok := x.(string)
		if !ok {
			return nil, false
		}
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out, true
}

func pagedOp(op string) bool {
	switch op {
	case "temporal_reachability", "entity_history", "snapshot_subgraph", "resolve_entities", "co_active",
		"find_temporal_motif_instances", "aggregate_events", "version_history", "graph_metric_timeseries", "burst_detection":
		return true
	}
	return false
}

// withLimit copies a plan with step j's page limit set.
func withLimit(p *plan.Plan, j int, limit int64) *plan.Plan {
	b, _ := p.JSON()
	v := plan.ValidateJSON(b, plan.Options{Disable: map[string]bool{plan.RuleGroundLiteral: true}})
	v.Plan.Steps[j].Args["limit"] = limit
	return v.Plan
}

// storeUIDs lists the store's uids (for uncited-entity mutants).
func storeUIDs(db *tgms.DB) []string {
	var out []string
	_ = db.Read(bt.OpenEnd, func(r engine.Reader) error {
		for id := range r.NumNodes() {
			out = append(out, r.UID(uint32(id)))
		}
		return nil
	})
	return out
}
