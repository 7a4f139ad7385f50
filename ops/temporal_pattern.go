package ops

import (
	"fmt"
	"maps"
	"math"
	"slices"
)

// temporal_pattern: timed patterns of one to four hops with per-hop
// predicates and constraints between consecutive hops. The arguments are
// parsed into a patSpec here; the kernel is in temporal_pattern_kernel.go.

// patVars are the variable names a hop may use. They are fixed so that the
// result schema can declare each variable column a uid.
var patVars = []string{"u", "v", "w", "x", "y", "z"}

// patMaxHops is the longest pattern.
const patMaxHops = 4

const temporalPatternDoc = `Events are those of the δ-temporal motif operators: the believed edge
occurrences (as of as_of_tt) whose event time t lies in the window, t_a <= t
< t_b; a fragment left when a correction or retraction carved an interval is
not a new event (an occurrence is counted once, at the valid start of its
first fragment, with that fragment's props); self-loops never take part.
Events are totally ordered by (t, eid), eid compared as a string.

A pattern is 1 to 4 hops {src, dst, rel_type?, where?, pick?}; src and dst
are variables u, v, w, x, y, z (the same variable in two hops is the same
node; src and dst of one hop must differ). An instance binds every hop to a
distinct event whose endpoints fit its variables, whose relation type is
rel_type (when given; an unknown type matches nothing) and whose props pass
every where predicate, and that meets the constraints below. With distinct
(default true), different variables bind different nodes. bind {var: [uid,
...]} restricts a variable to a list of nodes; [] or uids unknown at
as_of_tt match nothing (an empty, complete answer).

where [{prop, cmp, value}]: cmp eq, ne, lt, le, gt, ge compare props[prop]
with value under aggregate_events' prop_filter type-class rule: numbers
(integers and floats, exactly), strings (by code point) and booleans (eq,
ne) each compare only within their class; an event whose value is missing,
null or of another class fails the predicate (so ne fails it too). cmp
exists needs a non-null value (no value argument).

Constraints between consecutive hops i and i+1 (event times t_i, t_i+1):
  order "sequence" (default): hop i+1's event comes after hop i's in (t,
    eid) order: t_i <= t_i+1, equal times ordered by eid, as in the motif
    operators. "strict": t_i < t_i+1 (simultaneous events never follow each
    other). "any": no order (the reverse-edge join: A→B with every B→A
    before or after it).
  within: the gap t_i+1 - t_i (its absolute value with order any) is at
    most within µs; min_gap: the gap is at least min_gap µs.
  span: over the whole instance, max t - min t <= span µs (the motif δ).
  same_day {utc_offset_minutes}: all hops' events fall on one local
    calendar day at that fixed offset from UTC.
pick "first" on hop i >= 1 (X after Y): for each binding of hops 0..i-1,
only the earliest event in (t, eid) order that fits hop i (endpoints,
rel_type, where, constraints, distinct) is kept; later hops extend it alone
(when it has no extension the binding yields nothing, no later event takes
its place).

output "instances" (default): rows {<var>: uid for each variable used,
hops: [{src, dst, rel_type, eid, t, props}]} ordered by ((t_0, eid_0), (t_1,
eid_1), ...) in hop order, paged by the cursor; count is the number of
instances (rows_total). output "count": count only, no rows (no listing
limit). n_events_in_window counts the window's events, self-loops included.
A pattern that equals a 3-edge motif (its hops as the motif's edges, order
sequence, span = delta, distinct) counts exactly what count_temporal_motifs
counts.

Errors: a hop with src equal to dst, pick on hop 0, a where predicate
without a value (or with a value for exists, or an order comparison on a
boolean, or a value that is no number, string or boolean), a bind variable
no hop uses, or min_gap above within is E_INVALID_ARG with the path; bad
shapes are E_SCHEMA. Listing more instances than the memory budget holds
is E_LIMIT (use output "count"); work over the budget is E_COST.`

