package plan

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/ops"
)

// Error codes of the plan contract, on top of the operator codes.
const (
	EGrounding   = "E_GROUNDING"    // an identifier the task did not supply and no resolver produced
	EPlanInvalid = "E_PLAN_INVALID" // wrapper for a list of violations
)

// Rule ids, in evaluation order. They are stable: repair prompts, tests and
// reports name them.
const (
	RulePlanSchema      = "plan.schema"
	RuleDuplicateID     = "plan.duplicate_id"
	RuleCycle           = "dag.cycle"
	RuleUnknownDep      = "dag.unknown_dep"
	RuleUnknownOp       = "op.unknown"
	RuleRefSyntax       = "ref.syntax"
	RuleRefScope        = "ref.scope"
	RuleRefField        = "ref.output_field"
	RuleRefType         = "ref.type"
	RuleArgUnknown      = "arg.unknown"
	RuleArgMissing      = "arg.missing"
	RuleArgType         = "arg.type"
	RuleWindowOrder     = "time.window_order"
	RuleWindowExtent    = "time.window_extent"
	RuleDelta           = "time.delta"
	RuleAsOfRange       = "time.as_of_range"
	RuleVacuousDiff     = "time.vacuous_diff"
	RuleGroundLiteral   = "ground.literal_uid"
	RuleGroundRef       = "ground.ref_not_uid"
	RuleCost            = "cost.estimate"
	RuleAnswerStep      = "answer.no_step"
	RuleAnswerField     = "answer.output_field"
	RuleAnswerReference = "answer.syntax"
)

// Rules lists every rule id in evaluation order.
var Rules = []string{
	RulePlanSchema, RuleDuplicateID, RuleCycle, RuleUnknownDep, RuleUnknownOp,
	RuleRefSyntax, RuleRefScope, RuleRefField, RuleRefType, RuleArgUnknown, RuleArgMissing, RuleArgType,
	RuleWindowOrder, RuleWindowExtent, RuleDelta, RuleAsOfRange, RuleVacuousDiff,
	RuleGroundLiteral, RuleGroundRef, RuleCost, RuleAnswerStep, RuleAnswerReference, RuleAnswerField,
}

// Violation is one reason a plan is not admitted. Path is a JSON Pointer
// into the submitted plan; Hint and Allowed are present whenever there is a
// computable legal alternative; Expected is the sub-schema a value should
// have matched.
type Violation struct {
	Code     string      `json:"code"`
	Rule     string      `json:"rule"`
	StepID   string      `json:"step_id,omitempty"`
	Path     string      `json:"path"`
	Message  string      `json:"message"`
	Hint     string      `json:"hint,omitempty"`
	Allowed  []string    `json:"allowed,omitempty"`
	Expected *ops.Schema `json:"expected,omitempty"`
}

// Verdict is the outcome of Validate.
type Verdict struct {
	Valid      bool        `json:"valid"`
	Violations []Violation `json:"violations"`
	// Notices are spellings of earlier releases the plan used, read as the
	// current ones (see Notice): the plan is admitted, and should be
	// rewritten before a later language version drops them.
	Notices []Notice `json:"notices,omitempty"`
	Plan    *Plan    `json:"-"`
}

// Options configure the contract.
type Options struct {
	// UIDs are the identifiers the task supplied. Grounding always runs: a
	// literal uid anywhere a uid is expected must be one of these (none
	// given = none allowed), and a reference there must resolve to a
	// uid-typed result column.
	UIDs []string
	// Stats, when set, enables the checks that need the store: windows
	// outside the valid-time extent and the cost estimate.
	Stats *ops.Stats
	// Disable turns rules off, for ablation experiments and for the test
	// that proves every rule can fail. Never set it in production.
	Disable map[string]bool
}

