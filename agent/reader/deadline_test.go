package reader_test

import (
	"testing"

	"github.com/tgms-go/tgms/agent/reader"
)

// A deadline ("the deadline is the end of D", "a deadline of T") ends
// the window, as "until" does; for a window's end, the last microsecond
// of D and the instant after it bound the same events. A deadline of a
// whole period (its start or its end?), the end of a day as an instant,
// and a deadline clause framing anything but a path question are
// refused.
func TestDeadlineEndsWindow(t *testing.T) {
	for _, c := range []struct {
		q          string
		start, end int64
	}{
		{"With a deadline of the end of 3 May 2004, starting on 1 May 2004, what is the latest time n5 can leave and still reach n7?", us("2004-05-01"), us("2004-05-04")},
		{"If the deadline is the end of Friday 7 May 2004, and we start on Monday the 3rd, how late could n5 leave it and still reach n7?", us("2004-05-03"), us("2004-05-08")},
		{"From 1 May 2004, the deadline being 12:00 UTC on 2 May 2004, what is the latest time n5 can leave and still reach n7?", us("2004-05-01"), us("2004-05-02T12:00:00Z")},
	} {
		r, err := reader.Read(c.q, collegeEnv)
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		if r.Intent != "latest-departure" || r.Window == nil || r.Window.Start != c.start || r.Window.End != c.end {
			t.Errorf("%q: read as %s", c.q, r.Line())
		}
	}
	for _, q := range []string{
		"With a deadline of 3 May 2004, starting on 1 May 2004, what is the latest time n5 can leave and still reach n7?",
		"Who were n5's neighbours at the end of 3 May 2004?",
		"If the deadline is the end of 3 May 2004, how many messages did n5 send?",
	} {
		if r, err := reader.Read(q, collegeEnv); err == nil {
			t.Errorf("%q: read as %s, want a refusal", q, r.Line())
		}
	}
}
