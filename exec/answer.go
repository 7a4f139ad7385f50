package exec

import (
	"fmt"

	"github.com/tgms-go/tgms/plan"
)

// AnswerStatus says whether the plan's answer (answer_spec.from) is
// certified by the evidence: the answer's step succeeded, none of its
// inputs was incomplete, and what the answer reads is not a page of a
// longer list (rows_total and rows[i] of a page are certain; rows is not).
// why says what is missing when it is not.
func (t *Trace) AnswerStatus() (certified bool, why string) {
	if t.AnswerError != nil {
		return false, t.AnswerError.Message
	}
	from, _ := t.Plan["answer_spec"].(map[string]any)
	raw, _ := from["from"].(string)
	ref, err := plan.ParseRef(raw, true)
	if err != nil {
		return false, err.Error()
	}
	r, ok := t.Step(ref.Step)
	if !ok || r.Status != "ok" {
		return false, fmt.Sprintf("step %s did not succeed", ref.Step)
	}
	if r.full == nil {
		return false, "the trace was loaded from a file: verify it with tgms trace verify"
	}
	if r.UpstreamTruncated {
		reason := fmt.Sprintf("step %s was computed from incomplete inputs", r.StepID)
		if r.Evidence != nil && r.Evidence.Completeness.Reason != "" {
			reason += " (" + r.Evidence.Completeness.Reason + ")"
		}
		return false, reason
	}
	if len(ref.Path) == 0 {
		if r.Evidence != nil && !r.Evidence.Completeness.Complete {
			return false, r.Evidence.Completeness.Reason
		}
		return true, ""
	}
	if reason := incompleteRead(r, ref); reason != "" {
		return false, reason
	}
	return true, ""
}
