package ops

import (
	"slices"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// temporal_reachability: who can src reach (direction "out", earliest
// arrival) and who can reach src (direction "in", latest departure) along
// time-respecting paths inside a valid-time window.
//
// Traversal rule. A hop is a believed edge version (u → v, [s, e)) that
// overlaps the window [t_a, t_b). Forward: being at u at time a, the hop is
// taken at τ = max(a, s) if τ < e and τ < t_b, arriving at v at τ. Backward
// (the mirror image): having to leave v by time L, the hop is taken at
// τ = min(L, e−1) if τ >= s and τ >= t_a, so u must leave by τ. Times along
// a path are non-decreasing: several hops may happen at the same instant.
//
// Two exact kernels compute the answer without a wait cap:
//
// The pass (reachForward, reachBackward) is one pass over the window's
// edge versions in (vt_s, id) order (Wu et al.'s one-pass earliest-arrival
// algorithm): arrival times only ever take the values t_a or some vt_s, so
// the pass visits the distinct start times T in increasing order and
// settles every node reached at T before moving on. Two things make it
// exact for non-strict times and interval edges:
//   - equal-timestamp groups are closed transitively: an edge of the group
//     at T whose tail was reached later in the same group is revisited
//     (the skipped edges of the group, indexed by tail);
//   - an interval edge started before T and still open at T is taken at T
//     when its tail is first reached at T: every edge that can be taken
//     later than its start is kept in a per-tail list while the pass goes
//     by, and a node's list is read once, when the node is reached.
// Each edge version is read once by the pass and at most once from a
// list, so the pass is O(E + N) after the window lookup. The backward pass
// is the same in decreasing order of the latest traversal time
// min(vt_e−1, t_b−1), with per-head lists.
//
// Label setting (temporal_reachability_settle.go) settles nodes in time
// order and reads only the adjacency of the nodes it reaches. It is far
// cheaper when few nodes are reached (the usual case for narrow windows,
// and for a busy source whose many events reach few nodes), but each node
// it settles costs a few cache misses. The operator runs label setting
// with a budget of the window's estimated edge versions (an entry per
// adjacency entry read, reachNodeCost per node) and falls back to the
// pass when it is spent.
//
// With delta_max_wait the earlier arrival no longer dominates, and the
// kernel is the exact multi-label search over (node, time) states.

func init() {
	Register(&Spec{
		Name:    "temporal_reachability",
		Summary: "Nodes src reaches (earliest arrival) or that reach src (latest departure) along time-respecting paths in a window.",
		Doc: `Time-respecting reachability inside the valid-time window [t_a, t_b) over the
edge versions believed at as_of_tt that overlap the window. Node versions are
not consulted: any uid that is an endpoint of a usable edge can be reached.

Traversal rule (non-strict, non-decreasing times): being at u at time a, an
edge u→v valid over [s, e) is taken at τ = max(a, s), which must satisfy
τ < e and τ < t_b; you are then at v at τ. Several hops may happen at the
same instant (a→b at 5 then b→c at 5 is a path), whatever the order in which
the two events were written. Traversal always happens at the earliest
possible instant (an interval edge is never entered later than needed).

direction "out" (default): rows are the uids src reaches, each with
earliest_arrival = the least τ at which it can be reached, starting at src at
t_a. The search is exact and never repeats relaxations: label setting in
time order over the reached nodes' adjacency, or, when that would read too
much, one pass over the window's edges in time order.

direction "in": the mirror image, backwards in time: rows are the uids that
can reach src before the window ends, each with latest_departure = the latest
instant at which it can still leave (the time of the first hop of its latest
path) and reach src at some τ < t_b. Backwards, a hop u→v valid over [s, e),
taken when v must be left by L, happens at τ = min(L, e−1) and needs τ >= s
and τ >= t_a; src must be reached by t_b−1. So with events x→s at 5 and y→x at
10, x is a row (latest_departure 5) and y is not: y's only message to x
comes after x's last chance to reach s.

direction "both": the union of the two answers by uid.

Rows: {uid, earliest_arrival, latest_departure}. earliest_arrival is the
forward answer and null when src does not reach uid (always null for
direction "in"); latest_departure is the backward answer and null when uid
does not reach src (always null for "out"). src itself is never a row.

delta_max_wait Δ (optional): a path is admissible only if it waits at most Δ
at every intermediate node: forward, each hop but those taken from src's
starting label (src at t_a) needs τ − a <= Δ, a being the arrival at its tail;
backward, each hop but those that end at src's deadline label (t_b−1) needs
L − τ <= Δ. Earlier arrivals then no longer dominate, so the search is the
exact multi-label search over (node, time) states; each examined edge costs
one unit of the work budget (E_COST when spent).

Errors: E_NOT_FOUND for an unknown src; E_INVALID_ARG for an empty or
inverted window; E_SCHEMA for delta_max_wait < 1 or a bad direction; E_COST
when the work budget is spent.`,
		Args: Obj("", map[string]*Schema{
			"src":            UIDField("the node to start from (out) or to reach (in)"),
			"window":         Window(),
			"as_of_tt":       AsOfTT(),
			"delta_max_wait": Int("max wait at intermediate nodes (µs), 1..2^62; null: unbounded").Range(1, 1<<62).OrNull(),
			"direction":      Enum("out: whom src reaches; in: who reaches src; both: the union", "out", "in", "both").Def("out"),
			"limit":          Limit(),
			"cursor":         Cursor(),
		}, "src", "window"),
		Result: Paged("reached uids", Obj("a reached uid", map[string]*Schema{
			"uid":              UIDField("a node reached from src (out) or reaching src (in)"),
			"earliest_arrival": Int("earliest time src reaches uid (µs); null when it does not, always null for direction in").OrNull(),
			"latest_departure": Int("latest time uid can leave and still reach src before t_b (µs); null when it cannot, always null for direction out").OrNull(),
		}), nil),
		Order: "by earliest_arrival (nulls last), then latest_departure (nulls last), then uid (byte order): " +
			"out rows by (earliest_arrival, uid), in rows by (latest_departure, uid); both lists the uids src reaches first, " +
			"by earliest_arrival, then those that only reach src, by latest_departure",
		Paged:  true,
		RowKey: reachRowKey,
		Cost: func(c *Call) Cost {
			rows := int64(float64(c.Stats.EdgeVersions) * c.WindowFraction(c.Window("window")))
			return Cost{Rows: rows, Expansions: 8 * rows}
		},
		Run: runTemporalReachability,
	})
}

// reachKernel selects the kernel without a wait cap: "" (adaptive),
// "pass" (always the one pass over the window's edges) or "settle" (always
// label setting over the reached nodes' adjacency). Tests set it to check
// every kernel against the oracle.
var reachKernel = ""

func reachRowKey(row map[string]any) []any {
	k := []any{bt.OpenEnd, bt.OpenEnd, row["uid"]}
	if v, ok := row["earliest_arrival"].(int64); ok {
		k[0] = v
	}
	if v, ok := row["latest_departure"].(int64); ok {
		k[1] = v
	}
	return k
}

// reachHit is one reached node with its time (arrival or departure).
type reachHit struct {
	id uint32
	t  int64
}

func runTemporalReachability(c *Call) (map[string]any, error) {
	src, err := c.Node("/src", c.Str("src"))
	if err != nil {
		return nil, err
	}
	w := c.Window("window")
	dir := c.Str("direction")
	delta := int64(-1)
	if c.Has("delta_max_wait") {
		delta = c.Int("delta_max_wait")
	}
	var edges []uint32
	loaded := false
	window := func() ([]uint32, error) {
		if !loaded {
			edges, loaded = c.R.EdgesOverlapping(w), true
			if err := c.Work(int64(len(edges))); err != nil {
				return nil, err
			}
		}
		return edges, nil
	}
	// Label setting reads each reached node's adjacency, the pass every
	// window edge in storage order after the window lookup sorted them.
	// Measured on the 10M synthetic store, the pass costs ~33 ns a window
	// edge, label setting ~18 ns an adjacency entry read in order plus
	// ~0.3 µs a node (reachNodeCost). Label setting gets as many entries as
	// the window's estimated edges: it finishes when it reads less than the
	// pass would, and when it gives up it has spent at most about half the
	// pass's time. Past that, the pass runs.
	budget := int64(-1)
	switch reachKernel {
	case "pass":
		budget = 0
	case "":
		budget = max(4096, int64(float64(c.Stats.EdgeVersions)*c.WindowFraction(w)))
	}
	run := func(settle func(*Call, uint32, bt.Interval, int64) ([]reachHit, bool, error),
		pass func(*Call, uint32, bt.Interval, []uint32) ([]reachHit, error),
		multi func(*Call, uint32, bt.Interval, int64) ([]reachHit, error)) ([]reachHit, error) {
		if delta >= 0 {
			return multi(c, src, w, delta)
		}
		if budget != 0 {
			hits, ok, err := settle(c, src, w, budget)
			if err != nil || ok {
				return hits, err
			}
		}
		es, err := window()
		if err != nil {
			return nil, err
		}
		return pass(c, src, w, es)
	}
	var fwd, bwd []reachHit
	if dir != "in" {
		if fwd, err = run(reachSettleForward, reachForward, reachForwardDelta); err != nil {
			return nil, err
		}
	}
	if dir != "out" {
		if bwd, err = run(reachSettleBackward, reachBackward, reachBackwardDelta); err != nil {
			return nil, err
		}
	}
	return map[string]any{"rows": reachRows(c.R, dir, fwd, bwd)}, nil
}

// reachRows merges the forward and backward hits into sorted rows.
func reachRows(r Reader, dir string, fwd, bwd []reachHit) []any {
	rows := make([]reachRow, 0, len(fwd)+len(bwd))
	for _, h := range fwd {
		rows = append(rows, reachRow{r.UID(h.id), h.t, bt.OpenEnd})
	}
	if len(bwd) > 0 {
		at := make(map[string]int, len(rows))
		for i := range rows {
			at[rows[i].uid] = i
		}
		for _, h := range bwd {
			uid := r.UID(h.id)
			if i, ok := at[uid]; ok {
				rows[i].ld = h.t
			} else {
				rows = append(rows, reachRow{uid, bt.OpenEnd, h.t})
			}
		}
	}
	return renderReachRows(rows)
}

// reachRow is one reached uid's earliest arrival and latest departure
// (OpenEnd: null).
type reachRow struct {
	uid    string
	ea, ld int64
}

// renderReachRows sorts rows in the operator's order (earliest_arrival,
// then latest_departure, nulls last, then uid) and renders them.
func renderReachRows(rows []reachRow) []any {
	slices.SortFunc(rows, func(a, b reachRow) int {
		if a.ea != b.ea {
			return cmpOrdered(a.ea, b.ea)
		}
		if a.ld != b.ld {
			return cmpOrdered(a.ld, b.ld)
		}
		return strings.Compare(a.uid, b.uid)
	})
	orNull := func(t int64) any {
		if t == bt.OpenEnd {
			return nil
		}
		return t
	}
	out := make([]any, len(rows))
	for i, x := range rows {
		out[i] = map[string]any{"uid": x.uid, "earliest_arrival": orNull(x.ea), "latest_departure": orNull(x.ld)}
	}
	return out
}

// reachLists is a set of per-node singly linked lists of edge versions,
// filled while a pass goes by (head[n]-1 is the first entry of node n).
type reachLists struct {
	head []int32
	next []int32
	edge []uint32
}

func (l *reachLists) push(n, v uint32) {
	if l.head == nil {
		return
	}
	l.next = append(l.next, l.head[n]-1)
	l.edge = append(l.edge, v)
	l.head[n] = int32(len(l.edge))
}

// reachGroup holds the edges of one equal-time group whose tail (forward;
// head backward) was not yet reached when the pass met them, so that a node
// reached later in the same instant can still use them.
type reachGroup struct {
	from, to []uint32 // from: the endpoint that must be reached; to: the other
	sorted   bool
	idx      []int32
}

func (g *reachGroup) reset() { g.from, g.to, g.sorted, g.idx = g.from[:0], g.to[:0], false, g.idx[:0] }

// each calls fn for every skipped edge leaving n.
func (g *reachGroup) each(n uint32, fn func(to uint32)) {
	if len(g.from) <= 16 {
		for i, f := range g.from {
			if f == n {
				fn(g.to[i])
			}
		}
		return
	}
	if !g.sorted {
		g.idx = g.idx[:0]
		for i := range g.from {
			g.idx = append(g.idx, int32(i))
		}
		slices.SortFunc(g.idx, func(a, b int32) int { return cmpOrdered(int64(g.from[a]), int64(g.from[b])) })
		g.sorted = true
	}
	i, _ := slices.BinarySearchFunc(g.idx, n, func(x int32, n uint32) int { return cmpOrdered(int64(g.from[x]), int64(n)) })
	for ; i < len(g.idx) && g.from[g.idx[i]] == n; i++ {
		fn(g.to[g.idx[i]])
	}
}

// reachForward is the one-pass earliest-arrival kernel. edges are the
// window's believed edge versions in (vt_s, id) order. It returns the
// reached nodes (src excluded) with their earliest arrival, in arrival
// order.
func reachForward(c *Call, src uint32, w bt.Interval, edges []uint32) ([]reachHit, error) {
	r := hot(c.R)
	n := r.NumNodes()
	arr := make([]int64, n) // arrival+1; 0 = not reached
	var hits []reachHit
	var stack []uint32
	T := w.Start
	reach := func(v uint32) {
		if arr[v] == 0 {
			arr[v] = T + 1
			stack = append(stack, v)
			if v != src {
				hits = append(hits, reachHit{v, T})
			}
		}
	}
	lists := reachLists{head: make([]int32, n)}
	var g reachGroup
	reach(src)
	for i := 0; ; {
		// The group at T: every edge that starts at T (at the first
		// group, every edge that starts at or before t_a: all of them are
		// open at t_a because they overlap the window).
		g.reset()
		for ; i < len(edges); i++ {
			v := edges[i]
			iv := r.Valid(v)
			if iv.Start > T {
				break
			}
			u := r.Src(v)
			if min(iv.End, w.End) > T+1 { // can be taken after T too
				lists.push(u, v)
			}
			if arr[u] != 0 {
				reach(r.Dst(v))
			} else {
				g.from, g.to = append(g.from, u), append(g.to, r.Dst(v))
			}
		}
		// Close the group: every node reached at T takes the interval
		// edges it has open at T and the group's edges it missed.
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			k := 0
			for j := lists.head[x] - 1; j >= 0; j = lists.next[j] {
				v := lists.edge[j]
				if r.Valid(v).End > T {
					reach(r.Dst(v))
				}
				k++
			}
			if len(g.from) > 0 {
				g.each(x, reach)
			}
			if err := c.Work(int64(k + 1)); err != nil {
				return nil, err
			}
		}
		if i >= len(edges) {
			break
		}
		T = r.Valid(edges[i]).Start
	}
	return hits, nil
}

