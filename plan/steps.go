package plan

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/ops"
)

// step runs the per-step rules on step i.
func (c *checker) step(i int) {
	s := &c.plan.Steps[i]
	base := "/steps/" + strconv.Itoa(i)
	spec, ok := ops.Lookup(s.Op)
	if !ok {
		c.add(Violation{Code: ops.ENotFound, Rule: RuleUnknownOp, StepID: s.ID, Path: base + "/op",
			Message: fmt.Sprintf("unknown operator %q", s.Op), Allowed: ops.Names(), Hint: closest(s.Op, ops.Names())})
		return
	}
	w := &argWalker{c: c, step: s, path: base + "/args"}
	w.object(spec.Args, s.Args, base+"/args", true)
	c.literalChecks(i, spec, !w.hasRef)
}

// argWalker checks a step's arguments against the operator's argument
// schema: literals statically, references by the type of what they resolve to.
type argWalker struct {
	c      *checker
	step   *Step
	path   string
	hasRef bool
}

func (w *argWalker) add(v Violation) {
	v.StepID = w.step.ID
	w.c.add(v)
}

func (w *argWalker) object(s *ops.Schema, m map[string]any, path string, top bool) {
	for _, k := range sortedKeys(m) {
		sub, ok := s.Properties[k]
		if !ok {
			rule, code := RuleArgType, ops.ESchema
			if top {
				rule = RuleArgUnknown
			}
			w.add(Violation{Code: code, Rule: rule, Path: path + "/" + k,
				Message: fmt.Sprintf("unknown argument %q for %s", k, w.step.Op), Allowed: s.FieldNames(), Hint: closest(k, s.FieldNames())})
			w.findRefs(m[k], path+"/"+k) // still check references inside
			continue
		}
		w.value(sub, m[k], path+"/"+k)
	}
	for _, r := range s.Required {
		if _, ok := m[r]; !ok {
			rule := RuleArgType
			if top {
				rule = RuleArgMissing
			}
			w.add(Violation{Code: ops.ESchema, Rule: rule, Path: path + "/" + r,
				Message: fmt.Sprintf("missing required argument %q for %s", r, w.step.Op), Expected: s.Properties[r]})
		}
	}
}

func (w *argWalker) value(s *ops.Schema, v any, path string) {
	if raw, isRef := AsRef(v); isRef {
		w.hasRef = true
		w.ref(s, raw, path)
		return
	}
	typeErr := func(format string, args ...any) {
		w.add(Violation{Code: ops.ESchema, Rule: RuleArgType, Path: path, Message: fmt.Sprintf(format, args...), Expected: s})
	}
	if v == nil {
		if !s.Nullable && s.Type != "" {
			typeErr("must not be null")
		}
		return
	}
	switch s.Type {
	case "":
		w.findRefs(v, path)
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			typeErr("must be an object, got %s", canon.Kind(v))
			return
		}
		w.object(s, m, path, false)
	case "array":
		a, ok := v.([]any)
		if !ok {
			typeErr("must be an array, got %s", canon.Kind(v))
			return
		}
		if len(a) < s.MinItems {
			typeErr("must have at least %d item(s)", s.MinItems)
		}
		if s.MaxItems > 0 && len(a) > s.MaxItems {
			typeErr("must have at most %d items, got %d", s.MaxItems, len(a))
		}
		for i, x := range a {
			if s.Items != nil {
				w.value(s.Items, x, path+"/"+strconv.Itoa(i))
			}
		}
	default:
		for _, vi := range s.Validate(v) {
			rule, code := RuleArgType, ops.ESchema
			key := path[strings.LastIndexByte(path, '/')+1:]
			if _, isNum := v.(int64); isNum && vi.Message != "" && strings.HasPrefix(vi.Message, "must be ") && strings.Contains(vi.Message, "=") {
				switch key {
				case "delta":
					rule, code = RuleDelta, ops.EInvalidArg
				case "as_of_tt":
					rule, code = RuleAsOfRange, ops.EInvalidArg
				}
			}
			w.add(Violation{Code: code, Rule: rule, Path: path, Message: vi.Message, Expected: s, Allowed: s.Enum})
		}
		if str, ok := v.(string); ok && s.UID {
			w.ground(str, path)
		}
	}
}

