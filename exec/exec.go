package exec

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/plan"
)

// Source is what plans run against: operator calls pinned at a belief
// time, and the last durable transaction time. *tgms.DB satisfies it.
type Source interface {
	ops.Source
	LastTT() bt.Time
}

// Limits of one plan run.
const (
	DefaultDeadline = 60 * time.Second
	ExcerptRows     = 200 // results with more rows are stored as an excerpt
	EUpstream       = "E_UPSTREAM"
)

// reductions are the compute functions that turn rows into one number: on
// a truncated input they would be wrong, not partial, so they are refused.
var reductions = []string{"count", "sum", "min", "max", "mean", "median", "ratio", "diff", "percent", "topk"}

// Options tune a run.
type Options struct {
	// AsOf pins the plan at this belief time instead of the store's last
	// one (trace verification re-runs at the recorded pin).
	AsOf bt.Time
	// Deadline bounds the whole plan; 0 means DefaultDeadline.
	Deadline time.Duration
	// Sequential runs one step at a time (for debugging and benchmarks).
	Sequential bool
	// MemBudget bounds the bytes of results (and [*] projections) the whole plan materializes
	// (ops.PayloadBytes, summed over its steps); 0 means
	// ops.DefaultMemBudget (256 MiB).
	MemBudget int64
	// Backend computes the steps' payloads; nil means the in-memory
	// engine behind the Source (ops.NativeBackend). With a backend that
	// runs whole operators (package sqlengine) the Source only gives the
	// last belief time: its Read is never called.
	Backend ops.Backend
}

// StepRecord is one step of a trace.
type StepRecord struct {
	StepID            string         `json:"step_id"`
	Op                string         `json:"op"`
	Status            string         `json:"status"`
	DependsOn         []string       `json:"depends_on"`
	Args              map[string]any `json:"args,omitempty"`
	CallDigest        string         `json:"call_digest,omitempty"`
	ResultDigest      string         `json:"result_digest,omitempty"`
	Result            map[string]any `json:"result,omitempty"`
	ResultExcerpt     map[string]any `json:"result_excerpt,omitempty"`
	RowsTotal         int64          `json:"rows_total"`
	RowsReturned      int64          `json:"rows_returned"`
	Truncated         bool           `json:"truncated"`
	UpstreamTruncated bool           `json:"upstream_truncated"`
	RefTruncations    []RefCut       `json:"ref_truncations,omitempty"`
	Error             *ops.Error     `json:"error,omitempty"`
	Evidence          *Evidence      `json:"evidence,omitempty"`
	inputs            []Input

	full      map[string]any // the whole payload, for later references
	bytes     int64          // its measured size, with the projections its arguments hold
	projBytes int64          // bytes of the [*] projections its arguments hold
}

// RefCut records a [*] projection cut short. Earlier releases cut every
// projection to 10,000 items; projections are now whole, charged to the
// plan's memory budget, and no run records a RefCut (the field is kept so
// that their traces still read).
type RefCut struct {
	Ref  string `json:"ref"`
	From int    `json:"from"`
	To   int    `json:"to"`
}

// Trace is the record of one plan run.
type Trace struct {
	// Version is the trace format (TraceVersion; 0 in a trace written
	// before formats were numbered, read as 1).
	Version     int            `json:"tgms_trace,omitempty"`
	PlanID      string         `json:"plan_id"`
	PlanDigest  string         `json:"plan_digest"`
	Plan        map[string]any `json:"plan"`
	AsOfTT      bt.Time        `json:"as_of_tt"`
	Steps       []StepRecord   `json:"steps"`
	Answer      any            `json:"answer"`
	AnswerError *ops.Error     `json:"answer_error,omitempty"`
	OK          bool           `json:"ok"`
	// Certified says whether the answer is certified by the evidence
	// (AnswerStatus at run time); UncertifiedReason says why not. Both are
	// absent from version 1 traces.
	Certified         *bool  `json:"certified,omitempty"`
	UncertifiedReason string `json:"uncertified_reason,omitempty"`
	// Report is the reporter's answer and the evidence gate's verdicts on
	// it, when one was attached (AttachReport).
	Report      *Report   `json:"report,omitempty"`
	TraceDigest string    `json:"trace_digest"`
	Telemetry   Telemetry `json:"telemetry"`
}

