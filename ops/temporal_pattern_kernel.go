package ops

import (
	"math"
	"slices"
	"sort"
)

// The temporal_pattern kernel binds hop by hop: hop 0 runs over the
// window's events (or the adjacency of a bound variable's nodes), every
// later hop over the sequence-ordered adjacency of the nodes already bound
// (by source, by destination or by pair), cut by binary search to the time
// range the constraints leave. Every candidate is then checked against
// every constraint, so the range only prunes.

// patCollect gathers the call's events: exactly the motif operators'
// population (motifCollect without a node filter), renumbered, sorted by
// (t, eid) and indexed by node and pair.
func patCollect(c *Call) (*motifEvents, error) {
	r := c.R
	vs := r.EdgesStartingIn(c.Window("window"))
	if err := c.Work(int64(len(vs)) + 1); err != nil {
		return nil, err
	}
	ev := &motifEvents{}
	ev.finish(r, ev.collect(r, vs))
	ev.index()
	return ev, nil
}

// patRunner holds one call's search state.
type patRunner struct {
	c     *Call
	ev    *motifEvents
	p     *patSpec
	rel   []int64          // per hop: relation id to match, -1 any, -2 none
	fit   [][]int8         // per hop and event: 0 untested, 1 fits, 2 does not
	props []map[string]any // per event, parsed on demand
	allow [6][]bool        // per bound variable: local node -> allowed
	list  [6][]int32       // per bound variable: its allowed local nodes
	node  [6]int32         // local node a variable is bound to, -1
	pos   []int32          // the event of each hop bound so far
	count int64
	rows  []int32 // instances' events, len(hops) per instance
	rowLB int64   // bytes an instance row holds at least (memory budget)
}

func runTemporalPattern(c *Call) (map[string]any, error) {
	p, err := patParse(c)
	if err != nil {
		return nil, err
	}
	ev, err := patCollect(c)
	if err != nil {
		return nil, err
	}
	pr := newPatRunner(c, ev, p)
	if err := pr.run(); err != nil {
		return nil, err
	}
	out := map[string]any{"count": pr.count, "n_events_in_window": ev.total, "rows": []any{}}
	if !p.count {
		out["rows"] = pr.render()
	}
	return out, nil
}

func newPatRunner(c *Call, ev *motifEvents, p *patSpec) *patRunner {
	r := c.R
	k := len(p.hops)
	pr := &patRunner{c: c, ev: ev, p: p, rel: make([]int64, k), fit: make([][]int8, k), pos: make([]int32, 0, k)}
	for i, h := range p.hops {
		pr.rel[i] = -1
		if h.hasRel {
			pr.rel[i] = -2
			if id, ok := r.RelIDOf(h.rel); ok {
				pr.rel[i] = int64(id)
			}
		}
		if h.hasRel || len(h.where) > 0 {
			pr.fit[i] = make([]int8, len(ev.t))
		}
	}
	if slices.ContainsFunc(p.hops, func(h patHop) bool { return len(h.where) > 0 }) {
		pr.props = make([]map[string]any, len(ev.t))
	}
	localOf := map[uint32]int32{}
	for l, id := range ev.local {
		localOf[id] = int32(l)
	}
	for v := range patVars {
		pr.node[v] = -1
		if !p.hasBind[v] {
			continue
		}
		pr.allow[v] = make([]bool, ev.nodes)
		for _, uid := range p.bind[v] {
			id, known := r.Node(uid)
			if l, in := localOf[id]; known && in && !pr.allow[v][l] {
				pr.allow[v][l] = true
				pr.list[v] = append(pr.list[v], l)
			}
		}
		slices.Sort(pr.list[v])
	}
	nvars := 0
	for _, u := range p.used {
		if u {
			nvars++
		}
	}
	pr.rowLB = 48 + 49*int64(nvars) + 44 + 319*int64(k)
	return pr
}

