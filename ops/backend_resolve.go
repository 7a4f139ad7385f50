package ops

import (
	"cmp"
	"slices"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// ResolveQuery is a resolve_entities call parsed for a backend that
// selects candidate nodes itself: it reads, for a superset of the nodes
// that match, every believed version of each, and Payload scores them
// with the native kernel's rules.
type ResolveQuery struct {
	HasQuery bool
	Query    string
	// Lower is strings.ToLower(Query): Go's simple case mapping, which a
	// candidate filter must not narrow (see package sqlengine).
	Lower string
	// Prop is the prop criterion's property name ("" without one).
	Prop  string
	HasAt bool
	At    bt.Time

	crit     *resolveCrit
	label    string
	hasLabel bool
}

// ResolveNode is a candidate node with all its believed versions.
type ResolveNode struct {
	UID      string
	Versions []bt.NodeVersion
}

// ParseResolve parses a resolve_entities call, with the native kernel's
// refusals.
func ParseResolve(c *Call) (*ResolveQuery, error) {
	crit, err := resolveParseCrit(c)
	if err != nil {
		return nil, err
	}
	q := &ResolveQuery{HasQuery: c.Has("query"), crit: crit}
	if !q.HasQuery && crit == nil {
		return nil, Errorf(EInvalidArg, map[string]any{"path": "/query", "hint": "pass query (a name or uid fragment), prop, or both"},
			"resolve_entities needs a query or a prop criterion")
	}
	q.Query = c.Str("query")
	q.Lower = strings.ToLower(q.Query)
	if crit != nil {
		q.Prop = crit.prop
	}
	q.label, q.hasLabel = c.Args["label"].(string)
	if q.HasAt = c.Has("at"); q.HasAt {
		q.At = c.Int("at")
	}
	return q, nil
}

// Payload scores the candidates (any order; a node with no believed
// version is never found) and renders the operator's rows: by (match,
// uid).
func (q *ResolveQuery) Payload(c *Call, nodes []ResolveNode) (map[string]any, error) {
	type hit struct {
		uid   string
		score int
		v     bt.NodeVersion
	}
	var hits []hit
	for _, n := range nodes {
		if err := c.Work(int64(len(n.Versions) + 1)); err != nil {
			return nil, err
		}
		if len(n.Versions) == 0 {
			continue
		}
		var can bt.NodeVersion
		s := -1
		if q.HasAt {
			found := false
			for _, v := range n.Versions {
				if v.Valid.Contains(q.At) {
					can, found = v, true
				}
			}
			if !found || q.crit != nil && !q.crit.matches(can.Props) || q.hasLabel && can.Label != q.label {
				continue
			}
			switch {
			case !q.HasQuery:
				s = resolvePropMatch
			case n.UID == q.Query:
				s = resolveExact
			case containsFold(n.UID, q.Lower):
				s = resolveUIDSub
			case resolveNameMatches(can.Props, q.Lower):
				s = resolveNameSub
			}
		} else {
			switch {
			case !q.HasQuery:
				s = resolvePropMatch
			case n.UID == q.Query:
				s = resolveExact
			case containsFold(n.UID, q.Lower):
				s = resolveUIDSub
			}
			nameHit, critHit := false, q.crit == nil
			for i, v := range n.Versions {
				if i == 0 || resolveLater(n.UID, v, can) {
					can = v
				}
				nameHit = nameHit || s < 0 && resolveNameMatches(v.Props, q.Lower)
				critHit = critHit || q.crit.matches(v.Props)
			}
			if !critHit {
				continue
			}
			if s < 0 {
				if !nameHit {
					continue
				}
				s = resolveNameSub
			}
			if q.hasLabel && can.Label != q.label {
				continue
			}
		}
		if s >= 0 {
			hits = append(hits, hit{n.UID, s, can})
		}
	}
	slices.SortFunc(hits, func(a, b hit) int { return cmp.Or(cmp.Compare(a.score, b.score), strings.Compare(a.uid, b.uid)) })
	rows := make([]any, 0, len(hits))
	for _, h := range hits {
		var name any
		if h.v.Props != "" {
			name = h.v.Props.Map()["name"]
		}
		row := map[string]any{"uid": h.uid, "label": h.v.Label, "name": name, "match": int64(h.score)}
		if q.HasAt {
			row["vt_s"], row["vt_e"] = h.v.Valid.Start, h.v.Valid.End
		}
		rows = append(rows, row)
	}
	return map[string]any{"rows": rows}, nil
}
