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

// Registry derives the benchmark queries from the store so that every
// answer is non-empty and of a realistic size at any scale, keeping the
// reference registry's query shapes. From the extent [t0, t1) (span,
// midpoint mid) and one pass over the believed edge versions:
//   - hist: the node with the most believed versions (then the most
//     events, then by uid), as of just before its latest version was
//     written (when it has one version: as of when it was written);
//   - snap, nbr: the node with the most edge versions valid at mid among
//     those with a node version valid at mid;
//   - reach: the node with the most out-edges starting in the window
//     [t0, t0+span/10);
//   - paths: from the median early sender towards the busiest (ten
//     sources), the first pair (source, a node it reaches in
//     [t0, t0+span/4) after the earliest tenth) with k = 3 to 1000 paths
//     of up to 3 hops;
//   - coactive: a and b the busiest sources of interval edges, b the first
//     of them whose versions overlap some of a's;
//   - resolve: "n1" when it exists, else the hist node;
//   - motif: δ = span/50 and a filter of 200 uids: the reference's
//     (n0..n199 on synthetic stores, else the first 200 source uids in
//     byte order) when it holds an instance, else the 200 least active
//     nodes (where the synthetic generator plants its patterns), else the
//     first block of 200 nodes by activity rank, from the median rank
//     towards the busiest, that holds one.
//
// Candidates are tried in a fixed order (busiest first) and at most 50
// calls decide one argument, so the registry is deterministic.
func Registry(db *tgms.DB) ([]Query, error) {
	st := db.Stats()
	if st.EdgeVersions == 0 {
		return nil, fmt.Errorf("the store has no edges to benchmark")
	}
	t0, t1 := st.VtMin, st.VtMax
	span := t1 - t0
	mid := t0 + span/2
	w := func(a, b bt.Time) map[string]any { return map[string]any{"t_a": a, "t_b": max(b, a+1)} }
	reachWin, pathsWin := w(t0, t0+span/10), w(t0, t0+span/4)
	var act *activity
	var histUID, snapUID, reachUID, resolveQ string
	var pathsSrcs []string
	var histAsOf bt.Time
	var coA []string
	var filters [][]any
	err := db.Read(bt.OpenEnd, func(r engine.Reader) error {
		act = readActivity(r, mid, t0+span/10)
		pick := func(ids []int) string {
			if len(ids) == 0 {
				return act.uids[act.ranked(act.deg, nil)[0]]
			}
			return act.uids[ids[0]]
		}
		histID := act.ranked(act.history, nil)
		histUID = pick(histID)
		if len(histID) > 0 {
			// Before its latest version when it has several, else when it appeared.
			h := histID[0]
			histAsOf = act.firstTTs[h]
			if act.history[h]>>32 > 1 {
				histAsOf = act.lastTTs[h] - 1
			}
		}
		snapUID = pick(act.ranked(act.liveMid, func(id int) bool { return act.liveNode[id] }))
		early := act.ranked(act.outEarly, nil)
		reachUID = pick(early)
		// Paths sources: from the median of the early senders towards the
		// busiest (the busiest have too many paths to enumerate).
		for i := len(early) / 2; i >= 0 && len(pathsSrcs) < 10; i -= max(1, len(early)/20) {
			pathsSrcs = append(pathsSrcs, act.uids[early[i]])
		}
		if len(pathsSrcs) == 0 {
			pathsSrcs = []string{reachUID}
		}
		spans := act.ranked(act.outSpan, nil)
		for _, id := range spans[:min(51, len(spans))] {
			coA = append(coA, act.uids[id])
		}
		resolveQ = histUID
		if _, ok := r.Node("n1"); ok {
			resolveQ = "n1"
		}
		filters = motifFilters(r, act)
		return nil
	})
	if err != nil {
		return nil, err
	}
	pathsSrc, pathsDst := choosePaths(db, pathsSrcs, pathsWin)
	coB, coAUID := "", reachUID
	if len(coA) > 0 {
		coAUID = coA[0]
		coB = firstNonEmpty(db, "co_active", coA[1:], 1, 0, 50, func(b string) map[string]any {
			return coactiveArgs(coAUID, b)
		})
	}
	if coB == "" {
		coB = coAUID
	}
	motif := func(filter []any) map[string]any {
		return map[string]any{"motif": "M_triangle_cyclic", "delta": max(1, span/50), "window": w(t0, t1), "node_filter": filter}
	}
	filter := filters[0]
	for _, f := range filters[:min(50, len(filters))] {
		if env, err := db.Call(context.Background(), "count_temporal_motifs", motif(f)); err == nil && answerSize(env.Result) > 0 {
			filter = f
			break
		}
	}
	stride := max(1, span/100)
	return []Query{
		{"hist.single", "entity_history", map[string]any{"uid": histUID}},
		{"hist.asof", "entity_history", map[string]any{"uid": histUID, "as_of_tt": histAsOf}},
		{"snap.hop2", "snapshot_subgraph", map[string]any{"seeds": []any{snapUID}, "hops": int64(2), "t_valid": mid}},
		{"diff.global", "diff_snapshots", map[string]any{"t1": mid, "t2": mid + span/40}},
		{"reach.window", "temporal_reachability", map[string]any{"src": reachUID, "window": reachWin}},
		{"paths.k", "temporal_paths", pathsArgs(pathsSrc, pathsDst, pathsWin)},
		{"series.count", "graph_metric_timeseries", map[string]any{"metric": "edge_event_count", "window": w(t0, t1), "stride": stride}},
		{"burst.zscore", "burst_detection", map[string]any{"target": map[string]any{"kind": "edge_event_rate"}, "window": w(t0, t1), "stride": stride, "method": "zscore"}},
		{"nbr.evolution", "neighborhood_evolution", map[string]any{"uid": snapUID, "t1": mid, "t2": mid + span/10}},
		{"coactive.narrow", "co_active", coactiveArgs(coAUID, coB)},
		{"resolve.substr", "resolve_entities", map[string]any{"query": resolveQ}},
		{"agg.rel_bucket", "aggregate_events", map[string]any{
			"group_by":   []any{map[string]any{"dim": "rel_type"}, map[string]any{"dim": "time_bucket", "stride": stride}},
			"aggregates": []any{map[string]any{"agg": "count"}, map[string]any{"agg": "count_distinct", "of": "dst"}},
			"window":     w(t0, t1), "limit": int64(1000)}},
		{"motif.filtered", "count_temporal_motifs", motif(filter)},
	}, nil
}

