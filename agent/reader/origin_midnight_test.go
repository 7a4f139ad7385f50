package reader_test

import (
	"testing"

	"github.com/tgms-go/tgms/agent/reader"
)

// "from midnight" after buckets restates that they are counted from the
// window's start when the buckets counted from midnight are the same:
// a window of one day from midnight, or buckets dividing a day whose
// grid the window's start lies on. Otherwise (7-hour buckets over a
// month, a start off the grid, no bucket) it is refused.
func TestBucketsFromMidnight(t *testing.T) {
	for _, c := range []struct {
		q          string
		start, end int64
		bucket     int64
	}{
		{"On Friday 7 May 2004, which hour had the most messages, in hourly buckets from midnight?", us("2004-05-07"), us("2004-05-08"), 3_600_000_000},
		{"Which 6-hour bucket had the most messages in June 2004, counted from midnight?", us("2004-06-01"), us("2004-07-01"), 6 * 3_600_000_000},
		{"Which 1-hour bucket had the most messages between 09:00 and 13:00 on 7 May 2004, counted from midnight?", us("2004-05-07T09:00:00Z"), us("2004-05-07T13:00:00Z"), 3_600_000_000},
	} {
		r, err := reader.Read(c.q, collegeEnv)
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		if r.Window == nil || r.Window.Start != c.start || r.Window.End != c.end || r.Bucket == nil || r.Bucket.Micros != c.bucket {
			t.Errorf("%q: read as %s", c.q, r.Line())
		}
	}
	for _, q := range []string{
		"Which 7-hour bucket had the most messages in June 2004, counted from midnight?",
		"Which 2-hour bucket had the most messages between 09:00 and 13:00 on 7 May 2004, counted from midnight?",
		"How many messages did n5 send from midnight?",
	} {
		if r, err := reader.Read(q, collegeEnv); err == nil {
			t.Errorf("%q: read as %s, want a refusal", q, r.Line())
		}
	}
}
