package ops

import (
	"slices"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
)

// DiffNodeChange is a node whose content differs between diff_snapshots'
// two instants.
type DiffNodeChange struct {
	UID                string
	FromLabel, ToLabel string
	From, To           bt.Props
}

// DiffEdgeChange is an edge identity whose props differ between the two
// instants.
type DiffEdgeChange struct {
	Key      bt.EdgeKey
	From, To bt.Props
}

// DiffAcc collects a diff_snapshots result for a backend that runs the
// comparison itself (any order); Payload sorts and pages it as the native
// kernel does.
type DiffAcc struct {
	NodesAdded, NodesRemoved []string
	NodesChanged             []DiffNodeChange
	EdgesAdded, EdgesRemoved []bt.EdgeKey
	EdgesChanged             []DiffEdgeChange
}

// Payload is the operator's payload, each list holding its first limit
// entries.
func (d *DiffAcc) Payload(limit int) map[string]any {
	type keyed struct {
		eid string
		key bt.EdgeKey
	}
	keys := func(ks []bt.EdgeKey) []keyed {
		out := make([]keyed, len(ks))
		for i, k := range ks {
			out[i] = keyed{engine.EID(k), k}
		}
		slices.SortFunc(out, func(a, b keyed) int { return strings.Compare(a.eid, b.eid) })
		return out
	}
	added, removed := keys(d.EdgesAdded), keys(d.EdgesRemoved)
	slices.Sort(d.NodesAdded)
	slices.Sort(d.NodesRemoved)
	slices.SortFunc(d.NodesChanged, func(a, b DiffNodeChange) int { return strings.Compare(a.UID, b.UID) })
	type change struct {
		eid string
		c   DiffEdgeChange
	}
	echanged := make([]change, len(d.EdgesChanged))
	for i, c := range d.EdgesChanged {
		echanged[i] = change{engine.EID(c.Key), c}
	}
	slices.SortFunc(echanged, func(a, b change) int { return strings.Compare(a.eid, b.eid) })

	uidList := func(xs []string) []any {
		out := make([]any, 0, min(limit, len(xs)))
		for _, x := range xs[:min(limit, len(xs))] {
			out = append(out, x)
		}
		return out
	}
	edgeList := func(xs []keyed) []any {
		out := make([]any, 0, min(limit, len(xs)))
		for _, x := range xs[:min(limit, len(xs))] {
			out = append(out, map[string]any{"eid": x.eid, "src": x.key.Src, "dst": x.key.Dst, "rel_type": x.key.RelType})
		}
		return out
	}
	changed := make([]any, 0, min(limit, len(d.NodesChanged)+len(echanged)))
	for _, n := range d.NodesChanged {
		if len(changed) == limit {
			break
		}
		changed = append(changed, map[string]any{"kind": "node", "id": n.UID,
			"from": map[string]any{"label": n.FromLabel, "props": n.From.Map()},
			"to":   map[string]any{"label": n.ToLabel, "props": n.To.Map()}})
	}
	for _, e := range echanged {
		if len(changed) == limit {
			break
		}
		changed = append(changed, map[string]any{"kind": "edge", "id": e.eid,
			"from": map[string]any{"props": e.c.From.Map()},
			"to":   map[string]any{"props": e.c.To.Map()}})
	}
	totals := []int{len(d.NodesAdded), len(d.NodesRemoved), len(added), len(removed), len(d.NodesChanged) + len(echanged)}
	return map[string]any{
		"nodes_added":         uidList(d.NodesAdded),
		"nodes_added_total":   int64(totals[0]),
		"nodes_removed":       uidList(d.NodesRemoved),
		"nodes_removed_total": int64(totals[1]),
		"edges_added":         edgeList(added),
		"edges_added_total":   int64(totals[2]),
		"edges_removed":       edgeList(removed),
		"edges_removed_total": int64(totals[3]),
		"props_changed":       changed,
		"props_changed_total": int64(totals[4]),
		"truncated":           slices.Max(totals) > limit,
	}
}
