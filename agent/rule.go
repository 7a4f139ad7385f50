package agent

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/plan"
)

// RulePlanner is the deterministic planner: it recognises a fixed set of
// question shapes (every template and paraphrase of the evaluation suites)
// and writes the plan for each with no model. Any other question is
// refused with ErrUnsupportedQuestion.
type RulePlanner struct{}

const (
	ruleRowLimit = 10_000
	usDay        = 86_400_000_000
	usHour       = 3_600_000_000
	motifTri     = "M_triangle_cyclic"
	motifPP      = "M_2node_pingpong"
)

// shape is one recognised question form.
type shape struct {
	name     string
	patterns []string // {x} {y} entities; {ta} {tb} {t} {t1} {t2} {tt} times; {W} = "from {ta} to {tb}"; {D} days; {H} hours
	build    func(m *match) (*builder, error)
	re       []*regexp.Regexp
}

// match is what a pattern captured.
type match struct {
	q      Question
	shape  string
	form   int
	ents   map[string]string
	times  map[string]int64
	days   float64
	hours  float64
	hasD   bool
	hasH   bool
	uidSet map[string]bool
}

func (m *match) span() int64 { return m.q.Card.VtMax - m.q.Card.VtMin }

// stride is the bucket width "buckets of X days": the width that cuts the
// window into n buckets (the shape's usual count) when it prints as X, else
// X days as written.
func (m *match) stride(n int64) int64 {
	ta, tb := m.times["ta"], m.times["tb"]
	shown := fmt.Sprintf("%.1f", m.days)
	cand := max(usDay, (tb-ta)/n)
	cand = max(cand, (tb-ta+1999)/2000)
	if fmt.Sprintf("%.1f", float64(cand)/usDay) == shown {
		return cand
	}
	return max(1, int64(math.Round(m.days*usDay)))
}

// delta is the duration "X hours": span/k of the store's extent (the
// shape's usual fraction) when it prints as X, else X hours as written.
func (m *match) delta(k int64) int64 {
	shown := fmt.Sprintf("%.1f", m.hours)
	if sp := m.span(); sp > 0 && k > 0 {
		cand := max(usHour, sp/k)
		if fmt.Sprintf("%.1f", float64(cand)/usHour) == shown {
			return cand
		}
	}
	return max(1, int64(math.Round(m.hours*usHour)))
}

func win(ta, tb int64) map[string]any { return map[string]any{"t_a": ta, "t_b": tb} }
func ref(p string) map[string]any     { return map[string]any{"$ref": p} }

// builder assembles a plan, numbering steps and deriving depends_on from
// the references in each step's arguments.
type builder struct {
	id    string
	steps []map[string]any
	kind  string
	from  string
	m     *match
}

func (b *builder) add(op string, args map[string]any) string {
	id := "s" + strconv.Itoa(len(b.steps)+1)
	var deps []string
	collectRefs(args, func(r string) {
		if rr, err := plan.ParseRef(r, false); err == nil && !slices.Contains(deps, rr.Step) {
			deps = append(deps, rr.Step)
		}
	})
	slices.Sort(deps)
	d := make([]any, len(deps))
	for i, s := range deps {
		d[i] = s
	}
	b.steps = append(b.steps, map[string]any{"id": id, "op": op, "args": args, "depends_on": d})
	return id
}

func collectRefs(v any, f func(string)) {
	switch x := v.(type) {
	case map[string]any:
		if r, ok := plan.AsRef(x); ok {
			f(r)
			return
		}
		for _, e := range x {
			collectRefs(e, f)
		}
	case []any:
		for _, e := range x {
			collectRefs(e, f)
		}
	}
}

// entity binds a node the question mentions: the literal uid when the task
// supplied it, else a resolve_entities step and a reference to its first
// row (the question named the node some other way).
func (b *builder) entity(key string) any {
	x := b.m.ents[key]
	if b.m.uidSet[x] {
		return x
	}
	return ref(b.resolve(x) + ".rows[0].uid")
}

