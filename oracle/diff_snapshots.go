package oracle

import (
	"slices"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
)

func init() { register("diff_snapshots", diffSnapshots) }

func diffSnapshots(s *bt.MemStore, args map[string]any) (map[string]any, error) {
	tt := asOf(args)
	t1, t2 := num(args["t1"]), num(args["t2"])
	limit := int(num(args["limit"]))
	all := func(string) bool { return true }

	// Identity -> version present at each instant.
	nodes1, nodes2 := snapshotNodesAt(s, tt, t1), snapshotNodesAt(s, tt, t2)
	edges1, edges2 := map[string]bt.EdgeVersion{}, map[string]bt.EdgeVersion{}
	for _, e := range snapshotEdgesAt(s, tt, t1, all) {
		edges1[eid(e.Key)] = e
	}
	for _, e := range snapshotEdgesAt(s, tt, t2, all) {
		edges2[eid(e.Key)] = e
	}

	if scope, ok := args["scope"].(map[string]any); ok {
		seeds := knownSeeds(s, tt, snapshotStrings(scope["seeds"]))
		allowed := map[string]bool{}
		for u := range snapshotBFS(snapshotEdgesAt(s, tt, t1, all), nodes1, seeds, num(scope["hops"])) {
			allowed[u] = true
		}
		for u := range snapshotBFS(snapshotEdgesAt(s, tt, t2, all), nodes2, seeds, num(scope["hops"])) {
			allowed[u] = true
		}
		for _, m := range []map[string]bt.NodeVersion{nodes1, nodes2} {
			for u := range m {
				if !allowed[u] {
					delete(m, u)
				}
			}
		}
		for _, m := range []map[string]bt.EdgeVersion{edges1, edges2} {
			for id, e := range m {
				if !allowed[e.Key.Src] || !allowed[e.Key.Dst] {
					delete(m, id)
				}
			}
		}
	}

	var nAdded, nRemoved []string
	var changed []map[string]any
	for u, a := range nodes1 {
		b, ok := nodes2[u]
		if !ok {
			nRemoved = append(nRemoved, u)
			continue
		}
		if vid(u, a.TTs, a.Valid.Start) == vid(u, b.TTs, b.Valid.Start) {
			continue
		}
		pa, pb := a.Props.Map(), b.Props.Map()
		if a.Label != b.Label || !canon.Equal(pa, pb) {
			changed = append(changed, map[string]any{"kind": "node", "id": u,
				"from": map[string]any{"label": a.Label, "props": pa},
				"to":   map[string]any{"label": b.Label, "props": pb}})
		}
	}
	for u := range nodes2 {
		if _, ok := nodes1[u]; !ok {
			nAdded = append(nAdded, u)
		}
	}
	edgeObj := func(id string, e bt.EdgeVersion) map[string]any {
		return map[string]any{"eid": id, "src": e.Key.Src, "dst": e.Key.Dst, "rel_type": e.Key.RelType}
	}
	var eAdded, eRemoved []map[string]any
	var eChanged []map[string]any
	for id, a := range edges1 {
		b, ok := edges2[id]
		if !ok {
			eRemoved = append(eRemoved, edgeObj(id, a))
			continue
		}
		if vid(id, a.TTs, a.Valid.Start) == vid(id, b.TTs, b.Valid.Start) {
			continue
		}
		pa, pb := a.Props.Map(), b.Props.Map()
		if !canon.Equal(pa, pb) {
			eChanged = append(eChanged, map[string]any{"kind": "edge", "id": id,
				"from": map[string]any{"props": pa}, "to": map[string]any{"props": pb}})
		}
	}
	for id, b := range edges2 {
		if _, ok := edges1[id]; !ok {
			eAdded = append(eAdded, edgeObj(id, b))
		}
	}
	by := func(key string) func(a, b map[string]any) int {
		return func(a, b map[string]any) int { return strings.Compare(a[key].(string), b[key].(string)) }
	}
	slices.Sort(nAdded)
	slices.Sort(nRemoved)
	slices.SortFunc(eAdded, by("eid"))
	slices.SortFunc(eRemoved, by("eid"))
	slices.SortFunc(changed, by("id"))
	slices.SortFunc(eChanged, by("id"))
	changed = append(changed, eChanged...)

	strs := func(xs []string) []any {
		out := []any{}
		for i, x := range xs {
			if i < limit {
				out = append(out, x)
			}
		}
		return out
	}
	objs := func(xs []map[string]any) []any { return anyRows(xs[:min(limit, len(xs))]) }
	truncated := false
	for _, n := range []int{len(nAdded), len(nRemoved), len(eAdded), len(eRemoved), len(changed)} {
		truncated = truncated || n > limit
	}
	return map[string]any{
		"nodes_added": strs(nAdded), "nodes_added_total": int64(len(nAdded)),
		"nodes_removed": strs(nRemoved), "nodes_removed_total": int64(len(nRemoved)),
		"edges_added": objs(eAdded), "edges_added_total": int64(len(eAdded)),
		"edges_removed": objs(eRemoved), "edges_removed_total": int64(len(eRemoved)),
		"props_changed": objs(changed), "props_changed_total": int64(len(changed)),
		"truncated": truncated,
	}, nil
}
