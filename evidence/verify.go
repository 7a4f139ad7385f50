package evidence

import (
	"fmt"
	"math"
	"strings"

	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/plan"
)

// Verdicts.
const (
	Supported       = "supported"
	WeaklySupported = "weakly_supported"
	Unsupported     = "unsupported"
	Unverifiable    = "unverifiable"
)

// Result is the verdict on one claim: why, and what it was compared with.
type Result struct {
	ID       string `json:"id"`
	Kind     string `json:"kind"`
	Verdict  string `json:"verdict"`
	Reason   string `json:"reason"`
	Step     string `json:"step"`
	Path     string `json:"path,omitempty"`
	Found    any    `json:"found,omitempty"`
	Emitted  bool   `json:"emitted"`
	Sentence string `json:"sentence,omitempty"`
}

// Options tune verification.
type Options struct {
	// IgnoreCompleteness treats every result as complete: the ablation that
	// shows what completeness tracking catches. Never set it in production.
	IgnoreCompleteness bool
	// IgnoreOmissions skips the membership check that a complete_set claim
	// names every member: the ablation that shows what it catches (a
	// fault-injection test hook). Never set it in production.
	IgnoreOmissions bool
	// Ablate switches further checks off (see Ablation): fault-injection
	// test hooks. Never set it in production.
	Ablate Ablation
}

// Verify checks every claim of an answer against a trace.
func Verify(tr *exec.Trace, a *Answer, opt Options) []Result {
	out := make([]Result, 0, len(a.Claims))
	for _, c := range a.Claims {
		r := verifyClaim(tr, c, opt)
		r.ID, r.Kind, r.Step, r.Path = c.ID, c.Kind, c.Step, c.Path
		out = append(out, r)
	}
	return out
}

type evidenceView struct {
	step    *exec.StepRecord
	payload map[string]any
	excerpt bool
	fields  map[string]string
	opt     Options
}

func load(tr *exec.Trace, id string, opt Options) (*evidenceView, *Result) {
	s, ok := tr.Step(id)
	if !ok {
		return nil, &Result{Verdict: Unverifiable, Reason: fmt.Sprintf("the trace has no step %s", id)}
	}
	if s.Status != "ok" {
		return nil, &Result{Verdict: Unverifiable, Reason: fmt.Sprintf("step %s did not succeed, so it is no evidence", id)}
	}
	if s.Evidence == nil {
		return nil, &Result{Verdict: Unverifiable, Reason: fmt.Sprintf("step %s has no evidence record", id)}
	}
	v := &evidenceView{step: s, fields: s.Evidence.Completeness.Fields, opt: opt}
	switch {
	case tr.FullResult(id) != nil:
		v.payload = tr.FullResult(id)
	case s.Result != nil:
		v.payload = s.Result
		// A result read from a file must still be the one the digest names.
		if d, err := canon.Digest(s.Result); err != nil || d != s.ResultDigest {
			return nil, &Result{Verdict: Unverifiable, Reason: fmt.Sprintf("step %s: the recorded result does not match its digest (tampered or damaged evidence)", id)}
		}
	case s.ResultExcerpt != nil:
		v.payload, v.excerpt = s.ResultExcerpt, true
	default:
		return nil, &Result{Verdict: Unverifiable, Reason: fmt.Sprintf("step %s has no recorded result", id)}
	}
	if opt.IgnoreCompleteness {
		v.fields = map[string]string{}
	}
	return v, nil
}

// state is the completeness state of what a path reads: "complete",
// "partial" (it reads a whole list that is a page) or "uncertified".
func (v *evidenceView) state(ref plan.Ref) string {
	if len(ref.Path) == 0 {
		return exec.FieldComplete
	}
	st := v.fields[ref.Path[0].Name]
	switch {
	case st == "":
		return exec.FieldComplete
	case st == exec.FieldPartial && ref.Path[0].Index >= 0:
		return exec.FieldComplete // the i-th row of a page is the i-th row of the result
	}
	return st
}

