package tools

import (
	"context"
	"errors"

	"github.com/tgms-go/tgms/answers"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/fresh"
	"github.com/tgms-go/tgms/ops"
)

// SavedView is one generation of a saved answer as tools return it.
type SavedView struct {
	Name        string  `json:"name"`
	Generation  int     `json:"generation"`
	AsOfTT      bt.Time `json:"as_of_tt"` // the belief time it was computed at
	SavedAt     bt.Time `json:"saved_at"` // wall clock, µs
	TraceDigest string  `json:"trace_digest"`
	Answer      any     `json:"answer"`
}

// AnswersList is answers_list's output: every generation of every name.
type AnswersList struct {
	Answers []SavedView `json:"answers"`
}

// AnswerStatus is the freshness of one saved answer's newest generation.
type AnswerStatus struct {
	SavedView
	Check CheckResult `json:"check"`
}

// AnswersCheck is answers_check's output.
type AnswersCheck struct {
	Stale   int            `json:"stale"` // answers that may be stale
	Answers []AnswerStatus `json:"answers"`
}

// AnswerRefresh is answers_refresh's output: the new generation and the
// old and new runs side by side.
type AnswerRefresh struct {
	Saved   SavedView     `json:"saved"`
	Refresh RefreshResult `json:"refresh"`
}

var nameSchema = Schema{"type": "string", "minLength": 1, "description": "the saved answer's name"}

// answerTools are the saved-answer tools: list and check always, save and
// refresh (which append to the store directory's answers.log) only with
// writes.
func answerTools(writes bool, traceRef Schema) []*Tool {
	out := []*Tool{
		{
			Name:        "answers_list",
			Description: "List the answers saved in the store directory ('tgms answers save'): every generation of every name, with the belief time it was computed at, when it was saved, its trace digest and its answer.",
			Input:       object("no arguments", Schema{}),
			Output:      inferred[AnswersList](),
			run:         answersList,
		},
		{
			Name:        "answers_check",
			Description: "Check the newest generation of every saved answer (or the named ones) for freshness, as trace_check does: FRESH, or POSSIBLY STALE with the writes that may have changed it.",
			Input:       object("the answers to check (all when names is absent)", Schema{"names": Schema{"type": "array", "items": nameSchema}}),
			Output:      inferred[AnswersCheck](),
			Heavy:       true,
			run:         answersCheck,
		},
	}
	if writes {
		out = append(out,
			&Tool{
				Name:        "answers_save",
				Description: "Save a trace (by digest of one this server holds, or inline) under a new name as generation 1, in the store directory's append-only answers.log. A name already saved is refused: refresh it instead.",
				Input:       object("a name and the trace to save", merge(traceRef, Schema{"name": nameSchema}), "name"),
				Output:      inferred[SavedView](),
				Writes:      true,
				Heavy:       true,
				run:         answersSave,
			},
			&Tool{
				Name:        "answers_refresh",
				Description: "Re-run a saved answer's newest generation at the current belief time and append it as the next generation (earlier generations are never edited); shows old and new side by side.",
				Input:       object("the answer to refresh", Schema{"name": nameSchema}, "name"),
				Output:      inferred[AnswerRefresh](),
				Writes:      true,
				Heavy:       true,
				run:         answersRefresh,
			},
		)
	}
	return out
}

func savedView(s *answers.Saved) SavedView {
	if s.Trace == nil { // erased
		return SavedView{Name: s.Name, Generation: s.Generation, AsOfTT: s.AsOfTT, SavedAt: s.SavedAt, TraceDigest: s.TraceDigest}
	}
	return SavedView{Name: s.Name, Generation: s.Generation, AsOfTT: s.AsOfTT, SavedAt: s.SavedAt, TraceDigest: s.TraceDigest, Answer: s.Trace.Answer}
}