func (b *builder) resolve(x string) string {
	return b.add("resolve_entities", map[string]any{"query": x, "limit": int64(ruleRowLimit)})
}

// entityList binds a node for a list-typed argument.
func (b *builder) entityList(key string) any {
	x := b.m.ents[key]
	if b.m.uidSet[x] {
		return []any{x}
	}
	return ref(b.resolve(x) + ".rows[*].uid")
}

func (b *builder) answer(kind, from string) *builder {
	b.kind, b.from = kind, from
	return b
}

func (b *builder) json(question string) ([]byte, error) {
	steps := make([]any, len(b.steps))
	for i, s := range b.steps {
		steps[i] = s
	}
	return canon.Marshal(map[string]any{"plan_id": "rule-" + b.id, "question": question, "steps": steps,
		"answer_spec": map[string]any{"kind": b.kind, "from": b.from}})
}

func newB(m *match) *builder { return &builder{id: m.shape, m: m} }

func reachArgs(src any, ta, tb int64) map[string]any {
	return map[string]any{"src": src, "window": win(ta, tb), "limit": int64(ruleRowLimit)}
}

func metric(name string) func(m *match) (*builder, error) {
	return func(m *match) (*builder, error) {
		b := newB(m)
		ta, tb := m.times["ta"], m.times["tb"]
		s := b.add("graph_metric_timeseries", map[string]any{"metric": name, "window": win(ta, tb), "stride": tb - ta, "limit": int64(ruleRowLimit)})
		return b.answer("value", s+".rows[0].value"), nil
	}
}

func countHistory(asOf bool) func(m *match) (*builder, error) {
	return func(m *match) (*builder, error) {
		b := newB(m)
		args := map[string]any{"uid": b.entity("x"), "limit": int64(ruleRowLimit)}
		if asOf {
			args["as_of_tt"] = m.times["tt"]
		}
		s1 := b.add("entity_history", args)
		s2 := b.add("compute", map[string]any{"fn": "count", "input": ref(s1 + ".rows")})
		return b.answer("count", s2+".value"), nil
	}
}

func burstArgs(ta, tb, stride int64) map[string]any {
	return map[string]any{"target": map[string]any{"kind": "edge_event_rate"}, "window": win(ta, tb), "stride": stride, "limit": int64(ruleRowLimit)}
}

func motifMembers(motif string) func(m *match) (*builder, error) {
	return func(m *match) (*builder, error) {
		b := newB(m)
		s := b.add("find_temporal_motif_instances", map[string]any{"motif": motif, "delta": m.delta(0), "window": win(m.times["ta"], m.times["tb"]), "limit": int64(ruleRowLimit)})
		return b.answer("entity_set", s+".rows"), nil
	}
}

