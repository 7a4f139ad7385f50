package oracle

import (
	"fmt"
	"math/big"
	"slices"
	"sort"
	"time"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
)

func init() { register("aggregate_events", aggregateEvents) }

var errInvalid = Refused{"E_INVALID_ARG"}

// aggOcc is one event (occurrence) of the population.
type aggOcc struct {
	t        bt.Time
	src, dst string
	rel      string
	props    map[string]any
	dur      bt.Time
	hasDur   bool
	eid      string
}

// aggregateEvents: validate, build the population with plain loops, list
// the group keys, then recompute every group from scratch over the whole
// population.
func aggregateEvents(s *bt.MemStore, args map[string]any) (map[string]any, error) {
	T := asOf(args)
	w := args["window"].(map[string]any)
	ta, tb := num(w["t_a"]), num(w["t_b"])
	gb, _ := args["group_by"].([]any)
	ags, _ := args["aggregates"].([]any)

	// --- validation, in the operator's order ---
	cols := map[string]bool{}
	addCols := func(cs ...string) bool {
		for _, c := range cs {
			if cols[c] {
				return false
			}
			cols[c] = true
		}
		return true
	}
	only := func(m map[string]any, keys ...string) bool {
		for k := range m {
			if !slices.Contains(keys, k) {
				return false
			}
		}
		return true
	}
	for _, x := range gb {
		m := x.(map[string]any)
		var cs []string
		switch m["dim"] {
		case "time_bucket":
			_, hs := m["stride"]
			_, hu := m["unit"]
			_, ho := m["utc_offset_minutes"]
			if hs == hu || hs && ho || hu && !ho || !only(m, "dim", "stride", "unit", "utc_offset_minutes") {
				return nil, errInvalid
			}
			if hs {
				cs = []string{"t_a", "t_b"}
			} else {
				cs = []string{"t_a", "t_b", "bucket"}
			}
		case "endpoint", "label":
			role, ok := m["role"].(string)
			if !ok || !only(m, "dim", "role") {
				return nil, errInvalid
			}
			name := map[string]string{"src": "src", "dst": "dst", "either": "node"}[role]
			if m["dim"] == "label" {
				name += "_label"
			}
			cs = []string{name}
		case "calendar_cycle":
			_, ho := m["utc_offset_minutes"]
			cy, hc := m["cycle"].(string)
			if !hc || !ho || !only(m, "dim", "cycle", "utc_offset_minutes") {
				return nil, errInvalid
			}
			cs = []string{cy}
		case "rel_type":
			if !only(m, "dim") {
				return nil, errInvalid
			}
			cs = []string{"rel_type"}
		case "pair":
			if !only(m, "dim", "pair_mode") {
				return nil, errInvalid
			}
			cs = []string{"src", "dst"}
			if m["pair_mode"] == "undirected" {
				cs = []string{"node_a", "node_b"}
			}
		}
		if !addCols(cs...) {
			return nil, errInvalid
		}
	}
	aggProp := ""
	readsProp := false
	for _, x := range ags {
		m := x.(map[string]any)
		agg := m["agg"].(string)
		of, _ := m["of"].(string)
		var col string
		ok := true
		switch agg {
		case "count":
			col, ok = "count", only(m, "agg")
		case "count_distinct":
			col = "distinct_" + of
			ok = slices.Contains([]string{"src", "dst", "node", "pair"}, of) && only(m, "agg", "of")
		case "sum", "mean", "min", "max":
			allowedOf := []string{"duration", "vt_s", "prop"}
			if agg == "sum" {
				allowedOf = []string{"duration", "prop"}
			}
			col = agg + "_" + of
			ok = slices.Contains(allowedOf, of)
			if ok && of == "prop" {
				p, has := m["prop"].(string)
				ok = has && only(m, "agg", "of", "prop") && (aggProp == "" || aggProp == p)
				aggProp, readsProp = p, true
			} else if ok {
				ok = only(m, "agg", "of")
			}
		case "first", "last":
			col = agg + "_" + of
			ok = (of == "src" || of == "dst") && only(m, "agg", "of")
		case "max_gap":
			col, ok = "max_gap", only(m, "agg")
		case "max_in_window":
			_, has := m["span"]
			col, ok = "max_in_window", has && only(m, "agg", "span")
		case "max_distinct_in_window":
			_, has := m["span"]
			col = "max_distinct_" + of + "_in_window"
			ok = has && slices.Contains([]string{"src", "dst", "node", "pair"}, of) && only(m, "agg", "of", "span")
		case "reply_delay":
			st, _ := m["stat"].(string)
			col = st + "_reply_delay"
			if st == "count" {
				col = "replied"
			}
			ok = st != "" && st != "sum" && only(m, "agg", "stat")
		case "first_k", "last_k":
			var p string
			col, p, ok = aggOracleKCol(m, only)
			if ok && p != "" {
				ok = aggProp == "" || aggProp == p
				aggProp, readsProp = p, true
			}
		case "returns":
			_, has := m["gap"]
			col, ok = "returns", has && only(m, "agg", "gap")
		case "max_session_span":
			_, has := m["gap"]
			col, ok = "max_session_span", has && only(m, "agg", "gap")
		}
		if !ok || !addCols(col) {
			return nil, errInvalid
		}
	}
	var epRole string
	var epUIDs map[string]bool
	if ef, ok := args["endpoint_filter"].(map[string]any); ok {
		epRole = ef["role"].(string)
		epUIDs = map[string]bool{}
		for _, u := range ef["uids"].([]any) {
			epUIDs[u.(string)] = true // unknown uids match no event
		}
	}
	pf, hasPF := args["prop_filter"].(map[string]any)
	if hasPF {
		v, hasV := pf["value"]
		cmp := pf["cmp"].(string)
		switch {
		case cmp == "exists":
			if hasV {
				return nil, errInvalid
			}
		case !hasV:
			return nil, errInvalid
		default:
			switch v.(type) {
			case int64, float64, string:
			case bool:
				if cmp != "eq" && cmp != "ne" {
					return nil, errInvalid
				}
			default:
				return nil, errInvalid
			}
		}
	}

	// --- population ---
	coercion := map[string]int64{}
	if hasPF {
		coercion[pf["prop"].(string)] += 0
	}
	if readsProp {
		coercion[aggProp] += 0
	}
	var rels map[string]bool
	if l, ok := args["rel_types"].([]any); ok {
		rels = map[string]bool{}
		for _, r := range l {
			rels[r.(string)] = true
		}
	}
	believed := believedEdges(s, T)
	var pop []aggOcc
	for _, e := range believed {
		if e.Valid.Start < ta || e.Valid.Start >= tb || continues(e, believed) {
			continue
		}
		if rels != nil && !rels[e.Key.RelType] {
			continue
		}
		if !authorityKeeps(args, e.Prov) {
			continue
		}
		if epUIDs != nil {
			in := epRole == "src" && epUIDs[e.Key.Src] || epRole == "dst" && epUIDs[e.Key.Dst] ||
				epRole == "either" && (epUIDs[e.Key.Src] || epUIDs[e.Key.Dst])
			if !in {
				continue
			}
		}
		props := e.Props.Map()
		if hasPF {
			keep, part := aggOracleFilter(props, pf)
			if !part {
				coercion[pf["prop"].(string)]++
			}
			if !keep {
				continue
			}
		}
		if readsProp && !aggIsNumber(props[aggProp]) {
			coercion[aggProp]++
		}
		o := aggOcc{t: e.Valid.Start, src: e.Key.Src, dst: e.Key.Dst, rel: e.Key.RelType, props: props, eid: eid(e.Key)}
		end := e.Valid.End
		for changed := true; changed; {
			changed = false
			for _, x := range believed {
				if x.Key == e.Key && x.Valid.Start == end && end < bt.OpenEnd {
					end, changed = x.Valid.End, true
				}
			}
		}
		if end < bt.OpenEnd {
			o.dur, o.hasDur = end-o.t, true
		}
		pop = append(pop, o)
	}

	// --- group keys ---
	label := func(uid string, t bt.Time) any {
		for _, n := range believedNodes(s, T) {
			if n.UID == uid && n.Valid.Contains(t) {
				return n.Label
			}
		}
		return nil
	}
	// keysOf lists the (distinct) group keys of an occurrence.
	keysOf := func(o aggOcc) [][]any {
		views := []string{o.src}
		if o.dst != o.src {
			views = append(views, o.dst)
		}
		var out [][]any
		for _, view := range views {
			var k []any
			for _, x := range gb {
				m := x.(map[string]any)
				pick := func() string {
					switch m["role"] {
					case "src":
						return o.src
					case "dst":
						return o.dst
					}
					return view
				}
				switch m["dim"] {
				case "time_bucket":
					if st, ok := m["stride"]; ok {
						k = append(k, ta+(o.t-ta)/num(st)*num(st))
					} else {
						start, _ := aggCalendar(m["unit"].(string), num(m["utc_offset_minutes"]), o.t)
						k = append(k, max(start, ta))
					}
				case "calendar_cycle":
					k = append(k, aggCycle(m["cycle"].(string), num(m["utc_offset_minutes"]), o.t))
				case "endpoint":
					k = append(k, pick())
				case "label":
					k = append(k, label(pick(), o.t))
				case "rel_type":
					k = append(k, o.rel)
				case "pair":
					a, b := o.src, o.dst
					if m["pair_mode"] == "undirected" && b < a {
						a, b = b, a
					}
					k = append(k, a, b)
				}
			}
			dup := false
			for _, prev := range out {
				if aggKeyString(prev) == aggKeyString(k) {
					dup = true
				}
			}
			if !dup {
				out = append(out, k)
			}
		}
		return out
	}
	keys := map[string][]any{}
	if len(gb) == 0 {
		keys["[]"] = []any{}
	}
	for _, o := range pop {
		for _, k := range keysOf(o) {
			keys[aggKeyString(k)] = k
		}
	}

	// --- every group from scratch ---
	var rows []map[string]any
	for ks, key := range keys {
		var members []aggOcc
		for _, o := range pop {
			for _, k := range keysOf(o) {
				if aggKeyString(k) == ks {
					members = append(members, o)
					break
				}
			}
		}
		row := map[string]any{"group_key": key}
		i := 0
		for _, x := range gb {
			m := x.(map[string]any)
			switch m["dim"] {
			case "time_bucket":
				start := key[i].(int64)
				if st, ok := m["stride"]; ok {
					row["t_a"], row["t_b"] = start, min(start+num(st), tb)
				} else {
					rep := members[0].t
					s0, e0 := aggCalendar(m["unit"].(string), num(m["utc_offset_minutes"]), rep)
					row["t_a"], row["t_b"] = max(s0, ta), min(e0, tb)
					row["bucket"] = aggCalName(m["unit"].(string), num(m["utc_offset_minutes"]), rep)
				}
			case "endpoint", "label":
				name := map[any]string{"src": "src", "dst": "dst", "either": "node"}[m["role"]]
				if m["dim"] == "label" {
					name += "_label"
				}
				row[name] = key[i]
			case "calendar_cycle":
				row[m["cycle"].(string)] = key[i]
			case "rel_type":
				row["rel_type"] = key[i]
			case "pair":
				if m["pair_mode"] == "undirected" {
					row["node_a"], row["node_b"] = key[i], key[i+1]
				} else {
					row["src"], row["dst"] = key[i], key[i+1]
				}
				i++
			}
			i++
		}
		for _, x := range ags {
			m := x.(map[string]any)
			agg, _ := m["agg"].(string)
			of, _ := m["of"].(string)
			switch agg {
			case "first", "last":
				// every member, compared with every other: the earliest (or
				// latest) time, then the smallest src, then dst
				var best *aggOcc
				for j := range members {
					o := &members[j]
					if best == nil {
						best = o
						continue
					}
					better := o.t < best.t
					if agg == "last" {
						better = o.t > best.t
					}
					if o.t == best.t {
						better = o.src < best.src || o.src == best.src && o.dst < best.dst
					}
					if better {
						best = o
					}
				}
				var v any
				if best != nil {
					v = map[string]string{"src": best.src, "dst": best.dst}[of]
				}
				row[agg+"_"+of] = v
			case "count":
				row["count"] = int64(len(members))
			case "count_distinct":
				set := map[string]bool{}
				for _, o := range members {
					switch of {
					case "src":
						set[o.src] = true
					case "dst":
						set[o.dst] = true
					case "node":
						set[o.src], set[o.dst] = true, true
					case "pair":
						set[o.src+"\x00"+o.dst] = true
					}
				}
				row["distinct_"+of] = int64(len(set))
			case "sum", "mean", "min", "max":
				var vals []any
				for _, o := range members {
					switch of {
					case "duration":
						if o.hasDur {
							vals = append(vals, o.dur)
						}
					case "vt_s":
						vals = append(vals, o.t)
					case "prop":
						if v := o.props[aggProp]; aggIsNumber(v) {
							vals = append(vals, v)
						}
					}
				}
				row[agg+"_"+of] = aggOracleNumeric(agg, vals)
			case "first_k", "last_k":
				col, _, _ := aggOracleKCol(m, only)
				row[col] = aggOracleK(members, m, aggProp)
			case "returns":
				// sort the times, then count every step over the gap
				var ts []int64
				for _, o := range members {
					ts = append(ts, o.t)
				}
				slices.Sort(ts)
				n := int64(0)
				for j := 1; j < len(ts); j++ {
					if ts[j]-ts[j-1] > num(m["gap"]) {
						n++
					}
				}
				row["returns"] = n
			case "reply_delay":
				st := m["stat"].(string)
				col := st + "_reply_delay"
				if st == "count" {
					col = "replied"
				}
				row[col] = aggOracleReplyStat(members, pop, st)
			case "max_distinct_in_window":
				row["max_distinct_"+of+"_in_window"] = aggOracleWindowDistinct(members, of, min(num(m["span"]), tb-ta))
			case "max_gap", "max_in_window", "max_session_span":
				var ts []int64
				for _, o := range members {
					ts = append(ts, o.t)
				}
				slices.Sort(ts)
				switch agg {
				case "max_gap":
					var best any
					for j := 1; j < len(ts); j++ {
						if best == nil || ts[j]-ts[j-1] > best.(int64) {
							best = ts[j] - ts[j-1]
						}
					}
					row["max_gap"] = best
				case "max_in_window":
					span := min(num(m["span"]), tb-ta)
					best := int64(0)
					for _, a := range ts {
						n := int64(0)
						for _, b := range ts {
							if a <= b && b < a+span {
								n++
							}
						}
						best = max(best, n)
					}
					row["max_in_window"] = best
				case "max_session_span":
					var best any
					first := int64(0)
					for j, t := range ts {
						if j == 0 || t-ts[j-1] > num(m["gap"]) {
							first = t
						}
						if best == nil || t-first > best.(int64) {
							best = t - first
						}
					}
					row["max_session_span"] = best
				}
			}
		}
		rows = append(rows, row)
	}
	sort.Slice(rows, func(i, j int) bool { return aggLessKey(rows[i]["group_key"].([]any), rows[j]["group_key"].([]any)) })
	groups := int64(len(rows))
	rows, err := aggOraclePost(args, cols, rows)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"rows": anyRows(rows)}
	if _, h := args["having"].([]any); h || args["top"] != nil {
		out["groups_total"] = groups
	}
	if hasPF || readsProp {
		pc := map[string]any{}
		for k, v := range coercion {
			pc[k] = v
		}
		out["prop_coercion"] = pc
	}
	return out, nil
}

