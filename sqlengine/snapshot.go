package sqlengine

import (
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/tgms-go/tgms/ops"
)

// runSnapshot is snapshot_subgraph as client-driven rounds: each
// breadth-first step is one statement over the frontier (its snapshot
// edges in either direction, src = ANY a co-located lookup, dst = ANY a
// multi-shard one) and one over the new endpoints (their node version
// valid at t_valid, uid = ANY); no recursive CTE.
func runSnapshot(p *pinned, c *ops.Call) (map[string]any, error) {
	t := c.Int("t_valid")
	// $1 pinned time, $2 t_valid, $3 the rel_types (when given)
	live := "tt_s <= $1 AND $1 < tt_e AND vt_s <= $2 AND $2 < vt_e"
	args := []any{p.asOf, t}
	rel := ""
	if c.Has("rel_types") {
		rel = " AND rel_type = ANY($3)"
		args = append(args, c.Strings("rel_types"))
	}
	seeds, err := p.knownOf(c, c.Strings("seeds"))
	if err != nil {
		return nil, err
	}
	dist, labels, err := p.bfs(c, live, rel, args, seeds, int(c.Int("hops")))
	if err != nil {
		return nil, err
	}
	reached := make([]string, 0, len(dist))
	for u := range dist {
		reached = append(reached, u)
	}
	a := append(slices.Clone(args), reached)
	r := "$" + string(rune('0'+len(a)))
	es, err := p.edges(c, `SELECT src, dst, rel_type, disc, vt_s, vt_e, tt_s FROM edge_versions
WHERE src = ANY(`+r+`) AND dst = ANY(`+r+`) AND `+live+rel, a...)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(reached, func(a, b string) int {
		if dist[a] != dist[b] {
			return dist[a] - dist[b]
		}
		return strings.Compare(a, b)
	})
	limit := c.PageLimit()
	shown := make([]any, 0, min(limit, len(reached)))
	for _, u := range reached[:min(limit, len(reached))] {
		shown = append(shown, map[string]any{"uid": u, "label": labels[u], "hop": int64(dist[u])})
	}
	cut := len(reached) > limit
	return map[string]any{
		"rows":            ops.RowsAny(ops.EdgeVersionRows(es)),
		"nodes":           shown,
		"nodes_total":     int64(len(reached)),
		"nodes_truncated": cut,
		"truncated":       cut,
	}, nil
}

// knownOf keeps the uids registered at or before the pinned time (see
// known), in their order, each once.
func (p *pinned) knownOf(c *ops.Call, uids []string) ([]string, error) {
	if len(uids) == 0 {
		return nil, nil
	}
	rows, err := p.tx.Query(c.Ctx, `SELECT u FROM unnest($2::text[]) WITH ORDINALITY AS x(u, i)
WHERE EXISTS (SELECT 1 FROM uids WHERE uid = u AND tt <= $1)
ORDER BY i`, p.asOf, uids)
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	var u string
	_, err = pgx.ForEachRow(rows, []any{&u}, func() error {
		if !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
		return c.Work(1)
	})
	return out, err
}

// bfs is the breadth-first search of snapshot_subgraph from the known
// seeds, as client-driven rounds: live is the visibility test of the
// statement's parameters args ($1 pinned time, $2 the instant, then the
// rel filter's), rel an extra filter on edges. It returns each reached
// uid's hop and the label of its version valid at the instant.
func (p *pinned) bfs(c *ops.Call, live, rel string, args []any, seeds []string, hops int) (map[string]int, map[string]string, error) {
	labels := map[string]string{} // uid -> label of its version valid at t
	// valid keeps the uids with a node version valid at t, recording labels.
	valid := func(uids []string) ([]string, error) {
		if len(uids) == 0 {
			return nil, nil
		}
		rows, err := p.tx.Query(c.Ctx, `SELECT DISTINCT ON (uid) uid, label FROM node_versions
WHERE uid = ANY($3) AND `+live+` ORDER BY uid, vt_s, vid`, args[0], args[1], uids)
		if err != nil {
			return nil, err
		}
		var out []string
		var uid, label string
		_, err = pgx.ForEachRow(rows, []any{&uid, &label}, func() error {
			labels[uid] = label
			out = append(out, uid)
			return c.Work(1)
		})
		return out, err
	}
	frontier, err := valid(seeds)
	if err != nil {
		return nil, nil, err
	}
	dist := map[string]int{}
	for _, u := range frontier {
		dist[u] = 0
	}
	for h := 1; h <= hops && len(frontier) > 0; h++ {
		a := append(slices.Clone(args), frontier)
		f := "$" + string(rune('0'+len(a)))
		rows, err := p.tx.Query(c.Ctx, `SELECT dst FROM edge_versions WHERE src = ANY(`+f+`) AND `+live+rel+`
UNION SELECT src FROM edge_versions WHERE dst = ANY(`+f+`) AND `+live+rel, a...)
		if err != nil {
			return nil, nil, err
		}
		var far []string
		var w string
		if _, err := pgx.ForEachRow(rows, []any{&w}, func() error {
			if _, seen := dist[w]; !seen {
				far = append(far, w)
			}
			return c.Work(1)
		}); err != nil {
			return nil, nil, err
		}
		if frontier, err = valid(far); err != nil {
			return nil, nil, err
		}
		for _, u := range frontier {
			dist[u] = h
		}
	}
	return dist, labels, nil
}
