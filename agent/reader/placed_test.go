package reader_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/agent/reader"
)

// Words read by where they stand: each case names the intent and a part
// of the reading it must give.
func TestPlacedWords(t *testing.T) {
	for _, c := range []struct{ q, intent, line string }{
		// Partners and neighbours: whom a node was in contact with.
		{"How many distinct people was n41 in contact with at 14:02:10 UTC on 9 June 2004?", "neighbour-count-at", "neighbours of n41"},
		{"Which users was n41 exchanging mail with at 2004-06-09T14:02:10Z?", "neighbours-at", "neighbours of n41"},
		{"Who was n41 in correspondence with during July 2004?", "partners", "n41 exchanged events with (either direction)"},
		{"With how many different users did n41 exchange email in July 2004, counting anyone who sent to it or was sent to by it?", "partner-count", "(either direction)"},
		{"With how many users did n41 exchange messages in July 2004?", "partner-count", "n41 exchanged events with"},
		{"Which accounts did n41 leave a rating for in July 2004?", "partners", "the nodes n41 sent events to"},
		{"Who left a message for n41 in July 2004?", "partners", "the nodes n41 received events from"},
		{"How many distinct addressees did n41 mail in July 2004? Only the users it wrote to.", "partner-count", "n41 sent events to"},
		{"How many people did n41 receive mail from in July 2004?", "partner-count", "n41 received events from"},
		{"How many users wrote to n41 in July 2004?", "partner-count", "n41 received events from"},
		// Degree: every incident record, repeats and all.
		{"What was n41's degree at 2004-06-09T14:02:10Z, duplicates included?", "degree-at", "degree of n41"},
		{"What was the degree of n41 at 2004-06-09T14:02:10Z, counting messages rather than distinct users?", "degree-at", "degree of n41"},
		{"What was n41's degree at 2004-06-09T14:02:10Z (some messages were logged twice)?", "degree-at", "degree of n41"},
		// New nodes: their own first event.
		{"How many users had their first activity in August 2004?", "new-nodes", "first valid in the window"},
		{"How many accounts saw their first-ever message traffic during Q3 2004?", "new-nodes", "first valid in the window"},
		{"How many users came into existence during May 2004?", "new-nodes", "first valid in the window"},
		{"How many new arrivals did the store see in May 2004?", "new-nodes", "first valid in the window"},
		{"How many users turned up for the first time in April 2004, the first month of the archive?", "new-nodes", "[2004-04-01T00:00Z, 2004-05-01T00:00Z)"},
		// Motifs: loops and circles of three, δ from the first event.
		{"How many x->y->z->x message loops closed within 2 hours in June 2004?", "motif-count", "cyclic triangles"},
		{"How many three-node loops completing within 2 hours happened in June 2004?", "motif-count", "cyclic triangles"},
		{"In June 2004, how many times did mail go round a circle of three users, the circle closing within 90 minutes?", "motif-count", "cyclic triangles"},
		{"How many cyclic triangles were completed within two hours of their first message in June 2004?", "motif-count", "within 2 hours"},
		{"How many cyclic triangles were completed within the hour in June 2004?", "motif-count", "within 1 hour"},
		{"Of the users n41 can reach in June 2004, whose message opens the earliest cyclic triangle within a day?", "motif-first-actor", "reachable from n41"},
		{"Among those n41 reaches in June 2004, who wrote the opening message of the earliest cyclic triangle within a day?", "motif-first-actor", "reachable from n41"},
		{"Considering only the users n41 can reach in June 2004, which of them started the earliest cyclic triangle within a day?", "motif-first-actor", "reachable from n41"},
		// Versions and corrections.
		{"How often has the record of n41 been corrected?", "correction-count", "closed by a correction"},
		{"Was n41 ever corrected, and if so how many times?", "correction-count", "closed by a correction"},
		{"How many times, if at all, has n41 been revised?", "correction-count", "closed by a correction"},
		{"How many ratings, if any, did n41 send in July 2004?", "node-event-count", "sent by n41"},
		{"How many versions of n41 does the store hold, over all of its valid time?", "version-count", "versions of node n41"},
		{"How many neighbours did n41 have at 2004-06-09T14:02:10Z, after all the corrections?", "neighbour-count-at", "belief now"},
		{"How many versions of n41 did the store hold as of transaction time 1700000005000000 (just after the first batch of corrections)?", "version-count", "1700000005000000"},
		{"How many versions of n41 were believed as of transaction time 1700000005000000, exactly when the third batch was applied?", "version-count", "1700000005000000"},
	} {
		r, err := reader.Read(c.q, collegeEnv)
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		if r.Intent != c.intent || !strings.Contains(r.Line(), c.line) {
			t.Errorf("%q: read as %s (%s), want %s with %q", c.q, r.Intent, r.Line(), c.intent, c.line)
		}
	}
}

