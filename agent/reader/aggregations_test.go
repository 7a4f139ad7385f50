package reader_test

import (
	"strings"
	"testing"

	"github.com/tgms-go/tgms/agent/reader"
)

// rankCase is a question with the intent it must be read as, parts of
// its reading and of its plan; an empty intent is a refusal.
type rankCase struct {
	q, intent string
	line      []string
	plan      []string
}

func checkRank(t *testing.T, cases []rankCase) {
	t.Helper()
	for _, c := range cases {
		r, err := reader.Read(c.q, collegeEnv)
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
		for _, l := range c.line {
			if !strings.Contains(r.Line(), l) {
				t.Errorf("%q: reading %q lacks %q", c.q, r.Line(), l)
			}
		}
		for _, p := range c.plan {
			if !strings.Contains(string(r.Plan()), p) {
				t.Errorf("%q: plan %s lacks %s", c.q, r.Plan(), p)
			}
		}
	}
}

// An ordinal before a superlative asks for the row at that rank; one
// standing anywhere else, two ranks, or a rank beside a count of rows
// are refused.
func TestOrdinalRank(t *testing.T) {
	checkRank(t, []rankCase{
		{"Which was the second-busiest day of June 2004?", "busiest-bucket",
			[]string{"ranked 2 by edge events"}, []string{`"k":2`, `s2.rows[1]`}},
		{"Which hour of 9 June 2004 was the third busiest?", "busiest-bucket",
			[]string{"ranked 3"}, []string{`"k":3`, `rows[2]`}},
		{"Which calendar week of 2004 was the runner-up for messages?", "busiest-bucket",
			[]string{"calendar week", "ranked 2"}, []string{`"unit":"week"`, `rows[1]`}},
		{"Which day of June 2004 was the second busiest? Not the busiest one.", "busiest-bucket",
			[]string{"ranked 2", `ignored: "Not the busiest one"`}, nil},
		{"Who was the second most active sender in June 2004?", "top-nodes",
			[]string{"node ranked 2 by events sent"}, []string{`"k":2`, `rows[1].src`}},
		{"Which user received the fourth most messages in June 2004?", "top-nodes",
			[]string{"node ranked 4 by events received"}, []string{`rows[3].dst`}},
		// Refused: a rank and a count, two ranks, an ordinal with no
		// superlative, a negation that says more than the rank.
		{"Which 3 users were the second most active senders in June 2004?", "", nil, nil},
		{"Who were the top 3 second busiest senders in June 2004?", "", nil, nil},
		{"Which day of June 2004 was the second busiest, the third busiest overall?", "", nil, nil},
		{"How many messages did n41 send on the second day of its activity?", "", nil, nil},
		{"Which day of June 2004 was the busiest? Not the second one.", "", nil, nil},
		{"Which day of June 2004 had the most messages, and which had the second most?", "", nil, nil},
		{"Who sent the most messages in June 2004, and who was the second busiest sender?", "", nil, nil},
	})
}

// A node set aside opening the question or right after "who" is left
// out of the ranked nodes; written anywhere else it may set aside its
// events, and is refused.
func TestExceptNode(t *testing.T) {
	checkRank(t, []rankCase{
		{"Apart from n41, which three users sent the most messages in June 2004?", "top-nodes-except",
			[]string{"top 3 nodes by events sent", "leaving out n41"},
			[]string{`"cmp":"ne"`, `"value":"n41"`, `"k":3`, `s3.rows[*].src`}},
		{"Excluding n41, who received the most messages in June 2004?", "top-nodes-except",
			[]string{"by events received", "leaving out n41"}, []string{`s3.rows[0].dst`}},
		{"Who, other than n41, was the busiest sender in June 2004?", "top-nodes-except",
			[]string{"leaving out n41"}, []string{`"value":"n41"`}},
		{"Aside from n41, who was the second busiest sender in June 2004?", "top-nodes-except",
			[]string{"node ranked 2", "leaving out n41"}, []string{`"k":2`, `rows[1].src`}},
		{"Not counting n41, which three users sent the most messages in June 2004?", "top-nodes-except",
			[]string{"leaving out n41"}, []string{`"k":3`}},
		{"Leaving out n41, who received the most messages in June 2004?", "top-nodes-except",
			[]string{"by events received", "leaving out n41"}, nil},
		// Refused: after the counted events, at the end, or in a
		// question that ranks nothing.
		{"Which three users received the most messages from anyone other than n41 in June 2004?", "", nil, nil},
		{"Which three users received the most messages in June 2004, apart from n41?", "", nil, nil},
		{"How many messages did n7 send in June 2004 apart from n41?", "", nil, nil},
		{"Apart from n41, how many messages were sent in June 2004?", "", nil, nil},
		{"Apart from n41, who sent the most messages in June 2004, and how many did n41 send?", "", nil, nil},
	})
}

