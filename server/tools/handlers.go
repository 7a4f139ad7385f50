package tools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/tgms-go/tgms/agent"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/evidence"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/plan"
)

// TraceURI is the MCP resource URI of a trace.
func TraceURI(digest string) string { return "tgms://trace/" + digest }

// StepView is one step of a run as tools return it.
type StepView struct {
	StepID       string          `json:"step_id"`
	Op           string          `json:"op"`
	Status       string          `json:"status"`
	DependsOn    []string        `json:"depends_on"`
	Args         map[string]any  `json:"args,omitempty"`
	CallDigest   string          `json:"call_digest,omitempty"`
	ResultDigest string          `json:"result_digest,omitempty"`
	RowsTotal    int64           `json:"rows_total"`
	RowsReturned int64           `json:"rows_returned"`
	Truncated    bool            `json:"truncated"`
	Complete     bool            `json:"complete"`
	Incomplete   string          `json:"incomplete_reason,omitempty"`
	Result       map[string]any  `json:"result,omitempty"`
	Excerpt      bool            `json:"excerpt"`
	Error        *plan.Violation `json:"error,omitempty"`
	Evidence     *exec.Evidence  `json:"evidence,omitempty"`
}

// RunResult is run_plan's output.
type RunResult struct {
	PlanID      string              `json:"plan_id"`
	TraceDigest string              `json:"trace_digest"`
	TraceURI    string              `json:"trace_uri"`
	AsOfTT      bt.Time             `json:"as_of_tt"`
	OK          bool                `json:"ok"`
	Steps       []StepView          `json:"steps"`
	AnswerKind  string              `json:"answer_kind"`
	Answer      any                 `json:"answer"`
	AnswerError *ops.Error          `json:"answer_error,omitempty"`
	Certified   *evidence.Certified `json:"certified"`
}

// AskResult is ask's output.
type AskResult struct {
	// Question is the question as asked, or for a long one (over
	// maxEcho bytes) its beginning and its digest: a reply is never a
	// multiple of its request.
	Question       string            `json:"question"`
	QuestionBytes  int               `json:"question_bytes"`
	QuestionSHA256 string            `json:"question_sha256"`
	UIDs           []string          `json:"uids"`
	Reading        any               `json:"reading"`
	Value          any               `json:"value"`
	Kind           string            `json:"kind,omitempty"`
	Text           string            `json:"text"`
	Claims         []evidence.Result `json:"claims"`
	Withheld       []evidence.Result `json:"withheld"`
	Attempts       []agent.Attempt   `json:"attempts"`
	Repairs        int               `json:"repairs"`
	TraceDigest    string            `json:"trace_digest,omitempty"`
	TraceURI       string            `json:"trace_uri,omitempty"`
	AsOfTT         bt.Time           `json:"as_of_tt"`
	Steps          []StepView        `json:"steps"`
	Refusal        string            `json:"refusal,omitempty"`
}

// ReproResult is trace_verify's output.
type ReproResult struct {
	TraceDigest string      `json:"trace_digest"`
	Again       string      `json:"trace_digest_again"`
	AsOfTT      bt.Time     `json:"as_of_tt"`
	Reproduced  bool        `json:"reproduced"`
	Steps       []StepRepro `json:"steps"`
}

// StepRepro compares one step's recorded digests with a re-execution's.
type StepRepro struct {
	StepID            string `json:"step_id"`
	Op                string `json:"op"`
	CallDigest        string `json:"call_digest"`
	ResultDigest      string `json:"result_digest"`
	CallDigestAgain   string `json:"call_digest_again"`
	ResultDigestAgain string `json:"result_digest_again"`
	Reproduced        bool   `json:"reproduced"`
}

// WriteResult is write_batch's output.
type WriteResult struct {
	TT  bt.Time `json:"tt"`
	Ops int     `json:"ops"`
}

func callOperator(ctx context.Context, s *Service, name string, args map[string]any) (any, *Failure) {
	if s.backend != nil {
		return s.callBackend(ctx, name, args)
	}
	// The reply is only encoded: version rows stay typed.
	env, err := ops.ExecuteWith(ctx, s.store, name, args, ops.ExecOptions{Typed: true})
	if err != nil {
		return nil, fromOpError(name, err)
	}
	b, err := env.Canonical()
	if err != nil {
		return nil, fromOpError(name, err)
	}
	return json.RawMessage(b), nil
}

