package eval

import (
	"context"
	"fmt"
	"strings"

	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/plan"
)

// AblationOutcome counts what happened to the mutated plans of one class.
type AblationOutcome struct {
	Rejected         int `json:"rejected"`           // refused before execution (contract on only)
	RejectedWithHint int `json:"rejected_with_hint"` // ... with a violation naming the fix (hint or allowed values)
	RuntimeError     int `json:"runtime_error"`      // ran, and a step or the answer failed
	SilentlyWrong    int `json:"silently_wrong"`     // ran to an answer that is not the gold
	Correct          int `json:"correct"`            // the mutation did not change the answer
}

// AblationRow is one error class with the contract on and off.
type AblationRow struct {
	Class string          `json:"class"`
	Cases int             `json:"cases"`
	On    AblationOutcome `json:"contract_on"`
	Off   AblationOutcome `json:"contract_off"`
}

// ablationClasses are realistic planner errors, each a function that
// mutates an oracle plan (decoded JSON) and reports whether it applied.
var ablationClasses = []struct {
	name   string
	mutate func(p map[string]any) bool
}{
	{"wrong_field_name", mutWrongField},
	{"fabricated_uid", mutFabricatedUID},
	{"inverted_window", mutInvertedWindow},
	{"seconds_as_microseconds", mutSeconds},
	{"missing_depends_on", mutMissingDeps},
	{"wrong_argument_type", mutArgType},
}