// With no sending or receiving verb, the preposition before a node says
// its direction; "for" says none and is refused.
func TestBareDirection(t *testing.T) {
	checkFit(t, collegeEnv, []fitCase{
		{q: "How many messages went to n41 in June 2004?", intent: "node-event-count", dir: "dst", source: "n41"},
		{q: "How many ratings were given to n41 in June 2004?", intent: "node-event-count", dir: "dst", source: "n41"},
		{q: "How many messages came from n41 in June 2004?", intent: "node-event-count", dir: "src", source: "n41"},
		{q: "How many messages to or from n41 were there in June 2004?", intent: "node-event-count", dir: "either", source: "n41"},
		{q: "How many messages did n41 give in June 2004?", intent: "node-event-count", dir: "src", source: "n41"},
		{q: "How many messages did n41 get in June 2004?", intent: "node-event-count", dir: "dst", source: "n41"},
		{q: "How many messages involving n41 were there in June 2004?", intent: "node-event-count", dir: "either", source: "n41"},
		{q: "How many ratings were logged for n41 in June 2004?", intent: ""},
		{q: "How many messages for n41 were there in June 2004?", intent: ""},
		{q: "How many messages from n41's contacts were there in June 2004?", intent: ""},
		{q: "How many messages to n41's partners were there in June 2004?", intent: ""},
	})
}

// "only" confining a question to a node's own events is what a node's
// burst series is; in any other question, or with one direction, it is
// refused.
func TestOnlyOwnEvents(t *testing.T) {
	checkRank(t, []rankCase{
		{"Looking only at n41's own traffic (sent and received) in daily buckets over June 2004, how many bursts are there?", "node-burst-count",
			[]string{"bursts of n41's activity"}, []string{`"kind":"node_activity"`, `"uid":"n41"`}},
		{"Considering only n41's own activity, when did it first burst in hourly buckets on 9 June 2004?", "node-first-burst",
			[]string{"bursts of n41's activity"}, nil},
		{"Looking only at n41's own messages, how many messages were sent in June 2004?", "", nil, nil},
		{"Looking only at n41's own traffic (sent only) in daily buckets over June 2004, how many bursts are there?", "", nil, nil},
		{"Looking only at n41's traffic in daily buckets over June 2004, how many bursts are there?", "", nil, nil},
	})
}

// A lower bound on a node's count of events: "more than N" is strict,
// "at least N" and "N or more" include N; restatements must agree, and
// upper bounds, bounds per period and bounds with no direction are
// refused.
func TestThresholds(t *testing.T) {
	checkRank(t, []rankCase{
		{"How many users sent more than 4 messages in June 2004?", "threshold-count",
			[]string{"nodes that sent more than 4 events"}, []string{`"cmp":"gt"`, `"value":4`, `"role":"src"`}},
		{"How many users were sent at least two messages in June 2004?", "threshold-count",
			[]string{"received at least 2 events"}, []string{`"cmp":"ge"`, `"role":"dst"`}},
		{"How many users got at least two messages from n41 in June 2004?", "partner-threshold-count",
			[]string{"received at least 2 events from n41"}, []string{`"cmp":"ge"`, `"value":2`, `"field":"dst"`}},
		{"How many users wrote 3 or more messages to n41 in June 2004?", "partner-threshold-count",
			[]string{"sent at least 3 events to n41"}, []string{`"field":"src"`}},
		{"How many users received more than six messages from n41 in June 2004? Strictly more than six; exactly six does not count.", "partner-threshold-count",
			[]string{"more than 6", `"exactly six does not count"`}, nil},
		{"How many users sent over 4 messages in June 2004?", "threshold-count",
			[]string{"sent more than 4 events"}, []string{`"cmp":"gt"`}},
		{"How many users sent over 4 days in June 2004?", "", nil, nil},
		{"Which users sent more than 4 messages in June 2004?", "threshold-nodes",
			[]string{"the nodes that sent more than 4 events"}, []string{`s1.rows[*].src`}},
		{"Who received at least 2 messages from n41 in June 2004?", "partner-threshold-nodes",
			[]string{"the nodes that received at least 2 events from n41"}, []string{`s2.rows[*].dst`}},
		{"Which users had more than 4 messages in June 2004?", "", nil, nil},
		{"Which users sent fewer than 4 messages in June 2004?", "", nil, nil},
		{"How many users sent fewer than 4 messages in June 2004?", "", nil, nil},
		{"How many users sent at most 4 messages in June 2004?", "", nil, nil},
		{"How many users sent more than 4 messages each day in June 2004?", "", nil, nil},
		{"How many users had more than 4 messages in June 2004?", "", nil, nil},
		{"How many users received more than six messages from n41 in June 2004? At least six, that is.", "", nil, nil},
		{"How many users received more than six messages from n41 in June 2004? Exactly six counts too.", "", nil, nil},
		{"How many of n41's partners sent more than 4 messages in June 2004?", "", nil, nil},
	})
}

