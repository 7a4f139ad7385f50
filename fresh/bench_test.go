package fresh_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/fresh"

	"github.com/tgms-go/tgms/internal/testenv"
)

const day = 24 * 3600 * 1_000_000

// checkBench is the shared setup: CollegeMsg, 10,000 saved traces (node
// histories, per-node message counts in a week, reachability counts in a
// day), then one batch of 1,000 corrections (900 messages, 100 nodes).
type checkBench struct {
	db     *tgms.DB
	traces []*exec.Trace
	since  bt.Time
}

var (
	benchOnce sync.Once
	benchSet  *checkBench
	benchErr  error
	benchDir  string // removed by TestMain
)

func TestMain(m *testing.M) {
	code := m.Run()
	if benchSet != nil {
		benchSet.db.Close()
	}
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

func setupCheckBench(b *testing.B) *checkBench {
	benchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "tgms-fresh-bench")
		if err != nil {
			benchErr = err
			return
		}
		benchDir = dir
		benchSet, benchErr = buildCheckBench(dir)
	})
	if benchErr != nil {
		testenv.Missing(b, "building the benchmark store: %v", benchErr)
	}
	return benchSet
}

func buildCheckBench(dir string) (*checkBench, error) {
	spec, err := datasets.Lookup("collegemsg")
	if err != nil {
		return nil, err
	}
	path, ok := datasets.Locate(spec, "../../shared/data")
	if !ok {
		return nil, fmt.Errorf("CollegeMsg.txt.gz not found in ../../shared/data")
	}
	events, err := datasets.Load(spec, path)
	if err != nil {
		return nil, err
	}
	db, err := tgms.Open(filepath.Join(dir, "college"), &tgms.Options{NoSync: true, CheckpointBytes: -1, Logf: func(string, ...any) {}})
	if err != nil {
		return nil, err
	}
	if _, err := db.Ingest(events, "", nil); err != nil {
		return nil, err
	}
	st := db.Stats()
	rng := rand.New(rand.NewPCG(1, 2))
	uid := func() string { return fmt.Sprintf("n%d", 1+rng.IntN(1899)) }
	c := &checkBench{db: db, since: db.LastTT()}
	for i := range 10_000 {
		t0 := st.VtMin + int64(rng.IntN(int((st.VtMax-st.VtMin)/day)))*day
		var planJSON string
		u := uid()
		switch i % 3 {
		case 0:
			planJSON = fmt.Sprintf(`{"plan_id":"h","steps":[{"id":"s1","op":"entity_history","args":{"uid":%q},"depends_on":[]}],"answer_spec":{"kind":"value","from":"s1.rows"}}`, u)
		case 1:
			planJSON = fmt.Sprintf(`{"plan_id":"c","steps":[{"id":"s1","op":"aggregate_events","depends_on":[],"args":{"window":{"t_a":%d,"t_b":%d},"group_by":[],"aggregates":[{"agg":"count"}],"endpoint_filter":{"role":"either","uids":[%q]}}}],"answer_spec":{"kind":"count","from":"s1.rows[0].count"}}`, t0, t0+7*day, u)
		default:
			planJSON = fmt.Sprintf(`{"plan_id":"r","steps":[{"id":"s1","op":"temporal_reachability","depends_on":[],"args":{"src":%q,"window":{"t_a":%d,"t_b":%d},"limit":10000}}],"answer_spec":{"kind":"count","from":"s1.rows_total"}}`, u, t0, t0+day)
		}
		v := db.Validate([]byte(planJSON), []string{u})
		if v.Plan == nil || !v.Valid {
			return nil, fmt.Errorf("plan %d rejected: %+v", i, v.Violations)
		}
		c.traces = append(c.traces, db.Execute(context.Background(), v.Plan))
	}
	var fixes []bt.Op
	err = db.Read(bt.OpenEnd, func(r engine.Reader) error {
		all := r.EdgesOverlapping(bt.Always)
		for range 900 {
			e := r.Edge(all[rng.IntN(len(all))])
			fixes = append(fixes, bt.Correct(bt.EdgeRef(e.Key), `{"fixed":true}`, e.Valid))
		}
		for range 100 {
			id, _ := r.Node(uid())
			h := r.NodeHistory(id)
			if len(h) > 0 {
				fixes = append(fixes, bt.Correct(bt.NodeRef(h[0].UID), `{"fixed":true}`, h[0].Valid))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if _, err := db.Write(fixes...); err != nil {
		return nil, err
	}
	return c, nil
}

// BenchmarkCheck10kAnswers checks 10,000 saved traces against an index of
// the batch of 1,000 corrections written after them.
func BenchmarkCheck10kAnswers(b *testing.B) {
	c := setupCheckBench(b)
	ix, err := fresh.Build(c.db, c.since)
	if err != nil {
		b.Fatal(err)
	}
	stale := 0
	runtime.GC() // the setup's garbage is not the check's
	b.ResetTimer()
	for range b.N {
		stale = 0
		for _, tr := range c.traces {
			if !ix.Check(tr, fresh.Options{MaxReasons: 1}).Fresh {
				stale++
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/10k-checks")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(c.traces)), "ns/answer")
	b.ReportMetric(float64(stale), "stale")
	b.ReportMetric(float64(ix.Touches()), "touches")
}

// BenchmarkBuildIndex reads the log and indexes the batch of corrections.
func BenchmarkBuildIndex(b *testing.B) {
	c := setupCheckBench(b)
	b.ResetTimer()
	for range b.N {
		if _, err := fresh.Build(c.db, c.since); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/build")
}
