package reader_test

import (
	"strings"
	"testing"

	"github.com/tgms-go/tgms/agent/reader"
)

// A parenthesis after a calendar-week bucket saying its weeks run Monday
// to Sunday restates it, and so does setting aside the blocks counted
// from the window's start; other weekdays, another origin set aside, or
// fixed-width blocks described as Monday-to-Sunday weeks are refused.
func TestCalendarWeekRestated(t *testing.T) {
	for _, q := range []string{
		"Which calendar week of 2004 (Monday to Sunday weeks) had the most messages?",
		"Which ISO week of 2004 (weeks running Monday to Sunday, not buckets counted from 1 January 2004) had the most messages?",
	} {
		r, err := reader.Read(q, collegeEnv)
		if err != nil {
			t.Errorf("%q: %v", q, err)
			continue
		}
		if r.Window == nil || r.Window.Start != us("2004-01-01") || r.Window.End != us("2005-01-01") || !strings.Contains(r.Line(), "Monday to Sunday") ||
			!strings.Contains(strings.Join(r.Ignored, " "), "Monday to Sunday") {
			t.Errorf("%q: read as %s", q, r.Line())
		}
	}
	for _, q := range []string{
		"Which calendar week of 2004 (Sunday to Saturday weeks) had the most messages?",
		"Which ISO week of 2004 (Monday to Sunday weeks, not blocks counted from 5 January 2004) had the most messages?",
		"Which ISO week of 2004 (Monday to Sunday weeks, not blocks counted from 1 March 2004) had the most messages?",
		"Which 7-day bucket of 2004 (Monday to Sunday weeks) had the most messages?",
	} {
		if r, err := reader.Read(q, collegeEnv); err == nil {
			t.Errorf("%q: read as %s, want a refusal", q, r.Line())
		}
	}
}
