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
func emptyAnswer(tr *exec.Trace, p *plan.Plan) (*evidence.Answer, bool) {
	if tr.AnswerError == nil {
		return nil, false
	}
	ref, err := plan.ParseRef(p.Answer.From, true)
	if err != nil || !strings.HasPrefix(strings.TrimPrefix(p.Answer.From, ref.Step+"."), "rows[0]") {
		return nil, false
	}
	r, ok := tr.Step(ref.Step)
	if !ok || r.Status != "ok" || r.Evidence == nil || !r.Evidence.Completeness.Complete || r.RowsTotal != 0 {
		return nil, false
	}
	return &evidence.Answer{Claims: []evidence.Claim{{ID: "c1", Kind: evidence.KindCount, Step: ref.Step, Path: "rows_total", Value: int64(0)}}}, true
}