var shapes = []*shape{
	{name: "reach-count", patterns: []string{
		"How many nodes can {x} reach along time-respecting paths (each edge no earlier than the one before) with events {W}?",
		"Counting only chains of contacts that move forward in time, how many distinct nodes are reachable from {x} {W}?",
		"Starting at {x}, {W}, how many other nodes could a message reach along time-ordered edges?",
	}, build: func(m *match) (*builder, error) {
		b := newB(m)
		s := b.add("temporal_reachability", reachArgs(b.entity("x"), m.times["ta"], m.times["tb"]))
		return b.answer("count", s+".rows_total"), nil
	}},
	{name: "reach-first", patterns: []string{
		"Along time-respecting paths {W}, which node does {x} reach first (ties broken by uid)?",
		"Which node is the earliest to be reached from {x} by time-ordered edges {W} (ties by uid)?",
		"Information leaves {x}; {W}, which node gets it first (earliest arrival, ties by uid)?",
	}, build: func(m *match) (*builder, error) {
		b := newB(m)
		s := b.add("temporal_reachability", reachArgs(b.entity("x"), m.times["ta"], m.times["tb"]))
		return b.answer("value", s+".rows[0].uid"), nil
	}},
	{name: "neighbors-at", patterns: []string{
		"Which nodes were direct neighbours of {x} (an edge valid in either direction) at {t}?",
		"At the instant {t}, which nodes shared a valid edge with {x}?",
		"List the one-hop neighbourhood of {x} in the graph as it stood at {t}.",
	}, build: func(m *match) (*builder, error) {
		b := newB(m)
		s1 := b.add("snapshot_subgraph", map[string]any{"seeds": b.entityList("x"), "hops": int64(1), "t_valid": m.times["t"], "limit": int64(ruleRowLimit)})
		s2 := b.add("compute", map[string]any{"fn": "filter", "input": ref(s1 + ".nodes"), "field": "hop", "cmp": "eq", "value": int64(1), "limit": int64(ruleRowLimit)})
		return b.answer("entity_set", s2+".rows[*].uid"), nil
	}},
	{name: "degree-at", patterns: []string{
		"What was the degree of {x} (incident edges valid at that instant) at {t}?",
		"How many edges touching {x} were valid at {t}?",
		"At {t}, how many incident edge versions did {x} have?",
	}, build: func(m *match) (*builder, error) {
		b := newB(m)
		t := m.times["t"]
		s := b.add("neighborhood_evolution", map[string]any{"uid": b.entity("x"), "t1": t, "t2": t + 2, "stride": int64(2)})
		return b.answer("value", s+".degree_series[0].degree"), nil
	}},
	{name: "event-count", patterns: []string{
		"How many edge events started {W}?",
		"Count the events (edges by their start time) {W}.",
		"What was the total number of interactions recorded {W}?",
	}, build: metric("edge_event_count")},
	{name: "busiest", patterns: []string{
		"Cutting the period {W} into buckets of {D} from its start, which bucket had the most edge events?",
		"Which {D} bucket (counted from {ta}) was the busiest in events, up to {tb}?",
		"{W}, in consecutive buckets of {D}, when was activity (edge events) highest?",
	}, build: func(m *match) (*builder, error) {
		b := newB(m)
		ta, tb := m.times["ta"], m.times["tb"]
		s1 := b.add("graph_metric_timeseries", map[string]any{"metric": "edge_event_count", "window": win(ta, tb), "stride": m.stride(14), "limit": int64(ruleRowLimit)})
		s2 := b.add("compute", map[string]any{"fn": "topk", "input": ref(s1 + ".rows"), "field": "value", "k": int64(1)})
		return b.answer("interval", s2+".rows[0]"), nil
	}},
	{name: "new-nodes", patterns: []string{
		"How many nodes appeared for the first time {W}?",
		"Count the new nodes (first valid {W}).",
		"How many accounts became active for the first time {W}?",
	}, build: metric("new_node_rate")},
	{name: "reciprocity", patterns: []string{
		"What share of the directed pairs that interacted {W} also interacted in the reverse direction in that period?",
		"What was the reciprocity of the interactions {W}?",
		"{W}, what fraction of sender→receiver pairs were answered by receiver→sender?",
	}, build: metric("reciprocity")},
	{name: "earliest", patterns: []string{
		"Along time-respecting paths from {x} {W}, what is the earliest time {y} can be reached (µs)?",
		"When is the earliest that something sent by {x} could arrive at {y}, using time-ordered edges {W}?",
		"{W}, what is the earliest arrival time at {y} of a time-respecting path starting at {x}?",
	}, build: func(m *match) (*builder, error) {
		b := newB(m)
		src := b.entity("x")
		y := b.entity("y")
		s1 := b.add("temporal_reachability", reachArgs(src, m.times["ta"], m.times["tb"]))
		s2 := b.add("compute", map[string]any{"fn": "filter", "input": ref(s1 + ".rows"), "field": "uid", "cmp": "eq", "value": y, "limit": int64(ruleRowLimit)})
		return b.answer("value", s2+".rows[0].earliest_arrival"), nil
	}},
	{name: "bursts", patterns: []string{
		"In buckets of {D} {W}, how many buckets were bursts of event activity (z-score at least 3 against the previous 10 buckets)?",
		"How many {D} buckets {W} show a burst in the edge event rate (z-score ≥ 3 over a 10-bucket history)?",
		"{W}, counting in {D} buckets, how many bursts of activity are there (z ≥ 3, 10 buckets of history)?",
	}, build: func(m *match) (*builder, error) {
		b := newB(m)
		s1 := b.add("burst_detection", burstArgs(m.times["ta"], m.times["tb"], m.stride(30)))
		s2 := b.add("compute", map[string]any{"fn": "count", "input": ref(s1 + ".rows")})
		return b.answer("count", s2+".value"), nil
	}},
	{name: "recipients", patterns: []string{
		"To which nodes did {x} send edges starting {W}?",
		"Which nodes received at least one edge from {x} {W}?",
		"{W}, who were the recipients of {x}'s outgoing interactions?",
	}, build: func(m *match) (*builder, error) {
		b := newB(m)
		x := b.entity("x")
		s1 := b.add("entity_history", map[string]any{"uid": x, "include_edges": true, "limit": int64(ruleRowLimit)})
		s2 := b.add("compute", map[string]any{"fn": "filter", "input": ref(s1 + ".edges"), "field": "vt_s", "cmp": "ge", "value": m.times["ta"], "limit": int64(ruleRowLimit)})
		s3 := b.add("compute", map[string]any{"fn": "filter", "input": ref(s2 + ".rows"), "field": "vt_s", "cmp": "lt", "value": m.times["tb"], "limit": int64(ruleRowLimit)})
		s4 := b.add("compute", map[string]any{"fn": "filter", "input": ref(s3 + ".rows"), "field": "src", "cmp": "eq", "value": x, "limit": int64(ruleRowLimit)})
		return b.answer("entity_set", s4+".rows[*].dst"), nil
	}},
	{name: "history", patterns: []string{
		"How many versions of node {x} does the store currently believe?",
		"Under current belief, how many node versions does {x} have?",
		"Count the believed versions in the history of {x}.",
		"Under current belief, how many versions of node {x} does the store hold?",
		"After every correction so far, how many versions does node {x} have now?",
		"What number of node versions of {x} are on record now?",
	}, build: countHistory(false)},
	{name: "history-as-of", patterns: []string{
		"As of transaction time {tt}, how many versions of node {x} did the store believe?",
		"Before the records were revised — believing what we believed at {tt} — how many versions did node {x} have?",
		"What number of node versions of {x} were on record as of belief time {tt}?",
	}, build: countHistory(true)},
	{name: "added", patterns: []string{
		"How many nodes were present in the graph at {tb} that were not present at {ta}?",
		"Comparing the graph at {ta} with the graph at {tb}, how many nodes were added?",
		"Between the snapshots at {ta} and {tb}, how many new nodes appear?",
	}, build: func(m *match) (*builder, error) {
		b := newB(m)
		s := b.add("diff_snapshots", map[string]any{"t1": m.times["ta"], "t2": m.times["tb"], "limit": int64(100)})
		return b.answer("value", s+".nodes_added_total"), nil
	}},
	{name: "gained", patterns: []string{
		"Which nodes were neighbours of {x} at {t2} but not at {t1}?",
		"Between {t1} and {t2}, which neighbours did {x} gain?",
		"Compared with {t1}, which new neighbours did {x} have at {t2}?",
	}, build: func(m *match) (*builder, error) {
		b := newB(m)
		s := b.add("neighborhood_evolution", map[string]any{"uid": b.entity("x"), "t1": m.times["t1"], "t2": m.times["t2"], "limit": int64(ruleRowLimit)})
		return b.answer("entity_set", s+".neighbors_gained"), nil
	}},
	{name: "first-burst", patterns: []string{
		"In buckets of {D} {W}, when was the first burst of event activity (z-score at least 3 against the previous 10 buckets)?",
		"Which {D} bucket {W} is the first burst in the edge event rate (z ≥ 3, 10 buckets of history)?",
		"{W}, counting events in {D} buckets, when does activity first burst (z ≥ 3)?",
	}, build: func(m *match) (*builder, error) {
		b := newB(m)
		s := b.add("burst_detection", burstArgs(m.times["ta"], m.times["tb"], m.stride(90)))
		return b.answer("interval", s+".rows[0]"), nil
	}},
	{name: "reach-motifs", patterns: []string{
		"Among the nodes {x} can reach along time-respecting paths {W}, how many cyclic triangles a→b→c→a completing within {H} happen in that period?",
		"Restricting to the nodes reachable from {x} by time-ordered edges {W}, count the temporal cyclic triangles (span at most {H}) in that window.",
		"{W}, how many δ-temporal cyclic triangles (δ = {H}) are formed only by nodes that {x} can reach in time order?",
	}, build: func(m *match) (*builder, error) {
		b := newB(m)
		s1 := b.resolve(m.ents["x"])
		ta, tb := m.times["ta"], m.times["tb"]
		s2 := b.add("temporal_reachability", reachArgs(ref(s1+".rows[0].uid"), ta, tb))
		s3 := b.add("count_temporal_motifs", map[string]any{"motif": motifTri, "delta": m.delta(20), "window": win(ta, tb), "node_filter": ref(s2 + ".rows[*].uid")})
		return b.answer("count", s3+".count"), nil
	}},
	{name: "first-history", patterns: []string{
		"Take the first node {x} reaches along time-respecting paths {W} (ties by uid): how many versions of it does the store currently believe?",
		"How many believed node versions does the earliest node reached from {x} (time-ordered edges {W}, ties by uid) have?",
		"{W}, the first node to hear from {x} — how many versions of it are currently believed?",
	}, build: func(m *match) (*builder, error) {
		b := newB(m)
		s1 := b.add("temporal_reachability", reachArgs(b.entity("x"), m.times["ta"], m.times["tb"]))
		s2 := b.add("entity_history", map[string]any{"uid": ref(s1 + ".rows[0].uid"), "limit": int64(ruleRowLimit)})
		s3 := b.add("compute", map[string]any{"fn": "count", "input": ref(s2 + ".rows")})
		return b.answer("count", s3+".value"), nil
	}},
	{name: "participant", patterns: []string{
		"Among the nodes {x} can reach along time-respecting paths {W}, which node starts the earliest cyclic triangle a→b→c→a completing within {H}?",
		"Considering only nodes reachable from {x} by time-ordered edges {W}, who sends the first edge of the earliest temporal cyclic triangle (span at most {H})?",
		"{W}, in the first δ-temporal cyclic triangle (δ = {H}) among nodes {x} reaches in time order, which node acts first?",
	}, build: func(m *match) (*builder, error) {
		b := newB(m)
		ta, tb := m.times["ta"], m.times["tb"]
		s1 := b.add("temporal_reachability", reachArgs(b.entity("x"), ta, tb))
		s2 := b.add("find_temporal_motif_instances", map[string]any{"motif": motifTri, "delta": m.delta(50), "window": win(ta, tb), "node_filter": ref(s1 + ".rows[*].uid"), "limit": int64(ruleRowLimit)})
		return b.answer("value", s2+".rows[0].edges[0].src"), nil
	}},
	{name: "coactive", patterns: []string{
		"How many ordered pairs of edges sent by {x} have the second starting after the first ends, within {H}?",
		"Count the pairs (a, b) of {x}'s outgoing edges where b begins at most {H} after a ends.",
		"For node {x}, how many pairs of its outgoing interactions follow one another with a gap of at most {H}?",
	}, build: func(m *match) (*builder, error) {
		b := newB(m)
		s1 := b.resolve(m.ents["x"])
		who := map[string]any{"src": ref(s1 + ".rows[0].uid")}
		s2 := b.add("co_active", map[string]any{"a_spec": who, "b_spec": who, "allen_relation": map[string]any{"relation": "before", "gap": m.delta(200)}, "limit": int64(ruleRowLimit)})
		return b.answer("count", s2+".rows_total"), nil
	}},
	{name: "triangles", patterns: []string{
		"Which nodes take part in a time-ordered 3-cycle a→b→c→a that completes within {H}, {W}?",
		"{W}, which nodes form temporal cyclic triangles (three messages around a cycle within {H})?",
		"List every node in a cyclic triangle of messages spanning at most {H} {W}.",
	}, build: motifMembers(motifTri)},
	{name: "pingpong", patterns: []string{
		"Which nodes play ping-pong (a→b, b→a, a→b) within {H}, {W}?",
		"{W}, which pairs of nodes exchange three alternating messages within {H}? List the nodes.",
		"List every node in a back-and-forth exchange a→b→a→b spanning at most {H} {W}.",
	}, build: motifMembers(motifPP)},
	{name: "day-burst", patterns: []string{
		"{W}, during which one-day period did edge-event activity burst far above its usual rate?",
		"When, {W}, was there a one-day burst of events? Give the interval.",
		"Find the day-long burst of activity {W} (answer with its start and end).",
	}, build: func(m *match) (*builder, error) {
		b := newB(m)
		s := b.add("burst_detection", burstArgs(m.times["ta"], m.times["tb"], usDay))
		return b.answer("interval", s+".rows[0]"), nil
	}},
}

