package ops

import (
	"runtime"
	"sync"

	bt "github.com/tgms-go/tgms/bitemporal"
)

func init() {
	Register(&Spec{
		Name:    "diff_snapshots",
		Summary: "What changed between the graph at valid time t1 and at t2: nodes and edges added, removed, and changed props.",
		Doc: `Compares two snapshots of one belief state (as_of_tt): G(t1) and G(t2).
Presence is by logical identity: a node (uid) is present at t when it has a
node version valid at t; an edge identity (eid) when one of its edge
versions is valid at t (endpoints need no node version). t1 and t2 may come
in any order; t1 == t2 gives an empty diff.

nodes_added: uids present at t2 and not at t1; nodes_removed the reverse.
edges_added / edges_removed likewise by eid, as {eid, src, dst, rel_type}.
props_changed: identities present at both instants whose versions differ
and whose content differs: for a node, props or label differ (entry
{kind:"node", id:uid, from:{label, props}, to:{label, props}}); for an edge,
props differ ({kind:"edge", id:eid, from:{props}, to:{props}}). A version
cut by a correction or retract elsewhere (another version, same content) is
not a change. Content equality is equality of canonical JSON: 1 and 1.0 are
different values.

scope {seeds, hops} (optional) restricts the diff to a neighbourhood: an
undirected breadth-first search from the seeds (as in snapshot_subgraph, all
rel_types, only nodes with a version valid at that instant) is run in each
snapshot; allowed = nodes reached at t1 or at t2. Only allowed nodes, and
edges with both endpoints allowed, are compared.

Each list holds its first limit entries; *_total counts all; truncated is
true when any total exceeds limit. There is no cursor: raise limit (up to
10000) or narrow the scope. A scope seed the store does not know at
as_of_tt reaches nothing (only unknown seeds: an empty diff).`,
		Args: Obj("", map[string]*Schema{
			"t1":       Timestamp("the first valid instant"),
			"t2":       Timestamp("the second valid instant"),
			"as_of_tt": AsOfTT(),
			"scope": Obj("restrict to the neighbourhood of seeds (null: the whole graph)", map[string]*Schema{
				"seeds": UIDList("start nodes of the neighbourhood"),
				"hops":  Int("breadth-first steps, 0..3").Range(0, 3),
			}, "seeds", "hops").OrNull(),
			"limit": Limit(),
		}, "t1", "t2"),
		Result: Obj("", map[string]*Schema{
			"nodes_added":         Arr("uids present at t2, not at t1 (first limit, by uid)", UIDField("a node uid")),
			"nodes_added_total":   Int("number of added nodes"),
			"nodes_removed":       Arr("uids present at t1, not at t2 (first limit, by uid)", UIDField("a node uid")),
			"nodes_removed_total": Int("number of removed nodes"),
			"edges_added":         Arr("edge identities present at t2, not at t1 (first limit, by eid)", diffEdgeSchema("an added edge (as at t2)")),
			"edges_added_total":   Int("number of added edges"),
			"edges_removed":       Arr("edge identities present at t1, not at t2 (first limit, by eid)", diffEdgeSchema("a removed edge (as at t1)")),
			"edges_removed_total": Int("number of removed edges"),
			"props_changed": Arr("identities present at both instants with different content (first limit; nodes by uid, then edges by eid)",
				Obj("a content change", map[string]*Schema{
					"kind": Enum("node or edge", "node", "edge"),
					"id":   Str("the node uid (kind node) or the eid (kind edge)"),
					"from": diffContentSchema("content at t1"),
					"to":   diffContentSchema("content at t2"),
				})),
			"props_changed_total": Int("number of changed identities"),
			"truncated":           Bool("some list holds only its first limit entries"),
		}),
		Order: "node lists by uid; edge lists by eid; props_changed: node entries by uid, then edge entries by eid",
		Cost:  func(c *Call) Cost { return c.ScanCost(1) },
		Run:   runDiffSnapshots,
	})
}

