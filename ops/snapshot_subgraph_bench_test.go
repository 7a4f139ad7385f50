package ops_test

import (
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/engine"
)

// snapshotBenchStore is a 1M-event synthetic store (the generator's
// defaults: 20,000 nodes, 90 days, 5% interval edges), ingested in chunks of
// 50,000 events straight into the engine (no log), built once.
func snapshotBenchStore(b *testing.B) (*engine.Store, *datasets.Manifest) { return benchStore1M(b) }

// snapshotBenchRun times op(args) on the synthetic store and reports the
// mean latency in ms.
func snapshotBenchRun(b *testing.B, op string, args map[string]any) {
	res := benchOp(b, op, args)
	for _, f := range []string{"rows_total", "nodes_total", "edges_added_total", "edges_removed_total", "neighbors_gained_total"} {
		if v, ok := res[f].(int64); ok {
			b.ReportMetric(float64(v), f)
		}
	}
}

func snapshotBenchMid(b *testing.B) bt.Time {
	_, m := snapshotBenchStore(b)
	return m.VtMin + (m.VtMax-m.VtMin)/2
}

// snapshotBenchSeeds returns n sources of edges valid at t (so that the
// search has something to follow).
func snapshotBenchSeeds(b *testing.B, t bt.Time, n int) []any {
	e, _ := snapshotBenchStore(b)
	r := e.Reader(bt.OpenEnd)
	seen := map[string]bool{}
	var out []any
	for _, v := range r.EdgesValidAt(t) {
		if u := r.UID(r.Src(v)); !seen[u] && len(out) < n {
			seen[u] = true
			out = append(out, u)
		}
	}
	return out
}

func BenchmarkSnapshotSubgraph2Hops(b *testing.B) {
	t := snapshotBenchMid(b)
	snapshotBenchRun(b, "snapshot_subgraph", map[string]any{
		"seeds": snapshotBenchSeeds(b, t, 3), "hops": int64(2), "t_valid": t})
}

func BenchmarkSnapshotSubgraph3Hops50Seeds(b *testing.B) {
	t := snapshotBenchMid(b)
	snapshotBenchRun(b, "snapshot_subgraph", map[string]any{
		"seeds": snapshotBenchSeeds(b, t, 50), "hops": int64(3), "t_valid": t})
}

func BenchmarkDiffSnapshotsWhole(b *testing.B) {
	t := snapshotBenchMid(b)
	snapshotBenchRun(b, "diff_snapshots", map[string]any{"t1": t, "t2": t + 3_600_000_000})
}

func BenchmarkDiffSnapshotsScoped(b *testing.B) {
	t := snapshotBenchMid(b)
	snapshotBenchRun(b, "diff_snapshots", map[string]any{"t1": t, "t2": t + 3_600_000_000,
		"scope": map[string]any{"seeds": snapshotBenchSeeds(b, t, 50), "hops": int64(2)}})
}

func BenchmarkNeighborhoodEvolution2000(b *testing.B) {
	_, m := snapshotBenchStore(b)
	span := m.VtMax - m.VtMin
	snapshotBenchRun(b, "neighborhood_evolution", map[string]any{"uid": "n1", "t1": m.VtMin, "t2": m.VtMax,
		"stride": (span + 1999) / 2000})
}
