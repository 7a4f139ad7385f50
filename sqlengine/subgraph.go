package sqlengine

import (
	"cmp"
	"slices"

	"github.com/jackc/pgx/v5"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
)

// subgraph is an ops.Reader over the few edge versions a walk from one
// node can reach, read by SQL: an operator's own kernel runs on it
// unchanged. It answers only the methods those kernels call (the embedded
// nil Reader panics on any other: a kernel that needs more must not be
// given one). Versions are numbered in the store's insertion order (the
// vid column), as the in-memory engine numbers them.
type subgraph struct {
	ops.Reader
	asOf    bt.Time
	uids    []string
	ids     map[string]uint32
	es      []bt.EdgeVersion
	src     []uint32
	dst     []uint32
	cont    []bool
	out, in map[uint32][]uint32
}

func (g *subgraph) AsOf() bt.Time { return g.asOf }
func (g *subgraph) NumNodes() int { return len(g.uids) }
func (g *subgraph) Node(uid string) (uint32, bool) {
	id, ok := g.ids[uid]
	return id, ok
}
func (g *subgraph) Known(id uint32) bool         { return int(id) < len(g.uids) }
func (g *subgraph) UID(id uint32) string         { return g.uids[id] }
func (g *subgraph) Out(id uint32) []uint32       { return g.out[id] }
func (g *subgraph) In(id uint32) []uint32        { return g.in[id] }
func (g *subgraph) Edge(v uint32) bt.EdgeVersion { return g.es[v] }
func (g *subgraph) EdgeKey(v uint32) bt.EdgeKey  { return g.es[v].Key }
func (g *subgraph) Valid(v uint32) bt.Interval   { return g.es[v].Valid }
func (g *subgraph) RelType(v uint32) string      { return g.es[v].Key.RelType }
func (g *subgraph) Src(v uint32) uint32          { return g.src[v] }
func (g *subgraph) Dst(v uint32) uint32          { return g.dst[v] }
func (g *subgraph) Continues(v uint32) bool      { return g.cont[v] }

// EdgeIDs is edge version v's identity id and version id, hashed from
// the version read by SQL (the kernels name path edges by them).
func (g *subgraph) EdgeIDs(v uint32) (eid, vid string) {
	e := g.es[v]
	eid = engine.EID(e.Key)
	return eid, engine.VID(eid, e.TTs, e.Valid.Start)
}

func (g *subgraph) node(uid string) uint32 {
	id, ok := g.ids[uid]
	if !ok {
		id = uint32(len(g.uids))
		g.ids[uid] = id
		g.uids = append(g.uids, uid)
	}
	return id
}

// walkSQL reads the believed out-edge versions of a frontier ($4) that
// overlap the window ($2, $3), each with whether it is a carved fragment
// (the co-located anti-join of the event counts).
var walkSQL = `SELECT e.vid, e.src, e.dst, e.rel_type, e.disc, e.vt_s, e.vt_e, e.tt_s, ` + fragment + `
FROM edge_versions e WHERE e.src = ANY($4) AND e.tt_s <= $1 AND $1 < e.tt_e AND e.vt_s < $3 AND e.vt_e > $2`

// walk reads the subgraph of out-edges overlapping w of every node within
// hops untimed hops of from (hops+1 statements, one per round: client
// driven, no recursive CTE). Every time-respecting walk of at most hops+1
// edges from it uses only these versions. The uids in also are known
// (registered at the pinned time) and get an id even when no edge
// reaches them.
func (p *pinned) walk(c *ops.Call, from string, hops int, w bt.Interval, also ...string) (*subgraph, error) {
	g := &subgraph{asOf: p.asOf, ids: map[string]uint32{}, out: map[uint32][]uint32{}, in: map[uint32][]uint32{}}
	for _, u := range append([]string{from}, also...) {
		g.node(u)
	}
	type row struct {
		vid  int64
		e    bt.EdgeVersion
		cont bool
	}
	var rows []row
	seen := map[string]bool{from: true}
	frontier := []string{from}
	for h := 0; h <= hops && len(frontier) > 0; h++ {
		rs, err := p.tx.Query(c.Ctx, walkSQL, p.asOf, w.Start, w.End, frontier)
		if err != nil {
			return nil, err
		}
		var next []string
		var r row
		if _, err := pgx.ForEachRow(rs, []any{&r.vid, &r.e.Key.Src, &r.e.Key.Dst, &r.e.Key.RelType, &r.e.Key.Disc, &r.e.Valid.Start, &r.e.Valid.End, &r.e.TTs, &r.cont}, func() error {
			rows = append(rows, r)
			if d := r.e.Key.Dst; !seen[d] {
				seen[d] = true
				next = append(next, d)
			}
			return c.Work(1)
		}); err != nil {
			return nil, err
		}
		frontier = next
	}
	slices.SortFunc(rows, func(a, b row) int { return cmp.Compare(a.vid, b.vid) })
	for i, r := range rows {
		v := uint32(i)
		s, d := g.node(r.e.Key.Src), g.node(r.e.Key.Dst)
		g.es, g.src, g.dst, g.cont = append(g.es, r.e), append(g.src, s), append(g.dst, d), append(g.cont, r.cont)
		g.out[s] = append(g.out[s], v)
		g.in[d] = append(g.in[d], v)
	}
	byStart := func(a, b uint32) int {
		return cmp.Or(cmp.Compare(g.es[a].Valid.Start, g.es[b].Valid.Start), cmp.Compare(a, b))
	}
	for _, l := range g.out {
		slices.SortFunc(l, byStart)
	}
	for _, l := range g.in {
		slices.SortFunc(l, byStart)
	}
	return g, nil
}

// runPaths is temporal_paths: SQL reads the subgraph that walks of at most
// max_hops edges from src can use (rounds of out-edges overlapping the
// window), and the operator's own search runs on it.
func runPaths(p *pinned, c *ops.Call) (map[string]any, error) {
	src, dst := c.Str("src"), c.Str("dst")
	if err := p.known(c, "/src", src); err != nil {
		return nil, err
	}
	if err := p.known(c, "/dst", dst); err != nil {
		return nil, err
	}
	g, err := p.walk(c, src, int(c.Int("max_hops"))-1, c.Window("window"), dst)
	if err != nil {
		return nil, err
	}
	spec, _ := ops.Lookup("temporal_paths")
	c.R = g
	return spec.Run(c)
}
