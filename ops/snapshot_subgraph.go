package ops

import (
	"slices"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
)

func init() {
	Register(&Spec{
		Name:    "snapshot_subgraph",
		Summary: "The k-hop neighbourhood of seed nodes in the graph as it was at one valid instant.",
		Doc: `The snapshot G(t_valid) as believed at as_of_tt holds the node versions and
the edge versions valid at t_valid (vt_s <= t_valid < vt_e). Starting from
the seeds (hop 0), a breadth-first search follows snapshot edges in either
direction for up to hops steps (0..3). Only nodes that have a node version
valid at t_valid take part: a seed without one is dropped, and an edge whose
far endpoint has none does not expand. rel_types (null: all; []: none)
restricts both the traversal and the returned edges.

rows are the induced edges: every snapshot edge (of the allowed rel_types)
whose two endpoints were both reached, self-loops included, ordered by
(vt_s, vid) and paged by the cursor. nodes lists the reached nodes as
{uid, label, hop} (label of the version valid at t_valid) ordered by
(hop, uid), only the first limit of them whatever the cursor; nodes_total
counts all, nodes_truncated says the list was cut. truncated is true when
rows has more pages or nodes was cut (then cursor may be null while
truncated is true: raise limit to see every node).

A seed the store does not know at as_of_tt reaches nothing (like a seed
with no node valid at t_valid), so only unknown seeds give an empty
result, not E_NOT_FOUND. hops outside 0..3 is E_SCHEMA.`,
		Args: Obj("", map[string]*Schema{
			"seeds":     UIDList("start nodes (hop 0)"),
			"hops":      Int("breadth-first steps, 0..3").Range(0, 3).Def(int64(1)),
			"t_valid":   Timestamp("the valid instant of the snapshot"),
			"as_of_tt":  AsOfTT(),
			"rel_types": RelTypes(),
			"limit":     Limit(),
			"cursor":    Cursor(),
		}, "seeds", "t_valid"),
		Result: Paged("induced snapshot edges", EdgeRowSchema("an edge version valid at t_valid"), map[string]*Schema{
			"nodes": Arr("reached nodes, first limit by (hop, uid)", Obj("a reached node", map[string]*Schema{
				"uid":   UIDField("node uid"),
				"label": Str("label of the node version valid at t_valid"),
				"hop":   Int("breadth-first distance from the nearest seed (0 for a seed)"),
			})),
			"nodes_total":     Int("number of reached nodes"),
			"nodes_truncated": Bool("nodes lists only the first limit"),
		}),
		Order:  "rows by (vt_s, vid); nodes by (hop, uid)",
		Paged:  true,
		RowKey: keyOf("vt_s", "vid"),
		Cost:   func(c *Call) Cost { return c.ScanCost(1) },
		Run:    runSnapshotSubgraph,
	})
}

// snapshotView answers the questions a breadth-first search over one
// snapshot G(t) asks: which edge versions incident to a node are in the
// snapshot (valid at t, of an allowed rel_type), and does a node have a
// version valid at t (and with which label). Node answers are cached per
// dense id, and so is each expanded node's list of snapshot out-edges,
// which the induced-edge pass reads again.
type snapshotView struct {
	c     *Call
	h     hotReader
	t     bt.Time
	rels  map[string]bool // nil: every rel_type
	nodes map[uint32]snapshotNode
	out   map[uint32][]uint32 // snapshot out-edges of the expanded nodes
	buf   []uint32
}

type snapshotNode struct {
	ok    bool
	label string
}

func newSnapshotView(c *Call, t bt.Time, rels []string, filtered bool) *snapshotView {
	sv := &snapshotView{c: c, h: hot(c.R), t: t, nodes: map[uint32]snapshotNode{}, out: map[uint32][]uint32{}}
	if filtered {
		sv.rels = make(map[string]bool, len(rels))
		for _, r := range rels {
			sv.rels[r] = true
		}
	}
	return sv
}

// at is the snapshot instant as an interval, for the adjacency reads.
func (sv *snapshotView) at() bt.Interval { return bt.Interval{Start: sv.t, End: sv.t + 1} }

// relIn reports whether edge version v has an allowed rel_type.
func (sv *snapshotView) relIn(v uint32) bool {
	return sv.rels == nil || sv.rels[sv.c.R.RelType(v)]
}

