package sqlengine

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
)

// aggSQL reads aggregate_events' events: the believed versions starting
// in the window ($2, $3) that are no carved fragment, of the rel_types
// ($4, or every one when null), with an endpoint among the filter's uids
// ($5) when the call has one (aggEndpointSQL).
var aggSQL = `SELECT e.vid, e.src, e.dst, e.rel_type, e.disc, e.vt_s, e.vt_e, e.tt_s, e.props::text FROM edge_versions e
WHERE e.tt_s <= $1 AND $1 < e.tt_e AND e.vt_s >= $2 AND e.vt_s < $3 AND ($4::text[] IS NULL OR e.rel_type = ANY($4))%s AND NOT ` + fragment

// aggEndpointSQL is the endpoint filter of each role.
var aggEndpointSQL = map[string]string{
	"src":    " AND e.src = ANY($5)",
	"dst":    " AND e.dst = ANY($5)",
	"either": " AND (e.src = ANY($5) OR e.dst = ANY($5))",
}

// aggChainSQL reads, for durations, every other believed version of the
// events' identities ($2..$5 the identity columns), each with whether it
// is a carved fragment: an occurrence lasts to the end of its last
// contiguous fragment, which may lie past the window.
var aggChainSQL = `SELECT e.vid, e.src, e.dst, e.rel_type, e.disc, e.vt_s, e.vt_e, e.tt_s, e.props::text, ` + fragment + `
FROM edge_versions e JOIN unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS k(src, dst, rel_type, disc)
  ON e.src = k.src AND e.dst = k.dst AND e.rel_type = k.rel_type AND e.disc = k.disc
WHERE e.tt_s <= $1 AND $1 < e.tt_e AND NOT e.vid = ANY($6)`

// aggLabelSQL reads the believed node versions of the events' endpoints
// ($2), for the label dimensions.
var aggLabelSQL = `SELECT uid, label, vt_s, vt_e, tt_s FROM node_versions
WHERE uid = ANY($2) AND tt_s <= $1 AND $1 < tt_e ORDER BY uid, vt_s, tt_s, vid`

// runAggregate is aggregate_events: SQL selects the events the call reads
// (window, rel_types and endpoint filter in the WHERE clause), and the
// operator's own kernel aggregates them on a reader holding only those.
func runAggregate(p *pinned, c *ops.Call) (map[string]any, error) {
	if c.Has("authority") {
		return nil, ops.Errorf(ops.EInvalidArg, map[string]any{"path": "/authority", "hint": "run it on the in-memory engine (drop --engine sql)"},
			"aggregate_events with authority has no SQL form under --engine sql (the writing batch's provenance is not a column)")
	}
	w := c.Window("window")
	var rels []string
	if c.Has("rel_types") {
		rels = c.Strings("rel_types")
	}
	args := []any{p.asOf, w.Start, w.End, rels}
	filter := ""
	if ef, ok := c.Args["endpoint_filter"].(map[string]any); ok {
		var uids []string
		for _, u := range ef["uids"].([]any) {
			uids = append(uids, u.(string))
		}
		if uids == nil {
			uids = []string{}
		}
		args = append(args, uids)
		filter = aggEndpointSQL[ef["role"].(string)]
	}
	g := &aggReader{subgraph: subgraph{asOf: p.asOf, ids: map[string]uint32{}, out: map[uint32][]uint32{}, in: map[uint32][]uint32{}}, rels: map[string]uint32{}}
	var rows []aggRow
	read := func(sql string, chain bool, args ...any) error {
		rs, err := p.tx.Query(c.Ctx, sql, args...)
		if err != nil {
			return err
		}
		var r aggRow
		var props []byte // nil when the statement reads none
		dest := []any{&r.vid, &r.e.Key.Src, &r.e.Key.Dst, &r.e.Key.RelType, &r.e.Key.Disc, &r.e.Valid.Start, &r.e.Valid.End, &r.e.TTs, &props}
		if chain {
			dest = append(dest, &r.cont)
		}
		_, err = pgx.ForEachRow(rs, dest, func() error {
			r.e.Props, r.chain = "", chain
			if props != nil {
				pr, err := bt.ParseProps(props)
				if err != nil {
					return fmt.Errorf("edge %v: props: %w", r.e.Key, err)
				}
				r.e.Props = pr
			}
			rows = append(rows, r)
			return aggAlive(c, len(rows))
		})
		return err
	}
	stmt, chainStmt := sprintf(aggSQL, filter), aggChainSQL
	if !aggNeedsProps(c) {
		stmt, chainStmt = strings.Replace(stmt, "e.props::text", "NULL", 1), strings.Replace(chainStmt, "e.props::text", "NULL", 1)
	}
	if err := read(stmt, false, args...); err != nil {
		return nil, err
	}
	if aggNeedsDuration(c) && len(rows) > 0 {
		var ks [4][]string
		vids := make([]int64, len(rows))
		seen := map[bt.EdgeKey]bool{}
		for i, r := range rows {
			vids[i] = r.vid
			if k := r.e.Key; !seen[k] {
				seen[k] = true
				ks[0], ks[1], ks[2], ks[3] = append(ks[0], k.Src), append(ks[1], k.Dst), append(ks[2], k.RelType), append(ks[3], k.Disc)
			}
		}
		if err := read(chainStmt, true, p.asOf, ks[0], ks[1], ks[2], ks[3], vids); err != nil {
			return nil, err
		}
	}
	g.fill(rows)
	if aggNeedsLabels(c) && len(g.uids) > 0 {
		if err := g.readLabels(p, c); err != nil {
			return nil, err
		}
	}
	spec, _ := ops.Lookup("aggregate_events")
	c.R = g
	return spec.Run(c)
}

