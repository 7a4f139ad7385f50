package evidence

import (
	"fmt"
	"slices"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/plan"
)

// Certified is what a user sees: sentences rendered deterministically from
// the supported claims only, and every other claim listed as withheld with
// its reason. The model's free prose is never part of it.
type Certified struct {
	Text     string   `json:"text"`
	Claims   []Result `json:"claims"`
	Withheld []Result `json:"withheld"`
	Metrics  Metrics  `json:"metrics"`
}

// Metrics count verdicts.
type Metrics struct {
	Claims          int `json:"n_claims"`
	Supported       int `json:"supported"`
	WeaklySupported int `json:"weakly_supported"`
	Unsupported     int `json:"unsupported"`
	Unverifiable    int `json:"unverifiable"`
	Emitted         int `json:"emitted"`
}

// NoCertainAnswer is the text when no claim survives the gate.
const NoCertainAnswer = "No claim could be certified against the evidence, so this question cannot be answered with certainty."

// Gate verifies an answer and renders the certified answer: only claims
// judged supported pass (temporal-pattern claims included); weakly
// supported, unsupported and unverifiable claims are withheld with their
// reasons.
func Gate(tr *exec.Trace, a *Answer, opt Options) *Certified {
	results := Verify(tr, a, opt)
	out := &Certified{Claims: results, Withheld: []Result{}}
	var lines []string
	for i := range results {
		r := &results[i]
		out.Metrics.Claims++
		switch r.Verdict {
		case Supported:
			out.Metrics.Supported++
		case WeaklySupported:
			out.Metrics.WeaklySupported++
		case Unsupported:
			out.Metrics.Unsupported++
		default:
			out.Metrics.Unverifiable++
		}
		if r.Verdict == Supported {
			r.Emitted = true
			r.Sentence = render(tr, a.Claims[i])
			lines = append(lines, r.Sentence)
			out.Metrics.Emitted++
		} else {
			out.Withheld = append(out.Withheld, *r)
		}
	}
	if len(lines) == 0 {
		out.Text = NoCertainAnswer
	} else {
		out.Text = strings.Join(lines, "\n")
	}
	return out
}

// render states one supported claim as a fixed sentence tagged with its id.
func render(tr *exec.Trace, c Claim) string {
	basis := ""
	if s, ok := tr.Step(c.Step); ok && s.Evidence != nil && s.Evidence.Basis.AsOfTT != 0 {
		basis = ", as believed at " + bt.FormatRFC3339(s.Evidence.Basis.AsOfTT)
	}
	src := fmt.Sprintf("(%s %s", c.Step, opOf(tr, c.Step))
	if c.Path != "" {
		src += " " + c.Path
	}
	src += basis + ")"
	switch c.Kind {
	case KindCount:
		return fmt.Sprintf("[%s] The count is %s %s.", c.ID, showPlain(c.Value), src)
	case KindValue, KindBelief:
		return fmt.Sprintf("[%s] The value is %s %s.", c.ID, showPlain(c.Value), src)
	case KindEntity:
		return fmt.Sprintf("[%s] The result includes %s %s.", c.ID, strings.Join(c.UIDs, ", "), src)
	case KindCompleteSet:
		return fmt.Sprintf("[%s] The complete set is %s (%d) %s.", c.ID, strings.Join(c.UIDs, ", "), len(c.UIDs), src)
	case KindOrdering:
		return fmt.Sprintf("[%s] %s comes strictly before %s by %s %s.", c.ID, c.First, c.Second, c.By, src)
	case KindInterval:
		return fmt.Sprintf("[%s] The interval is %s to %s %s.", c.ID, bt.FormatBoth(*c.TA), bt.FormatBoth(*c.TB), src)
	case KindPattern:
		return fmt.Sprintf("[%s] There is a burst between %s and %s %s.", c.ID, bt.FormatBoth(*c.TA), bt.FormatBoth(*c.TB), src)
	}
	return fmt.Sprintf("[%s] %s", c.ID, src)
}

func opOf(tr *exec.Trace, id string) string {
	if s, ok := tr.Step(id); ok {
		return s.Op
	}
	return "?"
}

func showPlain(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := canon.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// Mechanical builds the deterministic reporter's answer from a trace and
// its plan's answer_spec: one claim of the kind the answer spec names,
// citing the answer step. An entity_set answer becomes a complete_set claim
// when its evidence is complete, and a membership claim otherwise (never
// "these are all" on a page).
func Mechanical(tr *exec.Trace, p *plan.Plan) *Answer {
	a := &Answer{Claims: []Claim{}}
	if tr.AnswerError != nil {
		return a
	}
	ref, err := plan.ParseRef(p.Answer.From, true)
	if err != nil || len(ref.Path) == 0 {
		return a
	}
	path := strings.TrimPrefix(p.Answer.From, ref.Step+".")
	c := Claim{ID: "c1", Step: ref.Step, Path: path}
	switch p.Answer.Kind {
	case "count":
		n, ok := tr.Answer.(int64)
		if !ok {
			return a
		}
		c.Kind, c.Value = KindCount, n
	case "value":
		c.Kind, c.Value = KindValue, tr.Answer
	case "entity_set":
		all, ok := strings_(tr.Answer)
		if !ok {
			return a
		}
		if len(all) == 0 {
			// The empty set is an answer when the evidence is complete.
			s, ok := tr.Step(ref.Step)
			if !ok || s.Evidence == nil || !s.Evidence.Completeness.Complete {
				return a
			}
		}
		var uids []string // a set: each uid once, in first-seen order
		for _, u := range all {
			if !slices.Contains(uids, u) {
				uids = append(uids, u)
			}
		}
		c.Kind, c.UIDs = KindEntity, uids
		if s, ok := tr.Step(ref.Step); ok && s.Evidence != nil && s.Evidence.Completeness.Complete {
			c.Kind = KindCompleteSet
		}
	case "interval":
		m, ok := tr.Answer.(map[string]any)
		ta, okA := m["t_a"].(int64)
		tb, okB := m["t_b"].(int64)
		if !ok || !okA || !okB {
			return a
		}
		c.Kind, c.TA, c.TB = KindInterval, &ta, &tb
	default:
		return a
	}
	a.Claims = append(a.Claims, c)
	a.Text = fmt.Sprintf("The answer is %s.", showPlain(tr.Answer))
	return a
}
