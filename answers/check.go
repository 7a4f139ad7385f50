package answers

import (
	"context"
	"fmt"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/fresh"
)

// Status is the freshness of a saved answer's newest generation.
type Status struct {
	Saved  *Saved
	Report *fresh.Report
}

// Check checks the newest generation of each named answer (all of them
// when names is empty) against the batches db has written since, with
// one index for all.
func Check(db *tgms.DB, f *File, names []string, opt fresh.Options) ([]Status, error) {
	if len(names) == 0 {
		names = f.Names()
	}
	var latest []*Saved
	since := db.LastTT()
	for _, n := range names {
		s, ok := f.Latest(n)
		if !ok {
			return nil, fmt.Errorf("no answer named %q is saved (saved: %v)", n, f.Names())
		}
		if s.Erased != "" {
			return nil, erasedAnswer(s)
		}
		latest = append(latest, s)
		since = min(since, fresh.Since(s.Trace))
	}
	ix, err := fresh.Build(db, since)
	if err != nil {
		return nil, err
	}
	out := make([]Status, len(latest))
	for i, s := range latest {
		out[i] = Status{Saved: s, Report: ix.Check(s.Trace, opt)}
	}
	return out, nil
}

// Refresh re-runs the newest generation of a saved answer at db's current
// belief time and appends the result as the next generation; earlier
// generations stay as they are.
func Refresh(ctx context.Context, db *tgms.DB, f *File, name string, now bt.Time) (*Saved, *fresh.Refreshed, error) {
	old, ok := f.Latest(name)
	if !ok {
		return nil, nil, fmt.Errorf("no answer named %q is saved (saved: %v)", name, f.Names())
	}
	if old.Erased != "" {
		return nil, nil, erasedAnswer(old)
	}
	r, err := fresh.Refresh(ctx, db, old.Trace)
	if err != nil {
		return nil, nil, fmt.Errorf("answer %q generation %d: %w", name, old.Generation, err)
	}
	s, err := f.AddGeneration(name, r.New, now)
	if err != nil {
		return nil, nil, err
	}
	return s, r, nil
}

func erasedAnswer(s *Saved) error {
	return fmt.Errorf("answer %q generation %d is erased: it read content that was erased from the store, so only its name, times and digests remain; ask the question again and save the new answer", s.Name, s.Generation)
}
