package sqlengine

import (
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/tgms-go/tgms/ops"
)

// maxRounds bounds the relaxation rounds of one reachability search; a
// round that improves no label ends it long before (each round improves
// a label of a path one hop longer).
const maxRounds = 1_000_000

// runReach is temporal_reachability without delta_max_wait as rounds of
// set-at-a-time relaxation driven by the client: the frontier (uids whose
// label improved, with their labels) is joined with the edge versions on
// the endpoint it leaves from (src forward: co-located; dst backward),
// grouped by the far endpoint with min (max) of the hop time; the labels
// that improve form the next frontier. No recursive CTE.
func runReach(p *pinned, c *ops.Call) (map[string]any, error) {
	if c.Has("delta_max_wait") {
		return nil, ops.Errorf(ops.EInvalidArg, map[string]any{"path": "/delta_max_wait", "hint": "run it on the in-memory engine (drop --engine sql)"},
			"temporal_reachability with delta_max_wait has no SQL form under --engine sql (the multi-label search keeps many labels per node)")
	}
	src := c.Str("src")
	if err := p.known(c, "/src", src); err != nil {
		return nil, err
	}
	w := c.Window("window")
	dir := c.Str("direction")
	var fwd, bwd map[string]int64
	var err error
	if dir != "in" {
		// Forward: at u at time a, the hop is taken at greatest(a, vt_s),
		// which must be before vt_e and t_b; the earliest arrival wins.
		fwd, err = p.relax(c, src, w.Start, true, `SELECT e.dst, min(greatest(f.t, e.vt_s))
FROM unnest($2::text[], $3::bigint[]) AS f(uid, t) JOIN edge_versions e ON e.src = f.uid
WHERE e.tt_s <= $1 AND $1 < e.tt_e AND e.vt_s < $4 AND greatest(f.t, e.vt_s) < e.vt_e AND e.dst <> $5
GROUP BY e.dst`, w.End)
		if err != nil {
			return nil, err
		}
	}
	if dir != "out" {
		// Backward: having to leave v by L, the hop is taken at
		// least(L, vt_e - 1), which must be at or after vt_s and t_a; the
		// latest departure wins.
		bwd, err = p.relax(c, src, w.End-1, false, `SELECT e.src, max(least(f.t, e.vt_e - 1))
FROM unnest($2::text[], $3::bigint[]) AS f(uid, t) JOIN edge_versions e ON e.dst = f.uid
WHERE e.tt_s <= $1 AND $1 < e.tt_e AND e.vt_e > $4 AND least(f.t, e.vt_e - 1) >= e.vt_s AND e.src <> $5
GROUP BY e.src`, w.Start)
		if err != nil {
			return nil, err
		}
	}
	return map[string]any{"rows": ops.ReachRows(fwd, bwd)}, nil
}

// relax runs relaxation rounds from src's label start until no label
// improves (smaller is better when earlier, else larger). bound is the
// statement's $4 (t_b forward, t_a backward).
func (p *pinned) relax(c *ops.Call, src string, start int64, earlier bool, sql string, bound int64) (map[string]int64, error) {
	best := map[string]int64{}
	front, times := []string{src}, []int64{start}
	for round := 0; len(front) > 0; round++ {
		if round > maxRounds {
			return nil, fmt.Errorf("reachability from %q did not settle in %d rounds", src, maxRounds)
		}
		rows, err := p.tx.Query(c.Ctx, sql, p.asOf, front, times, bound, src)
		if err != nil {
			return nil, err
		}
		front, times = front[:0:0], times[:0:0]
		var uid string
		var t int64
		if _, err := pgx.ForEachRow(rows, []any{&uid, &t}, func() error {
			if b, ok := best[uid]; !ok || (earlier && t < b) || (!earlier && t > b) {
				best[uid] = t
				front, times = append(front, uid), append(times, t)
			}
			return c.Work(1)
		}); err != nil {
			return nil, err
		}
	}
	return best, nil
}