// reachBackward is the latest-departure kernel: the mirror image of
// reachForward, one pass in decreasing order of each edge's latest
// traversal time K = min(vt_e−1, t_b−1).
func reachBackward(c *Call, src uint32, w bt.Interval, edges []uint32) ([]reachHit, error) {
	r := hot(c.R)
	n := r.NumNodes()
	// Events (vt_e = vt_s+1) have K = vt_s and come in order when the
	// window's list is read backwards; the others are sorted by K apart
	// and merged in.
	type keyed struct {
		k int64
		v uint32
	}
	var longs []keyed
	for _, v := range edges {
		iv := r.Valid(v)
		if k := min(iv.End-1, w.End-1); k != iv.Start {
			longs = append(longs, keyed{k, v})
		}
	}
	slices.SortFunc(longs, func(a, b keyed) int {
		if a.k != b.k {
			return cmpOrdered(b.k, a.k)
		}
		return cmpOrdered(int64(b.v), int64(a.v))
	})
	if err := c.Work(int64(len(longs))); err != nil {
		return nil, err
	}
	dep := make([]int64, n) // departure+1; 0 = not reached
	var hits []reachHit
	var stack []uint32
	T := w.End - 1
	reach := func(u uint32) {
		if dep[u] == 0 {
			dep[u] = T + 1
			stack = append(stack, u)
			if u != src {
				hits = append(hits, reachHit{u, T})
			}
		}
	}
	lists := reachLists{head: make([]int32, n)}
	var g reachGroup
	reach(src)
	i, j := len(edges)-1, 0 // events, read backwards; longs, in order
	// peek returns the next edge of the backward stream and its key.
	peek := func() (k int64, v uint32, event, ok bool) {
		for ; i >= 0; i-- {
			iv := r.Valid(edges[i])
			if min(iv.End-1, w.End-1) == iv.Start {
				break
			}
		}
		switch {
		case i >= 0 && (j >= len(longs) || r.Valid(edges[i]).Start >= longs[j].k):
			return r.Valid(edges[i]).Start, edges[i], true, true
		case j < len(longs):
			return longs[j].k, longs[j].v, false, true
		}
		return 0, 0, false, false
	}
	for {
		// The group at T: every edge whose latest traversal time is T.
		g.reset()
		for {
			k, v, event, ok := peek()
			if !ok || k < T {
				break
			}
			if event {
				i--
			} else {
				j++
			}
			d := r.Dst(v)
			if max(r.Valid(v).Start, w.Start) < k { // can be taken before K too
				lists.push(d, v)
			}
			if dep[d] != 0 {
				reach(r.Src(v))
			} else {
				g.from, g.to = append(g.from, d), append(g.to, r.Src(v))
			}
		}
		// Close the group: every node reached at T takes the interval
		// edges into it that are open at T and the group's edges it missed.
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			k := 0
			for q := lists.head[x] - 1; q >= 0; q = lists.next[q] {
				v := lists.edge[q]
				if max(r.Valid(v).Start, w.Start) <= T {
					reach(r.Src(v))
				}
				k++
			}
			if len(g.from) > 0 {
				g.each(x, reach)
			}
			if err := c.Work(int64(k + 1)); err != nil {
				return nil, err
			}
		}
		k, _, _, ok := peek()
		if !ok {
			break
		}
		T = k
	}
	return hits, nil
}