func patArgs() *Schema {
	varEnum := func(desc string) *Schema { return Enum(desc, patVars...) }
	bind := map[string]*Schema{}
	for _, v := range patVars {
		bind[v] = UIDList("the nodes variable " + v + " may bind ([] or unknown uids: nothing)")
	}
	return Obj("", map[string]*Schema{
		"window": Window(),
		"hops": Arr("the pattern's hops in order", Obj("one hop: an event src → dst", map[string]*Schema{
			"src":      varEnum("variable of the event's source"),
			"dst":      varEnum("variable of the event's destination (not src)"),
			"rel_type": Str("keep events of this relation type only (null: any)").NonEmpty().OrNull(),
			"where": Arr("every predicate must hold on the event's props", Obj("a predicate prop cmp value", map[string]*Schema{
				"prop":  Str("property name").NonEmpty(),
				"cmp":   Enum("comparison", "eq", "ne", "lt", "le", "gt", "ge", "exists"),
				"value": Any("literal: number, string or boolean (none for exists)"),
			}, "prop", "cmp")).Max(4).OrNull(),
			"pick": Enum(`"all" (default) or "first": per binding of the earlier hops only the earliest fitting event (not on hop 0)`, "all", "first").OrNull(),
		}, "src", "dst")).NonEmpty().Max(patMaxHops),
		"bind":     Obj("restrict variables to node lists", bind).OrNull(),
		"order":    Enum(`between consecutive hops: "sequence" (after, in (t, eid) order), "strict" (strictly later time) or "any"`, "sequence", "strict", "any").Def("sequence"),
		"within":   Int("largest gap between consecutive hops' times (µs)").Range(0, 1<<62).OrNull(),
		"min_gap":  Int("smallest gap between consecutive hops' times (µs)").Range(0, 1<<62).OrNull(),
		"span":     Int("largest max t - min t over the instance (µs)").Range(0, 1<<62).OrNull(),
		"same_day": Obj("all events on one local calendar day", map[string]*Schema{"utc_offset_minutes": Int("fixed local offset from UTC in minutes").Range(-1440, 1440)}, "utc_offset_minutes").OrNull(),
		"distinct": Bool("different variables bind different nodes").Def(true),
		"output":   Enum(`"instances" (rows) or "count" (the number only)`, "instances", "count").Def("instances"),
		"as_of_tt": AsOfTT(),
		"limit":    Limit(),
		"cursor":   Cursor(),
	}, "window", "hops")
}

func patResult() *Schema {
	row := map[string]*Schema{
		"hops": Arr("the instance's events in hop order", Obj("an event", map[string]*Schema{
			"src":      UIDField("source node"),
			"dst":      UIDField("destination node"),
			"rel_type": Str("relation type"),
			"eid":      Str("edge identity id"),
			"t":        Int("event time: valid start of the occurrence (µs)"),
			"props":    Any("the event's props (its first fragment's, as believed at as_of_tt)"),
		})),
	}
	for _, v := range patVars {
		row[v] = UIDField("the node variable " + v + " binds (present when a hop uses it)")
	}
	return Paged("pattern instances (none with output count)", Obj("one instance", row), map[string]*Schema{
		"count":              Int("number of instances, all pages"),
		"n_events_in_window": Int("events in the window (self-loops included)"),
	})
}

func init() {
	Register(&Spec{
		Name:    "temporal_pattern",
		Summary: "Find or count timed patterns of 1-4 hops with per-hop predicates and time constraints between hops (chains, cycles, reverse edges, X after Y).",
		Doc:     temporalPatternDoc,
		Args:    patArgs(),
		Result:  patResult(),
		Order:   "instances by ((t_0, eid_0), (t_1, eid_1), ...) in hop order",
		Paged:   true,
		RowKey:  patRowKey,
		Cost:    patCost,
		Run:     runTemporalPattern,
	})
}

