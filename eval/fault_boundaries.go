package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/evidence"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/plan"
)

// Fault classes that sit on the verifier's numeric and completeness
// boundaries: a number stated across the integer/float divide a hair off
// the evidence, and a complete set claimed over a step computed from a
// truncated input.

// intFloatGaps are the offsets of an int/float mutant: each a thousand
// times the verifier's 1e-9 tolerance or more, each under 1e-3.
var intFloatGaps = []float64{1e-6, 1e-5, 1e-4, 5e-4}

// mutateIntFloat states a number across the integer/float divide, off by a
// small gap: an integer of the evidence as a float off by the k/2-th gap
// (up for even k, down for odd k), or a float of the evidence as the
// nearest integer when the two are less than 1e-3 apart. A mutant whose
// float cannot represent the gap (a large integer) is no fault.
func mutateIntFloat(_ *faultEnv, k int, p *pooled) (evidence.Claim, *exec.Trace, bool) {
	c := p.claim
	if c.Kind != evidence.KindValue && c.Kind != evidence.KindBelief {
		return c, nil, false
	}
	switch v := c.Value.(type) {
	case int64:
		if k >= 2*len(intFloatGaps) {
			return c, nil, false
		}
		gap := intFloatGaps[k/2]
		if k%2 == 1 {
			gap = -gap
		}
		f := float64(v) + gap
		if d := math.Abs(f - float64(v)); math.Abs(float64(v)) > 1<<53 || d <= 1e-9 || d >= 1e-3 {
			return c, nil, false
		}
		c.Value = f
	case float64:
		r := math.Round(v)
		if d := math.Abs(v - r); k > 0 || d <= 1e-9 || d >= 1e-3 || math.Abs(r) > 1<<53 {
			return c, nil, false
		}
		c.Value = int64(r)
	default:
		return c, nil, false
	}
	return c, p.trace, true
}

// setsOverUncertified builds the uncertified case of complete sets: for a
// supported complete_set claim over a column of a paginated step, the plan
// gains a step that filters that step's rows (keeping every row with the
// column set) and the claim moves to the filter's column, which a full run
// supports. Re-run with the paginated step's limit below its row count,
// the filter is computed from a truncated input (its fields are
// uncertified), and the members it then returns are claimed as the
// complete set. The clean counterpart is the claim on the full run.
func setsOverUncertified(ctx context.Context, db *tgms.DB, clean []pooled, cfg FaultConfig) FaultRow {
	row := FaultRow{Class: "complete_set_over_uncertified"}
	seen := map[string]bool{}
	for i := range clean {
		pc := &clean[i]
		c := pc.claim
		col, ok := strings.CutPrefix(c.Path, "rows[*].")
		if row.Mutants >= cfg.Truncated || !pc.supported || c.Kind != evidence.KindCompleteSet || !ok || seen[pc.task.ID+c.Step+c.Path] {
			continue
		}
		seen[pc.task.ID+c.Step+c.Path] = true
		s, ok := pc.trace.Step(c.Step)
		if !ok || s.RowsTotal < 2 {
			continue
		}
		p, err := taskPlan(pc.task)
		if err != nil {
			continue
		}
		full, filterStep, j, ok := withFilter(p, c.Step, col)
		st, _, _ := p.Step(c.Step)
		if !ok || !pagedOp(st.Op) {
			continue
		}
		opt := exec.Options{AsOf: pc.task.AsOfTT}
		trFull := exec.Run(ctx, db, full, opt)
		good := evidence.Claim{ID: "c1", Kind: evidence.KindCompleteSet, Step: filterStep, Path: c.Path}
		if good.UIDs, ok = pathUIDs(trFull, filterStep, c.Path); !ok || len(good.UIDs) < 2 {
			continue
		}
		tr := exec.Run(ctx, db, withLimit(full, j, max(1, s.RowsTotal/2)), opt)
		f, ok := tr.Step(filterStep)
		if !ok || f.Status != "ok" || f.Evidence == nil || f.Evidence.Completeness.Fields["rows"] != exec.FieldUncertified {
			continue
		}
		m := good
		if m.UIDs, ok = pathUIDs(tr, filterStep, c.Path); !ok || len(m.UIDs) == 0 {
			continue
		}
		row.Base++
		row.count(verify(tr, m, cfg.Verifier).Verdict)
		row.clean(verify(trFull, good, cfg.Verifier).Verdict)
	}
	return row
}

// withFilter copies a plan with a step that keeps the rows of step id
// whose column col is set, and makes it the answer; it returns the new
// step's id and the index of step id in the copy.
func withFilter(p *plan.Plan, id, col string) (*plan.Plan, string, int, bool) {
	filterStep := fmt.Sprintf("s%d", len(p.Steps)+1)
	b, err := p.JSON()
	if err != nil {
		return nil, "", 0, false
	}
	var raw map[string]any
	if json.Unmarshal(b, &raw) != nil {
		return nil, "", 0, false
	}
	steps, _ := raw["steps"].([]any)
	raw["steps"] = append(steps, map[string]any{"id": filterStep, "op": "compute", "depends_on": []any{id},
		"args": map[string]any{"fn": "filter", "input": map[string]any{"$ref": id + ".rows"}, "field": col, "cmp": "not_null"}})
	raw["answer_spec"] = map[string]any{"kind": "value", "from": filterStep}
	if b, err = json.Marshal(raw); err != nil {
		return nil, "", 0, false
	}
	v := plan.ValidateJSON(b, plan.Options{Disable: map[string]bool{plan.RuleGroundLiteral: true}})
	if v.Plan == nil || !v.Valid {
		return nil, "", 0, false
	}
	_, j, ok := v.Plan.Step(id)
	return v.Plan, filterStep, j, ok
}
