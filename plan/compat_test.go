package plan_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/plan"
)

func compatProps(t *testing.T, s string) bt.Props {
	p, err := bt.ParseProps([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// compatStore is the store of the compatibility corpus; it must stay the
// one testdata/compat/gen builds (answers.json pins its digest).
func compatStore(t *testing.T) *tgms.DB {
	t.Helper()
	var tick bt.Time
	db, err := tgms.Open(t.TempDir(), &tgms.Options{NoSync: true, Clock: func() bt.Time { tick += 100; return tick }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	write := func(ops ...bt.Op) {
		t.Helper()
		if _, err := db.Write(ops...); err != nil {
			t.Fatal(err)
		}
	}
	write(bt.AssertNode("acme", "Org", compatProps(t, `{"name":"ACME Corp"}`), bt.Always))
	if _, err := db.Ingest([]bt.Event{
		{Src: "acme", Dst: "a1", RelType: "PAY", VtS: 10},
		{Src: "a1", Dst: "a2", RelType: "PAY", VtS: 20},
		{Src: "a2", Dst: "a3", RelType: "PAY", VtS: 30},
		{Src: "beta", Dst: "a3", RelType: "PAY", VtS: 5},
		{Src: "n1", Dst: "n2", RelType: "MSG", VtS: 1082000000000000},
		{Src: "n2", Dst: "n3", RelType: "MSG", VtS: 1083000000000000},
	}, "Account", nil); err != nil {
		t.Fatal(err)
	}
	k := bt.EdgeKey{Src: "x1", Dst: "x2", RelType: "KNOWS", Disc: "k"}
	write(bt.AssertNode("x1", "Person", compatProps(t, `{"name":"x one"}`), bt.Always), bt.AssertNode("x2", "Person", compatProps(t, `{"name":"x two"}`), bt.Always),
		bt.AssertEdge(k, compatProps(t, `{"w":1}`), bt.Interval{Start: 10, End: 100}))
	write(bt.Correct(bt.EdgeRef(k), compatProps(t, `{"w":2}`), bt.Interval{Start: 40, End: 60}))
	write(bt.Retract(bt.EdgeRef(k), 70))
	return db
}

type pinned struct {
	Release      string `json:"release"`
	Answer       string `json:"answer"`
	AnswerDigest string `json:"answer_digest"`
	Notices      int    `json:"notices"`
}

// TestCompatibilityCorpus: every plan of every earlier release in
// testdata/compat is admitted, with the notices pinned for it, and answers
// what its release answered on the compat store.
func TestCompatibilityCorpus(t *testing.T) {
	var golden struct {
		StoreDigest string            `json:"store_digest"`
		Plans       map[string]pinned `json:"plans"`
	}
	b, err := os.ReadFile("testdata/compat/answers.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &golden); err != nil {
		t.Fatal(err)
	}
	db := compatStore(t)
	if db.Digest() != golden.StoreDigest {
		t.Fatalf("the compat store's digest is %s, answers.json pins %s: the test and testdata/compat/gen build different stores", db.Digest(), golden.StoreDigest)
	}
	st := db.Stats()
	stats := &ops.Stats{Nodes: int64(st.Nodes), NodeVersions: int64(st.NodeVersions), EdgeVersions: int64(st.EdgeVersions), VtMin: st.VtMin, VtMax: st.VtMax}
	files, _ := filepath.Glob("testdata/compat/*/*.json")
	if len(files) < 10 {
		t.Fatalf("only %d corpus plans", len(files))
	}
	seen := map[string]bool{}
	releases := map[string]bool{}
	for _, f := range files {
		name := filepath.ToSlash(strings.TrimPrefix(f, filepath.Join("testdata", "compat")+string(filepath.Separator)))
		seen[name] = true
		want, ok := golden.Plans[name]
		if !ok {
			t.Errorf("%s has no pinned answer in answers.json", name)
			continue
		}
		releases[want.Release] = true
		data, _ := os.ReadFile(f)
		v := plan.ValidateJSON(data, plan.Options{UIDs: []string{"acme", "n1"}, Stats: stats})
		if !v.Valid {
			t.Errorf("%s (release %s) is refused: %+v", name, want.Release, v.Violations)
			continue
		}
		if len(v.Notices) != want.Notices {
			t.Errorf("%s: %d notices, want %d: %+v", name, len(v.Notices), want.Notices, v.Notices)
		}
		tr := exec.Run(context.Background(), db, v.Plan, exec.Options{})
		got, _ := canon.Digest(tr.Answer)
		if got != want.AnswerDigest {
			ans, _ := canon.Marshal(tr.Answer)
			t.Errorf("%s: answer %s (digest %s), release %s answered %s (digest %s)", name, ans, got[:16], want.Release, want.Answer, want.AnswerDigest[:16])
		}
	}
	for name := range golden.Plans {
		if !seen[name] {
			t.Errorf("answers.json pins %s, which is not in the corpus", name)
		}
	}
	if len(releases) < 3 {
		t.Errorf("the corpus covers %d releases", len(releases))
	}
}

const closedByPlan = `{"plan_id":"vh","steps":[
 {"id":"s1","op":"version_history","args":{"kind":"edge","window":{"t_a":0,"t_b":1000},"belief":"all","closed_by":"correction"},"depends_on":[]}],
 "answer_spec":{"kind":"count","from":"s1.rows_total"}}`

// The closed_by spelling is read as change with a notice naming where and
// what to write; its canonical plan and answer are the change plan's.
func TestArgumentAlias(t *testing.T) {
	old := plan.ValidateJSON([]byte(closedByPlan), plan.Options{})
	now := plan.ValidateJSON([]byte(strings.Replace(closedByPlan, `"closed_by"`, `"change"`, 1)), plan.Options{})
	if !old.Valid || !now.Valid {
		t.Fatalf("old %+v now %+v", old.Violations, now.Violations)
	}
	if len(old.Notices) != 1 || len(now.Notices) != 0 {
		t.Fatalf("notices: old %+v now %+v", old.Notices, now.Notices)
	}
	n := old.Notices[0]
	if n.Code != plan.NoticeArg || n.StepID != "s1" || n.Path != "/steps/0/args/closed_by" || n.Replacement != "change" || !strings.Contains(n.Message, "closed_by is now called change") {
		t.Fatalf("notice %+v", n)
	}
	if old.Plan.Digest() != now.Plan.Digest() {
		t.Fatal("the aliased plan's canonical form differs from the current spelling's")
	}
	// Both spellings at once: the old one is an unknown argument.
	both := plan.ValidateJSON([]byte(strings.Replace(closedByPlan, `"closed_by":"correction"`, `"closed_by":"correction","change":"evolution"`, 1)), plan.Options{})
	if both.Valid || !strings.Contains(both.Violations[0].Rule, "arg.unknown") {
		t.Fatalf("both spellings: %+v", both.Violations)
	}
}

// tgms_plan: absent and 1 are the same plan; anything else is refused.
func TestPlanVersion(t *testing.T) {
	with := strings.Replace(closedByPlan, `{"plan_id"`, `{"tgms_plan":1,"plan_id"`, 1)
	a, b := plan.ValidateJSON([]byte(closedByPlan), plan.Options{}), plan.ValidateJSON([]byte(with), plan.Options{})
	if !a.Valid || !b.Valid || a.Plan.Digest() != b.Plan.Digest() || a.Plan.Version != plan.Version {
		t.Fatalf("tgms_plan 1: %+v %+v", a.Violations, b.Violations)
	}
	for _, v := range []string{`2`, `0`, `"1"`, `1.5`} {
		bad := plan.ValidateJSON([]byte(strings.Replace(closedByPlan, `{"plan_id"`, `{"tgms_plan":`+v+`,"plan_id"`, 1)), plan.Options{})
		if bad.Valid || bad.Violations[0].Path != "/tgms_plan" {
			t.Fatalf("tgms_plan %s: %+v", v, bad.Violations)
		}
	}
}