// aggAlive checks the call's deadline every 4096 rows read. The rows are
// not charged as work: the kernel charges what it scans, never more than
// on the in-memory engine (which also scans versions the SQL left out), so
// the work budget stops no call here that it lets finish there.
func aggAlive(c *ops.Call, n int) error {
	if n&4095 != 0 {
		return nil
	}
	if err := c.Ctx.Err(); err != nil {
		return ops.Errorf(ops.ECost, map[string]any{"hint": "narrow the window or raise the deadline"},
			"aggregate_events stopped after reading %d rows: %v", n, err)
	}
	return nil
}

// aggNeedsDuration reports whether some aggregate reads durations.
func aggNeedsDuration(c *ops.Call) bool {
	as, _ := c.Args["aggregates"].([]any)
	for _, a := range as {
		if m, _ := a.(map[string]any); m["of"] == "duration" {
			return true
		}
	}
	return false
}

// aggNeedsProps reports whether the call reads a property (a filter or
// an aggregate of one): the kernel reads no other event's props.
func aggNeedsProps(c *ops.Call) bool {
	if c.Has("prop_filter") {
		return true
	}
	as, _ := c.Args["aggregates"].([]any)
	for _, a := range as {
		if m, _ := a.(map[string]any); m["of"] == "prop" {
			return true
		}
	}
	return false
}

// aggNeedsLabels reports whether some dimension groups by label.
func aggNeedsLabels(c *ops.Call) bool {
	ds, _ := c.Args["group_by"].([]any)
	for _, d := range ds {
		if m, _ := d.(map[string]any); m["dim"] == "label" {
			return true
		}
	}
	return false
}

// aggRow is one version read: an event, or (chain) another believed
// version of an event's identity.
type aggRow struct {
	vid         int64
	e           bt.EdgeVersion
	cont, chain bool
}

// aggReader is the ops.Reader aggregate_events' kernel runs on: the
// call's events, numbered in the store's insertion order (vid), with the
// other believed versions of their identities when durations are read,
// and the endpoints' believed node versions when labels are. Every
// version it holds is believed at the pinned time.
type aggReader struct {
	subgraph
	event    []bool // an event of the call (not a chain version)
	byKey    map[bt.EdgeKey][]uint32
	starting []uint32 // the events in (vt_s, vid) order
	relID    []uint32
	rels     map[string]uint32
	relNames []string
	hist     map[uint32][]bt.NodeVersion
}

