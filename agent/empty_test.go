package agent_test

import (
	"context"
	"testing"

	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/agent"
	bt "github.com/tgms-go/tgms/bitemporal"
)

// A question whose answer is the first row of an empty, complete result
// (no path, no burst) gets a certified "none", with its window, not a
// failure; a question with an answer is unaffected.
func TestEmptyResultIsAnAnswer(t *testing.T) {
	db, err := tgms.Open(t.TempDir(), &tgms.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ev := func(s, d string, at int64) bt.Event {
		return bt.Event{Src: s, Dst: d, RelType: "MSG", VtS: at, VtE: at + 1}
	}
	// n1 → n2 at 10 and n3 → n1 at 20: n3 is never reached from n1.
	if _, err := db.Write(bt.Ingest([]bt.Event{ev("n1", "n2", 10), ev("n3", "n1", 20), ev("n2", "n1", 30)}, "Node")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ask := func(q string, uids ...string) *agent.Result {
		res, err := agent.Ask(ctx, db, agent.Question{Text: q, UIDs: uids}, agent.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := ask("When can a message from n1 first reach n3 from 0 to 100?", "n1", "n3")
	if res.Refusal != "" || res.Kind != agent.KindEmpty || res.Certified == nil || len(res.Certified.Claims) != 1 || !res.Certified.Claims[0].Emitted {
		t.Fatalf("no path: refusal %q, kind %q, certified %+v", res.Refusal, res.Kind, res.Certified)
	}
	if res.Reading == nil || res.Reading.Window == nil || res.Reading.Window.Start != 0 || res.Reading.Window.End != 100 {
		t.Errorf("the empty answer does not carry its window: %+v", res.Reading)
	}
	// An empty set over complete evidence is certified as empty.
	res = ask("Which nodes were neighbours of n3 at 15 µs?", "n3")
	if v, ok := res.Value.([]any); res.Refusal != "" || !ok || len(v) != 0 {
		t.Fatalf("no neighbours: refusal %q, value %#v", res.Refusal, res.Value)
	}
	res = ask("When can a message from n1 first reach n2 from 0 to 100?", "n1", "n2")
	if res.Refusal != "" || res.Kind == agent.KindEmpty || res.Value == nil {
		t.Fatalf("a path exists: refusal %q, kind %q, value %v", res.Refusal, res.Kind, res.Value)
	}
}