// ground checks a literal uid against the task's identifiers.
func (w *argWalker) ground(uid, path string) {
	if slices.Contains(w.c.opt.UIDs, uid) {
		return
	}
	w.add(Violation{Code: EGrounding, Rule: RuleGroundLiteral, Path: path,
		Message: fmt.Sprintf("literal uid %q is not one the task supplied", uid),
		Hint:    "resolve the name with resolve_entities and bind its uid with {\"$ref\":\"sN.rows[0].uid\"}", Allowed: w.c.opt.UIDs})
}

// findRefs checks the references inside a value whose type is free.
func (w *argWalker) findRefs(v any, path string) {
	if raw, isRef := AsRef(v); isRef {
		w.hasRef = true
		w.ref(&ops.Schema{}, raw, path)
		return
	}
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			w.findRefs(x[k], path+"/"+k)
		}
	case []any:
		for i, e := range x {
			w.findRefs(e, path+"/"+strconv.Itoa(i))
		}
	}
}

// ref checks one reference placed where expected is expected.
func (w *argWalker) ref(expected *ops.Schema, raw, path string) {
	if raw == "" {
		w.add(Violation{Code: ops.ESchema, Rule: RuleRefSyntax, Path: path, Message: "$ref must be a non-empty string like \"s1.rows[0].uid\""})
		return
	}
	r, err := ParseRef(raw, false)
	if err != nil {
		w.add(Violation{Code: ops.ESchema, Rule: RuleRefSyntax, Path: path, Message: err.Error(), Hint: "references look like s1.rows[0].uid or s1.rows[*].uid"})
		return
	}
	if !w.c.deps[w.step.ID][r.Step] {
		w.add(Violation{Code: ops.ESchema, Rule: RuleRefScope, Path: path,
			Message: fmt.Sprintf("$ref %q targets step %s, which is not in depends_on", raw, r.Step), Hint: fmt.Sprintf("add %q to depends_on", r.Step)})
		return
	}
	producer, _, ok := w.c.plan.Step(r.Step)
	if !ok {
		return // reported by dag.unknown_dep
	}
	got, ok := w.c.resolve(r, producer, path, w.step.ID, RuleRefField)
	if !ok {
		return
	}
	if msg := compatible(expected, got); msg != "" {
		w.add(Violation{Code: ops.ESchema, Rule: RuleRefType, Path: path, Message: fmt.Sprintf("$ref %q %s", raw, msg), Expected: expected})
		return
	}
	if isUIDPosition(expected) && !producesUIDs(got) {
		w.add(Violation{Code: EGrounding, Rule: RuleGroundRef, Path: path,
			Message: fmt.Sprintf("$ref %q does not resolve to a uid column, but a uid is expected here", raw),
			Hint:    "bind a uid-typed field such as rows[0].uid of resolve_entities", Allowed: uidFields(producer)})
	}
}

// resolve walks a reference path over the producing operator's result
// schema and returns the schema of what it yields (an array schema for a
// [*] projection).
func (c *checker) resolve(r Ref, producer *Step, path, stepID, rule string) (*ops.Schema, bool) {
	return c.resolveDepth(r, producer, path, stepID, rule, 0)
}

// resolveDepth is resolve inside a chain of depth compute steps.
func (c *checker) resolveDepth(r Ref, producer *Step, path, stepID, rule string, depth int) (*ops.Schema, bool) {
	cur := c.resultSchema(producer, depth)
	if cur == nil {
		return nil, false // reported by op.unknown
	}
	projected := false
	walked := r.Step
	for _, seg := range r.Path {
		if cur.Type == "" {
			return &ops.Schema{}, true // a free-form value: nothing more to check
		}
		field, ok := cur.Field(seg.Name)
		if !ok {
			allowed := cur.FieldNames()
			c.add(Violation{Code: ops.ESchema, Rule: rule, StepID: stepID, Path: path,
				Message: fmt.Sprintf("%s: %s has no output field %q at %s", r.Raw, producer.Op, seg.Name, walked),
				Allowed: allowed, Hint: fieldHint(seg.Name, allowed)})
			return nil, false
		}
		walked += "." + seg.Name
		cur = field
		if seg.Index >= 0 || seg.Star {
			if cur.Type != "array" || cur.Items == nil {
				c.add(Violation{Code: ops.ESchema, Rule: rule, StepID: stepID, Path: path,
					Message: fmt.Sprintf("%s: %s is not a list, so it cannot be indexed", r.Raw, walked)})
				return nil, false
			}
			cur = cur.Items
			projected = projected || seg.Star
		}
	}
	if projected {
		return &ops.Schema{Type: "array", Items: cur}, true
	}
	return cur, true
}

