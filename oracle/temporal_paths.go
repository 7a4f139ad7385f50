package oracle

import (
	"slices"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
)

func init() { register("temporal_paths", temporalPaths) }

// tpathsFound is one enumerated path.
type tpathsFound struct {
	edges []bt.EdgeVersion
	taus  []bt.Time
}

// temporalPaths enumerates every node-simple time-respecting path by plain
// recursion over all believed edge versions that overlap the window, sorts
// all of them, and keeps the first k.
func temporalPaths(s *bt.MemStore, args map[string]any) (map[string]any, error) {
	src, _ := args["src"].(string)
	dst, _ := args["dst"].(string)
	tt := asOf(args)
	if !known(s, src, tt) {
		return nil, NotFound{src}
	}
	if !known(s, dst, tt) {
		return nil, NotFound{dst}
	}
	ta, tb := reachWindow(args)
	k, maxHops := int(num(args["k"])), int(num(args["max_hops"]))
	order, _ := args["order"].(string)
	var edges []bt.EdgeVersion
	believed := believedEdges(s, tt)
	for _, e := range believed {
		if e.Valid.Start < tb && e.Valid.End > ta {
			edges = append(edges, e)
		}
	}
	var all []tpathsFound
	var path []bt.EdgeVersion
	var taus []bt.Time
	visited := map[string]bool{src: true}
	var walk func(u string, a bt.Time)
	walk = func(u string, a bt.Time) {
		if u == dst || len(path) == maxHops {
			return
		}
		for _, e := range edges {
			if e.Key.Src != u || visited[e.Key.Dst] {
				continue
			}
			tau := max(a, e.Valid.Start)
			if tau >= e.Valid.End || tau >= tb {
				continue
			}
			// A carved fragment is one edge with the fragment before it:
			// arriving before it starts, the path takes the earlier one.
			if a < e.Valid.Start && continues(e, believed) {
				continue
			}
			path, taus = append(path, e), append(taus, tau)
			if e.Key.Dst == dst {
				all = append(all, tpathsFound{slices.Clone(path), slices.Clone(taus)})
			} else {
				visited[e.Key.Dst] = true
				walk(e.Key.Dst, tau)
				visited[e.Key.Dst] = false
			}
			path, taus = path[:len(path)-1], taus[:len(taus)-1]
		}
	}
	if src != dst {
		walk(src, ta)
	}
	type key struct {
		arr, dep, hops int64
		seq            string // (vt_s, eid) pairs, fixed width, comparable as bytes
	}
	keyOf := func(p tpathsFound) key {
		var b strings.Builder
		for _, e := range p.edges {
			b.WriteString(tpathsFixed(e.Valid.Start))
			b.WriteString(eid(e.Key))
		}
		return key{p.taus[len(p.taus)-1], p.taus[0], int64(len(p.edges)), b.String()}
	}
	slices.SortFunc(all, func(x, y tpathsFound) int {
		a, b := keyOf(x), keyOf(y)
		var cmps []int
		switch order {
		case "fastest":
			cmps = []int{reachCmp(a.arr-a.dep, b.arr-b.dep), reachCmp(a.arr, b.arr), reachCmp(a.hops, b.hops)}
		case "fewest_hops":
			cmps = []int{reachCmp(a.hops, b.hops), reachCmp(a.arr, b.arr)}
		default:
			cmps = []int{reachCmp(a.arr, b.arr), reachCmp(a.hops, b.hops)}
		}
		for _, c := range cmps {
			if c != 0 {
				return c
			}
		}
		return strings.Compare(a.seq, b.seq)
	})
	rows := []any{}
	for _, p := range all[:min(k, len(all))] {
		var es []any
		for i, e := range p.edges {
			es = append(es, map[string]any{"src": e.Key.Src, "dst": e.Key.Dst, "rel_type": e.Key.RelType,
				"eid": eid(e.Key), "t": e.Valid.Start, "traversed_at": p.taus[i]})
		}
		arr, dep := p.taus[len(p.taus)-1], p.taus[0]
		rows = append(rows, map[string]any{"arrival": arr, "departure": dep, "duration": arr - dep,
			"hops": int64(len(p.edges)), "edges": es})
	}
	return map[string]any{"rows": rows, "rows_total": int64(len(all)), "truncated": len(all) > k, "cursor": nil}, nil
}

// tpathsFixed renders a non-negative time as 19 digits, so that byte order
// is numeric order.
func tpathsFixed(t bt.Time) string {
	const digits = 19
	b := make([]byte, digits)
	for i := digits - 1; i >= 0; i-- {
		b[i] = byte('0' + t%10)
		t /= 10
	}
	return string(b)
}
