package plan

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/ops"
)

// basePlan is admitted under baseOptions: a resolver step, a reachability
// step bound to the resolved uid, and a history step on a task uid.
const basePlan = `{"plan_id":"p","question":"who did ACME reach?","steps":[
 {"id":"s1","op":"resolve_entities","args":{"query":"acme"},"depends_on":[]},
 {"id":"s2","op":"temporal_reachability","args":{"src":{"$ref":"s1.rows[0].uid"},"window":{"t_a":100,"t_b":200}},"depends_on":["s1"]},
 {"id":"s3","op":"entity_history","args":{"uid":"n1"},"depends_on":[]}],
 "answer_spec":{"kind":"count","from":"s2.rows_total"}}`

func baseOptions() Options {
	return Options{UIDs: []string{"n1"}, Stats: &ops.Stats{Nodes: 10, NodeVersions: 10, EdgeVersions: 100, VtMin: 0, VtMax: 1000}}
}

// edit decodes the base plan, applies f, and re-encodes it.
func edit(t *testing.T, f func(p map[string]any)) []byte {
	t.Helper()
	v, err := canon.Parse([]byte(basePlan))
	if err != nil {
		t.Fatal(err)
	}
	p := v.(map[string]any)
	f(p)
	b, err := canon.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func step(p map[string]any, i int) map[string]any { return p["steps"].([]any)[i].(map[string]any) }
func args(p map[string]any, i int) map[string]any { return step(p, i)["args"].(map[string]any) }

func ref(s string) map[string]any { return map[string]any{"$ref": s} }

type ruleCase struct {
	name    string
	rule    string
	code    string
	path    string
	allowed string // one entry Allowed must contain ("" = not checked)
	hint    string // a substring of Hint ("" = not checked)
	plan    func(p map[string]any)
	opts    func(o *Options)
}

// ruleCases break exactly one rule each.
var ruleCases = []ruleCase{
	{name: "extra top-level field", rule: RulePlanSchema, code: ops.ESchema, path: "/extra",
		plan: func(p map[string]any) { p["extra"] = true }},
	{name: "bad step id", rule: RulePlanSchema, code: ops.ESchema, path: "/steps/0/id",
		plan: func(p map[string]any) { step(p, 0)["id"] = "step1" }},
	{name: "too many steps", rule: RulePlanSchema, code: ops.ESchema, path: "/steps",
		plan: func(p map[string]any) {
			var steps []any
			for range 13 {
				steps = append(steps, step(p, 2))
			}
			p["steps"] = steps
		}},
	{name: "duplicate id", rule: RuleDuplicateID, code: ops.ESchema, path: "/steps/2/id",
		plan: func(p map[string]any) { step(p, 2)["id"] = "s1" }},
	{name: "self dependency", rule: RuleCycle, code: ops.ESchema, path: "/steps/2/depends_on",
		plan: func(p map[string]any) { step(p, 2)["depends_on"] = []any{"s3"} }},
	{name: "unknown dependency", rule: RuleUnknownDep, code: ops.ESchema, path: "/steps/2/depends_on/0", allowed: "s1",
		plan: func(p map[string]any) { step(p, 2)["depends_on"] = []any{"s9"} }},
	{name: "unknown operator", rule: RuleUnknownOp, code: ops.ENotFound, path: "/steps/2/op", allowed: "entity_history", hint: "entity_history",
		plan: func(p map[string]any) { step(p, 2)["op"] = "entity_histroy" }},
	{name: "two projections", rule: RuleRefSyntax, code: ops.ESchema, path: "/steps/1/args/src",
		plan: func(p map[string]any) { args(p, 1)["src"] = ref("s1.rows[*].uid[*]") }},
	{name: "non-string $ref", rule: RuleRefSyntax, code: ops.ESchema, path: "/steps/1/args/src",
		plan: func(p map[string]any) { args(p, 1)["src"] = map[string]any{"$ref": int64(5)} }},
	{name: "ref outside depends_on", rule: RuleRefScope, code: ops.ESchema, path: "/steps/1/args/src", hint: `add "s1" to depends_on`,
		plan: func(p map[string]any) { step(p, 1)["depends_on"] = []any{} }},
	{name: "nested field that does not exist", rule: RuleRefField, code: ops.ESchema, path: "/steps/1/args/src", allowed: "uid",
		plan: func(p map[string]any) { args(p, 1)["src"] = ref("s1.rows[0].nope") }},
	{name: "ref of the wrong type", rule: RuleRefType, code: ops.ESchema, path: "/steps/1/args/window",
		plan: func(p map[string]any) { args(p, 1)["window"] = ref("s1.rows_total") }},
	{name: "unknown argument", rule: RuleArgUnknown, code: ops.ESchema, path: "/steps/2/args/radius", allowed: "uid",
		plan: func(p map[string]any) { args(p, 2)["radius"] = int64(5) }},
	{name: "missing argument", rule: RuleArgMissing, code: ops.ESchema, path: "/steps/2/args/uid",
		plan: func(p map[string]any) { delete(args(p, 2), "uid") }},
	{name: "argument of the wrong type", rule: RuleArgType, code: ops.ESchema, path: "/steps/2/args/limit",
		plan: func(p map[string]any) { args(p, 2)["limit"] = "ten" }},
	{name: "enum value", rule: RuleArgType, code: ops.ESchema, path: "/steps/1/args/direction", allowed: "out",
		plan: func(p map[string]any) { args(p, 1)["direction"] = "sideways" }},
	{name: "inverted window", rule: RuleWindowOrder, code: ops.EInvalidArg, path: "/steps/1/args/window", hint: "swap",
		plan: func(p map[string]any) { args(p, 1)["window"] = map[string]any{"t_a": int64(300), "t_b": int64(200)} }},
	{name: "window outside the data", rule: RuleWindowExtent, code: ops.EInvalidArg, path: "/steps/1/args/window", hint: "units",
		plan: func(p map[string]any) {
			args(p, 1)["window"] = map[string]any{"t_a": int64(5_000_000), "t_b": int64(6_000_000)}
		}},
	{name: "delta not positive", rule: RuleDelta, code: ops.EInvalidArg, path: "/steps/2/args/delta",
		plan: func(p map[string]any) {
			step(p, 2)["op"] = "count_temporal_motifs"
			step(p, 2)["args"] = map[string]any{"motif": "M_2node_pingpong", "delta": int64(0), "window": map[string]any{"t_a": int64(0), "t_b": int64(100)}}
		}},
	{name: "as_of_tt out of range", rule: RuleAsOfRange, code: ops.EInvalidArg, path: "/steps/2/args/as_of_tt",
		plan: func(p map[string]any) { args(p, 2)["as_of_tt"] = int64(-5) }},
	{name: "vacuous diff", rule: RuleVacuousDiff, code: ops.EInvalidArg, path: "/steps/2/args/t2",
		plan: func(p map[string]any) {
			step(p, 2)["op"] = "diff_snapshots"
			step(p, 2)["args"] = map[string]any{"t1": int64(50), "t2": int64(50)}
		}},
	{name: "literal uid not supplied", rule: RuleGroundLiteral, code: EGrounding, path: "/steps/2/args/uid", hint: "resolve_entities",
		plan: func(p map[string]any) { args(p, 2)["uid"] = "acct-1" }},
	{name: "literal uid inside a filter", rule: RuleGroundLiteral, code: EGrounding, path: "/steps/2/args/seeds/1",
		plan: func(p map[string]any) {
			step(p, 2)["op"] = "snapshot_subgraph"
			step(p, 2)["args"] = map[string]any{"seeds": []any{"n1", "zz"}, "t_valid": int64(50)}
		}},
	{name: "uid bound to a name column", rule: RuleGroundRef, code: EGrounding, path: "/steps/1/args/src", allowed: "s1.rows[0].uid",
		plan: func(p map[string]any) { args(p, 1)["src"] = ref("s1.rows[0].name") }},
	{name: "cost over the ceiling", rule: RuleCost, code: ops.ECost, path: "/steps/2/args",
		plan: func(p map[string]any) { args(p, 2)["include_edges"] = true },
		opts: func(o *Options) {
			o.Stats = &ops.Stats{Nodes: 1, NodeVersions: 1, EdgeVersions: 1e12, VtMin: 0, VtMax: 1000}
		}},
	{name: "answer names no step", rule: RuleAnswerStep, code: ops.ESchema, path: "/answer_spec/from", allowed: "s2",
		plan: func(p map[string]any) { p["answer_spec"].(map[string]any)["from"] = "s9.value" }},
	{name: "answer field that does not exist", rule: RuleAnswerField, code: ops.ESchema, path: "/answer_spec/from", allowed: "rows_total", hint: "rows_total",
		plan: func(p map[string]any) { p["answer_spec"].(map[string]any)["from"] = "s2.count" }},
	{name: "answer path syntax", rule: RuleAnswerReference, code: ops.ESchema, path: "/answer_spec/from",
		plan: func(p map[string]any) { p["answer_spec"].(map[string]any)["from"] = "s2..rows" }},
}

func find(v Verdict, rule, path string) *Violation {
	for i := range v.Violations {
		if v.Violations[i].Rule == rule && v.Violations[i].Path == path {
			return &v.Violations[i]
		}
	}
	return nil
}

func TestBasePlanIsAdmitted(t *testing.T) {
	v := ValidateJSON([]byte(basePlan), baseOptions())
	if !v.Valid {
		b, _ := json.MarshalIndent(v.Violations, "", " ")
		t.Fatalf("base plan rejected:\n%s", b)
	}
}

func TestEachRule(t *testing.T) {
	for _, c := range ruleCases {
		t.Run(c.name, func(t *testing.T) {
			o := baseOptions()
			if c.opts != nil {
				c.opts(&o)
			}
			v := ValidateJSON(edit(t, c.plan), o)
			if v.Valid {
				t.Fatal("admitted")
			}
			got := find(v, c.rule, c.path)
			if got == nil || len(v.Violations) != 1 {
				b, _ := json.Marshal(v.Violations)
				t.Fatalf("want exactly one %s violation at %s, got %s", c.rule, c.path, b)
			}
			if got.Code != c.code {
				t.Errorf("code %s, want %s", got.Code, c.code)
			}
			if c.allowed != "" && !slices.Contains(got.Allowed, c.allowed) {
				t.Errorf("allowed %v lacks %q", got.Allowed, c.allowed)
			}
			if c.hint != "" && !strings.Contains(got.Hint, c.hint) {
				t.Errorf("hint %q lacks %q", got.Hint, c.hint)
			}
			if got.Message == "" {
				t.Error("empty message")
			}
		})
	}
}

// Every rule can fail: with the rule disabled, its case is admitted (or at
// least loses that violation), so the table test above would go red.
func TestEveryRuleIsLoadBearing(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range ruleCases {
		o := baseOptions()
		if c.opts != nil {
			c.opts(&o)
		}
		o.Disable = map[string]bool{c.rule: true}
		if v := ValidateJSON(edit(t, c.plan), o); find(v, c.rule, c.path) != nil {
			t.Errorf("%s: violation still reported with rule %s disabled", c.name, c.rule)
		}
		covered[c.rule] = true
	}
	for _, r := range Rules {
		if !covered[r] {
			t.Errorf("rule %s has no test case", r)
		}
	}
}

// The four faults of the reference's rejected plan are all reported, in one
// pass, each pointing at its place.
func TestViolationsCollectedInOnePass(t *testing.T) {
	b := edit(t, func(p map[string]any) {
		args(p, 1)["window"] = map[string]any{"t_a": int64(300), "t_b": int64(200)}
		args(p, 2)["uid"] = "acct-1"
		p["steps"] = append(p["steps"].([]any), map[string]any{"id": "s4", "op": "compute", "args": map[string]any{"fn": "count", "input": ref("s2.rows")}, "depends_on": []any{}})
		p["answer_spec"].(map[string]any)["from"] = "s2.count"
	})
	v := ValidateJSON(b, baseOptions())
	want := []string{RuleWindowOrder, RuleGroundLiteral, RuleRefScope, RuleAnswerField}
	var got []string
	for _, x := range v.Violations {
		got = append(got, x.Rule)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("rules %v, want %v", got, want)
	}
}

// versionHistoryPlan reaches a cost model that once needed an open store.
const versionHistoryPlan = `{"plan_id":"p","question":"q","steps":[{"id":"s1","op":"version_history","args":{"kind":"node","window":{"t_a":100,"t_b":200}},"depends_on":[]}],"answer_spec":{"kind":"count","from":"s1.rows_total"}}`

// The static cost check of a store-free plan decides from statistics
// alone: a cost model that needs an open store is an internal error.
func TestCostCheckNeedsNoStore(t *testing.T) {
	v := ValidateJSON([]byte(versionHistoryPlan), baseOptions())
	failOnInternal(t, versionHistoryPlan, v)
	if !v.Valid {
		t.Fatalf("not admitted: %+v", v.Violations)
	}
}

func TestNeverPanicsOnOddInput(t *testing.T) {
	for _, in := range []string{``, `null`, `[]`, `"x"`, `{"plan_id":1}`, `{"plan_id":"p","steps":[null],"answer_spec":{}}`,
		`{"plan_id":"p","steps":[{"id":"s1","op":"compute","args":{"input":{"$ref":"s1.rows"}},"depends_on":["s1"]}],"answer_spec":{"kind":"value","from":"s1"}}`} {
		for _, opt := range []Options{{}, baseOptions()} {
			v := ValidateJSON([]byte(in), opt)
			failOnInternal(t, in, v)
			if v.Valid && in != "" {
				t.Errorf("%s admitted", in)
			}
		}
	}
}

// failOnInternal fails the test when the validator reports an internal
// error: Validate turns a panic into an E_INTERNAL violation, and a test that
// only looks at Valid would pass a crash.
func failOnInternal(t *testing.T, in string, v Verdict) {
	t.Helper()
	for _, x := range v.Violations {
		if x.Code == ops.EInternal {
			t.Fatalf("internal error on %q: %s", in, x.Message)
		}
	}
}

func TestParseRef(t *testing.T) {
	for _, c := range []struct {
		in   string
		ok   bool
		segs int
	}{
		{"s1.rows[0].uid", true, 2}, {"s12.rows[*].uid", true, 2}, {"s1.rows_total", true, 1},
		{"s1", false, 0}, {"x1.rows", false, 0}, {"s1.rows[-1]", false, 0}, {"s1.rows[*][*]", false, 0},
		{"s1.rows[*].a[*]", false, 0}, {"s1..rows", false, 0}, {"s1.1abc", false, 0},
	} {
		r, err := ParseRef(c.in, false)
		if (err == nil) != c.ok || c.ok && len(r.Path) != c.segs {
			t.Errorf("ParseRef(%q) = %+v, %v", c.in, r, err)
		}
	}
}

func FuzzValidate(f *testing.F) {
	f.Add([]byte(basePlan))
	f.Add([]byte(versionHistoryPlan))
	f.Add([]byte(`{"tgms_plan":1,"plan_id":"vh","steps":[{"id":"s1","op":"version_history","args":{"kind":"edge","window":{"t_a":0,"t_b":9},"closed_by":"any"}},` +
		`{"id":"s2","op":"compute","args":{"fn":"filter","input":{"$ref":"s1.rows"},"field":"change","cmp":"eq","value":"corrected"},"depends_on":["s1"]}],"answer_spec":{"kind":"count","from":"s2.rows_total"}}`))
	for _, c := range ruleCases {
		v, _ := canon.Parse([]byte(basePlan))
		c.plan(v.(map[string]any))
		b, _ := canon.Marshal(v)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v := ValidateJSON(data, baseOptions())
		failOnInternal(t, string(data), v)
		if v.Valid && v.Plan == nil {
			t.Fatal("valid verdict without a plan")
		}
	})
}
