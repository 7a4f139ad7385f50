package eval

import (
	"context"
	"fmt"
	"slices"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/evidence"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/plan"
)

// FaultRow is one line of the fault-injection report: how many mutants of
// a class the verifier refused to certify, and how many clean answers of
// the pool it wrongly refused.
type FaultRow struct {
	Class          string `json:"class"`
	Mutants        int    `json:"mutants"`
	Detected       int    `json:"detected"`
	FalsePositives int    `json:"false_positives"`
}

// FaultReport is the outcome of the fault-injection experiments.
type FaultReport struct {
	Dataset string     `json:"dataset"`
	Pool    int        `json:"pool"` // clean answers (claims) the mutants derive from
	Rows    []FaultRow `json:"rows"`
	Skipped []string   `json:"skipped,omitempty"`
}

// FaultConfig sizes the experiments.
type FaultConfig struct {
	Classic   int // mutants per classic class (count ±1, fabricated uid); default 250
	Extended  int // mutants per extended class; default 100
	Truncated int // truncated-count cases; default 15
}

// pooled is one clean, supported claim with the trace it is about.
type pooled struct {
	task  *Task
	trace *exec.Trace
	claim evidence.Claim
}

// Faults runs the fault-injection experiments on the tasks of a suite: it
// executes every oracle plan at the task's belief time, keeps the claims
// the verifier supports (the pool; any clean claim it does not support is
// a false positive), mutates them class by class, and counts the mutants
// that are not certified (any verdict other than supported). It needs no
// model and is deterministic.
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
	var pool []pooled
	fp := 0
	uids := storeUIDs(db)
	for i := range tasks {
		t := &tasks[i]
		rep.Dataset = t.Dataset
		p, err := taskPlan(t)
		if err != nil {
			return nil, err
		}
		tr := exec.Run(ctx, db, p, exec.Options{AsOf: t.AsOfTT})
		if !tr.OK {
			rep.Skipped = append(rep.Skipped, fmt.Sprintf("%s: the oracle plan did not run", t.ID))
			continue
		}
		claims := evidence.Mechanical(tr, p).Claims
		claims = append(claims, enrich(tr)...)
		for j, c := range claims {
			c.ID = fmt.Sprintf("c%d", j+1)
			if r := evidence.Verify(tr, &evidence.Answer{Claims: []evidence.Claim{c}}, evidence.Options{})[0]; r.Verdict != evidence.Supported {
				fp++
				rep.Skipped = append(rep.Skipped, fmt.Sprintf("%s %s: clean claim not supported: %s", t.ID, c.Kind, r.Reason))
				continue
			}
			pool = append(pool, pooled{t, tr, c})
		}
	}
	rep.Pool = len(pool)
	classes := []struct {
		name   string
		n      int
		mutate func(k int, p pooled) (evidence.Claim, *exec.Trace, bool)
	}{
		{"count_pm1", cfg.Classic, mutateCount},
		{"fabricated_uid", cfg.Classic, mutateFabricated},
		{"uncited_entity", cfg.Extended, func(k int, p pooled) (evidence.Claim, *exec.Trace, bool) { return mutateUncited(k, p, uids) }},
		{"ordering_swap", cfg.Extended, mutateOrdering},
		{"unit_confusion", cfg.Extended, mutateUnits},
		{"wrong_belief_state", cfg.Extended, mutateBelief},
		{"wrong_step_citation", cfg.Extended, mutateStep},
		{"dropped_member", cfg.Extended, mutateDropped},
	}
	for _, cl := range classes {
		row := FaultRow{Class: cl.name, FalsePositives: fp}
		for k := 0; row.Mutants < cl.n && k < cl.n*50 && len(pool) > 0; k++ {
			m, tr, ok := cl.mutate(k, pool[k%len(pool)])
			if !ok {
				continue
			}
			row.Mutants++
			if r := evidence.Verify(tr, &evidence.Answer{Claims: []evidence.Claim{m}}, evidence.Options{})[0]; r.Verdict != evidence.Supported {
				row.Detected++
			}
		}
		rep.Rows = append(rep.Rows, row)
	}
	on, off, err := truncatedCounts(ctx, db, tasks, cfg.Truncated)
	if err != nil {
		return nil, err
	}
	rep.Rows = append(rep.Rows, on, off)
	return rep, nil
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

