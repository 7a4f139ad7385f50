package reader_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/agent/reader"
)

// Reach, path, earliest-arrival and latest-departure questions in words
// other than the lexicon's head words: each reads with its source and
// target the right way round, or is refused.
func TestReachPhrasings(t *testing.T) {
	env := collegeEnv
	jun, jul := us("2004-06-01"), us("2004-07-01")
	may, mayEnd := us("2004-05-01"), us("2004-06-01")
	checkFit(t, env, []fitCase{
		// Reach vocabulary.
		{q: "How many accounts lie within reach of n12 during June 2004?", intent: "reach-count", source: "n12", a: jun, b: jul},
		{q: "In May 2004, how many people are downstream of n40?", intent: "reach-count", source: "n40", a: may, b: mayEnd},
		{q: "how many accounts could n33 reach in May 2004, time-respecting only?", intent: "reach-count", source: "n33", a: may, b: mayEnd},
		{q: "What is the first correspondent reached from n31 in June 2004?", intent: "reach-first", source: "n31", a: jun, b: jul},
		{q: "Which user would a message from n90 have reached first on 4 May 2004, forwarding included?", intent: "reach-first", source: "n90",
			a: us("2004-05-04"), b: us("2004-05-05")},
		{q: "who is the first user reached from n19 in June 2004, when messages can be passed along?", intent: "reach-first", source: "n19", a: jun, b: jul},
		{q: "The people who n50 can reach in June 2004: how many cyclic triangles within two hours do they form among themselves?",
			intent: "motif-count-reach", source: "n50", a: jun, b: jul},
		{q: "n70's downstream set in June 2004 - how many cyclic triangles within a day among them?", intent: "motif-count-reach", source: "n70", a: jun, b: jul},
		// Framing conditionals set the source and the start.
		{q: "Had n77 set off a chain of relayed messages on 3 May 2004, how many users could it have got to by the end of 9 May 2004?",
			intent: "reach-count", source: "n77", a: us("2004-05-03"), b: us("2004-05-10")},
		{q: "If n8 starts on 2 June 2004, how many nodes can it reach before 20 June 2004?", intent: "reach-count", source: "n8",
			a: us("2004-06-02"), b: us("2004-06-20")},
		{q: "If we look at the 10th and 11th of May 2004, what is the earliest arrival from n5 at n6?", intent: "earliest-arrival",
			source: "n5", target: "n6", a: us("2004-05-10"), b: us("2004-05-12")},
		// Earliest arrival: the sender is the source, whatever the order.
		{q: "How soon could a message from n15 have reached n60 in June 2004 if it was relayed along the way?", intent: "earliest-arrival",
			source: "n15", target: "n60", a: jun, b: jul},
		{q: "In June 2004, what is the earliest time at which n300 could have received, however indirectly, something n44 had sent?",
			intent: "earliest-arrival", source: "n44", target: "n300", a: jun, b: jul},
		{q: "What is the earliest time n7 could have been reached, however indirectly, from n8 in May 2004?", intent: "earliest-arrival",
			source: "n8", target: "n7", a: may, b: mayEnd},
		// Latest departure: "and still reach", a deadline restating the window.
		{q: "During the week of 7 June 2004, what is the latest moment n23 could write and still have it arrive at n81?", intent: "latest-departure",
			source: "n23", target: "n81", a: us("2004-06-07"), b: us("2004-06-14")},
		{q: "On 12 May 2004, how late could n9 leave it to send a mail and still reach n10, possibly via others, before the day is over?",
			intent: "latest-departure", source: "n9", target: "n10", a: us("2004-05-12"), b: us("2004-05-13")},
		{q: "Assuming n40 began sending on 3 June 2004, what is the earliest moment at which word from it could have got to n41 before 20 June 2004?",
			intent: "earliest-arrival", source: "n40", target: "n41", a: us("2004-06-03"), b: us("2004-06-20")},
		{q: "Considering only the users n61 could reach in June 2004, how many cyclic triangles within an hour are there?", intent: "motif-count-reach",
			source: "n61", a: jun, b: jul},
		{q: "What is the latest n5 could send and still get word to n7 in time, in June 2004?", intent: "latest-departure", source: "n5", target: "n7", a: jun, b: jul},
		{q: "On 12 June 2004, how late could n9 have left it to write to someone and still reach n10?", intent: "latest-departure", source: "n9", target: "n10",
			a: us("2004-06-12"), b: us("2004-06-13")},
		{q: "How quickly could a message from n6 get to n8 in June 2004? I want the earliest arrival time.", intent: "earliest-arrival",
			source: "n6", target: "n8", a: jun, b: jul},
		// Refused: a word that adds a constraint or leaves the reading open.
		{q: "How quickly could a message from n6 get to n8 in June 2004?"},                         // an elapsed time, or a time?
		{q: "If n5 sent a message on 3 May 2004, how many nodes can it reach before 10 May 2004?"}, // a condition
		{q: "Considering only the users n61 messaged in June 2004, how many cyclic triangles within an hour are there?"},
		{q: "How many messages did n5 forward in May 2004?"},                                           // forwarded messages are not recorded
		{q: "How many nodes can n5 reach in May 2004 if each node waits under an hour?"},               // a wait in words not read
		{q: "If n5 starts on 3 May 2004, how many nodes can it reach?"},                                // reach by the end of the day, or ever?
		{q: "If n5 received a message on 3 May 2004, how many nodes can it reach before 10 May 2004?"}, // a condition
		{q: "If n5 was active on 3 May 2004, how many nodes could it reach by 10 May 2004?"},           // a condition
		{q: "How many messages did n5 send in May 2004 if it started on 3 May 2004?"},                  // not a reach question
		{q: "How many nodes can n5 reach via others in May 2004?"},                                     // the direct partners too?
		{q: "When did n7 first receive something n8 sent in May 2004?"},                                // the first direct message
		{q: "How many messages flowed from n5 to n6 in May 2004?"},
		{q: "How many nodes did n5 influence in May 2004?"},
		{q: "When was the latest message n3 sent to n4 in May 2004?"},
		{q: "What is the latest time n5 could leave a message for n7 in June 2004?"}, // a message sent
		{q: "What is the latest time n5 left a message for n7 in June 2004?"},
		{q: "What is the latest n3 could send and still reach n4 in June 2004, before the week is out?"}, // the window is a month
		{q: "How many paths of more than three messages go from n1 to n2 in May 2004?"},
		{q: "How many paths of two or three messages go from n1 to n2 in May 2004?"},
	})
}

