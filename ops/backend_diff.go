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
// entries: node lists by uid, edge lists by eid, props_changed node
// entries by uid and then edge entries by eid. It is the one rendering of
// a diff, whichever backend computed it.
func (d *DiffAcc) Payload(limit int) map[string]any { return d.payload(limit, false) }

// payload is Payload with the list entries as typed rows (typedrow_lists.go)
// when typed is set; both encode to the same canonical bytes.
func (d *DiffAcc) payload(limit int, typed bool) map[string]any {
	slices.Sort(d.NodesAdded)
	slices.Sort(d.NodesRemoved)
	slices.SortFunc(d.NodesChanged, func(a, b DiffNodeChange) int { return strings.Compare(a.UID, b.UID) })
	uidList := func(xs []string) []any {
		out := make([]any, 0, min(limit, len(xs)))
		for _, x := range xs[:min(limit, len(xs))] {
			out = append(out, x)
		}
		return out
	}
	edgeList := func(ks []bt.EdgeKey) []any {
		eids, order := byEID(len(ks), func(i int) bt.EdgeKey { return ks[i] })
		out := make([]any, 0, min(limit, len(ks)))
		for _, i := range order[:min(limit, len(ks))] {
			k := ks[i]
			if typed {
				out = append(out, &diffEdgeRow{eid: eids[i], src: k.Src, dst: k.Dst, rel: k.RelType})
				continue
			}
			out = append(out, map[string]any{"eid": eids[i], "src": k.Src, "dst": k.Dst, "rel_type": k.RelType})
		}
		return out
	}
	changed := make([]any, 0, min(limit, len(d.NodesChanged)+len(d.EdgesChanged)))
	for _, n := range d.NodesChanged[:min(limit, len(d.NodesChanged))] {
		if typed {
			changed = append(changed, newDiffChangeRow(&diffChangeRow{node: true, id: n.UID,
				fromLabel: n.FromLabel, toLabel: n.ToLabel, from: n.From, to: n.To}))
			continue
		}
		changed = append(changed, map[string]any{"kind": "node", "id": n.UID,
			"from": map[string]any{"label": n.FromLabel, "props": n.From.Map()},
			"to":   map[string]any{"label": n.ToLabel, "props": n.To.Map()}})
	}
	eids, order := byEID(len(d.EdgesChanged), func(i int) bt.EdgeKey { return d.EdgesChanged[i].Key })
	for _, i := range order[:min(limit-len(changed), len(order))] {
		e := d.EdgesChanged[i]
		if typed {
			changed = append(changed, newDiffChangeRow(&diffChangeRow{id: eids[i], from: e.From, to: e.To}))
			continue
		}
		changed = append(changed, map[string]any{"kind": "edge", "id": eids[i],
			"from": map[string]any{"props": e.From.Map()},
			"to":   map[string]any{"props": e.To.Map()}})
	}
	totals := []int{len(d.NodesAdded), len(d.NodesRemoved), len(d.EdgesAdded), len(d.EdgesRemoved), len(d.NodesChanged) + len(d.EdgesChanged)}
	return map[string]any{
		"nodes_added":         uidList(d.NodesAdded),
		"nodes_added_total":   int64(totals[0]),
		"nodes_removed":       uidList(d.NodesRemoved),
		"nodes_removed_total": int64(totals[1]),
		"edges_added":         edgeList(d.EdgesAdded),
		"edges_added_total":   int64(totals[2]),
		"edges_removed":       edgeList(d.EdgesRemoved),
		"edges_removed_total": int64(totals[3]),
		"props_changed":       changed,
		"props_changed_total": int64(totals[4]),
		"truncated":           slices.Max(totals) > limit,
	}
}

// byEID returns the eids of n edge keys and their positions in eid order
// (a permutation is sorted, not the keys).
func byEID(n int, key func(i int) bt.EdgeKey) (eids []string, order []int32) {
	eids, order = make([]string, n), make([]int32, n)
	for i := range n {
		eids[i], order[i] = engine.EID(key(i)), int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(eids[a], eids[b]) })
	return eids, order
}
