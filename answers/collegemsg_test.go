package answers_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/answers"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/fresh"

	"github.com/tgms-go/tgms/internal/testenv"
)

const day = 24 * 3600 * 1_000_000

// collegeMsg opens a store holding the CollegeMsg dataset, or skips.
func collegeMsg(t testing.TB) *tgms.DB {
	t.Helper()
	spec, err := datasets.Lookup("collegemsg")
	if err != nil {
		t.Fatal(err)
	}
	path, ok := datasets.Locate(spec, "../../shared/data")
	if !ok {
		testenv.Missing(t, "CollegeMsg.txt.gz not found in ../../shared/data (the SNAP files live beside the repository)")
	}
	events, err := datasets.Load(spec, path)
	if err != nil {
		t.Fatal(err)
	}
	db, err := tgms.Open(filepath.Join(t.TempDir(), "college"), &tgms.Options{NoSync: true, Logf: func(string, ...any) {}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Ingest(events, "", nil); err != nil {
		t.Fatal(err)
	}
	return db
}

func run(t testing.TB, db *tgms.DB, planJSON string, uids ...string) *exec.Trace {
	t.Helper()
	v := db.Validate([]byte(planJSON), uids)
	if !v.Valid {
		t.Fatalf("plan rejected: %+v\n%s", v.Violations, planJSON)
	}
	tr := db.Execute(context.Background(), v.Plan)
	if !tr.OK {
		t.Fatalf("plan failed: %+v", tr.Steps)
	}
	return tr
}

func check(t *testing.T, db *tgms.DB, f *answers.File) map[string]*fresh.Report {
	t.Helper()
	sts, err := answers.Check(db, f, nil, fresh.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*fresh.Report{}
	for _, s := range sts {
		out[s.Saved.Name] = s.Report
	}
	return out
}

func wantFlagged(t *testing.T, when string, got map[string]*fresh.Report, flagged ...string) {
	t.Helper()
	want := map[string]bool{}
	for _, n := range flagged {
		want[n] = true
	}
	for name, rep := range got {
		if rep.Fresh == want[name] {
			t.Errorf("%s: answer %q fresh = %v, want %v (report %+v)", when, name, rep.Fresh, !want[name], rep.Steps)
		}
	}
}

// The worked example: three saved answers on CollegeMsg (a node's
// history, a message count in one week, a reachability count in another
// week); correcting the node flags only the history, and retracting one
// message of the first week flags only the count; refresh shows the new
// values and keeps the earlier generations.
func TestCollegeMsgWorkedExample(t *testing.T) {
	db := collegeMsg(t)
	st := db.Stats()
	w2 := bt.Interval{Start: st.VtMin, End: st.VtMin + 7*day}
	w3 := bt.Interval{Start: st.VtMin + 14*day, End: st.VtMin + 21*day}
	history := run(t, db, `{"plan_id":"history","steps":[{"id":"s1","op":"entity_history","args":{"uid":"n9"},"depends_on":[]}],
		"answer_spec":{"kind":"value","from":"s1.rows"}}`, "n9")
	count := run(t, db, fmt.Sprintf(`{"plan_id":"week-count","steps":[{"id":"s1","op":"aggregate_events","depends_on":[],
		"args":{"window":{"t_a":%d,"t_b":%d},"group_by":[],"aggregates":[{"agg":"count"}]}}],
		"answer_spec":{"kind":"count","from":"s1.rows[0].count"}}`, w2.Start, w2.End))
	reach := run(t, db, fmt.Sprintf(`{"plan_id":"reach","steps":[{"id":"s1","op":"temporal_reachability","depends_on":[],
		"args":{"src":"n1","window":{"t_a":%d,"t_b":%d},"limit":10000}}],
		"answer_spec":{"kind":"count","from":"s1.rows_total"}}`, w3.Start, w3.End), "n1")

	f, err := answers.Open(db.Dir())
	if err != nil {
		t.Fatal(err)
	}
	for name, tr := range map[string]*exec.Trace{"history": history, "week-count": count, "reach": reach} {
		if _, err := f.Save(name, tr, 1); err != nil {
			t.Fatal(err)
		}
	}
	wantFlagged(t, "before any write", check(t, db, f))

	// Correct node n9's record over its whole valid time.
	var n9 bt.NodeVersion
	db.Read(bt.OpenEnd, func(r engine.Reader) error {
		id, _ := r.Node("n9")
		n9 = r.NodeHistory(id)[0]
		return nil
	})
	tt, err := db.Write(bt.Correct(bt.NodeRef("n9"), `{"name":"Nine"}`, n9.Valid))
	if err != nil {
		t.Fatal(err)
	}
	got := check(t, db, f)
	wantFlagged(t, "after correcting n9", got, "history")
	r := got["history"].Steps[0].Reason
	if len(r) != 1 || r[0].TT != tt || r[0].Op != "correct" || r[0].Touch != fresh.NodeTouch || r[0].What != "node n9 over "+n9.Valid.String() {
		t.Errorf("the history's reason should name the correction of n9 at tt %d: %+v", tt, r)
	}
	s, ref, err := answers.Refresh(context.Background(), db, f, "history", 2)
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := ref.New.Answer.([]any)
	if s.Generation != 2 || s.AsOfTT != tt || !ref.AnswerChanged || len(rows) != 1 || rows[0].(map[string]any)["props"].(map[string]any)["name"] != "Nine" {
		t.Fatalf("refresh of history: generation %d as of %d, changed %v, answer %v", s.Generation, s.AsOfTT, ref.AnswerChanged, ref.New.Answer)
	}
	wantFlagged(t, "after refreshing the history", check(t, db, f))

	// Retract one message of the counted week (the reachability week is
	// another one).
	var msg bt.EdgeVersion
	db.Read(bt.OpenEnd, func(r engine.Reader) error {
		msg = r.Edge(r.EdgesStartingIn(w2)[0])
		return nil
	})
	if _, err := db.Write(bt.Retract(bt.EdgeRef(msg.Key), msg.Valid.Start)); err != nil {
		t.Fatal(err)
	}
	wantFlagged(t, "after retracting a message of the counted week", check(t, db, f), "week-count")
	_, ref, err = answers.Refresh(context.Background(), db, f, "week-count", 3)
	if err != nil {
		t.Fatal(err)
	}
	if ref.Old.Answer.(int64)-1 != ref.New.Answer.(int64) {
		t.Fatalf("refreshed count %v, want one less than %v", ref.New.Answer, ref.Old.Answer)
	}
	t.Logf("week count %v → %v; n9's history now %v", ref.Old.Answer, ref.New.Answer, rows[0].(map[string]any)["props"])

	// Every generation reads back, the first ones untouched.
	again, err := answers.Open(db.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if g := again.Generations("history"); len(g) != 2 || g[0].TraceDigest != history.TraceDigest || g[0].AsOfTT != history.AsOfTT {
		t.Fatalf("history generations after reopening: %+v", g)
	}
	if g := again.Generations("week-count"); len(g) != 2 || g[0].TraceDigest != count.TraceDigest {
		t.Fatalf("week-count generations after reopening: %+v", g)
	}
	if _, err := os.Stat(filepath.Join(db.Dir(), answers.FileName)); err != nil {
		t.Fatal(err)
	}
}
