package tools

import "github.com/tgms-go/tgms/agent"

// Reading is how the server shows what the question was read as: the
// built-in reader's structured reading (intent, slots, resolved names,
// window, belief time), unchanged. A planner that reads nothing itself (the
// LLM planner) leaves no reading; then it is what the ask pipeline settled
// on: the plan it admitted (its id names the question shape), the task's
// uids and the belief time the answer is pinned at, marked with
// "source": "plan".
//
// This is the one place that knows where a reading comes from.
func Reading(res *agent.Result) any {
	if res == nil {
		return nil
	}
	if res.Reading != nil {
		return res.Reading
	}
	out := map[string]any{"source": "plan", "uids": res.Question.UIDs}
	if res.Plan != nil {
		out["shape"] = res.Plan.ID
		out["answer_kind"] = res.Plan.Answer.Kind
		steps := make([]string, len(res.Plan.Steps))
		for i, s := range res.Plan.Steps {
			steps[i] = s.Op
		}
		out["operators"] = steps
	}
	if res.Trace != nil {
		out["as_of_tt"] = res.Trace.AsOfTT
	}
	if res.Refusal != "" {
		out["refusal"] = res.Refusal
	}
	return out
}