var placeholderRE = regexp.MustCompile(`\{(x|y|ta|tb|t|t1|t2|tt|W|D|H)\}`)

// compile turns a pattern into an anchored, case-insensitive regexp over
// the normalised question.
func compile(p string) *regexp.Regexp {
	p = strings.TrimRight(strings.ReplaceAll(p, "{W}", "from {ta} to {tb}"), "?. ")
	var sb strings.Builder
	sb.WriteString(`(?i)^`)
	last := 0
	for _, loc := range placeholderRE.FindAllStringSubmatchIndex(p, -1) {
		sb.WriteString(literal(p[last:loc[0]]))
		name := p[loc[2]:loc[3]]
		switch name {
		case "x", "y":
			sb.WriteString(`(?P<` + name + `>\S.*?)`)
		case "D":
			sb.WriteString(`@D(?P<D>\d+)@`)
		case "H":
			sb.WriteString(`@H(?P<H>\d+)@`)
		default:
			sb.WriteString(`@T(?P<` + name + `>\d+)@`)
		}
		last = loc[1]
	}
	sb.WriteString(literal(p[last:]))
	sb.WriteString(`$`)
	return regexp.MustCompile(sb.String())
}

// literal quotes text, letting runs of spaces match any white space and
// making final punctuation optional.
func literal(s string) string {
	parts := strings.Fields(s)
	lead := strings.HasPrefix(s, " ") || s == " "
	trail := strings.HasSuffix(s, " ") && len(parts) > 0
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	out := strings.Join(parts, `\s+`)
	if lead {
		out = `\s+` + out
	}
	if trail {
		out += `\s+`
	}
	if s == " " {
		return `\s+`
	}
	return out
}

