package reader_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/agent/reader"
)

// planStep is the first step of a reading's plan, decoded loosely.
type planStep struct {
	Op   string         `json:"op"`
	Args map[string]any `json:"args"`
}

func firstStep(t *testing.T, r *reader.Reading) planStep {
	t.Helper()
	var p struct {
		Steps []planStep `json:"steps"`
	}
	if err := json.Unmarshal(r.Plan(), &p); err != nil || len(p.Steps) == 0 {
		t.Fatalf("plan %s: %v", r.Plan(), err)
	}
	return p.Steps[0]
}

// Counting questions in several wordings: follow-ups over a window,
// calendar buckets, buckets written as "day by day", a node's own
// bursts, a period in the possessive and an event's making.
func TestCountingWordings(t *testing.T) {
	cases := []struct {
		q, intent, op string
		a, b          string // the window
		arg, want     string // one argument of the first step, as JSON ("" for none)
	}{
		{"How many pairs of n12's outgoing messages came within 3 minutes of each other in June 2004?", "follow-ups", "temporal_pattern", "2004-06-01", "2004-07-01", "within", "180000000"},
		{"n77 follow-ups within 20 min, July 2004", "follow-ups", "temporal_pattern", "2004-07-01", "2004-08-01", "bind", `{"u":["n77"]}`},
		{"On 2004-06-02, how many pairs of n40's sent messages were at most 15 minutes apart?", "follow-ups", "temporal_pattern", "2004-06-02", "2004-06-03", "distinct", "false"},
		{"How many pairs of n40's outgoing messages follow one another within an hour, to a different recipient, in May 2004?", "follow-ups", "temporal_pattern", "2004-05-01", "2004-06-01", "distinct", "true"},
		{"How many pairs of n40's outgoing messages follow one another within an hour (the same recipient allowed) in May 2004?", "follow-ups", "temporal_pattern", "2004-05-01", "2004-06-01", "distinct", "false"},
		{"During the week of 2004-06-07, how many times did n40 write a further message strictly after the previous one, at most 2 hours after it, counted as pairs?", "follow-ups", "temporal_pattern", "2004-06-07", "2004-06-14", "order", `"strict"`},
		{"What was the busiest ISO week of Q3 2004?", "busiest-bucket", "aggregate_events", "2004-07-01", "2004-10-01", "group_by", `[{"dim":"time_bucket","unit":"week","utc_offset_minutes":0}]`},
		{"Which calendar day of July 2004 carried the most messages?", "busiest-bucket", "aggregate_events", "2004-07-01", "2004-08-01", "group_by", `[{"dim":"time_bucket","unit":"day","utc_offset_minutes":0}]`},
		{"What was the busiest calendar month of 2004?", "busiest-bucket", "aggregate_events", "2004-01-01", "2005-01-01", "group_by", `[{"dim":"time_bucket","unit":"month","utc_offset_minutes":0}]`},
		{"Which month between May and September 2004 had the most messages?", "busiest-bucket", "aggregate_events", "2004-05-01", "2004-10-01", "group_by", `[{"dim":"time_bucket","unit":"month","utc_offset_minutes":0}]`},
		{"Which hour of 2004-06-09 was the busiest?", "busiest-bucket", "graph_metric_timeseries", "2004-06-09", "2004-06-10", "stride", "3600000000"},
		{"Going hour by hour over 2004-06-09, how many bursts were there?", "burst-count", "burst_detection", "2004-06-09", "2004-06-10", "stride", "3600000000"},
		{"Over June 2004, by the day, when was the first burst?", "first-burst", "burst_detection", "2004-06-01", "2004-07-01", "stride", "86400000000"},
		{"In daily buckets over June 2004, how many bursts were there by the usual z-score test?", "burst-count", "burst_detection", "2004-06-01", "2004-07-01", "target", `{"kind":"edge_event_rate"}`},
		{"When did n33's activity first burst in 6-hour buckets in June 2004?", "node-first-burst", "burst_detection", "2004-06-01", "2004-07-01", "target", `{"kind":"node_activity","uid":"n33"}`},
		{"How many bursts did the traffic of n33, sent and received, have in daily buckets from June to August 2004?", "node-burst-count", "burst_detection", "2004-06-01", "2004-09-01", "target", `{"kind":"node_activity","uid":"n33"}`},
		{"2004: when did the first weekly spike hit?", "first-burst", "burst_detection", "2004-01-01", "2005-01-01", "stride", "604800000000"},
		{"The reciprocity over the third week of May 2004, how much was it?", "reciprocity", "graph_metric_timeseries", "2004-05-15", "2004-05-22", "", ""},
		{"What share of June 2004's sender-recipient pairs were reciprocated?", "reciprocity", "graph_metric_timeseries", "2004-06-01", "2004-07-01", "", ""},
		{"How many messages were created during the second week of June 2004?", "event-count", "graph_metric_timeseries", "2004-06-08", "2004-06-15", "", ""},
	}
	for _, c := range cases {
		r, err := reader.Read(c.q, collegeEnv)
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		if r.Intent != c.intent || r.Window == nil || r.Window.Start != us(c.a) || r.Window.End != us(c.b) {
			t.Errorf("%q: read as %s (%s), want %s over [%s, %s)", c.q, r.Intent, r.Line(), c.intent, c.a, c.b)
			continue
		}
		s := firstStep(t, r)
		if s.Op != c.op {
			t.Errorf("%q: first step %s, want %s", c.q, s.Op, c.op)
		}
		if c.arg != "" {
			got, _ := json.Marshal(s.Args[c.arg])
			if string(got) != c.want {
				t.Errorf("%q: %s = %s, want %s", c.q, c.arg, got, c.want)
			}
		}
	}
}

