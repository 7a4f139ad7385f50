package reader_test

import (
	"strings"
	"testing"

	"github.com/tgms-go/tgms/agent/reader"
)

// Windows written as weeks named by their first day, the first days of a
// period, the end of a period as a range's bound, times of day in words,
// relative days and restatements, each with its exact window: the ends
// are where a one-day or one-hour slip would show. 3 May 2004 is a
// Monday.
func TestWrittenWindowForms(t *testing.T) {
	lo := collegeEnv.VtMin
	cases := []struct {
		q    string
		a, b int64
	}{
		// A week named by its first day is seven days from it; "after D"
		// starts where D ends.
		{"How many messages were sent in the week beginning Monday 3 May 2004?", us("2004-05-03"), us("2004-05-10")},
		{"How many messages were sent in the week starting 2004-05-03?", us("2004-05-03"), us("2004-05-10")},
		{"How many messages were sent in the week commencing 3 May 2004 (seven days)?", us("2004-05-03"), us("2004-05-10")},
		{"How many messages were sent in the week from Monday 3 May 2004, seven days?", us("2004-05-03"), us("2004-05-10")},
		{"How many messages were sent in the week after 2 May 2004?", us("2004-05-03"), us("2004-05-10")},
		{"How many messages were sent in the week beginning Monday the third of May 2004 (seven days, Monday to Sunday)?", us("2004-05-03"), us("2004-05-10")},
		{"How many messages were sent in the week beginning Monday the third of May 2004 (Monday to Sunday inclusive)?", us("2004-05-03"), us("2004-05-10")},
		// The first or last days or weeks of a period.
		{"How many messages were sent on the first day of June 2004?", us("2004-06-01"), us("2004-06-02")},
		{"How many messages were sent in the first three days of June 2004?", us("2004-06-01"), us("2004-06-04")},
		{"How many messages were sent in the first two weeks of June 2004?", us("2004-06-01"), us("2004-06-15")},
		{"How many messages were sent in the first fortnight of June 2004?", us("2004-06-01"), us("2004-06-15")},
		{"How many messages were sent in the last 10 days of June 2004?", us("2004-06-21"), us("2004-07-01")},
		// "the end of P" ending a range is where P ends.
		{"How many messages were sent from 3 May 2004 until the end of June 2004?", us("2004-05-03"), us("2004-07-01")},
		{"How many messages were sent from 3 May 2004, until end of June 2004?", us("2004-05-03"), us("2004-07-01")},
		{"How many messages were sent before the end of Friday 7 May 2004?", lo, us("2004-05-08")},
		{"How many messages were sent by the end of May 2004?", lo, us("2004-06-01")},
		// A start and an end written apart, and a bound beside a window.
		{"How many nodes can n42 reach, starting on 3 May 2004, before the end of Friday the 7th?", us("2004-05-03"), us("2004-05-08")},
		{"How many messages were sent in May 2004 since 10 May 2004?", us("2004-05-10"), us("2004-06-01")},
		{"How many messages were sent in the five days from the 3rd to the 7th of May 2004 inclusive, by the end of the 7th?", us("2004-05-03"), us("2004-05-08")},
		{"Which 1 day bucket had the most messages in the 7 days from the 3rd to the 9th of May 2004 inclusive?", us("2004-05-03"), us("2004-05-10")},
		// Times of day in words, with their part of the day.
		{"How many messages were sent between seven in the morning and midday on 2004-05-04?", us("2004-05-04T07:00:00Z"), us("2004-05-04T12:00:00Z")},
		{"How many messages were sent between ten in the morning and four in the afternoon (UTC) on 6 May 2004?", us("2004-05-06T10:00:00Z"), us("2004-05-06T16:00:00Z")},
		{"How many messages were sent from a quarter past eight on the evening of 3 May 2004 to 2004-05-04?", us("2004-05-03T20:15:00Z"), us("2004-05-04")},
		{"How many messages were sent from ten past eight in the evening on 3 May 2004 to 2004-05-04?", us("2004-05-03T20:10:00Z"), us("2004-05-04")},
		{"How many messages were sent from 20:30 on the evening of 3 May 2004 to 2004-05-04?", us("2004-05-03T20:30:00Z"), us("2004-05-04")},
		// A time of day before its date, and a relative day.
		{"How many messages were sent from 09:30 UTC on Wednesday 5 May 2004 (that instant included) up to, but not including, 09:30 on the Thursday?", us("2004-05-05T09:30:00Z"), us("2004-05-06T09:30:00Z")},
		{"How many messages were sent from Monday the 3rd to Friday the 7th of May 2004 (up to midnight at the end of the Friday)?", us("2004-05-03"), us("2004-05-08")},
		// Exclusive ends restated.
		{"How many messages were sent from 2004-05-03 up to (not including) 2004-05-10?", us("2004-05-03"), us("2004-05-10")},
		{"How many messages were sent from 2004-05-03 to 2004-05-10 (excl)?", us("2004-05-03"), us("2004-05-10")},
		{"How many messages were sent between 1 May and 1 June 2004 (midnight both)?", us("2004-05-01"), us("2004-06-01")},
		// Compact ranges of whole months and of days.
		{"How many messages were sent over May to July 2004?", us("2004-05-01"), us("2004-08-01")},
		{"How many messages were sent in the week of 2004-05-03 to 2004-05-07?", us("2004-05-03"), us("2004-05-08")},
		// Two consecutive days, with or without their weekdays.
		{"How many messages were sent on 3 and 4 May 2004?", us("2004-05-03"), us("2004-05-05")},
		{"How many messages were sent over Monday and Tuesday, the 3rd and 4th of May 2004?", us("2004-05-03"), us("2004-05-05")},
		{"How many messages were sent between Monday 3 and Friday 7 May 2004?", us("2004-05-03"), us("2004-05-08")},
		// A weekday settles a slashed date, two-digit years too.
		{"How many messages were sent on Mon 5/3/04?", us("2004-05-03"), us("2004-05-04")},
		{"How many messages were sent from Mon 5/3/04 through Fri 5/7/04?", us("2004-05-03"), us("2004-05-08")},
		{"How many messages were sent from Monday 03/05/2004 to 10/05/2004?", us("2004-05-03"), us("2004-05-10")},
		// A restatement in month and day, or in days of the month.
		{"How many messages were sent in the first two weeks of June 2004 (6/1 - 6/14)?", us("2004-06-01"), us("2004-06-15")},
		{"How many messages were sent in the first week of June 2004 (1 to 7)?", us("2004-06-01"), us("2004-06-08")},
		{"How many messages were sent in the week of 5/24/2004 (5/24-5/30)?", us("2004-05-24"), us("2004-05-31")},
		// A window written twice is one window when both agree.
		{"How many messages were sent in Q3 2004 (July–September)?", us("2004-07-01"), us("2004-10-01")},
		{"How many messages were sent in the first week of June 2004 (June 1-7)?", us("2004-06-01"), us("2004-06-08")},
		{"How many messages were sent in the second quarter of 2004 (April, May and June)?", us("2004-04-01"), us("2004-07-01")},
		{"How many messages were sent in H1 2004 (January to June)?", us("2004-01-01"), us("2004-07-01")},
		// A period in a zone written as an offset.
		{"How many messages were sent on 3 May 2004 (UTC+2)?", us("2004-05-02T22:00:00Z"), us("2004-05-03T22:00:00Z")},
		{"How many messages were sent in May 2004 UTC-05:00?", us("2004-05-01T05:00:00Z"), us("2004-06-01T05:00:00Z")},
	}
	for _, c := range cases {
		r, err := reader.Read(c.q, collegeEnv)
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		if r.Window == nil || r.Window.Start != c.a || r.Window.End != c.b {
			t.Errorf("%q: window %+v, want [%s, %s)", c.q, r.Window, reader.FormatTime(c.a), reader.FormatTime(c.b))
		}
	}
}