// enrich adds claims a richer reporter would make from the trace: complete
// sets and orderings over uid-keyed rows with a time column.
func enrich(tr *exec.Trace) []evidence.Claim {
	var out []evidence.Claim
	for _, s := range tr.Steps {
		res := tr.FullResult(s.StepID)
		rows, _ := res["rows"].([]any)
		if len(rows) < 2 || s.Evidence == nil {
			continue
		}
		r0, _ := rows[0].(map[string]any)
		if _, ok := r0["uid"].(string); !ok {
			continue
		}
		var uids []string
		for _, r := range rows {
			m, _ := r.(map[string]any)
			if u, ok := m["uid"].(string); ok && !slices.Contains(uids, u) {
				uids = append(uids, u)
			}
		}
		if s.Evidence.Completeness.Complete && len(uids) >= 2 {
			out = append(out, evidence.Claim{Kind: evidence.KindCompleteSet, Step: s.StepID, Path: "rows[*].uid", UIDs: uids})
		}
		for _, by := range []string{"earliest_arrival", "latest_departure"} {
			a, okA := r0[by].(int64)
			for _, r := range rows[1:] {
				m, _ := r.(map[string]any)
				b, okB := m[by].(int64)
				if okA && okB && a < b {
					out = append(out, evidence.Claim{Kind: evidence.KindOrdering, Step: s.StepID, Path: "rows", Key: "uid", By: by, First: r0["uid"].(string), Second: m["uid"].(string)})
					break
				}
			}
		}
	}
	return out
}

func mutateCount(k int, p pooled) (evidence.Claim, *exec.Trace, bool) {
	c := p.claim
	if c.Kind != evidence.KindCount && c.Kind != evidence.KindValue {
		return c, nil, false
	}
	d := int64(1)
	if k%2 == 1 {
		d = -1
	}
	switch v := c.Value.(type) {
	case int64:
		c.Value = v + d
	case float64:
		c.Value = v + float64(d)
	default:
		return c, nil, false
	}
	return c, p.trace, true
}

func mutateFabricated(k int, p pooled) (evidence.Claim, *exec.Trace, bool) {
	c := p.claim
	if len(c.UIDs) == 0 {
		if s, ok := c.Value.(string); ok && c.Kind == evidence.KindValue && s != "" {
			c.Value = fmt.Sprintf("fabricated-%04d", k)
			return c, p.trace, true
		}
		return c, nil, false
	}
	c.UIDs = slices.Clone(c.UIDs)
	c.UIDs[k%len(c.UIDs)] = fmt.Sprintf("fabricated-%04d", k)
	return c, p.trace, true
}

// mutateUncited adds a real uid of the store that the cited evidence does
// not contain.
func mutateUncited(k int, p pooled, uids []string) (evidence.Claim, *exec.Trace, bool) {
	c := p.claim
	if c.Kind != evidence.KindEntity && c.Kind != evidence.KindCompleteSet || len(uids) == 0 {
		return c, nil, false
	}
	for i := range uids {
		u := uids[(k*7919+i)%len(uids)]
		if !slices.Contains(c.UIDs, u) && !mentions(p.trace.FullResult(c.Step), u) {
			c.UIDs = append(slices.Clone(c.UIDs), u)
			return c, p.trace, true
		}
	}
	return c, nil, false
}

func mentions(v any, s string) bool {
	switch x := v.(type) {
	case string:
		return x == s
	case []any:
		for _, e := range x {
			if mentions(e, s) {
				return true
			}
		}
	case map[string]any:
		for _, e := range x {
			if mentions(e, s) {
				return true
			}
		}
	}
	return false
}

func mutateOrdering(_ int, p pooled) (evidence.Claim, *exec.Trace, bool) {
	c := p.claim
	if c.Kind != evidence.KindOrdering {
		return c, nil, false
	}
	c.First, c.Second = c.Second, c.First
	return c, p.trace, true
}

// mutateUnits restates a time in seconds instead of microseconds.
func mutateUnits(_ int, p pooled) (evidence.Claim, *exec.Trace, bool) {
	c := p.claim
	switch c.Kind {
	case evidence.KindValue, evidence.KindCount:
		if v, ok := c.Value.(int64); ok && v >= 1_000_000 {
			c.Value = v / 1_000_000
			return c, p.trace, true
		}
	case evidence.KindInterval:
		ta, tb := *c.TA/1_000_000, *c.TB/1_000_000
		if *c.TA >= 1_000_000 {
			c.TA, c.TB = &ta, &tb
			return c, p.trace, true
		}
	}
	return c, nil, false
}

