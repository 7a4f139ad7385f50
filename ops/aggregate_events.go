package ops

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"slices"
	"strconv"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/engine"
)

// Hard caps of aggregate_events.
const (
	aggMaxGroups  = 100_000
	aggMaxBuckets = 2_000
	aggDayUS      = 86_400_000_000
)

func init() {
	Register(&Spec{
		Name:    "aggregate_events",
		Summary: "Grouped aggregation over edge events in a window: counts, distinct counts, sums/means/min/max of a property or duration, gaps and sessions.",
		Doc: `Aggregates edge events whose event time lies in window [t_a, t_b), grouped by
up to three dimensions.
Events: the believed edge versions as of as_of_tt, one per occurrence. A
version that continues another believed version of the same identity (a
fragment left by a correction or retract that carved an interval) is not a
new event: the occurrence is counted once, at the vt_s of its first fragment
(the event time); its props are that first fragment's, and its duration is
from the event time to the end of its last contiguous fragment (open-ended
occurrences have no duration). Population: events with t_a <= event time <
t_b, then rel_types, then endpoint_filter {role src|dst|either, uids}, then
prop_filter.
prop_filter {prop, cmp, value}: cmp eq, ne, lt, le, gt, ge compare props[prop]
with value under a strict type-class rule: classes are number (integers and
floats, compared exactly: 1 equals 1.0; booleans are not numbers), string
(compared by code point; text is never parsed as a number) and boolean (eq
and ne only). An event whose value is of another class than the literal —
missing key, null, object, array or a different class — does not take part:
it is excluded and counted in prop_coercion[prop]; an event that compares
false is excluded silently (so ne also excludes other classes). cmp exists
keeps events whose props have prop with a non-null value (no value
argument, nothing counted). value null, an object or an array, or a boolean
with an order comparison, is E_INVALID_ARG.
Dimensions (group_by items, column names in brackets):
  {dim:"time_bucket", stride:s}            [t_a, t_b] bucket i = (time - window.t_a) div s,
      t_a = window.t_a + i*s, t_b = min(t_a + s, window.t_b);
  {dim:"time_bucket", unit:"day"|"week"|"month"|"year", utc_offset_minutes:m}
      [t_a, t_b, bucket] calendar buckets of local time (time + m minutes, a
      fixed offset, no DST; required, 0 for UTC); weeks are ISO weeks from
      Monday; bucket is "2024-01-15", "2024-W03" (ISO week-year), "2024-01"
      or "2024"; t_a/t_b are the bucket's bounds in UTC µs clipped to the
      window. More than 2000 buckets in the window is E_LIMIT (use a larger
      stride, a coarser unit or a narrower window);
  {dim:"endpoint", role:"src"|"dst"|"either"}  [src | dst | node];
  {dim:"label", role:"src"|"dst"|"either"}     [src_label | dst_label | node_label]
      the label of the endpoint's node version believed at as_of_tt and
      valid at the event time, null if it has none;
  {dim:"rel_type"}                             [rel_type];
  {dim:"pair", pair_mode:"directed"|"undirected"}  [src, dst] directed
      (default) or [node_a, node_b] undirected, node_a <= node_b by code point.
role either: each event is viewed from each of its endpoints (once for a
self-loop) and all either-dimensions read that endpoint; an event is counted
at most once per group, so group counts can add up to more than the number
of events. Two dimensions producing the same column are E_INVALID_ARG.
Aggregates (columns): count [count]; count_distinct of src|dst|node|pair
[distinct_src, distinct_dst, distinct_node (either endpoint), distinct_pair
(directed pairs)]; sum of duration|prop, mean|min|max of duration|vt_s|prop
[sum_duration, mean_vt_s, min_prop, ...]; max_gap [max_gap] the largest
difference between consecutive event times (null below 2 events);
max_in_window with span [max_in_window] the most events in any
[t, t + span) starting at an event time t (0 for an empty group);
max_session_span with gap [max_session_span]: event times split into
sessions wherever consecutive times differ by more than gap, the longest
session's last - first (0 for one event, null for none). All prop
aggregates of a call read the same property (prop); a value that is not a
JSON number is skipped and counted once per event in prop_coercion[prop].
Arithmetic is exact: integer sums are exact (an integer sum is reported as
an integer, or as the nearest float if it does not fit in int64), sums of
floats are exact sums rounded once, means are the exact mean rounded to the
nearest float (then to 9 decimals, like every computed float); min and max
report the stored value (an integer when an integer and a float tie). sum,
mean, min and max are null when no value took part.
Output: one row per non-empty group (with group_by [] exactly one row, even
when nothing matched) holding the dimension columns, the aggregate columns
and group_key (the dimension values in group_by order: t_a for a time
bucket, uids, labels, rel_type); rows_total is the number of groups.
prop_coercion {prop: count} is present when the call reads a property.
More than 100,000 groups is E_LIMIT: narrow the window, restrict rel_types,
add an endpoint_filter, use pair_mode undirected, or use coarser
dimensions.`,
		Args: Obj("", map[string]*Schema{
			"window": Window(),
			"group_by": Arr("up to three dimensions; [] = one global row", Obj("a dimension", map[string]*Schema{
				"dim":                Enum("what to group by", "time_bucket", "endpoint", "label", "rel_type", "pair"),
				"role":               Enum("endpoint and label: which endpoint", "src", "dst", "either"),
				"stride":             Int("time_bucket: bucket width in µs").Range(1, 1<<62),
				"unit":               Enum("time_bucket: calendar unit instead of stride", "day", "week", "month", "year"),
				"utc_offset_minutes": Int("time_bucket with unit: fixed local offset from UTC in minutes (required with unit)").Range(-1440, 1440),
				"pair_mode":          Enum("pair: directed (src, dst) or undirected (node_a <= node_b)", "directed", "undirected"),
			}, "dim")).Max(3),
			"aggregates": Arr("one to six aggregates", Obj("an aggregate", map[string]*Schema{
				"agg":  Enum("aggregate function", "count", "count_distinct", "sum", "mean", "min", "max", "max_gap", "max_in_window", "max_session_span"),
				"of":   Enum("what it reads: count_distinct src|dst|node|pair; sum duration|prop; mean/min/max duration|vt_s|prop", "src", "dst", "node", "pair", "duration", "vt_s", "prop"),
				"prop": Str("the property, with of = prop").NonEmpty(),
				"span": Int("max_in_window: window length in µs").Range(1, 1<<62),
				"gap":  Int("max_session_span: largest gap inside a session, µs").Range(0, 1<<62),
			}, "agg")).NonEmpty().Max(6),
			"rel_types": RelTypes(),
			"endpoint_filter": Obj("keep events whose src, dst or either endpoint is among uids", map[string]*Schema{
				"role": Enum("which endpoint must match", "src", "dst", "either"),
				"uids": UIDList("the nodes").Max(50_000),
			}, "role", "uids").OrNull(),
			"prop_filter": Obj("typed property predicate", map[string]*Schema{
				"prop":  Str("property name").NonEmpty(),
				"cmp":   Enum("comparison", "eq", "ne", "lt", "le", "gt", "ge", "exists"),
				"value": Any("literal: number, string or boolean (none for exists)"),
			}, "prop", "cmp").OrNull(),
			"as_of_tt": AsOfTT(),
			"limit":    Limit(),
			"cursor":   Cursor(),
		}, "window", "group_by", "aggregates"),
		Result: Paged("one row per non-empty group, in group_key order", aggRowSchema(), map[string]*Schema{
			"prop_coercion": Any("object {prop: number of events whose value did not take part}; present when the call reads a property"),
		}),
		Order:  "group_key: the dimensions in group_by order; time buckets by start, uids, labels and rel_types by code point, null labels first",
		Paged:  true,
		RowKey: func(row map[string]any) []any { k, _ := row["group_key"].([]any); return k },
		Cost: func(c *Call) Cost {
			return c.ScanCost(c.WindowFraction(c.Window("window")))
		},
		Run: runAggregateEvents,
	})
}

