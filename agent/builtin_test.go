package agent_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/agent"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/eval"
	"github.com/tgms-go/tgms/exec"

	"github.com/tgms-go/tgms/internal/testenv"
)

func fixedClock() func() bt.Time {
	tick := bt.Time(1_700_000_000_000_000)
	return func() bt.Time { tick += 1_000_000; return tick }
}

// synthStore builds the small synthetic store of the tests.
func synthStore(t testing.TB, events int64) (*tgms.DB, *datasets.Manifest) {
	t.Helper()
	db, err := tgms.Open(t.TempDir(), &tgms.Options{NoSync: true, Clock: fixedClock(), CheckpointBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var buf []bt.Event
	m, err := datasets.Synthesize(datasets.SynthConfig{Events: events, Seed: 11}, func(chunk []bt.Event) error {
		buf = append(buf, chunk...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Ingest(buf, "Node", nil); err != nil {
		t.Fatal(err)
	}
	return db, m
}

// checkSuite asks every task of a suite through the built-in reader and
// requires an admitted first plan whose certified answer matches the gold
// (the reader reads the suite's printed numbers literally; it knows
// nothing of how the generator drew them).
func checkSuite(t *testing.T, db *tgms.DB, s *eval.Suite) {
	t.Helper()
	ctx := context.Background()
	tasks, _ := s.Tasks("all")
	card := agent.CardFor(db)
	perTemplate := map[string][2]int{}
	manifest := [2]int{} // manifest-gold tasks, of them with a certified value
	for _, task := range tasks {
		q := agent.Question{Text: task.QuestionText, UIDs: task.InputUIDs, Card: card}
		res, err := agent.Ask(ctx, db, q, agent.Options{AsOf: task.AsOfTT})
		if err != nil {
			t.Fatalf("task %s: %v", task.ID, err)
		}
		c := perTemplate[task.Template]
		c[1]++
		switch {
		case res.Refusal != "":
			t.Errorf("task %s (%s): refused: %s\n%q", task.ID, task.Template, res.Refusal, task.QuestionText)
		case !res.Attempts[0].Admitted:
			t.Errorf("task %s (%s): first plan rejected: %v", task.ID, task.Template, res.Attempts[0].Violations)
		case task.GoldSource == eval.GoldManifest:
			// Manifest gold need not equal what the oracle plan computes
			// (background motifs join the planted ones): the reading must
			// give the oracle plan's answer, and that answer must hold
			// every planted member.
			// The certified value is counted apart: the gate may withhold
			// a motif member set it cannot certify.
			if msg := manifestMismatch(ctx, db, task, eval.TraceAnswer(res.Trace)); msg != "" {
				t.Errorf("task %s (%s): %s\nquestion %q\nread   %s", task.ID, task.Template, msg, task.QuestionText, res.Reading.Plan())
			} else {
				c[0]++
			}
			manifest[0]++
			if res.Value != nil {
				manifest[1]++
			}
		case !eval.Match(task.AnswerKind, task.Gold, res.Value):
			gp, _ := canon.Marshal(task.OraclePlan)
			t.Errorf("task %s (%s): certified %v, gold %v\nquestion %q\n%s\noracle %s\nread   %s", task.ID, task.Template, res.Value, task.Gold, task.QuestionText, res.Reading.Line(), gp, res.Reading.Plan())
		default:
			c[0]++
		}
		perTemplate[task.Template] = c
	}
	var names []string
	for k := range perTemplate {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		t.Logf("%-28s %d/%d", k, perTemplate[k][0], perTemplate[k][1])
	}
	t.Logf("%d manifest-gold tasks: the reading's answer checked against the oracle plan's; %d of them with a certified value", manifest[0], manifest[1])
}

// manifestMismatch runs a manifest-gold task's oracle plan and says how
// the reading's answer differs from its answer ("" when it matches and,
// for a member set, holds every planted member of the gold).
func manifestMismatch(ctx context.Context, db *tgms.DB, task eval.Task, got any) string {
	raw, err := canon.Marshal(task.OraclePlan)
	if err != nil {
		return "oracle plan: " + err.Error()
	}
	v := db.Validate(raw, task.InputUIDs)
	if !v.Valid {
		return fmt.Sprintf("oracle plan rejected: %v", v.Violations)
	}
	tr := exec.Run(ctx, db, v.Plan, exec.Options{AsOf: task.AsOfTT})
	want := eval.TraceAnswer(tr)
	if want == nil {
		return "oracle plan gave no answer"
	}
	if !eval.Match(task.AnswerKind, want, got) {
		return fmt.Sprintf("answered %v, oracle plan %v (manifest gold %v)", got, want, task.Gold)
	}
	if task.AnswerKind == eval.KindEntitySet {
		have := map[string]bool{}
		for _, u := range eval.UIDSet(got) {
			have[u] = true
		}
		for _, u := range eval.UIDSet(task.Gold) {
			if !have[u] {
				return fmt.Sprintf("planted member %s missing from the answer %v", u, eval.UIDSet(got))
			}
		}
	}
	return ""
}

func TestBuiltinReadsSynthSuite(t *testing.T) {
	db, m := synthStore(t, 20_000)
	s, err := eval.Generate(context.Background(), db, eval.GenConfig{Dataset: "synth", Seed: 3, Manifest: m,
		Sizes: eval.Sizes{T1: 72, T3: 18, T4: 48, Probes: 3}})
	if err != nil {
		t.Fatal(err)
	}
	checkSuite(t, db, s)
}

func TestBuiltinReadsCollegeMsgSuite(t *testing.T) {
	path := filepath.Join("..", "..", "shared", "data", "CollegeMsg.txt.gz")
	if _, err := os.Stat(path); err != nil {
		testenv.Missing(t, "%s not found (the SNAP files live in ../shared/data beside the repository)", path)
	}
	if testing.Short() {
		t.Skip("CollegeMsg suite skipped in -short mode")
	}
	spec, err := datasets.Lookup("collegemsg")
	if err != nil {
		t.Fatal(err)
	}
	events, err := datasets.Load(spec, path)
	if err != nil {
		t.Fatal(err)
	}
	db, err := tgms.Open(t.TempDir(), &tgms.Options{NoSync: true, Clock: fixedClock(), CheckpointBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Ingest(events, "Node", nil); err != nil {
		t.Fatal(err)
	}
	s, err := eval.Generate(context.Background(), db, eval.GenConfig{Dataset: "collegemsg", Seed: 0})
	if err != nil {
		t.Fatal(err)
	}
	checkSuite(t, db, s)
}
