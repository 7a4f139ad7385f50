package fresh

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/eventlog"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/plan"
)

// Build indexes the batches of db written after since, reading them from
// the store's event log (up to its last durable batch).
func Build(db *tgms.DB, since bt.Time) (*Index, error) {
	ix := NewIndex(since)
	last := db.LastTT()
	if last <= since {
		return ix, nil
	}
	path := filepath.Join(db.Dir(), tgms.LogFile)
	var prev bt.Time
	stop := errors.New("stop")
	err := eventlog.ReadFile(path, func(r *eventlog.Record, _ int64) error {
		if r.TT > last {
			return stop
		}
		if r.TT > since {
			if err := ix.Add(db, Batch{TT: r.TT, Seq: r.Seq, Ops: r.Ops}, prev); err != nil {
				return err
			}
		}
		prev = r.TT
		return nil
	})
	var torn *eventlog.TornTailError
	if err != nil && err != stop && !errors.As(err, &torn) {
		return nil, fmt.Errorf("fresh: reading %s: %w", path, err)
	}
	return ix, nil
}

// Options tune a check.
type Options struct {
	// MaxReasons bounds the reasons listed per step (0: 10). The verdict
	// does not depend on it.
	MaxReasons int
}

// Reason is one write that may have changed a step's result: the batch,
// the op, what it touched, and the step whose scope it meets.
type Reason struct {
	Step  string      `json:"step_id"`
	TT    bt.Time     `json:"tt"`
	Seq   uint64      `json:"batch"`
	Op    string      `json:"op"`
	Touch TouchKind   `json:"-"`
	What  string      `json:"touched"`
	Valid bt.Interval `json:"valid"`
}

// StepReport is the verdict on one step.
type StepReport struct {
	StepID string   `json:"step_id"`
	Op     string   `json:"op"`
	AsOfTT bt.Time  `json:"as_of_tt"`
	Fresh  bool     `json:"fresh"`
	Why    string   `json:"why,omitempty"`   // how the scope was taken (frozen pin, failed step, ...)
	Inputs []string `json:"stale_inputs"`    // input steps that may be stale
	More   bool     `json:"more_reasons"`    // Reasons was cut at MaxReasons
	Reason []Reason `json:"reasons"`         //
	Scope  any      `json:"scope,omitempty"` // the scope checked
}

// Report is the verdict on a trace: FRESH when nothing written after its
// belief time meets any step's scope.
type Report struct {
	Fresh     bool         `json:"fresh"`
	AsOfTT    bt.Time      `json:"as_of_tt"`   // the trace's belief time
	CheckedTT bt.Time      `json:"checked_tt"` // the newest batch compared
	Batches   int          `json:"batches_since"`
	Steps     []StepReport `json:"steps"`
}

// Check builds an index of db's batches after the trace's belief time and
// checks the trace against it.
func Check(db *tgms.DB, tr *exec.Trace, opt Options) (*Report, error) {
	ix, err := Build(db, Since(tr))
	if err != nil {
		return nil, err
	}
	return ix.Check(tr, opt), nil
}

// Since is the earliest belief time a trace's steps were pinned at: an
// index built since then can check it.
func Since(tr *exec.Trace) bt.Time {
	since := tr.AsOfTT
	for i := range tr.Steps {
		if e := tr.Steps[i].Evidence; e != nil && e.Basis.AsOfTT > 0 {
			since = min(since, e.Basis.AsOfTT)
		}
	}
	return since
}

// Check compares every indexed batch written after each step's belief
// time with the step's scope. A step is fresh when no batch meets its
// scope and every step it reads is fresh. Batches at or before the index's
// Since are not seen: build the index since Since(tr) or earlier.
func (ix *Index) Check(tr *exec.Trace, opt Options) *Report {
	if opt.MaxReasons <= 0 {
		opt.MaxReasons = 10
	}
	rep := &Report{Fresh: true, AsOfTT: tr.AsOfTT, CheckedTT: ix.last, Batches: ix.batches, Steps: make([]StepReport, len(tr.Steps))}
	stale := map[string]bool{}
	for i := range tr.Steps {
		s := &tr.Steps[i]
		sr := &rep.Steps[i]
		sr.StepID, sr.Op, sr.Inputs, sr.Reason = s.StepID, s.Op, []string{}, []Reason{}
		scope, asOf, why := stepScope(tr, s)
		sr.AsOfTT, sr.Why = asOf, why
		if scope != nil {
			sr.Scope = scope
			ix.reasons(sr, scope, max(asOf, ix.since), opt.MaxReasons)
		}
		for _, d := range inputsOf(s) {
			if stale[d] {
				sr.Inputs = append(sr.Inputs, d)
			}
		}
		sr.Fresh = len(sr.Reason) == 0 && len(sr.Inputs) == 0
		if !sr.Fresh {
			stale[s.StepID] = true
			rep.Fresh = false
		}
	}
	return rep
}