// Forms that contradict themselves or leave a day to guess are refused.
func TestWrittenWindowRefusals(t *testing.T) {
	for _, q := range []string{
		// The weekday contradicts the date (4 May 2004 is a Tuesday).
		"How many messages were sent on Monday the fourth of May 2004?",
		"How many messages were sent from Monday 3 May 2004 to Friday the 8th?",
		// A restatement that disagrees.
		"How many messages were sent in the week beginning 3 May 2004 (five days)?",
		"How many messages were sent in the first fortnight of June 2004, from the 1st to the 21st?",
		"How many messages were sent in the first week of June 2004 (1 to 8)?",
		"How many messages were sent between 08:00 on 3 May 2004 and 2004-05-05 (midnight both)?",
		// An end both included and excluded.
		"How many messages were sent from 2004-05-03 through 2004-05-10 (excl)?",
		"How many messages were sent from 2004-05-03 through, but not including, 2004-05-10?",
		// An apposition does not settle a slashed date; neither does a
		// month and day whose order nothing settles.
		"How many messages were sent on 03/05/2004 (the third of May)?",
		"How many messages were sent in the week of 2004-05-03 (5/3-5/9)?",
		"How many messages were sent in the week of 5/3/2004 (5/3-5/9)?",
		// A part of the day the time contradicts.
		"How many messages were sent from 08:00 on the evening of 3 May 2004 to 2004-05-04?",
		"How many messages were sent from 3 pm in the morning on 3 May 2004 to 2004-05-04?",
		// Days that need a day the reader would guess.
		"How many messages were sent on Tuesday week?",
		"How many messages were sent on Friday the 7th?",
		"How many messages were sent from Monday 3 May 2004 to the Monday?",
		// Two days apart, or weekdays that are not theirs.
		"How many messages were sent on 3 and 5 May 2004?",
		"How many messages were sent over Monday and Wednesday, the 3rd and 4th of May 2004?",
		// A length before a range that is not the range's.
		"How many messages were sent in the four days from the 3rd to the 7th of May 2004 inclusive?",
		// A bound past the window it restricts is no restatement of it.
		"How many messages were sent by the end of the 31st?",
		// A bucket origin is not a bound of the window.
		"In May 2004, using 7-day buckets counted from 3 May 2004, which bucket had the most messages?",
		// The period, or only its end?
		"How many messages were sent until May 2004 is over?",
		"How many messages were sent at the end of May 2004?",
	} {
		if r, err := reader.Read(q, collegeEnv); err == nil {
			t.Errorf("%q: read as %s, want a refusal", q, r.Line())
		}
	}
}

