package eval

import (
	"context"
	"testing"
)

// Every fault class is fully detected on the synthetic suite, clean
// answers are never refused, and the truncated-count ablation shows what
// completeness tracking catches.
func TestFaults(t *testing.T) {
	b := sharedSuite(t)
	rep, err := Faults(context.Background(), b.db, allTasks(b.suite), FaultConfig{Classic: 60, Extended: 30, Truncated: 5})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Pool < 30 {
		t.Fatalf("pool of %d clean claims is too small to mean anything", rep.Pool)
	}
	for _, r := range rep.Rows {
		if r.FalsePositives != 0 {
			t.Errorf("%s: %d false positives", r.Class, r.FalsePositives)
		}
		if r.Mutants == 0 {
			t.Errorf("%s: no mutants could be built", r.Class)
			continue
		}
		switch r.Class {
		case "truncated_count_tracking_off":
			if r.Detected != 0 {
				t.Errorf("%s: %d detected with tracking off; the ablation should catch none", r.Class, r.Detected)
			}
		default:
			if r.Detected != r.Mutants {
				t.Errorf("%s: %d of %d detected", r.Class, r.Detected, r.Mutants)
			}
		}
	}
}
