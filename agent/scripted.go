package agent

import (
	"context"
	"regexp"

	"github.com/tgms-go/tgms/engine"
)

// Scripted is a planner that emits fixed plans, one per call, the way a
// recorded model session would; when the script runs out, repairs fall
// back to the rule planner's deterministic repair (RepairPlan). The demo
// uses it to show the contracts catching a naive plan.
type Scripted struct {
	Plans [][]byte
	next  int
}

// Plan emits the next scripted plan.
func (s *Scripted) Plan(context.Context, Question) ([]byte, error) { return s.emit(nil, nil) }

// Repair emits the next scripted plan, or repairs the previous one.
func (s *Scripted) Repair(_ context.Context, _ Question, previous, feedback []byte) ([]byte, error) {
	return s.emit(previous, feedback)
}

func (s *Scripted) emit(previous, feedback []byte) ([]byte, error) {
	if s.next < len(s.Plans) {
		s.next++
		return s.Plans[s.next-1], nil
	}
	if previous == nil {
		return nil, ErrCannotRepair
	}
	return RepairPlan(previous, feedback)
}

var tokenRE = regexp.MustCompile(`[A-Za-z0-9_][A-Za-z0-9_.:\-]*[A-Za-z0-9_]|[A-Za-z0-9_]`)

// MentionedUIDs lists, in order of first mention, the words of a question
// that are node uids of the store: the identifiers a user supplies by
// writing them.
func MentionedUIDs(db Store, text string) []string {
	out := []string{}
	seen := map[string]bool{}
	db.Read(db.LastTT(), func(r engine.Reader) error {
		for _, tok := range tokenRE.FindAllString(text, -1) {
			if seen[tok] {
				continue
			}
			seen[tok] = true
			if _, ok := r.Node(tok); ok {
				out = append(out, tok)
			}
		}
		return nil
	})
	return out
}
