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
// the evidence (either way), and a complete set claimed over a step
// computed from a truncated input.

// intFloatGaps are the offsets of an int/float mutant: each a thousand
// times the verifier's 1e-9 tolerance or more, each under 1e-3.
var intFloatGaps = []float64{1e-6, 1e-5, 1e-4, 5e-4}

// mutateIntFloat states an integer of the evidence as a float off by the
// k/2-th gap (up for even k, down for odd k). A mutant whose float cannot
// represent the gap (a large integer) is no fault. (The reverse, a float
// of the evidence stated as a nearby integer, is floatsNearIntegers.)
func mutateIntFloat(_ *faultEnv, k int, p *pooled) (evidence.Claim, *exec.Trace, bool) {
	c := p.claim
	if c.Kind != evidence.KindValue && c.Kind != evidence.KindBelief {
		return c, nil, false
	}
	v, ok := c.Value.(int64)
	if !ok || k >= 2*len(intFloatGaps) {
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
	return withStep(p, id, map[string]any{"fn": "filter", "input": map[string]any{"$ref": id + ".rows"}, "field": col, "cmp": "not_null"})
}

// withStep copies a plan with a compute step of the given arguments that
// reads step id, and makes it the answer; it returns the new step's id and
// the index of step id in the copy.
func withStep(p *plan.Plan, id string, args map[string]any) (*plan.Plan, string, int, bool) {
	newID := fmt.Sprintf("s%d", len(p.Steps)+1)
	b, err := p.JSON()
	if err != nil {
		return nil, "", 0, false
	}
	var raw map[string]any
	if json.Unmarshal(b, &raw) != nil {
		return nil, "", 0, false
	}
	steps, _ := raw["steps"].([]any)
	raw["steps"] = append(steps, map[string]any{"id": newID, "op": "compute", "depends_on": []any{id}, "args": args})
	raw["answer_spec"] = map[string]any{"kind": "value", "from": newID}
	if b, err = json.Marshal(raw); err != nil {
		return nil, "", 0, false
	}
	v := plan.ValidateJSON(b, plan.Options{Disable: map[string]bool{plan.RuleGroundLiteral: true}})
	if v.Plan == nil || !v.Valid {
		return nil, "", 0, false
	}
	_, j, ok := v.Plan.Step(id)
	return v.Plan, newID, j, ok
}

// floatScale is the factor floatsNearIntegers scales integers by: small
// integers move by a millionth of themselves, a thousand times the
// verifier's tolerance and well under 1e-3.
const floatScale = 1 + 1e-6

// floatsNearIntegers builds the float side of the int/float boundary,
// which the evidence of the suite seldom holds: for a supported value
// claim about a small integer column of a row (1 <= |v| <= 100), the plan
// gains a step deriving that column times floatScale, and the integer is
// claimed as the derived column's value, a float within 1e-4 of it. The
// clean counterpart claims the derived float itself.
func floatsNearIntegers(ctx context.Context, db *tgms.DB, clean []pooled, cfg FaultConfig) FaultRow {
	row := FaultRow{Class: "float_as_integer_epsilon"}
	seen := map[string]bool{}
	for i := range clean {
		pc := &clean[i]
		c := pc.claim
		v, isInt := c.Value.(int64)
		idx, col, ok := rowColumn(c.Path)
		if row.Mutants >= cfg.Extended || !pc.supported || c.Kind != evidence.KindValue || !isInt || !ok ||
			v == 0 || v < -100 || v > 100 || seen[pc.task.ID+c.Step+c.Path] {
			continue
		}
		seen[pc.task.ID+c.Step+c.Path] = true
		p, err := taskPlan(pc.task)
		if err != nil {
			continue
		}
		into := col + "_scaled"
		full, id, _, ok := withStep(p, c.Step, map[string]any{"fn": "derive", "input": map[string]any{"$ref": c.Step + ".rows"},
			"field": col, "op": "mul", "value": floatScale, "into": into})
		if !ok {
			continue
		}
		tr := exec.Run(ctx, db, full, exec.Options{AsOf: pc.task.AsOfTT})
		path := fmt.Sprintf("rows[%d].%s", idx, into)
		got, ok := valueAt(tr, id, path)
		f, isFloat := got.(float64)
		if !ok || !isFloat || math.Abs(f-float64(v)) <= 1e-9 || math.Abs(f-float64(v)) >= 1e-3 {
			continue
		}
		m := evidence.Claim{ID: "c1", Kind: evidence.KindValue, Step: id, Path: path, Value: v}
		good := m
		good.Value = f
		row.Base++
		row.count(verify(tr, m, cfg.Verifier).Verdict)
		row.clean(verify(tr, good, cfg.Verifier).Verdict)
	}
	return row
}

// rowColumn splits a path of the form rows[i].col.
func rowColumn(path string) (int, string, bool) {
	var i int
	rest, ok := strings.CutPrefix(path, "rows[")
	if !ok {
		return 0, "", false
	}
	n, col, ok := strings.Cut(rest, "].")
	if !ok || strings.ContainsAny(col, ".[") {
		return 0, "", false
	}
	if _, err := fmt.Sscanf(n, "%d", &i); err != nil || fmt.Sprint(i) != n {
		return 0, "", false
	}
	return i, col, true
}
