package ops_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"

	"github.com/tgms-go/tgms/internal/testenv"
)

// motifBenchIngest applies events to a fresh engine store in batches of
// 50,000 (no log: only the in-memory engine is measured).
func motifBenchIngest(b *testing.B, evs []bt.Event) *engine.Store {
	e := engine.New()
	for i := 0; i < len(evs); i += 50_000 {
		batch := []bt.Op{bt.Ingest(evs[i:min(i+50_000, len(evs))], "Node")}
		eff, err := bt.Plan(e, bt.Time(i/50_000+1), e.Batches()+1, batch)
		if err != nil {
			b.Fatal(err)
		}
		if err := e.Apply(eff); err != nil {
			b.Fatal(err)
		}
	}
	return e
}

// motifSynth1M is the shared 1M-event synthetic store.
func motifSynth1M(b *testing.B) (*engine.Store, *datasets.Manifest) { return benchStore1M(b) }

func motifBenchCall(b *testing.B, e *engine.Store, args map[string]any) {
	b.Helper()
	b.ReportAllocs()
	var last map[string]any
	start, cpu0 := time.Now(), cpuTime()
	for range b.N {
		env, err := ops.Execute(context.Background(), storeSource{e}, "count_temporal_motifs", args)
		if err != nil {
			b.Fatal(err)
		}
		last = env.Result
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/call")
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/call")
	b.ReportMetric(float64(last["count"].(int64)), "instances")
	b.ReportMetric(float64(last["n_events_in_window"].(int64)), "events")
}

// BenchmarkCountMotifsFilter200Synth1M: a 200-node filter (random
// background nodes) over the whole 90-day span of the 1M-event store, delta
// one day. Target: <= 20 ms.
func BenchmarkCountMotifsFilter200Synth1M(b *testing.B) {
	e, man := motifSynth1M(b)
	rng := rand.New(rand.NewPCG(5, 5))
	filter := make([]any, 0, 200)
	for _, i := range rng.Perm(man.Nodes)[:200] {
		filter = append(filter, fmt.Sprintf("n%d", i))
	}
	for _, m := range []string{"M_triangle_cyclic", "M_2node_pingpong", "M11", "M_star_out_3", "M_path_3"} {
		b.Run(m, func(b *testing.B) {
			motifBenchCall(b, e, map[string]any{"motif": m, "delta": int64(datasets.Day), "node_filter": filter,
				"window": map[string]any{"t_a": int64(man.VtMin), "t_b": int64(man.VtMax)}})
		})
	}
}

// BenchmarkCountMotifsFilter200CoreSynth1M: a 200-node filter of the kind
// an analyst uses to study a community around its hubs: the 10 busiest
// nodes (most incident events) and 190 active ones below the hubs (ranks
// 200 on), over the whole span with delta one day. The filter's nodes talk
// to each other, so the window holds thousands of their events and
// the count is a realistic number of instances; both are reported with the
// time. (A filter of random nodes sees about a hundred events and no
// instances; one of the 200 busiest sees a third of the store.)
func BenchmarkCountMotifsFilter200CoreSynth1M(b *testing.B) {
	e, man := motifSynth1M(b)
	r := e.Reader(bt.OpenEnd)
	ids := make([]uint32, 0, man.Nodes)
	for id := range uint32(r.NumNodes()) {
		ids = append(ids, id)
	}
	deg := func(id uint32) int { return len(r.Out(id)) + len(r.In(id)) }
	slices.SortStableFunc(ids, func(x, y uint32) int { return deg(y) - deg(x) })
	filter := make([]any, 0, 200)
	for _, id := range append(slices.Clone(ids[:10]), ids[200:390]...) {
		filter = append(filter, r.UID(id))
	}
	for _, m := range []string{"M_triangle_cyclic", "M_2node_pingpong", "M11", "M_star_out_3", "M_path_3"} {
		b.Run(m, func(b *testing.B) {
			motifBenchCall(b, e, map[string]any{"motif": m, "delta": int64(datasets.Day), "node_filter": filter,
				"window": map[string]any{"t_a": int64(man.VtMin), "t_b": int64(man.VtMax)}})
		})
	}
}

// motifCPUTime is the process's user+system CPU time (the shared test
// machine is often loaded, so wall time alone overstates the kernels).

// BenchmarkCountMotifsFilterPlantedSynth1M: a 200-node filter made of the
// nodes of the planted triangles and ping-pongs, topped up with random
// background nodes, so that the counts are not zero.
func BenchmarkCountMotifsFilterPlantedSynth1M(b *testing.B) {
	e, man := motifSynth1M(b)
	seen := map[string]bool{}
	filter := make([]any, 0, 200)
	for _, p := range man.Patterns {
		if p.Kind == "burst" {
			continue
		}
		for _, u := range p.Nodes {
			if !seen[u] && len(filter) < 200 {
				seen[u] = true
				filter = append(filter, u)
			}
		}
	}
	rng := rand.New(rand.NewPCG(6, 6))
	for len(filter) < 200 {
		if u := fmt.Sprintf("n%d", rng.IntN(man.Nodes)); !seen[u] {
			seen[u] = true
			filter = append(filter, u)
		}
	}
	for _, m := range []string{"M_triangle_cyclic", "M_2node_pingpong", "M11", "M_path_3"} {
		b.Run(m, func(b *testing.B) {
			motifBenchCall(b, e, map[string]any{"motif": m, "delta": int64(datasets.Day), "node_filter": filter,
				"window": map[string]any{"t_a": int64(man.VtMin), "t_b": int64(man.VtMax)}})
		})
	}
}

// BenchmarkCountMotifsCollegeMsg counts without a filter over the whole
// CollegeMsg stream (59,835 events), delta one hour.
func BenchmarkCountMotifsCollegeMsg(b *testing.B) {
	spec, _ := datasets.Lookup("collegemsg")
	path, ok := datasets.Locate(spec, filepath.Join("..", "..", "shared", "data"), filepath.Join("..", "shared", "data"))
	if !ok {
		testenv.Missing(b, "CollegeMsg not found in ../shared/data")
	}
	evs, err := datasets.Load(spec, path)
	if err != nil {
		b.Fatal(err)
	}
	e := motifBenchIngest(b, evs)
	for _, m := range []string{"M_triangle_cyclic", "M_triangle_acyclic_1", "M_2node_pingpong", "M11", "M43", "M_star_out_3", "M_path_3"} {
		b.Run(m, func(b *testing.B) {
			motifBenchCall(b, e, map[string]any{"motif": m, "delta": int64(3600 * 1_000_000),
				"window": map[string]any{"t_a": int64(0), "t_b": int64(1) << 62}})
		})
	}
}
