package sqlengine

import (
	"github.com/jackc/pgx/v5"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/ops"
)

// seriesMetrics are the graph_metric_timeseries metrics with a SQL form
// (with stride; a cycle has none yet).
var seriesMetrics = []string{"active_edge_count", "edge_event_count", "node_count"}

// runSeries is graph_metric_timeseries with stride: every metric is one
// grouped aggregate whose groups are bucket indexes, so the rows that
// come back number about the buckets, not the versions.
func runSeries(p *pinned, c *ops.Call) (map[string]any, error) {
	cyclic, err := ops.SeriesCyclic(c)
	if err != nil {
		return nil, err
	}
	metric := c.Str("metric")
	if cyclic || !contains(seriesMetrics, metric) {
		form := "metric " + metric
		if cyclic {
			form = "a cycle"
		}
		return nil, ops.Errorf(ops.EInvalidArg, map[string]any{"path": "/metric", "allowed": seriesMetrics, "hint": "run it on the in-memory engine (drop --engine sql)"},
			"graph_metric_timeseries with %s has no SQL form under --engine sql; with stride, these metrics have one: %v", form, seriesMetrics)
	}
	w := c.Window("window")
	b, err := ops.NewSeriesBuckets(c, w, c.Int("stride"))
	if err != nil {
		return nil, err
	}
	n := b.N()
	values := make([]int64, n)
	switch metric {
	case "edge_event_count":
		// Occurrences starting in the window: a believed version that
		// continues another believed version of its identity (a carved
		// fragment) is not one. The anti-join is on the whole identity,
		// distribution column src included: co-located.
		err = p.buckets(c, values, `SELECT (e.vt_s - $2) / $3, count(*) FROM edge_versions e
WHERE e.tt_s <= $1 AND $1 < e.tt_e AND e.vt_s >= $2 AND e.vt_s < $4
  AND NOT EXISTS (SELECT 1 FROM edge_versions w WHERE w.src = e.src AND w.dst = e.dst AND w.rel_type = e.rel_type AND w.disc = e.disc
                  AND w.vid <> e.vid AND w.vt_e = e.vt_s AND w.tt_s <= $1 AND $1 < w.tt_e)
GROUP BY 1`, w)
	case "node_count":
		err = p.live(c, values, "node_versions", w, b)
	case "active_edge_count":
		err = p.live(c, values, "edge_versions", w, b)
	}
	if err != nil {
		return nil, err
	}
	return b.Payload(values), nil
}

// live counts, per bucket start, the believed versions of table valid
// there: each version covers the buckets [lo, hi) whose starts lie in its
// valid interval; SQL groups the versions by (lo, hi) and the client
// sweeps the difference array.
func (p *pinned) live(c *ops.Call, values []int64, table string, w bt.Interval, b ops.SeriesBuckets) error {
	// the first bucket index whose start is >= t, clipped to [0, n]
	ceil := func(t string) string {
		return "CASE WHEN " + t + " <= $2 THEN 0 ELSE LEAST($5, (" + t + " - $2 - 1) / $3 + 1) END"
	}
	rows, err := p.tx.Query(c.Ctx, "SELECT "+ceil("vt_s")+", "+ceil("vt_e")+", count(*) FROM "+table+`
WHERE tt_s <= $1 AND $1 < tt_e AND vt_s < $4 AND vt_e > $2 GROUP BY 1, 2`,
		p.asOf, w.Start, c.Int("stride"), w.End, int64(b.N()))
	if err != nil {
		return err
	}
	diff := make([]int64, len(values)+1)
	var lo, hi, k int64
	if _, err := pgx.ForEachRow(rows, []any{&lo, &hi, &k}, func() error {
		if lo < hi {
			diff[lo] += k
			diff[hi] -= k
		}
		return c.Work(1)
	}); err != nil {
		return err
	}
	var run int64
	for i := range values {
		run += diff[i]
		values[i] = run
	}
	return nil
}

// buckets adds the (bucket index, count) rows of a statement with
// parameters ($1 pinned time, $2 t_a, $3 stride, $4 t_b) to values.
func (p *pinned) buckets(c *ops.Call, values []int64, sql string, w bt.Interval) error {
	rows, err := p.tx.Query(c.Ctx, sql, p.asOf, w.Start, c.Int("stride"), w.End)
	if err != nil {
		return err
	}
	var i, k int64
	_, err = pgx.ForEachRow(rows, []any{&i, &k}, func() error {
		values[i] += k
		return c.Work(1)
	})
	return err
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
