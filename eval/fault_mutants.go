package eval

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/evidence"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/plan"
)

// faultEnv is what mutators may draw from besides the claim itself.
type faultEnv struct {
	uids     []string                // the store's uids
	partners map[*Task][]*exec.Trace // traces of the same plan at other belief times
}

// A mutator returns the k-th mutant of a clean claim and the trace it is
// checked against, or false when it has no k-th mutant.
type mutator func(e *faultEnv, k int, p *pooled) (evidence.Claim, *exec.Trace, bool)

type faultClass struct {
	name   string
	n      int
	mutate mutator
}

func faultClasses(cfg FaultConfig) []faultClass {
	return []faultClass{
		{"count_pm1", cfg.Classic, mutateCount},
		{"fabricated_uid", cfg.Classic, mutateFabricated},
		{"uncited_entity", cfg.Extended, mutateUncited},
		{"ordering_swap", cfg.Extended, mutateOrdering},
		{"unit_confusion", cfg.Extended, mutateUnits},
		{"wrong_belief_state", cfg.Extended, mutateBelief},
		{"wrong_step_citation", cfg.Extended, mutateStep},
		{"citation_of_missing_path", cfg.Extended, mutateMissingPath},
		{"dropped_member", cfg.Extended, mutateDropped},
		{"ordering_tie", cfg.Extended, mutateTie},
		{"value_epsilon", cfg.Extended, mutateEpsilon},
		{"adjacent_burst", cfg.Extended, mutateAdjacent},
		{"integer_as_float_epsilon", cfg.Extended, mutateIntFloat},
	}
}

// cleanClaims are the claims a reporter would make from a trace: the
// deterministic reporter's answer claim, its belief-time form, and what a
// richer reporter adds from complete uid-keyed rows: complete sets,
// orderings by a time column, and time values of the first rows.
func cleanClaims(tr *exec.Trace, p *plan.Plan) []evidence.Claim {
	claims := evidence.Mechanical(tr, p).Claims
	for _, c := range slices.Clone(claims) {
		s, ok := tr.Step(c.Step)
		if (c.Kind == evidence.KindCount || c.Kind == evidence.KindValue) && ok && s.Evidence != nil && s.Evidence.Basis.AsOfTT != 0 {
			b := c
			b.Kind = evidence.KindBelief
			tt := s.Evidence.Basis.AsOfTT
			b.AsOfTT = &tt
			claims = append(claims, b)
		}
	}
	claims = append(claims, enrich(tr)...)
	for j := range claims {
		claims[j].ID = fmt.Sprintf("c%d", j+1)
	}
	return claims
}

// orderingsPerColumn bounds the ordering claims drawn per step and column.
const orderingsPerColumn = 6

func enrich(tr *exec.Trace) []evidence.Claim {
	var out []evidence.Claim
	for _, s := range tr.Steps {
		rows, _ := tr.FullResult(s.StepID)["rows"].([]any)
		if s.Op == "burst_detection" && s.Evidence != nil && s.Evidence.Completeness.Complete {
			for i := range min(2, len(rows)) {
				m, _ := rows[i].(map[string]any)
				ta, okA := m["t_a"].(int64)
				tb, okB := m["t_b"].(int64)
				if okA && okB {
					out = append(out, evidence.Claim{Kind: evidence.KindPattern, Step: s.StepID, Pattern: "burst", TA: &ta, TB: &tb})
				}
			}
		}
		if len(rows) < 2 || s.Evidence == nil || !s.Evidence.Completeness.Complete {
			continue
		}
		for _, col := range []string{"uid", "src", "dst"} {
			if uids := column(rows, col); len(uids) >= 2 {
				out = append(out, evidence.Claim{Kind: evidence.KindCompleteSet, Step: s.StepID, Path: "rows[*]." + col, UIDs: uids})
			}
		}
		uids := column(rows, "uid")
		if len(uids) != len(rows) {
			continue // orderings by uid need one row per uid
		}
		for _, by := range []string{"earliest_arrival", "latest_departure", "first_seen", "last_seen"} {
			n := 0
			for i := 0; i < len(rows) && n < orderingsPerColumn; i++ {
				for j := i + 1; j < len(rows) && n < orderingsPerColumn; j++ {
					a, okA := rows[i].(map[string]any)[by].(int64)
					b, okB := rows[j].(map[string]any)[by].(int64)
					if okA && okB && a < b {
						out = append(out, evidence.Claim{Kind: evidence.KindOrdering, Step: s.StepID, Path: "rows", Key: "uid", By: by, First: uids[i], Second: uids[j]})
						n++
					}
				}
			}
		}
		for i := range min(2, len(rows)) {
			m := rows[i].(map[string]any)
			for _, k := range sortedKeys(m) {
				if v, ok := m[k].(int64); ok {
					out = append(out, evidence.Claim{Kind: evidence.KindValue, Step: s.StepID, Path: fmt.Sprintf("rows[%d].%s", i, k), Value: v})
				}
			}
		}
	}
	return out
}

