package oracle

import (
	"slices"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
)

func init() { register("snapshot_subgraph", snapshotSubgraph) }

// snapshotStrings reads a JSON string list argument.
func snapshotStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

// snapshotEdgesAt lists the believed edge versions valid at t whose
// rel_type passes keep.
func snapshotEdgesAt(s *bt.MemStore, tt, t bt.Time, keep func(string) bool) []bt.EdgeVersion {
	var out []bt.EdgeVersion
	for _, e := range believedEdges(s, tt) {
		if e.Valid.Start <= t && t < e.Valid.End && keep(e.Key.RelType) {
			out = append(out, e)
		}
	}
	return out
}

// snapshotNodesAt maps every uid with a believed node version valid at t to
// that version.
func snapshotNodesAt(s *bt.MemStore, tt, t bt.Time) map[string]bt.NodeVersion {
	out := map[string]bt.NodeVersion{}
	for _, n := range believedNodes(s, tt) {
		if n.Valid.Start <= t && t < n.Valid.End {
			out[n.UID] = n
		}
	}
	return out
}

// snapshotBFS is the undirected breadth-first search: seeds that are valid
// nodes get hop 0; hop h adds every valid, unreached endpoint of an edge
// whose other endpoint was reached at hop h-1.
func snapshotBFS(edges []bt.EdgeVersion, valid map[string]bt.NodeVersion, seeds []string, hops int64) map[string]int64 {
	dist := map[string]int64{}
	for _, u := range seeds {
		if _, ok := valid[u]; ok {
			dist[u] = 0
		}
	}
	for h := int64(1); h <= hops; h++ {
		next := map[string]bool{}
		for _, e := range edges {
			for _, p := range [][2]string{{e.Key.Src, e.Key.Dst}, {e.Key.Dst, e.Key.Src}} {
				near, far := p[0], p[1]
				if d, ok := dist[near]; !ok || d != h-1 {
					continue
				}
				if _, reached := dist[far]; reached {
					continue
				}
				if _, ok := valid[far]; ok {
					next[far] = true
				}
			}
		}
		for u := range next {
			dist[u] = h
		}
	}
	return dist
}

func snapshotSubgraph(s *bt.MemStore, args map[string]any) (map[string]any, error) {
	tt := asOf(args)
	t := num(args["t_valid"])
	seeds := knownSeeds(s, tt, snapshotStrings(args["seeds"]))
	keep := func(string) bool { return true }
	if rt, ok := args["rel_types"].([]any); ok {
		allowed := snapshotStrings(rt)
		keep = func(r string) bool { return slices.Contains(allowed, r) }
	}
	edges := snapshotEdgesAt(s, tt, t, keep)
	valid := snapshotNodesAt(s, tt, t)
	dist := snapshotBFS(edges, valid, seeds, num(args["hops"]))

	var rows []map[string]any
	for _, e := range edges {
		_, a := dist[e.Key.Src]
		_, b := dist[e.Key.Dst]
		if a && b {
			rows = append(rows, edgeRow(e))
		}
	}
	slices.SortFunc(rows, func(a, b map[string]any) int {
		if x, y := a["vt_s"].(int64), b["vt_s"].(int64); x != y {
			if x < y {
				return -1
			}
			return 1
		}
		return strings.Compare(a["vid"].(string), b["vid"].(string))
	})
	var nodes []map[string]any
	for u, h := range dist {
		nodes = append(nodes, map[string]any{"uid": u, "label": valid[u].Label, "hop": h})
	}
	slices.SortFunc(nodes, func(a, b map[string]any) int {
		if x, y := a["hop"].(int64), b["hop"].(int64); x != y {
			return int(x - y)
		}
		return strings.Compare(a["uid"].(string), b["uid"].(string))
	})
	limit := int(num(args["limit"]))
	cut := len(nodes) > limit
	return map[string]any{
		"rows":            anyRows(rows),
		"nodes":           anyRows(nodes[:min(limit, len(nodes))]),
		"nodes_total":     int64(len(nodes)),
		"nodes_truncated": cut,
		"truncated":       cut,
	}, nil
}

// knownSeeds drops the seeds the store does not know at belief time tt:
// they reach nothing.
func knownSeeds(s *bt.MemStore, tt int64, seeds []string) []string {
	var out []string
	for _, u := range seeds {
		if known(s, u, tt) {
			out = append(out, u)
		}
	}
	return out
}
