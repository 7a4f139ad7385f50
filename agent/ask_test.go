package agent_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/agent"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/evidence"
	"github.com/tgms-go/tgms/llm"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/plan"
)

func TestPromptExamplesAdmitted(t *testing.T) {
	for i, ex := range agent.Examples {
		v := plan.ValidateJSON([]byte(ex.Plan), plan.Options{UIDs: ex.UIDs})
		if !v.Valid {
			t.Errorf("example %d rejected: %+v", i+1, v.Violations)
		}
	}
	sys, user := agent.PlannerPrompt(agent.DatasetCard{VtMin: 1, VtMax: 2, RelTypes: []string{"MSG"}})
	for _, s := range ops.All() {
		if !strings.Contains(sys, "### "+s.Name+"\n") {
			t.Errorf("the manual lacks operator %s", s.Name)
		}
	}
	for _, want := range []string{"Output fields:", "GROUNDING", "TIME", "EXAMPLES", "as_of_tt", "resolve_entities"} {
		if !strings.Contains(sys, want) {
			t.Errorf("the system prompt lacks %q", want)
		}
	}
	if !strings.Contains(user, `"vt_max":2`) {
		t.Errorf("user message lacks the dataset card: %s", user)
	}
	sys2, _ := agent.PlannerPrompt(agent.DatasetCard{VtMin: 5, VtMax: 9})
	if sys != sys2 {
		t.Error("the system prompt depends on the dataset card; it must be byte-stable")
	}
	t.Logf("planner system prompt: %d characters", len(sys))
}

// storeQuestion is a supported question about a node of the synthetic store.
func storeQuestion(db *tgms.DB, uid string) agent.Question {
	card := agent.CardFor(db)
	return agent.Question{
		Text: fmt.Sprintf("How many nodes can %s reach along time-respecting paths (each edge no earlier than the one before) with events from %d to %d?", uid, card.VtMin, card.VtMax),
		UIDs: []string{uid}, Card: card,
	}
}

func TestAskAnswersAndRefuses(t *testing.T) {
	db, _ := synthStore(t, 5000)
	ctx := context.Background()
	q := storeQuestion(db, "n1")
	res, err := agent.Ask(ctx, db, q, agent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Refusal != "" || len(res.Attempts) != 1 || !res.Attempts[0].Admitted {
		t.Fatalf("refusal %q, attempts %+v", res.Refusal, res.Attempts)
	}
	n, ok := res.Value.(int64)
	if !ok || n != res.Trace.Answer.(int64) || res.Certified.Metrics.Emitted != 1 || res.TraceDigest == "" {
		t.Fatalf("value %v, trace answer %v, certified %+v", res.Value, res.Trace.Answer, res.Certified)
	}
	env, err := db.Call(ctx, "temporal_reachability", map[string]any{"src": "n1", "window": map[string]any{"t_a": q.Card.VtMin, "t_b": q.Card.VtMax}})
	if err != nil {
		t.Fatal(err)
	}
	if env.Result["rows_total"] != n {
		t.Fatalf("answer %d, direct call rows_total %v", n, env.Result["rows_total"])
	}

	res, err = agent.Ask(ctx, db, agent.Question{Text: "Who will win the next election?"}, agent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var uq *agent.ErrUnsupportedQuestion
	if !errors.As(res.Err, &uq) || res.Value != nil || len(res.Attempts) != 0 || !strings.HasPrefix(res.Refusal, "unsupported question:") {
		t.Fatalf("refusal: %+v", res)
	}
}

// scripted emits fixed plans, one per call, then repairs with the rule
// planner's deterministic repair (or fails).
type scripted struct {
	plans    []string
	feedback []string
	repair   bool
}

func (s *scripted) next() ([]byte, error) {
	if len(s.plans) == 0 {
		return nil, agent.ErrCannotRepair
	}
	p := s.plans[0]
	s.plans = s.plans[1:]
	return []byte(p), nil
}

func (s *scripted) Plan(context.Context, agent.Question) ([]byte, error) { return s.next() }

func (s *scripted) Repair(_ context.Context, _ agent.Question, prev, fb []byte) ([]byte, error) {
	s.feedback = append(s.feedback, string(fb))
	if s.repair {
		return agent.RepairPlan(prev, fb)
	}
	return s.next()
}

func naiveCount(uid string, ta, tb int64) string {
	return fmt.Sprintf(`{"plan_id":"naive","steps":[
 {"id":"s1","op":"temporal_reachability","args":{"src":%q,"window":{"t_a":%d,"t_b":%d},"limit":5},"depends_on":[]},
 {"id":"s2","op":"compute","args":{"fn":"count","input":{"$ref":"s1.rows"}},"depends_on":["s1"]}],
 "answer_spec":{"kind":"count","from":"s2.value"}}`, uid, ta, tb)
}

func TestAskRepairsTruncatedCount(t *testing.T) {
	db, _ := synthStore(t, 5000)
	ctx := context.Background()
	q := storeQuestion(db, "n1")
	want, _ := agent.Ask(ctx, db, q, agent.Options{})
	p := &scripted{plans: []string{naiveCount("n1", q.Card.VtMin, q.Card.VtMax)}, repair: true}
	res, err := agent.Ask(ctx, db, q, agent.Options{Planner: p})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Attempts) != 2 || res.Attempts[0].RuntimeError == nil || res.Attempts[0].RuntimeError.Code != ops.ELimit {
		t.Fatalf("attempts: %+v", res.Attempts)
	}
	if !canon.Equal(res.Value, want.Value) || res.Value == nil {
		t.Fatalf("repaired value %v, want %v", res.Value, want.Value)
	}
	if res.Repairs() != 1 || !strings.Contains(p.feedback[0], `"E_LIMIT"`) {
		t.Fatalf("repairs %d, feedback %v", res.Repairs(), p.feedback)
	}
}

func TestAskRepairBudget(t *testing.T) {
	db, _ := synthStore(t, 2000)
	q := storeQuestion(db, "n1")
	bad := strings.ReplaceAll(naiveCount("n1", q.Card.VtMin, q.Card.VtMax), `"src":"n1"`, `"src":"nobody"`)
	p := &scripted{plans: []string{bad, bad, bad, bad, bad, bad}}
	res, err := agent.Ask(context.Background(), db, q, agent.Options{Planner: p})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Attempts) != agent.DefaultMaxRepairs+1 || res.Refusal == "" || res.Value != nil {
		t.Fatalf("attempts %d, refusal %q", len(res.Attempts), res.Refusal)
	}
	for _, a := range res.Attempts {
		if a.Admitted || len(a.Violations) == 0 || a.Violations[0].Code != plan.EGrounding {
			t.Fatalf("attempt %+v", a)
		}
	}
}

