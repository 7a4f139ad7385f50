package ops

import (
	"slices"
	"strconv"
	"unsafe"
)

// Post-aggregation: having, order_by and top narrow and order the groups
// inside the operator, so a large grouping leaves it already reduced.

// aggPred is one having predicate: col cmp value.
type aggPred struct {
	col, cmp string
	val      any // int64 or float64
}

// aggOrder is one order_by key.
type aggOrder struct {
	col  string
	desc bool
}

// aggParsePost reads having, order_by and top; cols maps every output
// column to the argument that produces it, aggCols the aggregate columns.
func aggParsePost(c *Call, p *aggPlan, cols map[string]string, aggCols map[string]bool) error {
	hv, _ := c.Args["having"].([]any)
	for i, x := range hv {
		m := x.(map[string]any)
		path := "/having/" + strconv.Itoa(i)
		col, _ := m["col"].(string)
		if !aggCols[col] {
			return aggErr(path+"/col", "name an aggregate column of this call: "+aggColList(aggCols),
				"having reads aggregate columns only; %q is not one of this call's", col)
		}
		v := m["value"]
		if !computeIsNum(v) {
			return aggErr(path+"/value", "compare with a number", "having value must be a number, got %s", kindOf(v))
		}
		p.having = append(p.having, aggPred{col: col, cmp: m["cmp"].(string), val: v})
	}
	ob, _ := c.Args["order_by"].([]any)
	for i, x := range ob {
		m := x.(map[string]any)
		path := "/order_by/" + strconv.Itoa(i)
		col, _ := m["col"].(string)
		if _, ok := cols[col]; !ok {
			return aggErr(path+"/col", "order by a column of this call: "+aggColList(cols),
				"order_by column %q is not produced by this call", col)
		}
		p.order = append(p.order, aggOrder{col: col, desc: m["dir"] == "desc"})
	}
	if c.Has("top") {
		p.top = c.Int("top")
	}
	// The bytes one group holds while the call runs: its accumulator and
	// its output row (48 per object, 16 + key per member, about 24 per value).
	row := int64(48 + 24 + 16 + len("group_key") + 24*p.slots)
	for col := range cols {
		row += 16 + int64(len(col)) + 24
	}
	p.rowBytes = row + int64(unsafe.Sizeof(aggGroup{})) + 16
	if p.needSrc != [aggNumSrcs]bool{} {
		p.rowBytes += int64(unsafe.Sizeof([aggNumSrcs]aggAcc{}))
	}
	return nil
}

func aggColList[V any](cols map[string]V) string {
	names := make([]string, 0, len(cols))
	for c := range cols {
		names = append(names, c)
	}
	slices.Sort(names)
	out := ""
	for i, n := range names {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}

// aggNarrow applies having, order_by and top to rows in group_key order.
// Ordered rows get their 1-based rank.
func aggNarrow(p *aggPlan, rows []map[string]any) []map[string]any {
	if len(p.having) > 0 {
		kept := rows[:0]
		for _, r := range rows {
			if p.keep(r) {
				kept = append(kept, r)
			}
		}
		rows = kept
	}
	if len(p.order) > 0 {
		slices.SortStableFunc(rows, func(x, y map[string]any) int {
			for _, o := range p.order {
				if c := aggOrderCmp(x[o.col], y[o.col], o.desc); c != 0 {
					return c
				}
			}
			return 0 // stable: ties stay in group_key order
		})
	}
	if p.top > 0 && int64(len(rows)) > p.top {
		rows = rows[:p.top]
	}
	if len(p.order) > 0 {
		for i, r := range rows {
			r["rank"] = int64(i + 1)
		}
	}
	return rows
}

// keep reports whether a row passes every having predicate; a null
// aggregate (no value took part) passes none.
func (p *aggPlan) keep(r map[string]any) bool {
	for _, h := range p.having {
		v := r[h.col]
		if !computeIsNum(v) {
			return false
		}
		c := computeCmpNum(v, h.val)
		var ok bool
		switch h.cmp {
		case "eq":
			ok = c == 0
		case "ne":
			ok = c != 0
		case "lt":
			ok = c < 0
		case "le":
			ok = c <= 0
		case "gt":
			ok = c > 0
		default:
			ok = c >= 0
		}
		if !ok {
			return false
		}
	}
	return true
}

// aggOrderCmp orders two values of one column: nulls last in either
// direction, numbers by exact value, strings by bytes.
func aggOrderCmp(a, b any, desc bool) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return 1
	case b == nil:
		return -1
	}
	var c int
	if computeIsNum(a) && computeIsNum(b) {
		c = computeCmpNum(a, b)
	} else {
		c = compareValues(a, b)
	}
	if desc {
		return -c
	}
	return c
}
