package agent_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/agent"
	"github.com/tgms-go/tgms/evidence"
	"github.com/tgms-go/tgms/llm"
)

// The model's claims are verified and gated: a true claim passes, a
// fabricated one is withheld with its reason, and the certified value comes
// from the deterministic answer claim.
func TestLLMReporterClaimsAreGated(t *testing.T) {
	db, _ := synthStore(t, 2000)
	q := storeQuestion(db, "n1")
	// A first run finds the true count, so the replayed reply can state it.
	base, err := agent.Ask(context.Background(), db, q, agent.Options{})
	if err != nil || base.Value == nil {
		t.Fatalf("base run: %v %+v", err, base)
	}
	n := base.Value
	reply := fmt.Sprintf(`{"text":"n1 reached %v nodes, including fabricated-7.","claims":[
 {"id":"c1","kind":"count","step":"s1","path":"rows_total","value":%v},
 {"id":"c2","kind":"entity","step":"s1","path":"rows[*].uid","uids":["fabricated-7"]}]}`, n, n)
	srv, replay := llm.NewReplayServer(llm.Entry{Text: "```json\n" + reply + "\n```"})
	defer srv.Close()
	c, err := llm.New(llm.Config{BaseURL: srv.URL + "/v1", Model: "replay-model"})
	if err != nil {
		t.Fatal(err)
	}
	rep := &agent.LLMReporter{Client: c}
	res, err := agent.Ask(context.Background(), db, q, agent.Options{Reporter: rep})
	if err != nil {
		t.Fatal(err)
	}
	if res.Value != n {
		t.Fatalf("value %v, want %v", res.Value, n)
	}
	var withheld []string
	for _, w := range res.Certified.Withheld {
		withheld = append(withheld, w.ID+":"+w.Verdict)
	}
	if len(withheld) != 1 || withheld[0] != "m2:"+evidence.Unsupported || strings.Contains(res.Certified.Text, "fabricated") {
		t.Fatalf("withheld %v, certified text %q", withheld, res.Certified.Text)
	}
	if res.Certified.Metrics.Emitted != 2 || len(replay.Requests()) != 1 {
		t.Fatalf("metrics %+v, %d requests", res.Certified.Metrics, len(replay.Requests()))
	}
	if !strings.Contains(replay.Requests()[0].Messages()[1].Content, "<data>") {
		t.Fatal("the question is not fenced as data in the reporter prompt")
	}
}

// Two malformed replies fall back to the deterministic reporter.
func TestLLMReporterFallsBack(t *testing.T) {
	db, _ := synthStore(t, 2000)
	q := storeQuestion(db, "n1")
	srv, replay := llm.NewReplayServer(llm.Entry{Text: "I think about 12."}, llm.Entry{Text: `{"claims":[{"id":"c1","kind":"guess"}]}`})
	defer srv.Close()
	c, err := llm.New(llm.Config{BaseURL: srv.URL + "/v1", Model: "replay-model"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := agent.Ask(context.Background(), db, q, agent.Options{Reporter: &agent.LLMReporter{Client: c}})
	if err != nil {
		t.Fatal(err)
	}
	if len(replay.Requests()) != 2 || res.Value == nil || len(res.Answer.Claims) != 1 || res.Answer.Claims[0].ID != "c1" {
		t.Fatalf("%d requests, value %v, claims %+v", len(replay.Requests()), res.Value, res.Answer.Claims)
	}
}
