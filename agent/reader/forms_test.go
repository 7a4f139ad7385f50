package reader_test

import (
	"strings"
	"testing"

	"github.com/tgms-go/tgms/agent/reader"
)

// Every range and pin form the package documentation lists, with its
// exact window: the boundaries are where a one-token slip (an exclusive
// "through", "after D" from D's start, a looser µs pin) would show.
func TestDocumentedWindowForms(t *testing.T) {
	lo, hi := collegeEnv.VtMin, collegeEnv.VtMax
	cases := []struct {
		q    string
		a, b int64
	}{
		// A lone "through B" ends at the end of B's period.
		{"How many messages were sent through June 10, 2004?", lo, us("2004-06-11")},
		{"How many messages were sent through May 2004?", lo, us("2004-06-01")},
		// "until B" and "before B" end where B starts.
		{"How many messages were sent until June 10, 2004?", lo, us("2004-06-10")},
		{"How many messages were sent before June 10, 2004?", lo, us("2004-06-10")},
		// "after D" starts where D ends; "since D" where it starts.
		{"How many messages were sent after June 10, 2004?", us("2004-06-11"), hi},
		{"How many messages were sent after May 2004?", us("2004-06-01"), hi},
		{"How many messages were sent since June 10, 2004?", us("2004-06-10"), hi},
		{"How many messages were sent after May 3, 2004 until June 10, 2004?", us("2004-05-04"), us("2004-06-10")},
		{"How many messages were sent in the two weeks after June 10, 2004?", us("2004-06-11"), us("2004-06-25")},
		{"How many messages were sent in the 10 days starting May 3, 2004?", us("2004-05-03"), us("2004-05-13")},
		// "A through B", "A to B inclusive", "from A to B", "between A and B".
		{"How many messages were sent from May 3, 2004 through June 10, 2004?", us("2004-05-03"), us("2004-06-11")},
		{"How many messages were sent from May 3, 2004 to June 10, 2004 inclusive?", us("2004-05-03"), us("2004-06-11")},
		{"How many messages were sent from May 3, 2004 to June 10, 2004?", us("2004-05-03"), us("2004-06-10")},
		{"How many messages were sent between May 3, 2004 and June 10, 2004?", us("2004-05-03"), us("2004-06-10")},
		// Compact day ranges name whole days.
		{"How many messages were sent on June 1-7, 2004?", us("2004-06-01"), us("2004-06-08")},
		{"How many messages were sent May 3–9, 2004 inclusive?", us("2004-05-03"), us("2004-05-10")},
		{"How many messages were sent Aug 1 through Aug 31 2004?", us("2004-08-01"), us("2004-09-01")},
		{"How many messages were sent from 5 to 11 July 2004?", us("2004-07-05"), us("2004-07-12")},
		{"How many messages were sent between the 5th and the 11th of July 2004?", us("2004-07-05"), us("2004-07-12")},
		{"How many messages were sent from Monday 5 to Sunday 11 July 2004?", us("2004-07-05"), us("2004-07-12")},
		{"How many messages were sent in the week of Monday 5 to Sunday 11 July 2004?", us("2004-07-05"), us("2004-07-12")},
		{"How many messages were sent in the week of 5 to 11 July 2004?", us("2004-07-05"), us("2004-07-12")},
		{"How many messages were sent from 2004-06-01 - 2004-06-07?", us("2004-06-01"), us("2004-06-08")},
		// Calendar periods.
		{"How many messages were sent in H2 2004?", us("2004-07-01"), us("2005-01-01")},
		{"How many messages were sent in the first half of 2004?", us("2004-01-01"), us("2004-07-01")},
		{"How many messages were sent in 6/2004?", us("2004-06-01"), us("2004-07-01")},
		{"How many messages were sent in July '04?", us("2004-07-01"), us("2004-08-01")},
		{"How many messages were sent in all of 2004?", us("2004-01-01"), us("2005-01-01")},
		{"2004: how many messages were sent?", us("2004-01-01"), us("2005-01-01")},
		{"How many messages were sent on Monday the fifth of July 2004?", us("2004-07-05"), us("2004-07-06")},
		{"How many messages were sent on the twenty-first of July 2004?", us("2004-07-21"), us("2004-07-22")},
		{"How many messages were sent on Monday 05/07/2004?", us("2004-07-05"), us("2004-07-06")},
		// A µs pin beside a written time is the exact instant.
		{"How many messages were sent from 2004-05-03 12:00 UTC (1083585600000001) to 2004-05-04 12:00 UTC (1083672000000000)?", 1083585600000001, 1083672000000000},
		{"How many messages were sent from 2004-05-03 12:00 (UTC) to 2004-05-04?", us("2004-05-03T12:00:00Z"), us("2004-05-04")},
		// Times of day in words, and a range of two times sharing a date.
		{"How many messages were sent between eight o'clock and noon on 3 May 2004?", us("2004-05-03T08:00:00Z"), us("2004-05-03T12:00:00Z")},
		{"How many messages were sent from ten past eight in the evening on 3 May 2004 to midnight on 4 May 2004?", us("2004-05-03T20:10:00Z"), us("2004-05-04")},
		{"How many messages were sent from a quarter to nine in the morning on 3 May 2004 to half past nine in the morning on 3 May 2004?", us("2004-05-03T08:45:00Z"), us("2004-05-03T09:30:00Z")},
		// A window written twice, in agreement, is one window.
		{"How many messages were sent in Q3 2004 (July 1 through September 30, 2004)?", us("2004-07-01"), us("2004-10-01")},
		{"How many messages were sent in the first week of June 2004 (June 1-7)?", us("2004-06-01"), us("2004-06-08")},
	}
	for _, c := range cases {
		r, err := reader.Read(c.q, collegeEnv)
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		if r.Window == nil || r.Window.Start != c.a || r.Window.End != c.b {
			t.Errorf("%q:\n  %s\n  want [%s, %s)", c.q, r.Line(), reader.FormatTime(c.a), reader.FormatTime(c.b))
		}
	}
}