func aggRowSchema() *Schema {
	n := func(d string) *Schema { return Num(d).OrNull() }
	i := func(d string) *Schema { return Int(d).OrNull() }
	return Obj("a group: its dimension columns and aggregate columns (only those the call asked for)", map[string]*Schema{
		"group_key":        Arr("the dimension values in group_by order (the sort and cursor key)", Any("a dimension value")),
		"t_a":              Int("time_bucket: bucket start (µs, clipped to the window)"),
		"t_b":              Int("time_bucket: bucket end, exclusive (µs, clipped to the window)"),
		"bucket":           Str("time_bucket with unit: calendar name of the bucket, e.g. 2024-01-15, 2024-W03, 2024-01, 2024"),
		"src":              UIDField("endpoint src, or pair directed: source node"),
		"dst":              UIDField("endpoint dst, or pair directed: destination node"),
		"node":             UIDField("endpoint either: the endpoint the event is viewed from"),
		"node_a":           UIDField("pair undirected: the smaller uid"),
		"node_b":           UIDField("pair undirected: the larger uid"),
		"rel_type":         Str("relation type"),
		"src_label":        Str("label of the source node at the event time").OrNull(),
		"dst_label":        Str("label of the destination node at the event time").OrNull(),
		"node_label":       Str("label of the viewed endpoint at the event time").OrNull(),
		"count":            Int("events in the group"),
		"distinct_src":     Int("distinct source nodes"),
		"distinct_dst":     Int("distinct destination nodes"),
		"distinct_node":    Int("distinct nodes at either endpoint"),
		"distinct_pair":    Int("distinct directed (src, dst) pairs"),
		"sum_duration":     i("sum of durations of closed occurrences (µs)"),
		"mean_duration":    n("mean duration (µs)"),
		"min_duration":     i("shortest duration (µs)"),
		"max_duration":     i("longest duration (µs)"),
		"mean_vt_s":        n("mean event time (µs)"),
		"min_vt_s":         i("first event time (µs)"),
		"max_vt_s":         i("last event time (µs)"),
		"sum_prop":         n("sum of the numeric property"),
		"mean_prop":        n("mean of the numeric property"),
		"min_prop":         n("smallest value of the numeric property"),
		"max_prop":         n("largest value of the numeric property"),
		"max_gap":          i("largest gap between consecutive event times (µs)"),
		"max_in_window":    Int("most events within any span starting at an event"),
		"max_session_span": i("longest session (last - first event time, µs)"),
	})
}

// Dimension and aggregate plans.
const (
	aggDimTime = iota
	aggDimEndpoint
	aggDimLabel
	aggDimRel
	aggDimPair
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
	unit       string
	off        int64 // µs
	undirected bool
	slot       int // first key slot
}

type aggAgg struct {
	agg, of string
	src     int // numeric source
	span    int64
	gap     int64
	col     string
}

