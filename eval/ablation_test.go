package eval

import (
	"context"
	"testing"
)

// With the contract on, no injected planner error runs to a silently wrong
// answer; with it off, some do (or fail at run time instead of being
// refused up front with a hint).
func TestContractAblation(t *testing.T) {
	b := sharedSuite(t)
	rows, err := ContractAblation(context.Background(), b.db, allTasks(b.suite))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(ablationClasses) {
		t.Fatalf("%d rows", len(rows))
	}
	offFailures := 0
	for _, r := range rows {
		if r.Cases == 0 {
			t.Errorf("%s: no plan to mutate", r.Class)
			continue
		}
		if r.On.SilentlyWrong != 0 {
			t.Errorf("%s: %d silently wrong answers with the contract on", r.Class, r.On.SilentlyWrong)
		}
		if r.On.Rejected != r.On.RejectedWithHint {
			t.Errorf("%s: %d rejections without a hint", r.Class, r.On.Rejected-r.On.RejectedWithHint)
		}
		if got := r.On.Rejected + r.On.RuntimeError + r.On.SilentlyWrong + r.On.Correct; got != r.Cases {
			t.Errorf("%s: contract-on outcomes add up to %d of %d", r.Class, got, r.Cases)
		}
		offFailures += r.Off.RuntimeError + r.Off.SilentlyWrong
	}
	if offFailures == 0 {
		t.Error("with the contract off nothing failed: the mutations are not faults")
	}
}