// patRowKey is (t_0, eid_0, t_1, eid_1, ...).
func patRowKey(row map[string]any) []any {
	hops, _ := row["hops"].([]any)
	key := make([]any, 0, 2*len(hops))
	for _, h := range hops {
		m, _ := h.(map[string]any)
		key = append(key, m["t"], m["eid"])
	}
	return key
}

// patOrder is the order constraint between consecutive hops.
type patOrder uint8

const (
	patSequence patOrder = iota
	patStrict
	patAny
)

// patHop is one parsed hop.
type patHop struct {
	src, dst int // variable indexes into patVars
	rel      string
	hasRel   bool
	where    []*aggFilter
	first    bool
}

// patSpec is a parsed pattern. Absent bounds are -1.
type patSpec struct {
	hops           []patHop
	used           [6]bool
	bind           [6][]string // nil: unrestricted
	hasBind        [6]bool
	order          patOrder
	within, minGap int64
	span           int64
	sameDay        bool
	offset         int64 // µs
	distinct       bool
	count          bool
}

func patErr(path, hint, format string, args ...any) error {
	return Errorf(EInvalidArg, map[string]any{"path": path, "hint": hint}, format, args...)
}

func patVarIndex(s string) int { return slices.Index(patVars, s) }

// patParse checks the arguments beyond their schema.
func patParse(c *Call) (*patSpec, error) {
	p := &patSpec{within: -1, minGap: -1, span: -1, distinct: c.Bool("distinct"), count: c.Str("output") == "count"}
	switch c.Str("order") {
	case "strict":
		p.order = patStrict
	case "any":
		p.order = patAny
	}
	hops, _ := c.Args["hops"].([]any)
	for i, h := range hops {
		m := h.(map[string]any)
		path := fmt.Sprintf("/hops/%d", i)
		hp := patHop{src: patVarIndex(m["src"].(string)), dst: patVarIndex(m["dst"].(string))}
		if hp.src == hp.dst {
			return nil, patErr(path+"/dst", "use two different variables: self-loops never take part in a pattern",
				"hop %d goes from %s to itself", i, patVars[hp.src])
		}
		if r, ok := m["rel_type"].(string); ok {
			hp.rel, hp.hasRel = r, true
		}
		if pk, _ := m["pick"].(string); pk == "first" {
			if i == 0 {
				return nil, patErr(path+"/pick", `put pick "first" on a later hop: it picks the first continuation of the earlier hops`,
					"pick first on hop 0 has no earlier hop to follow")
			}
			hp.first = true
		}
		where, _ := m["where"].([]any)
		for j, w := range where {
			f, err := patFilter(w.(map[string]any), fmt.Sprintf("%s/where/%d", path, j))
			if err != nil {
				return nil, err
			}
			hp.where = append(hp.where, f)
		}
		p.used[hp.src], p.used[hp.dst] = true, true
		p.hops = append(p.hops, hp)
	}
	if b, ok := c.Args["bind"].(map[string]any); ok {
		for _, v := range slices.Sorted(maps.Keys(b)) {
			k := patVarIndex(v)
			if !p.used[k] {
				return nil, patErr("/bind/"+v, "drop "+v+" from bind or use it in a hop", "bind names variable %s, which no hop uses", v)
			}
			p.hasBind[k] = true
			p.bind[k] = []string{}
			for _, u := range b[v].([]any) {
				p.bind[k] = append(p.bind[k], u.(string))
			}
		}
	}
	if c.Has("within") {
		p.within = c.Int("within")
	}
	if c.Has("min_gap") {
		p.minGap = c.Int("min_gap")
	}
	if c.Has("span") {
		p.span = c.Int("span")
	}
	if p.within >= 0 && p.minGap > p.within {
		return nil, patErr("/min_gap", "make min_gap at most within", "min_gap %d is above within %d: no gap fits", p.minGap, p.within)
	}
	if sd, ok := c.Args["same_day"].(map[string]any); ok {
		p.sameDay, p.offset = true, toInt(sd["utc_offset_minutes"])*60_000_000
	}
	return p, nil
}

