package oracle

import (
	"slices"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
)

func init() { register("entity_history", entityHistory) }

func entityHistory(s *bt.MemStore, args map[string]any) (map[string]any, error) {
	uid, _ := args["uid"].(string)
	tt := asOf(args)
	if !known(s, uid, tt) {
		return nil, NotFound{uid}
	}
	var rows []map[string]any
	for _, n := range believedNodes(s, tt) {
		if n.UID != uid || !authorityKeeps(args, n.Prov) {
			continue
		}
		row := map[string]any{
			"uid": n.UID, "vid": vid(n.UID, n.TTs, n.Valid.Start), "label": n.Label, "props": n.Props.Map(),
			"vt_s": n.Valid.Start, "vt_e": n.Valid.End, "tt_s": n.TTs, "tt_e": bt.OpenEnd, "created_by": n.CreatedBy.String(),
		}
		addProvenance(row, args, n.Prov, nil, false)
		rows = append(rows, row)
	}
	byStartVID := func(a, b map[string]any) int {
		if x, y := a["vt_s"].(int64), b["vt_s"].(int64); x != y {
			if x < y {
				return -1
			}
			return 1
		}
		return strings.Compare(a["vid"].(string), b["vid"].(string))
	}
	slices.SortFunc(rows, byStartVID)
	out := map[string]any{"rows": anyRows(rows)}
	if inc, _ := args["include_edges"].(bool); inc {
		var edges []map[string]any
		for _, e := range believedEdges(s, tt) {
			if (e.Key.Src == uid || e.Key.Dst == uid) && authorityKeeps(args, e.Prov) {
				row := edgeRow(e)
				addProvenance(row, args, e.Prov, nil, false)
				edges = append(edges, row)
			}
		}
		slices.SortFunc(edges, byStartVID)
		limit := int(num(args["limit"]))
		out["edges_total"] = int64(len(edges))
		out["edges_truncated"] = len(edges) > limit
		out["edges"] = anyRows(edges[:min(limit, len(edges))])
	}
	return out, nil
}
