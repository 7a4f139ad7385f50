package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tgms-go/tgms/agent/reader"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/evidence"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/plan"
)

// DefaultMaxRepairs is the repair budget: at most DefaultMaxRepairs+1 plan
// emissions per question, static rejections and runtime failures together.
const DefaultMaxRepairs = 3

// Repairable are the runtime error codes a new plan can fix.
var Repairable = []string{ops.ECost, ops.ENotFound, ops.ELimit, ops.EInvalidArg, ops.ESchema}

// Reporter words the answer as typed claims about a trace.
type Reporter interface {
	Report(ctx context.Context, q Question, p *plan.Plan, tr *exec.Trace) (*evidence.Answer, error)
}

// MechanicalReporter is the deterministic reporter (evidence.Mechanical).
type MechanicalReporter struct{}

// Report builds the mechanical answer.
func (MechanicalReporter) Report(_ context.Context, _ Question, p *plan.Plan, tr *exec.Trace) (*evidence.Answer, error) {
	return evidence.Mechanical(tr, p), nil
}

// Options configure Ask.
type Options struct {
	// Planner writes plans; nil uses the RulePlanner.
	Planner Planner
	// MaxRepairs is the repair budget; 0 means DefaultMaxRepairs, a
	// negative value allows no repair.
	MaxRepairs int
	// Reporter words the answer; nil uses the MechanicalReporter.
	Reporter Reporter
	// Ungated, an ablation, sets Value to the executor's answer even when
	// no claim survived the evidence gate. The gate still runs and
	// Certified still says what it found. Never set it in production.
	Ungated bool
	// AsOf pins the belief time (0: the store's last transaction time).
	AsOf bt.Time
}

// Attempt is one plan emission: the plan, what the contract said, and,
// when it was run, the runtime error that sent it back.
type Attempt struct {
	N            int              `json:"n"`
	Plan         any              `json:"plan,omitempty"`
	Raw          string           `json:"raw,omitempty"` // the emission when it is not JSON
	Admitted     bool             `json:"admitted"`
	Violations   []plan.Violation `json:"violations"`
	RuntimeError *plan.Violation  `json:"runtime_error,omitempty"`
	Feedback     map[string]any   `json:"feedback,omitempty"` // the payload sent back to the planner
	PlannerError string           `json:"planner_error,omitempty"`
}

// Result is everything Ask did.
type Result struct {
	Question Question `json:"question"`
	// Reading is how the built-in reader read the question (nil for a
	// planner that does not read, or when the question was refused).
	Reading     *reader.Reading     `json:"reading,omitempty"`
	Attempts    []Attempt           `json:"attempts"`
	Plan        *plan.Plan          `json:"-"`
	Trace       *exec.Trace         `json:"trace,omitempty"`
	Answer      *evidence.Answer    `json:"answer_object,omitempty"`
	Certified   *evidence.Certified `json:"certified,omitempty"`
	Value       any                 `json:"value"`
	Kind        string              `json:"kind,omitempty"`
	TraceDigest string              `json:"trace_digest,omitempty"`
	// Refusal says why there is no answer at all (the planner refused, or
	// no admitted plan ran within the budget); "" otherwise.
	Refusal string `json:"refusal,omitempty"`
	// Suggestions are question forms the reader would read, when it
	// refused the question.
	Suggestions []string `json:"suggestions,omitempty"`
	// Err is the planner's refusal error (an ErrUnsupportedQuestion, …).
	Err error `json:"-"`
}

// Repairs is the number of repairs made.
func (r *Result) Repairs() int { return max(0, len(r.Attempts)-1) }