// Counting questions that must be refused, and a word of the reason.
func TestCountingRefusals(t *testing.T) {
	cases := []struct{ q, want string }{
		// Pairs of received events are no follow-ups.
		{"How many pairs of messages n12 received came within 3 minutes of each other in June 2004?", ""},
		// One recipient only restricts the pairs.
		{"How many pairs of n40's outgoing messages to the same recipient follow one another within an hour in May 2004?", "one recipient"},
		// "distinct" of something other than the recipient.
		{"How many distinct pairs of n40's outgoing messages follow one another within an hour in May 2004?", "distinct"},
		// A month over more than one year, or over the whole store: the
		// month of the year or one calendar month?
		{"Which month had the most messages between 2004-06-01 and 2005-03-01?", "month of the year"},
		// Calendar months have no fixed width for a burst test.
		{"How many bursts were there in calendar month buckets in 2004?", ""},
		// A node's bursts are its sent and received events together.
		{"How many bursts did n33's sent messages have in daily buckets in June 2004?", "sends and receives"},
		// "2004 day by day": no duration of 2004 days (after "taking" the
		// year is the window, TestYearAfterAttentionVerb).
		{"Counting 2004 day by day, how many bursts were there?", ""},
		// "how much is it" asks for the value of a measure, and a count of
		// messages is none.
		{"The messages in May 2004, how much is it?", ""},
		// A verb of arriving away from the burst noun still reaches.
		{"When did the first daily burst of messages from n5 reach n7 in May 2004?", ""},
		// "by the day after D" is a deadline, not a bucket.
		{"How many bursts were there by the day after 2004-06-09?", ""},
	}
	for _, c := range cases {
		r, err := reader.Read(c.q, collegeEnv)
		if err == nil {
			t.Errorf("%q: read as %s, want a refusal", c.q, r.Line())
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.q, err, c.want)
		}
	}
}

// The suggestions of a refused counting question keep its node and
// window wherever a suggestion reads.
func TestCountingSuggestionsKeepTheSlots(t *testing.T) {
	for _, c := range []struct {
		q, node string
		a, b    string
	}{
		{"How many bursts did n33's sent messages have in daily buckets in June 2004?", "n33", "2004-06-01", "2004-07-01"},
		{"How many pairs of n40's outgoing messages to the same recipient follow one another within an hour in May 2004?", "n40", "2004-05-01", "2004-06-01"},
		{"Which month had the most messages between 2004-06-01 and 2005-03-01?", "", "2004-06-01", "2005-03-01"},
	} {
		_, err := reader.Read(c.q, collegeEnv)
		rf, ok := err.(*reader.Refusal)
		if !ok || len(rf.Suggestions) == 0 {
			t.Errorf("%q: %v, want a refusal with suggestions", c.q, err)
			continue
		}
		for _, s := range rf.Suggestions {
			r, err := reader.Read(s, collegeEnv)
			if err != nil {
				continue
			}
			if r.Window != nil && (r.Window.Start != us(c.a) || r.Window.End != us(c.b)) {
				t.Errorf("%q\n  suggestion %q reads the window [%s, %s)", c.q, s, r.Window.StartText, r.Window.EndText)
			}
			for _, n := range r.Nodes {
				if c.node != "" && n.UID != c.node && (n.Role == "node" || n.Role == "source") {
					t.Errorf("%q\n  suggestion %q reads %s as the %s", c.q, s, n.UID, n.Role)
				}
			}
		}
	}
}
