package ops

import "slices"

// ReadsErased reports whether a result with this scope may have read the
// contents of uid's node versions, or with edges those of its incident
// edges: what an erase of uid removed. An unbounded scope (All, or a part
// over every node or every endpoint) may have.
func (s *Scope) ReadsErased(uid string, edges bool) bool {
	if s == nil || s.All {
		return true
	}
	for _, n := range s.Nodes {
		if n.UIDs == nil || slices.Contains(n.UIDs, uid) {
			return true
		}
	}
	if !edges {
		return false
	}
	for _, e := range s.Edges {
		if !e.PropsFree && (e.Endpoints == nil || slices.Contains(e.Endpoints, uid)) {
			return true
		}
	}
	return false
}
