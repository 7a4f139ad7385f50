package oracle

import (
	"math/big"
	"slices"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// Brute-force oracle of temporal_pattern: list the window's events, then
// try every event for every hop in turn (a literal nested enumeration of
// event tuples, each hop checked against all constraints with the hops
// before it), and sort the instances.

func init() { register("temporal_pattern", temporalPattern) }

const patternDayUS = 86_400_000_000

type patternEvent struct {
	e   bt.EdgeVersion
	eid string
}

type patternPred struct {
	prop, cmp string
	lit       any
}

type patternHop struct {
	src, dst string
	rel      *string
	where    []patternPred
	first    bool
}

type patternQuery struct {
	hops           []patternHop
	bind           map[string]map[string]bool
	order          string
	within, minGap int64 // -1: none
	span           int64
	sameDay        bool
	offset         int64
	distinct       bool
}

func patternParse(args map[string]any) (*patternQuery, error) {
	bad := Refused{"E_INVALID_ARG"}
	q := &patternQuery{order: args["order"].(string), distinct: args["distinct"].(bool), within: -1, minGap: -1, span: -1}
	used := map[string]bool{}
	for i, x := range args["hops"].([]any) {
		m := x.(map[string]any)
		h := patternHop{src: m["src"].(string), dst: m["dst"].(string)}
		if h.src == h.dst {
			return nil, bad
		}
		if r, ok := m["rel_type"].(string); ok {
			h.rel = &r
		}
		if p, _ := m["pick"].(string); p == "first" {
			if i == 0 {
				return nil, bad
			}
			h.first = true
		}
		wl, _ := m["where"].([]any)
		for _, wx := range wl {
			w := wx.(map[string]any)
			p := patternPred{prop: w["prop"].(string), cmp: w["cmp"].(string)}
			v, has := w["value"]
			if p.cmp == "exists" {
				if has {
					return nil, bad
				}
			} else {
				switch v.(type) {
				case int64, float64, string:
				case bool:
					if p.cmp != "eq" && p.cmp != "ne" {
						return nil, bad
					}
				default: // absent, null, object, array
					return nil, bad
				}
				p.lit = v
			}
			h.where = append(h.where, p)
		}
		used[h.src], used[h.dst] = true, true
		q.hops = append(q.hops, h)
	}
	if b, ok := args["bind"].(map[string]any); ok {
		q.bind = map[string]map[string]bool{}
		for v, l := range b {
			if !used[v] {
				return nil, bad
			}
			set := map[string]bool{}
			for _, u := range l.([]any) {
				set[u.(string)] = true
			}
			q.bind[v] = set
		}
	}
	for k, dst := range map[string]*int64{"within": &q.within, "min_gap": &q.minGap, "span": &q.span} {
		if v, ok := args[k]; ok && v != nil {
			*dst = num(v)
		}
	}
	if q.within >= 0 && q.minGap > q.within {
		return nil, bad
	}
	if sd, ok := args["same_day"].(map[string]any); ok {
		q.sameDay, q.offset = true, num(sd["utc_offset_minutes"])*60_000_000
	}
	return q, nil
}

// patternTest evaluates one where predicate: numbers compare exactly
// across integers and floats, strings by code point, booleans only for
// equality; a missing value or one of another class fails.
func patternTest(p patternPred, props map[string]any) bool {
	v, has := props[p.prop]
	if p.cmp == "exists" {
		return has && v != nil
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
		return "other"
	}
	if !has || class(v) != class(p.lit) {
		return false
	}
	var c int
	switch x := v.(type) {
	case string:
		c = strings.Compare(x, p.lit.(string))
	case bool:
		if x != p.lit.(bool) {
			c = 1
		}
	default:
		rat := func(y any) *big.Rat {
			if i, ok := y.(int64); ok {
				return new(big.Rat).SetInt64(i)
			}
			return new(big.Rat).SetFloat64(y.(float64))
		}
		c = rat(v).Cmp(rat(p.lit))
	}
	return map[string]bool{"eq": c == 0, "ne": c != 0, "lt": c < 0, "le": c <= 0, "gt": c > 0, "ge": c >= 0}[p.cmp]
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func temporalPattern(s *bt.MemStore, args map[string]any) (map[string]any, error) {
	q, err := patternParse(args)
	if err != nil {
		return nil, err
	}
	tt := asOf(args)
	w, _ := args["window"].(map[string]any)
	ta, tb := num(w["t_a"]), num(w["t_b"])
	believed := believedEdges(s, tt)
	var evs []patternEvent
	total := int64(0)
	for _, e := range believed {
		if e.Valid.Start < ta || e.Valid.Start >= tb || continues(e, believed) {
			continue
		}
		total++
		if e.Key.Src != e.Key.Dst {
			evs = append(evs, patternEvent{e, eid(e.Key)})
		}
	}
	before := func(a, b patternEvent) int {
		if a.e.Valid.Start != b.e.Valid.Start {
			if a.e.Valid.Start < b.e.Valid.Start {
				return -1
			}
			return 1
		}
		return strings.Compare(a.eid, b.eid)
	}
	slices.SortFunc(evs, before)

	// fitsHop: event k as hop i after the events chosen so far, with the
	// variables bound so far.
	fitsHop := func(i, k int, chosen []int, bound map[string]string) (map[string]string, bool) {
		h, e := q.hops[i], evs[k]
		if slices.Contains(chosen, k) {
			return nil, false
		}
		if h.rel != nil && e.e.Key.RelType != *h.rel {
			return nil, false
		}
		props := bt.Props(e.e.Props).Map()
		for _, p := range h.where {
			if !patternTest(p, props) {
				return nil, false
			}
		}
		nb := map[string]string{}
		for v, n := range bound {
			nb[v] = n
		}
		for _, side := range [][2]string{{h.src, e.e.Key.Src}, {h.dst, e.e.Key.Dst}} {
			v, n := side[0], side[1]
			if have, ok := nb[v]; ok && have != n {
				return nil, false
			}
			if set, ok := q.bind[v]; ok && !set[n] {
				return nil, false
			}
			nb[v] = n
		}
		if q.distinct {
			seen := map[string]bool{}
			for _, n := range nb {
				if seen[n] {
					return nil, false
				}
				seen[n] = true
			}
		}
		if i == 0 {
			return nb, true
		}
		t, tp := e.e.Valid.Start, evs[chosen[i-1]].e.Valid.Start
		gap := t - tp
		switch q.order {
		case "sequence":
			if k <= chosen[i-1] {
				return nil, false
			}
		case "strict":
			if t <= tp {
				return nil, false
			}
		default:
			if gap < 0 {
				gap = -gap
			}
		}
		if q.within >= 0 && gap > q.within || q.minGap >= 0 && gap < q.minGap {
			return nil, false
		}
		lo, hi := t, t
		for _, c := range chosen {
			lo, hi = min(lo, evs[c].e.Valid.Start), max(hi, evs[c].e.Valid.Start)
		}
		if q.span >= 0 && hi-lo > q.span {
			return nil, false
		}
		if q.sameDay {
			d0 := floorDiv(evs[chosen[0]].e.Valid.Start+q.offset, patternDayUS)
			if floorDiv(t+q.offset, patternDayUS) != d0 {
				return nil, false
			}
		}
		return nb, true
	}

	var found [][]int
	var walk func(i int, chosen []int, bound map[string]string)
	walk = func(i int, chosen []int, bound map[string]string) {
		if i == len(q.hops) {
			found = append(found, slices.Clone(chosen))
			return
		}
		for k := range evs {
			nb, ok := fitsHop(i, k, chosen, bound)
			if !ok {
				continue
			}
			walk(i+1, append(chosen, k), nb)
			if q.hops[i].first { // evs is in (t, eid) order: k is the earliest fit
				break
			}
		}
	}
	walk(0, nil, map[string]string{})

	slices.SortFunc(found, func(a, b []int) int {
		for i := range a {
			if c := before(evs[a[i]], evs[b[i]]); c != 0 {
				return c
			}
		}
		return 0
	})
	out := map[string]any{"count": int64(len(found)), "n_events_in_window": total, "rows": []any{}}
	if args["output"] == "count" {
		return out, nil
	}
	rows := make([]any, len(found))
	for r, inst := range found {
		row := map[string]any{}
		hops := make([]any, len(inst))
		for i, k := range inst {
			e := evs[k]
			row[q.hops[i].src], row[q.hops[i].dst] = e.e.Key.Src, e.e.Key.Dst
			hops[i] = map[string]any{"src": e.e.Key.Src, "dst": e.e.Key.Dst, "rel_type": e.e.Key.RelType,
				"eid": e.eid, "t": e.e.Valid.Start, "props": bt.Props(e.e.Props).Map()}
		}
		row["hops"] = hops
		rows[r] = row
	}
	out["rows"] = rows
	return out, nil
}