// fits reports whether event e passes hop i's rel_type and where.
func (pr *patRunner) fits(i int, e int32) bool {
	memo := pr.fit[i]
	if memo == nil {
		return true
	}
	if memo[e] != 0 {
		return memo[e] == 1
	}
	ok := pr.rel[i] == -1 || pr.rel[i] >= 0 && int64(pr.c.R.RelID(pr.ev.ver[e])) == pr.rel[i]
	if ok && len(pr.p.hops[i].where) > 0 {
		if pr.props[e] == nil {
			pr.props[e] = pr.c.R.Props(pr.ev.ver[e]).Map()
		}
		for _, f := range pr.p.hops[i].where {
			if keep, _ := f.test(pr.props[e]); !keep {
				ok = false
				break
			}
		}
	}
	memo[e] = 2
	if ok {
		memo[e] = 1
	}
	return ok
}

// run enumerates the instances: hop 0 over its candidates, the rest by
// extend.
func (pr *patRunner) run() error {
	h := pr.p.hops[0]
	var lists [][]int32
	switch {
	case pr.allow[h.src] != nil:
		for _, s := range pr.list[h.src] {
			lists = append(lists, pr.ev.out(s))
		}
	case pr.allow[h.dst] != nil:
		for _, d := range pr.list[h.dst] {
			lists = append(lists, pr.ev.in(d))
		}
	default:
		all := make([]int32, len(pr.ev.t))
		for i := range all {
			all[i] = int32(i)
		}
		lists = [][]int32{all}
	}
	for _, l := range lists {
		if err := pr.c.Work(int64(len(l)) + 1); err != nil {
			return err
		}
		for _, e := range l {
			if _, err := pr.try(0, e); err != nil {
				return err
			}
		}
	}
	return nil
}

// try binds hop i to event e when it fits the hop and the constraints, and
// extends the binding; fit reports whether e fitted hop i.
func (pr *patRunner) try(i int, e int32) (fit bool, err error) {
	ev, h := pr.ev, pr.p.hops[i]
	if !pr.fits(i, e) || !pr.meets(i, e) {
		return false, nil
	}
	s, d := ev.src[e], ev.dst[e]
	newS, newD := pr.node[h.src] < 0, pr.node[h.dst] < 0
	if !pr.canBind(h.src, s, h.dst) || !pr.canBind(h.dst, d, h.src) {
		return false, nil
	}
	pr.node[h.src], pr.node[h.dst] = s, d
	pr.pos = append(pr.pos, e)
	if i+1 == len(pr.p.hops) {
		err = pr.record()
	} else {
		err = pr.extend(i + 1)
	}
	pr.pos = pr.pos[:i]
	if newS {
		pr.node[h.src] = -1
	}
	if newD {
		pr.node[h.dst] = -1
	}
	return true, err
}

// canBind reports whether variable v may be (or already is) bound to
// node n; other is the hop's other variable, bound to the event's other
// endpoint (never n: self-loops take no part).
func (pr *patRunner) canBind(v int, n int32, other int) bool {
	if b := pr.node[v]; b >= 0 {
		return b == n
	}
	if pr.allow[v] != nil && !pr.allow[v][n] {
		return false
	}
	if pr.p.distinct {
		for u, b := range pr.node {
			if u != v && u != other && b == n {
				return false
			}
		}
	}
	return true
}

// meets checks event e as hop i against the time constraints with the
// hops bound before it.
func (pr *patRunner) meets(i int, e int32) bool {
	if i == 0 {
		return true
	}
	p, t := pr.p, pr.ev.t
	prev := pr.pos[i-1]
	gap := t[e] - t[prev]
	switch p.order {
	case patSequence:
		if e <= prev {
			return false
		}
	case patStrict:
		if gap <= 0 {
			return false
		}
	case patAny:
		if slices.Contains(pr.pos, e) {
			return false
		}
		if gap < 0 {
			gap = -gap
		}
	}
	if p.within >= 0 && gap > p.within || p.minGap >= 0 && gap < p.minGap {
		return false
	}
	if p.span >= 0 {
		lo, hi := pr.timeHull()
		if max(hi, t[e])-min(lo, t[e]) > p.span {
			return false
		}
	}
	return !p.sameDay || pr.day(t[e]) == pr.day(t[pr.pos[0]])
}

func (pr *patRunner) day(t int64) int64 { return aggFloorDiv(t+pr.p.offset, aggDayUS) }

