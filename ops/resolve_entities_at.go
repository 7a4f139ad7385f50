package ops

import (
	"cmp"
	"slices"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// resolveAt is resolve_entities with at: each uid is scored on its one
// version believed valid at t, which is also the row's canonical version.
func resolveAt(c *Call, t bt.Time, hasQuery bool, query, lq string, crit *resolveCrit, wantLabel string, hasLabel bool) (map[string]any, error) {
	type hit struct {
		id    uint32
		score int
		v     bt.NodeVersion
	}
	var hits []hit
	order, rank := c.R.UIDOrderRanks()
	ids := order
	if hasQuery {
		if cand, ok := c.R.NodeTextCandidates(lq); ok {
			ids = cand
		}
	}
	for _, id := range ids {
		if !c.R.Known(id) {
			continue
		}
		var at bt.NodeVersion
		found := false
		var count int64
		c.R.EachNodeVersion(id, func(v bt.NodeVersion) {
			count++
			if v.Valid.Contains(t) {
				at, found = v, true
			}
		})
		if err := c.Work(count + 1); err != nil {
			return nil, err
		}
		if !found || crit != nil && !crit.matches(at.Props) || hasLabel && at.Label != wantLabel {
			continue
		}
		uid := c.R.UID(id)
		s := -1
		switch {
		case !hasQuery:
			s = resolvePropMatch
		case uid == query:
			s = resolveExact
		case containsFold(uid, lq):
			s = resolveUIDSub
		case resolveNameMatches(at.Props, lq):
			s = resolveNameSub
		}
		if s >= 0 {
			hits = append(hits, hit{id, s, at})
		}
	}
	slices.SortFunc(hits, func(a, b hit) int { return cmp.Or(cmp.Compare(a.score, b.score), cmp.Compare(rank[a.id], rank[b.id])) })
	rows := make([]any, 0, len(hits))
	for _, h := range hits {
		var name any
		if h.v.Props != "" {
			name = h.v.Props.Map()["name"]
		}
		rows = append(rows, map[string]any{"uid": c.R.UID(h.id), "label": h.v.Label, "name": name, "match": int64(h.score),
			"vt_s": h.v.Valid.Start, "vt_e": h.v.Valid.End})
	}
	return map[string]any{"rows": rows}, nil
}