// ValidateJSON parses and validates a plan. It never panics.
func ValidateJSON(data []byte, opt Options) (v Verdict) {
	defer func() {
		if r := recover(); r != nil {
			v = Verdict{Violations: []Violation{{Code: ops.EInternal, Rule: RulePlanSchema, Path: "",
				Message: fmt.Sprintf("the validator failed on this plan (%v); please report it", r)}}}
		}
	}()
	raw, err := canon.Parse(data)
	if err != nil {
		return Verdict{Violations: []Violation{{Code: ops.ESchema, Rule: RulePlanSchema, Path: "", Message: "not valid JSON: " + err.Error(),
			Hint: "emit one JSON object and nothing else"}}}
	}
	return Validate(raw, opt)
}

// Validate checks a decoded plan (canon.Parse output). It never panics.
func Validate(raw any, opt Options) (v Verdict) {
	defer func() {
		if r := recover(); r != nil {
			v = Verdict{Violations: []Violation{{Code: ops.EInternal, Rule: RulePlanSchema, Path: "",
				Message: fmt.Sprintf("the validator failed on this plan (%v); please report it", r)}}}
		}
	}()
	c := &checker{opt: opt}
	p, ok := c.structure(raw)
	if !ok {
		return Verdict{Violations: c.out}
	}
	c.plan = p
	notices := migrate(p)
	c.rules()
	return Verdict{Valid: len(c.out) == 0, Violations: c.out, Notices: notices, Plan: p}
}

type checker struct {
	opt  Options
	plan *Plan
	out  []Violation
	deps map[string]map[string]bool // step id → its depends_on
}

func (c *checker) add(v Violation) {
	if c.opt.Disable[v.Rule] {
		return
	}
	c.out = append(c.out, v)
}

// --- rules 1-3: structure ---------------------------------------------------

