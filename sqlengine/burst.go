package sqlengine

import (
	"github.com/tgms-go/tgms/ops"
)

// fragment is true for a carved fragment e: another believed version of
// its identity ends where it starts ($1 the pinned time). The anti-join is
// on the whole identity, src included: co-located.
const fragment = `EXISTS (SELECT 1 FROM edge_versions w WHERE w.src = e.src AND w.dst = e.dst AND w.rel_type = e.rel_type AND w.disc = e.disc
  AND w.vid <> e.vid AND w.vt_e = e.vt_s AND w.tt_s <= $1 AND $1 < w.tt_e)`

// runBurst is burst_detection over edge_event_rate: the per-bucket
// occurrence counts are one grouped aggregate (optionally of one
// rel_type), scored by the operator's own code.
func runBurst(p *pinned, c *ops.Call) (map[string]any, error) {
	t, _ := c.Args["target"].(map[string]any)
	if t["kind"] != "edge_event_rate" {
		return nil, ops.Errorf(ops.EInvalidArg, map[string]any{"path": "/target/kind", "allowed": []string{"edge_event_rate"}, "hint": "run it on the in-memory engine (drop --engine sql)"},
			"burst_detection with target kind %v has no SQL form under --engine sql; edge_event_rate has one", t["kind"])
	}
	rel, _ := t["rel_type"].(string)
	return ops.BurstPayload(c, func(ta, tb, stride int64, n int) ([]int64, error) {
		x := make([]int64, n)
		sql := `SELECT (e.vt_s - $2) / $3, count(*) FROM edge_versions e
WHERE e.tt_s <= $1 AND $1 < e.tt_e AND e.vt_s >= $2 AND e.vt_s < $4 AND ($5 = '' OR e.rel_type = $5) AND NOT ` + fragment + `
GROUP BY 1`
		rows, err := p.tx.Query(c.Ctx, sql, p.asOf, ta, stride, tb, rel)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		for rows.Next() {
			var i, k int64
			if err := rows.Scan(&i, &k); err != nil {
				return nil, err
			}
			x[i] += k
			if err := c.Work(1); err != nil {
				return nil, err
			}
		}
		return x, rows.Err()
	})
}