// Telemetry holds timings; no digest covers them.
type Telemetry struct {
	WallMs  float64            `json:"wall_ms"`
	StepsMs map[string]float64 `json:"steps_ms"`
}

// Footprint is the in-memory size of the payloads the trace's steps hold
// for later references, as the plan's memory budget measures them, plus
// its answer.
func (t *Trace) Footprint() int64 {
	var n int64
	for i := range t.Steps {
		if t.Steps[i].full != nil {
			n += t.Steps[i].bytes
		}
	}
	return n + canon.Footprint(t.Answer)
}

// Step returns the record of a step.
func (t *Trace) Step(id string) (*StepRecord, bool) {
	for i := range t.Steps {
		if t.Steps[i].StepID == id {
			return &t.Steps[i], true
		}
	}
	return nil, false
}

// Run executes an admitted plan. It never returns an error for what a
// step does: step failures are in the trace, in the same structured shape
// as plan violations.
func Run(ctx context.Context, src Source, p *plan.Plan, opt Options) *Trace {
	start := time.Now()
	deadline := opt.Deadline
	if deadline <= 0 {
		deadline = DefaultDeadline
	}
	ctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	asOf := opt.AsOf
	if asOf == 0 {
		asOf = src.LastTT()
	}
	planJSON, _ := p.JSON()
	planMap, _ := canon.Parse(planJSON)
	t := &Trace{PlanID: p.ID, PlanDigest: canon.DigestBytes(planJSON), Plan: planMap.(map[string]any), AsOfTT: asOf,
		Telemetry: Telemetry{StepsMs: map[string]float64{}}}
	t.Steps = make([]StepRecord, len(p.Steps))
	index := map[string]int{}
	for i, s := range p.Steps {
		t.Steps[i] = StepRecord{StepID: s.ID, Op: s.Op, DependsOn: append([]string{}, s.DependsOn...)}
		if t.Steps[i].DependsOn == nil {
			t.Steps[i].DependsOn = []string{}
		}
		index[s.ID] = i
	}
	budget := opt.MemBudget
	if budget <= 0 {
		budget = ops.DefaultMemBudget
	}
	var used int64 // bytes held by the results of finished steps
	var mu sync.Mutex
	done := map[string]bool{}
	for len(done) < len(p.Steps) {
		// The ready set, in plan order: steps whose dependencies are done.
		var wave []int
		for i, s := range p.Steps {
			if done[s.ID] {
				continue
			}
			ready := true
			for _, d := range s.DependsOn {
				if !done[d] {
					ready = false
				}
			}
			if ready {
				wave = append(wave, i)
			}
		}
		if len(wave) == 0 { // a cycle: the contract rejects these, but never hang
			for i, s := range p.Steps {
				if !done[s.ID] {
					t.Steps[i].Status = "skipped"
					t.Steps[i].Error = ops.Errorf(ops.EInvalidArg, nil, "step %s is on a dependency cycle", s.ID)
					done[s.ID] = true
				}
			}
			break
		}
		var wg sync.WaitGroup
		for _, i := range wave {
			run := func(i int) {
				defer wg.Done()
				st := time.Now()
				runStep(ctx, src, opt.Backend, p, t, index, i, asOf, max(1, budget-used))
				mu.Lock()
				t.Telemetry.StepsMs[p.Steps[i].ID] = float64(time.Since(st).Microseconds()) / 1000
				mu.Unlock()
			}
			wg.Add(1)
			if opt.Sequential {
				run(i)
			} else {
				go run(i)
			}
		}
		wg.Wait()
		for _, i := range wave {
			r := &t.Steps[i]
			if r.Status == "ok" {
				if used+r.bytes > budget {
					r.Error = ops.Errorf(ops.ELimit, map[string]any{"bytes": r.bytes, "rows": r.RowsTotal, "mem_budget": budget, "used_by_earlier_steps": used,
						"hint": "narrow this step (window, filters), reduce it inside the operator (aggregate_events having/top, compute filter), or give it a limit"},
						"step %s materialized %s (%d rows); with %s held by earlier steps the plan is over its memory budget of %s",
						r.StepID, ops.FormatBytes(r.bytes), r.RowsTotal, ops.FormatBytes(used), ops.FormatBytes(budget))
					r.Status, r.full, r.Result, r.ResultExcerpt, r.Evidence = "failed", nil, nil, nil, nil
					r.CallDigest, r.ResultDigest = "", ""
				} else {
					used += r.bytes
				}
			}
			done[p.Steps[i].ID] = true
		}
	}
	t.answer(p)
	t.OK = t.AnswerError == nil
	for _, s := range t.Steps {
		if s.Status != "ok" {
			t.OK = false
		}
	}
	t.Version = TraceVersion
	certified, why := t.AnswerStatus()
	t.Certified, t.UncertifiedReason = &certified, why
	t.TraceDigest, _ = t.ComputeDigest()
	t.Telemetry.WallMs = float64(time.Since(start).Microseconds()) / 1000
	return t
}

