package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/plan"
)

// A Service over a Backend (Options.Backend: 'tgms serve --engine sql')
// runs its operators and plans through it and builds no in-memory read
// model. It offers the operator tools of the operators the backend has
// (Options.BackendOps) and the tools that need nothing else:
// validate_plan, run_plan and stats. The others (ask, verification,
// traces' re-execution, memory, writes) read the in-memory engine, so
// they are not offered. A plan with a step the backend cannot run is
// refused before any step runs, naming the step and the operators it can
// run: a per-step fallback would need the read model the backend exists
// to avoid.

// backendTools are the tools besides operators a service over a Backend offers.
var backendTools = []string{"validate_plan", "run_plan", "stats"}

// backendCatalog keeps the tools a service over a Backend offers.
func backendCatalog(all []*Tool, have []string) []*Tool {
	var out []*Tool
	for _, t := range all {
		if t.Operator != nil && slices.Contains(have, t.Operator.Name) || t.Operator == nil && slices.Contains(backendTools, t.Name) {
			out = append(out, t)
		}
	}
	return out
}

// callBackend is an operator tool's call through the backend.
func (s *Service) callBackend(ctx context.Context, name string, args map[string]any) (any, *Failure) {
	env, err := ops.ExecuteOn(ctx, s.backend, name, args, ops.ExecOptions{Typed: true})
	if err != nil {
		return nil, fromOpError(name, err)
	}
	b, err := env.Canonical()
	if err != nil {
		return nil, fromOpError(name, err)
	}
	return json.RawMessage(b), nil
}

// backendSteps refuses a plan with a step whose operator the backend
// cannot run.
func (s *Service) backendSteps(p *plan.Plan) *Failure {
	for i, st := range p.Steps {
		if !slices.Contains(s.backendOps, st.Op) {
			return fail(statusUnprocessed, ops.EInvalidArg, "engine.sql", fmt.Sprintf("/steps/%d/op", i),
				"run the plan on a server without --engine sql, or use the operators listed", s.backendOps,
				"step %s runs %s, which has no SQL form on this server (--engine sql); the operators that have one: %s", st.ID, st.Op, strings.Join(s.backendOps, ", "))
		}
	}
	return nil
}
