package reader_test

import (
	"encoding/json"
	"testing"

	"github.com/tgms-go/tgms/agent/reader"
)

// A calendar-cycle question groups by the cycle's position at UTC, or at
// a written fixed offset; an hour written alone is refused as ambiguous;
// a negation that only sets a date aside restates the cycle.
func TestCalendarCycles(t *testing.T) {
	cases := []struct {
		q      string
		cycle  string // "" for a refusal
		offset int64  // utc_offset_minutes in the plan
	}{
		{"Which hour of the day sees the most messages?", "hour_of_day", 0},
		{"Which hour of the day sees the most messages, UTC+9?", "hour_of_day", 540},
		{"At what time of day are the most messages sent (UTC-3)?", "hour_of_day", -180},
		{"Which day of the week has the most messages, at UTC+10?", "day_of_week", 600},
		{"In which month of the year are the most messages sent, GMT+1?", "month_of_year", 60},
		{"Which weekday sees the most messages? A weekday name, not a date.", "day_of_week", 0},
		{"What day of the week is busiest? I want its name, not the date.", "day_of_week", 0},
		// A negation that restricts what is counted.
		{"Which day of the week is busiest, not counting messages from n5?", "", 0},
		// A written window with an offset: its ends would be read in UTC.
		{"Which hour of the day had the most messages in May 2004 (UTC+2)?", "", 0},
		// Two offsets, an offset out of range, an offset in a question
		// that is not a cycle.
		{"Which hour of the day sees the most messages, UTC+2 or UTC+3?", "", 0},
		{"Which hour of the day sees the most messages, UTC+15?", "", 0},
		{"How many messages were sent in May 2004, UTC+2?", "", 0},
		// An hour alone: of the day, or one particular hour?
		{"At what hour are most messages sent?", "", 0},
		{"What is the busiest hour?", "", 0},
		{"Which hour had the most messages in May 2004?", "", 0},
		// A time is asked for, not nodes.
		{"Which month had the most messages?", "", 0},
	}
	for _, c := range cases {
		r, err := reader.Read(c.q, collegeEnv)
		if c.cycle == "" {
			if err == nil {
				t.Errorf("%q: read as %s, want a refusal", c.q, r.Line())
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		var p struct {
			Steps []struct {
				Op   string `json:"op"`
				Args struct {
					GroupBy []struct {
						Dim    string `json:"dim"`
						Cycle  string `json:"cycle"`
						Offset int64  `json:"utc_offset_minutes"`
					} `json:"group_by"`
				} `json:"args"`
			} `json:"steps"`
		}
		if err := json.Unmarshal(r.Plan(), &p); err != nil || len(p.Steps) == 0 || len(p.Steps[0].Args.GroupBy) != 1 {
			t.Errorf("%q: plan %s", c.q, r.Plan())
			continue
		}
		g := p.Steps[0].Args.GroupBy[0]
		if g.Dim != "calendar_cycle" || g.Cycle != c.cycle || g.Offset != c.offset {
			t.Errorf("%q: grouped by %+v, want %s at %d minutes", c.q, g, c.cycle, c.offset)
		}
	}
}

// One particular hour, marked as such or within one day, is a one-hour
// bucket.
func TestSingleHourIsABucket(t *testing.T) {
	for _, q := range []string{"Which hour bucket had the most messages in May 2004?", "What was the busiest hour on May 3, 2004?"} {
		r, err := reader.Read(q, collegeEnv)
		if err != nil || r.Intent != "busiest-bucket" || r.Bucket == nil || r.Bucket.Micros != 3_600_000_000 {
			t.Errorf("%q: got %v, %v", q, r, err)
		}
	}
}
