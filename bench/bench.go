// Package bench is the engine benchmark: a fixed registry of operator
// queries whose arguments derive from the store (its extent, its uids, its
// first belief boundary), timed in process with warm-ups, reported as p50
// and p95 latency with the answer's size and digest.
package bench

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
)

// Query is one registry entry.
type Query struct {
	ID   string         `json:"id"`
	Op   string         `json:"op"`
	Args map[string]any `json:"args"`
}

// Result is one query's measurement.
type Result struct {
	ID      string  `json:"id"`
	Op      string  `json:"op"`
	Status  string  `json:"status"` // ok, refused (the error code), unsupported
	Error   string  `json:"error,omitempty"`
	Reps    int     `json:"reps"`
	P50Ms   float64 `json:"p50_ms"`
	P95Ms   float64 `json:"p95_ms"`
	Size    int64   `json:"answer_size"`
	Digest  string  `json:"result_digest,omitempty"`
	Summary string  `json:"-"`
}

// Registry derives the benchmark queries from the store: extent [t0, t1),
// span and midpoint, two uids (n1 and n2 when present, else the first two
// by byte order), the belief boundary of the first batch, and a motif node
// filter of 200 uids (n0..n199 when present, else the first 200 source uids
// by byte order).
func Registry(db *tgms.DB) ([]Query, error) {
	st := db.Stats()
	if st.EdgeVersions == 0 {
		return nil, fmt.Errorf("the store has no edges to benchmark")
	}
	t0, t1 := st.VtMin, st.VtMax
	span := t1 - t0
	mid := t0 + span/2
	var u1, u2 string
	var filter []any
	var tt1 bt.Time
	err := db.Read(bt.OpenEnd, func(r engine.Reader) error {
		var uids, srcs []string
		for id := range r.NumNodes() {
			uid := r.UID(uint32(id))
			uids = append(uids, uid)
			if len(r.Out(uint32(id))) > 0 {
				srcs = append(srcs, uid)
			}
		}
		slices.Sort(uids)
		slices.Sort(srcs)
		u1, u2 = uids[0], uids[min(1, len(uids)-1)]
		if _, ok := r.Node("n1"); ok {
			u1 = "n1"
		}
		if _, ok := r.Node("n2"); ok {
			u2 = "n2"
		}
		// The synthetic generator's background nodes are n0, n1, ...: use
		// n0..n199 there, as the reference registry does; otherwise the
		// first 200 source uids in byte order.
		_, has0 := r.Node("n0")
		if _, has199 := r.Node("n199"); has0 && has199 {
			for i := range 200 {
				filter = append(filter, fmt.Sprintf("n%d", i))
			}
		} else {
			for _, s := range srcs[:min(200, len(srcs))] {
				filter = append(filter, s)
			}
		}
		tt1 = r.Store().BatchTT(1)
		return nil
	})
	if err != nil {
		return nil, err
	}
	w := func(a, b bt.Time) map[string]any { return map[string]any{"t_a": a, "t_b": max(b, a+1)} }
	stride := max(1, span/100)
	return []Query{
		{"hist.single", "entity_history", map[string]any{"uid": u1}},
		{"hist.asof", "entity_history", map[string]any{"uid": u1, "as_of_tt": tt1}},
		{"snap.hop2", "snapshot_subgraph", map[string]any{"seeds": []any{u1}, "hops": int64(2), "t_valid": mid}},
		{"diff.global", "diff_snapshots", map[string]any{"t1": mid, "t2": mid + span/40}},
		{"reach.window", "temporal_reachability", map[string]any{"src": u1, "window": w(t0, t0+span/10)}},
		{"paths.k", "temporal_paths", map[string]any{"src": u1, "dst": u2, "window": w(t0, t0+span/4), "k": int64(3), "max_hops": int64(3)}},
		{"series.count", "graph_metric_timeseries", map[string]any{"metric": "edge_event_count", "window": w(t0, t1), "stride": stride}},
		{"burst.zscore", "burst_detection", map[string]any{"target": map[string]any{"kind": "edge_event_rate"}, "window": w(t0, t1), "stride": stride, "method": "zscore"}},
		{"nbr.evolution", "neighborhood_evolution", map[string]any{"uid": u1, "t1": mid, "t2": mid + span/10}},
		{"coactive.narrow", "co_active", map[string]any{"a_spec": map[string]any{"src": u1}, "b_spec": map[string]any{"src": u2}, "allen_relation": map[string]any{"relation": "overlaps"}}},
		{"resolve.substr", "resolve_entities", map[string]any{"query": u1}},
		{"agg.rel_bucket", "aggregate_events", map[string]any{
			"group_by":   []any{map[string]any{"dim": "rel_type"}, map[string]any{"dim": "time_bucket", "stride": stride}},
			"aggregates": []any{map[string]any{"agg": "count"}, map[string]any{"agg": "count_distinct", "of": "dst"}},
			"window":     w(t0, t1), "limit": int64(1000)}},
		{"motif.filtered", "count_temporal_motifs", map[string]any{"motif": "M_triangle_cyclic", "delta": max(1, span/50), "window": w(t0, t1), "node_filter": filter}},
	}, nil
}

// Run times every query: warm-ups, then reps measured runs (fewer for slow
// queries), reporting p50 and p95.
func Run(ctx context.Context, db *tgms.DB, qs []Query, warmups, reps int) []Result {
	var out []Result
	for _, q := range qs {
		res := Result{ID: q.ID, Op: q.Op}
		if _, ok := ops.Lookup(q.Op); !ok {
			res.Status = "unsupported"
			out = append(out, res)
			continue
		}
		env, err := db.Call(ctx, q.Op, q.Args)
		if err != nil {
			res.Status, res.Error = "refused", err.Error()
			out = append(out, res)
			continue
		}
		res.Status, res.Digest, res.Size = "ok", env.ResultDigest, answerSize(env.Result)
		for range warmups {
			db.Call(ctx, q.Op, q.Args)
		}
		var times []float64
		deadline := time.Now().Add(10 * time.Second)
		for i := 0; i < reps && (i < 3 || time.Now().Before(deadline)); i++ {
			start := time.Now()
			db.Call(ctx, q.Op, q.Args)
			times = append(times, float64(time.Since(start).Nanoseconds())/1e6)
		}
		sort.Float64s(times)
		res.Reps = len(times)
		res.P50Ms = times[len(times)/2]
		res.P95Ms = times[int(math.Ceil(0.95*float64(len(times))))-1]
		out = append(out, res)
	}
	return out
}

// answerSize is rows_total, else the sum of *_total counts, else count.
func answerSize(p map[string]any) int64 {
	if n, ok := p["rows_total"].(int64); ok {
		return n
	}
	var sum int64
	found := false
	for k, v := range p {
		if n, ok := v.(int64); ok && len(k) > 6 && k[len(k)-6:] == "_total" {
			sum += n
			found = true
		}
	}
	if found {
		return sum
	}
	if n, ok := p["count"].(int64); ok {
		return n
	}
	return 0
}
