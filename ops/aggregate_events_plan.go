package ops

import (
	"fmt"
	"slices"
	"strconv"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// Dimension and aggregate plans.
const (
	aggDimTime = iota
	aggDimEndpoint
	aggDimLabel
	aggDimRel
	aggDimPair
	aggDimCycle
)

const (
	aggRoleSrc = iota
	aggRoleDst
	aggRoleEither
)

// numeric sources of sum/mean/min/max
const (
	aggSrcDuration = iota
	aggSrcVtS
	aggSrcProp
	aggNumSrcs
)

type aggDim struct {
	kind       int
	role       int
	stride     int64
	unit       string // calendar unit, or the cycle of a calendar_cycle
	off        int64  // µs
	undirected bool
	slot       int // first key slot
}

type aggAgg struct {
	agg, of string
	src     int // numeric source
	span    int64
	gap     int64
	stat    string // first_k, last_k: count, sum, mean, min or max
	k       int64  // first_k, last_k
	col     string
}

type aggPlan struct {
	w           bt.Interval
	dims        []aggDim
	aggs        []aggAgg
	slots       int
	either      bool
	needSrc     [aggNumSrcs]bool
	prop        string // the aggregates' property
	needTimes   bool
	needSeq     bool
	sessGap     int64   // max_session_span's gap, -1 without one
	distinct    [4]bool // src, dst, node, pair
	filter      *aggFilter
	auth        authorityFilter // nil: every authority
	epRole      int
	epSet       map[uint32]bool
	rels        map[string]bool
	needLabels  bool
	needEnds    bool // first/last: each group's first and last event
	needWinEvs  bool // max_distinct_in_window, reply_delay: each group's events
	needReplies bool // reply_delay
	needKEvs    bool // first_k, last_k: each group's events with their values
	// reply_delay: the population's events as (src<<32 | dst, time),
	// sorted; built by the kernel
	replyTimes []aggPairTime
	having     []aggPred
	order      []aggOrder
	top        int64 // 0: every group
	rowBytes   int64 // bytes one group holds (the memory budget's unit)
}

type aggFilter struct {
	prop string
	cmp  string
	lit  any // int64, float64, string, bool; nil for exists
}

func aggErr(path, hint, format string, args ...any) error {
	return Errorf(EInvalidArg, map[string]any{"path": path, "hint": hint}, format, args...)
}

func aggParse(c *Call) (*aggPlan, error) {
	p := &aggPlan{w: c.Window("window"), sessGap: -1}
	cols := map[string]string{}
	addCol := func(col, path string) error {
		if prev, dup := cols[col]; dup {
			return aggErr(path, "drop one of them: "+prev+" already produces column "+col,
				"%s produces column %q twice (also %s)", path, col, prev)
		}
		cols[col] = path
		return nil
	}
	roles := map[string]int{"src": aggRoleSrc, "dst": aggRoleDst, "either": aggRoleEither}
	gb, _ := c.Args["group_by"].([]any)
	for i, x := range gb {
		m := x.(map[string]any)
		path := "/group_by/" + strconv.Itoa(i)
		dim := m["dim"].(string)
		allowed := map[string]bool{"dim": true}
		d := aggDim{slot: p.slots}
		var dcols []string
		switch dim {
		case "time_bucket":
			d.kind = aggDimTime
			allowed["stride"], allowed["unit"], allowed["utc_offset_minutes"] = true, true, true
			_, hasS := m["stride"]
			_, hasU := m["unit"]
			_, hasO := m["utc_offset_minutes"]
			switch {
			case hasS == hasU:
				return nil, aggErr(path, `give {"stride": µs} or {"unit": "day", "utc_offset_minutes": 0}`,
					"time_bucket needs exactly one of stride and unit")
			case hasS && hasO:
				return nil, aggErr(path+"/utc_offset_minutes", "drop utc_offset_minutes or use unit", "utc_offset_minutes applies to calendar units only")
			case hasU && !hasO:
				return nil, aggErr(path+"/utc_offset_minutes", "state the local offset explicitly; 0 means UTC", "a calendar unit needs utc_offset_minutes")
			}
			if hasS {
				d.stride = toInt(m["stride"])
				dcols = []string{"t_a", "t_b"}
			} else {
				d.unit = m["unit"].(string)
				d.off = toInt(m["utc_offset_minutes"]) * 60_000_000
				dcols = []string{"t_a", "t_b", "bucket"}
			}
			p.slots++
		case "endpoint", "label":
			allowed["role"] = true
			r, ok := m["role"].(string)
			if !ok {
				return nil, aggErr(path+"/role", `add "role": "src", "dst" or "either"`, "%s needs a role", dim)
			}
			d.role = roles[r]
			if d.role == aggRoleEither {
				p.either = true
			}
			if dim == "endpoint" {
				d.kind = aggDimEndpoint
				dcols = []string{[]string{"src", "dst", "node"}[d.role]}
			} else {
				d.kind = aggDimLabel
				p.needLabels = true
				dcols = []string{[]string{"src_label", "dst_label", "node_label"}[d.role]}
			}
			p.slots++
		case "calendar_cycle":
			d.kind = aggDimCycle
			allowed["cycle"], allowed["utc_offset_minutes"] = true, true
			cy, ok := m["cycle"].(string)
			if !ok {
				return nil, aggErr(path+"/cycle", `add "cycle": "hour_of_day", "day_of_week", "day_of_month" or "month_of_year"`, "calendar_cycle needs a cycle")
			}
			if _, ok := m["utc_offset_minutes"]; !ok {
				return nil, aggErr(path+"/utc_offset_minutes", "state the local offset explicitly; 0 means UTC", "a calendar cycle needs utc_offset_minutes")
			}
			d.unit, d.off = cy, toInt(m["utc_offset_minutes"])*60_000_000
			dcols = []string{cy}
			p.slots++
		case "rel_type":
			d.kind = aggDimRel
			dcols = []string{"rel_type"}
			p.slots++
		case "pair":
			d.kind = aggDimPair
			allowed["pair_mode"] = true
			d.undirected = m["pair_mode"] == "undirected"
			dcols = []string{"src", "dst"}
			if d.undirected {
				dcols = []string{"node_a", "node_b"}
			}
			p.slots += 2
		}
		for k := range m {
			if !allowed[k] {
				return nil, aggErr(path+"/"+k, "remove "+k, "%s does not apply to dim %s", k, dim)
			}
		}
		for _, col := range dcols {
			if err := addCol(col, path); err != nil {
				return nil, err
			}
		}
		p.dims = append(p.dims, d)
	}
	ags, _ := c.Args["aggregates"].([]any)
	for i, x := range ags {
		m := x.(map[string]any)
		path := "/aggregates/" + strconv.Itoa(i)
		a := aggAgg{agg: m["agg"].(string)}
		a.of, _ = m["of"].(string)
		allowed := map[string]bool{"agg": true}
		need := func(opts ...string) error {
			allowed["of"] = true
			if !slices.Contains(opts, a.of) {
				return aggErr(path+"/of", fmt.Sprintf("%s needs of: one of %v", a.agg, opts), "%s cannot read of %q", a.agg, a.of)
			}
			return nil
		}
		// numeric reads the numeric source of: duration, vt_s or prop (all
		// prop aggregates of a call read one property). The scan computes
		// the value of every event for the plain aggregates, and for
		// first_k/last_k only a property's (its coercions are counted over
		// the population); they read durations of the selected events only.
		numeric := func() error {
			a.src = map[string]int{"duration": aggSrcDuration, "vt_s": aggSrcVtS, "prop": aggSrcProp}[a.of]
			if a.of == "prop" || a.agg != "first_k" && a.agg != "last_k" {
				p.needSrc[a.src] = true
			}
			if a.of != "prop" {
				return nil
			}
			allowed["prop"] = true
			pr, ok := m["prop"].(string)
			if !ok {
				return aggErr(path+"/prop", `add "prop": "<property name>"`, "of prop needs prop")
			}
			if p.prop != "" && p.prop != pr {
				return aggErr(path+"/prop", "make one call per property",
					"all prop aggregates of a call read one property: %q and %q", p.prop, pr)
			}
			p.prop = pr
			return nil
		}
		var err error
		switch a.agg {
		case "count":
			a.col = "count"
		case "count_distinct":
			err = need("src", "dst", "node", "pair")
			a.col = "distinct_" + a.of
			if err == nil {
				p.distinct[slices.Index([]string{"src", "dst", "node", "pair"}, a.of)] = true
			}
		case "sum", "mean", "min", "max":
			if a.agg == "sum" {
				err = need("duration", "prop")
			} else {
				err = need("duration", "vt_s", "prop")
			}
			a.col = a.agg + "_" + a.of
			if err == nil {
				err = numeric()
			}
		case "first", "last":
			err = need("src", "dst")
			a.col = a.agg + "_" + a.of
			p.needEnds = true
		case "max_distinct_in_window":
			err = need("src", "dst", "node", "pair")
			allowed["span"] = true
			if _, ok := m["span"]; !ok && err == nil {
				return nil, aggErr(path+"/span", `add "span": µs`, "max_distinct_in_window needs span")
			}
			if err == nil {
				a.span = min(toInt(m["span"]), p.w.End-p.w.Start)
			}
			a.col = "max_distinct_" + a.of + "_in_window"
			p.needWinEvs = true
		case "reply_delay":
			allowed["stat"] = true
			st, ok := m["stat"].(string)
			if !ok || st == "sum" {
				return nil, aggErr(path+"/stat", `use "stat": "count", "min", "median", "mean" or "max"`, "reply_delay needs a stat other than sum")
			}
			a.of = st
			a.col = st + "_reply_delay"
			if st == "count" {
				a.col = "replied"
			}
			p.needWinEvs = true
			p.needReplies = true
		case "first_k", "last_k":
			err = aggParseK(m, &a, allowed, path)
			if err == nil && a.stat != "count" {
				if a.stat == "sum" {
					err = need("duration", "prop")
				} else {
					err = need("duration", "vt_s", "prop")
				}
				if err == nil {
					err = numeric()
				}
			}
			p.needKEvs = true
		case "returns":
			allowed["gap"] = true
			if _, ok := m["gap"]; !ok {
				return nil, aggErr(path+"/gap", `add "gap": µs`, "returns needs gap")
			}
			a.gap = toInt(m["gap"])
			a.col = "returns"
			p.needTimes = true
		case "max_gap":
			a.col = "max_gap"
			p.needSeq = true
		case "max_in_window":
			allowed["span"] = true
			if _, ok := m["span"]; !ok {
				return nil, aggErr(path+"/span", `add "span": µs`, "max_in_window needs span")
			}
			a.span = min(toInt(m["span"]), p.w.End-p.w.Start)
			a.col = "max_in_window"
			p.needTimes = true
		case "max_session_span":
			allowed["gap"] = true
			if _, ok := m["gap"]; !ok {
				return nil, aggErr(path+"/gap", `add "gap": µs`, "max_session_span needs gap")
			}
			a.gap = toInt(m["gap"])
			p.sessGap = a.gap
			a.col = "max_session_span"
			p.needSeq = true
		}
		if err != nil {
			return nil, err
		}
		for k := range m {
			if !allowed[k] {
				return nil, aggErr(path+"/"+k, "remove "+k, "%s does not apply to agg %s", k, a.agg)
			}
		}
		if err := addCol(a.col, path); err != nil {
			return nil, err
		}
		p.aggs = append(p.aggs, a)
	}
	if c.Has("rel_types") {
		p.rels = map[string]bool{}
		for _, r := range c.Strings("rel_types") {
			p.rels[r] = true
		}
	}
	p.auth = authorities(c)
	if ef, ok := c.Args["endpoint_filter"].(map[string]any); ok {
		p.epRole = roles[ef["role"].(string)]
		p.epSet = map[uint32]bool{}
		for _, u := range ef["uids"].([]any) {
			if id, ok := c.R.Node(u.(string)); ok {
				p.epSet[id] = true // an unknown uid matches no event
			}
		}
	}
	if pf, ok := c.Args["prop_filter"].(map[string]any); ok {
		f := &aggFilter{prop: pf["prop"].(string), cmp: pf["cmp"].(string)}
		v, has := pf["value"]
		switch {
		case f.cmp == "exists":
			if has {
				return nil, aggErr("/prop_filter/value", "drop value", "exists takes no value")
			}
		case !has:
			return nil, aggErr("/prop_filter/value", "add a number, string or boolean value", "%s needs a value", f.cmp)
		default:
			switch x := v.(type) {
			case int64, float64, string:
				f.lit = x
			case bool:
				if f.cmp != "eq" && f.cmp != "ne" {
					return nil, aggErr("/prop_filter/cmp", "use eq or ne with a boolean", "booleans have no order: %s is undefined", f.cmp)
				}
				f.lit = x
			default:
				return nil, aggErr("/prop_filter/value", "use a number, string or boolean", "prop_filter value must be a number, string or boolean, got %s", kindOf(v))
			}
		}
		p.filter = f
	}
	aggCols := map[string]bool{}
	for _, a := range p.aggs {
		aggCols[a.col] = true
	}
	if err := aggParsePost(c, p, cols, aggCols); err != nil {
		return nil, err
	}
	return p, nil
}

// aggParseK reads first_k/last_k's stat and k and names its column:
// count_first_k, or stat_of_first_k (mean_prop_last_k, ...).
func aggParseK(m map[string]any, a *aggAgg, allowed map[string]bool, path string) error {
	allowed["stat"], allowed["k"] = true, true
	st, _ := m["stat"].(string)
	if st == "" || st == "median" {
		return aggErr(path+"/stat", `add "stat": "count", "sum", "mean", "min" or "max"`, "%s needs a stat other than median", a.agg)
	}
	if _, ok := m["k"]; !ok {
		return aggErr(path+"/k", `add "k": the number of events`, "%s needs k", a.agg)
	}
	a.stat, a.k = st, toInt(m["k"])
	if st == "count" {
		a.col = "count_" + a.agg
		return nil
	}
	a.col = st + "_" + a.of + "_" + a.agg
	return nil
}
