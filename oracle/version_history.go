package oracle

import (
	"sort"

	"github.com/tgms-go/tgms/canon"

	bt "github.com/tgms-go/tgms/bitemporal"
)

func init() { register("version_history", versionHistory) }

// versionHistory walks every stored row of the kind, as the store knew it
// at T: rows written after T do not exist; rows closed after T look open.
func versionHistory(s *bt.MemStore, args map[string]any) (map[string]any, error) {
	T := bt.ClampTT(asOf(args))
	kind, _ := args["kind"].(string)
	w, _ := args["window"].(map[string]any)
	ta, tb := num(w["t_a"]), num(w["t_b"])
	belief, _ := args["belief"].(string)
	want, _ := args["change"].(string)
	if belief == "" {
		belief = "current"
		if want != "any" {
			belief = "superseded"
		}
	} else if belief == "current" && want != "any" {
		return nil, Refused{"E_INVALID_ARG"}
	}
	if kind == "node" && (args["rel_types"] != nil || args["eid"] != nil) {
		return nil, Refused{"E_INVALID_ARG"}
	}
	var uids map[string]bool
	if l, ok := args["uids"].([]any); ok {
		uids = map[string]bool{}
		for _, u := range l {
			uids[u.(string)] = true // unknown uids match no row
		}
	}
	var rels map[string]bool
	if l, ok := args["rel_types"].([]any); ok {
		rels = map[string]bool{}
		for _, r := range l {
			rels[r.(string)] = true
		}
	}
	wantEID, hasEID := args["eid"].(string)

	// closing columns and the belief/closed_by decision
	closing := func(tte bt.Time, by bt.OpKind) (bt.Time, any, any) {
		if tte <= T {
			if by == bt.OpCorrect {
				return tte, by.String(), "correction"
			}
			return tte, by.String(), "evolution"
		}
		return bt.OpenEnd, nil, nil
	}
	keep := func(change any) bool {
		if belief == "current" && change != nil || belief == "superseded" && change == nil {
			return false
		}
		if want != "any" && change != want {
			return false
		}
		return true
	}
	var rows []map[string]any
	if kind == "node" {
		for _, n := range s.Nodes {
			if n.TTs > T || !(n.Valid.Start < tb && ta < n.Valid.End) {
				continue
			}
			if uids != nil && !uids[n.UID] {
				continue
			}
			tte, cb, ch := closing(n.TTe, n.ClosedBy)
			if !keep(ch) || !authorityKeeps(args, n.Prov) {
				continue
			}
			row := map[string]any{"vid": vid(n.UID, n.TTs, n.Valid.Start), "uid": n.UID, "label": n.Label,
				"vt_s": n.Valid.Start, "vt_e": n.Valid.End, "tt_s": n.TTs, "tt_e": tte,
				"created_by": n.CreatedBy.String(), "closed_by": cb, "change": ch, "props": propsValue(n.Props)}
			addProvenance(row, args, n.Prov, n.ClosedProv, cb != nil)
			rows = append(rows, row)
		}
	} else {
		for _, e := range s.Edges {
			if e.TTs > T || !(e.Valid.Start < tb && ta < e.Valid.End) {
				continue
			}
			if rels != nil && !rels[e.Key.RelType] {
				continue
			}
			if uids != nil && !uids[e.Key.Src] && !uids[e.Key.Dst] {
				continue
			}
			id := eid(e.Key)
			if hasEID && id != wantEID {
				continue
			}
			tte, cb, ch := closing(e.TTe, e.ClosedBy)
			if !keep(ch) || !authorityKeeps(args, e.Prov) {
				continue
			}
			row := map[string]any{"vid": vid(id, e.TTs, e.Valid.Start), "eid": id,
				"src": e.Key.Src, "dst": e.Key.Dst, "rel_type": e.Key.RelType, "disc": e.Key.Disc,
				"vt_s": e.Valid.Start, "vt_e": e.Valid.End, "tt_s": e.TTs, "tt_e": tte,
				"created_by": e.CreatedBy.String(), "closed_by": cb, "change": ch, "props": propsValue(e.Props)}
			addProvenance(row, args, e.Prov, e.ClosedProv, cb != nil)
			rows = append(rows, row)
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a["tt_s"].(int64) != b["tt_s"].(int64) {
			return a["tt_s"].(int64) < b["tt_s"].(int64)
		}
		return a["vid"].(string) < b["vid"].(string)
	})
	var corrections, evolutions int64
	for _, r := range rows {
		if r["change"] == "correction" {
			corrections++
		} else if r["change"] == "evolution" {
			evolutions++
		}
	}
	return map[string]any{"rows": anyRows(rows), "correction_total": corrections, "evolution_total": evolutions}, nil
}

// propsValue decodes a property bag ("" and {} alike: no props are null
// only when empty text).
func propsValue(p bt.Props) any {
	if p == "" {
		return nil
	}
	v, err := canon.Parse([]byte(p))
	if err != nil {
		return nil
	}
	return v
}