func init() {
	for _, s := range shapes {
		for _, p := range s.patterns {
			s.re = append(s.re, compile(p))
		}
	}
}

var (
	tsFullRE    = regexp.MustCompile(`\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*(?:UTC|Z)?\s*\((-?\d+)\)`)
	tsDateRE    = regexp.MustCompile(`\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:\s*UTC|Z)?`)
	tsMicroRE   = regexp.MustCompile(`\b\d{10,19}\b`)
	smallTimeRE = regexp.MustCompile(`(?i)\b(from|to|at|between|and|time)\s+(\d{1,9})\b`)
	daysRE      = regexp.MustCompile(`(\d+(?:\.\d+)?)\s+days?\b`)
	hoursRE     = regexp.MustCompile(`(\d+(?:\.\d+)?)\s+hours?\b`)
)

// normalize replaces every time (a UTC date with its microseconds in
// parentheses, a date alone, or raw microseconds) by @T<i>@, durations by
// @D<i>@ and @H<i>@, and collapses white space.
func normalize(q string) (string, []int64, []float64, []float64, error) {
	var times []int64
	var days, hours []float64
	var bad error
	q = strings.Join(strings.Fields(q), " ")
	q = tsFullRE.ReplaceAllStringFunc(q, func(s string) string {
		m := tsFullRE.FindStringSubmatch(s)
		v, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil {
			bad = err
		}
		times = append(times, v)
		return fmt.Sprintf("@T%d@", len(times)-1)
	})
	q = tsDateRE.ReplaceAllStringFunc(q, func(s string) string {
		v, err := parseDate(s)
		if err != nil {
			bad = err
			return s
		}
		times = append(times, v)
		return fmt.Sprintf("@T%d@", len(times)-1)
	})
	q = daysRE.ReplaceAllStringFunc(q, func(s string) string {
		f, _ := strconv.ParseFloat(daysRE.FindStringSubmatch(s)[1], 64)
		days = append(days, f)
		return fmt.Sprintf("@D%d@", len(days)-1)
	})
	q = hoursRE.ReplaceAllStringFunc(q, func(s string) string {
		f, _ := strconv.ParseFloat(hoursRE.FindStringSubmatch(s)[1], 64)
		hours = append(hours, f)
		return fmt.Sprintf("@H%d@", len(hours)-1)
	})
	q = tsMicroRE.ReplaceAllStringFunc(q, func(s string) string {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			bad = err
			return s
		}
		times = append(times, v)
		return fmt.Sprintf("@T%d@", len(times)-1)
	})
	// Short raw microseconds, where a time is expected: "from 0 to 100".
	var sb strings.Builder
	last := 0
	for _, loc := range smallTimeRE.FindAllStringSubmatchIndex(q, -1) {
		end := loc[1]
		if end < len(q) && (q[end] == '-' || q[end] == '.' || q[end] == ',' && end+1 < len(q) && q[end+1] >= '0' && q[end+1] <= '9') {
			continue
		}
		if rest := strings.TrimSpace(q[end:]); strings.HasPrefix(rest, "bucket") || strings.HasPrefix(rest, "step") || strings.HasPrefix(rest, "node") {
			continue
		}
		v, err := strconv.ParseInt(q[loc[4]:loc[5]], 10, 64)
		if err != nil {
			continue
		}
		times = append(times, v)
		sb.WriteString(q[last:loc[4]])
		fmt.Fprintf(&sb, "@T%d@", len(times)-1)
		last = loc[5]
	}
	sb.WriteString(q[last:])
	q = sb.String()
	return q, times, days, hours, bad
}

