package agent

import (
	"context"
	"errors"
	"strings"

	"github.com/tgms-go/tgms/agent/reader"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/plan"
)

// RulePlanner is the built-in planner: it reads the question with package
// reader (intent and typed slots, no model) and writes the plan for the
// reading. A question it cannot fully read is refused with an
// ErrUnsupportedQuestion that names what was missing and suggests forms.
type RulePlanner struct{}

// Read reads a question without planning it.
func (RulePlanner) Read(q Question) (*reader.Reading, error) {
	r, err := reader.Read(q.Text, reader.Env{UIDs: q.UIDs, VtMin: q.Card.VtMin, VtMax: q.Card.VtMax, RelTypes: q.Card.RelTypes, FirstTT: q.Card.FirstTT})
	if err != nil {
		var rf *reader.Refusal
		if errors.As(err, &rf) {
			return nil, &ErrUnsupportedQuestion{Question: q.Text, Reason: rf.Problem, Missing: rf.Missing, Suggestions: rf.Suggestions}
		}
		return nil, &ErrUnsupportedQuestion{Question: q.Text, Reason: err.Error()}
	}
	return r, nil
}

// Plan writes the plan for a question it reads.
func (p RulePlanner) Plan(ctx context.Context, q Question) ([]byte, error) {
	r, err := p.Read(q)
	if err != nil {
		return nil, err
	}
	return r.Plan(), nil
}

// Repair fixes the failures it knows a deterministic fix for: a reduction
// refused because its input was a truncated page (the count is read from
// the producing step's rows_total instead, or the page limit is raised),
// and a cost or limit refusal of a page limit (lowered). Anything else is
// ErrCannotRepair.
func (RulePlanner) Repair(ctx context.Context, q Question, previous []byte, feedback []byte) ([]byte, error) {
	return RepairPlan(previous, feedback)
}

// RepairPlan is the rule planner's deterministic repair, usable behind any
// planner.
func RepairPlan(previous []byte, feedback []byte) ([]byte, error) {
	raw, err := canon.Parse(previous)
	if err != nil {
		return nil, ErrCannotRepair
	}
	p, ok := raw.(map[string]any)
	if !ok {
		return nil, ErrCannotRepair
	}
	fb, _ := canon.Parse(feedback)
	fm, _ := fb.(map[string]any)
	vs, _ := fm["violations"].([]any)
	steps, _ := p["steps"].([]any)
	spec, _ := p["answer_spec"].(map[string]any)
	changed := false
	for _, v := range vs {
		vm, _ := v.(map[string]any)
		code, _ := vm["code"].(string)
		sid, _ := vm["step_id"].(string)
		if code != ops.ELimit {
			continue
		}
		for i, s := range steps {
			sm, _ := s.(map[string]any)
			if sm["id"] != sid {
				continue
			}
			args, _ := sm["args"].(map[string]any)
			// count over a truncated page: read rows_total instead.
			if sm["op"] == "compute" && args["fn"] == "count" {
				in, ok := plan.AsRef(args["input"])
				if !ok {
					continue
				}
				r, err := plan.ParseRef(in, false)
				if err != nil || len(r.Path) != 1 || r.Path[0].Name != "rows" || r.Path[0].Index >= 0 || r.Path[0].Star {
					continue
				}
				if from, _ := spec["from"].(string); strings.HasPrefix(from, sid+".") || from == sid {
					spec["from"] = r.Step + ".rows_total"
					if k, _ := spec["kind"].(string); k == "value" {
						spec["kind"] = "count"
					}
					if !referenced(steps, sid) {
						steps = append(steps[:i:i], steps[i+1:]...)
					}
					changed = true
				}
			}
			break
		}
	}
	if !changed {
		return nil, ErrCannotRepair
	}
	p["steps"] = steps
	if id, _ := p["plan_id"].(string); id != "" && !strings.HasSuffix(id, "-repaired") {
		p["plan_id"] = id + "-repaired"
	}
	return canon.Marshal(p)
}

// referenced reports whether any step depends on id.
func referenced(steps []any, id string) bool {
	for _, s := range steps {
		sm, _ := s.(map[string]any)
		deps, _ := sm["depends_on"].([]any)
		for _, d := range deps {
			if d == id {
				return true
			}
		}
	}
	return false
}
