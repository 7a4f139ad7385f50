package exec_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/exec"

	"github.com/tgms-go/tgms/internal/testenv"
)

// "How many directed pairs exchanged exactly one message?" on CollegeMsg as
// a three-step plan: the grouping has about 20,000 rows (twice the old page
// cap), the filter reads all of them, and the certified count equals the
// number taken from the events directly.
func TestCollegeMsgPairsWithOneMessage(t *testing.T) {
	spec, _ := datasets.Lookup("collegemsg")
	path, ok := datasets.Locate(spec, filepath.Join("..", "..", "shared", "data"), filepath.Join("..", "shared", "data"))
	if !ok {
		testenv.Missing(t, "CollegeMsg not found in ../shared/data")
	}
	evs, err := datasets.Load(spec, path)
	if err != nil {
		t.Fatal(err)
	}
	var tick bt.Time
	db, err := tgms.Open(t.TempDir(), &tgms.Options{NoSync: true, Clock: func() bt.Time { tick += 100; return tick }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Ingest(evs, "Node", nil); err != nil {
		t.Fatal(err)
	}
	pairs := map[[2]string]int{}
	for _, e := range evs {
		pairs[[2]string{e.Src, e.Dst}]++
	}
	once := int64(0)
	for _, n := range pairs {
		if n == 1 {
			once++
		}
	}
	p := mustPlan(t, `{"plan_id":"college-once","steps":[
 {"id":"s1","op":"aggregate_events","args":{"window":{"t_a":0,"t_b":4611686018427387904},"group_by":[{"dim":"pair"}],"aggregates":[{"agg":"count"}]},"depends_on":[]},
 {"id":"s2","op":"compute","args":{"fn":"filter","input":{"$ref":"s1.rows"},"field":"count","cmp":"eq","value":1},"depends_on":["s1"]},
 {"id":"s3","op":"compute","args":{"fn":"count","input":{"$ref":"s2.rows"}},"depends_on":["s2"]}],
 "answer_spec":{"kind":"count","from":"s3.value"}}`)
	tr := exec.Run(context.Background(), db, p, exec.Options{})
	s1, _ := tr.Step("s1")
	if s1.RowsTotal != int64(len(pairs)) || s1.RowsTotal <= 10_000 {
		t.Fatalf("s1 has %d groups, %d pairs in the file", s1.RowsTotal, len(pairs))
	}
	if ok, why := tr.AnswerStatus(); !ok || tr.Answer != once {
		t.Fatalf("answer %v (certified %v: %s), brute force %d", tr.Answer, ok, why, once)
	}
}
