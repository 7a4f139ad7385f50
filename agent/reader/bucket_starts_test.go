package reader_test

import (
	"testing"

	"github.com/tgms-go/tgms/agent/reader"
)

// A parenthesis listing where buckets of whole days start restates them
// when the days are the origin's and then one bucket apart; a list that
// disagrees, or one with no origin written, is refused.
func TestBucketStartsRestated(t *testing.T) {
	q := "If we split 2004 into consecutive seven-day blocks counted from Thursday 1 January 2004 (so blocks starting on the 1st, the 8th, the 15th and so on), which block had the most messages?"
	r, err := reader.Read(q, collegeEnv)
	if err != nil {
		t.Fatalf("%q: %v", q, err)
	}
	if r.Window == nil || r.Window.Start != us("2004-01-01") || r.Window.End != us("2005-01-01") || r.Bucket == nil || r.Bucket.Micros != 7*86_400_000_000 {
		t.Errorf("%q: read as %s", q, r.Line())
	}
	for _, q := range []string{
		"If we split 2004 into seven-day blocks counted from Thursday 1 January 2004 (so blocks starting on the 1st, the 7th, the 14th and so on), which block had the most messages?",
		"If we split 2004 into seven-day blocks counted from Thursday 1 January 2004 (so blocks starting on the 2nd, the 9th and so on), which block had the most messages?",
		"Which weekly bucket of 2004 (buckets starting on the 1st, the 8th and so on) had the most messages?",
	} {
		if r, err := reader.Read(q, collegeEnv); err == nil {
			t.Errorf("%q: read as %s, want a refusal", q, r.Line())
		}
	}
}