func (c *checker) structure(raw any) (*Plan, bool) {
	fail := func(path, format string, args ...any) (*Plan, bool) {
		c.add(Violation{Code: ops.ESchema, Rule: RulePlanSchema, Path: path, Message: fmt.Sprintf(format, args...)})
		return nil, false
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return fail("", "a plan must be a JSON object, got %s", canon.Kind(raw))
	}
	for _, k := range sortedKeys(m) {
		if !slices.Contains([]string{"tgms_plan", "plan_id", "question", "steps", "answer_spec"}, k) {
			return fail("/"+k, "unknown field %q; a plan has tgms_plan, plan_id, question, steps, answer_spec", k)
		}
	}
	p := &Plan{Version: Version}
	if v, has := m["tgms_plan"]; has {
		n, isInt := v.(int64)
		if !isInt || n != Version {
			c.add(Violation{Code: ops.ESchema, Rule: RulePlanSchema, Path: "/tgms_plan", Allowed: []string{strconv.Itoa(Version)},
				Message: fmt.Sprintf("tgms_plan %v is not a plan language version this release reads (it reads %d)", v, Version),
				Hint:    "omit tgms_plan or set it to 1; a plan written for a later release needs that release"})
			return nil, false
		}
	}
	if p.ID, ok = m["plan_id"].(string); !ok || p.ID == "" {
		return fail("/plan_id", "plan_id must be a non-empty string")
	}
	if q, has := m["question"]; has {
		if p.Question, ok = q.(string); !ok {
			return fail("/question", "question must be a string")
		}
	}
	steps, ok := m["steps"].([]any)
	if !ok {
		return fail("/steps", "steps must be an array of 1..%d steps", MaxSteps)
	}
	if len(steps) == 0 || len(steps) > MaxSteps {
		return fail("/steps", "a plan has 1..%d steps, got %d", MaxSteps, len(steps))
	}
	for i, s := range steps {
		path := "/steps/" + strconv.Itoa(i)
		sm, ok := s.(map[string]any)
		if !ok {
			return fail(path, "a step must be an object, got %s", canon.Kind(s))
		}
		for _, k := range sortedKeys(sm) {
			if !slices.Contains([]string{"id", "op", "args", "depends_on"}, k) {
				return fail(path+"/"+k, "unknown field %q; a step has id, op, args, depends_on", k)
			}
		}
		var st Step
		if st.ID, ok = sm["id"].(string); !ok || !stepIDRE.MatchString(st.ID) {
			return fail(path+"/id", "step id must match ^s[0-9]+$ (like s1)")
		}
		if st.Op, ok = sm["op"].(string); !ok || st.Op == "" {
			return fail(path+"/op", "op must be a non-empty string naming an operator")
		}
		if st.Args, ok = sm["args"].(map[string]any); !ok {
			return fail(path+"/args", "args must be an object")
		}
		if d, has := sm["depends_on"]; has {
			list, ok := d.([]any)
			if !ok {
				return fail(path+"/depends_on", "depends_on must be an array of step ids")
			}
			for j, x := range list {
				id, ok := x.(string)
				if !ok || !stepIDRE.MatchString(id) {
					return fail(fmt.Sprintf("%s/depends_on/%d", path, j), "depends_on entries must be step ids like s1")
				}
				st.DependsOn = append(st.DependsOn, id)
			}
		}
		p.Steps = append(p.Steps, st)
	}
	am, ok := m["answer_spec"].(map[string]any)
	if !ok {
		return fail("/answer_spec", "answer_spec must be an object {kind, from}")
	}
	for _, k := range sortedKeys(am) {
		if k != "kind" && k != "from" {
			return fail("/answer_spec/"+k, "unknown field %q; answer_spec has kind and from", k)
		}
	}
	if p.Answer.Kind, ok = am["kind"].(string); !ok || !slices.Contains(AnswerKinds, p.Answer.Kind) {
		c.add(Violation{Code: ops.ESchema, Rule: RulePlanSchema, Path: "/answer_spec/kind", Message: "answer_spec.kind must be one of the answer kinds", Allowed: AnswerKinds})
		return nil, false
	}
	if p.Answer.From, ok = am["from"].(string); !ok || p.Answer.From == "" {
		return fail("/answer_spec/from", "answer_spec.from must be a step id or a reference like s3.value")
	}
	seen := map[string]int{}
	for i, s := range p.Steps {
		if j, dup := seen[s.ID]; dup {
			c.add(Violation{Code: ops.ESchema, Rule: RuleDuplicateID, StepID: s.ID, Path: fmt.Sprintf("/steps/%d/id", i),
				Message: fmt.Sprintf("step id %s is used by steps %d and %d", s.ID, j, i), Hint: "give every step its own id"})
			if !c.opt.Disable[RuleDuplicateID] {
				return nil, false
			}
		}
		seen[s.ID] = i
	}
	return p, true
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// --- rules 4-20: collected in one pass -------------------------------------------

func (c *checker) rules() {
	p := c.plan
	c.deps = map[string]map[string]bool{}
	ids := map[string]bool{}
	for _, s := range p.Steps {
		ids[s.ID] = true
	}
	for i, s := range p.Steps {
		c.deps[s.ID] = map[string]bool{}
		for j, d := range s.DependsOn {
			c.deps[s.ID][d] = true
			if !ids[d] {
				c.add(Violation{Code: ops.ESchema, Rule: RuleUnknownDep, StepID: s.ID, Path: fmt.Sprintf("/steps/%d/depends_on/%d", i, j),
					Message: fmt.Sprintf("depends_on names %s, which is not a step of this plan", d), Allowed: sortedSet(ids)})
			}
		}
	}
	c.cycles()
	for i := range p.Steps {
		c.step(i)
	}
	c.answer()
}

func sortedSet(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// cycles reports every step that can reach itself along depends_on
// (self-dependency included).
func (c *checker) cycles() {
	for i, s := range c.plan.Steps {
		if c.reaches(s.ID, s.ID, map[string]bool{}) {
			c.add(Violation{Code: ops.ESchema, Rule: RuleCycle, StepID: s.ID, Path: fmt.Sprintf("/steps/%d/depends_on", i),
				Message: fmt.Sprintf("step %s depends on itself through depends_on", s.ID), Hint: "a step may only depend on steps that run before it"})
		}
	}
}

// reaches reports whether from reaches to along depends_on edges (at least one edge).
func (c *checker) reaches(from, to string, seen map[string]bool) bool {
	for d := range c.deps[from] {
		if d == to {
			return true
		}
		if !seen[d] {
			seen[d] = true
			if c.reaches(d, to, seen) {
				return true
			}
		}
	}
	return false
}
