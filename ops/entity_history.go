package ops

import (
	"slices"

	bt "github.com/tgms-go/tgms/bitemporal"
)

func init() {
	Register(&Spec{
		Name:    "entity_history",
		Summary: "One node's versions believed as of a transaction time (every valid time).",
		Doc: `Returns every version of node uid believed at as_of_tt, across all valid
time: label, props, valid interval, the transaction time it was written and
the op that wrote it (assert_node, retract, correct, ingest). tt_e is 2^62 on
every row: a read pinned at as_of_tt cannot know of later closings. With
include_edges, also the believed edge versions incident to uid (any valid
time), at most limit of them. An unknown uid is E_NOT_FOUND; a known uid
without node versions (only seen as an edge endpoint) gives no rows.
Each row carries the provenance of the batch that wrote it when that batch
stated one ({authority, source, actor, ref, note}); with provenance: true
every row does, a batch's default marked derived. authority keeps only
versions (node and edge) written by batches of those authorities.`,
		Args: Obj("", map[string]*Schema{
			"uid":           UIDField("the node"),
			"as_of_tt":      AsOfTT(),
			"include_edges": Bool("also list incident edge versions").Def(false),
			"authority":     AuthorityArg(),
			"provenance":    ProvenanceArg(),
			"limit":         Limit(),
			"cursor":        Cursor(),
		}, "uid"),
		Result: Paged("node versions", NodeRowSchema("a node version"), map[string]*Schema{
			"edges":           Arr("incident edge versions (only with include_edges), first limit by (vt_s, vid)", EdgeRowSchema("an edge version")),
			"edges_total":     Int("number of incident edge versions (only with include_edges)"),
			"edges_truncated": Bool("edges lists only the first limit (only with include_edges)"),
		}),
		Order:  "rows by (vt_s, vid); edges by (vt_s, vid)",
		Paged:  true,
		RowKey: keyOf("vt_s", "vid"),
		Cost: func(c *Call) Cost {
			per := c.Stats.NodeVersions / max(1, c.Stats.Nodes)
			if c.Bool("include_edges") {
				per += c.Stats.EdgeVersions / max(1, c.Stats.Nodes) * 4
			}
			return Cost{Rows: max(1, per)}
		},
		Run: runEntityHistory,
	})
}

func runEntityHistory(c *Call) (map[string]any, error) {
	id, err := c.Node("/uid", c.Str("uid"))
	if err != nil {
		return nil, err
	}
	// Version ids come from the store's cache, not hashed per read, and
	// the versions are visited in order without building their lists.
	var rows []any
	var typed []nodeVersionRow // one allocation for the rows
	var nr nodeRows
	auth, all := authorities(c), c.Bool("provenance")
	h := hot(c.R)
	h.EachNodeHistoryVID(id, func(n int, v *bt.NodeVersion, vid string) {
		if rows == nil {
			rows, typed = make([]any, 0, n), make([]nodeVersionRow, 0, n)
		}
		if !auth.keeps(v.Prov) {
			return
		}
		// A typed row, encoded straight from the version; a bag with a
		// float (which the digest rounds) keeps the map row.
		if tr, ok := makeNodeVersionRow(*v, vid); ok {
			tr.prov = provMap(v.Prov, all)
			typed = append(typed, tr)
			rows = append(rows, &typed[len(typed)-1])
			return
		}
		row := nr.row(*v, vid)
		putProvenance(row, v.Prov, nil, all)
		rows = append(rows, row)
	})
	if rows == nil {
		rows = []any{}
	}
	c.typed = true
	out := map[string]any{"rows": rows}
	if c.Bool("include_edges") {
		inc := slices.Clone(c.R.Out(id))
		for _, v := range c.R.In(id) {
			if c.R.Src(v) != id { // a self-loop is listed once
				inc = append(inc, v)
			}
		}
		if auth != nil {
			inc = slices.DeleteFunc(inc, func(v uint32) bool { return !auth.keeps(c.R.EdgeProvenance(v)) })
		}
		if err := c.Work(int64(len(inc))); err != nil {
			return nil, err
		}
		sortByStartVID(c.R, inc)
		limit := c.PageLimit()
		edges := make([]any, 0, min(limit, len(inc)))
		for _, v := range inc[:min(limit, len(inc))] {
			row := newEdgeVersionRow(c.R, v)
			if p := c.R.EdgeProvenance(v); all || (p != nil && !p.Derived) {
				row.prov = provMap(p, all)
			}
			edges = append(edges, row)
		}
		out["edges"] = edges
		out["edges_total"] = int64(len(inc))
		out["edges_truncated"] = len(inc) > limit
	}
	return out, nil
}
