package eval

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/evidence"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/plan"

	"github.com/tgms-go/tgms/internal/testenv"
)

// synthConfig is the small synthetic workload of the tests: ~20k
// background events plus the planted patterns.
var synthConfig = datasets.SynthConfig{Events: 20_000, Seed: 11}

// fixedClock gives transaction times that depend only on the number of
// batches written, so two stores built the same way agree on every tt.
func fixedClock() func() bt.Time {
	tick := bt.Time(1_700_000_000_000_000)
	return func() bt.Time { tick += 1_000_000; return tick }
}

// synthStore builds a synthetic store with a fixed clock.
func synthStore(t *testing.T) (*tgms.DB, *datasets.Manifest) {
	t.Helper()
	db, err := tgms.Open(t.TempDir(), &tgms.Options{NoSync: true, Clock: fixedClock(), CheckpointBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var buf []bt.Event
	m, err := datasets.Synthesize(synthConfig, func(chunk []bt.Event) error {
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

type built struct {
	db    *tgms.DB
	m     *datasets.Manifest
	suite *Suite
}

var (
	shared     built
	sharedOnce sync.Once
	sharedErr  error
)

// sharedSuite generates (once per test binary) the synthetic suite most
// tests inspect. It never modifies the store afterwards.
func sharedSuite(t *testing.T) built {
	t.Helper()
	sharedOnce.Do(func() {
		dir, err := os.MkdirTemp("", "tgms-eval-")
		if err != nil {
			sharedErr = err
			return
		}
		db, err := tgms.Open(dir, &tgms.Options{NoSync: true, Clock: fixedClock(), CheckpointBytes: -1})
		if err != nil {
			sharedErr = err
			return
		}
		var buf []bt.Event
		m, err := datasets.Synthesize(synthConfig, func(chunk []bt.Event) error { buf = append(buf, chunk...); return nil })
		if err == nil {
			_, err = db.Ingest(buf, "Node", nil)
		}
		if err != nil {
			sharedErr = err
			return
		}
		s, err := Generate(context.Background(), db, GenConfig{Dataset: "synth", Seed: 3, Manifest: m})
		shared, sharedErr = built{db: db, m: m, suite: s}, err
	})
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return shared
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.db != nil {
		dir := shared.db.Dir()
		shared.db.Close()
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

func allTasks(s *Suite) []Task {
	ts, _ := s.Tasks("all")
	return ts
}

func storeStats(db *tgms.DB) *ops.Stats {
	st := db.Stats()
	return &ops.Stats{Nodes: int64(st.Nodes), NodeVersions: int64(st.NodeVersions), EdgeVersions: int64(st.EdgeVersions), VtMin: st.VtMin, VtMax: st.VtMax}
}

func TestSuiteShape(t *testing.T) {
	b := sharedSuite(t)
	s := b.suite
	want := map[string]int{FamilyT1: 60, FamilyT3: 24, FamilyT4: 16, FamilyProbe: 16}
	got := map[string]int{}
	for _, c := range s.FamilyCounts() {
		got[c.Family] = c.Dev + c.Test
		if n := c.Dev + c.Test; c.Dev != max(1, n/5) {
			t.Errorf("family %s: %d dev of %d, want max(1, n/5)", c.Family, c.Dev, n)
		}
	}
	for f, n := range want {
		if got[f] != n {
			t.Errorf("family %s has %d tasks, want %d", f, got[f], n)
		}
	}
	if got[FamilyT2] == 0 {
		t.Errorf("no planted-pattern tasks although a manifest was given")
	}
	ids := map[string]bool{}
	templates := map[string]bool{}
	for _, task := range allTasks(s) {
		if ids[task.ID] {
			t.Errorf("duplicate task id %s", task.ID)
		}
		ids[task.ID] = true
		templates[task.Template] = true
		if !strings.HasPrefix(task.ID, "synth-") || task.Dataset != "synth" {
			t.Errorf("task %s: dataset %q", task.ID, task.Dataset)
		}
		if task.OraclePlan["question"] != task.QuestionText {
			t.Errorf("task %s: the oracle plan's question differs from question_text", task.ID)
		}
		spec, _ := task.OraclePlan["answer_spec"].(map[string]any)
		if spec["kind"] != task.AnswerKind {
			t.Errorf("task %s: answer kind %s, plan says %v", task.ID, task.AnswerKind, spec["kind"])
		}
		// Every time in a question is printed as a date and in µs.
		if strings.Contains(task.QuestionText, " UTC") && !strings.Contains(task.QuestionText, " UTC (") {
			t.Errorf("task %s: a time without its microseconds: %s", task.ID, task.QuestionText)
		}
		if task.Gold == nil {
			t.Errorf("task %s has no gold", task.ID)
		}
	}
	// The templates the reference never instantiated do instantiate here.
	for _, name := range []string{"t1-neighbors-at", "t3-gained", "t4-reach-motifs", "t4-participant", "t2-triangle", "t2-pingpong", "t2-burst"} {
		if !templates[name] {
			t.Errorf("template %s produced no task", name)
		}
	}
}

// Every oracle plan passes the contract and, re-run pinned at its belief
// time, reproduces its gold, also after a later write; its gold answer
// object's claims verify as supported.
func TestOraclePlansReproduceGold(t *testing.T) {
	b := sharedSuite(t)
	stats := storeStats(b.db)
	for _, task := range allTasks(b.suite) {
		v := plan.Validate(task.OraclePlan, plan.Options{UIDs: task.InputUIDs, Stats: stats})
		if !v.Valid {
			t.Errorf("task %s: oracle plan rejected: %s", task.ID, violations(v.Violations))
			continue
		}
		if task.GoldSource != GoldOraclePlan {
			continue
		}
		tr := exec.Run(context.Background(), b.db, v.Plan, exec.Options{AsOf: task.AsOfTT})
		if !tr.OK || !canon.Equal(tr.Answer, task.Gold) {
			t.Errorf("task %s: re-execution gave %v (ok %v), gold %v", task.ID, tr.Answer, tr.OK, task.Gold)
			continue
		}
		data, err := canon.Marshal(task.GoldAnswerObject)
		if err != nil {
			t.Fatal(err)
		}
		ans, err := evidence.ParseAnswer(data)
		if err != nil {
			t.Errorf("task %s: gold answer object: %v", task.ID, err)
			continue
		}
		if len(ans.Claims) != 1 {
			t.Errorf("task %s: gold answer object has %d claims", task.ID, len(ans.Claims))
		}
		for _, r := range evidence.Verify(tr, ans, evidence.Options{}) {
			if r.Verdict != evidence.Supported {
				t.Errorf("task %s: gold claim %s is %s: %s", task.ID, r.ID, r.Verdict, r.Reason)
			}
		}
	}
}

// Probe pairs: the gold before the correction differs from the gold now.
func TestProbeGoldsDiffer(t *testing.T) {
	b := sharedSuite(t)
	before, now := map[string]any{}, map[string]any{}
	for _, task := range allTasks(b.suite) {
		if task.Family != FamilyProbe {
			continue
		}
		idx := task.ID[strings.LastIndex(task.ID, "-")+1:]
		switch task.Template {
		case "probe-before":
			before[idx] = task.Gold
		case "probe-now":
			now[idx] = task.Gold
		}
	}
	if len(before) != 8 || len(now) != 8 {
		t.Fatalf("%d before and %d now probes, want 8 each", len(before), len(now))
	}
	for idx, g := range before {
		if canon.Equal(g, now[idx]) {
			t.Errorf("probe %s: gold %v before and %v now", idx, g, now[idx])
		}
		if g != int64(1) || now[idx] != int64(3) {
			t.Errorf("probe %s: gold %v before, %v now; want 1 and 3", idx, g, now[idx])
		}
	}
	if len(b.suite.Report.Probes) != 8 {
		t.Fatalf("report lists %d probes", len(b.suite.Report.Probes))
	}
	for _, p := range b.suite.Report.Probes {
		if !(p.TTBefore < p.TTAfter && p.VtS < p.VtE) {
			t.Errorf("probe %+v", p)
		}
	}
}

// Planted-pattern gold comes from the manifest.
func TestPlantedGoldFromManifest(t *testing.T) {
	b := sharedSuite(t)
	n := 0
	for _, task := range allTasks(b.suite) {
		if task.Family != FamilyT2 {
			continue
		}
		n++
		if task.GoldSource != GoldManifest || task.AsOfTT != 0 {
			t.Errorf("task %s: gold source %s", task.ID, task.GoldSource)
		}
		switch task.Template {
		case "t2-triangle", "t2-pingpong":
			prefix := map[string]string{"t2-triangle": "tri", "t2-pingpong": "pp"}[task.Template]
			for _, u := range UIDSet(task.Gold) {
				if !strings.HasPrefix(u, prefix) {
					t.Errorf("task %s: gold member %s is not planted", task.ID, u)
				}
			}
		case "t2-burst":
			ok := false
			for _, p := range b.m.Patterns {
				if p.Kind == "burst" && canon.Equal(task.Gold, map[string]any{"t_a": p.Window.Start, "t_b": p.Window.End}) {
					ok = true
				}
			}
			if !ok {
				t.Errorf("task %s: gold %v is no planted burst window", task.ID, task.Gold)
			}
		}
	}
	var want int
	for _, p := range b.m.Patterns {
		if p.Kind == "triangle" || p.Kind == "pingpong" || p.Kind == "burst" {
			want++
		}
	}
	if n != want {
		t.Errorf("%d t2 tasks for %d planted patterns", n, want)
	}
}

// Two stores built the same way (same clock) give the same suite, and a
// second generation on a store reuses its probes and gives it again.
func TestGenerateDeterministic(t *testing.T) {
	var shas []string
	var dbs []*tgms.DB
	small := Sizes{T1: 24, T3: 6, T4: 8, Probes: 3}
	for range 2 {
		db, m := synthStore(t)
		s, err := Generate(context.Background(), db, GenConfig{Dataset: "synth", Seed: 5, Sizes: small, Manifest: m})
		if err != nil {
			t.Fatal(err)
		}
		if s.Report.ProbesReused {
			t.Fatalf("a fresh store reported reused probes")
		}
		shas = append(shas, s.TestSplitSHA)
		dbs = append(dbs, db)
	}
	if shas[0] != shas[1] {
		t.Fatalf("same store content and seed, different test_split_sha: %s vs %s", shas[0], shas[1])
	}
	last := dbs[0].LastTT()
	s, err := Generate(context.Background(), dbs[0], GenConfig{Dataset: "synth", Seed: 5, Sizes: small})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Report.ProbesReused || len(s.Report.Probes) != 3 || dbs[0].LastTT() != last {
		t.Fatalf("second generation: reused %v, %d probes, store written (%d → %d)", s.Report.ProbesReused, len(s.Report.Probes), last, dbs[0].LastTT())
	}
	var t2 int
	for _, task := range allTasks(s) {
		if task.Family == FamilyT2 {
			t2++
		}
	}
	if t2 != 0 {
		t.Fatalf("%d t2 tasks without a manifest", t2)
	}
	// A different seed gives a different suite.
	s2, err := Generate(context.Background(), dbs[1], GenConfig{Dataset: "synth", Seed: 6, Sizes: small})
	if err != nil {
		t.Fatal(err)
	}
	if s2.TestSplitSHA == shas[1] {
		t.Fatalf("seed 6 gave seed 5's suite")
	}
}

// A later write leaves every pinned gold unchanged, while the "now" probe
// read at the new belief changes.
func TestGoldPinnedAcrossLaterCorrections(t *testing.T) {
	db, _ := synthStore(t)
	s, err := Generate(context.Background(), db, GenConfig{Dataset: "synth", Seed: 2, Sizes: Sizes{T1: 12, Probes: 2}})
	if err != nil {
		t.Fatal(err)
	}
	pr := s.Report.Probes[0]
	var probeNow *Task
	for _, task := range allTasks(s) {
		if task.Template == "probe-now" && task.InputUIDs[0] == pr.UID {
			probeNow = &task
			break
		}
	}
	if probeNow == nil {
		t.Fatal("no probe-now task")
	}
	props, _ := bt.ParseProps([]byte(`{"note":"another fix"}`))
	if _, err := db.Write(bt.Correct(bt.NodeRef(pr.UID), props, bt.Interval{Start: pr.VtS, End: pr.VtS + 2})); err != nil {
		t.Fatal(err)
	}
	// The probes are still found as they were written, although the new
	// correction carved the first one.
	var found []Probe
	db.Read(bt.OpenEnd, func(r engine.Reader) error { found = FindProbes(r); return nil })
	if !slices.Equal(found, s.Report.Probes) {
		t.Fatalf("probes after a later correction: %+v, written %+v", found, s.Report.Probes)
	}
	stats := storeStats(db)
	for _, task := range allTasks(s) {
		v := plan.Validate(task.OraclePlan, plan.Options{UIDs: task.InputUIDs, Stats: stats})
		if !v.Valid {
			t.Fatalf("task %s rejected: %s", task.ID, violations(v.Violations))
		}
		tr := exec.Run(context.Background(), db, v.Plan, exec.Options{AsOf: task.AsOfTT})
		if !canon.Equal(tr.Answer, task.Gold) {
			t.Errorf("task %s: pinned re-run %v, gold %v", task.ID, tr.Answer, task.Gold)
		}
		if task.ID == probeNow.ID {
			tr := exec.Run(context.Background(), db, v.Plan, exec.Options{})
			if canon.Equal(tr.Answer, task.Gold) {
				t.Errorf("probe %s: current belief still gives %v after another correction", task.ID, tr.Answer)
			}
		}
	}
}

func TestSuiteRoundTrip(t *testing.T) {
	b := sharedSuite(t)
	data, err := b.suite.MarshalCanonical()
	if err != nil {
		t.Fatal(err)
	}
	again, err := ReadSuite(strings.NewReader(string(data)), "suite.json")
	if err != nil {
		t.Fatal(err)
	}
	data2, err := again.MarshalCanonical()
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != string(data2) {
		t.Fatal("suite does not round-trip byte for byte")
	}
	// Gold scored against itself is perfect, on every split.
	for _, split := range []string{"dev", "test", "all"} {
		ts, _ := again.Tasks(split)
		sc := Score(ts, GoldAnswers(ts))
		if sc.Overall.Accuracy != 1 || sc.Overall.Coverage != 1 || sc.Overall.N != len(ts) {
			t.Errorf("%s: gold against itself: %+v", split, sc.Overall)
		}
	}
	// An edited test list is refused.
	i := strings.LastIndex(string(data), `"answer_kind":"count"`)
	edited := string(data[:i]) + `"answer_kind":"value"` + string(data[i+len(`"answer_kind":"count"`):])
	if _, err := ReadSuite(strings.NewReader(edited), "edited.json"); err == nil || !strings.Contains(err.Error(), "test_split_sha") {
		t.Fatalf("edited suite: %v", err)
	}
}

// CollegeMsg, when the SNAP file is present: the suite has the reference's
// shape and its gold reproduces.
func TestCollegeMsgSuite(t *testing.T) {
	path := filepath.Join("..", "..", "shared", "data", "CollegeMsg.txt.gz")
	if _, err := os.Stat(path); err != nil {
		testenv.Missing(t, "%s not found (the SNAP files live in ../shared/data beside the repository)", path)
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
	s, err := Generate(context.Background(), db, GenConfig{Dataset: "collegemsg", Seed: 0})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Test) < 80 || len(s.Test) > 110 {
		t.Errorf("test split has %d tasks; the reference's has 94", len(s.Test))
	}
	stats := storeStats(db)
	for i, task := range allTasks(s) {
		if i%4 != 0 { // a sample keeps the test quick
			continue
		}
		v := plan.Validate(task.OraclePlan, plan.Options{UIDs: task.InputUIDs, Stats: stats})
		if !v.Valid {
			t.Fatalf("task %s rejected: %s", task.ID, violations(v.Violations))
		}
		tr := exec.Run(context.Background(), db, v.Plan, exec.Options{AsOf: task.AsOfTT})
		if !canon.Equal(tr.Answer, task.Gold) {
			t.Errorf("task %s: re-run %v, gold %v", task.ID, tr.Answer, task.Gold)
		}
	}
}
