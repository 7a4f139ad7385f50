package sqlengine

import (
	"fmt"

	"github.com/jackc/pgx/v5"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
)

// The two statements of diff_snapshots: the believed versions valid at t1
// ($2) and at t2 ($3), pinned at $1, full-joined on the identity and kept
// when the identity is in one snapshot only or when two different versions
// have different stored content. Content is compared as jsonb's text: equal
// text is equal canonical props (both are functions of the stored value),
// and the client compares the canonical props of what differs, so a
// difference of spelling alone is no change. The edge join is on the whole
// identity, distribution column src included: co-located. $4, when given,
// is the scope's allowed uids.
var (
	diffNodeSQL = `WITH a AS (SELECT vid, uid, label, props FROM node_versions WHERE tt_s <= $1 AND $1 < tt_e AND vt_s <= $2 AND $2 < vt_e%[1]s),
b AS (SELECT vid, uid, label, props FROM node_versions WHERE tt_s <= $1 AND $1 < tt_e AND vt_s <= $3 AND $3 < vt_e%[1]s)
SELECT coalesce(a.uid, b.uid), a.vid IS NOT NULL, b.vid IS NOT NULL, coalesce(a.label, ''), coalesce(a.props::text, ''), coalesce(b.label, ''), coalesce(b.props::text, '')
FROM a FULL JOIN b ON a.uid = b.uid
WHERE a.vid IS NULL OR b.vid IS NULL OR (a.vid <> b.vid AND (a.label <> b.label OR a.props::text <> b.props::text))`
	diffEdgeSQL = `WITH a AS (SELECT vid, src, dst, rel_type, disc, props FROM edge_versions WHERE tt_s <= $1 AND $1 < tt_e AND vt_s <= $2 AND $2 < vt_e%[1]s),
b AS (SELECT vid, src, dst, rel_type, disc, props FROM edge_versions WHERE tt_s <= $1 AND $1 < tt_e AND vt_s <= $3 AND $3 < vt_e%[1]s)
SELECT coalesce(a.src, b.src), coalesce(a.dst, b.dst), coalesce(a.rel_type, b.rel_type), coalesce(a.disc, b.disc),
  a.vid IS NOT NULL, b.vid IS NOT NULL, coalesce(a.props::text, ''), coalesce(b.props::text, '')
FROM a FULL JOIN b ON a.src = b.src AND a.dst = b.dst AND a.rel_type = b.rel_type AND a.disc = b.disc
WHERE a.vid IS NULL OR b.vid IS NULL OR (a.vid <> b.vid AND a.props::text <> b.props::text)`
)

// runDiffSnapshots is diff_snapshots: one full join of the two snapshots'
// node versions and one of their edge versions, returning only what
// differs; a scope is the snapshot breadth-first search at each instant
// (client-driven rounds, as snapshot_subgraph).
func runDiffSnapshots(p *pinned, c *ops.Call) (map[string]any, error) {
	t1, t2 := c.Int("t1"), c.Int("t2")
	args := []any{p.asOf, t1, t2}
	nodeScope, edgeScope := "", ""
	if c.Has("scope") {
		scope, _ := c.Args["scope"].(map[string]any)
		var uids []string
		for _, s := range scope["seeds"].([]any) {
			u, _ := s.(string)
			uids = append(uids, u)
		}
		seeds, err := p.knownOf(c, uids)
		if err != nil {
			return nil, err
		}
		hops, _ := scope["hops"].(int64)
		allowed := map[string]bool{}
		for _, t := range []int64{t1, t2} {
			dist, _, err := p.bfs(c, "tt_s <= $1 AND $1 < tt_e AND vt_s <= $2 AND $2 < vt_e", "", []any{p.asOf, t}, seeds, int(hops))
			if err != nil {
				return nil, err
			}
			for u := range dist {
				allowed[u] = true
			}
		}
		list := make([]string, 0, len(allowed))
		for u := range allowed {
			list = append(list, u)
		}
		args = append(args, list)
		nodeScope, edgeScope = " AND uid = ANY($4)", " AND src = ANY($4) AND dst = ANY($4)"
	}
	d := ops.DiffAcc{}
	rows, err := p.tx.Query(c.Ctx, fmt.Sprintf(diffNodeSQL, nodeScope), args...)
	if err != nil {
		return nil, err
	}
	var (
		uid, la, lb, pa, pb string
		ha, hb              bool
	)
	if _, err := pgx.ForEachRow(rows, []any{&uid, &ha, &hb, &la, &pa, &lb, &pb}, func() error {
		switch {
		case !ha:
			d.NodesAdded = append(d.NodesAdded, uid)
		case !hb:
			d.NodesRemoved = append(d.NodesRemoved, uid)
		default:
			a, b, err := parseProps2(pa, pb)
			if err != nil {
				return fmt.Errorf("node %q: %w", uid, err)
			}
			if a != b || la != lb {
				d.NodesChanged = append(d.NodesChanged, ops.DiffNodeChange{UID: uid, FromLabel: la, From: a, ToLabel: lb, To: b})
			}
		}
		return c.Work(1)
	}); err != nil {
		return nil, err
	}
	rows, err = p.tx.Query(c.Ctx, fmt.Sprintf(diffEdgeSQL, edgeScope), args...)
	if err != nil {
		return nil, err
	}
	var k bt.EdgeKey
	if _, err := pgx.ForEachRow(rows, []any{&k.Src, &k.Dst, &k.RelType, &k.Disc, &ha, &hb, &pa, &pb}, func() error {
		switch {
		case !ha:
			d.EdgesAdded = append(d.EdgesAdded, k)
		case !hb:
			d.EdgesRemoved = append(d.EdgesRemoved, k)
		default:
			a, b, err := parseProps2(pa, pb)
			if err != nil {
				return fmt.Errorf("edge %s: %w", engine.EID(k), err)
			}
			if a != b {
				d.EdgesChanged = append(d.EdgesChanged, ops.DiffEdgeChange{Key: k, From: a, To: b})
			}
		}
		return c.Work(1)
	}); err != nil {
		return nil, err
	}
	return d.Payload(c.PageLimit()), nil
}

// parseProps2 parses two stored property bags to their canonical form.
func parseProps2(a, b string) (bt.Props, bt.Props, error) {
	pa, err := bt.ParseProps([]byte(a))
	if err != nil {
		return "", "", fmt.Errorf("props: %w", err)
	}
	pb, err := bt.ParseProps([]byte(b))
	if err != nil {
		return "", "", fmt.Errorf("props: %w", err)
	}
	return pa, pb, nil
}