// Ask answers a question: plan, the plan contract, the repair loop, the
// executor, the reporter and the evidence gate. The returned error is only
// for failures of the machinery (a cancelled context); a refused or
// unanswerable question is a Result with Refusal set and Err holding the
// reason.
func Ask(ctx context.Context, db Store, q Question, opt Options) (*Result, error) {
	if q.Card.VtMax == 0 && q.Card.Nodes == 0 {
		q.Card = CardFor(db)
	}
	if q.UIDs == nil {
		q.UIDs = []string{}
	}
	planner := opt.Planner
	if planner == nil {
		planner = RulePlanner{}
	}
	reporter := opt.Reporter
	if reporter == nil {
		reporter = MechanicalReporter{}
	}
	budget := opt.MaxRepairs
	if budget == 0 {
		budget = DefaultMaxRepairs
	}
	budget = max(budget, 0)
	res := &Result{Question: q, Attempts: []Attempt{}}
	stats := q.Card.Stats()

	var raw []byte
	var err error
	if rd, ok := planner.(Reader); ok {
		var r *reader.Reading
		if r, err = rd.Read(q); err == nil {
			res.Reading, raw = r, r.Plan()
		}
	} else {
		raw, err = planner.Plan(ctx, q)
	}
	for {
		if err != nil {
			if ctx.Err() != nil {
				return res, ctx.Err()
			}
			res.Err = err
			var uq *ErrUnsupportedQuestion
			if errors.As(err, &uq) {
				res.Suggestions = uq.Suggestions
			}
			if len(res.Attempts) == 0 {
				res.Refusal = err.Error()
			} else {
				res.Attempts[len(res.Attempts)-1].PlannerError = err.Error()
				res.Refusal = fmt.Sprintf("no admitted plan answered the question after %d attempt(s): %v", len(res.Attempts), err)
			}
			return res, nil
		}
		a := Attempt{N: len(res.Attempts) + 1, Violations: []plan.Violation{}}
		if v, perr := canon.Parse(raw); perr == nil {
			a.Plan = v
		} else {
			a.Raw = string(raw)
		}
		verdict := plan.ValidateJSON(raw, plan.Options{UIDs: q.UIDs, Stats: stats})
		a.Admitted = verdict.Valid
		a.Violations = append(a.Violations, verdict.Violations...)
		var feedback map[string]any
		if verdict.Valid {
			tr := exec.Run(ctx, db, verdict.Plan, exec.Options{AsOf: opt.AsOf})
			if ans, ok := emptyAnswer(tr, verdict.Plan); ok {
				// "When does n277 first become reachable" with no path: the
				// empty result is the answer.
				res.Attempts = append(res.Attempts, a)
				res.Plan, res.Trace, res.TraceDigest = verdict.Plan, tr, tr.TraceDigest
				res.Kind, res.Answer = KindEmpty, ans
				res.Certified = evidence.Gate(tr, ans, evidence.Options{})
				if len(res.Certified.Claims) == 0 || !res.Certified.Claims[0].Emitted {
					res.Refusal = "the empty result could not be certified"
					res.Err = errors.New(res.Refusal)
				} else if res.Reading != nil {
					res.Certified.Text = res.Reading.None() + "\n" + res.Certified.Text
				}
				return res, nil
			}
			if rv, ok := repairableFailure(tr); ok {
				// Kept so that a refusal still shows the failed run.
				res.Plan, res.Trace, res.TraceDigest = verdict.Plan, tr, tr.TraceDigest
				a.RuntimeError = &rv
				if rf := resolveNames(res); rf != nil {
					// A name that matched no node: no repair can help.
					res.Attempts = append(res.Attempts, a)
					res.Err, res.Refusal = rf, rf.Error()
					return res, nil
				}
				feedback = map[string]any{"error": rv.Code, "attempt": int64(a.N), "message": rv.Message, "violations": []any{violationValue(rv)}}
			} else {
				res.Attempts = append(res.Attempts, a)
				res.Plan, res.Trace, res.TraceDigest = verdict.Plan, tr, tr.TraceDigest
				res.Kind = verdict.Plan.Answer.Kind
				if rf := resolveNames(res); rf != nil {
					res.Err, res.Refusal = rf, rf.Error()
					return res, nil
				}
				return finish(ctx, res, reporter, opt)
			}
		} else {
			vs := make([]any, len(verdict.Violations))
			for i, v := range verdict.Violations {
				vs[i] = violationValue(v)
			}
			feedback = map[string]any{"error": plan.EPlanInvalid, "attempt": int64(a.N), "violations": vs}
		}
		a.Feedback = feedback
		res.Attempts = append(res.Attempts, a)
		if len(res.Attempts) > budget {
			res.Refusal = fmt.Sprintf("no admitted plan answered the question within the repair budget (%d attempts)", len(res.Attempts))
			res.Err = errors.New(res.Refusal)
			return res, nil
		}
		fb, merr := canon.Marshal(feedback)
		if merr != nil {
			return res, merr
		}
		raw, err = planner.Repair(ctx, q, raw, fb)
	}
}

// violationValue renders a violation in the canon value model.
func violationValue(v plan.Violation) any {
	b, err := canon.Marshal(map[string]any{"code": v.Code, "rule": v.Rule, "step_id": v.StepID, "path": v.Path, "message": v.Message, "hint": v.Hint, "allowed": anyStrings(v.Allowed)})
	if err != nil {
		return map[string]any{"code": v.Code, "message": v.Message}
	}
	out, _ := canon.Parse(b)
	m := out.(map[string]any)
	for k, x := range m {
		if x == "" || x == nil {
			delete(m, k)
		}
		if l, ok := x.([]any); ok && len(l) == 0 {
			delete(m, k)
		}
	}
	return m
}

