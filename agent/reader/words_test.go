package reader_test

import (
	"strings"
	"testing"

	"github.com/tgms-go/tgms/agent/reader"
)

// Words that cannot change what a question asks are ignored and listed;
// each case names the intent, a part of the reading and the words the
// reading must list as ignored.
func TestWordsThatCannotChangeTheIntent(t *testing.T) {
	for _, c := range []struct {
		q, intent, line string
		ignored         []string
	}{
		// A description of a named node: before it, after an article,
		// a preposition or an auxiliary; or in a parenthesis after it.
		{"How many messages did flagged account n5 send in May 2004?", "node-event-count", "sent by n5", []string{"flagged"}},
		{"How many messages did the finance desk n5 send to the research desk n7 in May 2004?", "pair-event-count", "from n5 to n7", []string{"finance", "desk", "research", "desk"}},
		{"How many messages did the external auditor (node n5) send in May 2004?", "node-event-count", "sent by n5", []string{"external", "auditor"}},
		{"How many messages did n5 (the front-office switchboard) send in May 2004?", "node-event-count", "sent by n5", []string{"front", "office", "switchboard"}},
		{"How many messages did n5 (which I gather is a distribution list) send in May 2004?", "node-event-count", "sent by n5", []string{"which", "gather", "distribution", "list"}},
		{"How many messages were sent on 2004-05-03 (the spam-wave day)?", "event-count", "[2004-05-03T00:00Z, 2004-05-04T00:00Z)", []string{"spam", "wave"}},
		// Addressing, hedges, whole-data nouns, focus adverbs.
		{"@channel how many messages did n5 send in May 2004?", "node-event-count", "sent by n5", []string{"@channel"}},
		{"How many messages n5 appears to have sent in May 2004?", "node-event-count", "sent by n5", []string{"appears to"}},
		{"How many messages were sent across the institution in May 2004?", "event-count", "edge events", []string{"institution"}},
		{"How many messages did n5 send specifically in May 2004?", "node-event-count", "sent by n5", []string{"specifically"}},
		{"How many messages did n5 send in May 2004, meaning along any route?", "", "", nil}, // see the refusals: "route" is a path word
		// A size the question fixes, restated.
		{"How many cyclic triangles with three corners completing within 1 hour happened in May 2004?", "motif-count", "cyclic triangles", []string{"three", "corners"}},
		{"How many cyclic three-person exchanges completing within 1 hour happened in May 2004?", "motif-count", "cyclic triangles", []string{"three"}},
		{"How many messages went between n1 and n2 in May 2004, counting the two directions?", "pair-event-count", "either direction", []string{"two"}},
		{"How many ping-pong exchanges within 1 hour involved n5 as one of the two parties in May 2004?", "motif-count-around", "include n5", []string{"two", "parties"}},
		{"In hourly buckets, how many hours were flagged as bursts in May 2004?", "burst-count", "buckets of 1 hour", []string{"hours"}},
		// An upper bound beside δ restates it.
		// Idioms of politeness and restatement.
		{"How many neighbours did n5 have at 2004-05-03T10:00:00Z, at that exact second?", "neighbour-count-at", "n5", []string{"at that exact second"}},
		{"How many messages went from n5 to n7 in May 2004 (only that direction, please)?", "pair-event-count", "from n5 to n7", []string{"only that direction"}},
		{"How many different partners did n5 have in May 2004, sending or receiving no matter?", "partner-count", "either direction", []string{"no matter"}},
	} {
		if c.intent == "" {
			continue
		}
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

// Words that restrict what is counted or found are refused wherever no
// intent reads them: before or after the counted noun, in a clause on
// it, as the verb relating the counted thing, a size that is not
// restated, a unit that is not the buckets'.
func TestWordsThatMayRestrictAreRefused(t *testing.T) {
	for _, q := range []string{
		"How many opened messages did n5 send in May 2004?",                            // modifies the counted noun
		"How many external replies did n5 send in May 2004?",                           // modifies the counted noun
		"How many unanswered n5 messages were there in May 2004?",                      // the node modifies a noun: not a description
		"How many messages mentioning n5 were sent in May 2004?",                       // a verb relating the counted thing to the node
		"How many messages did n5 send to n7 in May 2004, meaning the ones n7 opened?", // a clause on the counted thing
		"How many messages did n5 send in May 2004 to the marketing desk?",             // a noun phrase that names no node
		"How many messages did n5 (which I gather were replies) send in May 2004?",
		"How many messages are cc n5 in May 2004?",                                   // a verb after an auxiliary, not a description
		"How many messages did bcc n5 get in May 2004?",                              // "did" with the node not the subject of a verb after it     // a parenthesis naming events
		"How many messages did n5 (excluding weekends) send in May 2004?",            // a meaning-changing word
		"How many messages did n5 (in June 2004) send in May 2004?",                  // a slot inside the parenthesis
		"How many time-respecting paths with two hops go from n1 to n2 in May 2004?", // a size that is a threshold
		"How many cyclic triangles with three hops completing within 1 hour happened in May 2004?",
		"In daily buckets, how many hours were flagged as bursts in May 2004?", // not the buckets' unit
		"How many messages did n5 forward in May 2004?",                        // forwarding is not recorded
		"How many messages turned up in May 2004?",                             // new nodes, but messages are counted
		"How many messages did n5 send on Mon in May 2004?",                    // a weekday: a calendar cycle
		"How many mesages did n5 send in May 2004?",                            // a dropped letter is not a swap
		"How many messages did n5 send in May 2004, meaning along any route?",
		"How many messages were sent the month after May 3, 2004?", // a period word bounding a window no slot read
		"How many new nodes appeared in the day before May 3, 2004?",
		"Which nodes formed cyclic triangles within an hour in the month beginning May 3, 2004?",
		"How many messages did n5 send in maximum one day in May 2004?", // "maximum" bounds nothing the question reads
		"How many cyclic triangles within one hour had the maximum number of nodes in May 2004?",
		"How many messages went between n5 and n7 in May 2004, one direction only?", // which direction?
		"How many neighbours did n5 have at that exact second?",                     // no instant written: it points elsewhere
		"How many messages did n5 send (only that direction)?",
		"How many messages were sent on 2004-05-03 (the busiest day)?", // a concept word in the parenthesis
		"How many messages were sent on 2004-05-03 (the day n7 left)?", // a node in the parenthesis
		"How many messages were sent on 2004-05-03 (the spam wave)?",   // not a name of the day
		"How much BTC volume did n5 send in May 2004?",                 // a volume that is not of events
		"What was the volume of BTC n5 sent in May 2004?",
	} {
		if r, err := reader.Read(q, collegeEnv); err == nil {
			t.Errorf("%q: read as %s, want a refusal", q, r.Line())
		}
	}
}

// Inflections the stemmer misses, misspellings by one swap, WordNet
// synonyms and abbreviations read as the words they stand for.
func TestVocabulary(t *testing.T) {
	for _, c := range []struct{ q, intent, line string }{
		{"How many messages went from n5 to n7 in May 2004?", "pair-event-count", "from n5 to n7"},
		{"How many messages has n5 recieved in May 2004?", "node-event-count", `received by n5, events in [2004-05-01T00:00Z, 2004-06-01T00:00Z), belief now; read "recieved" as "received"`},
		{"How many messages did n5 hand out in May 2004?", "node-event-count", "sent by n5"},
		{"How many different accnts did n5 trade messages with in May 2004?", "partner-count", "either direction"},
		{"How many nodes turned up for the first time in May 2004?", "new-nodes", "first valid"},
		{"Who initiated the earliest cyclic triangle within 1 hour among the nodes n5 can reach in May 2004?", "motif-first-actor", "reachable from n5"},
		{"Among the nodes n5 can reach in May 2004, who kicks off the earliest cyclic triangle within 1 hour?", "motif-first-actor", "reachable from n5"},
		{"How many nodes did n5's messages get through to in May 2004?", "reach-count", "reachable from n5"},
		{"Which 6-hour block had the most messages in May 2004?", "busiest-bucket", "buckets of 6 hours"},
		{"How many messages involved n5 in May 2004 (either side)?", "node-event-count", "sent or received by n5"},
		{"How many ping-pong exchanges within 1 hour had n5 on one side or the other in May 2004?", "motif-count-around", "include n5"},
		{"How many nodes got added between 2004-05-01 and 2004-06-01?", "nodes-added", "present at t2 but not at t1"},
		{"What was the message volume in May 2004?", "event-count", "edge events"},
		{"How many brand-new nodes appeared in May 2004?", "new-nodes", "first valid"},
		{"Which neighbours did n5 pick up between 2004-05-01 and 2004-06-01?", "neighbours-gained", "gained"},
		{"How many pairs of n5's outbound messages follow one another within 5 minutes?", "follow-ups", "sent by n5"},
		{"Which two nodes were the most prolific senders in June 2004?", "top-nodes", "top 2"},
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

// The word pass never panics, refuses with a *Refusal, and lists as
// ignored only words the question holds.
func FuzzWordPass(f *testing.F) {
	for _, it := range []string{
		"@channel how many messages did the escrow desk (node n5) send in May 2004?",
		"How many messages did n5 (which I gather is a shared mailbox) send (the two) in May 2004?",
		"How many cyclic three-way exchanges with the three corners, an hour or less, one hour maximum, in May 2004?",
		"How many messages has n5 recieved on 2004-05-03 (the spam-wave day), at that exact second?",
		"the two ( three - ( n5 ( did flagged n5 send ) @ @",
		"",
	} {
		f.Add(it)
	}
	f.Fuzz(func(t *testing.T, text string) {
		r, err := reader.Read(text, collegeEnv)
		if err != nil {
			if _, ok := err.(*reader.Refusal); !ok {
				t.Fatalf("%q: error %T %v is not a refusal", text, err, err)
			}
			return
		}
		low := strings.ToLower(text)
		for _, w := range r.Ignored {
			if !strings.Contains(low, strings.ToLower(strings.TrimPrefix(w, "@"))) {
				t.Fatalf("%q: ignored %q, which it does not hold", text, w)
			}
		}
	})
}