func TestLLMPlannerRepairsOverReplay(t *testing.T) {
	db, _ := synthStore(t, 2000)
	q := storeQuestion(db, "n1")
	good, err := agent.RulePlanner{}.Plan(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.ReplaceAll(string(good), `"src":"n1"`, `"src":"n42"`)
	srv, replay := llm.NewReplayServer(
		llm.Entry{Text: "Here is the plan:\n```json\n" + bad + "\n```"},
		llm.Entry{Match: "E_GROUNDING", Text: string(good)},
	)
	defer srv.Close()
	pl, err := agent.NewLLMPlanner(srv.URL+"/v1", "replay-model", "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := agent.Ask(context.Background(), db, q, agent.Options{Planner: pl})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Attempts) != 2 || res.Attempts[0].Admitted || !res.Attempts[1].Admitted || res.Value == nil {
		t.Fatalf("attempts %+v, value %v, refusal %q", res.Attempts, res.Value, res.Refusal)
	}
	reqs := replay.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	msgs := reqs[1].Messages()
	if len(msgs) != 4 || msgs[2].Role != "assistant" || !strings.Contains(msgs[3].Content, "ground.literal_uid") {
		t.Fatalf("repair conversation: %+v", msgs)
	}
	if temp, ok := reqs[0].Params["temperature"]; ok && temp != float64(0) {
		t.Fatalf("temperature %v", temp)
	}
}

// An asked question's trace records the answer's claims, their verdicts and
// the certified text, so an edit to any of them fails VerifyTrace.
func TestAskTraceRecordsTheReport(t *testing.T) {
	db, _ := synthStore(t, 5000)
	ctx := context.Background()
	res, err := agent.Ask(ctx, db, storeQuestion(db, "n1"), agent.Options{})
	if err != nil || res.Trace == nil {
		t.Fatalf("ask: %v", err)
	}
	if res.Trace.Report == nil || res.Trace.Report.Text == "" || res.TraceDigest != res.Trace.TraceDigest {
		t.Fatalf("the trace records no report (report %+v, digests %s / %s)", res.Trace.Report, res.TraceDigest, res.Trace.TraceDigest)
	}
	chk, err := evidence.VerifyTrace(ctx, db, res.Trace)
	if err != nil || len(chk.Diffs) != 0 {
		t.Fatalf("the unedited trace does not verify: %v %+v", err, chk)
	}
	edited := *res.Trace
	rep := *res.Trace.Report
	rep.Text = strings.Replace(rep.Text, fmt.Sprint(res.Value), "999999", 1)
	if rep.Text == res.Trace.Report.Text {
		t.Fatalf("the certified text %q does not state the value %v", rep.Text, res.Value)
	}
	edited.Report = &rep
	chk, err = evidence.VerifyTrace(ctx, db, &edited)
	if err != nil || len(chk.Diffs) == 0 {
		t.Fatalf("an edited certified text verified: %v %+v", err, chk)
	}
}
