package reader_test

import (
	"strings"
	"testing"

	"github.com/tgms-go/tgms/agent/reader"
)

// A clause of a reach question saying each node passes on only what it
// has already received states the time-respecting model and restricts
// nothing; the same clause elsewhere, or one with a negation, a future,
// a gap or a node, is refused.
func TestModelClauseRestates(t *testing.T) {
	for _, q := range []string{
		"How many nodes could n5 reach in June 2004, assuming that every node relays only what it has already received?",
		"Which node does n5 reach first in June 2004, on the assumption that each recipient forwards messages they have previously received?",
	} {
		r, err := reader.Read(q, collegeEnv)
		if err != nil {
			t.Errorf("%q: %v", q, err)
			continue
		}
		if !strings.Contains(strings.Join(r.Ignored, "|"), "received") {
			t.Errorf("%q: ignored %q, want the clause listed", q, r.Ignored)
		}
	}
	for _, q := range []string{
		"How many messages did n5 send in June 2004, assuming that every node relays only what it has already received?",
		"How many nodes could n5 reach in June 2004, assuming that every node relays what it has not received?",
		"How many nodes could n5 reach in June 2004, assuming that every node relays what it will have received?",
		"How many nodes could n5 reach in June 2004, assuming that every node relays what it has received within an hour?",
		"How many nodes could n5 reach in June 2004, assuming that n7 relays only what it has already received?",
	} {
		if r, err := reader.Read(q, collegeEnv); err == nil {
			t.Errorf("%q: read as %s, want a refusal", q, r.Line())
		}
	}
}