// answersFile reads the store directory's saved answers afresh.
func (s *Service) answersFile() (*answers.File, *Failure) {
	if s.db == nil {
		return nil, fail(statusUnavailable, ETrace, "answers.none", "", "", nil, "this server's store has no directory to keep saved answers in")
	}
	f, err := answers.Open(s.db.Dir())
	if err != nil {
		var ce *answers.CorruptionError
		if errors.As(err, &ce) {
			return nil, fail(statusConflict, ETrace, "answers.corrupt", "", "run 'tgms answers list' on the store to see the damage", nil, "%v", err)
		}
		return nil, fail(statusInternal, ops.EInternal, "answers.read", "", "", nil, "%v", err)
	}
	return f, nil
}

func answersList(_ context.Context, s *Service, args map[string]any) (any, *Failure) {
	if f := closedArgs(args); f != nil {
		return nil, f
	}
	f, fl := s.answersFile()
	if fl != nil {
		return nil, fl
	}
	out := &AnswersList{Answers: []SavedView{}}
	for _, n := range f.Names() {
		for _, g := range f.Generations(n) {
			out.Answers = append(out.Answers, savedView(g))
		}
	}
	return out, nil
}

func answersCheck(_ context.Context, s *Service, args map[string]any) (any, *Failure) {
	if f := closedArgs(args, "names"); f != nil {
		return nil, f
	}
	var names []string
	if v, ok := args["names"]; ok && v != nil {
		list, ok := v.([]any)
		if !ok {
			return nil, badArg("/names", "", "names must be an array of strings")
		}
		for _, x := range list {
			n, ok := x.(string)
			if !ok || n == "" {
				return nil, badArg("/names", "", "names must be non-empty strings")
			}
			names = append(names, n)
		}
	}
	f, fl := s.answersFile()
	if fl != nil {
		return nil, fl
	}
	sts, err := answers.Check(s.db, f, names, fresh.Options{})
	if err != nil {
		return nil, fail(statusNotFound, ETrace, "answers.unknown", "/names", "", f.Names(), "%v", err)
	}
	out := &AnswersCheck{Answers: []AnswerStatus{}}
	for _, st := range sts {
		c := checkResult(st.Saved.TraceDigest, st.Report)
		if !c.Fresh {
			out.Stale++
		}
		out.Answers = append(out.Answers, AnswerStatus{SavedView: savedView(st.Saved), Check: *c})
	}
	return out, nil
}

func answersSave(ctx context.Context, s *Service, args map[string]any) (any, *Failure) {
	if f := closedArgs(args, "name", "trace_digest", "trace"); f != nil {
		return nil, f
	}
	name, fl := strArg(args, "name", true)
	if fl != nil {
		return nil, fl
	}
	ref := map[string]any{}
	for _, k := range []string{"trace_digest", "trace"} {
		if v, ok := args[k]; ok {
			ref[k] = v
		}
	}
	tr, fl := s.checked(ctx, ref)
	if fl != nil {
		return nil, fl
	}
	s.answersMu.Lock()
	defer s.answersMu.Unlock()
	f, fl := s.answersFile()
	if fl != nil {
		return nil, fl
	}
	saved, err := f.Save(name, tr, now())
	if err != nil {
		return nil, fail(statusConflict, EWrite, "answers.save", "/name", "pick another name, or refresh the saved one", f.Names(), "%v", err)
	}
	return savedView(saved), nil
}

func answersRefresh(ctx context.Context, s *Service, args map[string]any) (any, *Failure) {
	if f := closedArgs(args, "name"); f != nil {
		return nil, f
	}
	name, fl := strArg(args, "name", true)
	if fl != nil {
		return nil, fl
	}
	s.answersMu.Lock()
	defer s.answersMu.Unlock()
	f, fl := s.answersFile()
	if fl != nil {
		return nil, fl
	}
	if _, ok := f.Latest(name); !ok {
		return nil, fail(statusNotFound, ETrace, "answers.unknown", "/name", "", f.Names(), "no answer named %q is saved", name)
	}
	saved, r, err := answers.Refresh(ctx, s.db, f, name, now())
	if err != nil {
		return nil, fail(statusUnprocessed, EWrite, "answers.refresh", "/name", "", nil, "%v", err)
	}
	s.traces.Put(r.New)
	return &AnswerRefresh{Saved: savedView(saved), Refresh: *refreshResult(r)}, nil
}