// "the store as it was at T", "as the archive stood at T": the store's
// record at T is a belief time; "the graph as it was" is not.
func TestStoreAsItWasIsABelief(t *testing.T) {
	for _, q := range []string{
		"How many messages were sent in May 2004, in the store as it was at 2004-11-01 12:00 UTC?",
		"How many messages were sent in May 2004, as the archive stood at 2004-11-01 12:00 UTC?",
		"For the register as it was at 2004-11-01 12:00 UTC, how many messages were sent in May 2004?",
	} {
		r, err := reader.Read(q, collegeEnv)
		if err != nil {
			t.Errorf("%q: %v", q, err)
			continue
		}
		if r.Belief.Now || r.Belief.AsOfTT != us("2004-11-01T12:00:00Z") || r.Window == nil || r.Window.Start != us("2004-05-01") {
			t.Errorf("%q: belief %+v window %+v", q, r.Belief, r.Window)
		}
	}
	q := "How many messages were sent in May 2004, the graph as it was at 2004-11-01 12:00 UTC?"
	if r, err := reader.Read(q, collegeEnv); err == nil && !r.Belief.Now {
		t.Errorf("%q: read with belief %+v", q, r.Belief)
	}
}

// A window restated so that the two disagree is refused, and the refusal
// names both statements.
func TestRestatedWindowsDisagree(t *testing.T) {
	cases := []struct{ q, a, b string }{
		{"How many messages were sent in Q3 2004 (July–October)?", "Q3 2004", "July – October"},
		{"How many messages were sent in the first week of June 2004 (June 1-8)?", "the first week of June 2004", "June 1-8"},
		{"How many messages were sent in the second quarter of 2004 (April to May)?", "the second quarter of 2004", "April to May"},
		{"How many messages were sent in May 2004 (3 May 2004 to 2004-06-10)?", "May 2004", "3 May 2004 to 2004-06-10"},
	}
	for _, c := range cases {
		r, err := reader.Read(c.q, collegeEnv)
		if err == nil {
			t.Errorf("%q: read as %s, want a refusal", c.q, r.Line())
			continue
		}
		if !strings.Contains(err.Error(), c.a) || !strings.Contains(err.Error(), c.b) {
			t.Errorf("%q: refusal %q does not name %q and %q", c.q, err, c.a, c.b)
		}
	}
	for _, q := range []string{
		"How many messages were sent in the second quarter of 2004 (April, June)?",
		"How many messages were sent in the second quarter of 2004 (April, May and July)?",
	} {
		if r, err := reader.Read(q, collegeEnv); err == nil {
			t.Errorf("%q: read as %s, want a refusal", q, r.Line())
		}
	}
}
