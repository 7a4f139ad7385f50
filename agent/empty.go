package agent

import (
	"strings"

	"github.com/tgms-go/tgms/evidence"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/plan"
)

// KindEmpty is the answer kind of a question whose answer is the first row
// of a result that is empty over complete evidence: no path reaches the
// node, no bucket bursts. It is an answer, certified by the count 0 of the
// rows, not a failure.
const KindEmpty = "empty"

// emptyAnswer is the certified "none" answer of a plan whose answer reads
// row 0 of a step that ran, is complete and has no rows; ok is false for
// any other failure.
//
// A step that failed because an argument reads row 0 of such a step ("the
// versions of the first node reached", with none reached) has the same
// answer: the empty step is the evidence.
func emptyAnswer(tr *exec.Trace, p *plan.Plan) (*evidence.Answer, bool) {
	if tr.AnswerError == nil {
		return nil, false
	}
	if step, ok := emptyRowZero(tr, p.Answer.From); ok {
		return emptyClaim(step), true
	}
	for i := range tr.Steps {
		s := &tr.Steps[i]
		if s.Status == "ok" {
			continue
		}
		// The first step that did not run: every row-0 reference of its
		// arguments must read an empty step for the failure to be that.
		var ps *plan.Step
		for k := range p.Steps {
			if p.Steps[k].ID == s.StepID {
				ps = &p.Steps[k]
			}
		}
		if ps == nil {
			return nil, false
		}
		var empty string
		ok := true
		refs(ps.Args, func(r string) {
			if st, e := emptyRowZero(tr, r); e {
				empty = st
			} else if strings.Contains(r, "rows[0]") {
				ok = false
			}
		})
		if !ok || empty == "" {
			return nil, false
		}
		return emptyClaim(empty), true
	}
	return nil, false
}

// emptyRowZero reports whether a reference reads row 0 of a step that
// ran, is complete and has no rows, and names that step.
func emptyRowZero(tr *exec.Trace, from string) (string, bool) {
	ref, err := plan.ParseRef(from, true)
	if err != nil || !strings.HasPrefix(strings.TrimPrefix(from, ref.Step+"."), "rows[0]") {
		return "", false
	}
	r, ok := tr.Step(ref.Step)
	// A name that matched no node is not an empty answer: it is refused.
	if !ok || r.Op == "resolve_entities" || r.Status != "ok" || r.Evidence == nil || !r.Evidence.Completeness.Complete || r.RowsTotal != 0 {
		return "", false
	}
	return ref.Step, true
}

func emptyClaim(step string) *evidence.Answer {
	return &evidence.Answer{Claims: []evidence.Claim{{ID: "c1", Kind: evidence.KindCount, Step: step, Path: "rows_total", Value: int64(0)}}}
}

// refs calls f with every "$ref" of a step's arguments.
func refs(v any, f func(string)) {
	switch x := v.(type) {
	case map[string]any:
		if r, ok := plan.AsRef(x); ok {
			f(r)
			return
		}
		for _, e := range x {
			refs(e, f)
		}
	case []any:
		for _, e := range x {
			refs(e, f)
		}
	}
}