func anyStrings(s []string) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

// repairableFailure returns the first step error whose code a new plan can
// fix, or an answer extraction error.
func repairableFailure(tr *exec.Trace) (plan.Violation, bool) {
	for i := range tr.Steps {
		s := &tr.Steps[i]
		if s.Error != nil && slices.Contains(Repairable, s.Error.Code) {
			return s.Violation(i), true
		}
	}
	if tr.AnswerError != nil && slices.Contains(Repairable, tr.AnswerError.Code) {
		return plan.Violation{Code: tr.AnswerError.Code, Rule: "runtime.answer", Path: "/answer_spec/from", Message: tr.AnswerError.Message}, true
	}
	return plan.Violation{}, false
}

// finish runs the reporter and the gate and sets the certified value.
func finish(ctx context.Context, res *Result, rep Reporter, opt Options) (*Result, error) {
	ans, err := rep.Report(ctx, res.Question, res.Plan, res.Trace)
	if err != nil || ans == nil {
		ans = evidence.Mechanical(res.Trace, res.Plan)
	}
	res.Answer = ans
	// The claims, their verdicts and the certified text go into the trace
	// (and its digest), so an edited answer in a saved trace is caught.
	if c, err := evidence.Attach(res.Trace, ans); err == nil {
		res.Certified, res.TraceDigest = c, res.Trace.TraceDigest
	} else {
		res.Certified = evidence.Gate(res.Trace, ans, evidence.Options{})
	}
	res.Value = certifiedValue(res)
	if opt.Ungated && res.Trace.AnswerError == nil {
		res.Value = res.Trace.Answer
	}
	return res, nil
}

// certifiedValue is the typed answer when the claim stating it (the first,
// the reporter's answer claim) survived the gate: a number or value, a list
// of uids, or an interval; nil otherwise. Other claims a model added are
// gated on their own and never decide the value.
func certifiedValue(res *Result) any {
	c := res.Certified
	if c == nil || len(c.Claims) == 0 || !c.Claims[0].Emitted || res.Trace.AnswerError != nil {
		return nil
	}
	cl := res.Answer.Claims[0]
	switch cl.Kind {
	case evidence.KindCount, evidence.KindValue, evidence.KindBelief:
		return cl.Value
	case evidence.KindEntity, evidence.KindCompleteSet:
		out := make([]any, len(cl.UIDs))
		for i, u := range cl.UIDs {
			out[i] = u
		}
		return out
	case evidence.KindInterval, evidence.KindPattern:
		if cl.TA != nil && cl.TB != nil {
			return map[string]any{"t_a": *cl.TA, "t_b": *cl.TB}
		}
	}
	return res.Trace.Answer
}

// resolveNames fills in the uid each name of the reading resolved to, and
// refuses a name that matched no node or more than one: the plan read the
// first match, and an answer about a guessed node is not given.
func resolveNames(res *Result) *ErrUnsupportedQuestion {
	if res.Reading == nil || res.Trace == nil {
		return nil
	}
	for i := range res.Reading.Nodes {
		n := &res.Reading.Nodes[i]
		if !n.ByName {
			continue
		}
		for _, s := range res.Trace.Steps {
			if s.Op != "resolve_entities" || s.Status != "ok" {
				continue
			}
			if q, _ := s.Args["query"].(string); q != n.Written {
				continue
			}
			rows, _ := s.Result["rows"].([]any)
			total, _ := s.Result["rows_total"].(int64)
			n.Matches = total
			var uids []string
			for _, r := range rows {
				if m, ok := r.(map[string]any); ok {
					if u, ok := m["uid"].(string); ok {
						uids = append(uids, u)
					}
				}
			}
			switch {
			case total == 0:
				return &ErrUnsupportedQuestion{Question: res.Question.Text, Reason: fmt.Sprintf("which node? the name %q matches no node", n.Written), Missing: []string{"node"}}
			case total > 1:
				return &ErrUnsupportedQuestion{Question: res.Question.Text, Reason: fmt.Sprintf("which node? the name %q matches %d nodes (%s); give a uid", n.Written, total, strings.Join(uids, ", ")), Missing: []string{"node"}}
			}
			n.UID = uids[0]
		}
	}
	return nil
}