func pathsArgs(src, dst string, win map[string]any) map[string]any {
	return map[string]any{"src": src, "dst": dst, "window": win, "k": int64(3), "max_hops": int64(3)}
}

func coactiveArgs(a, b string) map[string]any {
	return map[string]any{"a_spec": map[string]any{"src": a}, "b_spec": map[string]any{"src": b},
		"allen_relation": map[string]any{"relation": "overlaps"}}
}

// choosePaths picks the paths source and target: for each source in
// turn, the first node it reaches in win, after the earliest tenth of
// them, with 3 to 1000 paths; else the first pair found with any path;
// else the first source and itself.
func choosePaths(db *tgms.DB, srcs []string, win map[string]any) (string, string) {
	fallbackSrc, fallbackDst := srcs[0], srcs[0]
	found := false
	for _, src := range srcs {
		env, err := db.Call(context.Background(), "temporal_reachability", map[string]any{"src": src, "window": win, "limit": int64(10_000)})
		if err != nil {
			continue
		}
		var cands []string
		rows, _ := env.Result["rows"].([]any)
		for _, r := range rows[len(rows)/10:] {
			cands = append(cands, r.(map[string]any)["uid"].(string))
		}
		for _, dst := range cands[:min(20, len(cands))] {
			env, err := db.Call(context.Background(), "temporal_paths", pathsArgs(src, dst, win))
			if err != nil {
				continue
			}
			if n := answerSize(env.Result); n >= 3 && n <= 1000 {
				return src, dst
			} else if n > 0 && !found {
				fallbackSrc, fallbackDst, found = src, dst, true
			}
		}
	}
	return fallbackSrc, fallbackDst
}

// motifFilters are the candidate node filters of motif.filtered, in the
// order they are tried.
func motifFilters(r engine.Reader, act *activity) [][]any {
	block := func(uids []string) []any {
		uids = slices.Clone(uids)
		slices.Sort(uids)
		out := make([]any, len(uids))
		for i, u := range uids {
			out[i] = u
		}
		return out
	}
	var ref []string
	_, has0 := r.Node("n0")
	if _, has199 := r.Node("n199"); has0 && has199 {
		for i := range 200 {
			ref = append(ref, fmt.Sprintf("n%d", i))
		}
	} else {
		var srcs []string
		for id := range r.NumNodes() {
			if act.outEarly[id]+act.deg[id] > 0 && len(r.Out(uint32(id))) > 0 {
				srcs = append(srcs, act.uids[id])
			}
		}
		slices.Sort(srcs)
		ref = srcs[:min(200, len(srcs))]
	}
	out := [][]any{block(ref)}
	ranked := act.ranked(act.deg, nil)
	// The least active nodes: on synthetic stores the planted patterns.
	var quiet []string
	for _, id := range ranked[max(0, len(ranked)-200):] {
		quiet = append(quiet, act.uids[id])
	}
	out = append(out, block(quiet))
	for lo := max(0, len(ranked)/2-200); ; lo -= 200 {
		lo = max(0, lo)
		var uids []string
		for _, id := range ranked[lo:min(lo+200, len(ranked))] {
			uids = append(uids, act.uids[id])
		}
		out = append(out, block(uids))
		if lo == 0 {
			return out
		}
	}
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
		// Timed calls keep version rows typed (they encode themselves), as
		// a server replying to the call does; envelope and digest included.
		typed := ops.ExecOptions{Typed: true}
		for range warmups {
			db.CallWith(ctx, q.Op, q.Args, typed)
		}
		var times []float64
		deadline := time.Now().Add(10 * time.Second)
		for i := 0; i < reps && (i < 3 || time.Now().Before(deadline)); i++ {
			start := time.Now()
			db.CallWith(ctx, q.Op, q.Args, typed)
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