func aggKeyString(k []any) string {
	b, _ := canon.Marshal(k)
	return string(b)
}

func aggLessKey(a, b []any) bool {
	for i := range a {
		x, y := a[i], b[i]
		switch {
		case x == nil && y == nil:
			continue
		case x == nil:
			return true
		case y == nil:
			return false
		}
		switch xv := x.(type) {
		case int64:
			if xv != y.(int64) {
				return xv < y.(int64)
			}
		case string:
			if xv != y.(string) {
				return xv < y.(string)
			}
		}
	}
	return false
}

func aggIsNumber(v any) bool {
	switch v.(type) {
	case int64, float64:
		return true
	}
	return false
}

func aggRat(v any) *big.Rat {
	switch x := v.(type) {
	case int64:
		return new(big.Rat).SetInt64(x)
	case float64:
		return new(big.Rat).SetFloat64(x)
	}
	return nil
}

// aggOracleNumeric computes sum/mean/min/max with rationals.
func aggOracleNumeric(agg string, vals []any) any {
	if len(vals) == 0 {
		return nil
	}
	switch agg {
	case "sum", "mean":
		sum := new(big.Rat)
		allInt := true
		for _, v := range vals {
			sum.Add(sum, aggRat(v))
			if _, ok := v.(float64); ok {
				allInt = false
			}
		}
		if agg == "mean" {
			f, _ := sum.Quo(sum, new(big.Rat).SetInt64(int64(len(vals)))).Float64()
			return f
		}
		if allInt && sum.Num().IsInt64() {
			return sum.Num().Int64()
		}
		f, _ := sum.Float64()
		return f
	}
	best := vals[0]
	for _, v := range vals[1:] {
		c := aggRat(v).Cmp(aggRat(best))
		_, vInt := v.(int64)
		_, bFloat := best.(float64)
		if agg == "min" && c < 0 || agg == "max" && c > 0 || c == 0 && vInt && bFloat {
			best = v
		}
	}
	return best
}