// Calendar buckets are read the same whichever word asks for them; a
// calendar hour is the clock's hour, read only on a window that starts
// on the hour.
func TestCalendarBucketWords(t *testing.T) {
	checkRank(t, []rankCase{
		{"Which was the most active calendar day of June 2004?", "busiest-bucket",
			[]string{"the calendar day with the most edge events"}, []string{`"dim":"time_bucket","unit":"day"`}},
		{"Which was the heaviest calendar week of June 2004?", "busiest-bucket",
			[]string{"calendar week (ISO"}, []string{`"unit":"week"`}},
		{"Which calendar hour of 9 June 2004 was the busiest?", "busiest-bucket",
			[]string{"buckets of 1 hour"}, []string{`"stride":3600000000`}},
		{"Between 09:30 and 15:30 UTC on 9 June 2004, which calendar hour was the busiest?", "", nil, nil},
	})
}

// In a pair question "the first" and "the second" name the pair's
// events, and a remark on events stamped with one instant says how they
// pair: counted (once) restates the (time, event id) order, excluded
// asks for a strictly later second. Other remarks, and such a remark
// outside a pair question, are refused.
func TestPairRemarks(t *testing.T) {
	checkRank(t, []rankCase{
		{"How many pairs of n41's outgoing messages follow one another within 10 minutes in June 2004 (messages stamped with the same second included, each such pair once)?", "follow-ups",
			[]string{"at or after the first in (time, event id) order"}, nil},
		{"How many pairs of n41's outgoing messages follow one another within 10 minutes in June 2004? Messages sent at the same instant are excluded.", "follow-ups",
			[]string{"strictly later"}, []string{`"order":"strict"`}},
		{"In June 2004, how many pairs of messages sent by n41 were there in which the second was sent at most ten minutes after the first?", "follow-ups",
			[]string{"within 10 minutes"}, []string{`"within":600000000`}},
		{"How many pairs of n41's outgoing messages follow one another within 10 minutes in June 2004 (two copies logged at the same second count as one pair)?", "follow-ups",
			[]string{"(time, event id) order"}, nil},
		{"How many pairs of n41's outgoing messages follow one another within 10 minutes in June 2004 (messages stamped with the same second counted twice)?", "", nil, nil},
		{"How many pairs of n41's outgoing messages follow one another within 10 minutes in June 2004 (two copies logged at the same second count as two pairs)?", "", nil, nil},
		{"In June 2004, how many pairs of messages sent by n41 were there in which the second was sent at most ten minutes before the first?", "", nil, nil},
		{"How many messages did n41 send in June 2004, copies logged at the same second included?", "", nil, nil},
		{"In June 2004, how often did n41 follow one message with another within five minutes? I want the number of pairs.", "follow-ups",
			[]string{"within 5 minutes"}, nil},
		{"In June 2004, how often did n41 follow one message with another within five minutes?", "", nil, nil},
		{"In June 2004, how often per week did n41 follow one message with another within five minutes? I want the number of pairs.", "", nil, nil},
	})
}

