package reader_test

import (
	"strings"
	"testing"

	"github.com/tgms-go/tgms/agent/reader"
)

// A marker after a range's end ("both days included", "(inclusive)")
// includes the end's whole day; without one the end is excluded.
func TestInclusiveMarkers(t *testing.T) {
	cases := []struct{ q, a, b string }{
		{"How many messages were sent between May 3, 2004 and June 10, 2004, both days included?", "2004-05-03", "2004-06-11"},
		{"How many messages were sent from May 3, 2004 to June 10, 2004 (inclusive)?", "2004-05-03", "2004-06-11"},
		{"How many messages were sent from May 3, 2004 to June 10, 2004, both dates inclusive?", "2004-05-03", "2004-06-11"},
		{"How many messages were sent from May 3, 2004 to June 10, 2004?", "2004-05-03", "2004-06-10"},
		{"How many messages were sent until June 10, 2004, both included?", "2004-04-15T14:56:01Z", "2004-06-11"},
	}
	for _, c := range cases {
		r, err := reader.Read(c.q, collegeEnv)
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		if r.Window == nil || r.Window.Start != us(c.a) || r.Window.End != us(c.b) {
			t.Errorf("%q: %s, want [%s, %s)", c.q, r.Line(), c.a, c.b)
		}
	}
	// "before D inclusive" cannot be both; "both" alone stays unknown.
	for _, q := range []string{
		"How many messages were sent before June 10, 2004 inclusive?",
		"How many messages were sent from May 3, 2004 to June 10, 2004, both?",
	} {
		if r, err := reader.Read(q, collegeEnv); err == nil {
			t.Errorf("%q: read as %s, want a refusal", q, r.Line())
		}
	}
}

// Number words read like numerals in durations, compounds and halves
// included; a ranking count may stand before a superlative.
func TestNumberWords(t *testing.T) {
	cases := []struct {
		q     string
		delta int64
	}{
		{"How many cyclic triangles completed within sixty minutes in May 2004?", 60 * 60_000_000},
		{"How many cyclic triangles completed within thirty-six hours in May 2004?", 36 * 3_600_000_000},
		{"How many cyclic triangles completed within half an hour in May 2004?", 30 * 60_000_000},
		{"How many cyclic triangles completed within half a day in May 2004?", 12 * 3_600_000_000},
	}
	for _, c := range cases {
		r, err := reader.Read(c.q, collegeEnv)
		if err != nil || r.Delta == nil || r.Delta.Micros != c.delta {
			t.Errorf("%q: %v %v, want delta %d", c.q, r, err, c.delta)
		}
	}
	r, err := reader.Read("Who are the three biggest senders in May 2004?", collegeEnv)
	if err != nil || r.K != 3 {
		t.Errorf("three biggest senders: %v %v, want k 3", r, err)
	}
	// "half" without an article, or of a plural unit, is not a duration.
	if r, err := reader.Read("How many cyclic triangles completed within half hours in May 2004?", collegeEnv); err == nil {
		t.Errorf("half hours: read as %s", r.Line())
	}
}

// "i.e." is one discourse word; what it introduces is still read.
func TestRestatementMarker(t *testing.T) {
	r, err := reader.Read("How many nodes can n42 reach in May 2004, i.e. along time-respecting paths?", collegeEnv)
	if err != nil {
		t.Fatalf("i.e.: %v", err)
	}
	if !strings.Contains(strings.Join(r.Ignored, " "), "i.e.") {
		t.Errorf("ignored %v, want i.e. listed", r.Ignored)
	}
	if _, err := reader.Read("How many nodes can n42 reach in May 2004, i.e. not via n7?", collegeEnv); err == nil {
		t.Error("a negation after i.e. was ignored")
	}
}

// A reach question follows paths from its node: a node written where
// paths end is refused, not read as the source.
func TestReachDirection(t *testing.T) {
	for _, q := range []string{
		"How many nodes could have reached n42 in May 2004?",
		"How many nodes can reach n42 in May 2004?",
	} {
		if r, err := reader.Read(q, collegeEnv); err == nil {
			t.Errorf("%q: read as %s, want a refusal", q, r.Line())
		}
	}
	r, err := reader.Read("How many nodes are reachable from n42 in May 2004?", collegeEnv)
	if err != nil || len(r.Nodes) != 1 || r.Nodes[0].Role != "source" {
		t.Errorf("reachable from n42: %v %v", r, err)
	}
}

// A month restated in parentheses after a period takes that period's
// year; the restatement must still agree with the period.
func TestRestatedMonthTakesYear(t *testing.T) {
	wide := reader.Env{VtMin: us("2004-01-01"), VtMax: us("2006-01-01"), IsNode: uidBelow(10)}
	r, err := reader.Read("How many messages were sent in the first half of 2005 (January to June inclusive)?", wide)
	if err != nil || r.Window == nil || r.Window.Start != us("2005-01-01") || r.Window.End != us("2005-07-01") {
		t.Errorf("restated half: %v %v", r, err)
	}
	if r, err := reader.Read("How many messages were sent in the first half of 2005 (January to May inclusive)?", wide); err == nil {
		t.Errorf("a disagreeing restatement was read as %s", r.Line())
	}
	// Outside the parentheses the year is still asked for.
	if _, err := reader.Read("How many messages were sent in the first half of 2005 or in June?", wide); err == nil {
		t.Error("a month outside the restatement took its year")
	}
}

