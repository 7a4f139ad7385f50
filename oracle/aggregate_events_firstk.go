package oracle

import (
	"slices"
	"strings"
)

// aggOracleKCol validates a first_k/last_k aggregate and names its column;
// prop is the property it reads ("" for none).
func aggOracleKCol(m map[string]any, only func(map[string]any, ...string) bool) (col, prop string, ok bool) {
	agg := m["agg"].(string)
	st, _ := m["stat"].(string)
	of, _ := m["of"].(string)
	if _, hasK := m["k"]; !hasK || !slices.Contains([]string{"count", "sum", "mean", "min", "max"}, st) {
		return "", "", false
	}
	if st == "count" {
		return "count_" + agg, "", only(m, "agg", "stat", "k")
	}
	allowedOf := []string{"duration", "vt_s", "prop"}
	if st == "sum" {
		allowedOf = []string{"duration", "prop"}
	}
	if !slices.Contains(allowedOf, of) {
		return "", "", false
	}
	if of == "prop" {
		p, has := m["prop"].(string)
		return st + "_prop_" + agg, p, has && only(m, "agg", "stat", "k", "of", "prop")
	}
	return st + "_" + of + "_" + agg, "", only(m, "agg", "stat", "k", "of")
}

// aggOracleK sorts a copy of the group's members by the aggregate's order
// (first_k: time ascending; last_k: time descending; ties by src, dst,
// eid ascending), keeps the first k, and computes stat over them.
func aggOracleK(members []aggOcc, m map[string]any, prop string) any {
	sorted := slices.Clone(members)
	last := m["agg"] == "last_k"
	slices.SortFunc(sorted, func(a, b aggOcc) int {
		if a.t != b.t {
			if (a.t < b.t) != last {
				return -1
			}
			return 1
		}
		if c := strings.Compare(a.src, b.src); c != 0 {
			return c
		}
		if c := strings.Compare(a.dst, b.dst); c != 0 {
			return c
		}
		return strings.Compare(a.eid, b.eid)
	})
	sorted = sorted[:min(int64(len(sorted)), num(m["k"]))]
	st, _ := m["stat"].(string)
	if st == "count" {
		return int64(len(sorted))
	}
	var vals []any
	for _, o := range sorted {
		switch m["of"] {
		case "duration":
			if o.hasDur {
				vals = append(vals, o.dur)
			}
		case "vt_s":
			vals = append(vals, o.t)
		case "prop":
			if v := o.props[prop]; aggIsNumber(v) {
				vals = append(vals, v)
			}
		}
	}
	return aggOracleNumeric(st, vals)
}