// reachAdj caches the window's out-lists (forward) or in-lists (backward)
// of the nodes a search visits, in (vt_s, id) order.
type reachAdj struct {
	c     *Call
	r     hotReader
	w     bt.Interval
	byDst bool
	lists map[uint32][]uint32
}

func (a *reachAdj) of(n uint32) ([]uint32, error) {
	if l, ok := a.lists[n]; ok {
		return l, nil
	}
	var l []uint32
	if a.byDst {
		l = a.r.In(n)
	} else {
		l = a.r.Out(n)
	}
	if err := a.c.Work(int64(len(l) + 1)); err != nil {
		return nil, err
	}
	kept := l[:0]
	for _, v := range l {
		if iv := a.r.Valid(v); iv.Start < a.w.End && iv.End > a.w.Start {
			kept = append(kept, v)
		}
	}
	if a.lists == nil {
		a.lists = map[uint32][]uint32{}
	}
	a.lists[n] = kept
	return kept, nil
}

// reachForwardDelta is the exact multi-label search with a maximum wait Δ:
// states (node, arrival), explored breadth first; the wait cap is waived
// only for hops taken from src's starting state (src, t_a).
func reachForwardDelta(c *Call, src uint32, w bt.Interval, delta int64) ([]reachHit, error) {
	r := hot(c.R)
	adj := reachAdj{c: c, r: r, w: w}
	type state struct {
		n uint32
		t int64
	}
	seen := map[state]struct{}{{src, w.Start}: {}}
	queue := []state{{src, w.Start}}
	best := map[uint32]int64{}
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		free := st.n == src && st.t == w.Start
		list, err := adj.of(st.n)
		if err != nil {
			return nil, err
		}
		k := 0
		for _, v := range list {
			k++
			iv := r.Valid(v)
			if !free && iv.Start > st.t+delta {
				break // the list is in vt_s order: nothing later fits
			}
			tau := max(st.t, iv.Start)
			if tau >= iv.End || tau >= w.End || (!free && tau-st.t > delta) {
				continue
			}
			next := state{r.Dst(v), tau}
			if _, ok := seen[next]; ok {
				continue
			}
			seen[next] = struct{}{}
			queue = append(queue, next)
			if b, ok := best[next.n]; !ok || tau < b {
				best[next.n] = tau
			}
		}
		if err := c.Work(int64(k + 1)); err != nil {
			return nil, err
		}
	}
	return reachHitsOf(best, src), nil
}

