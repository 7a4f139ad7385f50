package exec_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/plan"
)

// pairStore has 300 directed pairs: pair i sends 1 + i%3 messages, so 100
// pairs exchanged exactly one message.
func pairStore(t *testing.T) *tgms.DB {
	t.Helper()
	var tick bt.Time
	db, err := tgms.Open(t.TempDir(), &tgms.Options{NoSync: true, Clock: func() bt.Time { tick += 100; return tick }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var evs []bt.Event
	for i := range 300 {
		for j := range 1 + i%3 {
			evs = append(evs, bt.Event{Src: fmt.Sprintf("u%d", i), Dst: fmt.Sprintf("v%d", i), RelType: "MSG", VtS: int64(10 + i + 1000*j)})
		}
	}
	if _, err := db.Ingest(evs, "User", nil); err != nil {
		t.Fatal(err)
	}
	return db
}

const onePairPlan = `{"plan_id":"one","steps":[
 {"id":"s1","op":"aggregate_events","args":{"window":{"t_a":0,"t_b":10000},"group_by":[{"dim":"pair"}],"aggregates":[{"agg":"count"}]},"depends_on":[]},
 {"id":"s2","op":"compute","args":{"fn":"filter","input":{"$ref":"s1.rows"},"field":"count","cmp":"eq","value":1},"depends_on":["s1"]},
 {"id":"s3","op":"compute","args":{"fn":"count","input":{"$ref":"s2.rows"}},"depends_on":["s2"]}],
 "answer_spec":{"kind":"count","from":"s3.value"}}`

// A step without limit passes its whole result on: the count over all 300
// groups is complete, the trace stores an excerpt of s1, and re-running
// reproduces every digest.
func TestStepsReadWholeResults(t *testing.T) {
	db := pairStore(t)
	p := mustPlan(t, onePairPlan)
	tr := exec.Run(context.Background(), db, p, exec.Options{})
	if !tr.OK || tr.Answer != int64(100) {
		t.Fatalf("answer %v ok %v: %+v", tr.Answer, tr.OK, tr.Steps)
	}
	s1, _ := tr.Step("s1")
	if s1.RowsTotal != 300 || s1.RowsReturned != 300 || s1.Truncated || !s1.Evidence.Completeness.Complete {
		t.Fatalf("s1: total %d returned %d truncated %v evidence %+v", s1.RowsTotal, s1.RowsReturned, s1.Truncated, s1.Evidence.Completeness)
	}
	if s1.Result != nil || len(s1.ResultExcerpt["rows"].([]any)) != exec.ExcerptRows {
		t.Fatalf("s1 should be stored as an excerpt of %d rows", exec.ExcerptRows)
	}
	if _, limited := s1.Args["limit"]; limited {
		t.Fatal("a whole step records no page limit")
	}
	s3, _ := tr.Step("s3")
	if !s3.Evidence.Completeness.Complete {
		t.Fatalf("the count is not complete: %+v", s3.Evidence.Completeness)
	}
	again := exec.Run(context.Background(), db, p, exec.Options{AsOf: tr.AsOfTT})
	if again.TraceDigest != tr.TraceDigest {
		t.Fatal("re-running the plan changed its trace digest")
	}
}

// A step that names a limit still pages, and the refusal of a reduction
// over its page names that limit.
func TestExplicitLimitTruncatesAndTheHintNamesIt(t *testing.T) {
	db := pairStore(t)
	p := mustPlan(t, strings.Replace(onePairPlan, `"aggregates":[{"agg":"count"}]}`, `"aggregates":[{"agg":"count"}],"limit":50}`, 1))
	tr := exec.Run(context.Background(), db, p, exec.Options{})
	s2, _ := tr.Step("s2")
	s3, _ := tr.Step("s3")
	if s2.Status != "ok" || !s2.UpstreamTruncated || s3.Status != "failed" || s3.Error.Code != "E_LIMIT" {
		t.Fatalf("s2 %s %v; s3 %s %+v", s2.Status, s2.UpstreamTruncated, s3.Status, s3.Error)
	}
	hint, _ := s3.Error.Details["hint"].(string)
	if !strings.Contains(hint, "s1's limit (50)") || !strings.Contains(hint, "300 rows to 50") {
		t.Fatalf("hint %q does not name s1's limit", hint)
	}
}

// Over the plan's memory budget the step that crossed it is E_LIMIT, with
// its name and size; its dependents are skipped.
func TestPlanMemoryBudget(t *testing.T) {
	db := pairStore(t)
	p := mustPlan(t, onePairPlan)
	tr := exec.Run(context.Background(), db, p, exec.Options{MemBudget: 64 << 10})
	s1, _ := tr.Step("s1")
	s2, _ := tr.Step("s2")
	if s1.Status != "failed" || s1.Error.Code != "E_LIMIT" || s2.Status != "skipped" || tr.OK {
		t.Fatalf("s1 %s %+v; s2 %s", s1.Status, s1.Error, s2.Status)
	}
	if !strings.Contains(s1.Error.Message, "64.0 KiB") || s1.Error.Details["mem_budget"] != int64(64<<10) {
		t.Fatalf("the refusal does not name the budget: %+v", s1.Error)
	}
}

// The answer's certification: a count over whole results is certified; the
// rows_total of a filter whose input was a page is not, and says why.
func TestAnswerStatus(t *testing.T) {
	db := pairStore(t)
	tr := exec.Run(context.Background(), db, mustPlan(t, onePairPlan), exec.Options{})
	if ok, why := tr.AnswerStatus(); !ok {
		t.Fatalf("whole count not certified: %s", why)
	}
	paged := strings.Replace(onePairPlan, `"aggregates":[{"agg":"count"}]}`, `"aggregates":[{"agg":"count"}],"limit":50}`, 1)
	paged = strings.Replace(paged, `"from":"s3.value"`, `"from":"s2.rows_total"`, 1)
	tr = exec.Run(context.Background(), db, mustPlan(t, paged), exec.Options{})
	ok, why := tr.AnswerStatus()
	if ok || !strings.Contains(why, "incomplete inputs") || !strings.Contains(why, "s1.rows") {
		t.Fatalf("the rows_total of a filter over a page: certified %v (%s)", ok, why)
	}
	// rows_total of the page itself is certain.
	own := strings.Replace(paged, `"from":"s2.rows_total"`, `"from":"s1.rows_total"`, 1)
	tr = exec.Run(context.Background(), db, mustPlan(t, own), exec.Options{})
	if ok, why := tr.AnswerStatus(); !ok || tr.Answer != int64(300) {
		t.Fatalf("rows_total of a page: %v %v (%s)", tr.Answer, ok, why)
	}
}

// A window wholly outside the data is refused the same way written
// literally (by the plan contract) and reached by reference (at run time),
// both with the units hint.
func TestWindowOutsideTheDataLiteralAndByReference(t *testing.T) {
	db := pairStore(t)
	es := db.Stats()
	st := ops.Stats{Nodes: int64(es.Nodes), NodeVersions: int64(es.NodeVersions), EdgeVersions: int64(es.EdgeVersions), VtMin: es.VtMin, VtMax: es.VtMax}
	literal := `{"plan_id":"w","steps":[{"id":"s1","op":"aggregate_events","args":{"window":{"t_a":900000,"t_b":900100},"group_by":[],"aggregates":[{"agg":"count"}]},"depends_on":[]}],"answer_spec":{"kind":"count","from":"s1.rows[0].count"}}`
	v := plan.ValidateJSON([]byte(literal), plan.Options{Stats: &st})
	if v.Valid || v.Violations[0].Rule != plan.RuleWindowExtent || !strings.Contains(v.Violations[0].Hint, "units") {
		t.Fatalf("literal window outside the data: %+v", v.Violations)
	}
	// s2's window starts where s1's only bucket ends, after the data.
	byRef := `{"plan_id":"w2","steps":[
 {"id":"s1","op":"aggregate_events","args":{"window":{"t_a":0,"t_b":3000},"group_by":[{"dim":"time_bucket","stride":3000}],"aggregates":[{"agg":"count"}]},"depends_on":[]},
 {"id":"s2","op":"aggregate_events","args":{"window":{"t_a":{"$ref":"s1.rows[0].t_b"},"t_b":900000},"group_by":[],"aggregates":[{"agg":"count"}]},"depends_on":["s1"]}],
 "answer_spec":{"kind":"count","from":"s2.rows[0].count"}}`
	tr := exec.Run(context.Background(), db, mustPlan(t, byRef), exec.Options{})
	s2, _ := tr.Step("s2")
	if s2.Status != "failed" || s2.Error.Code != "E_INVALID_ARG" || s2.Error.Details["rule"] != plan.RuleWindowExtent || !strings.Contains(s2.Error.Details["hint"].(string), "units") {
		t.Fatalf("window by reference outside the data: %s %+v", s2.Status, s2.Error)
	}
}

// An empty uid list, or uids the store does not know, in a filter position
// is an empty, complete answer: a certified count of 0.
func TestEmptyFilterIsACertifiedZero(t *testing.T) {
	db := pairStore(t)
	for _, uids := range []string{`[]`, `["nobody"]`} {
		v := plan.ValidateJSON([]byte(`{"plan_id":"e","steps":[{"id":"s1","op":"aggregate_events","args":{"window":{"t_a":0,"t_b":10000},"group_by":[],"aggregates":[{"agg":"count"}],"endpoint_filter":{"role":"src","uids":`+uids+`}},"depends_on":[]}],"answer_spec":{"kind":"count","from":"s1.rows[0].count"}}`), plan.Options{UIDs: []string{"nobody"}})
		if !v.Valid {
			t.Fatalf("uids %s: rejected %+v", uids, v.Violations)
		}
		tr := exec.Run(context.Background(), db, v.Plan, exec.Options{})
		if ok, why := tr.AnswerStatus(); !ok || tr.Answer != int64(0) {
			t.Fatalf("uids %s: answer %v certified %v (%s)", uids, tr.Answer, ok, why)
		}
	}
}
