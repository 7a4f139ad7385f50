package exec_test

import (
	"context"
	"testing"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/plan"
)

func props(s string) bt.Props {
	p, err := bt.ParseProps([]byte(s))
	if err != nil {
		panic(err)
	}
	return p
}

// store builds a small payments graph: acme pays a1 at 10, a1 pays a2 at
// 20, a2 pays a3 at 30, and beta pays a3 at 5.
func store(t *testing.T) *tgms.DB {
	t.Helper()
	var tick bt.Time
	db, err := tgms.Open(t.TempDir(), &tgms.Options{NoSync: true, Clock: func() bt.Time { tick += 100; return tick }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	_, err = db.Write(
		bt.AssertNode("acme", "Org", props(`{"name":"ACME Corp"}`), bt.Always),
		bt.AssertNode("beta", "Org", props(`{"name":"Beta Ltd"}`), bt.Always),
		bt.AssertNode("a1", "Account", props(`{"name":"acct one"}`), bt.Always),
	)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Ingest([]bt.Event{
		{Src: "acme", Dst: "a1", RelType: "PAY", VtS: 10},
		{Src: "a1", Dst: "a2", RelType: "PAY", VtS: 20},
		{Src: "a2", Dst: "a3", RelType: "PAY", VtS: 30},
		{Src: "beta", Dst: "a3", RelType: "PAY", VtS: 5},
	}, "Account", nil)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func mustPlan(t *testing.T, js string) *plan.Plan {
	t.Helper()
	v := plan.ValidateJSON([]byte(js), plan.Options{})
	if !v.Valid {
		t.Fatalf("plan rejected: %+v", v.Violations)
	}
	return v.Plan
}

const reachPlan = `{"plan_id":"p1","steps":[
 {"id":"s1","op":"resolve_entities","args":{"query":"ACME"},"depends_on":[]},
 {"id":"s2","op":"temporal_reachability","args":{"src":{"$ref":"s1.rows[0].uid"},"window":{"t_a":0,"t_b":100}},"depends_on":["s1"]},
 {"id":"s3","op":"compute","args":{"fn":"count","input":{"$ref":"s2.rows"}},"depends_on":["s2"]}],
 "answer_spec":{"kind":"count","from":"s3.value"}}`

func TestRunAndReproduce(t *testing.T) {
	db := store(t)
	p := mustPlan(t, reachPlan)
	tr := exec.Run(context.Background(), db, p, exec.Options{})
	if !tr.OK {
		t.Fatalf("trace not ok: %+v", tr.Steps)
	}
	if tr.Answer != int64(3) {
		t.Fatalf("answer %v, want 3 (a1, a2, a3)", tr.Answer)
	}
	for _, s := range tr.Steps {
		if len(s.CallDigest) != 64 || len(s.ResultDigest) != 64 {
			t.Fatalf("step %s lacks digests", s.StepID)
		}
		if s.Op != "compute" && s.Args["as_of_tt"] != tr.AsOfTT {
			t.Fatalf("step %s not pinned at %d: %v", s.StepID, tr.AsOfTT, s.Args["as_of_tt"])
		}
	}
	again := exec.Run(context.Background(), db, p, exec.Options{Sequential: true})
	if again.TraceDigest != tr.TraceDigest {
		t.Fatal("sequential and concurrent runs differ")
	}
}

// A trace pinned at its belief time still reproduces after a correction,
// while an unpinned re-run sees the correction.
func TestTraceSurvivesLaterCorrections(t *testing.T) {
	db := store(t)
	p := mustPlan(t, reachPlan)
	tr := exec.Run(context.Background(), db, p, exec.Options{})
	// We were wrong: a1 never paid a2.
	if _, err := db.Write(bt.Correct(bt.EdgeRef(bt.EdgeKey{Src: "a1", Dst: "a2", RelType: "PAY", Disc: "#2.1"}), props(`{"void":true}`), bt.Interval{Start: 20, End: 21})); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Write(bt.Retract(bt.EdgeRef(bt.EdgeKey{Src: "a1", Dst: "a2", RelType: "PAY", Disc: "#2.1"}), 20)); err != nil {
		t.Fatal(err)
	}
	pinned := exec.Run(context.Background(), db, p, exec.Options{AsOf: tr.AsOfTT})
	if pinned.TraceDigest != tr.TraceDigest {
		t.Fatal("re-running at the recorded belief time changed the trace")
	}
	now := exec.Run(context.Background(), db, p, exec.Options{})
	if now.TraceDigest == tr.TraceDigest || now.Answer != int64(1) {
		t.Fatalf("an unpinned run should see the retraction: answer %v", now.Answer)
	}
}

func TestFailedStepSkipsOnlyDependents(t *testing.T) {
	db := store(t)
	p := mustPlan(t, `{"plan_id":"p2","steps":[
 {"id":"s1","op":"resolve_entities","args":{"query":"nobody-by-this-name"},"depends_on":[]},
 {"id":"s2","op":"entity_history","args":{"uid":{"$ref":"s1.rows[0].uid"}},"depends_on":["s1"]},
 {"id":"s3","op":"compute","args":{"fn":"count","input":{"$ref":"s2.rows"}},"depends_on":["s2"]},
 {"id":"s4","op":"resolve_entities","args":{"query":"beta"},"depends_on":[]}],
 "answer_spec":{"kind":"count","from":"s3.value"}}`)
	tr := exec.Run(context.Background(), db, p, exec.Options{})
	status := map[string]string{}
	for _, s := range tr.Steps {
		status[s.StepID] = s.Status
	}
	if status["s1"] != "ok" || status["s2"] != "failed" || status["s3"] != "skipped" || status["s4"] != "ok" {
		t.Fatalf("statuses %v", status)
	}
	s2, _ := tr.Step("s2")
	if s2.Error.Code != "E_INVALID_ARG" || s2.Violation(1).Path != "/steps/1/args/uid" {
		t.Fatalf("s2 error %+v, violation %+v", s2.Error, s2.Violation(1))
	}
	s3, _ := tr.Step("s3")
	if s3.Error.Code != exec.EUpstream || tr.OK || tr.AnswerError == nil {
		t.Fatalf("s3 %+v, ok %v, answer error %v", s3.Error, tr.OK, tr.AnswerError)
	}
}

// Counting a truncated page is refused: it would be a wrong number.
func TestTruncatedReductionIsRefused(t *testing.T) {
	db := store(t)
	p := mustPlan(t, `{"plan_id":"p3","steps":[
 {"id":"s1","op":"resolve_entities","args":{"query":"a","limit":1},"depends_on":[]},
 {"id":"s2","op":"compute","args":{"fn":"count","input":{"$ref":"s1.rows"}},"depends_on":["s1"]}],
 "answer_spec":{"kind":"count","from":"s2.value"}}`)
	tr := exec.Run(context.Background(), db, p, exec.Options{})
	s1, _ := tr.Step("s1")
	s2, _ := tr.Step("s2")
	if !s1.Truncated || s2.Status != "failed" || s2.Error.Code != "E_LIMIT" || !s2.UpstreamTruncated {
		t.Fatalf("s1 truncated %v; s2 %s %+v", s1.Truncated, s2.Status, s2.Error)
	}
}
