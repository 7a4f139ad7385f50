package eval

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/evidence"
	"github.com/tgms-go/tgms/exec"

	"github.com/tgms-go/tgms/internal/testenv"
)

// collegeTraces runs every oracle plan of the CollegeMsg suite (seed 0,
// default sizes) and returns the traces with the claims a reporter would
// make from each.
func collegeTraces(b *testing.B) ([]*exec.Trace, []*evidence.Answer) {
	collegeOnce.Do(func() { collegeTrs, collegeAnswers = loadCollegeTraces(b) })
	if len(collegeTrs) == 0 {
		testenv.Missing(b, "no CollegeMsg traces")
	}
	return collegeTrs, collegeAnswers
}

var (
	collegeOnce    sync.Once
	collegeTrs     []*exec.Trace
	collegeAnswers []*evidence.Answer
)

func loadCollegeTraces(b *testing.B) ([]*exec.Trace, []*evidence.Answer) {
	path := filepath.Join("..", "..", "shared", "data", "CollegeMsg.txt.gz")
	if _, err := os.Stat(path); err != nil {
		b.Logf("%s not found (the SNAP files live in ../shared/data beside the repository)", path)
		return nil, nil
	}
	spec, err := datasets.Lookup("collegemsg")
	if err != nil {
		b.Fatal(err)
	}
	events, err := datasets.Load(spec, path)
	if err != nil {
		b.Fatal(err)
	}
	db, err := tgms.Open(b.TempDir(), &tgms.Options{NoSync: true, Clock: fixedClock(), CheckpointBytes: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Ingest(events, "Node", nil); err != nil {
		b.Fatal(err)
	}
	suite, err := Generate(context.Background(), db, GenConfig{Dataset: "collegemsg", Seed: 0})
	if err != nil {
		b.Fatal(err)
	}
	tasks, _ := suite.Tasks("all")
	var trs []*exec.Trace
	var answers []*evidence.Answer
	for i := range tasks {
		p, err := taskPlan(&tasks[i])
		if err != nil {
			b.Fatal(err)
		}
		tr := exec.Run(context.Background(), db, p, exec.Options{AsOf: tasks[i].AsOfTT})
		if tr.OK {
			trs = append(trs, tr)
			answers = append(answers, &evidence.Answer{Claims: cleanClaims(tr, p)})
		}
	}
	return trs, answers
}

// BenchmarkVerifyCollegeMsg reports claim verification latency (verify and
// gate one answer) on a real trace: the median plan of the CollegeMsg suite
// by the work verification does (claims × rows in the trace), with the
// claims a reporter makes from it. p50 and p99 over the iterations, and the
// trace's size beside them.
func BenchmarkVerifyCollegeMsg(b *testing.B) {
	trs, answers := collegeTraces(b)
	size := func(i int) int {
		rows := 0
		for _, s := range trs[i].Steps {
			rows += int(s.RowsReturned) + 1
		}
		return rows * len(answers[i].Claims)
	}
	order := make([]int, len(trs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return size(x) - size(y) })
	med := order[len(order)/2]
	tr, a := trs[med], answers[med]
	rows := 0
	for _, s := range tr.Steps {
		rows += int(s.RowsReturned)
	}
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		evidence.Gate(tr, a, evidence.Options{})
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds())/1e6, "p50-ms")
	b.ReportMetric(float64(times[min(len(times)-1, len(times)*99/100)].Nanoseconds())/1e6, "p99-ms")
	b.ReportMetric(float64(len(a.Claims)), "claims")
	b.ReportMetric(float64(len(tr.Steps)), "steps")
	b.ReportMetric(float64(rows), "rows")
	b.ReportMetric(float64(len(trs)), "traces")
}

// BenchmarkVerifyCollegeMsgAll verifies and gates the answers of every
// trace of the suite in turn: p50 and p99 over all of them.
func BenchmarkVerifyCollegeMsgAll(b *testing.B) {
	trs, answers := collegeTraces(b)
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		j := i % len(trs)
		start := time.Now()
		evidence.Gate(trs[j], answers[j], evidence.Options{})
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds())/1e6, "p50-ms")
	b.ReportMetric(float64(times[min(len(times)-1, len(times)*99/100)].Nanoseconds())/1e6, "p99-ms")
	b.ReportMetric(float64(len(trs)), "traces")
}
