package agent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/agent"
	bt "github.com/tgms-go/tgms/bitemporal"
)

// An empty first row is a certified "none" that says what is empty and
// over which window: no node reached (also where a later step reads the
// first node reached), no bucket bursting; a question with an answer is
// not read as none.
func TestEmptyAnswersSayNone(t *testing.T) {
	db, err := tgms.Open(t.TempDir(), &tgms.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const day = int64(86_400_000_000)
	var evs []bt.Event
	// n1 → n2 once a day for 30 days, evenly: no burst; n3 only receives.
	for d := range int64(30) {
		evs = append(evs, bt.Event{Src: "n1", Dst: "n2", RelType: "MSG", VtS: d * day, VtE: d*day + 1},
			bt.Event{Src: "n2", Dst: "n3", RelType: "MSG", VtS: d*day + 5, VtE: d*day + 6})
	}
	if _, err := db.Write(bt.Ingest(evs, "Node")); err != nil {
		t.Fatal(err)
	}
	win := "from 1970-01-01 to 1970-01-31"
	for _, c := range []struct {
		q, none string // none: "" when the question has an answer
	}{
		{"Which node does n3 reach first " + win + "?", "none: n3 reaches no node in [1970-01-01T00:00Z, 1970-01-31T00:00Z)"},
		{"How many versions does the first node n3 reaches " + win + " have?", "none: n3 reaches no node in [1970-01-01T00:00Z, 1970-01-31T00:00Z)"},
		{"When can a message from n3 first reach n1 " + win + "?", "none: no time-respecting path from n3 reaches n1 in [1970-01-01T00:00Z, 1970-01-31T00:00Z)"},
		{"When was the first burst of activity in daily buckets " + win + "?", "none: no bucket bursts in [1970-01-01T00:00Z, 1970-01-31T00:00Z)"},
		{"Which node does n1 reach first " + win + "?", ""},
		{"How many versions does the first node n1 reaches " + win + " have?", ""},
	} {
		res, err := agent.Ask(context.Background(), db, agent.Question{Text: c.q, UIDs: []string{"n1", "n3"}}, agent.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if c.none == "" {
			if res.Refusal != "" || res.Kind == agent.KindEmpty || res.Value == nil {
				t.Errorf("%q: refusal %q, kind %q, value %v", c.q, res.Refusal, res.Kind, res.Value)
			}
			continue
		}
		if res.Refusal != "" || res.Kind != agent.KindEmpty || res.Certified == nil || !res.Certified.Claims[0].Emitted {
			t.Errorf("%q: refusal %q, kind %q", c.q, res.Refusal, res.Kind)
			continue
		}
		if !strings.HasPrefix(res.Certified.Text, c.none+"\n") {
			t.Errorf("%q: certified text %q, want it to open with %q", c.q, res.Certified.Text, c.none)
		}
	}
}