func parseDate(s string) (int64, error) {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "UTC"))
	s = strings.Replace(s, "T", " ", 1)
	s = strings.TrimSuffix(s, "Z")
	for _, layout := range []string{"2006-01-02 15:04:05.999999999", "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC().UnixMicro(), nil
		}
	}
	return 0, fmt.Errorf("cannot read the time %q", s)
}

// Shapes lists the names of the question shapes the rule planner knows.
func Shapes() []string {
	out := make([]string, len(shapes))
	for i, s := range shapes {
		out[i] = s.name
	}
	return out
}

// Recognize reports which shape a question has ("" when none) and which
// of the shape's phrasings matched.
func Recognize(q Question) (shape string, form int) {
	m, _, err := recognize(q)
	if err != nil {
		return "", -1
	}
	return m.shape, m.form
}

// Forms lists, per shape, how many phrasings the rule planner knows.
func Forms() map[string]int {
	out := map[string]int{}
	for _, s := range shapes {
		out[s.name] = len(s.patterns)
	}
	return out
}

func recognize(q Question) (*match, *shape, error) {
	text := strings.TrimSpace(q.Text)
	norm, times, days, hours, err := normalize(text)
	if err != nil {
		return nil, nil, &ErrUnsupportedQuestion{Question: q.Text, Reason: err.Error()}
	}
	norm = strings.TrimRight(norm, "?. ")
	uidSet := map[string]bool{}
	for _, u := range q.UIDs {
		uidSet[u] = true
	}
	for _, s := range shapes {
		for form, re := range s.re {
			sm := re.FindStringSubmatch(norm)
			if sm == nil {
				continue
			}
			m := &match{q: q, shape: s.name, form: form, ents: map[string]string{}, times: map[string]int64{}, uidSet: uidSet}
			ok := true
			for i, name := range re.SubexpNames() {
				if name == "" || sm[i] == "" {
					continue
				}
				switch name {
				case "x", "y":
					e := strings.Trim(strings.TrimSpace(sm[i]), `"'`)
					if strings.Contains(e, "@") {
						ok = false
					}
					m.ents[name] = e
				case "D":
					j, _ := strconv.Atoi(sm[i])
					m.days, m.hasD = days[j], true
				case "H":
					j, _ := strconv.Atoi(sm[i])
					m.hours, m.hasH = hours[j], true
				default:
					j, _ := strconv.Atoi(sm[i])
					m.times[name] = times[j]
				}
			}
			if ok {
				return m, s, nil
			}
		}
	}
	return nil, nil, &ErrUnsupportedQuestion{Question: q.Text, Reason: "it matches none of the question shapes the rule planner knows; use --planner llm for free-form questions"}
}

