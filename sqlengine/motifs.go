package sqlengine

import (
	"github.com/jackc/pgx/v5"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
)

// motifSQL reads count_temporal_motifs' events: the believed versions
// starting in the window ($2, $3) that are no carved fragment (the
// co-located anti-join of burst_detection), with both endpoints among the
// node filter's known uids when there is one ($4).
var motifSQL = `SELECT e.src, e.dst, e.rel_type, e.disc, e.vt_s FROM edge_versions e
WHERE e.tt_s <= $1 AND $1 < e.tt_e AND e.vt_s >= $2 AND e.vt_s < $3%s AND NOT ` + fragment

// motifFilterSQL keeps the events between the node filter's uids ($4).
var motifFilterSQL = " AND e.src = ANY($4) AND e.dst = ANY($4)"

// motifCountSQL counts the window's events of an unfiltered call first, so
// that one over the bound is refused without reading them.
var motifCountSQL = `SELECT count(*) FROM edge_versions e
WHERE e.tt_s <= $1 AND $1 < e.tt_e AND e.vt_s >= $2 AND e.vt_s < $3 AND NOT ` + fragment

// runMotifs is count_temporal_motifs: SQL selects the events, the
// operator's own counters count them.
func runMotifs(p *pinned, c *ops.Call) (map[string]any, error) {
	if err := ops.MotifCheck(c); err != nil {
		return nil, err
	}
	w := c.Window("window")
	args := []any{p.asOf, w.Start, w.End}
	filter := ""
	if c.Has("node_filter") {
		known, err := p.knownOf(c, c.Strings("node_filter"))
		if err != nil {
			return nil, err
		}
		args = append(args, known)
		filter = motifFilterSQL
	} else {
		var n int64
		if err := p.tx.QueryRow(c.Ctx, motifCountSQL, args...).Scan(&n); err != nil {
			return nil, err
		}
		if err := ops.MotifRefuseUnfiltered(n); err != nil {
			return nil, err
		}
	}
	rows, err := p.tx.Query(c.Ctx, sprintf(motifSQL, filter), args...)
	if err != nil {
		return nil, err
	}
	var (
		evs []ops.MotifEvent
		k   bt.EdgeKey
		t   int64
	)
	if _, err := pgx.ForEachRow(rows, []any{&k.Src, &k.Dst, &k.RelType, &k.Disc, &t}, func() error {
		evs = append(evs, ops.MotifEvent{T: t, Src: k.Src, Dst: k.Dst, EID: engine.EID(k)})
		return c.Work(1)
	}); err != nil {
		return nil, err
	}
	return ops.MotifCountPayload(c, evs)
}