// mutateBelief claims the value as of a belief time the evidence was not
// computed at.
func mutateBelief(k int, p pooled) (evidence.Claim, *exec.Trace, bool) {
	c := p.claim
	s, ok := p.trace.Step(c.Step)
	if !ok || s.Evidence == nil || s.Evidence.Basis.AsOfTT == 0 {
		return c, nil, false
	}
	wrong := s.Evidence.Basis.AsOfTT - 1 - int64(k%3)
	c.AsOfTT = &wrong
	return c, p.trace, true
}

// mutateStep cites another successful step for the same path; mutants
// where the other step holds the very same value at that path are not
// faults and are not counted.
func mutateStep(k int, p pooled) (evidence.Claim, *exec.Trace, bool) {
	c := p.claim
	var others []string
	for _, s := range p.trace.Steps {
		if s.StepID != c.Step && s.Status == "ok" {
			others = append(others, s.StepID)
		}
	}
	if len(others) == 0 {
		return c, nil, false
	}
	c.Step = others[k%len(others)]
	if c.Path != "" {
		if ref, err := plan.ParseRef(c.Step+"."+c.Path, false); err == nil {
			if got, _, err := exec.Eval(p.trace.FullResult(c.Step), ref); err == nil {
				if orig, _, err2 := exec.Eval(p.trace.FullResult(p.claim.Step), mustRef(p.claim.Step+"."+c.Path)); err2 == nil && canon.Equal(got, orig) {
					return c, nil, false
				}
			}
		}
	}
	return c, p.trace, true
}

func mustRef(s string) plan.Ref {
	r, _ := plan.ParseRef(s, false)
	return r
}

func mutateDropped(k int, p pooled) (evidence.Claim, *exec.Trace, bool) {
	c := p.claim
	if c.Kind != evidence.KindCompleteSet || len(c.UIDs) < 2 {
		return c, nil, false
	}
	i := k % len(c.UIDs)
	c.UIDs = append(slices.Clone(c.UIDs[:i]), c.UIDs[i+1:]...)
	return c, p.trace, true
}

// truncatedCounts builds the controlled truncated-count cases: a count task
// whose plan has a paginated step is re-run with that step's limit at 3;
// when the step then holds more rows than its page, the claim "the count is
// the page's length" is verified with completeness tracking on and off.
func truncatedCounts(ctx context.Context, db *tgms.DB, tasks []Task, n int) (on, off FaultRow, err error) {
	on, off = FaultRow{Class: "truncated_count"}, FaultRow{Class: "truncated_count_tracking_off"}
	for i := range tasks {
		if on.Mutants >= n {
			break
		}
		t := &tasks[i]
		p, err := taskPlan(t)
		if err != nil {
			return on, off, err
		}
		for j := range p.Steps {
			s := &p.Steps[j]
			spec := s.Args
			if _, paged := spec["limit"]; !paged && !pagedOp(s.Op) {
				continue
			}
			cp := clonePlan(p)
			cp.Steps[j].Args["limit"] = int64(3)
			tr := exec.Run(ctx, db, cp, exec.Options{AsOf: t.AsOfTT})
			r, ok := tr.Step(s.ID)
			if !ok || r.Status != "ok" || r.RowsTotal <= 3 {
				continue
			}
			claim := evidence.Claim{ID: "c1", Kind: evidence.KindCount, Step: s.ID, Path: "rows", Value: r.RowsReturned}
			a := &evidence.Answer{Claims: []evidence.Claim{claim}}
			on.Mutants++
			off.Mutants++
			if evidence.Verify(tr, a, evidence.Options{})[0].Verdict != evidence.Supported {
				on.Detected++
			}
			if evidence.Verify(tr, a, evidence.Options{IgnoreCompleteness: true})[0].Verdict != evidence.Supported {
				off.Detected++
			}
			break
		}
	}
	return on, off, nil
}

func pagedOp(op string) bool {
	switch op {
	case "temporal_reachability", "entity_history", "snapshot_subgraph", "resolve_entities", "co_active",
		"find_temporal_motif_instances", "aggregate_events", "version_history", "graph_metric_timeseries", "burst_detection":
		return true
	}
	return false
}

func clonePlan(p *plan.Plan) *plan.Plan {
	b, _ := p.JSON()
	v := plan.ValidateJSON(b, plan.Options{Disable: map[string]bool{plan.RuleGroundLiteral: true}})
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