// Fixed-date holidays read as the day they name; "only" right after a
// time restates its window.
func TestHolidaysAndOnly(t *testing.T) {
	cases := []struct{ q, a, b string }{
		{"How many messages were sent on New Year's Day 2005?", "2005-01-01", "2005-01-02"},
		{"How many messages were sent on Christmas Day 2004?", "2004-12-25", "2004-12-26"},
		{"How many messages were sent on New Year's Eve 2004?", "2004-12-31", "2005-01-01"},
		{"How many messages were sent on May 3, 2004 only?", "2004-05-03", "2004-05-04"},
	}
	wide := reader.Env{VtMin: us("2004-01-01"), VtMax: us("2006-01-01"), IsNode: uidBelow(10)}
	for _, c := range cases {
		r, err := reader.Read(c.q, wide)
		if err != nil || r.Window == nil || r.Window.Start != us(c.a) || r.Window.End != us(c.b) {
			t.Errorf("%q: %v %v, want [%s, %s)", c.q, r, err, c.a, c.b)
		}
	}
	for _, q := range []string{
		"How many messages were sent on May 3, 2004 only to n7?", // "only" before a restriction
		"How many messages were sent only by n7 on May 3, 2004?",
		"How many messages were sent at Easter 2005?",
	} {
		if r, err := reader.Read(q, wide); err == nil {
			t.Errorf("%q: read as %s, want a refusal", q, r.Line())
		}
	}
}

// A weekday range beside a window restates its first and last days: read
// when they agree, refused when they do not (after "the week of D" it
// names days of that week, which must start on D).
func TestWeekdayRangeRestatement(t *testing.T) {
	// 2004-05-03 is a Monday.
	ok := []string{
		"How many messages were sent from 3 May 2004 to 7 May 2004 inclusive (Monday to Friday)?",
		"How many messages were sent in the week of May 3, 2004 (Monday to Sunday)?",
		"How many messages were sent from 3 May 2004 to 7 May 2004, both days included, Monday to Friday?",
	}
	for _, q := range ok {
		r, err := reader.Read(q, collegeEnv)
		if err != nil || r.Window == nil || r.Window.Start != us("2004-05-03") {
			t.Errorf("%q: %v %v", q, r, err)
		}
	}
	bad := []string{
		"How many messages were sent from 3 May 2004 to 7 May 2004 inclusive (Tuesday to Friday)?",
		"How many messages were sent in the week of May 4, 2004 (Monday to Friday)?",
		"How many messages were sent in May 2004 (Monday to Friday)?",
	}
	for _, q := range bad {
		if r, err := reader.Read(q, collegeEnv); err == nil {
			t.Errorf("%q: read as %s, want a refusal", q, r.Line())
		}
	}
}

// A slashed date whose day exceeds 12 settles the order of the others in
// the same question; two that disagree settle nothing.
func TestSlashedDateConvention(t *testing.T) {
	cases := []struct{ q, a, b string }{
		{"How many messages were sent from 03/05/2004 to 15/05/2004?", "2004-05-03", "2004-05-15"},
		{"How many messages were sent from 05/03/2004 to 05/15/2004?", "2004-05-03", "2004-05-15"},
	}
	for _, c := range cases {
		r, err := reader.Read(c.q, collegeEnv)
		if err != nil || r.Window == nil || r.Window.Start != us(c.a) || r.Window.End != us(c.b) {
			t.Errorf("%q: %v %v, want [%s, %s)", c.q, r, err, c.a, c.b)
		}
		if err == nil && !strings.Contains(strings.Join(r.Notes, " "), "first, as") {
			t.Errorf("%q: notes %v do not say how the order was settled", c.q, r.Notes)
		}
	}
	for _, q := range []string{
		"How many messages were sent from 03/05/2004 to 06/05/2004?",
		"How many messages were sent from 03/05/2004 to 15/05/2004 or 05/16/2004?",
	} {
		if r, err := reader.Read(q, collegeEnv); err == nil {
			t.Errorf("%q: read as %s, want a refusal", q, r.Line())
		}
	}
}

// "no more than N hops" bounds a path; "more than N hops" is a
// threshold and is refused, never read as a bound.
func TestHopBounds(t *testing.T) {
	for _, q := range []string{
		"How many time-respecting paths go from n1 to n2 with no more than 3 hops in May 2004?",
		"How many time-respecting paths go from n1 to n2 with no longer than 3 hops in May 2004?",
		"How many time-respecting paths go from n1 to n2 with at most 3 hops in May 2004?",
	} {
		r, err := reader.Read(q, collegeEnv)
		if err != nil || !strings.Contains(r.Line(), "at most 3 hops") {
			t.Errorf("%q: %v %v", q, r, err)
		}
	}
	for _, q := range []string{
		"How many time-respecting paths go from n1 to n2 with more than 3 hops in May 2004?",
		"How many time-respecting paths go from n1 to n2 with longer than 3 hops in May 2004?",
		"How many time-respecting paths go from n1 to n2 with fewer than 3 hops in May 2004?",
	} {
		if r, err := reader.Read(q, collegeEnv); err == nil {
			t.Errorf("%q: read as %s, want a refusal", q, r.Line())
		}
	}
}

