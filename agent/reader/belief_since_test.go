package reader_test

import (
	"strings"
	"testing"

	"github.com/tgms-go/tgms/agent/reader"
)

// "including anything recovered since" asks for every write up to now:
// beside the latest belief it restates it; beside an earlier belief
// time, written before or read from a time after every valid time, it
// is refused.
func TestWrittenSinceRestatesLatest(t *testing.T) {
	for _, q := range []string{
		"How many messages did n12 send in June 2004, including anything restored since?",
		"How many versions of n12 does the store hold now, with everything that has been amended since then?",
	} {
		r, err := reader.Read(q, collegeEnv)
		if err != nil {
			t.Errorf("%q: %v", q, err)
			continue
		}
		if !r.Belief.Now {
			t.Errorf("%q: belief %+v, want the latest", q, r.Belief)
		}
		if !strings.Contains(strings.Join(r.Ignored, "|"), "since") {
			t.Errorf("%q: ignored %q, want the restatement listed", q, r.Ignored)
		}
	}
	env := collegeEnv
	env.FirstTT = us("2026-06-01T09:00:00Z")
	for _, q := range []string{
		"How many messages did n12 send in June 2004, as of transaction time 2026-07-01T10:00:00Z, including anything restored since?",
		"How many versions of n12 were believed at 10:00 UTC on 1 July 2026, including anything corrected since?",
	} {
		if r, err := reader.Read(q, env); err == nil {
			t.Errorf("%q: read as %s, want a refusal", q, r.Line())
		}
	}
}