func (s *Service) contractOptions(uids []string) plan.Options {
	st := s.store.Stats()
	return plan.Options{UIDs: uids, Stats: &ops.Stats{
		Nodes: int64(st.Nodes), NodeVersions: int64(st.NodeVersions), EdgeVersions: int64(st.EdgeVersions), VtMin: st.VtMin, VtMax: st.VtMax,
	}}
}

// planArg reads the plan argument: a JSON object, or a string holding one.
func planArg(args map[string]any) (any, *Failure) {
	v, ok := args["plan"]
	if !ok {
		return nil, badArg("/plan", "send the plan as a JSON object", "plan is required")
	}
	if str, isStr := v.(string); isStr {
		p, err := canon.Parse([]byte(str))
		if err != nil {
			return nil, badArg("/plan", "send one JSON object", "plan is a string that is not JSON: %v", err)
		}
		v = p
	}
	return normalizeArgs(v), nil
}

func (s *Service) check(args map[string]any) (plan.Verdict, *Failure) {
	p, f := planArg(args)
	if f != nil {
		return plan.Verdict{}, f
	}
	uids, f := uidsArg(args)
	if f != nil {
		return plan.Verdict{}, f
	}
	v := plan.Validate(p, s.contractOptions(uids))
	if v.Violations == nil {
		v.Violations = []plan.Violation{}
	}
	return v, nil
}

func validatePlan(_ context.Context, s *Service, args map[string]any) (any, *Failure) {
	if f := closedArgs(args, "plan", "uids"); f != nil {
		return nil, f
	}
	v, f := s.check(args)
	if f != nil {
		return nil, f
	}
	return v, nil
}

func runPlan(ctx context.Context, s *Service, args map[string]any) (any, *Failure) {
	if f := closedArgs(args, "plan", "uids", "as_of_tt"); f != nil {
		return nil, f
	}
	asOf, f := asOfArg(args)
	if f != nil {
		return nil, f
	}
	v, f := s.check(args)
	if f != nil {
		return nil, f
	}
	if !v.Valid {
		return nil, rejected(v)
	}
	if s.backend != nil {
		if f := s.backendSteps(v.Plan); f != nil {
			return nil, f
		}
	}
	tr := exec.Run(ctx, s.store, v.Plan, exec.Options{AsOf: asOf, Backend: s.backend})
	s.traces.Put(tr)
	return &RunResult{
		PlanID: tr.PlanID, TraceDigest: tr.TraceDigest, TraceURI: TraceURI(tr.TraceDigest), AsOfTT: tr.AsOfTT, OK: tr.OK,
		Steps: Steps(tr), AnswerKind: v.Plan.Answer.Kind, Answer: tr.Answer, AnswerError: tr.AnswerError,
		Certified: evidence.Gate(tr, evidence.Mechanical(tr, v.Plan), evidence.Options{}),
	}, nil
}

// Steps renders a trace's steps: the whole result when the trace holds it
// in memory, its excerpt otherwise.
func Steps(tr *exec.Trace) []StepView {
	out := make([]StepView, len(tr.Steps))
	for i := range tr.Steps {
		r := &tr.Steps[i]
		v := StepView{StepID: r.StepID, Op: r.Op, Status: r.Status, DependsOn: r.DependsOn, Args: r.Args,
			CallDigest: r.CallDigest, ResultDigest: r.ResultDigest, RowsTotal: r.RowsTotal, RowsReturned: r.RowsReturned,
			Truncated: r.Truncated, Result: r.Result, Evidence: r.Evidence}
		if v.DependsOn == nil {
			v.DependsOn = []string{}
		}
		if v.Result == nil && r.ResultExcerpt != nil {
			v.Result, v.Excerpt = r.ResultExcerpt, true
		}
		if r.Evidence != nil {
			v.Complete, v.Incomplete = r.Evidence.Completeness.Complete, r.Evidence.Completeness.Reason
		}
		if r.Error != nil {
			vi := r.Violation(i)
			v.Error = &vi
		}
		out[i] = v
	}
	return out
}