func runStep(ctx context.Context, src Source, b ops.Backend, p *plan.Plan, t *Trace, index map[string]int, i int, asOf bt.Time, mem int64) {
	s := &p.Steps[i]
	r := &t.Steps[i]
	for _, d := range s.DependsOn {
		dep := &t.Steps[index[d]]
		if dep.Status != "ok" {
			r.Status = "skipped"
			r.Error = ops.Errorf(EUpstream, map[string]any{"failed_step": d}, "skipped: step %s did not succeed", d)
			return
		}
	}
	if ctx.Err() != nil {
		r.Status = "skipped"
		r.Error = ops.Errorf(ops.ELimit, map[string]any{"hint": "the plan ran past its deadline; narrow the heavy steps"}, "skipped: plan deadline exceeded")
		return
	}
	args, err := resolveArgs(s.Args, t, index, r)
	if err != nil {
		r.Status, r.Error = "failed", err
		return
	}
	// A [*] projection is a new list the step holds: it is charged to the
	// plan's memory budget like any result.
	if r.projBytes > mem {
		r.Status = "failed"
		r.Error = ops.Errorf(ops.ELimit, map[string]any{"bytes": r.projBytes, "mem_budget_left": mem,
			"hint": "narrow the producing step (window, filters, having/top) so it yields fewer items, or give the plan a larger memory budget"},
			"step %s's [*] projections hold %s, over the %s left of the plan's memory budget", r.StepID, ops.FormatBytes(r.projBytes), ops.FormatBytes(mem))
		return
	}
	mem -= r.projBytes
	spec, ok := ops.Lookup(s.Op)
	if !ok {
		r.Status, r.Error = "failed", ops.Errorf(ops.ENotFound, map[string]any{"allowed": ops.Names()}, "unknown operator %q", s.Op)
		return
	}
	if b == nil {
		b = ops.NativeBackend{Src: src}
	}
	if err := windowOutside(b, asOf, spec, s.Args, args); err != nil {
		r.Status, r.Error = "failed", err
		return
	}
	if _, reads := spec.Args.Properties["as_of_tt"]; reads {
		if v, given := args["as_of_tt"].(int64); !given || v >= bt.OpenEnd {
			args["as_of_tt"] = asOf
		}
	}
	if s.Op == "compute" && r.UpstreamTruncated {
		if fn, _ := args["fn"].(string); slices.Contains(reductions, fn) {
			r.Status = "failed"
			r.Error = ops.Errorf(ops.ELimit, map[string]any{"hint": reductionHint(p, t, index, r)},
				"compute %s would reduce a truncated result to one number, which would be wrong rather than partial", fn)
			return
		}
	}
	// A step that names no limit produces its whole result, so later steps
	// read all of it; only the trace stores an excerpt.
	_, paged := s.Args["limit"]
	env, callErr := ops.ExecuteOn(ctx, b, s.Op, args, ops.ExecOptions{Whole: !paged, MemBudget: mem})
	if callErr != nil {
		r.Status = "failed"
		if oe, ok := callErr.(*ops.Error); ok {
			r.Error = oe
		} else {
			r.Error = ops.Errorf(ops.EInternal, nil, "%v", callErr)
		}
		return
	}
	r.Status = "ok"
	r.Args = env.Args
	r.CallDigest, _ = canon.Digest(map[string]any{"op": s.Op, "args": env.Args, "as_of_tt": env.AsOfTT})
	r.ResultDigest = env.ResultDigest
	r.full, r.bytes = env.Result, env.Bytes+r.projBytes
	r.Truncated, _ = env.Result["truncated"].(bool)
	r.RowsTotal, _ = env.Result["rows_total"].(int64)
	if rows, ok := env.Result["rows"].([]any); ok {
		r.RowsReturned = int64(len(rows))
	}
	r.Result, r.ResultExcerpt = excerpt(env.Result)
	r.Evidence = newEvidence(r, env)
	scope := ops.ScopeOf(s.Op, env.Args)
	r.Evidence.Scope = &scope
	if r.Evidence.Basis.AsOfTT == 0 {
		// A step that reads no store (compute) is about the belief state of
		// the results it read.
		for _, in := range r.inputs {
			if p := t.Steps[index[in.StepID]].Evidence; p != nil {
				r.Evidence.Basis.AsOfTT = max(r.Evidence.Basis.AsOfTT, p.Basis.AsOfTT)
			}
		}
	}
}

