package reader_test

import (
	"strings"
	"testing"

	"github.com/tgms-go/tgms/agent/reader"
)

// A "when"/"if" clause whose subject only says which buckets are used
// is the bucket slot, not a question about a time; a clause with a node,
// a gap between events, or any word no slot reads is not such a clause.
func TestBucketFrameClause(t *testing.T) {
	cases := []struct {
		q       string
		intent  string
		bucket  int64
		ignored string
	}{
		{"How many bursts were there from 1 May to 1 September 2004, when we use daily buckets?", "burst-count", 86_400_000_000, "when we use"},
		{"How many bursts were there, when we are using weekly buckets from 3 May 2004, until the end of August 2004?", "burst-count", 7 * 86_400_000_000, "when we are using"},
		{"If you take buckets of 3 days, how many bursts happened in June 2004?", "burst-count", 3 * 86_400_000_000, "If you take"},
		{"When was the first burst between June and August 2004, when we are counting weekly buckets?", "first-burst", 7 * 86_400_000_000, "when we are counting"},
	}
	for _, c := range cases {
		r, err := reader.Read(c.q, collegeEnv)
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		if r.Intent != c.intent || r.Bucket == nil || r.Bucket.Micros != c.bucket {
			t.Errorf("%q: read as %s", c.q, r.Line())
			continue
		}
		if !strings.Contains(strings.Join(r.Ignored, "|"), c.ignored) {
			t.Errorf("%q: ignored %q, want %q listed", c.q, r.Ignored, c.ignored)
		}
	}
	for _, q := range []string{
		// A gap between events is no bucket.
		"How many bursts were there in June 2004, when we use a gap of five minutes?",
		// Words no slot reads restrict what is counted.
		"How many bursts were there in June 2004, when we are counting only replies in daily buckets?",
		"How many bursts were there in June 2004, when we use quiet daily buckets?",
		// An origin other than the window's start.
		"How many bursts were there in June 2004, when we use daily buckets from 5 June 2004?",
		"How many bursts were there in June 2004, when we use weekly buckets counted from 3 June 2004?",
		"How many bursts were there in June 2004, when we count from 5 June 2004 in daily buckets?",
		// "when" asking, after the clause.
		"How many bursts were there in June 2004, when we use daily buckets, and when did the first one start?",
	} {
		if r, err := reader.Read(q, collegeEnv); err == nil {
			t.Errorf("%q: read as %s, want a refusal", q, r.Line())
		}
	}
}