// ContractAblation injects each class of planner error into every oracle
// plan it applies to and runs the result twice: through the plan contract
// (rejected before execution, ideally with a hint naming the fix) and with
// the contract off (straight to the executor: a runtime error, a silently
// wrong answer, or a harmless change).
func ContractAblation(ctx context.Context, db *tgms.DB, tasks []Task) ([]AblationRow, error) {
	st := db.Stats()
	stats := &ops.Stats{Nodes: int64(st.Nodes), NodeVersions: int64(st.NodeVersions), EdgeVersions: int64(st.EdgeVersions), VtMin: st.VtMin, VtMax: st.VtMax}
	var rows []AblationRow
	for _, cl := range ablationClasses {
		row := AblationRow{Class: cl.name}
		for i := range tasks {
			t := &tasks[i]
			b, err := canon.Marshal(t.OraclePlan)
			if err != nil {
				return nil, err
			}
			v, _ := canon.Parse(b)
			pm := v.(map[string]any)
			if !cl.mutate(pm) {
				continue
			}
			mb, err := canon.Marshal(pm)
			if err != nil {
				return nil, err
			}
			row.Cases++
			verdict := plan.ValidateJSON(mb, plan.Options{UIDs: t.InputUIDs, Stats: stats})
			if !verdict.Valid {
				row.On.Rejected++
				for _, vi := range verdict.Violations {
					if vi.Hint != "" || len(vi.Allowed) > 0 || vi.Expected != nil {
						row.On.RejectedWithHint++
						break
					}
				}
			} else {
				runAblated(ctx, db, t, verdict.Plan, &row.On)
			}
			// Contract off: only the structure is parsed; every other rule is disabled.
			off := map[string]bool{}
			for _, r := range plan.Rules {
				if r != plan.RulePlanSchema && r != plan.RuleDuplicateID {
					off[r] = true
				}
			}
			raw := plan.ValidateJSON(mb, plan.Options{Disable: off})
			if raw.Plan == nil {
				row.Off.RuntimeError++ // not even a parseable plan
				continue
			}
			runAblated(ctx, db, t, raw.Plan, &row.Off)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

func runAblated(ctx context.Context, db *tgms.DB, t *Task, p *plan.Plan, out *AblationOutcome) {
	tr := exec.Run(ctx, db, p, exec.Options{AsOf: t.AsOfTT})
	switch {
	case !tr.OK:
		out.RuntimeError++
	case Match(t.AnswerKind, t.Gold, TraceAnswer(tr)):
		out.Correct++
	default:
		out.SilentlyWrong++
	}
}

func ablSteps(p map[string]any) []map[string]any {
	list, _ := p["steps"].([]any)
	out := make([]map[string]any, 0, len(list))
	for _, s := range list {
		if m, ok := s.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// mutWrongField reads the answer under a plausible but wrong name: count
// for rows_total, result for value, results for rows, total for *_total.
func mutWrongField(p map[string]any) bool {
	as, _ := p["answer_spec"].(map[string]any)
	from, _ := as["from"].(string)
	id, path, ok := strings.Cut(from, ".")
	if !ok {
		return false
	}
	field, rest, _ := strings.Cut(path, ".")
	name, idx, _ := strings.Cut(field, "[")
	wrong := map[string]string{"rows_total": "count", "value": "result", "rows": "results", "count": "total", "nodes_added_total": "added_count"}[name]
	if wrong == "" {
		if strings.HasSuffix(name, "_total") {
			wrong = "total"
		} else {
			return false
		}
	}
	if idx != "" {
		wrong += "[" + idx
	}
	if rest != "" {
		wrong += "." + rest
	}
	as["from"] = id + "." + wrong
	return true
}

// mutFabricatedUID replaces the first literal uid argument (or the first
// uid-typed reference) with an identifier nobody supplied.
func mutFabricatedUID(p map[string]any) bool {
	for _, s := range ablSteps(p) {
		args, _ := s["args"].(map[string]any)
		for _, k := range []string{"uid", "src", "dst"} {
			if _, ok := args[k]; ok {
				args[k] = "acct-4471"
				return true
			}
		}
		if seeds, ok := args["seeds"].([]any); ok && len(seeds) > 0 {
			seeds[0] = "acct-4471"
			return true
		}
	}
	return false
}

func ablWindows(p map[string]any) []map[string]any {
	var out []map[string]any
	for _, s := range ablSteps(p) {
		args, _ := s["args"].(map[string]any)
		if w, ok := args["window"].(map[string]any); ok {
			out = append(out, w)
		}
	}
	return out
}

func mutInvertedWindow(p map[string]any) bool {
	ws := ablWindows(p)
	if len(ws) == 0 {
		return false
	}
	ws[0]["t_a"], ws[0]["t_b"] = ws[0]["t_b"], ws[0]["t_a"]
	return true
}

// mutSeconds gives every window in seconds where microseconds are expected.
func mutSeconds(p map[string]any) bool {
	done := false
	for _, w := range ablWindows(p) {
		for _, k := range []string{"t_a", "t_b"} {
			if x, ok := w[k].(int64); ok && x >= 1_000_000 {
				w[k] = x / 1_000_000
				done = true
			}
		}
	}
	for _, s := range ablSteps(p) {
		args, _ := s["args"].(map[string]any)
		for _, k := range []string{"t_valid", "t1", "t2"} {
			if x, ok := args[k].(int64); ok && x >= 1_000_000 {
				args[k] = x / 1_000_000
				done = true
			}
		}
	}
	return done
}

// mutMissingDeps drops depends_on from the first step that references
// another.
func mutMissingDeps(p map[string]any) bool {
	for _, s := range ablSteps(p) {
		if deps, _ := s["depends_on"].([]any); len(deps) > 0 {
			s["depends_on"] = []any{}
			return true
		}
	}
	return false
}

// mutArgType passes a number as a string, or a window as an array.
func mutArgType(p map[string]any) bool {
	for _, s := range ablSteps(p) {
		args, _ := s["args"].(map[string]any)
		if l, ok := args["limit"].(int64); ok {
			args["limit"] = fmt.Sprint(l)
			return true
		}
		if w, ok := args["window"].(map[string]any); ok {
			args["window"] = []any{w["t_a"], w["t_b"]}
			return true
		}
	}
	return false
}