// trace finds the trace a call names: by digest in the cache, or inline,
// re-executed at its recorded belief time (so its full results are at
// hand) and refused unless every digest reproduces.
func (s *Service) trace(ctx context.Context, args map[string]any) (recorded, full *exec.Trace, f *Failure) {
	dig, f := strArg(args, "trace_digest", false)
	if f != nil {
		return nil, nil, f
	}
	raw, inline := args["trace"]
	switch {
	case dig != "" && inline:
		return nil, nil, badArg("/trace", "send one of them", "give trace_digest or trace, not both")
	case dig != "":
		tr, ok := s.traces.Get(dig)
		if !ok {
			return nil, nil, fail(statusNotFound, ETrace, "trace.unknown", "/trace_digest", "run the plan again (run_plan) or send the whole trace", s.traces.Digests(),
				"no trace %s on this server (it keeps the last traces it produced, in memory)", dig)
		}
		return tr, tr, nil
	case inline:
		b, err := json.Marshal(raw)
		if err != nil {
			return nil, nil, badArg("/trace", "", "trace: %v", err)
		}
		tr, err := exec.ReadTrace(b)
		if err != nil {
			return nil, nil, badArg("/trace", "send a trace as run_plan or 'tgms plan run --trace' wrote it", "%v", err)
		}
		again, f := s.rerun(ctx, tr)
		if f != nil {
			return nil, nil, f
		}
		return tr, again, nil
	}
	return nil, nil, badArg("/trace_digest", "", "trace_digest or trace is required")
}

// rerun re-executes a trace's plan at its recorded belief time and refuses
// a trace that differs from the re-execution in any field
// (evidence.VerifyTrace).
func (s *Service) rerun(ctx context.Context, tr *exec.Trace) (*exec.Trace, *Failure) {
	chk, err := evidence.VerifyTrace(ctx, s.store, tr)
	if err != nil {
		return nil, badArg("/trace/plan", "", "%v", err)
	}
	if !chk.OK() {
		return nil, fail(statusConflict, ETrace, "trace.verify", "/trace"+chk.Diffs[0].Path, "send the trace as it was written, or run the plan again", nil, "%v", chk.Err())
	}
	return chk.Again, nil
}

func verifyAnswer(ctx context.Context, s *Service, args map[string]any) (any, *Failure) {
	if f := closedArgs(args, "trace_digest", "trace", "answer"); f != nil {
		return nil, f
	}
	raw, ok := args["answer"]
	if !ok {
		return nil, badArg("/answer", "", "answer is required: {text, claims: [...]}")
	}
	b, err := canon.Marshal(raw)
	if err != nil {
		return nil, badArg("/answer", "", "answer: %v", err)
	}
	ans, err := evidence.ParseAnswer(b)
	if err != nil {
		return nil, badArg("/answer", "see the claim language: count, value, entity, complete_set, ordering, interval, temporal_pattern, belief", "%v", err)
	}
	recorded, full, f := s.trace(ctx, args)
	if f != nil {
		return nil, f
	}
	if full.TraceDigest != recorded.TraceDigest {
		return nil, fail(statusConflict, ETrace, "trace.reproduce", "/trace", "its evidence cannot be trusted; run the plan again", nil,
			"the trace %s does not reproduce at tt %d (got %s)", recorded.TraceDigest, recorded.AsOfTT, full.TraceDigest)
	}
	return evidence.Gate(full, ans, evidence.Options{}), nil
}

func ask(ctx context.Context, s *Service, args map[string]any) (any, *Failure) {
	if f := closedArgs(args, "question", "uids", "as_of_tt"); f != nil {
		return nil, f
	}
	text, f := strArg(args, "question", true)
	if f != nil {
		return nil, f
	}
	if text == "" {
		return nil, badArg("/question", "", "the question is empty")
	}
	uids, f := uidsArg(args)
	if f != nil {
		return nil, f
	}
	asOf, f := asOfArg(args)
	if f != nil {
		return nil, f
	}
	if uids == nil {
		uids = agent.MentionedUIDs(s.store, text)
	}
	res, err := agent.Ask(ctx, s.store, agent.Question{Text: text, UIDs: uids, Card: agent.CardFor(s.store)}, agent.Options{AsOf: asOf})
	if err != nil {
		return nil, fail(statusUnavailable, ops.ECost, "server.deadline", "", "", nil, "ask stopped: %v", err)
	}
	return askResult(s, res), nil
}

