package reader_test

import (
	"strings"
	"testing"

	"github.com/tgms-go/tgms/agent/reader"
)

// A slashed belief date one of whose readings is before the store's
// first transaction is read in the other order; a valid time, a store
// whose first transaction is unknown, or two possible readings are not
// settled that way.
func TestSlashedBeliefDates(t *testing.T) {
	env := collegeEnv
	env.FirstTT = us("2026-06-01T09:00:00Z")
	cases := []struct {
		q  string
		tt int64
	}{
		// 11 March 2026 is before the first transaction: 3 November.
		{"How many messages did n12 send in June 2004, as of transaction time 03/11/2026?", us("2026-11-04") - 1},
		{"How many messages did n12 send in June 2004, as the store believed at 14:00 UTC on 11/03/2026?", us("2026-11-03T14:00:00Z")},
		// The day of the first transaction is possible in both readings'
		// sense only when its end is after it: 1 June 2026 is.
		{"How many messages did n12 send in June 2004, as of transaction time 06/01/2026?", us("2026-06-02") - 1},
	}
	for _, c := range cases {
		r, err := reader.Read(c.q, env)
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		if r.Belief.Now || r.Belief.AsOfTT != c.tt {
			t.Errorf("%q: belief %+v, want tt %s", c.q, r.Belief, reader.FormatTime(c.tt))
		}
		if !strings.Contains(r.Line(), "before the store's first transaction") {
			t.Errorf("%q: the reading does not say how the date was settled: %s", c.q, r.Line())
		}
	}
	for _, c := range []struct {
		q   string
		env reader.Env
	}{
		{"How many messages did n12 send in June 2004, as of transaction time 08/09/2026?", env},
		{"How many messages did n12 send in June 2004, as of transaction time 03/11/2026?", collegeEnv},
		{"How many messages did n12 send on 03/11/2004?", env},
		{"How many messages did n12 send in June 2004, as of transaction time 03/04/2026?", env},
	} {
		if r, err := reader.Read(c.q, c.env); err == nil {
			t.Errorf("%q: read as %s, want a refusal", c.q, r.Line())
		}
	}
}