func verifyClaim(tr *exec.Trace, c Claim, opt Options) Result {
	v, bad := load(tr, c.Step, opt)
	if bad != nil {
		return *bad
	}
	if c.AsOfTT != nil && *c.AsOfTT != v.step.Evidence.Basis.AsOfTT {
		return Result{Verdict: Unsupported, Reason: fmt.Sprintf("the claim is about belief time %d, but step %s was evaluated as of %d", *c.AsOfTT, c.Step, v.step.Evidence.Basis.AsOfTT), Found: v.step.Evidence.Basis.AsOfTT}
	}
	if c.Kind == KindPattern {
		return verifyPattern(v, c)
	}
	ref, err := plan.ParseRef(c.Step+"."+c.Path, false)
	if err != nil {
		return Result{Verdict: Unverifiable, Reason: "bad path: " + err.Error()}
	}
	found, err := exec.Eval(v.payload, ref)
	if err != nil && opt.off(AblateCitation) {
		return Result{Verdict: Supported, Reason: "citation not checked (ablation)"}
	}
	if err != nil {
		if v.excerpt {
			return Result{Verdict: Unverifiable, Reason: fmt.Sprintf("the trace holds only an excerpt of step %s (%v); re-execute it to verify", c.Step, err)}
		}
		return Result{Verdict: Unverifiable, Reason: err.Error()}
	}
	state := v.state(ref)
	if v.excerpt && state == exec.FieldPartial {
		return Result{Verdict: Unverifiable, Reason: "the trace holds only an excerpt of these rows; re-execute it to verify", Found: summarize(found)}
	}
	switch c.Kind {
	case KindCount, KindValue, KindBelief:
		if opt.off(AblateValues) {
			return qualify(state, "value not compared (ablation)", found)
		}
		return verifyValue(c, found, state)
	case KindEntity:
		if opt.off(AblateMembership) {
			return qualify(state, "membership not checked (ablation)", found)
		}
		return verifyEntity(c, found, state)
	case KindCompleteSet:
		return verifySet(c, found, state, v)
	case KindOrdering:
		if opt.off(AblateOrdering) {
			return qualify(state, "order not compared (ablation)", nil)
		}
		return verifyOrdering(c, found, state)
	case KindInterval:
		if opt.off(AblateValues) {
			return qualify(state, "interval not compared (ablation)", nil)
		}
		return verifyInterval(c, found, state)
	}
	return Result{Verdict: Unverifiable, Reason: "unknown claim kind " + c.Kind}
}

// qualify turns a true statement into supported or weakly_supported by the
// completeness of what it read.
func qualify(state, reason string, found any) Result {
	switch state {
	case exec.FieldUncertified:
		return Result{Verdict: WeaklySupported, Reason: reason + ", but the step was computed from incomplete inputs", Found: found}
	case exec.FieldPartial:
		return Result{Verdict: WeaklySupported, Reason: reason + ", but only on a page of a longer result", Found: found}
	}
	return Result{Verdict: Supported, Reason: reason, Found: found}
}

func verifyValue(c Claim, found any, state string) Result {
	if c.Kind == KindCount {
		if _, ok := c.Value.(int64); !ok {
			return Result{Verdict: Unverifiable, Reason: "a count claim's value must be an integer"}
		}
		if list, ok := found.([]any); ok {
			if state == exec.FieldPartial {
				return Result{Verdict: Unsupported, Reason: fmt.Sprintf("the path reads a page of %d items of a longer list; a count of a page is not the total (cite rows_total)", len(list)), Found: int64(len(list))}
			}
			found = int64(len(list))
		}
	}
	if !equalValues(c.Value, found) {
		return Result{Verdict: Unsupported, Reason: fmt.Sprintf("the evidence says %s, the claim says %s", show(found), show(c.Value)), Found: summarize(found)}
	}
	return qualify(state, "matches "+show(found), found)
}

// equalValues compares JSON values; numbers within 1e-9, integers exactly,
// booleans never equal to numbers.
func equalValues(a, b any) bool {
	switch x := a.(type) {
	case int64:
		switch y := b.(type) {
		case int64:
			return x == y
		case float64:
			return math.Abs(float64(x)-y) <= 1e-9
		}
		return false
	case float64:
		switch y := b.(type) {
		case int64:
			return math.Abs(x-float64(y)) <= 1e-9
		case float64:
			return math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(y))
		}
		return false
	}
	return canon.Equal(a, b)
}