func askResult(s *Service, res *agent.Result) *AskResult {
	out := &AskResult{Question: res.Question.Text, UIDs: res.Question.UIDs, Reading: Reading(res), Value: res.Value, Kind: res.Kind,
		Claims: []evidence.Result{}, Withheld: []evidence.Result{}, Attempts: res.Attempts, Repairs: res.Repairs(),
		TraceDigest: res.TraceDigest, Steps: []StepView{}, Refusal: res.Refusal}
	if res.Certified != nil {
		out.Text, out.Claims, out.Withheld = res.Certified.Text, res.Certified.Claims, res.Certified.Withheld
	}
	if res.Trace != nil {
		s.traces.Put(res.Trace)
		out.TraceURI, out.AsOfTT, out.Steps = TraceURI(res.TraceDigest), res.Trace.AsOfTT, Steps(res.Trace)
	}
	if out.UIDs == nil {
		out.UIDs = []string{}
	}
	sum := sha256.Sum256([]byte(res.Question.Text))
	out.QuestionBytes, out.QuestionSHA256 = len(res.Question.Text), hex.EncodeToString(sum[:])
	out.Question, out.Refusal = clip(out.Question), clip(out.Refusal)
	out.Reading = clipValue(out.Reading)
	for i := range out.Attempts {
		a := &out.Attempts[i]
		a.Raw, a.PlannerError = clip(a.Raw), clip(a.PlannerError)
		a.Plan = clipValue(a.Plan)
		if a.Feedback != nil {
			a.Feedback, _ = clipValue(a.Feedback).(map[string]any)
		}
		a.Violations = clipViolations(a.Violations)
		if a.RuntimeError != nil {
			a.RuntimeError = &clipViolations([]plan.Violation{*a.RuntimeError})[0]
		}
	}
	return out
}

func stats(_ context.Context, s *Service, args map[string]any) (any, *Failure) {
	if f := closedArgs(args); f != nil {
		return nil, f
	}
	st := s.store.Stats()
	if st.RelTypes == nil {
		st.RelTypes = []string{}
	}
	if c, ok := s.store.(interface{ Card() *engine.Card }); ok {
		st.Card = c.Card() // the dataset card, as tgms stats prints it
	}
	return st, nil
}

func traceVerify(ctx context.Context, s *Service, args map[string]any) (any, *Failure) {
	if f := closedArgs(args, "trace_digest", "trace"); f != nil {
		return nil, f
	}
	recorded, _, f := s.trace(ctx, args)
	if f != nil {
		return nil, f
	}
	again, f := s.rerun(ctx, recorded)
	if f != nil {
		return nil, f
	}
	out := &ReproResult{TraceDigest: recorded.TraceDigest, Again: again.TraceDigest, AsOfTT: recorded.AsOfTT,
		Reproduced: recorded.TraceDigest == again.TraceDigest && len(recorded.Steps) == len(again.Steps), Steps: []StepRepro{}}
	for i, r := range recorded.Steps {
		sr := StepRepro{StepID: r.StepID, Op: r.Op, CallDigest: r.CallDigest, ResultDigest: r.ResultDigest}
		if i < len(again.Steps) {
			a := again.Steps[i]
			sr.CallDigestAgain, sr.ResultDigestAgain = a.CallDigest, a.ResultDigest
			sr.Reproduced = a.StepID == r.StepID && a.Status == r.Status && a.CallDigest == r.CallDigest && a.ResultDigest == r.ResultDigest
		}
		out.Reproduced = out.Reproduced && sr.Reproduced
		out.Steps = append(out.Steps, sr)
	}
	return out, nil
}

func writeBatch(_ context.Context, s *Service, args map[string]any) (any, *Failure) {
	if f := closedArgs(args, "ops"); f != nil {
		return nil, f
	}
	text, f := strArg(args, "ops", true)
	if f != nil {
		return nil, f
	}
	batch, f := parseOps(text)
	if f != nil {
		return nil, f
	}
	tt, err := s.writer.Write(batch...)
	if err != nil {
		return nil, fromWriteError(0, fmt.Errorf("batch refused, nothing written: %w", err))
	}
	return &WriteResult{TT: tt, Ops: len(batch)}, nil
}