// column lists the distinct string values of a row field (nil if a row
// lacks it).
func column(rows []any, col string) []string {
	var out []string
	for _, r := range rows {
		m, _ := r.(map[string]any)
		u, ok := m[col].(string)
		if !ok {
			return nil
		}
		if !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// mutateCount moves a count or number by +1 (even k) or -1 (odd k).
func mutateCount(_ *faultEnv, k int, p *pooled) (evidence.Claim, *exec.Trace, bool) {
	c := p.claim
	if k >= 2 || c.Kind != evidence.KindCount && c.Kind != evidence.KindValue && c.Kind != evidence.KindBelief {
		return c, nil, false
	}
	d := int64(1 - 2*(k%2))
	switch v := c.Value.(type) {
	case int64:
		c.Value = v + d
	case float64:
		c.Value = v + float64(d)
	default:
		return c, nil, false
	}
	return c, p.trace, true
}

// mutateFabricated replaces a uid (or a uid-like string value) with one the
// store does not hold.
func mutateFabricated(_ *faultEnv, k int, p *pooled) (evidence.Claim, *exec.Trace, bool) {
	c := p.claim
	fake := fmt.Sprintf("fabricated-%04d", k)
	if len(c.UIDs) == 0 {
		if s, ok := c.Value.(string); ok && c.Kind == evidence.KindValue && s != "" {
			c.Value = fake
			return c, p.trace, true
		}
		return c, nil, false
	}
	c.UIDs = slices.Clone(c.UIDs)
	c.UIDs[k%len(c.UIDs)] = fake
	return c, p.trace, true
}

// mutateUncited adds a real uid of the store that the cited evidence does
// not contain.
func mutateUncited(e *faultEnv, k int, p *pooled) (evidence.Claim, *exec.Trace, bool) {
	c := p.claim
	if c.Kind != evidence.KindEntity && c.Kind != evidence.KindCompleteSet || len(e.uids) == 0 {
		return c, nil, false
	}
	for i := range e.uids {
		u := e.uids[(k*7919+i)%len(e.uids)]
		if !slices.Contains(c.UIDs, u) && !mentions(p.trace.FullResult(c.Step), u) {
			c.UIDs = append(slices.Clone(c.UIDs), u)
			return c, p.trace, true
		}
	}
	return c, nil, false
}

func mentions(v any, s string) bool {
	switch x := v.(type) {
	case string:
		return x == s
	case []any:
		for _, e := range x {
			if mentions(e, s) {
				return true
			}
		}
	case map[string]any:
		for _, e := range x {
			if mentions(e, s) {
				return true
			}
		}
	}
	return false
}

// mutateOrdering swaps the two sides of an ordering claim.
func mutateOrdering(_ *faultEnv, k int, p *pooled) (evidence.Claim, *exec.Trace, bool) {
	c := p.claim
	if k > 0 || c.Kind != evidence.KindOrdering {
		return c, nil, false
	}
	c.First, c.Second = c.Second, c.First
	return c, p.trace, true
}

// mutateUnits restates a time in seconds (even k) or milliseconds (odd k)
// instead of microseconds.
func mutateUnits(_ *faultEnv, k int, p *pooled) (evidence.Claim, *exec.Trace, bool) {
	c := p.claim
	if k >= 2 {
		return c, nil, false
	}
	div := int64(1_000_000)
	if k == 1 {
		div = 1_000
	}
	switch c.Kind {
	case evidence.KindValue, evidence.KindCount, evidence.KindBelief:
		if v, ok := c.Value.(int64); ok && v >= 1_000_000 {
			c.Value = v / div
			return c, p.trace, true
		}
	case evidence.KindInterval:
		if *c.TA >= 1_000_000 {
			ta, tb := *c.TA/div, *c.TB/div
			c.TA, c.TB = &ta, &tb
			return c, p.trace, true
		}
	}
	return c, nil, false
}

// mutateBelief states, for the belief time the question asked about, the
// value the same plan yields at another belief time (the store's current
// value for a question asked as of before a correction, and the reverse).
// Mutants whose partner holds the same value are not faults.
func mutateBelief(e *faultEnv, k int, p *pooled) (evidence.Claim, *exec.Trace, bool) {
	c := p.claim
	partners := e.partners[p.task]
	if k >= len(partners) || c.Kind != evidence.KindCount && c.Kind != evidence.KindValue && c.Kind != evidence.KindBelief {
		return c, nil, false
	}
	other, ok := valueAt(partners[k], c.Step, c.Path)
	if !ok {
		return c, nil, false
	}
	if c.Kind == evidence.KindCount {
		if list, isList := other.([]any); isList {
			other = int64(len(list))
		}
	}
	if mine, ok := valueAt(p.trace, c.Step, c.Path); !ok || canon.Equal(mine, other) || canon.Equal(c.Value, other) {
		return c, nil, false
	}
	c.Value = other
	return c, p.trace, true
}

// otherStep is the k-th successful step of the trace other than the cited
// one.
func otherStep(k int, p *pooled) (string, bool) {
	var others []string
	for _, s := range p.trace.Steps {
		if s.StepID != p.claim.Step && s.Status == "ok" {
			others = append(others, s.StepID)
		}
	}
	if k >= len(others) {
		return "", false
	}
	return others[k], true
}

// mutateStep cites another step that holds a different value at the same
// path. A path that does not exist there is mutateMissingPath's class; a
// step holding the very same value is no fault.
func mutateStep(_ *faultEnv, k int, p *pooled) (evidence.Claim, *exec.Trace, bool) {
	c := p.claim
	step, ok := otherStep(k, p)
	if !ok || c.Path == "" {
		return c, nil, false
	}
	got, ok := valueAt(p.trace, step, c.Path)
	orig, okO := valueAt(p.trace, c.Step, c.Path)
	if !ok || !okO || canon.Equal(got, orig) {
		return c, nil, false
	}
	c.Step = step
	return c, p.trace, true
}

// mutateMissingPath cites another step that has no value at the claim's
// path: a structural error of citation.
func mutateMissingPath(_ *faultEnv, k int, p *pooled) (evidence.Claim, *exec.Trace, bool) {
	c := p.claim
	step, ok := otherStep(k, p)
	if !ok || c.Path == "" {
		return c, nil, false
	}
	if _, exists := valueAt(p.trace, step, c.Path); exists {
		return c, nil, false
	}
	c.Step = step
	return c, p.trace, true
}

// valueAt evaluates step.path on a trace's full results.
func valueAt(tr *exec.Trace, step, path string) (any, bool) {
	ref, err := plan.ParseRef(step+"."+path, false)
	if err != nil {
		return nil, false
	}
	v, err := exec.Eval(tr.FullResult(step), ref)
	return v, err == nil
}

// mutateDropped drops the k-th member of a complete set.
func mutateDropped(_ *faultEnv, k int, p *pooled) (evidence.Claim, *exec.Trace, bool) {
	c := p.claim
	if c.Kind != evidence.KindCompleteSet || len(c.UIDs) < 2 || k >= len(c.UIDs) {
		return c, nil, false
	}
	c.UIDs = append(slices.Clone(c.UIDs[:k]), c.UIDs[k+1:]...)
	return c, p.trace, true
}

// mutateTie claims that one row comes strictly before another with the
// same value of the ordering column: the k-th tie among the cited rows,
// or (k = 0, when the rows hold none) a row before itself.
func mutateTie(_ *faultEnv, k int, p *pooled) (evidence.Claim, *exec.Trace, bool) {
	c := p.claim
	if c.Kind != evidence.KindOrdering {
		return c, nil, false
	}
	rows, _ := p.trace.FullResult(c.Step)["rows"].([]any)
	n := 0
	for i := range rows {
		for j := i + 1; j < len(rows); j++ {
			a, _ := rows[i].(map[string]any)
			b, _ := rows[j].(map[string]any)
			ka, okA := a[c.Key].(string)
			kb, okB := b[c.Key].(string)
			if !okA || !okB || ka == kb || a[c.By] == nil || !canon.Equal(a[c.By], b[c.By]) {
				continue
			}
			if n == k {
				c.First, c.Second = ka, kb
				return c, p.trace, true
			}
			n++
		}
	}
	if n == 0 && k == 0 {
		c.Second = c.First
		return c, p.trace, true
	}
	return c, nil, false
}

// mutateEpsilon moves a stated number by 1e-6 of its size (at least 1e-6),
// up (even k) or down (odd k): a thousand times the verifier's tolerance,
// a thousandth of a tolerance 10^6 times too wide.
func mutateEpsilon(_ *faultEnv, k int, p *pooled) (evidence.Claim, *exec.Trace, bool) {
	c := p.claim
	if k >= 2 || c.Kind != evidence.KindValue && c.Kind != evidence.KindBelief {
		return c, nil, false
	}
	var v float64
	switch x := c.Value.(type) {
	case int64:
		v = float64(x)
	case float64:
		v = x
	default:
		return c, nil, false
	}
	eps := 1e-6 * max(1, math.Abs(v))
	if k == 1 {
		eps = -eps
	}
	c.Value = v + eps
	return c, p.trace, true
}

// mutateAdjacent moves a burst claim onto the bucket-sized interval just
// after (even k) or just before (odd k) the flagged bucket it names: it
// touches the bucket but shares no microsecond with it. Mutants that
// overlap another flagged bucket are no faults.
func mutateAdjacent(_ *faultEnv, k int, p *pooled) (evidence.Claim, *exec.Trace, bool) {
	c := p.claim
	if k >= 2 || c.Kind != evidence.KindPattern || c.TA == nil || c.TB == nil {
		return c, nil, false
	}
	w := *c.TB - *c.TA
	ta, tb := *c.TB, *c.TB+w
	if k == 1 {
		ta, tb = *c.TA-w, *c.TA
	}
	rows, _ := p.trace.FullResult(c.Step)["rows"].([]any)
	for _, r := range rows {
		m, _ := r.(map[string]any)
		a, _ := m["t_a"].(int64)
		b, _ := m["t_b"].(int64)
		if a < tb && ta < b {
			return c, nil, false
		}
	}
	c.TA, c.TB = &ta, &tb
	return c, p.trace, true
}