// A two-digit year in a slashed date takes the century of the store's
// extent.
func TestSlashedShortYear(t *testing.T) {
	r, err := reader.Read("How many messages were sent from 5/3/04 to 5/15/04?", collegeEnv)
	if err != nil || r.Window == nil || r.Window.Start != us("2004-05-03") || r.Window.End != us("2004-05-15") {
		t.Errorf("short years: %v %v", r, err)
	}
	if _, err := reader.Read("How many messages were sent on 5/6/04?", collegeEnv); err == nil || !strings.Contains(err.Error(), "2004") {
		t.Errorf("ambiguous short-year date: %v", err)
	}
}

// A node that is the subject of a passive sending verb receives, and
// the reading says so.
func TestPassiveSubjectReceives(t *testing.T) {
	for _, q := range []string{
		"How many messages was n5 sent in May 2004?",
		"How many ratings had n5 been given in May 2004?",
		"How many messages has n5 been sent in May 2004?",
		"How many messages was node n5 sent in May 2004?",
		"How many times had n5 been rated during May 2004?",
	} {
		r, err := reader.Read(q, collegeEnv)
		if err != nil {
			t.Errorf("%q: %v", q, err)
		} else if r.Intent != "node-event-count" || !strings.Contains(r.Line(), "received by n5") || !strings.Contains(r.Line(), "passive") {
			t.Errorf("%q: read as %s, want the events received by n5, the passive named", q, r.Line())
		}
	}
	// The active voice, past perfect included, still reads.
	for _, q := range []string{
		"How many messages had n5 sent in May 2004?",
		"How many messages did n5 send in May 2004?",
		"How many messages were sent by n5 in May 2004?",
	} {
		r, err := reader.Read(q, collegeEnv)
		if err != nil || !strings.Contains(r.Line(), "sent by n5") {
			t.Errorf("%q: %v %v", q, r, err)
		}
	}
}

// "earliest arrival" asks for a time: with two nodes it is the earliest
// arrival; with one it fits no shape.
func TestEarliestArrivalPhrase(t *testing.T) {
	r, err := reader.Read("What is the earliest arrival from n9 to n5 in May 2004?", collegeEnv)
	if err != nil || r.Intent != "earliest-arrival" || r.Nodes[0].UID != "n9" || r.Nodes[1].UID != "n5" {
		t.Errorf("earliest arrival: %v %v", r, err)
	}
	if r, err := reader.Read("Which node has the earliest arrival from n9 in May 2004?", collegeEnv); err == nil {
		t.Errorf("one-node earliest arrival read as %s", r.Line())
	}
}

// "of P" after a noun naming what is counted makes P the window.
func TestCountedOfPeriod(t *testing.T) {
	for _, q := range []string{
		"Who were the top 3 senders of May 2004?",
		"How many messages of May 2004 were sent by n5?",
	} {
		r, err := reader.Read(q, collegeEnv)
		if err != nil || r.Window == nil || r.Window.Start != us("2004-05-01") || r.Window.End != us("2004-06-01") {
			t.Errorf("%q: %v %v", q, r, err)
		}
	}
	// A part of a period is not the period.
	for _, q := range []string{
		"How many messages were sent on the last day of May 2004?",
		"How many messages were sent at the end of May 2004?",
	} {
		r, err := reader.Read(q, collegeEnv)
		if err == nil && r.Window != nil && r.Window.Start == us("2004-05-01") && r.Window.End == us("2004-06-01") {
			t.Errorf("%q: read as all of May: %s", q, r.Line())
		}
	}
}

// "a quarter of an hour" is fifteen minutes; "the third quarter of 2004"
// stays a quarter of the year.
func TestQuarterOfAnHour(t *testing.T) {
	r, err := reader.Read("How many cyclic triangles completed within a quarter of an hour in May 2004?", collegeEnv)
	if err != nil || r.Delta == nil || r.Delta.Micros != 15*60_000_000 {
		t.Errorf("quarter of an hour: %v %v", r, err)
	}
	r, err = reader.Read("How many messages were sent in the third quarter of 2004?", collegeEnv)
	if err != nil || r.Window == nil || r.Window.Start != us("2004-07-01") {
		t.Errorf("third quarter: %v %v", r, err)
	}
}

// "how much" with a mass noun of events counts them; "how much" alone is
// an amount the store does not hold.
func TestHowMuchMail(t *testing.T) {
	r, err := reader.Read("How much mail did n5 send in May 2004?", collegeEnv)
	if err != nil || !strings.Contains(r.Line(), "number of events sent by n5") {
		t.Errorf("how much mail: %v %v", r, err)
	}
	if r, err := reader.Read("How much did n5 send in May 2004?", collegeEnv); err == nil {
		t.Errorf("how much alone read as %s", r.Line())
	}
}
