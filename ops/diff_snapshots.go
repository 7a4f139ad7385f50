package ops

import (
	"runtime"
	"slices"
	"strings"
	"sync"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
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

// nodeChange is a node whose content differs between the two snapshots.
type nodeChange struct {
	uid      string
	from, to bt.NodeVersion
}

// nodeDiff is the node part of a diff over some node ids, and the work it
// took (one unit per node and per believed version).
type nodeDiff struct {
	added, removed []string
	changed        []nodeChange
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
				d.changed = append(d.changed, nodeChange{r.UID(id), a, b})
			}
		}
	}
	return d
}

// diffEdgesValid maps each edge identity (its diffIdentity) with a
// believed version valid at t1, and at t2, to that version (believed
// versions of an identity do not overlap, so there is one), with the
// number of versions valid at each. In parallel, the two instants are
// read on two goroutines, each filling its own map: the maps, and so the
// diff, are the sequential pass's.
func diffEdgesValid(r Reader, t1, t2 bt.Time, parallel bool) (at1, at2 map[uint32]uint32, n [2]int) {
	at := [2]map[uint32]uint32{}
	read := func(k int, t bt.Time) {
		vs := r.EdgesValidAt(t)
		m := make(map[uint32]uint32, len(vs))
		for _, v := range vs {
			m[diffIdentity(r, v)] = v
		}
		at[k], n[k] = m, len(vs)
	}
	if !parallel {
		read(0, t1)
		read(1, t2)
		return at[0], at[1], n
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		read(1, t2)
	}()
	read(0, t1)
	wg.Wait()
	return at[0], at[1], n
}

func runDiffSnapshots(c *Call) (map[string]any, error) {
	r := c.R
	t1, t2 := c.Int("t1"), c.Int("t2")
	limit := c.PageLimit()

	// allowed == nil: the whole graph.
	var allowed map[uint32]bool
	if c.Has("scope") {
		scope, _ := c.Args["scope"].(map[string]any)
		var uids []string
		for _, s := range scope["seeds"].([]any) {
			u, _ := s.(string)
			uids = append(uids, u)
		}
		seeds := snapshotSeeds(c, uids)
		hops := int(toInt(scope["hops"]))
		allowed = map[uint32]bool{}
		for _, t := range []bt.Time{t1, t2} {
			dist, err := newSnapshotView(c, t, nil, false).bfs(seeds, hops)
			if err != nil {
				return nil, err
			}
			for id := range dist {
				allowed[id] = true
			}
		}
	}

	// Nodes.
	var nodeIDs []uint32
	if allowed != nil {
		for id := range allowed {
			nodeIDs = append(nodeIDs, id)
		}
	} else {
		for id := 0; id < r.NumNodes(); id++ {
			if r.Known(uint32(id)) {
				nodeIDs = append(nodeIDs, uint32(id))
			}
		}
	}
	nd := diffNodesParallel(r, nodeIDs, t1, t2)
	if err := c.Work(nd.work); err != nil {
		return nil, err
	}
	nAdded, nRemoved, nChanged := nd.added, nd.removed, nd.changed

	// Edges: identity representative -> version valid at t1 / t2.
	at1, at2 := map[uint32]uint32{}, map[uint32]uint32{}
	note := func(v uint32) {
		iv := r.Valid(v)
		if iv.Contains(t1) {
			at1[diffIdentity(r, v)] = v
		}
		if iv.Contains(t2) {
			at2[diffIdentity(r, v)] = v
		}
	}
	if allowed != nil {
		for u := range allowed {
			out := r.Out(u)
			if err := c.Work(int64(len(out) + 1)); err != nil {
				return nil, err
			}
			for _, v := range out {
				if allowed[r.Dst(v)] {
					note(v)
				}
			}
		}
	} else {
		var n [2]int
		at1, at2, n = diffEdgesValid(r, t1, t2, runtime.GOMAXPROCS(0) > 1)
		if err := c.Work(int64(n[0] + n[1] + 2)); err != nil {
			return nil, err
		}
	}
	// Every added or removed edge needs its eid (the lists are in eid
	// order); only the rows a page returns are built.
	type edgeEntry struct {
		eid    string
		key    bt.EdgeKey
		v1, v2 uint32 // props_changed entries: the versions at t1 and t2
	}
	entry := func(v uint32) edgeEntry {
		k := r.EdgeKey(v)
		return edgeEntry{eid: engine.EID(k), key: k}
	}
	var eAdded, eRemoved, eChanged []edgeEntry
	for id, v1 := range at1 {
		v2, ok := at2[id]
		switch {
		case !ok:
			eRemoved = append(eRemoved, entry(v1))
		case v1 != v2 && r.Props(v1) != r.Props(v2):
			en := entry(v1)
			en.v1, en.v2 = v1, v2
			eChanged = append(eChanged, en)
		}
	}
	for id, v2 := range at2 {
		if _, ok := at1[id]; !ok {
			eAdded = append(eAdded, entry(v2))
		}
	}
	byEID := func(a, b edgeEntry) int { return strings.Compare(a.eid, b.eid) }
	slices.SortFunc(eAdded, byEID)
	slices.SortFunc(eRemoved, byEID)
	slices.SortFunc(eChanged, byEID)
	slices.Sort(nAdded)
	slices.Sort(nRemoved)
	slices.SortFunc(nChanged, func(a, b nodeChange) int { return strings.Compare(a.uid, b.uid) })

	uidList := func(xs []string) []any {
		out := make([]any, 0, min(limit, len(xs)))
		for _, x := range xs[:min(limit, len(xs))] {
			out = append(out, x)
		}
		return out
	}
	edgeList := func(xs []edgeEntry) []any {
		out := make([]any, 0, min(limit, len(xs)))
		for _, x := range xs[:min(limit, len(xs))] {
			out = append(out, &diffEdgeRow{eid: x.eid, src: x.key.Src, dst: x.key.Dst, rel: x.key.RelType})
		}
		return out
	}
	changed := make([]any, 0, min(limit, len(nChanged)+len(eChanged)))
	for _, n := range nChanged {
		if len(changed) == limit {
			break
		}
		changed = append(changed, newDiffChangeRow(&diffChangeRow{node: true, id: n.uid,
			fromLabel: n.from.Label, toLabel: n.to.Label, from: n.from.Props, to: n.to.Props}))
	}
	for _, e := range eChanged {
		if len(changed) == limit {
			break
		}
		changed = append(changed, newDiffChangeRow(&diffChangeRow{id: e.eid, from: r.Props(e.v1), to: r.Props(e.v2)}))
	}
	c.typed = true
	totals := []int{len(nAdded), len(nRemoved), len(eAdded), len(eRemoved), len(nChanged) + len(eChanged)}
	return map[string]any{
		"nodes_added":         uidList(nAdded),
		"nodes_added_total":   int64(totals[0]),
		"nodes_removed":       uidList(nRemoved),
		"nodes_removed_total": int64(totals[1]),
		"edges_added":         edgeList(eAdded),
		"edges_added_total":   int64(totals[2]),
		"edges_removed":       edgeList(eRemoved),
		"edges_removed_total": int64(totals[3]),
		"props_changed":       changed,
		"props_changed_total": int64(totals[4]),
		"truncated":           slices.Max(totals) > limit,
	}, nil
}
