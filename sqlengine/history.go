package sqlengine

import (
	"fmt"

	"github.com/jackc/pgx/v5"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/ops"
)

// believed is the transaction-time half of the visibility rule, with the
// pinned time as parameter $2 of the statement ($1 is the uid).
const believed = "tt_s <= $2 AND $2 < tt_e"

// runHistory is entity_history: the node's believed versions (one lookup
// on the distribution column uid) and, with include_edges, its believed
// out-edges (distribution column src) and in-edges (dst, a multi-shard
// index scan) without self-loops counted twice.
func runHistory(p *pinned, c *ops.Call) (map[string]any, error) {
	uid := c.Str("uid")
	if err := p.withoutProvenance(c); err != nil {
		return nil, err
	}
	if err := p.known(c, "/uid", uid); err != nil {
		return nil, err
	}
	rows, err := p.tx.Query(c.Ctx, "SELECT uid, label, props::text, vt_s, vt_e, tt_s, opened_by FROM node_versions WHERE uid = $1 AND "+believed, uid, p.asOf)
	if err != nil {
		return nil, err
	}
	var (
		vs    []bt.NodeVersion
		v     bt.NodeVersion
		props []byte
		by    int16
	)
	if _, err := pgx.ForEachRow(rows, []any{&v.UID, &v.Label, &props, &v.Valid.Start, &v.Valid.End, &v.TTs, &by}, func() error {
		pr, err := bt.ParseProps(props)
		if err != nil {
			return fmt.Errorf("node %q: props: %w", v.UID, err)
		}
		v.Props, v.CreatedBy = pr, bt.OpKind(by)
		vs = append(vs, v)
		return c.Work(1)
	}); err != nil {
		return nil, err
	}
	out := map[string]any{"rows": ops.NodeVersionRows(vs)}
	if !c.Bool("include_edges") {
		return out, nil
	}
	es, err := p.edges(c, incident, uid, p.asOf)
	if err != nil {
		return nil, err
	}
	rs := ops.EdgeVersionRows(es)
	limit := c.PageLimit()
	out["edges"] = ops.RowsAny(rs[:min(limit, len(rs))])
	out["edges_total"] = int64(len(rs))
	out["edges_truncated"] = len(rs) > limit
	return out, nil
}

// edges reads edge versions (src, dst, rel_type, disc, vt_s, vt_e, tt_s)
// from a statement.
func (p *pinned) edges(c *ops.Call, sql string, args ...any) ([]bt.EdgeVersion, error) {
	rows, err := p.tx.Query(c.Ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	var (
		es []bt.EdgeVersion
		e  bt.EdgeVersion
	)
	_, err = pgx.ForEachRow(rows, []any{&e.Key.Src, &e.Key.Dst, &e.Key.RelType, &e.Key.Disc, &e.Valid.Start, &e.Valid.End, &e.TTs}, func() error {
		es = append(es, e)
		return c.Work(1)
	})
	return es, err
}

// withoutProvenance refuses the forms of entity_history whose rows carry
// batch provenance: the version tables do not hold it (it is in the
// batches' payloads), so under --engine sql the operator runs only with
// no authority filter, no provenance column, and on a store whose batches
// state none.
func (p *pinned) withoutProvenance(c *ops.Call) error {
	hint := map[string]any{"hint": "run it on the in-memory engine (drop --engine sql)"}
	if c.Has("authority") || c.Bool("provenance") {
		return ops.Errorf(ops.EInvalidArg, hint, "entity_history with authority or provenance has no SQL form under --engine sql")
	}
	if p.stated {
		return ops.Errorf(ops.EInvalidArg, hint, "entity_history has no SQL form on a store whose batches state provenance (its rows show it, and the version tables do not hold it)")
	}
	return nil
}