// The same words where they restrict, or where their reading is not
// fixed, are refused.
func TestPlacedWordsThatRestrictAreRefused(t *testing.T) {
	for _, q := range []string{
		// One direction in a clause on the counted noun restricts it.
		"With how many users did n41 exchange email in July 2004, counting anyone who sent to it?",
		// "whose" after a noun is a relative pronoun: a clause on it.
		"How many users whose messages n41 answered were there in July 2004?",
		// Both directions joined by "and" ask for the nodes in both.
		"How many users did n41 write to and receive mail from in July 2004?",
		"Which distinct users did n41 send to and receive from in July 2004?",
		// "if any" outside a count.
		"Which users, if any, did n41 write to in July 2004?",
		// A loop of a size other than three written after it.
		"How many loops x->y->x closed within 2 hours in June 2004?",
		// A node in one position is not one of the corners.
		"How many cyclic triangles with n41 as the first corner closed within 1 day in June 2004?",
		// A node's first message of one direction is not its first event.
		"How many users sent their first message in August 2004?",
		"How many accounts made their first-ever rating during Q3 2004?",
		// An opening period that is not the store's first; "addresses",
		// a noun or a verb.
		"How many users turned up for the first time in May 2004, the opening month of the archive?",
		"How many users turned up for the first time in 2004, the opening month of the archive?",
		"Which addresses did n41 send to in May 2004?",
		"How many addresses turned up for the first time in April 2004?",
		// Degree words outside a degree question; duplicates set aside.
		"How many messages did n41 send twice in July 2004?",
		"What was n41's degree at 2004-06-09T14:02:10Z, counting each neighbour twice?",
		"What was n41's degree at 2004-06-09T14:02:10Z, duplicates excluded?",
		"How many neighbours did n41 have at 2004-06-09T14:02:10Z, ignoring duplicates?",
		// A loop of no stated size; a circle that is a group.
		"How many message loops closed within 2 hours in June 2004?",
		"How many loops of two users closed within 2 hours in June 2004?",
		"How many message loops of three hours closed in June 2004?",
		"Within the circle of users n41 can reach in June 2004, how many cyclic triangles closed within an hour?",
		// "only" that restricts, and "only" that names no reach set.
		"How many distinct addressees did n41 mail in July 2004? Only the users it wrote to twice.",
		"Considering only the triangles n41 is in during June 2004, how many cyclic triangles closed within an hour?",
		"Considering only the users n41 can reach in June 2004, how many messages did n41 send?",
		// A batch described with no belief time written, or beside more.
		"How many versions of n41 are there now (before the second batch)?",
		"How many versions of n41 were believed as of transaction time 1700000005000000, when the second batch was written, and n42?",
		// "within the month" may be the calendar month.
		"How many cyclic triangles were completed within the month in June 2004?",
		// The node that ends an instance is not the one that starts it.
		"Among the users n41 can reach in June 2004, which user closes the earliest cyclic triangle within a day?",
		// "how often" of events is a rate or a count.
		"How often did n41 send messages in July 2004?",
		"How often was n41 corrected per month?",
		"How often was n41 corrected each week?",
		// "opened" outside a motif question is what a recipient did.
		"How many of the messages n41 sent in July 2004 were opened?",
	} {
		_, err := reader.Read(q, collegeEnv)
		var rf *reader.Refusal
		if !errors.As(err, &rf) {
			t.Errorf("%q: want a refusal, got %v", q, err)
		}
	}
}

// A refusal of these words suggests forms that keep the question's node
// and window.
func TestPlacedRefusalSuggestionsKeepTheSlots(t *testing.T) {
	for _, c := range []struct {
		q, node string
		a, b    int64
	}{
		{"Among the users n41 can reach in June 2004, which user closes the earliest cyclic triangle within a day?", "n41", us("2004-06-01"), us("2004-07-01")},
		{"With how many users did n41 exchange email in July 2004, counting anyone who sent to it?", "n41", us("2004-07-01"), us("2004-08-01")},
	} {
		_, err := reader.Read(c.q, collegeEnv)
		var rf *reader.Refusal
		if !errors.As(err, &rf) {
			t.Fatalf("%q: want a refusal, got %v", c.q, err)
		}
		read := 0
		for _, s := range rf.Suggestions {
			r, err := reader.Read(s, collegeEnv)
			if err != nil {
				continue
			}
			read++
			for _, n := range r.Nodes {
				if n.Role != "target" && n.UID != c.node {
					t.Errorf("%q\n  suggestion %q reads %s as the %s", c.q, s, n.UID, n.Role)
				}
			}
			if r.Window != nil && (r.Window.Start != c.a || r.Window.End != c.b) {
				t.Errorf("%q\n  suggestion %q reads the window [%s, %s)", c.q, s, r.Window.StartText, r.Window.EndText)
			}
		}
		if read == 0 {
			t.Errorf("%q: none of the suggestions %q reads", c.q, rf.Suggestions)
		}
	}
}
