package tgms

import (
	"context"

	"github.com/tgms-go/tgms/agent"
	"github.com/tgms-go/tgms/evidence"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/plan"
)

// The agent-facing API: the plan contract, the executor, the evidence
// contract and the whole ask pipeline over this store.

// Validate runs the plan contract on a plan (JSON) against this store:
// uids are the identifiers the task supplied (grounding); the store's
// statistics feed the extent and cost rules.
func (db *DB) Validate(planJSON []byte, uids []string) plan.Verdict {
	st := db.Stats()
	return plan.ValidateJSON(planJSON, plan.Options{UIDs: uids, Stats: &ops.Stats{
		Nodes: int64(st.Nodes), NodeVersions: int64(st.NodeVersions), EdgeVersions: int64(st.EdgeVersions), VtMin: st.VtMin, VtMax: st.VtMax,
	}})
}

// Execute runs an admitted plan pinned at the store's last durable belief
// time and returns its trace.
func (db *DB) Execute(ctx context.Context, p *plan.Plan) *exec.Trace {
	return exec.Run(ctx, db, p, exec.Options{})
}

// Verify checks an answer's claims against a trace and returns the
// certified answer: only supported claims, rendered deterministically.
func (db *DB) Verify(tr *exec.Trace, a *evidence.Answer) *evidence.Certified {
	return evidence.Gate(tr, a, evidence.Options{})
}

// Ask answers a question with the built-in rule planner (no model):
// planner, plan contract, repair loop, executor, reporter and evidence
// gate. For a model-backed planner use agent.Ask with agent.LLMPlanner.
func (db *DB) Ask(ctx context.Context, question string, uids []string) (*agent.Result, error) {
	return agent.Ask(ctx, db, agent.Question{Text: question, UIDs: uids}, agent.Options{})
}