// patFilter parses one where predicate (the prop_filter rules).
func patFilter(m map[string]any, path string) (*aggFilter, error) {
	f := &aggFilter{prop: m["prop"].(string), cmp: m["cmp"].(string)}
	v, has := m["value"]
	switch {
	case f.cmp == "exists":
		if has {
			return nil, patErr(path+"/value", "drop value", "exists takes no value")
		}
	case !has:
		return nil, patErr(path+"/value", "add a number, string or boolean value", "%s needs a value", f.cmp)
	default:
		switch x := v.(type) {
		case int64, float64, string:
			f.lit = x
		case bool:
			if f.cmp != "eq" && f.cmp != "ne" {
				return nil, patErr(path+"/cmp", "use eq or ne with a boolean", "booleans have no order: %s is undefined", f.cmp)
			}
			f.lit = x
		default:
			return nil, patErr(path+"/value", "use a number, string or boolean", "where value must be a number, string or boolean, got %s", kindOf(v))
		}
	}
	return f, nil
}

// patCost estimates the work of a call from the statistics alone: the
// window's events E (a node's share with a bound first variable), then per
// later hop the candidates one partial instance looks at, the events of a
// bound node's adjacency (E / nodes each way, about 1 for a bound pair, E
// for an unconnected hop) in the share of the window its time constraints
// leave (within, span or same_day against the window's span; twice that
// with order any). Expansions are the partial instances times their
// candidates, summed over hops; pick first keeps one per partial instance.
// Predicates are not counted (they only remove candidates), so the model
// errs high on selective patterns and low on stores whose events cluster
// in time or at hubs; the work budget bounds a call either way.
func patCost(c *Call) Cost {
	st := c.Stats
	w := c.Window("window")
	wf := c.WindowFraction(w)
	events := math.Floor(float64(st.EdgeVersions) * wf)
	nodes := math.Max(1, float64(st.Nodes))
	deg := events / nodes
	winSpan := float64(st.VtMax-st.VtMin) * wf
	if winSpan <= 0 {
		winSpan = float64(w.End - w.Start)
	}
	gapShare := 1.0
	for _, k := range []string{"within", "span"} {
		if c.Has(k) {
			gapShare = math.Min(gapShare, (float64(c.Int(k))+1)/math.Max(1, winSpan))
		}
	}
	if c.Has("same_day") {
		gapShare = math.Min(gapShare, float64(aggDayUS)/math.Max(1, winSpan))
	}
	if c.Str("order") == "any" {
		gapShare = math.Min(1, 2*gapShare)
	}
	hops, _ := c.Args["hops"].([]any)
	bind, _ := c.Args["bind"].(map[string]any)
	bound := map[string]bool{}
	partial, exp := events, 0.0
	for i, h := range hops {
		m, _ := h.(map[string]any)
		s, _ := m["src"].(string)
		d, _ := m["dst"].(string)
		if i == 0 {
			for _, v := range []string{s, d} {
				if l, ok := bind[v].([]any); ok {
					partial = math.Min(partial, float64(len(l))*deg+1)
				}
			}
			exp = partial
		} else {
			var cand float64
			switch {
			case bound[s] && bound[d]:
				cand = math.Max(1, deg/nodes)
			case bound[s] || bound[d]:
				cand = deg
			default:
				cand = events
			}
			cand = math.Ceil(cand*gapShare) + 1
			exp += partial * cand
			if pk, _ := m["pick"].(string); pk != "first" {
				partial *= cand
			}
		}
		bound[s], bound[d] = true, true
	}
	rows := c.ScanCost(wf).Rows
	return Cost{Rows: rows, Expansions: int64(math.Min(exp, 1<<40))}
}
