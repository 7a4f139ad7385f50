package oracle

import (
	"math/big"
	"sort"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
)

func init() { register("resolve_entities", resolveEntities) }

// resolveEntities scores every believed node version, keeps the best score
// per uid, and reports the uid's latest believed version.
func resolveEntities(s *bt.MemStore, args map[string]any) (map[string]any, error) {
	tt := asOf(args)
	query, hasQuery := args["query"].(string)
	var critProp string
	var critVal any
	hasCrit := false
	if m, ok := args["prop"].(map[string]any); ok {
		critProp, _ = m["prop"].(string)
		critVal = m["value"]
		hasCrit = true
		switch critVal.(type) {
		case string, int64, float64, bool:
		default:
			return nil, Refused{"E_INVALID_ARG"}
		}
	}
	if !hasQuery && !hasCrit {
		return nil, Refused{"E_INVALID_ARG"}
	}
	if v, ok := args["at"]; ok && v != nil {
		return resolveAt(s, tt, num(v), query, hasQuery, critProp, critVal, hasCrit, args)
	}
	best := map[string]int64{}
	critOK := map[string]bool{}
	latest := map[string]bt.NodeVersion{}
	for _, n := range believedNodes(s, tt) {
		if l, ok := latest[n.UID]; !ok || n.Valid.Start > l.Valid.Start ||
			(n.Valid.Start == l.Valid.Start && vid(n.UID, n.TTs, n.Valid.Start) > vid(l.UID, l.TTs, l.Valid.Start)) {
			latest[n.UID] = n
		}
		props := n.Props.Map()
		if hasCrit {
			if v, ok := props[critProp]; ok && resolveCritOK(v, critVal) {
				critOK[n.UID] = true
			}
		}
		score := int64(-1)
		if hasQuery {
			name, isStr := props["name"].(string)
			switch {
			case n.UID == query:
				score = 0
			case strings.Contains(strings.ToLower(n.UID), strings.ToLower(query)):
				score = 1
			case isStr && name != "" && strings.Contains(strings.ToLower(name), strings.ToLower(query)):
				score = 2
			}
		} else {
			score = 3
		}
		if score < 0 {
			continue
		}
		if old, ok := best[n.UID]; !ok || score < old {
			best[n.UID] = score
		}
	}
	wantLabel, hasLabel := args["label"].(string)
	var rows []map[string]any
	for uid, score := range best {
		if hasCrit && !critOK[uid] {
			continue
		}
		can := latest[uid]
		if hasLabel && can.Label != wantLabel {
			continue
		}
		name, ok := can.Props.Map()["name"]
		if !ok {
			name = nil
		}
		rows = append(rows, map[string]any{"uid": uid, "label": can.Label, "name": name, "match": score})
	}
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a["match"].(int64) != b["match"].(int64) {
			return a["match"].(int64) < b["match"].(int64)
		}
		return a["uid"].(string) < b["uid"].(string)
	})
	return map[string]any{"rows": anyRows(rows)}, nil
}

func resolveCritOK(stored, want any) bool {
	switch w := want.(type) {
	case string:
		s, ok := stored.(string)
		return ok && strings.Contains(strings.ToLower(s), strings.ToLower(w))
	case bool:
		b, ok := stored.(bool)
		return ok && b == w
	}
	toRat := func(v any) (*big.Rat, bool) {
		switch x := v.(type) {
		case int64:
			return new(big.Rat).SetInt64(x), true
		case float64:
			return new(big.Rat).SetFloat64(x), true
		}
		return nil, false
	}
	a, ok1 := toRat(stored)
	b, ok2 := toRat(want)
	return ok1 && ok2 && a.Cmp(b) == 0
}

// resolveAt: names as of valid time at. Each uid's version valid at at
// (believed at tt) alone is scored and reported, with its interval.
func resolveAt(s *bt.MemStore, tt, at bt.Time, query string, hasQuery bool, critProp string, critVal any, hasCrit bool, args map[string]any) (map[string]any, error) {
	wantLabel, hasLabel := args["label"].(string)
	var rows []map[string]any
	for _, n := range believedNodes(s, tt) {
		if !(n.Valid.Start <= at && at < n.Valid.End) {
			continue
		}
		props := n.Props.Map()
		if hasCrit {
			if v, ok := props[critProp]; !ok || !resolveCritOK(v, critVal) {
				continue
			}
		}
		if hasLabel && n.Label != wantLabel {
			continue
		}
		score := int64(-1)
		name, isStr := props["name"].(string)
		switch {
		case !hasQuery:
			score = 3
		case n.UID == query:
			score = 0
		case strings.Contains(strings.ToLower(n.UID), strings.ToLower(query)):
			score = 1
		case isStr && name != "" && strings.Contains(strings.ToLower(name), strings.ToLower(query)):
			score = 2
		}
		if score < 0 {
			continue
		}
		nm, ok := props["name"]
		if !ok {
			nm = nil
		}
		rows = append(rows, map[string]any{"uid": n.UID, "label": n.Label, "name": nm, "match": score, "vt_s": n.Valid.Start, "vt_e": n.Valid.End})
	}
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a["match"].(int64) != b["match"].(int64) {
			return a["match"].(int64) < b["match"].(int64)
		}
		return a["uid"].(string) < b["uid"].(string)
	})
	return map[string]any{"rows": anyRows(rows)}, nil
}