// aggOracleFilter evaluates the typed predicate; part=false when the stored
// value is not of the literal's class.
func aggOracleFilter(props map[string]any, pf map[string]any) (keep, part bool) {
	v, has := props[pf["prop"].(string)]
	lit := pf["value"]
	cmp := pf["cmp"].(string)
	if cmp == "exists" {
		return has && v != nil, true
	}
	class := func(x any) string {
		switch x.(type) {
		case int64, float64:
			return "number"
		case string:
			return "string"
		case bool:
			return "bool"
		}
		return ""
	}
	if !has || class(v) == "" || class(v) != class(lit) {
		return false, false
	}
	var c int
	switch class(v) {
	case "number":
		c = aggRat(v).Cmp(aggRat(lit))
	case "string":
		switch {
		case v.(string) < lit.(string):
			c = -1
		case v.(string) > lit.(string):
			c = 1
		}
	case "bool":
		if v != lit {
			c = 1
		}
	}
	return map[string]bool{"eq": c == 0, "ne": c != 0, "lt": c < 0, "le": c <= 0, "gt": c > 0, "ge": c >= 0}[cmp], true
}

// aggCalendar returns the UTC bounds (µs) of the calendar bucket holding t,
// computed with the time package in a fixed zone.
func aggCalendar(unit string, offMin int64, t bt.Time) (bt.Time, bt.Time) {
	zone := time.FixedZone("", int(offMin*60))
	lt := time.UnixMicro(t).In(zone)
	var start time.Time
	var next time.Time
	switch unit {
	case "day":
		start = time.Date(lt.Year(), lt.Month(), lt.Day(), 0, 0, 0, 0, zone)
		next = start.AddDate(0, 0, 1)
	case "week":
		back := (int(lt.Weekday()) + 6) % 7 // days since Monday
		start = time.Date(lt.Year(), lt.Month(), lt.Day()-back, 0, 0, 0, 0, zone)
		next = start.AddDate(0, 0, 7)
	case "month":
		start = time.Date(lt.Year(), lt.Month(), 1, 0, 0, 0, 0, zone)
		next = start.AddDate(0, 1, 0)
	default:
		start = time.Date(lt.Year(), 1, 1, 0, 0, 0, 0, zone)
		next = start.AddDate(1, 0, 0)
	}
	return start.UnixMicro(), next.UnixMicro()
}