type aggPlan struct {
	w          bt.Interval
	dims       []aggDim
	aggs       []aggAgg
	slots      int
	either     bool
	needSrc    [aggNumSrcs]bool
	prop       string // the aggregates' property
	needTimes  bool
	needSeq    bool
	sessGap    int64   // max_session_span's gap, -1 without one
	distinct   [4]bool // src, dst, node, pair
	filter     *aggFilter
	epRole     int
	epSet      map[uint32]bool
	rels       map[string]bool
	needLabels bool
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
				nb := (p.w.End - p.w.Start + d.stride - 1) / d.stride
				if nb > aggMaxBuckets {
					minStride := (p.w.End - p.w.Start + aggMaxBuckets - 1) / aggMaxBuckets
					return nil, Errorf(ELimit, map[string]any{"path": path + "/stride", "hint": fmt.Sprintf("use a stride of at least %d or a narrower window", minStride), "min_stride": minStride},
						"stride %d makes %d buckets, more than %d", d.stride, nb, aggMaxBuckets)
				}
				dcols = []string{"t_a", "t_b"}
			} else {
				d.unit = m["unit"].(string)
				d.off = toInt(m["utc_offset_minutes"]) * 60_000_000
				nb := aggCalIndex(d.unit, p.w.End-1+d.off) - aggCalIndex(d.unit, p.w.Start+d.off) + 1
				if nb > aggMaxBuckets {
					return nil, Errorf(ELimit, map[string]any{"path": path + "/unit", "hint": "use a coarser unit (day < week < month < year) or a narrower window"},
						"unit %s makes %d buckets in the window, more than %d", d.unit, nb, aggMaxBuckets)
				}
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
			a.src = map[string]int{"duration": aggSrcDuration, "vt_s": aggSrcVtS, "prop": aggSrcProp}[a.of]
			p.needSrc[a.src] = true
			if a.of == "prop" {
				allowed["prop"] = true
				pr, ok := m["prop"].(string)
				if !ok {
					return nil, aggErr(path+"/prop", `add "prop": "<property name>"`, "of prop needs prop")
				}
				if p.prop != "" && p.prop != pr {
					return nil, aggErr(path+"/prop", "make one call per property",
						"all prop aggregates of a call read one property: %q and %q", p.prop, pr)
				}
				p.prop = pr
			}
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
	if ef, ok := c.Args["endpoint_filter"].(map[string]any); ok {
		p.epRole = roles[ef["role"].(string)]
		p.epSet = map[uint32]bool{}
		for i, u := range ef["uids"].([]any) {
			id, err := c.Node("/endpoint_filter/uids/"+strconv.Itoa(i), u.(string))
			if err != nil {
				return nil, err
			}
			p.epSet[id] = true
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
	return p, nil
}

// --- calendar arithmetic (proleptic Gregorian, days since 1970-01-01) ----

func aggFloorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func aggDaysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := aggFloorDiv(y, 400)
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

func aggCivilFromDays(z int64) (y, m, d int64) {
	z += 719468
	era := aggFloorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return
}

// aggCalIndex numbers the calendar bucket holding local time L.
func aggCalIndex(unit string, L int64) int64 {
	days := aggFloorDiv(L, aggDayUS)
	switch unit {
	case "day":
		return days
	case "week":
		return aggFloorDiv(days+3, 7) // weeks from Monday 1969-12-29
	case "month":
		y, m, _ := aggCivilFromDays(days)
		return y*12 + m - 1
	}
	y, _, _ := aggCivilFromDays(days)
	return y
}

// aggCalBucket returns the local-day bounds [sd, ed) of the bucket holding
// local time L.
func aggCalBucket(unit string, L int64) (sd, ed int64) {
	days := aggFloorDiv(L, aggDayUS)
	switch unit {
	case "day":
		return days, days + 1
	case "week":
		sd = aggFloorDiv(days+3, 7)*7 - 3
		return sd, sd + 7
	case "month":
		y, m, _ := aggCivilFromDays(days)
		sd = aggDaysFromCivil(y, m, 1)
		if m == 12 {
			return sd, aggDaysFromCivil(y+1, 1, 1)
		}
		return sd, aggDaysFromCivil(y, m+1, 1)
	}
	y, _, _ := aggCivilFromDays(days)
	return aggDaysFromCivil(y, 1, 1), aggDaysFromCivil(y+1, 1, 1)
}

// aggCalName names the bucket starting at local day sd.
func aggCalName(unit string, sd int64) string {
	y, m, d := aggCivilFromDays(sd)
	switch unit {
	case "day":
		return fmt.Sprintf("%04d-%02d-%02d", y, m, d)
	case "week":
		th := sd + 3 // the ISO week-year is the year of the week's Thursday
		ty, _, _ := aggCivilFromDays(th)
		return fmt.Sprintf("%04d-W%02d", ty, (th-aggDaysFromCivil(ty, 1, 1))/7+1)
	case "month":
		return fmt.Sprintf("%04d-%02d", y, m)
	}
	return fmt.Sprintf("%04d", y)
}

// --- numbers ----------------------------------------------------------------

// aggNum is a JSON number: an int64 or a float64.
type aggNum struct {
	isFloat bool
	i       int64
	f       float64
}

func aggNumOf(v any) (aggNum, bool) {
	switch x := v.(type) {
	case int64:
		return aggNum{i: x}, true
	case float64:
		return aggNum{isFloat: true, f: x}, true
	}
	return aggNum{}, false
}

func (n aggNum) value() any {
	if n.isFloat {
		return n.f
	}
	return n.i
}

// aggCmpNum compares exactly (an int64 and a float64 by value).
func aggCmpNum(a, b aggNum) int {
	switch {
	case !a.isFloat && !b.isFloat:
		return cmpOrdered(a.i, b.i)
	case a.isFloat && b.isFloat:
		return cmpOrdered(a.f, b.f)
	}
	x, y := new(big.Float), new(big.Float)
	if a.isFloat {
		x.SetFloat64(a.f)
	} else {
		x.SetInt64(a.i)
	}
	if b.isFloat {
		y.SetFloat64(b.f)
	} else {
		y.SetInt64(b.i)
	}
	return x.Cmp(y)
}

// aggAcc accumulates sum, count, min and max of one numeric source exactly.
type aggAcc struct {
	n        int64
	isum     int64
	ibig     *big.Int   // the integer sum once it left int64
	fsum     *big.Float // exact sum of the float values
	min, max aggNum
}

const aggExactPrec = 2200 // enough bits to add float64s exactly

func (a *aggAcc) add(x aggNum) {
	if a.n == 0 {
		a.min, a.max = x, x
	} else {
		if c := aggCmpNum(x, a.min); c < 0 || c == 0 && a.min.isFloat && !x.isFloat {
			a.min = x
		}
		if c := aggCmpNum(x, a.max); c > 0 || c == 0 && a.max.isFloat && !x.isFloat {
			a.max = x
		}
	}
	a.n++
	if x.isFloat {
		if a.fsum == nil {
			a.fsum = new(big.Float).SetPrec(aggExactPrec)
		}
		a.fsum.Add(a.fsum, new(big.Float).SetFloat64(x.f))
		return
	}
	if a.ibig != nil {
		a.ibig.Add(a.ibig, big.NewInt(x.i))
		return
	}
	s := a.isum + x.i
	if (x.i > 0 && s < a.isum) || (x.i < 0 && s > a.isum) {
		a.ibig = new(big.Int).SetInt64(a.isum)
		a.ibig.Add(a.ibig, big.NewInt(x.i))
		return
	}
	a.isum = s
}

// exact returns the sum as a big.Float (exact).
func (a *aggAcc) exact() *big.Float {
	s := new(big.Float).SetPrec(aggExactPrec)
	if a.ibig != nil {
		s.SetInt(a.ibig)
	} else {
		s.SetInt64(a.isum)
	}
	if a.fsum != nil {
		s.Add(s, a.fsum)
	}
	return s
}

func (a *aggAcc) sum() (any, error) {
	if a.n == 0 {
		return nil, nil
	}
	if a.fsum == nil && a.ibig == nil {
		return a.isum, nil
	}
	f, _ := a.exact().Float64()
	if math.IsInf(f, 0) {
		return nil, Errorf(ELimit, map[string]any{"hint": "narrow the population; the sum is beyond float64"}, "sum overflows float64")
	}
	return f, nil
}

func (a *aggAcc) mean() any {
	if a.n == 0 {
		return nil
	}
	if a.fsum == nil && a.ibig == nil && a.isum > -1<<53 && a.isum < 1<<53 {
		return float64(a.isum) / float64(a.n)
	}
	q := new(big.Float).SetPrec(53).Quo(a.exact(), new(big.Float).SetInt64(a.n))
	f, _ := q.Float64()
	return f
}

// --- props ------------------------------------------------------------------

// aggProps caches decoded property bags by their canonical text.
type aggProps map[bt.Props]map[string]any

func (pc aggProps) get(p bt.Props) map[string]any {
	if p == "" {
		return nil
	}
	if m, ok := pc[p]; ok {
		return m
	}
	v, err := canon.Parse([]byte(p))
	m, _ := v.(map[string]any)
	if err != nil {
		m = nil
	}
	pc[p] = m
	return m
}

// aggClass is the type class of a JSON value: 1 number, 2 string, 3 bool, 0 none.
func aggClass(v any) int {
	switch v.(type) {
	case int64, float64:
		return 1
	case string:
		return 2
	case bool:
		return 3
	}
	return 0
}

// test evaluates the filter on a value; ok=false means the value does not
// take part (counted in prop_coercion).
func (f *aggFilter) test(props map[string]any) (keep, takesPart bool) {
	v, has := props[f.prop]
	if f.cmp == "exists" {
		return has && v != nil, true
	}
	if !has || aggClass(v) != aggClass(f.lit) {
		return false, false
	}
	var c int
	switch x := v.(type) {
	case string:
		y := f.lit.(string)
		switch {
		case x < y:
			c = -1
		case x > y:
			c = 1
		}
	case bool:
		if x != f.lit.(bool) {
			c = 1
		}
	default:
		a, _ := aggNumOf(v)
		b, _ := aggNumOf(f.lit)
		c = aggCmpNum(a, b)
	}
	switch f.cmp {
	case "eq":
		return c == 0, true
	case "ne":
		return c != 0, true
	case "lt":
		return c < 0, true
	case "le":
		return c <= 0, true
	case "gt":
		return c > 0, true
	}
	return c >= 0, true
}

// --- the kernel -------------------------------------------------------------

type aggKey [6]int64

// aggGroup accumulates one group (its count and last event are kept in
// flat arrays while scanning).
type aggGroup struct {
	key   aggKey // slot ordinals (see aggIndex)
	count int64
	acc   [aggNumSrcs]aggAcc
	times []int64  // event times, for the sequence aggregates
	pairs []uint64 // src<<32 | dst (count_distinct of pair)
	// streamed sequence state: last time, largest gap, session start,
	// longest session
	sLast, sGap, sStart, sSpan int64
}

// aggIndex maps group keys to group indexes. Each slot holds a small
// ordinal; when the ordinals pack into 64 bits the key is one uint64 (a
// flat table when it packs into few bits), otherwise the whole array.
type aggIndex struct {
	shift  [6]uint
	packed bool
	flat   []int32 // group index + 1
	m64    map[uint64]int32
	mk     map[aggKey]int32
}

func newAggIndex(widths []uint) *aggIndex {
	x := &aggIndex{}
	total := uint(0)
	for i, w := range widths {
		x.shift[i] = total
		total += w
	}
	switch {
	case total <= 18:
		x.packed, x.flat = true, make([]int32, 1<<total)
	case total <= 64:
		x.packed, x.m64 = true, map[uint64]int32{}
	default:
		x.mk = map[aggKey]int32{}
	}
	return x
}

// find returns the group index of k, or -1.
func (x *aggIndex) find(k *aggKey, slots int) (int32, uint64) {
	if !x.packed {
		if gi, ok := x.mk[*k]; ok {
			return gi, 0
		}
		return -1, 0
	}
	var pk uint64
	for i := range slots {
		pk |= uint64(k[i]) << x.shift[i]
	}
	if x.flat != nil {
		return x.flat[pk] - 1, pk
	}
	if gi, ok := x.m64[pk]; ok {
		return gi, pk
	}
	return -1, pk
}

func (x *aggIndex) add(k *aggKey, pk uint64, gi int32) {
	switch {
	case x.flat != nil:
		x.flat[pk] = gi + 1
	case x.packed:
		x.m64[pk] = gi
	default:
		x.mk[*k] = gi
	}
}

// aggContKey names a believed fragment that continues another one: its
// endpoints, relation and start. An occurrence ending at e can only extend
// over such a fragment starting at e.
type aggContKey struct {
	src, dst uint32
	rel      string
	start    int64
}

const aggInternMax = 1 << 24 // distinct labels / rel_types a call can group by

func runAggregateEvents(c *Call) (map[string]any, error) {
	p, err := aggParse(c)
	if err != nil {
		return nil, err
	}
	if out, ok, err := aggFast(c, p); ok {
		return out, err
	}
	// max_gap and max_session_span stream over each group's event times
	// while they arrive in time order (always with the start-time index;
	// usually with a column scan); if a group sees an earlier time, the
	// call is redone keeping every group's times.
	stream := p.needSeq && !p.needTimes
	out, dirty, err := aggKernel(c, p, stream)
	if err == nil && dirty {
		out, _, err = aggKernel(c, p, false)
	}
	return out, err
}

// aggKernel computes the payload; with stream it reports dirty (and stops)
// when some group's event times arrive out of order.
func aggKernel(c *Call, p *aggPlan, stream bool) (out map[string]any, dirty bool, err error) {
	r := c.R
	props := aggProps{}
	needProps := p.filter != nil || p.needSrc[aggSrcProp]
	coercion := map[string]int64{}
	if p.filter != nil {
		coercion[p.filter.prop] += 0
	}
	if p.needSrc[aggSrcProp] {
		coercion[p.prop] += 0
	}
	needSeqTimes := p.needTimes || p.needSeq && !stream

	// slot widths and per-dimension constants
	nodeBits := uint(bits.Len64(uint64(max(1, r.NumNodes())) - 1))
	var widths []uint
	calFirst := make([]int64, len(p.dims))
	for i, d := range p.dims {
		switch d.kind {
		case aggDimTime:
			var nb int64
			if d.stride > 0 {
				nb = (p.w.End - p.w.Start + d.stride - 1) / d.stride
			} else {
				calFirst[i] = aggCalIndex(d.unit, p.w.Start+d.off)
				nb = aggCalIndex(d.unit, p.w.End-1+d.off) - calFirst[i] + 1
			}
			widths = append(widths, uint(bits.Len64(uint64(nb-1))))
		case aggDimEndpoint:
			widths = append(widths, nodeBits)
		case aggDimRel:
			// Keys hold the store's dense rel ids, below the number of
			// rel types it has seen.
			widths = append(widths, uint(bits.Len64(uint64(max(1, len(r.Store().Stats().RelTypes))))))
		case aggDimLabel:
			widths = append(widths, 24)
		case aggDimPair:
			widths = append(widths, nodeBits, nodeBits)
		}
	}
	index := newAggIndex(widths)

	labelIDs := map[string]int64{}
	var labelNames []string
	hist := map[uint32][]bt.NodeVersion{}
	labelAt := func(id uint32, t int64) (int64, error) {
		h, ok := hist[id]
		if !ok {
			h = r.NodeHistory(id)
			hist[id] = h
		}
		i := aggSearch(len(h), func(i int) bool { return h[i].Valid.Start > t }) - 1
		if i < 0 || !h[i].Valid.Contains(t) {
			return 0, nil
		}
		l := h[i].Label
		lid, ok := labelIDs[l]
		if !ok {
			lid = int64(len(labelNames)) + 1
			if lid >= aggInternMax {
				return 0, Errorf(ELimit, map[string]any{"hint": "group by fewer labels: narrow the window or filter endpoints"}, "more than %d distinct labels", aggInternMax-1)
			}
			labelIDs[l] = lid
			labelNames = append(labelNames, l)
		}
		return lid, nil
	}
	var gs []*aggGroup
	var gLast, gCount []int64
	var dl [3][]uint64 // group<<32 | node, for count_distinct of src, dst, node
	needGroup := needSeqTimes || stream || p.needSrc != [aggNumSrcs]bool{} || p.distinct[3]
	if len(p.dims) == 0 {
		gs = append(gs, &aggGroup{})
		gLast, gCount = append(gLast, -1), append(gCount, 0)
		var k aggKey
		_, pk := index.find(&k, 0)
		index.add(&k, pk, 0)
	}

	// Event source: the start-time index for selective windows; for wide
	// windows one pass over the version columns in id order is several
	// times cheaper than merging the index runs (every aggregate here is
	// order-independent; sequence aggregates sort their group's times).
	// With a small endpoint_filter the adjacency lists of its nodes answer.
	st := r.Store()
	nVersions := uint32(st.NumEdgeVersions())
	var evs []uint32
	adjacent := p.epSet != nil && len(p.epSet) <= aggAdjacentMax
	idScan := !adjacent && c.WindowFraction(p.w) >= 0.125
	n := nVersions
	// The distinct-count lists get one entry per event (two for node):
	// size them once from the window's share of the store.
	if est := int(float64(nVersions)*c.WindowFraction(p.w)) + 16; est > 0 {
		for kind := range dl {
			if p.distinct[kind] {
				dl[kind] = make([]uint64, 0, est*(1+kind/2))
			}
		}
	}
	switch {
	case adjacent:
		evs, err = aggAdjacent(c, p)
		if err != nil {
			return nil, false, err
		}
		n = uint32(len(evs))
	case !idScan:
		evs = r.EdgesStartingIn(p.w)
		n = uint32(len(evs))
	}
	var conts map[aggContKey]bool
	if p.needSrc[aggSrcDuration] && idScan {
		conts = map[aggContKey]bool{}
		for v := range nVersions {
			if v&4095 == 0 {
				if err := c.Work(4096); err != nil {
					return nil, false, err
				}
			}
			if r.Believed(v) && r.Continues(v) {
				conts[aggContKey{r.Src(v), r.Dst(v), r.RelType(v), r.Valid(v).Start}] = true
			}
		}
	}
	// calendar bucket cache: local µs bounds of the last bucket and its ordinal
	var calLo, calHi int64 = 1, 0
	var calOrd int64
	var k aggKey
	var nums [aggNumSrcs]aggNum
	var has [aggNumSrcs]bool
	for i := range n {
		if i&4095 == 0 {
			if err := c.Work(int64(min(4096, n-i))); err != nil {
				return nil, false, err
			}
		}
		v := i
		if idScan {
			if !r.Believed(v) {
				continue
			}
		} else {
			v = evs[i]
		}
		iv := r.Valid(v)
		t := iv.Start
		if idScan && (t < p.w.Start || t >= p.w.End) {
			continue
		}
		if p.rels != nil && !p.rels[r.RelType(v)] {
			continue
		}
		src, dst := r.Src(v), r.Dst(v)
		if p.epSet != nil {
			var in bool
			switch p.epRole {
			case aggRoleSrc:
				in = p.epSet[src]
			case aggRoleDst:
				in = p.epSet[dst]
			default:
				in = p.epSet[src] || p.epSet[dst]
			}
			if !in {
				continue
			}
		}
		if r.Continues(v) {
			continue
		}
		var pm map[string]any
		if needProps {
			pm = props.get(r.Props(v))
		}
		if p.filter != nil {
			keep, part := p.filter.test(pm)
			if !part {
				coercion[p.filter.prop]++
			}
			if !keep {
				continue
			}
		}
		if p.needSrc[aggSrcDuration] {
			end := iv.End
			if end < bt.OpenEnd && (!idScan || len(conts) > 0 && conts[aggContKey{src, dst, r.RelType(v), end}]) {
				end = aggChainEnd(r, v, iv)
			}
			nums[aggSrcDuration], has[aggSrcDuration] = aggNum{i: end - t}, end < bt.OpenEnd
		}
		if p.needSrc[aggSrcVtS] {
			nums[aggSrcVtS], has[aggSrcVtS] = aggNum{i: t}, true
		}
		if p.needSrc[aggSrcProp] {
			nums[aggSrcProp], has[aggSrcProp] = aggNumOf(pm[p.prop])
			if !has[aggSrcProp] {
				coercion[p.prop]++
			}
		}
		nViews := 1
		if p.either && src != dst {
			nViews = 2
		}
		for view := range nViews {
			for di, d := range p.dims {
				switch d.kind {
				case aggDimTime:
					if d.stride > 0 {
						k[d.slot] = (t - p.w.Start) / d.stride
					} else {
						L := t + d.off
						if L < calLo || L >= calHi {
							sd, ed := aggCalBucket(d.unit, L)
							calLo, calHi = sd*aggDayUS, ed*aggDayUS
							calOrd = aggCalIndex(d.unit, L) - calFirst[di]
						}
						k[d.slot] = calOrd
					}
				case aggDimEndpoint, aggDimLabel:
					id := src
					if d.role == aggRoleDst || d.role == aggRoleEither && view == 1 {
						id = dst
					}
					if d.kind == aggDimEndpoint {
						k[d.slot] = int64(id)
					} else {
						lid, err := labelAt(id, t)
						if err != nil {
							return nil, false, err
						}
						k[d.slot] = lid
					}
				case aggDimRel:
					k[d.slot] = int64(r.RelID(v))
				case aggDimPair:
					a, b := src, dst
					if d.undirected && r.UID(b) < r.UID(a) {
						a, b = b, a
					}
					k[d.slot], k[d.slot+1] = int64(a), int64(b)
				}
			}
			gi, pk := index.find(&k, p.slots)
			if gi < 0 {
				if len(gs) >= aggMaxGroups {
					return nil, false, Errorf(ELimit, map[string]any{"limit": aggMaxGroups,
						"hint": "narrow the window, restrict rel_types, add an endpoint_filter, use pair_mode undirected, or use coarser dimensions (a larger stride or unit)"},
						"more than %d groups", aggMaxGroups)
				}
				gi = int32(len(gs))
				index.add(&k, pk, gi)
				gs = append(gs, &aggGroup{key: k})
				gLast = append(gLast, -1)
				gCount = append(gCount, 0)
			}
			// hot per-group state lives in flat arrays; the group struct is
			// touched only by the aggregates that need it
			if gLast[gi] == int64(v) {
				continue // both views of the event fall in this group
			}
			gLast[gi] = int64(v)
			gCount[gi]++
			if needGroup {
				g := gs[gi]
				if needSeqTimes {
					g.times = append(g.times, t)
				}
				if stream {
					switch {
					case g.count == 0:
						g.sLast, g.sGap, g.sStart, g.sSpan = t, 0, t, 0
					case t < g.sLast:
						return nil, true, nil
					default:
						gap := t - g.sLast
						g.sGap = max(g.sGap, gap)
						if p.sessGap >= 0 && gap > p.sessGap {
							g.sStart = t
						}
						g.sSpan = max(g.sSpan, t-g.sStart)
						g.sLast = t
					}
					g.count++ // the streamed count; set from gCount below
				}
				for s := range aggNumSrcs {
					if has[s] {
						g.acc[s].add(nums[s])
					}
				}
				if p.distinct[3] {
					g.pairs = append(g.pairs, uint64(src)<<32|uint64(dst))
				}
			}
			gk := uint64(gi) << 32
			if p.distinct[0] {
				dl[0] = append(dl[0], gk|uint64(src))
			}
			if p.distinct[1] {
				dl[1] = append(dl[1], gk|uint64(dst))
			}
			if p.distinct[2] {
				dl[2] = append(dl[2], gk|uint64(src), gk|uint64(dst))
			}
		}
	}
	for gi, g := range gs {
		g.count = gCount[gi]
	}
	// distinct endpoints: bucket the (group, node) entries by group
	// (counting sort), then count each group's nodes with a stamp array
	distinct := make([][4]int64, len(gs))
	for kind, list := range dl {
		if !p.distinct[kind] {
			continue
		}
		if err := c.Work(int64(len(list))); err != nil {
			return nil, false, err
		}
		start := make([]int32, len(gs)+1)
		for _, e := range list {
			start[(e>>32)+1]++
		}
		for i := range gs {
			start[i+1] += start[i]
		}
		nodes := make([]uint32, len(list))
		pos := slices.Clone(start[:len(gs)])
		for _, e := range list {
			gi := e >> 32
			nodes[pos[gi]] = uint32(e)
			pos[gi]++
		}
		stamp := make([]int32, r.NumNodes())
		for gi := range gs {
			for _, id := range nodes[start[gi]:start[gi+1]] {
				if stamp[id] != int32(gi)+1 {
					stamp[id] = int32(gi) + 1
					distinct[gi][kind]++
				}
			}
		}
		dl[kind] = nil
	}
	if p.distinct[3] {
		for gi, g := range gs {
			slices.Sort(g.pairs)
			distinct[gi][3] = int64(len(slices.Compact(g.pairs)))
			g.pairs = nil
		}
	}
	out, err = aggRows(c, p, gs, stream, distinct, calFirst, labelNames, coercion, needProps)
	return out, false, err
}

// aggAdjacentMax is the largest endpoint_filter read through adjacency
// lists rather than a window scan.
const aggAdjacentMax = 5000

// aggAdjacent lists the believed edge versions starting in the window whose
// endpoint (per the filter's role) is in the filter, each once.
func aggAdjacent(c *Call, p *aggPlan) ([]uint32, error) {
	r := c.R
	ids := make([]uint32, 0, len(p.epSet))
	for id := range p.epSet {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var evs []uint32
	in := func(v uint32) bool { s := r.Valid(v).Start; return p.w.Start <= s && s < p.w.End }
	for _, id := range ids {
		if p.epRole != aggRoleDst {
			out := r.Out(id)
			if err := c.Work(int64(len(out)) + 1); err != nil {
				return nil, err
			}
			for _, v := range out {
				if in(v) {
					evs = append(evs, v)
				}
			}
		}
		if p.epRole != aggRoleSrc {
			inc := r.In(id)
			if err := c.Work(int64(len(inc)) + 1); err != nil {
				return nil, err
			}
			for _, v := range inc {
				if p.epRole == aggRoleEither && p.epSet[r.Src(v)] {
					continue // listed with its source's out-edges
				}
				if in(v) {
					evs = append(evs, v)
				}
			}
		}
	}
	return evs, nil
}

// aggSearch is sort.Search.
func aggSearch(n int, f func(int) bool) int {
	lo, hi := 0, n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if !f(m) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// aggChainEnd is the end of the occurrence that starts with believed
// version v: v's end, extended over believed versions of the same identity
// that start exactly where the previous one ends.
func aggChainEnd(r engine.Reader, v uint32, iv bt.Interval) int64 {
	end := iv.End
	if end >= bt.OpenEnd {
		return end
	}
	others := r.IdentityVersions(v)
	if len(others) < 2 {
		return end
	}
	for moved := true; moved && end < bt.OpenEnd; {
		moved = false
		for _, w := range others {
			if w != v && r.Believed(w) {
				if wv := r.Valid(w); wv.Start == end {
					end, moved = wv.End, true
					break
				}
			}
		}
	}
	return end
}

// aggCalFromIndex returns the local-day bounds of calendar bucket idx.
func aggCalFromIndex(unit string, idx int64) (sd, ed int64) {
	switch unit {
	case "day":
		return idx, idx + 1
	case "week":
		return idx*7 - 3, idx*7 + 4
	case "month":
		y, m := aggFloorDiv(idx, 12), idx-aggFloorDiv(idx, 12)*12+1
		sd = aggDaysFromCivil(y, m, 1)
		if m == 12 {
			return sd, aggDaysFromCivil(y+1, 1, 1)
		}
		return sd, aggDaysFromCivil(y, m+1, 1)
	}
	return aggDaysFromCivil(idx, 1, 1), aggDaysFromCivil(idx+1, 1, 1)
}

func aggRows(c *Call, p *aggPlan, gs []*aggGroup, stream bool, distinct [][4]int64, calFirst []int64, labelNames []string, coercion map[string]int64, needProps bool) (map[string]any, error) {
	r := c.R
	rows := make([]map[string]any, 0, len(gs))
	for gi, g := range gs {
		if err := c.Work(1 + int64(len(g.times))); err != nil {
			return nil, err
		}
		row := map[string]any{}
		gk := make([]any, 0, p.slots)
		for di, d := range p.dims {
			switch d.kind {
			case aggDimTime:
				if d.stride > 0 {
					ta := p.w.Start + g.key[d.slot]*d.stride
					row["t_a"], row["t_b"] = ta, min(ta+d.stride, p.w.End)
					gk = append(gk, ta)
				} else {
					sd, ed := aggCalFromIndex(d.unit, calFirst[di]+g.key[d.slot])
					ta := max(sd*aggDayUS-d.off, p.w.Start)
					row["t_a"], row["t_b"] = ta, min(ed*aggDayUS-d.off, p.w.End)
					row["bucket"] = aggCalName(d.unit, sd)
					gk = append(gk, ta)
				}
			case aggDimEndpoint:
				u := r.UID(uint32(g.key[d.slot]))
				row[[]string{"src", "dst", "node"}[d.role]] = u
				gk = append(gk, u)
			case aggDimLabel:
				var l any
				if id := g.key[d.slot]; id > 0 {
					l = labelNames[id-1]
				}
				row[[]string{"src_label", "dst_label", "node_label"}[d.role]] = l
				gk = append(gk, l)
			case aggDimRel:
				rel := r.RelName(uint32(g.key[d.slot]))
				row["rel_type"] = rel
				gk = append(gk, rel)
			case aggDimPair:
				a, b := r.UID(uint32(g.key[d.slot])), r.UID(uint32(g.key[d.slot+1]))
				if d.undirected {
					row["node_a"], row["node_b"] = a, b
				} else {
					row["src"], row["dst"] = a, b
				}
				gk = append(gk, a, b)
			}
		}
		row["group_key"] = gk
		ts := g.times
		if !slices.IsSorted(ts) {
			slices.Sort(ts)
		}
		for _, a := range p.aggs {
			var val any
			switch a.agg {
			case "count":
				val = g.count
			case "count_distinct":
				val = distinct[gi][slices.Index([]string{"src", "dst", "node", "pair"}, a.of)]
			case "sum":
				s, err := g.acc[a.src].sum()
				if err != nil {
					return nil, err
				}
				val = s
			case "mean":
				val = g.acc[a.src].mean()
			case "min", "max":
				acc := &g.acc[a.src]
				if acc.n > 0 {
					if a.agg == "min" {
						val = acc.min.value()
					} else {
						val = acc.max.value()
					}
				}
			case "max_gap":
				if stream {
					if g.count >= 2 {
						val = g.sGap
					}
				} else if len(ts) >= 2 {
					best := int64(0)
					for i := 1; i < len(ts); i++ {
						best = max(best, ts[i]-ts[i-1])
					}
					val = best
				}
			case "max_session_span":
				if stream {
					if g.count >= 1 {
						val = g.sSpan
					}
				} else if len(ts) >= 1 {
					best, first := int64(0), ts[0]
					for i := 1; i < len(ts); i++ {
						if ts[i]-ts[i-1] > a.gap {
							first = ts[i]
						}
						best = max(best, ts[i]-first)
					}
					val = best
				}
			case "max_in_window":
				best, j := int64(0), 0
				for i, t := range ts {
					for j < len(ts) && ts[j] < t+a.span {
						j++
					}
					best = max(best, int64(j-i))
				}
				val = best
			}
			row[a.col] = val
		}
		rows = append(rows, row)
	}
	slices.SortFunc(rows, func(x, y map[string]any) int {
		return compareKeys(x["group_key"].([]any), y["group_key"].([]any))
	})
	out := map[string]any{"rows": rowsOf(rows)}
	if needProps {
		pc := map[string]any{}
		for k, v := range coercion {
			pc[k] = v
		}
		out["prop_coercion"] = pc
	}
	return out, nil
}
