package main

import (
	"os"
	"strings"

	"github.com/spf13/cobra"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/plan"
	"github.com/tgms-go/tgms/sqlengine"
)

// pgSource is a PostgreSQL store's read model as a plan's source.
type pgSource struct {
	pgRead
}

func (p pgSource) LastTT() bt.Time { return p.s.LastTT() }

// pgPlanRun is 'tgms plan run' on a PostgreSQL store.
func pgPlanRun(cmd *cobra.Command, store, eng, path, uids, traceOut string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return asInput(err)
	}
	var (
		src exec.Source
		b   ops.Backend
		st  engine.Stats
	)
	switch eng {
	case engineSQL:
		e, err := sqlengine.Open(cmd.Context(), store)
		if err != nil {
			return err
		}
		defer e.Close()
		src, b, st = e, e, e.Stats()
	case engineNative:
		s, err := openPG(cmd, store, false)
		if err != nil {
			return err
		}
		defer s.Close()
		src, st = pgSource{pgRead{s}}, s.Engine().Stats()
	default:
		return badInput("--engine %q: the engines are native and sql", eng)
	}
	stats := &ops.Stats{Nodes: int64(st.Nodes), NodeVersions: int64(st.NodeVersions), EdgeVersions: int64(st.EdgeVersions), VtMin: st.VtMin, VtMax: st.VtMax}
	v := plan.ValidateJSON(data, plan.Options{UIDs: splitUIDs(uids), Stats: stats})
	if v.Valid && eng == engineSQL {
		if err := sqlSteps(v.Plan); err != nil {
			return err
		}
	}
	return runCheckedPlan(cmd, src, b, path, v, traceOut)
}

// sqlSteps refuses a plan with a step whose operator has no SQL form,
// before any step runs.
func sqlSteps(p *plan.Plan) error {
	have := sqlengine.Supported()
	for _, s := range p.Steps {
		if !contains(have, s.Op) {
			return badInput("step %s runs %s, which has no SQL form under --engine sql; the operators that have one: %s (run the plan without --engine sql)",
				s.ID, s.Op, strings.Join(have, ", "))
		}
	}
	return nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
