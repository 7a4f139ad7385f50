package reader_test

import (
	"strings"
	"testing"

	"github.com/tgms-go/tgms/agent/reader"
)

// A sentence before the question that places the question's node at an
// instant gives the instant the question points back at; its other words
// only describe what happened then and are listed as ignored. A scene
// naming another node, moving its time, writing a period, or a question
// whose words may point at what the scene describes is refused.
func TestSceneSentence(t *testing.T) {
	cases := []struct {
		q       string
		intent  string
		at      []int64
		ignored string
	}{
		{"n5 dashed off a memo at 09:00 UTC on 3 May 2004. Which nodes was it in contact with at that instant?",
			"neighbours-at", []int64{us("2004-05-03T09:00:00Z")}, "dashed off a memo at"},
		{"At 16:45:10 on 12 June 2004 the registry desk, n31, broadcast a notice; how many nodes was n31 in touch with at that exact second?",
			"neighbour-count-at", []int64{us("2004-06-12T16:45:10Z")}, "broadcast a notice"},
		{"n5 posted a bulletin at 10:15 UTC on 4 May 2004 and another at 16:00 UTC on 9 May 2004. Which neighbours did it gain between those two instants?",
			"neighbours-gained", []int64{us("2004-05-04T10:15:00Z"), us("2004-05-09T16:00:00Z")}, "posted a bulletin at"},
		{"n5 seems to have posted a bulletin at 10:15 UTC on 4 May 2004. How many neighbours did n5 have at that very moment?",
			"neighbour-count-at", []int64{us("2004-05-04T10:15:00Z")}, "posted a bulletin at"},
	}
	for _, c := range cases {
		r, err := reader.Read(c.q, collegeEnv)
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		if r.Intent != c.intent || len(r.Instants) != len(c.at) {
			t.Errorf("%q: read as %s", c.q, r.Line())
			continue
		}
		for k, at := range c.at {
			if r.Instants[k].T != at {
				t.Errorf("%q: instant %d is %s, want %s", c.q, k, reader.FormatTime(r.Instants[k].T), reader.FormatTime(at))
			}
		}
		if !strings.Contains(strings.Join(r.Ignored, "|"), c.ignored) {
			t.Errorf("%q: ignored %q, want %q listed", c.q, r.Ignored, c.ignored)
		}
	}
	for _, q := range []string{
		// Another node in the scene.
		"n5 sent a memo to n7 at 09:00 UTC on 3 May 2004. Who were n5's contacts at that instant?",
		// The question is about another node.
		"n5 sent a memo at 09:00 UTC on 3 May 2004. Who were n8's contacts at that instant?",
		// A relation or a number moves the time.
		"n5 sent a memo two hours after 09:00 UTC on 3 May 2004. Who were its contacts at that instant?",
		"n5 sent a memo just before 09:00 UTC on 3 May 2004. Who were its contacts at that instant?",
		"n5 sent a memo at around 09:00 UTC on 3 May 2004. Who was it in contact with at that instant?",
		"n5 sent 3 memos at 09:00 UTC on 3 May 2004. How many neighbours did it have at that moment?",
		// A period is no instant; two times are not "that instant".
		"n5 sent a memo on 3 May 2004. Who were its contacts at that instant?",
		"n5 sent a memo at 09:00 UTC on 3 May 2004 and another at 11:30 UTC on 4 May 2004. How many neighbours did it have at that moment?",
		// "them" may be what the memo went to.
		"n5 sent a memo to the deans at 09:00 UTC on 3 May 2004. Which of them were its neighbours at that instant?",
		// "since that moment" is a window from it, not the instant.
		"n5 sent a memo at 09:00 UTC on 3 May 2004. How many neighbours did it have since that moment?",
		// Nothing points back: the scene's words are read, and unknown.
		"n5 sent a memo at 09:00 UTC on 3 May 2004. Who were its contacts then?",
	} {
		if r, err := reader.Read(q, collegeEnv); err == nil {
			t.Errorf("%q: read as %s, want a refusal", q, r.Line())
		}
	}
}

// After a scene of two instants, "at the first" and "at the second" are
// those instants in the order written, and the one after a negation is
// the base: the change asked for follows from which is earlier.
func TestSceneOrdinals(t *testing.T) {
	for _, c := range []struct{ q, change string }{
		{"n5 posted a notice at 10:15 UTC on 4 May 2004 and another at 16:00 UTC on 9 May 2004. Taking its neighbours at each of those two instants, which ones did it have at the second that it did not have at the first?", "gained"},
		{"n5 posted a notice at 10:15 UTC on 4 May 2004 and another at 16:00 UTC on 9 May 2004. Taking its neighbours at each of those two instants, which ones did it have at the first that it did not have at the second?", "lost"},
		{"n5 posted a notice at 16:00 UTC on 9 May 2004 and another at 10:15 UTC on 4 May 2004. Taking its neighbours at each of those two instants, which ones did it have at the second that it did not have at the first?", "lost"},
		// Partners at the two instants are the neighbours then.
		{"n5 posted a notice at 10:15 UTC on 4 May 2004 and another at 16:00 UTC on 9 May 2004. Taking its partners at each of those two instants, which ones did it have at the second that it did not have at the first?", "gained"},
	} {
		r, err := reader.Read(c.q, collegeEnv)
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		if r.Intent != "neighbours-gained" || r.Options["change"] != c.change || len(r.Instants) != 2 || r.Instants[0].T != us("2004-05-04T10:15:00Z") {
			t.Errorf("%q: read as %s, want %s", c.q, r.Line(), c.change)
		}
	}
	for _, q := range []string{
		"n5 posted a notice at 10:15 UTC on 4 May 2004 and another at 16:00 UTC on 9 May 2004. Taking its neighbours at each of those two instants, which ones did it have at the second and at the first?",
		"n5 posted a notice at 10:15 UTC on 4 May 2004 and another at 16:00 UTC on 9 May 2004. Taking its neighbours at each of those two instants, which ones did it have at the second?",
		// Partners over a window are not the neighbours at its ends.
		"Which new partners did n5 have between 1 May 2004 and 1 June 2004?",
		"How many partners did n5 gain between 2004-05-01 and 2004-06-01?",
	} {
		if r, err := reader.Read(q, collegeEnv); err == nil {
			t.Errorf("%q: read as %s, want a refusal", q, r.Line())
		}
	}
}