// reductionHint says how to repair a reduction over a truncated input:
// when a producing step's own limit cut it, name that limit.
func reductionHint(p *plan.Plan, t *Trace, index map[string]int, r *StepRecord) string {
	seen := map[string]bool{}
	var cutBy func(r *StepRecord) string
	cutBy = func(r *StepRecord) string {
		for _, in := range r.inputs {
			if !in.Incomplete || seen[in.StepID] {
				continue
			}
			seen[in.StepID] = true
			i := index[in.StepID]
			prod := &t.Steps[i]
			if l, ok := p.Steps[i].Args["limit"]; ok && prod.Truncated {
				return fmt.Sprintf("step %s's limit (%v) cut its %d rows to %d: drop that limit (a step without limit passes its whole result on) or read %s.rows_total",
					in.StepID, l, prod.RowsTotal, prod.RowsReturned, in.StepID)
			}
			if h := cutBy(prod); h != "" {
				return h
			}
		}
		return ""
	}
	if h := cutBy(r); h != "" {
		return h
	}
	return "read the producing step's rows_total (exact even when a page is truncated), aggregate inside the engine with aggregate_events, or narrow the window"
}

// excerpt keeps small results whole and cuts large ones to their first
// ExcerptRows rows (the digest still covers the whole payload).
func excerpt(p map[string]any) (whole, cut map[string]any) {
	rows, ok := p["rows"].([]any)
	if !ok || len(rows) <= ExcerptRows {
		return p, nil
	}
	cut = make(map[string]any, len(p))
	for k, v := range p {
		cut[k] = v
	}
	cut["rows"] = rows[:ExcerptRows]
	return nil, cut
}

// resolveArgs substitutes every reference in args with the value it names
// in an earlier step's result.
func resolveArgs(args map[string]any, t *Trace, index map[string]int, r *StepRecord) (map[string]any, *ops.Error) {
	out, err := resolveValue(args, "", t, index, r)
	if err != nil {
		return nil, err
	}
	return out.(map[string]any), nil
}

func resolveValue(v any, path string, t *Trace, index map[string]int, r *StepRecord) (any, *ops.Error) {
	if raw, isRef := plan.AsRef(v); isRef {
		ref, err := plan.ParseRef(raw, false)
		if err != nil {
			return nil, ops.Errorf(ops.EInvalidArg, map[string]any{"path": path}, "%v", err)
		}
		i, ok := index[ref.Step]
		if !ok || t.Steps[i].full == nil {
			return nil, ops.Errorf(ops.EInvalidArg, map[string]any{"path": path}, "$ref %q: step %s has no result", raw, ref.Step)
		}
		val, err := Eval(t.Steps[i].full, ref)
		if err != nil {
			return nil, ops.Errorf(ops.EInvalidArg, map[string]any{"path": path, "hint": "re-plan the producing step (widen its window, change the name) or use a task-supplied uid"}, "%v", err)
		}
		if ref.Projects() {
			r.projBytes += ops.PayloadBytes(val)
		}
		in := Input{StepID: ref.Step, Ref: raw, Arg: path, ResultDigest: t.Steps[i].ResultDigest}
		if reason := incompleteRead(&t.Steps[i], ref); reason != "" {
			in.Incomplete, in.Reason = true, reason
		}
		if in.Incomplete {
			r.UpstreamTruncated = true
		}
		r.inputs = append(r.inputs, in)
		return val, nil
	}
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			rv, err := resolveValue(e, path+"/"+k, t, index, r)
			if err != nil {
				return nil, err
			}
			out[k] = rv
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for j, e := range x {
			rv, err := resolveValue(e, path+"/"+strconv.Itoa(j), t, index, r)
			if err != nil {
				return nil, err
			}
			out[j] = rv
		}
		return out, nil
	}
	return v, nil
}

