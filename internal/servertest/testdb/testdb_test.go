package testdb

import (
	"context"
	"testing"

	"github.com/tgms-go/tgms/agent"
)

func TestAnswersChangeWithTheCorrection(t *testing.T) {
	s := New(t)
	ctx := context.Background()
	now, err := agent.Ask(ctx, s.DB, agent.Question{Text: VersionsQuestion(), UIDs: []string{"a"}}, agent.Options{})
	if err != nil || now.Refusal != "" {
		t.Fatalf("ask now: %v %s", err, now.Refusal)
	}
	before, err := agent.Ask(ctx, s.DB, agent.Question{Text: VersionsQuestion(), UIDs: []string{"a"}}, agent.Options{AsOf: s.Corrected - 1})
	if err != nil || before.Refusal != "" {
		t.Fatalf("ask before: %v %s", err, before.Refusal)
	}
	t.Logf("now %v before %v", now.Value, before.Value)
	if now.Value == nil || before.Value == nil || now.Value == before.Value {
		t.Fatalf("the correction should change the certified answer: now %v, before %v", now.Value, before.Value)
	}
	reach, err := agent.Ask(ctx, s.DB, agent.Question{Text: s.ReachQuestion(), UIDs: []string{"a"}}, agent.Options{})
	if err != nil || reach.Refusal != "" {
		t.Fatalf("ask reach: %v %s", err, reach.Refusal)
	}
	t.Logf("reach %v", reach.Value)
}
