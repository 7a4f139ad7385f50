package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/tgms-go/tgms/agent"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/internal/servertest/testdb"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/plan"
	"github.com/tgms-go/tgms/server/tools"
)

// resolve compiles a generated schema with an independent JSON Schema
// implementation.
func resolve(t testing.TB, s tools.Schema) *jsonschema.Resolved {
	t.Helper()
	b, _ := json.Marshal(s)
	var js jsonschema.Schema
	if err := json.Unmarshal(b, &js); err != nil {
		t.Fatalf("not a JSON Schema: %v\n%s", err, b)
	}
	r, err := js.Resolve(nil)
	if err != nil {
		t.Fatalf("schema does not resolve: %v\n%s", err, b)
	}
	return r
}

func asJSONValue(t testing.TB, v any) any {
	t.Helper()
	b, err := tools.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPlanSchemaAdmitsTheContractsPlans: every worked plan of the planner
// prompt (admitted by the contract) fits the generated plan schema, and
// the schema's enums are the registry's and the IR's.
func TestPlanSchemaAdmitsTheContractsPlans(t *testing.T) {
	ps := tools.PlanSchema()
	r := resolve(t, ps)
	for _, ex := range agent.Examples {
		var v any
		if err := json.Unmarshal([]byte(ex.Plan), &v); err != nil {
			t.Fatal(err)
		}
		if err := r.Validate(v); err != nil {
			t.Errorf("%s: an admitted plan does not fit the plan schema: %v", ex.Question[:30], err)
		}
	}
	bad := map[string]any{"plan_id": "p", "steps": []any{map[string]any{"id": "step1", "op": "temporal_reachability", "args": map[string]any{}}}, "answer_spec": map[string]any{"kind": "count", "from": "s1.x"}}
	if r.Validate(bad) == nil {
		t.Errorf("a step id the contract refuses fits the schema")
	}
	step := ps["properties"].(tools.Schema)["steps"].(tools.Schema)
	op := step["items"].(tools.Schema)["properties"].(tools.Schema)["op"].(tools.Schema)
	if !slices.Equal(op["enum"].([]string), ops.Names()) || step["maxItems"] != plan.MaxSteps {
		t.Errorf("the plan schema's operators or step bound differ from the registry's")
	}
}

// TestStepIDPattern: the schema's step id pattern accepts exactly the ids
// the contract accepts.
func TestStepIDPattern(t *testing.T) {
	ps := tools.PlanSchema()
	for _, id := range []string{"s1", "s0", "s12", "s", "S1", "s1a", "x1", "s-1", " s1", "s01"} {
		p := map[string]any{"plan_id": "p", "steps": []any{map[string]any{"id": id, "op": "compute", "args": map[string]any{"fn": "count", "input": []any{}}}},
			"answer_spec": map[string]any{"kind": "count", "from": id + ".value"}}
		v := plan.Validate(p, plan.Options{})
		contractOK := !slices.ContainsFunc(v.Violations, func(x plan.Violation) bool { return x.Path == "/steps/0/id" })
		schemaOK := resolve(t, ps).Validate(p) == nil
		if contractOK != schemaOK {
			t.Errorf("step id %q: contract accepts %v, schema accepts %v", id, contractOK, schemaOK)
		}
	}
}

// TestOutputsFitTheirSchemas calls every tool and checks each output
// against the tool's generated output schema (an independent validator):
// the schemas describe what the tools really return.
func TestOutputsFitTheirSchemas(t *testing.T) {
	s := testdb.New(t)
	svc := tools.New(s.DB, tools.Options{Writer: s.DB})
	ctx := context.Background()
	run, f := svc.Call(ctx, "run_plan", map[string]any{"plan": s.ReachPlan(), "uids": []any{"a"}})
	if f != nil {
		t.Fatal(f)
	}
	digest := run.(*tools.RunResult).TraceDigest
	args := map[string]map[string]any{
		"validate_plan":         {"plan": s.ReachPlan(), "uids": []any{"a"}},
		"run_plan":              {"plan": s.ReachPlan(), "uids": []any{"a"}},
		"verify_answer":         {"trace_digest": digest, "answer": testdb.ReachAnswer()},
		"ask":                   {"question": testdb.VersionsQuestion()},
		"stats":                 {},
		"trace_verify":          {"trace_digest": digest},
		"trace_check":           {"trace_digest": digest},
		"trace_refresh":         {"trace_digest": digest},
		"answers_list":          {},
		"answers_check":         {},
		"answers_save":          {"name": "reach", "trace_digest": digest},
		"answers_refresh":       {"name": "reach"},
		"write_batch":           {"ops": `{"op":"assert_node","uid":"z","label":"Person","props":{"name":"Zed"}}`},
		"erase":                 {"uid": "z"},
		"temporal_reachability": s.ReachArgs(),
		"entity_history":        {"uid": "a"},
		"version_history":       {"kind": "node", "uids": []any{"a"}, "belief": "all", "window": map[string]any{"t_a": int64(0), "t_b": int64(1) << 60}},
	}
	checked := 0
	for _, tool := range svc.Tools() {
		a, ok := args[tool.Name]
		if !ok {
			continue
		}
		out, f := svc.Call(ctx, tool.Name, a)
		if f != nil {
			t.Errorf("%s: %v", tool.Name, f)
			continue
		}
		if err := resolve(t, tool.Output).Validate(asJSONValue(t, out)); err != nil {
			t.Errorf("%s: the output does not fit the output schema: %v", tool.Name, err)
		}
		if err := resolve(t, tool.Input).Validate(asJSONValue(t, a)); err != nil {
			t.Errorf("%s: valid arguments do not fit the input schema: %v", tool.Name, err)
		}
		checked++
	}
	if checked != len(args) {
		t.Fatalf("checked %d tools, want %d", checked, len(args))
	}
}

func TestReadingFallsBackToThePlan(t *testing.T) {
	s := testdb.New(t)
	res, err := agent.Ask(context.Background(), s.DB, agent.Question{Text: testdb.VersionsQuestion(), UIDs: []string{"a"}}, agent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The built-in reader's reading is shown as it is.
	if got := tools.Reading(res); res.Reading == nil || got != any(res.Reading) {
		t.Fatalf("reading %v, want the reader's %v", got, res.Reading)
	}
	// A planner that reads nothing (the LLM planner) falls back to the plan.
	res.Reading = nil
	r, ok := tools.Reading(res).(map[string]any)
	if !ok || r["source"] != "plan" || r["shape"] != res.Plan.ID || !slices.Equal(r["uids"].([]string), []string{"a"}) {
		t.Fatalf("reading %v", tools.Reading(res))
	}
	if tools.Reading(nil) != nil {
		t.Fatalf("a reading without a result")
	}
}

// FuzzCall: any arguments to any tool give an output or a Failure with
// a code and at least one violation, never a panic; refused writes leave
// the store as it was.
func FuzzCall(f *testing.F) {
	s := testdb.New(f)
	svc := tools.New(s.DB, tools.Options{Writer: s.DB})
	names := []string{}
	for _, t := range svc.Tools() {
		names = append(names, t.Name)
	}
	names = append(names, "no_such_tool")
	f.Add(0, []byte(`{}`))
	f.Add(1, []byte(`{"plan":{"plan_id":"p","steps":[]}}`))
	f.Add(2, []byte(`{"plan":"{not json","uids":[1]}`))
	f.Add(3, []byte(`{"trace":{"plan":{},"steps":[{"step_id":"s1"}]},"answer":{"claims":[{}]}}`))
	f.Add(4, []byte(`{"question":"How many versions of node a?","as_of_tt":"yesterday"}`))
	f.Add(5, []byte(`{"ops":"{\"op\":\"retract\"}"}`))
	for i, n := range names {
		f.Add(i, []byte(fmt.Sprintf(`{"src":"a","window":{"t_a":0,"t_b":%d},"name":%q}`, testdb.T0, n)))
	}
	f.Fuzz(func(t *testing.T, which int, data []byte) {
		v, err := canon.Parse(data)
		args, ok := v.(map[string]any)
		if err != nil || !ok {
			return
		}
		name := names[(which%len(names)+len(names))%len(names)]
		before := s.DB.LastTT()
		out, fl := svc.Call(context.Background(), name, args)
		if (out == nil) == (fl == nil) {
			t.Fatalf("%s: output %v and failure %v", name, out, fl)
		}
		if fl != nil {
			if fl.Code == "" || len(fl.Violations) == 0 || fl.Status == 0 {
				t.Fatalf("%s: failure without code, violations or status: %+v", name, fl)
			}
			if fl.Code == ops.EInternal {
				t.Fatalf("%s: internal error on %s: %v", name, data, fl)
			}
			if s.DB.LastTT() != before {
				t.Fatalf("%s: a refused call changed the store", name)
			}
		}
		if _, err := tools.Marshal(out); err != nil {
			t.Fatalf("%s: output does not marshal: %v", name, err)
		}
	})
}