// outEdges is id's believed out-edge versions valid at t (any rel_type),
// by (vt_s, id), read once per call.
func (sv *snapshotView) outEdges(id uint32) []uint32 {
	if l, ok := sv.out[id]; ok {
		return l
	}
	n := len(sv.buf)
	sv.buf = sv.h.OutOverlapping(sv.buf, id, sv.at())
	l := sv.buf[n:len(sv.buf):len(sv.buf)]
	sv.out[id] = l
	return l
}

// node reports whether node id has a version valid at t, and its label.
func (sv *snapshotView) node(id uint32) (string, bool) {
	if n, ok := sv.nodes[id]; ok {
		return n.label, n.ok
	}
	var n snapshotNode
	n.label, n.ok = sv.h.NodeLabelAt(id, sv.t)
	sv.nodes[id] = n
	return n.label, n.ok
}

// bfs is the undirected breadth-first search of §8: seeds with a valid node
// version get hop 0; each step adds the valid, unreached far endpoints of
// the snapshot edges incident to the frontier. It returns hop by dense id.
func (sv *snapshotView) bfs(seeds []uint32, hops int) (map[uint32]int, error) {
	dist := map[uint32]int{}
	var frontier []uint32
	for _, s := range seeds {
		if _, seen := dist[s]; seen {
			continue
		}
		if _, ok := sv.node(s); ok {
			dist[s] = 0
			frontier = append(frontier, s)
		}
	}
	h := &sv.h
	var in []uint32
	for hop := 1; hop <= hops && len(frontier) > 0; hop++ {
		var next []uint32
		reach := func(w uint32) {
			if _, seen := dist[w]; seen {
				return
			}
			if _, ok := sv.node(w); ok {
				dist[w] = hop
				next = append(next, w)
			}
		}
		for _, u := range frontier {
			if err := sv.c.Work(int64(h.Degree(u) + 1)); err != nil {
				return nil, err
			}
			for _, v := range sv.outEdges(u) {
				if sv.relIn(v) {
					reach(h.Dst(v))
				}
			}
			in = h.InOverlapping(in[:0], u, sv.at())
			for _, v := range in {
				if sv.relIn(v) {
					reach(h.Src(v))
				}
			}
		}
		frontier = next
	}
	return dist, nil
}

// snapshotSeeds resolves a list of seed uids. A uid the store does not
// know at the call's belief time has no neighbourhood: it is dropped, like
// a known seed with no node valid at the snapshot time.
func snapshotSeeds(c *Call, uids []string) []uint32 {
	ids := make([]uint32, 0, len(uids))
	for _, u := range uids {
		if id, ok := c.R.Node(u); ok {
			ids = append(ids, id)
		}
	}
	return ids
}

func runSnapshotSubgraph(c *Call) (map[string]any, error) {
	seeds := snapshotSeeds(c, c.Strings("seeds"))
	sv := newSnapshotView(c, c.Int("t_valid"), c.Strings("rel_types"), c.Has("rel_types"))
	dist, err := sv.bfs(seeds, int(c.Int("hops")))
	if err != nil {
		return nil, err
	}
	r := c.R
	// Induced edges, each found once from its source; an expanded node's
	// snapshot out-edges are already read.
	var induced []uint32
	for u := range dist {
		if _, read := sv.out[u]; !read {
			if err := c.Work(int64(sv.h.Degree(u) + 1)); err != nil {
				return nil, err
			}
		}
		for _, v := range sv.outEdges(u) {
			if _, ok := dist[sv.h.Dst(v)]; ok && sv.relIn(v) {
				induced = append(induced, v)
			}
		}
	}
	sortByStartVID(r, induced)
	rows := make([]any, len(induced))
	for i, v := range induced {
		rows[i] = newEdgeVersionRow(r, v)
	}
	c.typed = true

	type reached struct {
		uid string
		id  uint32
		hop int
	}
	nodes := make([]reached, 0, len(dist))
	for id, h := range dist {
		nodes = append(nodes, reached{r.UID(id), id, h})
	}
	slices.SortFunc(nodes, func(a, b reached) int {
		if a.hop != b.hop {
			return a.hop - b.hop
		}
		return strings.Compare(a.uid, b.uid)
	})
	limit := c.PageLimit()
	shown := make([]any, 0, min(limit, len(nodes)))
	for _, n := range nodes[:min(limit, len(nodes))] {
		label, _ := sv.node(n.id)
		shown = append(shown, map[string]any{"uid": n.uid, "label": label, "hop": int64(n.hop)})
	}
	cut := len(nodes) > limit
	return map[string]any{
		"rows":            rows,
		"nodes":           shown,
		"nodes_total":     int64(len(nodes)),
		"nodes_truncated": cut,
		"truncated":       cut,
	}, nil
}