// timeHull is the least and greatest time of the hops bound so far.
func (pr *patRunner) timeHull() (lo, hi int64) {
	lo, hi = math.MaxInt64, math.MinInt64
	for _, e := range pr.pos {
		lo, hi = min(lo, pr.ev.t[e]), max(hi, pr.ev.t[e])
	}
	return lo, hi
}

// extend tries the candidates of hop i: the events at its bound endpoints
// in the time range its constraints leave.
func (pr *patRunner) extend(i int) error {
	p, ev, h := pr.p, pr.ev, pr.p.hops[i]
	prev := pr.pos[i-1]
	tp := ev.t[prev]
	tlo, thi := int64(math.MinInt64), int64(math.MaxInt64)
	switch p.order {
	case patSequence:
		tlo = tp
	case patStrict:
		tlo = tp + 1
	}
	if p.within >= 0 {
		thi = tp + p.within
		if p.order == patAny {
			tlo = tp - p.within
		}
	}
	if p.minGap > 0 && p.order != patAny {
		tlo = max(tlo, tp+p.minGap)
	}
	if p.span >= 0 {
		lo, hi := pr.timeHull()
		tlo, thi = max(tlo, hi-p.span), min(thi, lo+p.span)
	}
	if p.sameDay {
		start := pr.day(ev.t[pr.pos[0]])*aggDayUS - p.offset
		tlo, thi = max(tlo, start), min(thi, start+aggDayUS-1)
	}
	if tlo > thi {
		return nil
	}
	lo := int32(sort.Search(len(ev.t), func(k int) bool { return ev.t[k] >= tlo }))
	hi := int32(sort.Search(len(ev.t), func(k int) bool { return ev.t[k] > thi }))
	if p.order == patSequence {
		lo = max(lo, prev+1)
	}
	s, d := pr.node[h.src], pr.node[h.dst]
	var cand []int32 // nil with no bound endpoint: every position in [lo, hi)
	switch {
	case s >= 0 && d >= 0:
		cand = motifWindow(ev.pair(s, d), lo-1, hi)
	case s >= 0:
		cand = motifWindow(ev.out(s), lo-1, hi)
	case d >= 0:
		cand = motifWindow(ev.in(d), lo-1, hi)
	}
	n := int32(len(cand))
	if s < 0 && d < 0 {
		n = max(0, hi-lo)
	}
	if err := pr.c.Work(int64(n) + 1); err != nil {
		return err
	}
	for k := range n {
		e := lo + k
		if cand != nil {
			e = cand[k]
		}
		fit, err := pr.try(i, e)
		if err != nil {
			return err
		}
		if fit && h.first {
			break
		}
	}
	return nil
}

// record counts the bound instance and keeps its events when listing.
func (pr *patRunner) record() error {
	pr.count++
	if pr.p.count {
		return nil
	}
	if err := pr.c.Materialize(pr.count, pr.rowLB, "pattern instances",
		`use output "count", narrow the window, add within, where or bind`); err != nil {
		return err
	}
	pr.rows = append(pr.rows, pr.pos...)
	return nil
}

// render sorts the instances by their events' (t, eid) order (positions
// are that order) and builds the rows.
func (pr *patRunner) render() []any {
	r, ev, k := pr.c.R, pr.ev, len(pr.p.hops)
	n := len(pr.rows) / k
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		return slices.Compare(pr.rows[a*k:(a+1)*k], pr.rows[b*k:(b+1)*k])
	})
	cache := map[int32]map[string]any{}
	hopRow := func(e int32) map[string]any {
		if m, ok := cache[e]; ok {
			return m
		}
		m := ev.edgeRow(r, e)
		m["props"] = r.Props(ev.ver[e]).Map()
		cache[e] = m
		return m
	}
	out := make([]any, n)
	for j, a := range idx {
		inst := pr.rows[a*k : (a+1)*k]
		row := map[string]any{}
		hops := make([]any, k)
		for i, e := range inst {
			h := pr.p.hops[i]
			row[patVars[h.src]] = r.UID(ev.local[ev.src[e]])
			row[patVars[h.dst]] = r.UID(ev.local[ev.dst[e]])
			hops[i] = hopRow(e)
		}
		row["hops"] = hops
		out[j] = row
	}
	return out
}
