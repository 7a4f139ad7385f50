package eval

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/evidence"
)

var faultCfg = FaultConfig{Classic: 60, Extended: 30, Truncated: 5}

// faultReport runs the experiment on the synthetic suite under a verifier
// configuration, once per configuration.
func faultReport(t *testing.T, opt evidence.Options) *FaultReport {
	t.Helper()
	b := sharedSuite(t)
	faultMu.Lock()
	defer faultMu.Unlock()
	if rep, ok := faultReports[opt]; ok {
		return rep
	}
	cfg := faultCfg
	cfg.Verifier = opt
	rep, err := Faults(context.Background(), b.db, allTasks(b.suite), cfg)
	if err != nil {
		t.Fatal(err)
	}
	faultReports[opt] = rep
	return rep
}

var (
	faultMu      sync.Mutex
	faultReports = map[evidence.Options]*FaultReport{}
)

func rows(rep *FaultReport) map[string]FaultRow {
	m := map[string]FaultRow{}
	for _, r := range rep.Rows {
		m[r.Class] = r
	}
	return m
}

// Every fault class is fully detected on the synthetic suite, no clean
// claim of any class is refused, and with completeness tracking off the
// page cases go through.
func TestFaults(t *testing.T) {
	rep := faultReport(t, evidence.Options{})
	if rep.Pool < 30 {
		t.Fatalf("pool of %d clean claims is too small to mean anything", rep.Pool)
	}
	for _, r := range rep.Rows {
		if r.FalsePositives != 0 {
			t.Errorf("%s: %d false positives of %d clean claims", r.Class, r.FalsePositives, r.Clean)
		}
		if r.Mutants == 0 || r.Clean == 0 {
			t.Errorf("%s: %d mutants from %d clean claims", r.Class, r.Mutants, r.Clean)
			continue
		}
		if got := r.Unsupported + r.Unverifiable + r.WeaklySupported; got != r.Detected {
			t.Errorf("%s: verdicts add up to %d, detected %d", r.Class, got, r.Detected)
		}
		switch r.Class {
		case "truncated_count_tracking_off", "complete_set_on_page_tracking_off":
			if r.Detected != 0 {
				t.Errorf("%s: %d detected with tracking off; the ablation should catch none", r.Class, r.Detected)
			}
		default:
			if r.Detected != r.Mutants {
				t.Errorf("%s: %d of %d detected", r.Class, r.Detected, r.Mutants)
			}
		}
	}
	m := rows(rep)
	// Classes with a fixed number of mutants per base claim cannot report
	// more distinct mutants than that.
	for class, per := range map[string]int{"ordering_swap": 1, "unit_confusion": 2, "count_pm1": 2} {
		if r := m[class]; r.Mutants > per*r.Base {
			t.Errorf("%s: %d mutants from %d base claims: not distinct", class, r.Mutants, r.Base)
		}
	}
	if r := m["dropped_member"]; r.Base < 30 {
		t.Errorf("dropped_member draws from only %d complete sets", r.Base)
	}
	if r := m["citation_of_missing_path"]; r.Unverifiable != r.Mutants {
		t.Errorf("a citation of a missing path is a structural rejection: %+v", r)
	}
}

// classAblation is, per fault class, the verifier configuration with the
// check that class measures switched off.
var classAblation = map[string]evidence.Options{
	"count_pm1":                     {Ablate: evidence.AblateValues},
	"fabricated_uid":                {Ablate: evidence.AblateValues | evidence.AblateMembership, IgnoreOmissions: true},
	"uncited_entity":                {Ablate: evidence.AblateMembership},
	"ordering_swap":                 {Ablate: evidence.AblateOrdering},
	"ordering_tie":                  {Ablate: evidence.AblateOrdering},
	"unit_confusion":                {Ablate: evidence.AblateValues},
	"wrong_belief_state":            {Ablate: evidence.AblateValues},
	"wrong_step_citation":           {Ablate: evidence.AblateValues | evidence.AblateMembership | evidence.AblateOrdering, IgnoreOmissions: true},
	"citation_of_missing_path":      {Ablate: evidence.AblateCitation},
	"dropped_member":                {IgnoreOmissions: true},
	"value_epsilon":                 {Ablate: evidence.AblateValues},
	"adjacent_burst":                {Ablate: evidence.AblateOverlap},
	"truncated_count":               {IgnoreCompleteness: true},
	"complete_set_on_page":          {IgnoreCompleteness: true},
	"integer_as_float_epsilon":      {Ablate: evidence.AblateValues},
	"float_as_integer_epsilon":      {Ablate: evidence.AblateValues},
	"complete_set_over_uncertified": {IgnoreCompleteness: true},
}

// The experiment goes red when the check a class measures is disabled:
// every class has an ablation, and with it its detection drops to (about)
// zero, so a class's score is the work of that check and no other.
func TestFaultsGoRedWithoutTheCheck(t *testing.T) {
	for _, r := range faultReport(t, evidence.Options{}).Rows {
		if _, ok := classAblation[r.Class]; !ok && !strings.HasSuffix(r.Class, "_tracking_off") {
			t.Errorf("fault class %s has no ablation", r.Class)
		}
	}
	for class, opt := range classAblation {
		r, ok := rows(faultReport(t, opt))[class]
		if !ok || r.Mutants == 0 {
			t.Errorf("%s: no mutants under its ablation %+v", class, opt)
			continue
		}
		// "Near zero": at most 5% still caught by other checks (a
		// citation of another step may land on an incomplete one).
		if r.DetectionRate() > 0.05 {
			t.Errorf("%s with its check off (%+v): still detects %d of %d", class, opt, r.Detected, r.Mutants)
		}
		t.Logf("%-26s with its check off: %d of %d detected (%d unsupported, %d unverifiable, %d weakly supported)", class, r.Detected, r.Mutants, r.Unsupported, r.Unverifiable, r.WeaklySupported)
	}
}

// A wrong-belief mutant keeps the belief time the question asked about and
// the cited step: only its value is another belief time's, so the verifier
// must compare values to catch it.
func TestWrongBeliefMutantsStateAnotherBeliefsValue(t *testing.T) {
	b := sharedSuite(t)
	rep := faultReport(t, evidence.Options{})
	if r := rows(rep)["wrong_belief_state"]; r.Mutants < 8 {
		t.Fatalf("only %d wrong-belief mutants: the probe pairs give no partners", r.Mutants)
	}
	env, clean, err := collect(context.Background(), b.db, allTasks(b.suite), evidence.Options{}, &FaultReport{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i := range clean {
		p := &clean[i]
		for k := range 4 {
			m, tr, ok := mutateBelief(env, k, p)
			if !ok {
				continue
			}
			n++
			if tr != p.trace || m.Step != p.claim.Step || m.Path != p.claim.Path || (m.AsOfTT == nil) != (p.claim.AsOfTT == nil) ||
				m.AsOfTT != nil && *m.AsOfTT != *p.claim.AsOfTT {
				t.Fatalf("%s: the mutant changes more than the value: %+v from %+v", p.task.ID, m, p.claim)
			}
			other, _ := valueAt(env.partners[p.task][k], m.Step, m.Path)
			if list, ok := other.([]any); ok {
				other = int64(len(list))
			}
			if !canon.Equal(m.Value, other) || canon.Equal(m.Value, p.claim.Value) {
				t.Fatalf("%s: mutant value %v, partner %v, clean %v", p.task.ID, m.Value, other, p.claim.Value)
			}
		}
	}
	if n == 0 {
		t.Fatal("no wrong-belief mutants")
	}
}
