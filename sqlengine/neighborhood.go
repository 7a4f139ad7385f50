package sqlengine

import (
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
	acc := ops.NewNeighborhoodAcc(c, stride, n)
	for _, e := range es {
		acc.Add(uid, e.Key, e.Valid)
	}
	return acc.Payload(c), nil
}