// A path's length bound written in events or hops, in digits or words.
func TestChainBounds(t *testing.T) {
	for _, c := range []struct {
		q, hops, src, dst string
	}{
		{"Over June 2004, how many distinct chains of no more than four messages led from n2 to n3?", "4", "n2", "n3"},
		{"In how many different ways could n11's mail have found its way to n12 on 5 May 2004, using chains of at most two messages?", "2", "n11", "n12"},
		{"How many time-respecting chains of one or two emails went to n15 from n14 in May 2004?", "2", "n14", "n15"},
		{"How many routes of up to five messages go from n1 to n2 in 2004?", "5", "n1", "n2"},
		{"How many ways could mail flow from n4 to n5 in May 2004, paths of three hops or fewer?", "3", "n4", "n5"},
	} {
		r, err := reader.Read(c.q, collegeEnv)
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		if r.Intent != "path-count" || r.Options["max_hops"] != c.hops {
			t.Errorf("%q: read as %s with max_hops %q, want path-count with %s", c.q, r.Intent, r.Options["max_hops"], c.hops)
		}
		if r.Nodes[0].Role != "source" || r.Nodes[0].UID != c.src || r.Nodes[1].Role != "target" || r.Nodes[1].UID != c.dst {
			t.Errorf("%q: nodes %+v, want %s to %s", c.q, r.Nodes, c.src, c.dst)
		}
	}
}

// A maximum wait at each node is read into the plan, or refused.
func TestMaxWait(t *testing.T) {
	for _, c := range []struct {
		q, intent string
		wait      int64 // µs; 0 for a refusal
	}{
		{"In June 2004, how many users could n40 reach if nobody held a message for longer than two hours before passing it on?", "reach-count", 2 * 3_600_000_000},
		{"How many nodes can n5 reach in May 2004, waiting at most 30 minutes at each node?", "reach-count", 30 * 60_000_000},
		{"When could a message from n3 first reach n9 in May 2004 with a maximum wait of 1 day?", "earliest-arrival", 86_400_000_000},
		{"In May 2004, what is the latest n3 could send and still reach n9, if no node sat on it for more than 6 hours?", "latest-departure", 6 * 3_600_000_000},
		{"How many messages did n5 send in May 2004, waiting at most 30 minutes at each node?", "", 0},
		{"How many nodes can n5 reach in May 2004 if nobody waits less than an hour?", "", 0},
		{"How many nodes can n5 reach in May 2004 if somebody waited for longer than an hour?", "", 0},
	} {
		r, err := reader.Read(c.q, collegeEnv)
		if c.wait == 0 {
			if err == nil {
				t.Errorf("%q: read as %s, want a refusal", c.q, r.Line())
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		want := fmt.Sprintf(`"delta_max_wait":%d`, c.wait)
		if r.Intent != c.intent || !strings.Contains(string(r.Plan()), want) {
			t.Errorf("%q: read as %s with plan %s, want %s with %s", c.q, r.Intent, r.Plan(), c.intent, want)
		}
	}
}
