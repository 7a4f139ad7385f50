package fresh

import (
	"context"
	"fmt"

	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/plan"
)

// StepChange compares one step of the old and the new run.
type StepChange struct {
	StepID    string `json:"step_id"`
	Op        string `json:"op"`
	OldStatus string `json:"old_status"`
	NewStatus string `json:"new_status"`
	OldDigest string `json:"old_result_digest"`
	NewDigest string `json:"new_result_digest"`
	Changed   bool   `json:"changed"`
}

// Refreshed is a trace re-run at the current belief time beside the old
// one.
type Refreshed struct {
	Old, New      *exec.Trace
	Steps         []StepChange
	AnswerChanged bool // the answer value differs
	Changed       bool // some step's result (or status) or the answer differs
}

// PlanOf recovers the plan a trace ran.
func PlanOf(tr *exec.Trace) (*plan.Plan, error) {
	if tr.Plan == nil {
		return nil, fmt.Errorf("the trace records no plan")
	}
	v := plan.Validate(tr.Plan, plan.Options{})
	if v.Plan == nil {
		msg := "malformed"
		if len(v.Violations) > 0 {
			msg = v.Violations[0].Message
		}
		return nil, fmt.Errorf("the trace's plan does not parse: %s", msg)
	}
	return v.Plan, nil
}

// Refresh re-runs the trace's plan at src's current belief time and
// compares every step and the answer with the old run.
func Refresh(ctx context.Context, src exec.Source, tr *exec.Trace) (*Refreshed, error) {
	p, err := PlanOf(tr)
	if err != nil {
		return nil, err
	}
	now := exec.Run(ctx, src, p, exec.Options{})
	return Compare(tr, now), nil
}

// Compare lines up two runs of one plan.
func Compare(old, now *exec.Trace) *Refreshed {
	r := &Refreshed{Old: old, New: now}
	for i := range old.Steps {
		o := &old.Steps[i]
		c := StepChange{StepID: o.StepID, Op: o.Op, OldStatus: o.Status, OldDigest: o.ResultDigest, Changed: true}
		if n, ok := now.Step(o.StepID); ok {
			c.NewStatus, c.NewDigest = n.Status, n.ResultDigest
			c.Changed = n.Status != o.Status || n.ResultDigest != o.ResultDigest
		}
		r.Steps = append(r.Steps, c)
		r.Changed = r.Changed || c.Changed
	}
	a, errA := canon.Digest(old.Answer)
	b, errB := canon.Digest(now.Answer)
	r.AnswerChanged = errA != nil || errB != nil || a != b
	r.Changed = r.Changed || r.AnswerChanged
	return r
}