// Instances drawn from a node's partners: "among n5's partners", or a
// clause putting every corner in the set; a clause that names no set,
// and partners taking part in instances, are refused.
func TestMotifSets(t *testing.T) {
	checkRank(t, []rankCase{
		{"Among n41's partners in June 2004, how many cyclic triangles completing within an hour were there?", "motif-count-partners",
			[]string{"every node is a partner of n41", "n41 itself not among them"},
			[]string{`"role":"either"`, `"cmp":"ne"`, `"node_filter":{"$ref":"s2.rows[*].node"}`}},
		{"Among the correspondents of n41 in June 2004, how many ping-pong exchanges within 30 minutes happened?", "motif-count-partners",
			[]string{"ping-pong"}, []string{`"motif":"M_2node_pingpong"`}},
		{"In June 2004, how many cyclic triangles within an hour were there, all three of whose corners exchanged messages with n41?", "motif-count-partners",
			[]string{"partner of n41"}, nil},
		{"In June 2004, how many cyclic triangles within an hour were there, all three of whose corners were reachable from n41?", "motif-count-reach",
			[]string{"among the nodes reachable from n41"}, nil},
		{"How many cyclic triangles within an hour did n41's partners take part in during June 2004?", "", nil, nil},
		{"In June 2004, how many cyclic triangles within an hour were there, all three of whose corners were active?", "", nil, nil},
		{"Among n41's partners in June 2004, how many cyclic triangles of messages sent within an hour were there?", "", nil, nil},
		{"In June 2004, how many cyclic triangles within an hour were there, all three of whose corners exchanged messages with n41 and were reachable from n41?", "", nil, nil},
	})
}

// Once a cycle is named, a fold over its periods, the clock's name for
// its position and a negation of one particular bucket restate it;
// without a cycle, or over another period, they are refused.
func TestCycleRestatements(t *testing.T) {
	checkRank(t, []rankCase{
		{"Which hour of the day had the most messages in 2004, summed over all the days?", "busiest-cycle",
			[]string{`ignored: "summed over all the days"`}, []string{`"cycle":"hour_of_day"`}},
		{"Which day of the week had the most messages in 2004, across all the weeks?", "busiest-cycle",
			[]string{"day of the week"}, []string{`"cycle":"day_of_week"`}},
		{"Which hour of the day had the most messages in 2004? Not one particular hour on one particular day, but the hour of the clock.", "busiest-cycle",
			[]string{"hour of the day"}, nil},
		{"Which hour of the day had the most messages in 2004, summed over all the weeks?", "", nil, nil},
		{"Which hour of the clock had the most messages in 2004?", "", nil, nil},
		{"Which hour had the most messages in 2004? Not one particular hour on one particular day.", "", nil, nil},
		{"Which hour of the day had the most messages in 2004? Not one particular hour of the week.", "", nil, nil},
	})
}

// An average per period is the mean of every period's count, quiet ones
// as zero, over a window of whole periods; one over some periods, over
// periods of no fixed width, or a count of periods that disagrees with
// the window is refused.
func TestAveragePerPeriod(t *testing.T) {
	checkRank(t, []rankCase{
		{"What was the average number of messages per day in June 2004?", "average-per-period",
			[]string{"mean of the window's edge events per day"},
			[]string{`"stride":86400000000`, `"fn":"mean"`, `"field":"value"`}},
		{"What was the average number of messages per day in June 2004, counting every one of the thirty days (quiet days included)?", "average-per-period",
			[]string{"quiet ones as zero"}, nil},
		{"What was the mean number of messages per hour on 9 June 2004?", "average-per-period",
			[]string{"per hour"}, []string{`"stride":3600000000`}},
		{"What was the average number of messages per active day in June 2004?", "", nil, nil},
		{"What was the average number of messages per day in June 2004, counting every one of the thirty-one days?", "", nil, nil},
		{"What was the average number of messages per month in 2004?", "", nil, nil},
		{"What was the average number of messages per day between 2004-06-01 12:00 and 2004-06-03 00:00 UTC?", "", nil, nil},
		{"What was the average number of messages per day per week in June 2004?", "", nil, nil},
		{"What was the average number of messages per user per day in June 2004?", "", nil, nil},
		{"What was the average number of messages each user sent per day in June 2004?", "", nil, nil},
		{"What was the average number of messages per day in June 2004 for the active ones?", "", nil, nil},
	})
}