func strings_(found any) ([]string, bool) {
	switch x := found.(type) {
	case string:
		return []string{x}, true
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}

func verifyEntity(c Claim, found any, state string) Result {
	have, ok := strings_(found)
	if !ok {
		return Result{Verdict: Unverifiable, Reason: "the path does not yield uids (use a projection like rows[*].uid)"}
	}
	var missing []string
	held := setOf(have)
	for _, u := range c.UIDs {
		if !held[u] {
			missing = append(missing, u)
		}
	}
	if len(missing) > 0 {
		if state == exec.FieldPartial {
			return Result{Verdict: Unverifiable, Reason: fmt.Sprintf("%s not in the delivered page; later pages were not read", strings.Join(missing, ", "))}
		}
		return Result{Verdict: Unsupported, Reason: fmt.Sprintf("not in the evidence: %s", strings.Join(first(missing, 5), ", "))}
	}
	if state == exec.FieldPartial {
		state = exec.FieldComplete // a witness in a page is a witness
	}
	return qualify(state, fmt.Sprintf("all %d found in the evidence", len(c.UIDs)), nil)
}

// setOf indexes a list of uids (membership checks stay linear in the
// evidence's size: results hold thousands of uids).
func setOf(list []string) map[string]bool {
	m := make(map[string]bool, len(list))
	for _, u := range list {
		m[u] = true
	}
	return m
}

func verifySet(c Claim, found any, state string, v *evidenceView) Result {
	have, ok := strings_(found)
	if !ok {
		return Result{Verdict: Unverifiable, Reason: "the path does not yield uids (use a projection like rows[*].uid)"}
	}
	if state != exec.FieldComplete {
		cp := v.step.Evidence.Completeness
		return Result{Verdict: Unverifiable, Reason: fmt.Sprintf("the evidence is incomplete (%s); a complete set needs every member", cp.Reason)}
	}
	var missing, extra []string
	claimed, held := setOf(c.UIDs), setOf(have)
	for _, u := range have {
		if !claimed[u] && !v.opt.IgnoreOmissions {
			missing = append(missing, u)
		}
	}
	for _, u := range c.UIDs {
		if !held[u] && !v.opt.off(AblateMembership) {
			extra = append(extra, u)
		}
	}
	if len(missing)+len(extra) > 0 {
		var parts []string
		if len(missing) > 0 {
			parts = append(parts, fmt.Sprintf("omits %d member(s): %s", len(missing), strings.Join(first(missing, 5), ", ")))
		}
		if len(extra) > 0 {
			parts = append(parts, fmt.Sprintf("adds %d non-member(s): %s", len(extra), strings.Join(first(extra, 5), ", ")))
		}
		return Result{Verdict: Unsupported, Reason: "the claimed set " + strings.Join(parts, "; "), Found: int64(len(have))}
	}
	return Result{Verdict: Supported, Reason: fmt.Sprintf("exactly the %d members of the complete result", len(have))}
}

func verifyOrdering(c Claim, found any, state string) Result {
	rows, ok := found.([]any)
	if !ok {
		return Result{Verdict: Unverifiable, Reason: "the path does not yield rows"}
	}
	var a, b any
	for _, r := range rows {
		m, ok := r.(map[string]any)
		if !ok {
			continue
		}
		switch m[c.Key] {
		case c.First:
			a = m[c.By]
		case c.Second:
			b = m[c.By]
		}
	}
	if a == nil || b == nil {
		if state == exec.FieldPartial {
			return Result{Verdict: Unverifiable, Reason: "one of the two is not in the delivered page"}
		}
		return Result{Verdict: Unsupported, Reason: fmt.Sprintf("%s or %s is not in the evidence with a %s", c.First, c.Second, c.By)}
	}
	fa, okA := number(a)
	fb, okB := number(b)
	if !okA || !okB {
		return Result{Verdict: Unverifiable, Reason: fmt.Sprintf("%s is not a number", c.By)}
	}
	if !(fa < fb) {
		return Result{Verdict: Unsupported, Reason: fmt.Sprintf("%s has %s %s and %s has %s: not strictly before", c.First, c.By, show(a), c.Second, show(b))}
	}
	if state == exec.FieldPartial {
		state = exec.FieldComplete // both rows are in hand
	}
	return qualify(state, fmt.Sprintf("%s %s < %s", c.By, show(a), show(b)), nil)
}

func verifyInterval(c Claim, found any, state string) Result {
	m, ok := found.(map[string]any)
	if !ok {
		return Result{Verdict: Unverifiable, Reason: "the path does not yield an interval {t_a, t_b}"}
	}
	ta, okA := m["t_a"].(int64)
	tb, okB := m["t_b"].(int64)
	if !okA || !okB {
		return Result{Verdict: Unverifiable, Reason: "the value has no integer t_a and t_b"}
	}
	if ta != *c.TA || tb != *c.TB {
		return Result{Verdict: Unsupported, Reason: fmt.Sprintf("the evidence says [%d, %d), the claim says [%d, %d)", ta, tb, *c.TA, *c.TB)}
	}
	return qualify(state, fmt.Sprintf("the interval is [%d, %d)", ta, tb), nil)
}

func verifyPattern(v *evidenceView, c Claim) Result {
	if v.step.Op != "burst_detection" {
		return Result{Verdict: Unverifiable, Reason: fmt.Sprintf("a burst claim must cite a burst_detection step, not %s", v.step.Op)}
	}
	rows, _ := v.payload["rows"].([]any)
	for _, r := range rows {
		m, _ := r.(map[string]any)
		ta, _ := m["t_a"].(int64)
		tb, _ := m["t_b"].(int64)
		if ta < *c.TB && *c.TA < tb || v.opt.off(AblateOverlap) {
			st := v.fields["rows"]
			if st == exec.FieldPartial {
				st = exec.FieldComplete
			}
			return qualify(st, fmt.Sprintf("bucket [%d, %d) is flagged", ta, tb), nil)
		}
	}
	if v.fields["rows"] == exec.FieldPartial || v.excerpt {
		return Result{Verdict: Unverifiable, Reason: "no flagged bucket in the delivered page overlaps the claim; later pages were not read"}
	}
	return Result{Verdict: Unsupported, Reason: fmt.Sprintf("no flagged bucket overlaps [%d, %d)", *c.TA, *c.TB)}
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

func first(s []string, n int) []string { return s[:min(n, len(s))] }

func show(v any) string {
	b, err := canon.Marshal(summarize(v))
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// summarize keeps recorded values short.
func summarize(v any) any {
	if list, ok := v.([]any); ok && len(list) > 5 {
		return append(append([]any{}, list[:5]...), fmt.Sprintf("… %d more", len(list)-5))
	}
	return v
}
