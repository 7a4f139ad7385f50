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

// A slashed date with no belief phrase before it, both of whose readings
// are after every valid time of the store, can only be a belief time: as
// one, the reading before the store's first transaction is set aside.
// Read as a valid time, or with both readings possible, inside the
// store's extent or with no first transaction known, it is refused.
func TestSlashedLateDates(t *testing.T) {
	env := collegeEnv
	env.FirstTT = us("2026-06-01T09:00:00Z")
	for _, c := range []struct {
		q  string
		tt int64
	}{
		{"How many versions of n12 were believed at 14:00 UTC on 03/11/2026?", us("2026-11-03T14:00:00Z")},
		{"At 09:30 UTC on 11/03/2026, how many versions of n12 did the store hold?", us("2026-11-03T09:30:00Z")},
	} {
		r, err := reader.Read(c.q, env)
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		if r.Belief.Now || r.Belief.AsOfTT != c.tt {
			t.Errorf("%q: belief %+v, want tt %s", c.q, r.Belief, reader.FormatTime(c.tt))
		}
		if !strings.Contains(r.Line(), "can only be a belief time") {
			t.Errorf("%q: the reading does not say how the date was settled: %s", c.q, r.Line())
		}
	}
	for _, c := range []struct {
		q   string
		env reader.Env
	}{
		// Read as valid times.
		{"How many messages did n12 send before 03/11/2026?", env},
		{"Which nodes were neighbours of n12 at 14:00 UTC on 03/11/2026?", env},
		// Both readings after the first transaction.
		{"How many versions of n12 were believed at 14:00 UTC on 08/09/2026?", env},
		// No first transaction known; a date inside the store's extent.
		{"How many versions of n12 were believed at 14:00 UTC on 03/11/2026?", collegeEnv},
		{"How many versions of n12 were believed at 14:00 UTC on 03/06/2004?", env},
	} {
		if r, err := reader.Read(c.q, c.env); err == nil {
			t.Errorf("%q: read as %s, want a refusal", c.q, r.Line())
		}
	}
}

// One writer keeps one convention within a question: a slashed date
// settled by a weekday or as a belief time settles the others; two
// settled in different orders, or a weekday neither reading falls on,
// are refused, naming what disagrees.
func TestSlashedOneConvention(t *testing.T) {
	env := collegeEnv
	env.FirstTT = us("2026-06-01T09:00:00Z")
	for _, c := range []struct {
		q          string
		start, end int64
	}{
		{"As the store believed at 14:00 UTC on 03/11/2026, how many messages did n12 send on 07/06/2004?", us("2004-06-07"), us("2004-06-08")},
		{"How many messages did n12 send between Monday 07/06/2004 and 09/06/2004?", us("2004-06-07"), us("2004-06-09")},
	} {
		r, err := reader.Read(c.q, env)
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		if r.Window == nil || r.Window.Start != c.start || r.Window.End != c.end {
			t.Errorf("%q: read as %s", c.q, r.Line())
		}
	}
	for _, c := range []struct{ q, why string }{
		{"As the store believed at 14:00 UTC on 03/11/2026, how many messages did n12 send between 07/06/2004 and 6/20/2004?", "both orders"},
		{"How many messages did n12 send between Sunday 07/06/2004 and 09/06/2004?", "7 June 2004 is a Monday"},
		{"How many messages did n12 send on 07/06/2004?", "7 June 2004 or 6 July 2004"},
	} {
		r, err := reader.Read(c.q, env)
		if err == nil {
			t.Errorf("%q: read as %s, want a refusal", c.q, r.Line())
		} else if !strings.Contains(err.Error(), c.why) {
			t.Errorf("%q: refused with %v, want it to say %q", c.q, err, c.why)
		}
	}
}
