package reader_test

import (
	"testing"

	"github.com/tgms-go/tgms/agent/reader"
)

// fitCase is a question with the reading it must have, or "" for a
// refusal; the slots are checked where given.
type fitCase struct {
	q      string
	intent string
	dir    string // Options["direction"], when set
	source string // the node in role source or node
	target string
	a, b   int64 // the window, when b != 0
	tt     int64 // the belief time, 0 for now
}

func checkFit(t *testing.T, env reader.Env, cases []fitCase) {
	t.Helper()
	for _, c := range cases {
		r, err := reader.Read(c.q, env)
		if c.intent == "" {
			if err == nil {
				t.Errorf("%q: read as %s (%s), want a refusal", c.q, r.Intent, r.Line())
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: refused (%v), want %s", c.q, err, c.intent)
			continue
		}
		if r.Intent != c.intent {
			t.Errorf("%q: read as %s, want %s", c.q, r.Intent, c.intent)
			continue
		}
		if c.dir != "" && r.Options["direction"] != c.dir {
			t.Errorf("%q: direction %q, want %q", c.q, r.Options["direction"], c.dir)
		}
		for _, n := range r.Nodes {
			want := map[string]string{"source": c.source, "node": c.source, "target": c.target}[n.Role]
			if want != "" && n.UID != want {
				t.Errorf("%q: %s is %s, want %s", c.q, n.Role, n.UID, want)
			}
		}
		if c.b != 0 && (r.Window == nil || r.Window.Start != c.a || r.Window.End != c.b) {
			t.Errorf("%q: window %+v, want [%d, %d)", c.q, r.Window, c.a, c.b)
		}
		if (c.tt == 0) != r.Belief.Now || c.tt != 0 && r.Belief.AsOfTT != c.tt {
			t.Errorf("%q: belief %+v, want tt %d", c.q, r.Belief, c.tt)
		}
	}
}

// A fragment asks how many only when its head noun is something only
// counted (events, paths, motif instances, versions); a fragment naming
// nodes, one with a word that asks for a list, or a yes/no question is
// refused, and so is word salad without a head.
func TestFragments(t *testing.T) {
	may, jun := us("2004-05-01"), us("2004-06-01")
	checkFit(t, collegeEnv, []fitCase{
		{q: "messages sent by n5 in May 2004", intent: "node-event-count", dir: "src", source: "n5", a: may, b: jun},
		{q: "messages received by n5, May 2004?", intent: "node-event-count", dir: "dst", source: "n5", a: may, b: jun},
		{q: "messages n5 -> n7 in May 2004", intent: "pair-event-count", dir: "src", source: "n5", target: "n7", a: may, b: jun},
		{q: "messages n7 → n5 in May 2004", intent: "pair-event-count", dir: "src", source: "n7", target: "n5", a: may, b: jun},
		{q: "versions of n12 as of transaction time 1700000005000000", intent: "version-count", source: "n12", tt: 1700000005000000},
		{q: "paths from n5 to n7 in May 2004, at most 3 hops", intent: "path-count", source: "n5", target: "n7", a: may, b: jun},
		{q: "cyclic triangles completing within 2 hours, May 2004", intent: "motif-count", a: may, b: jun},
		{q: "ping-pong exchanges within 1 hour involving n5 in May 2004", intent: "motif-count-around", source: "n5", a: may, b: jun},
		{q: "ping-pongs (A->B, B->A, A->B) within 2 hours involving n5, June 2004", intent: "motif-count-around", source: "n5", a: jun, b: us("2004-07-01")},
		{q: "versions of the first node n5 reaches in May 2004", intent: "first-reached-versions", source: "n5", a: may, b: jun},
		// Nodes at the head: a list or a number?
		{q: "partners of n5 in May 2004"},
		{q: "distinct partners of n5, May 2004"},
		{q: "members of cyclic triangles within 1 day in May 2004"},
		// A word asking for a list, or a yes/no question.
		{q: "show the messages n5 sent in May 2004"},
		{q: "list messages sent by n5 in May 2004"},
		{q: "did n5 send messages to n7 in May 2004?"},
		// No head noun, or words that do not join.
		{q: "in May 2004 n5 messages n7"},
		{q: "messages sent to in May 2004"},
		{q: "messages messages sent by n5 in May 2004"},
		{q: "and messages sent by n5 in May 2004"},
		// Bursts may be listed or counted.
		{q: "bursts in daily buckets in May 2004"},
	})
}

// Partner nouns name nodes when the question names none; partners at an
// instant are that instant's neighbours; "in either direction" is read,
// and refused beside a single direction; "how many times" with a sending
// verb counts events.
func TestConceptCombinations(t *testing.T) {
	may, jun := us("2004-05-01"), us("2004-06-01")
	at := "at 12:00 UTC on 2004-05-03"
	checkFit(t, collegeEnv, []fitCase{
		{q: "How many new correspondents appeared in May 2004?", intent: "new-nodes", a: may, b: jun},
		{q: "How many correspondents did n5 have in May 2004?", intent: "partner-count", dir: "either", source: "n5", a: may, b: jun},
		{q: "How many correspondents did n5 have " + at + "?", intent: "neighbour-count-at", source: "n5"},
		{q: "Which partners did n5 have " + at + "?", intent: "neighbours-at", source: "n5"},
		{q: "How many distinct partners did n5 have in either direction in May 2004?", intent: "partner-count", dir: "either", source: "n5", a: may, b: jun},
		{q: "Who were n5's partners in either direction during May 2004?", intent: "partners", dir: "either", source: "n5", a: may, b: jun},
		{q: "How many distinct nodes did n5 send messages to, in either direction, in May 2004?"},
		{q: "How many messages did n5 receive in either direction in May 2004?"},
		{q: "How many times did n5 message n7 in May 2004?", intent: "pair-event-count", dir: "src", source: "n5", target: "n7", a: may, b: jun},
		{q: "How many times did n5 send to n7 in May 2004?", intent: "pair-event-count", dir: "src", source: "n5", target: "n7", a: may, b: jun},
		{q: "How many times did n5 write in May 2004?", intent: "node-event-count", dir: "src", source: "n5", a: may, b: jun},
		// "times" without a sending verb names no occurrence.
		{q: "How many times did n5 reach n7 in May 2004?"},
		{q: "How many cyclic triangles, where a writes to b, b to c and c to a, completed within 1 hour in May 2004?", intent: "motif-count", a: may, b: jun},
		{q: "Comparing the contacts of n5 at 2004-05-03 12:00 UTC with those at 2004-06-03 12:00 UTC, which neighbours were gained?", intent: "neighbours-gained", source: "n5"},
		// "by" after a receiving verb names who received.
		{q: "How many messages were received by n5 in May 2004?", intent: "node-event-count", dir: "dst", source: "n5", a: may, b: jun},
		{q: "How many messages were sent by n5 in May 2004?", intent: "node-event-count", dir: "src", source: "n5", a: may, b: jun},
		// A list of events is not a list of nodes.
		{q: "Which messages did n5 send in May 2004?"},
		{q: "List the messages n5 sent to others in May 2004."},
		{q: "Who did n5 send messages to in May 2004?", intent: "partners", dir: "src", source: "n5", a: may, b: jun},
		// "at present" is the latest belief.
		{q: "How many versions of n12 does the store hold at present?", intent: "version-count", source: "n12"},
		{q: "How many versions of n12 does the store hold at present, as of transaction time 1700000005000000?"},
		{q: "As of transaction time 1700000005000000, how many versions of n12 does the store hold now?"},
		// "in the record during May" is the window, not a belief time.
		{q: "How many new nodes appear in the record during May 2004?", intent: "new-nodes", a: may, b: jun},
	})
}

// "involving n5" counts the instances that include n5; instances among
// n5's contacts, or ones n5 starts, are other questions.
func TestMotifInvolving(t *testing.T) {
	may, jun := us("2004-05-01"), us("2004-06-01")
	checkFit(t, collegeEnv, []fitCase{
		{q: "How many ping-pong exchanges within 1 hour involved n5 in May 2004?", intent: "motif-count-around", source: "n5", a: may, b: jun},
		{q: "How many cyclic triangles within 1 hour involving n5 happened in May 2004?", intent: "motif-count-around", source: "n5", a: may, b: jun},
		{q: "How many cyclic triangles closed within 2 hours involving n5 in May 2004?", intent: "motif-count-around", source: "n5", a: may, b: jun},
		{q: "How many ping-pong exchanges within 1 hour among the contacts of n5 in May 2004?"},
		{q: "How many ping-pong exchanges within 1 hour among n5's contacts in May 2004?"},
		{q: "How many ping-pong exchanges within 1 hour between n5's partners in May 2004?"},
		{q: "How many ping-pongs within 1 hour did n5 start in May 2004?"},
		{q: "How many cyclic triangles within 1 hour were opened by n5 in May 2004?"},
	})
}

// A bound written after or before a duration ("or less", "maximum", "at
// most") makes it the span of a motif; it reads as that duration.
func TestDurationBounds(t *testing.T) {
	may, jun := us("2004-05-01"), us("2004-06-01")
	for _, q := range []string{
		"How many cyclic triangles with a span of one hour or less occurred in May 2004?",
		"How many cyclic triangles, one hour maximum, happened in May 2004?",
		"How many cyclic triangles in maximum one hour happened in May 2004?",
		"How many cyclic triangles within a maximum of 1 hour happened in May 2004?",
		"How many cyclic triangles spanning 1 hour at most happened in May 2004?",
	} {
		r, err := reader.Read(q, collegeEnv)
		if err != nil || r.Intent != "motif-count" || r.Delta == nil || r.Delta.Micros != 3_600_000_000 || r.Window.Start != may || r.Window.End != jun {
			t.Errorf("%q: %v %v", q, r, err)
		}
	}
	// A threshold is not a bound.
	for _, q := range []string{"How many cyclic triangles of more than an hour happened in May 2004?", "How many cyclic triangles of an hour or more happened in May 2004?"} {
		if r, err := reader.Read(q, collegeEnv); err == nil {
			t.Errorf("%q: read as %s", q, r.Line())
		}
	}
}

// "the week beginning D" is seven days from D; a period of no fixed
// length starting on a day is refused.
func TestPeriodStartingOnADay(t *testing.T) {
	checkFit(t, collegeEnv, []fitCase{
		{q: "How many messages were sent in the week beginning Monday the third of May 2004?", intent: "event-count", a: us("2004-05-03"), b: us("2004-05-10")},
		{q: "How many messages were sent in the week starting May 3, 2004?", intent: "event-count", a: us("2004-05-03"), b: us("2004-05-10")},
		{q: "How many messages were sent in the day after May 3, 2004?", intent: "event-count", a: us("2004-05-04"), b: us("2004-05-05")},
		{q: "How many messages were sent in the month starting May 3, 2004?"},
		{q: "How many messages were sent in the year beginning May 3, 2004?"},
	})
}
