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

// starStore: hub sends one message to each of n nodes, node i at time i.
func starStore(t *testing.T, n int) *tgms.DB {
	t.Helper()
	var tick bt.Time
	db, err := tgms.Open(t.TempDir(), &tgms.Options{NoSync: true, Clock: func() bt.Time { tick += 100; return tick }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	evs := make([]bt.Event, n)
	for i := range evs {
		evs[i] = bt.Event{Src: "hub", Dst: fmt.Sprintf("n%d", i), RelType: "MSG", VtS: int64(i + 1)}
	}
	if _, err := db.Ingest(evs, "User", nil); err != nil {
		t.Fatal(err)
	}
	return db
}

// s2 reads all of s1's rows through a [*] projection.
const projectionPlan = `{"plan_id":"proj","steps":[
 {"id":"s1","op":"temporal_reachability","args":{"src":"hub","window":{"t_a":0,"t_b":1000000}},"depends_on":[]},
 {"id":"s2","op":"compute","args":{"fn":"count","input":{"$ref":"s1.rows[*].uid"}},"depends_on":["s1"]}],
 "answer_spec":{"kind":"count","from":"s2.value"}}`

// A projection of 100,000 items passes whole (no 10,000-item cut): the
// count is exact and certified; with a budget too small for the projection
// the step is E_LIMIT naming it.
func TestProjectionIsWholeAndCharged(t *testing.T) {
	const n = 100_000
	db := starStore(t, n)
	p := mustPlanUIDs(t, projectionPlan, "hub")
	tr := exec.Run(context.Background(), db, p, exec.Options{})
	if !tr.OK || tr.Answer != int64(n) {
		t.Fatalf("answer %v ok %v", tr.Answer, tr.OK)
	}
	s2, _ := tr.Step("s2")
	if s2.UpstreamTruncated || len(s2.RefTruncations) != 0 || !s2.Evidence.Completeness.Complete || tr.Certified == nil || !*tr.Certified {
		t.Fatalf("s2: upstream truncated %v cuts %v evidence %+v certified %v", s2.UpstreamTruncated, s2.RefTruncations, s2.Evidence.Completeness, tr.Certified)
	}
	// s1's result fits a budget that s1 plus the projection does not.
	s1Bytes := ops.PayloadBytes(tr.FullResult("s1"))
	var uids []any
	for _, r := range tr.FullResult("s1")["rows"].([]any) {
		uids = append(uids, r.(map[string]any)["uid"])
	}
	projBytes := ops.PayloadBytes(uids)
	small := exec.Run(context.Background(), db, p, exec.Options{MemBudget: s1Bytes + projBytes/2})
	s2, _ = small.Step("s2")
	if small.OK || s2.Status != "failed" || s2.Error.Code != ops.ELimit || !strings.Contains(s2.Error.Message, "[*] projections hold") {
		t.Fatalf("small budget: ok %v s2 %s %+v", small.OK, s2.Status, s2.Error)
	}
	if s1, _ := small.Step("s1"); s1.Status != "ok" {
		t.Fatalf("s1 should fit the small budget: %+v", s1.Error)
	}
	enough := exec.Run(context.Background(), db, p, exec.Options{MemBudget: s1Bytes + projBytes + 1<<20})
	if !enough.OK || enough.Answer != int64(n) {
		t.Fatalf("a budget that holds both: ok %v answer %v", enough.OK, enough.Answer)
	}
}

func mustPlanUIDs(t *testing.T, js string, uids ...string) *plan.Plan {
	t.Helper()
	v := plan.ValidateJSON([]byte(js), plan.Options{UIDs: uids})
	if !v.Valid {
		t.Fatalf("plan rejected: %+v", v.Violations)
	}
	return v.Plan
}
