package tools

import (
	"context"
	"time"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/fresh"
	"github.com/tgms-go/tgms/ops"
)

// Verdicts of a freshness check.
const (
	Fresh         = "FRESH"
	PossiblyStale = "POSSIBLY STALE"
)

// CheckResult is trace_check's output: the verdict on every step, with
// each write that may have changed it.
type CheckResult struct {
	TraceDigest string             `json:"trace_digest"`
	Verdict     string             `json:"verdict"` // FRESH or POSSIBLY STALE
	Fresh       bool               `json:"fresh"`
	AsOfTT      bt.Time            `json:"as_of_tt"`      // the trace's belief time
	CheckedTT   bt.Time            `json:"checked_tt"`    // the newest batch compared
	Batches     int                `json:"batches_since"` // batches written after the belief time
	StaleSteps  int                `json:"stale_steps"`
	Steps       []fresh.StepReport `json:"steps"`
}

// RefreshResult is trace_refresh's output: the old and the new run side by
// side. The new trace is kept like run_plan's (cite it by digest).
type RefreshResult struct {
	TraceDigest    string             `json:"trace_digest"`
	NewDigest      string             `json:"new_trace_digest"`
	NewTraceURI    string             `json:"new_trace_uri"`
	AsOfTT         bt.Time            `json:"as_of_tt"`
	NewAsOfTT      bt.Time            `json:"new_as_of_tt"`
	OldAnswer      any                `json:"old_answer"`
	NewAnswer      any                `json:"new_answer"`
	AnswerChanged  bool               `json:"answer_changed"`
	Changed        bool               `json:"changed"` // some step's result or status, or the answer
	Steps          []fresh.StepChange `json:"steps"`
	NewStepsDetail []StepView         `json:"new_steps"`
}

// freshTools are trace_check and trace_refresh.
func freshTools(traceRef Schema) []*Tool {
	return []*Tool{
		{
			Name:        "trace_check",
			Description: "Say whether anything the store wrote after a trace's belief time could change its answer. Compares every later batch with each step's dependency scope (recorded in the trace). FRESH: nothing written since could change it. POSSIBLY STALE: each reason names the batch (transaction time), the write op, the entity and valid-time interval it touched, and the step whose scope it meets; a step reading a stale step is stale too. Never calls an answer fresh when a write could change it; trace_refresh tells whether it actually did. A whole trace sent inline must reproduce first.",
			Input:       object("the trace to check", traceRef),
			Output:      inferred[CheckResult](),
			Heavy:       true,
			run:         traceCheck,
		},
		{
			Name:        "trace_refresh",
			Description: "Re-run a trace's plan at the store's current belief time and show the old and new results side by side: every step's status and result digest, the old and new answer, and whether the answer changed. Writes nothing to the store; the new trace is kept on this server by its digest.",
			Input:       object("the trace to refresh", traceRef),
			Output:      inferred[RefreshResult](),
			Heavy:       true,
			run:         traceRefresh,
		},
	}
}

// checked finds the trace a call names and makes sure its recorded
// scopes can be trusted: a trace sent inline must reproduce.
func (s *Service) checked(ctx context.Context, args map[string]any) (*exec.Trace, *Failure) {
	if f := closedArgs(args, "trace_digest", "trace"); f != nil {
		return nil, f
	}
	if s.db == nil {
		return nil, fail(statusUnavailable, ETrace, "trace.fresh", "", "", nil, "this server's store keeps no event log to check freshness against")
	}
	recorded, full, f := s.trace(ctx, args)
	if f != nil {
		return nil, f
	}
	if full.TraceDigest != recorded.TraceDigest {
		return nil, fail(statusConflict, ETrace, "trace.reproduce", "/trace", "its recorded scopes cannot be trusted; run the plan again", nil,
			"the trace %s does not reproduce at tt %d (got %s)", recorded.TraceDigest, recorded.AsOfTT, full.TraceDigest)
	}
	if len(recorded.Steps) == 0 || recorded.Plan == nil {
		return nil, badArg("/trace", "send a trace as run_plan or 'tgms plan run --trace' wrote it", "the trace has no steps or no plan")
	}
	return recorded, nil
}

func traceCheck(ctx context.Context, s *Service, args map[string]any) (any, *Failure) {
	tr, f := s.checked(ctx, args)
	if f != nil {
		return nil, f
	}
	ix, err := s.freshIndex(fresh.Since(tr))
	if err != nil {
		return nil, fail(statusInternal, ops.EInternal, "trace.fresh", "", "", nil, "checking freshness: %v", err)
	}
	return checkResult(tr.TraceDigest, ix.Check(tr, fresh.Options{})), nil
}

// freshIndex is an index of the batches written after since, up to the
// store's last durable batch. The service keeps the last one it built and
// reuses it while no batch has been written since and it reaches back far
// enough; otherwise it rebuilds from the log, back to the earlier of since
// and the kept index's start, so that traces of different belief times
// checked in turn do not rebuild it each time.
func (s *Service) freshIndex(since bt.Time) (*fresh.Index, error) {
	s.freshMu.Lock()
	defer s.freshMu.Unlock()
	last := s.db.LastTT() // read before building: the index reaches at least this far
	if s.freshIx != nil && s.freshUpTo == last && s.freshIx.Since() <= since {
		return s.freshIx, nil
	}
	if s.freshIx != nil {
		since = min(since, s.freshIx.Since())
	}
	ix, err := fresh.Build(s.db, since)
	if err != nil {
		return nil, err
	}
	s.freshIx, s.freshUpTo = ix, last
	return ix, nil
}

func checkResult(digest string, rep *fresh.Report) *CheckResult {
	out := &CheckResult{TraceDigest: digest, Verdict: Fresh, Fresh: rep.Fresh, AsOfTT: rep.AsOfTT, CheckedTT: rep.CheckedTT,
		Batches: rep.Batches, Steps: rep.Steps}
	for _, st := range rep.Steps {
		if !st.Fresh {
			out.StaleSteps++
		}
	}
	if !rep.Fresh {
		out.Verdict = PossiblyStale
	}
	if out.Steps == nil {
		out.Steps = []fresh.StepReport{}
	}
	return out
}

func traceRefresh(ctx context.Context, s *Service, args map[string]any) (any, *Failure) {
	tr, f := s.checked(ctx, args)
	if f != nil {
		return nil, f
	}
	r, err := fresh.Refresh(ctx, s.store, tr)
	if err != nil {
		return nil, badArg("/trace", "", "%v", err)
	}
	s.traces.Put(r.New)
	return refreshResult(r), nil
}

func refreshResult(r *fresh.Refreshed) *RefreshResult {
	out := &RefreshResult{TraceDigest: r.Old.TraceDigest, NewDigest: r.New.TraceDigest, NewTraceURI: TraceURI(r.New.TraceDigest),
		AsOfTT: r.Old.AsOfTT, NewAsOfTT: r.New.AsOfTT, OldAnswer: r.Old.Answer, NewAnswer: r.New.Answer,
		AnswerChanged: r.AnswerChanged, Changed: r.Changed, Steps: r.Steps, NewStepsDetail: Steps(r.New)}
	if out.Steps == nil {
		out.Steps = []fresh.StepChange{}
	}
	return out
}

// dbOf is the store as a *tgms.DB, when it is one: freshness and saved
// answers read its directory (the event log, answers.log).
func dbOf(st Store) *tgms.DB {
	db, _ := st.(*tgms.DB)
	return db
}

// now is the wall clock in µs (saved answers record when they were saved).
func now() bt.Time { return time.Now().UnixMicro() }
