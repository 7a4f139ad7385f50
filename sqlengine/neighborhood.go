package sqlengine

import (
	"slices"

	"github.com/tgms-go/tgms/ops"
)

// incident is the statement of a node's believed incident edge versions:
// its out-edges (src = $1, co-located) and in-edges (dst = $1) without
// self-loops twice; $2 is the pinned time.
const incident = `SELECT src, dst, rel_type, disc, vt_s, vt_e, tt_s FROM edge_versions WHERE src = $1 AND ` + believed + `
UNION ALL SELECT src, dst, rel_type, disc, vt_s, vt_e, tt_s FROM edge_versions WHERE dst = $1 AND src <> $1 AND ` + believed

// runNeighborhood is neighborhood_evolution: one statement reads the
// node's incident edge versions; the neighbour sets and the degree series
// are computed from them as the native kernel computes them.
func runNeighborhood(p *pinned, c *ops.Call) (map[string]any, error) {
	stride, n, err := ops.NeighborhoodStride(c)
	if err != nil {
		return nil, err
	}
	uid := c.Str("uid")
	if err := p.known(c, "/uid", uid); err != nil {
		return nil, err
	}
	es, err := p.edges(c, incident, uid, p.asOf)
	if err != nil {
		return nil, err
	}
	t1, t2 := c.Int("t1"), c.Int("t2")
	at1, at2 := map[string]bool{}, map[string]bool{}
	diff := make([]int64, n+1)
	bucketAt := func(x int64) int64 { // first k with t1 + k*stride >= x, capped at n
		if x <= t1 {
			return 0
		}
		q := (x - t1) / stride
		if (x-t1)%stride != 0 {
			q++
		}
		return min(n, q)
	}
	for _, e := range es {
		other := e.Key.Dst
		if other == uid {
			other = e.Key.Src
		}
		if other != uid {
			if e.Valid.Contains(t1) {
				at1[other] = true
			}
			if e.Valid.Contains(t2) {
				at2[other] = true
			}
		}
		if lo, hi := bucketAt(e.Valid.Start), bucketAt(e.Valid.End); lo < hi {
			diff[lo]++
			diff[hi]--
		}
	}
	series := make([]any, n)
	var deg int64
	for k := range n {
		deg += diff[k]
		series[k] = map[string]any{"t": t1 + k*stride, "degree": deg}
	}
	limit := c.PageLimit()
	list := func(from, minus map[string]bool) ([]any, int) {
		var uids []string
		for x := range from {
			if !minus[x] {
				uids = append(uids, x)
			}
		}
		slices.Sort(uids)
		out := make([]any, 0, min(limit, len(uids)))
		for _, u := range uids[:min(limit, len(uids))] {
			out = append(out, u)
		}
		return out, len(uids)
	}
	gained, ng := list(at2, at1)
	lost, nl := list(at1, at2)
	return map[string]any{
		"neighbors_gained":       gained,
		"neighbors_gained_total": int64(ng),
		"neighbors_lost":         lost,
		"neighbors_lost_total":   int64(nl),
		"degree_series":          series,
		"stride":                 stride,
		"truncated":              ng > limit || nl > limit,
	}, nil
}