// reachBackwardDelta mirrors reachForwardDelta backwards in time: states
// (node, latest departure); the cap is waived only for hops into src's
// deadline state (src, t_b−1).
func reachBackwardDelta(c *Call, src uint32, w bt.Interval, delta int64) ([]reachHit, error) {
	r := hot(c.R)
	adj := reachAdj{c: c, r: r, w: w, byDst: true}
	type state struct {
		n uint32
		t int64
	}
	start := state{src, w.End - 1}
	seen := map[state]struct{}{start: {}}
	queue := []state{start}
	best := map[uint32]int64{}
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		free := st == start
		list, err := adj.of(st.n)
		if err != nil {
			return nil, err
		}
		k := 0
		for _, v := range list {
			k++
			iv := r.Valid(v)
			if iv.Start > st.t {
				break // the list is in vt_s order: nothing later fits
			}
			tau := min(st.t, iv.End-1)
			if tau < iv.Start || tau < w.Start || (!free && st.t-tau > delta) {
				continue
			}
			next := state{r.Src(v), tau}
			if _, ok := seen[next]; ok {
				continue
			}
			seen[next] = struct{}{}
			queue = append(queue, next)
			if b, ok := best[next.n]; !ok || tau > b {
				best[next.n] = tau
			}
		}
		if err := c.Work(int64(k + 1)); err != nil {
			return nil, err
		}
	}
	return reachHitsOf(best, src), nil
}

func reachHitsOf(best map[uint32]int64, src uint32) []reachHit {
	hits := make([]reachHit, 0, len(best))
	for n, t := range best {
		if n != src {
			hits = append(hits, reachHit{n, t})
		}
	}
	return hits
}