// Pins and written forms that disagree, and weekday names that do not
// match their date, are refused.
func TestDocumentedFormRefusals(t *testing.T) {
	cases := []struct{ q, want string }{
		{"How many messages were sent from 2004-05-03 12:00 UTC (1083585700000000) to 2004-05-04?", "disagree"},
		{"How many messages were sent on Tuesday 5 July 2004?", "is a Monday, not a Tuesday"},
		{"How many messages were sent on Tuesday 05/07/2004?", "fall on a Tuesday"},
		{"How many messages were sent on Mondays in 2004?", "mondays"},
		{"How many messages were sent in July '19?", "which century"},
		{"How many messages were sent in Q3 2004 (July 1 through August 31, 2004)?", "disagree"},
		{"How many messages were sent in the first week of June 2004 (June 1-8)?", "disagree"},
	}
	for _, c := range cases {
		_, err := reader.Read(c.q, collegeEnv)
		if err == nil || !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(c.want)) {
			t.Errorf("%q: got %v, want a refusal mentioning %q", c.q, err, c.want)
		}
	}
}

// A rounded duration with "(N µs)" beside it is pinned to N, and N must
// round to the written figure: half a unit of its last digit either way,
// no more.
func TestDurationPins(t *testing.T) {
	cases := []struct {
		q     string
		delta int64 // 0: refused
	}{
		{"How many cyclic triangles within 1.5 hours (5400000000 µs) happened in May 2004?", 5_400_000_000},
		{"How many cyclic triangles within 1.5 hours (5560000000 µs) happened in May 2004?", 5_560_000_000}, // 1.544 h
		{"How many cyclic triangles within 1.5 hours (5688000000 µs) happened in May 2004?", 0},             // 1.58 h
		{"How many cyclic triangles within 2 hours (9000000000 µs) happened in May 2004?", 9_000_000_000},   // 2.5 h: rounds to 2
		{"How many cyclic triangles within 2 hours (9000000001 µs) happened in May 2004?", 0},               // just over half
		{"How many cyclic triangles within 2 hours (5400000000 µs) happened in May 2004?", 5_400_000_000},   // 1.5 h
		{"How many cyclic triangles within 2 hours (5399999999 µs) happened in May 2004?", 0},               // just under half
		{"How many cyclic triangles within 1.5 hours happened in May 2004?", 5_400_000_000},
	}
	for _, c := range cases {
		r, err := reader.Read(c.q, collegeEnv)
		switch {
		case c.delta == 0 && err == nil:
			t.Errorf("%q: read as %s, want a refusal", c.q, r.Line())
		case c.delta != 0 && (err != nil || r.Delta == nil || r.Delta.Micros != c.delta):
			t.Errorf("%q: %v %v, want δ %d µs", c.q, r, err, c.delta)
		}
	}
}

// The reading records whether the question wrote its end inclusively:
// every inclusive form ("through", "thru", "until ... inclusive", "to
// ... inclusive", day ranges marked inclusive) says so, and every
// exclusive one does not.
func TestWindowInclusiveEnd(t *testing.T) {
	cases := []struct {
		q    string
		incl bool
	}{
		{"How many messages were sent through June 10, 2004?", true},
		{"How many messages were sent thru June 10, 2004?", true},
		{"How many messages were sent until June 10, 2004 inclusive?", true},
		{"How many messages were sent from May 3, 2004 through June 10, 2004?", true},
		{"How many messages were sent from May 3, 2004 to June 10, 2004 inclusive?", true},
		{"How many messages were sent until June 10, 2004?", false},
		{"How many messages were sent before June 10, 2004?", false},
		{"How many messages were sent from May 3, 2004 to June 10, 2004?", false},
		{"How many messages were sent between May 3, 2004 and June 10, 2004?", false},
		{"How many messages were sent after June 10, 2004?", false},
		{"How many messages were sent in May 2004?", false},
	}
	for _, c := range cases {
		r, err := reader.Read(c.q, collegeEnv)
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		if r.Window == nil || r.Window.InclusiveEnd != c.incl {
			t.Errorf("%q: window %+v, want written_end_inclusive %v", c.q, r.Window, c.incl)
		}
	}
}