func diffEdgeSchema(desc string) *Schema {
	return Obj(desc, map[string]*Schema{
		"eid":      Str("edge identity id"),
		"src":      UIDField("source node"),
		"dst":      UIDField("destination node"),
		"rel_type": Str("relation type"),
	})
}

func diffContentSchema(desc string) *Schema {
	return Obj(desc, map[string]*Schema{
		"label": Str("node label (kind node only)"),
		"props": Any("property bag (JSON object)"),
	})
}

// diffIdentity returns a dense representative of edge version v's logical
// identity: the smallest version id of that identity (the same for all its
// versions, and distinct across identities).
func diffIdentity(r Reader, v uint32) uint32 { return r.IdentityMin(v) }

// nodeDiff is the node part of a diff over some node ids, and the work it
// took (one unit per node and per believed version).
type nodeDiff struct {
	added, removed []string
	changed        []DiffNodeChange
	work           int64
}

// diffNodeChunk is the number of node ids below which the node diff runs
// on the calling goroutine only (a variable so tests can split small stores).
var diffNodeChunk = 4096

// diffNodesParallel diffs ids over up to GOMAXPROCS goroutines, each
// taking a contiguous share, and concatenates their lists in share order:
// the caller sorts them, so the result does not depend on the split.
func diffNodesParallel(r Reader, ids []uint32, t1, t2 bt.Time) nodeDiff {
	workers := min(runtime.GOMAXPROCS(0), len(ids)/diffNodeChunk+1)
	if workers <= 1 {
		return diffNodes(r, ids, t1, t2)
	}
	parts := make([]nodeDiff, workers)
	var wg sync.WaitGroup
	for w := range parts {
		lo, hi := len(ids)*w/workers, len(ids)*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			parts[w] = diffNodes(r, ids[lo:hi], t1, t2)
		}()
	}
	wg.Wait()
	var out nodeDiff
	for _, p := range parts {
		out.added = append(out.added, p.added...)
		out.removed = append(out.removed, p.removed...)
		out.changed = append(out.changed, p.changed...)
		out.work += p.work
	}
	return out
}

// diffNodes compares, for each node id, its believed versions valid at t1
// and at t2.
func diffNodes(r Reader, ids []uint32, t1, t2 bt.Time) nodeDiff {
	var d nodeDiff
	for _, id := range ids {
		var a, b bt.NodeVersion
		ha, hb := false, false
		d.work++
		// The version valid at t is the earliest-starting one containing t
		// (believed versions of a uid do not overlap, so there is at most one).
		r.EachNodeVersion(id, func(v bt.NodeVersion) {
			d.work++
			if v.Valid.Contains(t1) && (!ha || v.Valid.Start < a.Valid.Start) {
				a, ha = v, true
			}
			if v.Valid.Contains(t2) && (!hb || v.Valid.Start < b.Valid.Start) {
				b, hb = v, true
			}
		})
		switch {
		case !ha && hb:
			d.added = append(d.added, r.UID(id))
		case ha && !hb:
			d.removed = append(d.removed, r.UID(id))
		case ha && hb:
			same := a.TTs == b.TTs && a.Valid.Start == b.Valid.Start
			if !same && (a.Props != b.Props || a.Label != b.Label) {
				d.changed = append(d.changed, DiffNodeChange{UID: r.UID(id), FromLabel: a.Label, ToLabel: b.Label, From: a.Props, To: b.Props})
			}
		}
	}
	return d
}