// compatible says why a value of schema got cannot stand where expected is
// expected ("" when it can).
func compatible(expected, got *ops.Schema) string {
	if expected.Type == "" || got.Type == "" {
		return ""
	}
	if expected.Type == got.Type {
		if expected.Type == "array" && expected.Items != nil && got.Items != nil {
			if m := compatible(expected.Items, got.Items); m != "" {
				return "yields a list whose items " + strings.TrimPrefix(m, "yields ")
			}
		}
		return ""
	}
	if expected.Type == "number" && got.Type == "integer" {
		return ""
	}
	return fmt.Sprintf("yields %s where %s is expected", typeWord(got), typeWord(expected))
}

func typeWord(s *ops.Schema) string {
	switch s.Type {
	case "array":
		if s.Items != nil && s.Items.Type != "" {
			return "a list of " + s.Items.Type + "s"
		}
		return "a list"
	case "integer":
		return "an integer"
	case "object":
		return "an object"
	}
	return "a " + s.Type
}

func isUIDPosition(s *ops.Schema) bool {
	return s.UID || s.Type == "array" && s.Items != nil && s.Items.UID
}

func producesUIDs(s *ops.Schema) bool {
	return s.UID || s.Type == "array" && s.Items != nil && s.Items.UID
}

// uidFields lists the uid-typed paths of an operator's rows, for hints.
func uidFields(producer *Step) []string {
	spec, ok := ops.Lookup(producer.Op)
	if !ok {
		return nil
	}
	var out []string
	var walk func(s *ops.Schema, prefix string, depth int)
	walk = func(s *ops.Schema, prefix string, depth int) {
		if s == nil || depth > 4 {
			return
		}
		if s.UID {
			out = append(out, prefix)
			return
		}
		if s.Type == "array" && s.Items != nil {
			if s.Items.UID {
				out = append(out, prefix+"[*]")
				return
			}
			walk(s.Items, prefix+"[0]", depth+1)
			return
		}
		for _, name := range s.FieldNames() {
			walk(s.Properties[name], prefix+"."+name, depth+1)
		}
	}
	walk(spec.Result, producer.ID, 0)
	return out
}

// literalChecks are the temporal rules on literal arguments, and the cost
// rule on a step whose arguments hold no reference (refFree).
func (c *checker) literalChecks(i int, spec *ops.Spec, refFree bool) {
	s := &c.plan.Steps[i]
	base := "/steps/" + strconv.Itoa(i) + "/args"
	for _, k := range sortedKeys(s.Args) {
		p, ok := spec.Args.Properties[k]
		if !ok || !isWindow(p) {
			continue
		}
		m, _ := s.Args[k].(map[string]any)
		ta, okA := m["t_a"].(int64)
		tb, okB := m["t_b"].(int64)
		if !okA || !okB {
			continue
		}
		if ta >= tb {
			c.add(Violation{Code: ops.EInvalidArg, Rule: RuleWindowOrder, StepID: s.ID, Path: base + "/" + k,
				Message: fmt.Sprintf("window must satisfy t_a < t_b, got t_a %d, t_b %d", ta, tb), Hint: "swap t_a and t_b, or widen the window"})
			continue
		}
		if st := c.opt.Stats; st != nil && st.EdgeVersions > 0 && (tb <= st.VtMin || ta >= st.VtMax) {
			c.add(Violation{Code: ops.EInvalidArg, Rule: RuleWindowExtent, StepID: s.ID, Path: base + "/" + k,
				Message: fmt.Sprintf("window [%s, %s) lies outside the data, which spans [%s, %s)", bt.FormatRFC3339(ta), bt.FormatRFC3339(tb), bt.FormatRFC3339(st.VtMin), bt.FormatRFC3339(st.VtMax)),
				Hint:    "check the units (µs since the epoch) and the year"})
		}
	}
	// Instants (t_valid, t1, t2) that all lie outside the data: most often
	// seconds given where microseconds are expected.
	if st := c.opt.Stats; st != nil && st.EdgeVersions > 0 {
		var outside []string
		n := 0
		for _, k := range []string{"t_valid", "t1", "t2"} {
			if p, ok := spec.Args.Properties[k]; ok && p.Type == "integer" {
				if t, ok := s.Args[k].(int64); ok {
					n++
					if t < st.VtMin || t >= st.VtMax {
						outside = append(outside, k)
					}
				}
			}
		}
		if n > 0 && len(outside) == n {
			c.add(Violation{Code: ops.EInvalidArg, Rule: RuleWindowExtent, StepID: s.ID, Path: base + "/" + outside[0],
				Message: fmt.Sprintf("%s lies outside the data, which spans [%s, %s)", strings.Join(outside, " and "), bt.FormatRFC3339(st.VtMin), bt.FormatRFC3339(st.VtMax)),
				Hint:    "check the units (µs since the epoch) and the year"})
		}
	}
	if s.Op == "diff_snapshots" {
		t1, ok1 := s.Args["t1"].(int64)
		t2, ok2 := s.Args["t2"].(int64)
		if ok1 && ok2 && t1 == t2 {
			c.add(Violation{Code: ops.EInvalidArg, Rule: RuleVacuousDiff, StepID: s.ID, Path: base + "/t2",
				Message: "t1 == t2: the difference of a snapshot with itself is empty", Hint: "compare two different instants"})
		}
	}
	if c.opt.Stats != nil && refFree {
		if _, args, err := ops.Prepare(s.Op, s.Args); err == nil {
			if e := ops.CheckCost(spec, args, *c.opt.Stats); e != nil {
				c.add(Violation{Code: e.Code, Rule: RuleCost, StepID: s.ID, Path: base, Message: e.Message, Hint: fmt.Sprint(e.Details["hint"])})
			}
		}
	}
}

