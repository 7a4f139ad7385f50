package ops_test

import (
	"context"
	"testing"
	"time"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/ops"
)

// pointQuery is one call of the version-shaped operators' benchmarks.
type pointQuery struct {
	name, op string
	args     map[string]any
}

// pointQueries are calls on the shared 1M store whose rows are versions:
// the busiest node's history (hist.busy), n0's with its incident edges
// (hist.edges), a 2-hop snapshot, a co-activity page, the registry's
// global diff, a neighbourhood evolution and n0's node version history.
func pointQueries(b *testing.B) []pointQuery {
	e, m := benchStore1M(b)
	var busy string
	best := -1
	r := e.Reader(bt.OpenEnd)
	for id := range r.NumNodes() {
		if n := len(r.NodeHistory(uint32(id))); n > best {
			best, busy = n, r.UID(uint32(id))
		}
	}
	span := m.VtMax - m.VtMin
	mid := m.VtMin + span/2
	var seed string
	for _, v := range r.EdgesValidAt(mid) {
		seed = r.UID(r.Src(v))
		break
	}
	return []pointQuery{
		{"hist.busy", "entity_history", map[string]any{"uid": busy}},
		{"hist.edges", "entity_history", map[string]any{"uid": "n0", "include_edges": true}},
		{"snap.hop2", "snapshot_subgraph", map[string]any{"seeds": []any{seed}, "hops": int64(2), "t_valid": mid}},
		{"coactive.overlaps", "co_active", map[string]any{"a_spec": map[string]any{"src": "n0"}, "b_spec": map[string]any{"rel_type": "CALL"},
			"allen_relation": map[string]any{"relation": "overlaps", "gap": int64(60_000_000)}, "limit": int64(100)}},
		{"diff.registry", "diff_snapshots", map[string]any{"t1": mid, "t2": mid + span/40}},
		{"nbr.evolution", "neighborhood_evolution", map[string]any{"uid": "n0", "t1": mid, "t2": mid + span/10}},
		{"vhist.node", "version_history", map[string]any{"kind": "node", "uids": []any{"n0", busy}, "window": map[string]any{"t_a": m.VtMin, "t_b": m.VtMax + 1}}},
	}
}

// runPoint times run(q) b.N times after one untimed call, reporting wall
// and CPU µs per call.
func runPoint(b *testing.B, run func() (*ops.Envelope, error)) {
	env, err := run()
	if err != nil {
		b.Fatal(err)
	}
	want := env.ResultDigest
	b.ReportAllocs()
	b.ResetTimer()
	start, cpu0 := time.Now(), cpuTime()
	for range b.N {
		env, err := run()
		if err != nil {
			b.Fatal(err)
		}
		if env.ResultDigest != want {
			b.Fatalf("digest %s, first call %s", env.ResultDigest, want)
		}
	}
	b.ReportMetric(float64(time.Since(start).Nanoseconds())/1000/float64(b.N), "µs/call")
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/1000/float64(b.N), "cpu-µs/call")
}

// BenchmarkPointQueries1M times the version-shaped calls through
// ops.Execute, as DB.Call runs them (rows as maps), envelope and digest
// included.
func BenchmarkPointQueries1M(b *testing.B) {
	e, _ := benchStore1M(b)
	src := storeSource{e}
	for _, q := range pointQueries(b) {
		b.Run(q.name, func(b *testing.B) {
			runPoint(b, func() (*ops.Envelope, error) { return ops.Execute(context.Background(), src, q.op, q.args) })
		})
	}
}