func aggCalName(unit string, offMin int64, t bt.Time) string {
	s, _ := aggCalendar(unit, offMin, t)
	lt := time.UnixMicro(s).In(time.FixedZone("", int(offMin*60)))
	switch unit {
	case "day":
		return fmt.Sprintf("%04d-%02d-%02d", lt.Year(), int(lt.Month()), lt.Day())
	case "week":
		y, wk := lt.ISOWeek()
		return fmt.Sprintf("%04d-W%02d", y, wk)
	case "month":
		return fmt.Sprintf("%04d-%02d", lt.Year(), int(lt.Month()))
	}
	return fmt.Sprintf("%04d", lt.Year())
}

// aggCycle reads the position in a calendar cycle off the local time the
// standard library computes.
func aggCycle(cycle string, offMin int64, t bt.Time) int64 {
	lt := time.UnixMicro(t).In(time.FixedZone("", int(offMin)*60))
	switch cycle {
	case "hour_of_day":
		return int64(lt.Hour())
	case "day_of_week":
		return int64((int(lt.Weekday())+6)%7 + 1)
	case "day_of_month":
		return int64(lt.Day())
	}
	return int64(lt.Month())
}

// aggOracleWindowDistinct tries every window [t, t + span) starting at a
// member's time and counts the distinct values in it.
func aggOracleWindowDistinct(members []aggOcc, of string, span int64) int64 {
	best := int64(0)
	for _, a := range members {
		set := map[string]bool{}
		for _, o := range members {
			if o.t < a.t || o.t >= a.t+span {
				continue
			}
			switch of {
			case "src":
				set[o.src] = true
			case "dst":
				set[o.dst] = true
			case "node":
				set[o.src], set[o.dst] = true, true
			case "pair":
				set[o.src+"\x00"+o.dst] = true
			}
		}
		best = max(best, int64(len(set)))
	}
	return best
}

// aggOracleReplyStat: for every member a→b, look through the whole
// population for the earliest b→a strictly after it; then the statistic
// of those delays.
func aggOracleReplyStat(members, pop []aggOcc, stat string) any {
	var ds []int64
	for _, e := range members {
		found, best := false, int64(0)
		for _, f := range pop {
			if f.src == e.dst && f.dst == e.src && f.t > e.t && (!found || f.t-e.t < best) {
				found, best = true, f.t-e.t
			}
		}
		if found {
			ds = append(ds, best)
		}
	}
	if stat == "count" {
		return int64(len(ds))
	}
	if len(ds) == 0 {
		return nil
	}
	slices.Sort(ds)
	switch stat {
	case "min":
		return ds[0]
	case "max":
		return ds[len(ds)-1]
	case "median":
		return ds[(len(ds)-1)/2]
	}
	vals := make([]any, len(ds))
	for i, d := range ds {
		vals[i] = d
	}
	return aggOracleNumeric("mean", vals)
}