// stepScope is the scope a step is checked against and the belief time
// after which writes count; nil when no write can change the step by
// itself (a compute step, a step pinned at its own as_of_tt).
func stepScope(tr *exec.Trace, s *exec.StepRecord) (*ops.Scope, bt.Time, string) {
	asOf := tr.AsOfTT
	if s.Status != "ok" || s.Evidence == nil || s.Evidence.Scope == nil {
		if s.Error != nil && s.Error.Code == exec.EUpstream {
			return nil, asOf, "skipped: as fresh as the step it waited for"
		}
		if pinnedByPlan(tr, s.StepID, asOf) {
			return nil, asOf, "pinned by its own as_of_tt: later writes cannot change it"
		}
		return failedScope(tr, s), asOf, "the step failed: its scope is taken from its literal arguments"
	}
	sc := *s.Evidence.Scope
	// Normalize writes into the node and edge lists: copy them, so that
	// checks of one trace may run at once.
	sc.Nodes, sc.Edges = slices.Clone(sc.Nodes), slices.Clone(sc.Edges)
	sc.Normalize()
	if !sc.ReadsStore() {
		return nil, asOf, ""
	}
	if s.Evidence.Basis.AsOfTT > 0 {
		asOf = s.Evidence.Basis.AsOfTT
	}
	if pinnedByPlan(tr, s.StepID, asOf) {
		return nil, asOf, "pinned by its own as_of_tt: later writes cannot change it"
	}
	if hasCursor(s) {
		// A page's cursor embeds the belief time it was read at: a re-run at
		// any later belief returns another cursor, whatever the rows.
		return &ops.Scope{All: true}, asOf, "the result is one page and its cursor names belief time " + bt.FormatMicros(asOf) + ": any later batch changes the cursor (read rows_total, or raise limit to get one page)"
	}
	return &sc, asOf, ""
}

// failedScope is the scope of a step that failed. A refusal that only
// the arguments and the data in scope decide (an unknown uid, a bad
// argument, a limit on the result) keeps the scope of its literal
// arguments; one that depends on the whole store (the cost guard, an
// internal error) or a step whose arguments came from references (they are
// not recorded) depends on everything.
func failedScope(tr *exec.Trace, s *exec.StepRecord) *ops.Scope {
	all := &ops.Scope{All: true}
	if s.Error == nil || s.Error.Code == ops.ECost || s.Error.Code == ops.EInternal {
		return all
	}
	raw, ok := planArgs(tr, s.StepID)
	if !ok {
		return all
	}
	if plan.HasRef(raw) {
		// The resolved arguments are not recorded; only an operator that
		// reads no store whatever its arguments (compute) keeps a scope.
		if sc := ops.ScopeOf(s.Op, nil); !sc.ReadsStore() {
			return &sc
		}
		return all
	}
	_, args, err := ops.Prepare(s.Op, raw)
	if err != nil {
		return &ops.Scope{} // refused by the argument check alone
	}
	sc := ops.ScopeOf(s.Op, args)
	return &sc
}

// planArgs returns the literal arguments the plan gives a step.
func planArgs(tr *exec.Trace, stepID string) (map[string]any, bool) {
	steps, _ := tr.Plan["steps"].([]any)
	for _, x := range steps {
		st, _ := x.(map[string]any)
		if st["id"] == stepID {
			args, ok := st["args"].(map[string]any)
			return args, ok
		}
	}
	return nil, false
}

// hasCursor reports whether the step's recorded result is a page with a
// next-page cursor.
func hasCursor(s *exec.StepRecord) bool {
	for _, r := range []map[string]any{s.Result, s.ResultExcerpt} {
		if c, ok := r["cursor"].(string); ok && c != "" {
			return true
		}
	}
	return false
}

// pinnedByPlan reports whether the plan gives the step a literal as_of_tt
// at or before the belief time it ran at: a re-run reads the same belief.
func pinnedByPlan(tr *exec.Trace, stepID string, ran bt.Time) bool {
	args, _ := planArgs(tr, stepID)
	v, ok := args["as_of_tt"].(int64)
	_, cursor := args["cursor"].(string)
	return ok && !cursor && v < bt.OpenEnd && v <= ran
}

// inputsOf lists the steps a step read, each once.
func inputsOf(s *exec.StepRecord) []string {
	out := append([]string(nil), s.DependsOn...)
	if s.Evidence != nil {
		for _, in := range s.Evidence.Provenance.Inputs {
			if !slices.Contains(out, in.StepID) {
				out = append(out, in.StepID)
			}
		}
	}
	return out
}

// reasons appends to sr the touches after asOf that meet scope.
func (ix *Index) reasons(sr *StepReport, sc *ops.Scope, asOf bt.Time, limit int) {
	var found []int32 // the touches listed so far (a touch may be reached through several lists)
	try := func(n int32) bool {
		t := &ix.touches[n]
		if !meets(sc, t) || slices.Contains(found, n) {
			return true
		}
		if len(sr.Reason) == limit {
			sr.More = true
			return false
		}
		found = append(found, n)
		sr.Reason = append(sr.Reason, Reason{Step: sr.StepID, TT: t.TT, Seq: t.Seq, Op: t.Op.String(), Touch: t.Kind, What: t.String(), Valid: t.Hull})
		return true
	}
	scan := func(list []int32) bool {
		for _, n := range ix.after(list, asOf) {
			if !try(n) {
				return false
			}
		}
		return true
	}
	if sc.All {
		for i := range ix.touches {
			if ix.touches[i].TT > asOf && !try(int32(i)) {
				return
			}
		}
		return
	}
	for _, u := range sc.Known {
		if !scan(ix.byUID[u]) {
			return
		}
	}
	for _, n := range sc.Nodes {
		if n.UIDs == nil {
			if !scan(ix.nodes) {
				return
			}
			if !scan(ix.regs) {
				return
			}
			continue
		}
		for _, u := range n.UIDs {
			if !scan(ix.byUID[u]) {
				return
			}
		}
	}
	for _, e := range sc.Edges {
		if e.Endpoints == nil {
			if !scan(ix.edges) {
				return
			}
			continue
		}
		for _, u := range e.Endpoints {
			if !scan(ix.byEnd[u]) {
				return
			}
		}
	}
}

func meets(sc *ops.Scope, t *Touch) bool {
	switch t.Kind {
	case NodeTouch:
		return sc.MeetsNode(t.UID, t.Hull)
	case EdgeTouch:
		return sc.MeetsEdge(t.Edge, t.EID, t.Hull, t.PropsOnly)
	case Registration:
		return sc.MeetsRegistration(t.UID)
	}
	return true
}