// Plan writes the plan for a recognised question.
func (RulePlanner) Plan(ctx context.Context, q Question) ([]byte, error) {
	m, s, err := recognize(q)
	if err != nil {
		return nil, err
	}
	b, err := s.build(m)
	if err != nil {
		return nil, err
	}
	return b.json(q.Text)
}

// Repair fixes the failures it knows a deterministic fix for: a reduction
// refused because its input was a truncated page (the count is read from
// the producing step's rows_total instead, or the page limit is raised),
// and a cost or limit refusal of a page limit (lowered). Anything else is
// ErrCannotRepair.
func (RulePlanner) Repair(ctx context.Context, q Question, previous []byte, feedback []byte) ([]byte, error) {
	return RepairPlan(previous, feedback)
}

// RepairPlan is the rule planner's deterministic repair, usable behind any
// planner.
func RepairPlan(previous []byte, feedback []byte) ([]byte, error) {
	raw, err := canon.Parse(previous)
	if err != nil {
		return nil, ErrCannotRepair
	}
	p, ok := raw.(map[string]any)
	if !ok {
		return nil, ErrCannotRepair
	}
	fb, _ := canon.Parse(feedback)
	fm, _ := fb.(map[string]any)
	vs, _ := fm["violations"].([]any)
	steps, _ := p["steps"].([]any)
	spec, _ := p["answer_spec"].(map[string]any)
	changed := false
	for _, v := range vs {
		vm, _ := v.(map[string]any)
		code, _ := vm["code"].(string)
		sid, _ := vm["step_id"].(string)
		if code != ops.ELimit {
			continue
		}
		for i, s := range steps {
			sm, _ := s.(map[string]any)
			if sm["id"] != sid {
				continue
			}
			args, _ := sm["args"].(map[string]any)
			// count over a truncated page: read rows_total instead.
			if sm["op"] == "compute" && args["fn"] == "count" {
				in, ok := plan.AsRef(args["input"])
				if !ok {
					continue
				}
				r, err := plan.ParseRef(in, false)
				if err != nil || len(r.Path) != 1 || r.Path[0].Name != "rows" || r.Path[0].Index >= 0 || r.Path[0].Star {
					continue
				}
				if from, _ := spec["from"].(string); strings.HasPrefix(from, sid+".") || from == sid {
					spec["from"] = r.Step + ".rows_total"
					if k, _ := spec["kind"].(string); k == "value" {
						spec["kind"] = "count"
					}
					if !referenced(steps, sid) {
						steps = append(steps[:i:i], steps[i+1:]...)
					}
					changed = true
				}
			}
			break
		}
	}
	if !changed {
		return nil, ErrCannotRepair
	}
	p["steps"] = steps
	if id, _ := p["plan_id"].(string); id != "" && !strings.HasSuffix(id, "-repaired") {
		p["plan_id"] = id + "-repaired"
	}
	return canon.Marshal(p)
}

// referenced reports whether any step depends on id.
func referenced(steps []any, id string) bool {
	for _, s := range steps {
		sm, _ := s.(map[string]any)
		deps, _ := sm["depends_on"].([]any)
		for _, d := range deps {
			if d == id {
				return true
			}
		}
	}
	return false
}
