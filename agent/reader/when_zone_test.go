package reader_test

import (
	"strings"
	"testing"

	"github.com/tgms-go/tgms/agent/reader"
)

// Periods read at a named zone's offset, "before P is over", a window
// pointed back at ("before the day was over"), a period's possessive and
// the parts of a period ("which day of P"), each with its exact window.
// 4 May 2004 is a Tuesday.
func TestZonesAndPeriodWindows(t *testing.T) {
	cases := []struct {
		q    string
		a, b int64
	}{
		// Lisbon keeps summer time in May (UTC+1); Seoul is UTC+9.
		{"How many messages were sent on 7 May 2004 in Lisbon time?", us("2004-05-06T23:00:00Z"), us("2004-05-07T23:00:00Z")},
		{"How many messages were sent in June 2004, Seoul time (UTC+9)?", us("2004-05-31T15:00:00Z"), us("2004-06-30T15:00:00Z")},
		{"How many messages were sent on 9 June 2004 in Seoul time (UTC+9, no DST in June)?", us("2004-06-08T15:00:00Z"), us("2004-06-09T15:00:00Z")},
		{"How many messages were sent in August 2004, Buenos Aires time?", us("2004-08-01T03:00:00Z"), us("2004-09-01T03:00:00Z")},
		// "before P is over" speaks from inside P.
		{"How many messages were sent before June 2004 is over?", us("2004-06-01"), us("2004-07-01")},
		{"How many messages were sent between Tuesday 4 May 2004 and Thursday 6 May 2004, before the week was out?", us("2004-05-04"), us("2004-05-06")},
		{"How many messages did n12 send on 7 May 2004, before the day was over?", us("2004-05-07"), us("2004-05-08")},
		// "Tuesday week" counted from a day the question writes.
		{"How many messages were sent on Tuesday week, counting from Thursday 6 May 2004?", us("2004-05-18"), us("2004-05-19")},
		{"How many messages were sent on Monday week from Wednesday 5 May 2004 (that is the Monday after next, the 17th)?", us("2004-05-17"), us("2004-05-18")},
		{"How many messages were sent between 9 a.m. and 5 p.m. on 9 June 2004?", us("2004-06-09T09:00:00Z"), us("2004-06-09T17:00:00Z")},
		// A range ending before noon settles a twelve-hour start.
		{"How many messages were sent between seven o'clock and 11:30 on 9 June 2004?", us("2004-06-09T07:00:00Z"), us("2004-06-09T11:30:00Z")},
		{"How many messages were sent between twenty to one and 03:00 on 9 June 2004?", us("2004-06-09T00:40:00Z"), us("2004-06-09T03:00:00Z")},
		// The weekdays after "the week of D" say which of its days are
		// meant, and settle a slashed D; a plural period noun before a
		// range names what it lists.
		{"Which nodes did n12 send messages to in the week of 07/06/2004 (Monday to Friday)?", us("2004-06-07"), us("2004-06-12")},
		{"How many messages were sent in the week of 2004-06-07 (Monday to Wednesday)?", us("2004-06-07"), us("2004-06-10")},
		{"How many messages were sent in the days Tuesday 8 until Thursday 10 June 2004?", us("2004-06-08"), us("2004-06-11")},
		{"How many messages were sent over the months June to August 2004?", us("2004-06-01"), us("2004-09-01")},
		// A clock "N hours later" counts from the instant written before it.
		{"How many messages were sent from midnight on 9 June 2004 to midnight forty-eight hours later?", us("2004-06-09"), us("2004-06-11")},
		{"How many messages were sent between 06:15 on 9 June 2004 and a quarter past six 12 hours later?", us("2004-06-09T06:15:00Z"), us("2004-06-09T18:15:00Z")},
		// "on or after D" starts with D, "on or before D" ends with it.
		{"How many messages were sent on or after 9 June 2004?", us("2004-06-09"), collegeEnv.VtMax},
		{"How many messages were sent on or before 9 June 2004?", collegeEnv.VtMin, us("2004-06-10")},
		{"How many messages were sent at or before 12:30 on 9 June 2004?", collegeEnv.VtMin, us("2004-06-09T12:30:00Z") + 1},
		{"How many messages were sent in or after August 2004?", us("2004-08-01"), collegeEnv.VtMax},
		// "after T" starts just after the instant T, "the N hours after T" at T.
		{"How many messages were sent after noon on 9 June 2004?", us("2004-06-09T12:00:00Z") + 1, collegeEnv.VtMax},
		{"How many messages were sent in the 6 hours after 12:00 on 9 June 2004?", us("2004-06-09T12:00:00Z"), us("2004-06-09T18:00:00Z")},
		// Whole periods at both ends, with the end said.
		{"How many messages were sent from June 2004 through August 2004?", us("2004-06-01"), us("2004-09-01")},
		{"How many messages were sent from June 2004 until August 2004?", us("2004-06-01"), us("2004-08-01")},
		// Times of day after a day in one phrase take that day.
		{"How many messages were sent on 9 June 2004 between 17:00 and 18:30?", us("2004-06-09T17:00:00Z"), us("2004-06-09T18:30:00Z")},
		{"How many messages were sent on 2004-06-09, from 4pm to 6pm?", us("2004-06-09T16:00:00Z"), us("2004-06-09T18:00:00Z")},
		{"How many messages were sent on the 9th of June 2004 before 8am?", us("2004-06-09"), us("2004-06-09T08:00:00Z")},
		// A period's possessive and a part of a period name the period.
		{"What share of June 2004's messages were reciprocated?", us("2004-06-01"), us("2004-07-01")},
		{"Which day of June 2004 had the most messages?", us("2004-06-01"), us("2004-07-01")},
		{"Which calendar day of June 2004 had the most messages?", us("2004-06-01"), us("2004-07-01")},
		{"Which hour of 9 June 2004 had the most messages?", us("2004-06-09"), us("2004-06-10")},
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

// A zone's offset that the written one, a summer-time remark or the
// period itself contradicts is refused, naming what disagrees; so is a
// window pointed back at that is not inside the period named.
func TestZonesAndPeriodWindowsRefused(t *testing.T) {
	cases := []struct{ q, names string }{
		{"How many messages were sent in June 2004, Seoul time (UTC+8)?", "UTC+9"},
		{"How many messages were sent in June 2004, Seoul time (UTC+8)?", "UTC+8"},
		{"How many messages were sent on 7 July 2004 in Lisbon time (UTC+1, no daylight saving in July)?", "daylight saving"},
		{"How many messages were sent on 7 January 2004 in Lisbon time (UTC+0, no summer time in July)?", "month"},
		{"How many messages were sent in October 2004, Chicago time?", "changes its offset"},
		{"How many messages were sent in 2003, Chicago time?", "changes its offset"},
		{"How many messages were sent from 3 May 2004 to 12 May 2004, before the week was out?", "one week"},
		{"How many messages were sent until June 2004 is over?", "until the end of June 2004"},
		{"How many messages were sent on Tuesday week, counting from Tuesday 4 May 2004?", "two weeks"},
		{"How many messages were sent in the week of 2004-06-08 (Monday to Friday)?", "Tuesday"},
		{"How many messages were sent in the week of 08/06/2004 (Monday to Friday)?", "could be"},
		{"How many messages were sent in the days of June 2004?", "days"},
		{"How many messages were sent between 06:15 on 9 June 2004 and 19:15 twelve hours later?", "is 2004-06-09T18:15Z"},
		{"How many messages were sent between 9 June 2004 and midnight twenty-four hours later?", "later than which time"},
		{"How many messages were sent by or on 9 June 2004?", "joins two relations"},
		{"How many messages were sent before and after 9 June 2004?", "joins two relations"},
		{"How many messages were sent on 9 June 2004 in the evening?", "which hours"},
		{"How many messages were sent on the morning of 9 June 2004?", "which hours"},
		{"How many messages were sent overnight on 9 June 2004?", "which hours"},
		{"How many messages did n12 send this month?", "which month"},
		{"Which node sent the most messages that week?", "which week"},
		{"How many messages were sent over the past year?", "which year"},
		{"How many messages were sent from June 2004 to August 2004?", "include August 2004"},
		{"How many messages were sent between 2004 and 2005?", "include 2005"},
		{"How many messages did n12 send by June 2004?", "before June 2004 starts or by its end"},
		{"How many messages were sent in June 2004 between 17:00 and 18:00?", "needs a date"},
		{"How many messages were sent on 9 June 2004 between half past four and six?", "needs a date"},
		// A twelve-hour time in words with no part of the day.
		{"How many neighbours did n12 have at twenty past seven on 9 June 2004?", "morning or the evening"},
		{"How many neighbours did n12 have on 9 June 2004 at seven o'clock?", "morning or the evening"},
		{"How many messages were sent between seven o'clock and 21:00 on 9 June 2004?", "morning or the evening"},
		{"How many messages were sent from half past six on 9 June 2004 to 2004-06-10?", "morning or the evening"},
		{"How many messages were sent on Tuesday week from Thursday 6 May 2004 (so the Tuesday after next, the 11th)?", "day 18"},
		{"How many messages were sent on Tuesday week from Thursday 6 May 2004 (so the Wednesday after next)?", "Wednesday"},
	}
	for _, c := range cases {
		r, err := reader.Read(c.q, collegeEnv)
		if err == nil {
			t.Errorf("%q: read as %s, want a refusal", c.q, r.Line())
			continue
		}
		if !strings.Contains(err.Error(), c.names) {
			t.Errorf("%q: refusal %q does not say %q", c.q, err, c.names)
		}
	}
}