func (g *aggReader) fill(rows []aggRow) {
	slices.SortFunc(rows, func(a, b aggRow) int { return cmp.Compare(a.vid, b.vid) })
	g.byKey = map[bt.EdgeKey][]uint32{}
	for i, r := range rows {
		v := uint32(i)
		s, d := g.node(r.e.Key.Src), g.node(r.e.Key.Dst)
		g.es, g.src, g.dst, g.cont = append(g.es, r.e), append(g.src, s), append(g.dst, d), append(g.cont, r.cont)
		g.event = append(g.event, !r.chain)
		id, ok := g.rels[r.e.Key.RelType]
		if !ok {
			id = uint32(len(g.relNames))
			g.rels[r.e.Key.RelType] = id
			g.relNames = append(g.relNames, r.e.Key.RelType)
		}
		g.relID = append(g.relID, id)
		g.byKey[r.e.Key] = append(g.byKey[r.e.Key], v)
		if !r.chain {
			g.out[s] = append(g.out[s], v)
			g.in[d] = append(g.in[d], v)
			g.starting = append(g.starting, v)
		}
	}
	slices.SortStableFunc(g.starting, func(a, b uint32) int { return cmp.Compare(g.es[a].Valid.Start, g.es[b].Valid.Start) })
}

func (g *aggReader) readLabels(p *pinned, c *ops.Call) error {
	g.hist = map[uint32][]bt.NodeVersion{}
	rs, err := p.tx.Query(c.Ctx, aggLabelSQL, p.asOf, g.uids)
	if err != nil {
		return err
	}
	var n bt.NodeVersion
	_, err = pgx.ForEachRow(rs, []any{&n.UID, &n.Label, &n.Valid.Start, &n.Valid.End, &n.TTs}, func() error {
		id := g.ids[n.UID]
		g.hist[id] = append(g.hist[id], n)
		return aggAlive(c, len(g.hist[id]))
	})
	return err
}

func (g *aggReader) NumEdgeVersions() int                   { return len(g.es) }
func (g *aggReader) Believed(v uint32) bool                 { return int(v) < len(g.es) }
func (g *aggReader) Props(v uint32) bt.Props                { return g.es[v].Props }
func (g *aggReader) RelID(v uint32) uint32                  { return g.relID[v] }
func (g *aggReader) RelName(id uint32) string               { return g.relNames[id] }
func (g *aggReader) NumRels() int                           { return len(g.relNames) }
func (g *aggReader) IdentityVersions(v uint32) []uint32     { return g.byKey[g.es[v].Key] }
func (g *aggReader) NodeHistory(id uint32) []bt.NodeVersion { return g.hist[id] }
func (g *aggReader) RelIDOf(name string) (uint32, bool) {
	id, ok := g.rels[name]
	return id, ok
}

// EdgesStartingIn lists the events starting in iv, by start time.
func (g *aggReader) EdgesStartingIn(iv bt.Interval) []uint32 {
	var out []uint32
	for _, v := range g.starting {
		if s := g.es[v].Valid.Start; iv.Start <= s && s < iv.End {
			out = append(out, v)
		}
	}
	return out
}

// TallyEventStarts counts the events by the key of sp as the in-memory
// engine's tally does: bucket * BucketWeight + rel id * RelWeight, with
// the key's source (destination) marks at key * NumNodes() + node.
func (g *aggReader) TallyEventStarts(sp engine.TallySpec, t *engine.Tally) {
	if sp.BucketWeight == 0 {
		sp.Stride = max(1, sp.Tb-sp.Ta)
	}
	nodes := g.NumNodes()
	words := ((sp.Keys+1)*nodes + 63) / 64
	t.Count = make([]int64, sp.Keys)
	t.Src, t.Dst = nil, nil
	if sp.Src {
		t.Src = make([]uint64, words)
	}
	if sp.Dst {
		t.Dst = make([]uint64, words)
	}
	mark := func(seen []uint64, key int, node uint32) {
		b := uint(key)*uint(nodes) + uint(node)
		seen[b>>6] |= 1 << (b & 63)
	}
	for _, v := range g.starting {
		s := g.es[v].Valid.Start
		if s < sp.Ta || s >= sp.Tb || g.cont[v] {
			continue
		}
		key := int((s-sp.Ta)/sp.Stride)*sp.BucketWeight + int(g.relID[v])*sp.RelWeight
		t.Count[key]++
		if sp.Src {
			mark(t.Src, key, g.src[v])
		}
		if sp.Dst {
			mark(t.Dst, key, g.dst[v])
		}
	}
}
