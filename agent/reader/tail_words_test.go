package reader_test

import (
	"strings"
	"testing"

	"github.com/tgms-go/tgms/agent/reader"
)

// Hedges, restatement markers, "single" before the busiest period, and
// the verbs "address" and "getting" are read; each case names the intent,
// a part of the reading and the words listed as ignored.
func TestTailWordsRead(t *testing.T) {
	for _, c := range []struct {
		q, intent, line string
		ignored         []string
	}{
		{"How many messages did n5 perhaps send in May 2004?", "node-event-count", "sent by n5", []string{"perhaps"}},
		{"How many messages were sent in May 2004, as far as the store knows?", "event-count", "edge events", []string{"as far as the store knows"}},
		{"How many messages were sent in May 2004, that is to say from May 1 to May 31 inclusive?", "event-count", "[2004-05-01T00:00Z, 2004-06-01T00:00Z)", []string{"that is to say"}},
		{"Which single day in May 2004 had the most messages?", "busiest-bucket", "buckets of 1 day", []string{"single"}},
		{"To which nodes did n5 address messages in May 2004?", "partners", "n5", nil},
		{"Which nodes were getting messages from n5 in May 2004?", "partners", "n5", nil},
		{"How many messages did n5 send in the working week of 3 to 7 May 2004?", "node-event-count", "[2004-05-03T00:00Z, 2004-05-08T00:00Z)", []string{"working"}},
		{"How many messages did n5 send in the working week of Monday the 10th to Friday the 14th of May 2004?", "node-event-count", "[2004-05-10T00:00Z, 2004-05-15T00:00Z)", []string{"working"}},
		{"How many messages did n5 send in May 2004 (I mean the whole month)?", "node-event-count", "sent by n5", []string{"I mean", "whole"}},
		{"How many messages did n5 send in May 2004, as the archive stands today?", "node-event-count", "sent by n5", []string{"archive"}},
	} {
		r, err := reader.Read(c.q, collegeEnv)
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		if r.Intent != c.intent || !strings.Contains(r.Line(), c.line) {
			t.Errorf("%q: read as %s (%s), want %s with %q", c.q, r.Intent, r.Line(), c.intent, c.line)
		}
		if strings.Join(r.Ignored, "|") != strings.Join(c.ignored, "|") {
			t.Errorf("%q: ignored %q, want %q", c.q, r.Ignored, c.ignored)
		}
	}
}

// Where the same words could restrict what is counted they are refused.
func TestTailWordsRefused(t *testing.T) {
	for _, q := range []string{
		"How many single messages did n5 send in May 2004?",                // "single" modifies the counted noun
		"How many messages with a single recipient were sent in May 2004?", // a restriction
		"How many addresses did n5 send messages to in May 2004?",          // noun or verb: not guessed
		"How far did messages from n5 spread in May 2004?",                 // "far" outside the hedge
	} {
		if r, err := reader.Read(q, collegeEnv); err == nil {
			t.Errorf("%q: read as %s (%s), want a refusal", q, r.Intent, r.Line())
		}
	}
}

// A date written without a year takes the one year the question writes,
// in a store of several years; with two years written, a two-digit year
// or a belief time written, it is refused as before.
func TestTailYearFromQuestion(t *testing.T) {
	env := reader.Env{VtMin: 1041379200000000, VtMax: 1136073600000000, IsNode: uidBelow(1900)} // 2003–2005
	for _, c := range []struct{ q, line string }{
		{"In 2004, using 10-day buckets counted from Jan 1, which bucket was the busiest?", "Jan 1: year 2004: the only year the question writes"},
		{"Which 10-day bucket of 2004 had the most messages, buckets counted from January 1?", "[2004-01-01T00:00Z, 2005-01-01T00:00Z)"},
	} {
		r, err := reader.Read(c.q, env)
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		if r.Intent != "busiest-bucket" || !strings.Contains(r.Line(), c.line) {
			t.Errorf("%q: read as %s (%s), want %q", c.q, r.Intent, r.Line(), c.line)
		}
	}
	for _, q := range []string{
		"How many messages were sent from December 20, 2004 to January 5?",                         // the year written is another date's
		"How many messages were sent from May 1 to May 10, as the store believed on June 1, 2005?", // a belief time's year
		"How many messages were sent from May 1 to May 10, as of transaction time 2005-06-01?",
		"How many messages were sent from 5/1/04 to May 10?", // a two-digit year
		"How many messages were sent between January 5 and 2004-02-01, and from 2005-01-01 on?",
	} {
		if r, err := reader.Read(q, env); err == nil {
			t.Errorf("%q: read as %s (%s), want a refusal", q, r.Intent, r.Line())
		}
	}
}