func isWindow(s *ops.Schema) bool {
	_, a := s.Properties["t_a"]
	_, b := s.Properties["t_b"]
	return s.Type == "object" && a && b && len(s.Properties) == 2
}

// answer checks answer_spec.from.
func (c *checker) answer() {
	from := c.plan.Answer.From
	r, err := ParseRef(from, true)
	if err != nil {
		c.add(Violation{Code: ops.ESchema, Rule: RuleAnswerReference, Path: "/answer_spec/from", Message: err.Error()})
		return
	}
	producer, _, ok := c.plan.Step(r.Step)
	if !ok {
		var ids []string
		for _, s := range c.plan.Steps {
			ids = append(ids, s.ID)
		}
		c.add(Violation{Code: ops.ESchema, Rule: RuleAnswerStep, Path: "/answer_spec/from",
			Message: fmt.Sprintf("answer_spec.from %q names no step of this plan", from), Allowed: ids})
		return
	}
	c.resolve(r, producer, "/answer_spec/from", "", RuleAnswerField)
}

// fieldHint suggests the field meant by a wrong name: synonyms first (a
// count of rows is rows_total), then the closest spelling.
func fieldHint(name string, allowed []string) string {
	synonyms := map[string][]string{
		"rows_total": {"count", "total", "n", "num", "number", "size", "length", "len", "n_rows", "row_count", "total_rows"},
		"rows":       {"results", "result", "items", "data", "records", "list", "entries", "nodes"},
		"count":      {"value", "total", "n", "motifs"},
		"value":      {"result", "answer", "count", "total"},
	}
	lower := strings.ToLower(name)
	for target, syns := range synonyms {
		if slices.Contains(allowed, target) && slices.Contains(syns, lower) {
			if target == "rows_total" {
				return "a count of rows is rows_total (exact even when rows is one page)"
			}
			return fmt.Sprintf("the field meaning %q here is %s", name, target)
		}
	}
	if slices.Contains(allowed, "rows") && (lower == "uid" || lower == "uids" || lower == "ids") {
		return "uids are in the rows: use rows[0].uid for one, rows[*].uid for all"
	}
	if c := closest(name, allowed); c != "" {
		return c
	}
	return "use one of the allowed fields"
}

// closest suggests the allowed name nearest to a misspelling.
func closest(name string, allowed []string) string {
	best, bestD := "", 3
	for _, a := range allowed {
		if d := editDistance(name, a); d < bestD {
			best, bestD = a, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("did you mean %q?", best)
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
