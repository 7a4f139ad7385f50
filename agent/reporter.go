package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/evidence"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/llm"
	"github.com/tgms-go/tgms/plan"
)

// LLMReporter has a language model word the answer as typed claims (and
// prose) about the trace. The deterministic answer claim always comes
// first, so the certified value never depends on the model; the model's
// own claims are verified and gated like any other. When the model fails
// twice to produce a well-formed answer object, the mechanical answer is
// used alone.
type LLMReporter struct {
	Client    Completer
	MaxTokens int // 0: 2048
	// Usage accumulates the tokens the reporter spent.
	Usage llm.Usage
}

// reporterSystem is the reporter's instructions, claim language included.
const reporterSystem = `You report the answer to a question about a bi-temporal graph database.
You are given the question and the results of an executed plan (one line per step).
Reply with ONE JSON object and nothing else: {"text": "...", "claims": [...]}.
Every number and identifier in "text" must be stated by a claim. Claim only what the
results show; never invent identifiers. Each claim cites a step ("step") and a path
into that step's result ("path", e.g. "rows_total", "rows[0].uid", "rows[*].uid").
Claim kinds and their fields:
  {"id":"c1","kind":"count","step":"s1","path":"rows_total","value":4}          an exact count
  {"id":"c2","kind":"value","step":"s1","path":"rows[0].earliest_arrival","value":20}
  {"id":"c3","kind":"entity","step":"s1","path":"rows[*].uid","uids":["a1"]}    these are among the results
  {"id":"c4","kind":"complete_set","step":"s1","path":"rows[*].uid","uids":["a1","a2"]}  these and no others
  {"id":"c5","kind":"ordering","step":"s1","path":"rows","key":"uid","by":"earliest_arrival","first":"a1","second":"a2"}
  {"id":"c6","kind":"interval","step":"s1","path":"rows[0]","t_a":40,"t_b":50}
  {"id":"c7","kind":"temporal_pattern","step":"s1","pattern":"burst","t_a":40,"t_b":50}
  {"id":"c8","kind":"belief","step":"s1","path":"rows_total","value":4,"as_of_tt":1700000000000000}
A result marked truncated is one page of a longer result: count it with rows_total, never
by counting its rows, and do not claim a complete set from it. Times are microseconds.`

// Report asks the model for claims and puts the deterministic answer
// claim first.
func (r *LLMReporter) Report(ctx context.Context, q Question, p *plan.Plan, tr *exec.Trace) (*evidence.Answer, error) {
	mech := evidence.Mechanical(tr, p)
	msgs := []llm.Message{
		{Role: llm.RoleSystem, Content: reporterSystem},
		{Role: llm.RoleUser, Content: reporterInput(q, p, tr)},
	}
	maxTokens := r.MaxTokens
	if maxTokens == 0 {
		maxTokens = 2048
	}
	var lastErr error
	for attempt := 0; attempt < 2; attempt++ {
		resp, err := r.Client.Complete(ctx, llm.Request{Messages: msgs, MaxTokens: maxTokens})
		if err != nil {
			return mech, fmt.Errorf("reporter: %w", err)
		}
		r.Usage.PromptTokens += resp.Usage.PromptTokens
		r.Usage.CompletionTokens += resp.Usage.CompletionTokens
		r.Usage.TotalTokens += resp.Usage.TotalTokens
		js, err := llm.ExtractJSON(resp.Text)
		var a *evidence.Answer
		if err == nil {
			a, err = evidence.ParseAnswer([]byte(js))
		}
		if err == nil {
			return merge(mech, a), nil
		}
		lastErr = err
		msgs = append(msgs,
			llm.Message{Role: llm.RoleAssistant, Content: resp.Text},
			llm.Message{Role: llm.RoleUser, Content: "That answer object was not accepted: " + err.Error() + "\nReply with the corrected JSON object only."})
	}
	return mech, fmt.Errorf("reporter: no well-formed answer object after 2 attempts: %w", lastErr)
}

// merge puts the mechanical answer claims first and renames the model's
// claims so ids stay unique; the text is the model's.
func merge(mech, model *evidence.Answer) *evidence.Answer {
	out := &evidence.Answer{Text: model.Text, Claims: append([]evidence.Claim{}, mech.Claims...)}
	for i, c := range model.Claims {
		c.ID = fmt.Sprintf("m%d", i+1)
		out.Claims = append(out.Claims, c)
	}
	return out
}

// reporterInput is the question and a compact view of the trace: per step
// its status, counts and the first rows of its result.
func reporterInput(q Question, p *plan.Plan, tr *exec.Trace) string {
	var b strings.Builder
	fmt.Fprintf(&b, "QUESTION: %s\nANSWER SPEC: %s from %s\nRESULTS (belief time %d):\n", dataFence(q.Text), p.Answer.Kind, p.Answer.From, tr.AsOfTT)
	for _, s := range tr.Steps {
		line := map[string]any{"step": s.StepID, "op": s.Op, "status": s.Status}
		if s.Error != nil {
			line["error"] = s.Error.Code
		}
		if res := tr.FullResult(s.StepID); res != nil {
			view := map[string]any{}
			for k, v := range res {
				switch x := v.(type) {
				case []any:
					view[k+"_head"] = x[:min(5, len(x))]
				default:
					view[k] = v
				}
			}
			line["result"] = view
		}
		j, err := canon.Marshal(line)
		if err != nil {
			continue
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	if ans, err := canon.Marshal(tr.Answer); err == nil {
		a := string(ans)
		if len(a) > 4000 {
			a = a[:4000] + "…"
		}
		fmt.Fprintf(&b, "FINAL ANSWER VALUE: %s\nANSWER OBJECT:", a)
	}
	return b.String()
}

// dataFence marks user-supplied text as data.
func dataFence(s string) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "<data>", "&lt;data&gt;"), "</data>", "&lt;/data&gt;")
	return "<data>" + s + "</data>"
}