// diffEdges adds to d the edge part of the diff from, per edge identity
// (its diffIdentity), the version valid at t1 (at1) and at t2 (at2).
func diffEdges(r Reader, at1, at2 map[uint32]uint32, d *DiffAcc) {
	for id, v1 := range at1 {
		v2, ok := at2[id]
		switch {
		case !ok:
			d.EdgesRemoved = append(d.EdgesRemoved, r.EdgeKey(v1))
		case v1 != v2 && r.Props(v1) != r.Props(v2):
			d.EdgesChanged = append(d.EdgesChanged, DiffEdgeChange{Key: r.EdgeKey(v1), From: r.Props(v1), To: r.Props(v2)})
		}
	}
	for id, v2 := range at2 {
		if _, ok := at1[id]; !ok {
			d.EdgesAdded = append(d.EdgesAdded, r.EdgeKey(v2))
		}
	}
}

func runDiffSnapshots(c *Call) (map[string]any, error) {
	t1, t2 := c.Int("t1"), c.Int("t2")
	var d DiffAcc
	var err error
	if c.Has("scope") {
		err = diffScoped(c, t1, t2, &d)
	} else {
		err = diffGlobal(c, t1, t2, &d)
	}
	if err != nil {
		return nil, err
	}
	c.typed = true
	return d.payload(c.PageLimit(), true), nil
}

// diffGlobal diffs the whole graph from the versions valid at exactly one
// of t1 and t2 (see engine.Reader.EdgesValidAtOneOf): a version valid at
// both is the same on both sides, and an identity with one has no other
// version at either instant, so the rest of the two snapshots is never
// read.
func diffGlobal(c *Call, t1, t2 bt.Time, d *DiffAcc) error {
	r := c.R
	nd := diffNodesParallel(r, r.NodesValidAtOneOf(t1, t2), t1, t2)
	if err := c.Work(nd.work); err != nil {
		return err
	}
	d.NodesAdded, d.NodesRemoved, d.NodesChanged = nd.added, nd.removed, nd.changed
	vs := r.EdgesValidAtOneOf(t1, t2)
	if err := c.Work(int64(len(vs) + 2)); err != nil {
		return err
	}
	at1, at2 := map[uint32]uint32{}, map[uint32]uint32{}
	for _, v := range vs {
		if r.Valid(v).Contains(t1) {
			at1[diffIdentity(r, v)] = v
		} else {
			at2[diffIdentity(r, v)] = v
		}
	}
	diffEdges(r, at1, at2, d)
	return nil
}

// diffScoped diffs the neighbourhood of the scope's seeds: the nodes an
// undirected search reaches at t1 or at t2, and the edges between them.
func diffScoped(c *Call, t1, t2 bt.Time, d *DiffAcc) error {
	r := c.R
	scope, _ := c.Args["scope"].(map[string]any)
	var uids []string
	for _, s := range scope["seeds"].([]any) {
		u, _ := s.(string)
		uids = append(uids, u)
	}
	seeds := snapshotSeeds(c, uids)
	hops := int(toInt(scope["hops"]))
	allowed := map[uint32]bool{}
	for _, t := range []bt.Time{t1, t2} {
		dist, err := newSnapshotView(c, t, nil, false).bfs(seeds, hops)
		if err != nil {
			return err
		}
		for id := range dist {
			allowed[id] = true
		}
	}
	var nodeIDs []uint32
	for id := range allowed {
		nodeIDs = append(nodeIDs, id)
	}
	nd := diffNodesParallel(r, nodeIDs, t1, t2)
	if err := c.Work(nd.work); err != nil {
		return err
	}
	d.NodesAdded, d.NodesRemoved, d.NodesChanged = nd.added, nd.removed, nd.changed
	at1, at2 := map[uint32]uint32{}, map[uint32]uint32{}
	for u := range allowed {
		out := r.Out(u)
		if err := c.Work(int64(len(out) + 1)); err != nil {
			return err
		}
		for _, v := range out {
			if !allowed[r.Dst(v)] {
				continue
			}
			iv := r.Valid(v)
			if iv.Contains(t1) {
				at1[diffIdentity(r, v)] = v
			}
			if iv.Contains(t2) {
				at2[diffIdentity(r, v)] = v
			}
		}
	}
	diffEdges(r, at1, at2, d)
	return nil
}
