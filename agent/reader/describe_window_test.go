package reader_test

import (
	"strings"
	"testing"

	"github.com/tgms-go/tgms/agent/reader"
)

// A parenthesis closing the question that names the period its times
// span ("…? (the exam week)" after seven days) is a name of the window
// and restricts nothing; one whose period noun is not the span written,
// or that holds a word the reader knows, is refused.
func TestTrailingWindowName(t *testing.T) {
	q := "How many messages were sent from Monday 7 June 2004 through Sunday 13 June 2004? (the exam week)"
	r, err := reader.Read(q, collegeEnv)
	if err != nil {
		t.Fatalf("%q: %v", q, err)
	}
	if r.Window == nil || r.Window.Start != us("2004-06-07") || r.Window.End != us("2004-06-14") || !strings.Contains(strings.Join(r.Ignored, " "), "exam") {
		t.Errorf("%q: read as %s", q, r.Line())
	}
	for _, q := range []string{
		"How many messages were sent in June 2004? (the exam week)",
		"How many messages were sent on 7 June 2004? (the exam week)",
		"How many messages were sent from Monday 7 June 2004 through Sunday 13 June 2004? (the busiest week)",
		"How many messages were sent from Monday 7 June 2004 through Sunday 13 June 2004? (the exam week) And n5?",
	} {
		if r, err := reader.Read(q, collegeEnv); err == nil {
			t.Errorf("%q: read as %s, want a refusal", q, r.Line())
		}
	}
}