// Eval evaluates a reference's path against a step result. A [*]
// projection yields the whole list (the executor charges it to the plan's
// memory budget).
func Eval(result map[string]any, ref plan.Ref) (any, error) {
	var cur any = result
	for n, seg := range ref.Path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("$ref %q: %s is not an object", ref.Raw, seg.Name)
		}
		cur, ok = m[seg.Name]
		if !ok {
			return nil, fmt.Errorf("$ref %q: the result has no field %q", ref.Raw, seg.Name)
		}
		switch {
		case seg.Star:
			list, ok := cur.([]any)
			if !ok {
				return nil, fmt.Errorf("$ref %q: %s is not a list", ref.Raw, seg.Name)
			}
			rest := plan.Ref{Raw: ref.Raw, Path: ref.Path[n+1:]}
			if len(rest.Path) == 0 {
				return list, nil
			}
			out := make([]any, len(list))
			for j, e := range list {
				em, ok := e.(map[string]any)
				if !ok {
					return nil, fmt.Errorf("$ref %q: item %d is not an object", ref.Raw, j)
				}
				v, err := Eval(em, rest)
				if err != nil {
					return nil, err
				}
				out[j] = v
			}
			return out, nil
		case seg.Index >= 0:
			list, ok := cur.([]any)
			if !ok {
				return nil, fmt.Errorf("$ref %q: %s is not a list", ref.Raw, seg.Name)
			}
			if seg.Index >= len(list) {
				if len(list) == 0 {
					return nil, fmt.Errorf("$ref %q: %s is empty: the producing step found nothing", ref.Raw, seg.Name)
				}
				return nil, fmt.Errorf("$ref %q: index %d out of range (%d items)", ref.Raw, seg.Index, len(list))
			}
			cur = list[seg.Index]
		}
	}
	return cur, nil
}

// answer evaluates answer_spec.from.
func (t *Trace) answer(p *plan.Plan) {
	ref, err := plan.ParseRef(p.Answer.From, true)
	if err != nil {
		t.AnswerError = ops.Errorf(ops.EInvalidArg, map[string]any{"path": "/answer_spec/from"}, "%v", err)
		return
	}
	r, ok := t.Step(ref.Step)
	if !ok || r.Status != "ok" || r.full == nil {
		t.AnswerError = ops.Errorf(EUpstream, map[string]any{"path": "/answer_spec/from", "failed_step": ref.Step}, "the answer's step %s did not succeed", ref.Step)
		return
	}
	if len(ref.Path) == 0 {
		t.Answer = r.full
		return
	}
	v, err := Eval(r.full, ref)
	if err != nil {
		t.AnswerError = ops.Errorf(ops.EInvalidArg, map[string]any{"path": "/answer_spec/from"}, "%v", err)
		return
	}
	t.Answer = v
}

// FullResult returns a step's whole payload from this run (nil if the step
// did not succeed, or the trace was loaded from a file).
func (t *Trace) FullResult(stepID string) map[string]any {
	if r, ok := t.Step(stepID); ok {
		return r.full
	}
	return nil
}

// Violation renders a step failure in the shape of a plan violation, so a
// repair loop handles runtime errors and static rejections alike.
func (r *StepRecord) Violation(index int) plan.Violation {
	v := plan.Violation{Code: r.Error.Code, Rule: "runtime." + r.Op, StepID: r.StepID, Path: "/steps/" + strconv.Itoa(index) + "/args", Message: r.Error.Message}
	if p, ok := r.Error.Details["path"].(string); ok {
		v.Path += p
	}
	if h, ok := r.Error.Details["hint"].(string); ok {
		v.Hint = h
	}
	return v
}
