package ops

import (
	"sort"

	"github.com/tgms-go/tgms/engine"
)

// longest_temporal_path: the longest chain of events with strictly
// increasing times, by two linear passes over the window's events in
// (t, eid) order (a sort makes it O(E log E)).
//
// back[i] is the length of the longest chain that starts with event i
// (computed from the last time to the first), fwd[i] that of the longest
// admissible chain that ends with it (from the first time to the last).
// For each node the pass keeps a monotone deque of the events it may chain
// to: with a wait cap δ only those within δ, whose best value is the
// deque's head; events at one time are scored before any is inserted, so
// they never chain to each other.

func init() {
	Register(&Spec{
		Name:    "longest_temporal_path",
		Summary: "The longest time-respecting chain of events in a window (from src, or from anywhere), with one witness chain.",
		Doc: `The longest chain of edge events e1, e2, ..., ek in the window [t_a, t_b)
with dst(e_i) = src(e_i+1) and strictly increasing event times
t(e_i) < t(e_i+1); with delta_max_wait δ also t(e_i+1) − t(e_i) <= δ.
Events are those of count_temporal_motifs: the believed edge versions as of
as_of_tt, one per occurrence (a fragment that continues another believed
version of the same identity, left by a correction or retract, is not a new
event), at its event time (its first fragment's vt_s), with t_a <= t < t_b;
self-loops are left out (they go nowhere). An interval edge is one event,
at its start: a chain does not wait on it.
Nodes may repeat (a chain is a time-respecting walk; the longest node-simple
path is NP-hard), and every event is used at most once because times
strictly increase; two events at one instant never chain (which of two
simultaneous messages came first is unknowable). With src, chains start
with an event out of src; without it, anywhere.
Result: length (k, 0 when there is no event to start from), departure and
arrival (the first and last event times of the witness, null for length
0), chain (the witness: the longest chain whose list of (t, eid) pairs is
the smallest lexicographically; each edge {src, dst, rel_type, eid, t}),
starts (the number of events that begin a longest chain, out of src when
given) and ends (the number of events that end one). The witness is listed
whole and counts against the memory budget.
Example: "the longest chain of messages relayed on within an hour":
delta_max_wait 3600000000.
Errors: E_NOT_FOUND for an unknown src; E_INVALID_ARG for an empty or
inverted window; E_SCHEMA for delta_max_wait < 1; E_LIMIT when the witness
exceeds the memory budget (narrow the window).`,
		Args: Obj("", map[string]*Schema{
			"src":            UIDField("the node chains start from; absent or null: any node").OrNull(),
			"window":         Window(),
			"delta_max_wait": Int("most time between consecutive events (µs), 1..2^62; null: unbounded").Range(1, 1<<62).OrNull(),
			"as_of_tt":       AsOfTT(),
		}, "window"),
		Result: Obj("", map[string]*Schema{
			"length":    Int("events in the longest chain"),
			"departure": Int("time of the witness's first event (µs)").OrNull(),
			"arrival":   Int("time of the witness's last event (µs)").OrNull(),
			"chain": Arr("the witness chain in time order", Obj("an event", map[string]*Schema{
				"src":      UIDField("tail"),
				"dst":      UIDField("head"),
				"rel_type": Str("relation type"),
				"eid":      Str("edge identity id"),
				"t":        Int("event time (µs)"),
			})),
			"starts": Int("events that begin a longest chain"),
			"ends":   Int("events that end a longest chain"),
		}),
		Order: `chain: the longest chain with the lexicographically smallest list of (t, eid) pairs`,
		Cost: func(c *Call) Cost {
			ew := int64(float64(c.Stats.EdgeVersions) * c.WindowFraction(c.Window("window")))
			return Cost{Rows: ew, Expansions: 2 * ew}
		},
		Run: runLongestTemporalPath,
	})
}

// longestEvents is the call's event sequence in (t, eid) order, with
// nodes renumbered densely.
type longestEvents struct {
	t        []int64
	src, dst []int32
	ver      []uint32
	nodes    int
	start    int32 // local id of src, -1 without src (or when src has no event)
}

func runLongestTemporalPath(c *Call) (map[string]any, error) {
	hasSrc := c.Has("src")
	var srcID uint32
	if hasSrc {
		id, err := c.Node("/src", c.Str("src"))
		if err != nil {
			return nil, err
		}
		srcID = id
	}
	ev, err := longestCollect(c, hasSrc, srcID)
	if err != nil {
		return nil, err
	}
	delta := int64(-1)
	if c.Has("delta_max_wait") {
		delta = c.Int("delta_max_wait")
	}
	canStart := func(i int) bool { return !hasSrc || ev.src[i] == ev.start }
	back := ev.pass(delta, true, nil)
	fwd := ev.pass(delta, false, canStart)
	if err := c.Work(2 * int64(len(ev.t))); err != nil {
		return nil, err
	}
	var length, starts, ends int32
	first := -1
	for i := range ev.t {
		if canStart(i) && back[i] > length {
			length, first = back[i], i
		}
	}
	for i := range ev.t {
		if length > 0 && canStart(i) && back[i] == length {
			starts++
		}
		if length > 0 && fwd[i] == length {
			ends++
		}
	}
	chain := ev.witness(first, back)
	es := make([]any, len(chain))
	for j, i := range chain {
		e := c.R.Edge(ev.ver[i])
		es[j] = map[string]any{"src": e.Key.Src, "dst": e.Key.Dst, "rel_type": e.Key.RelType,
			"eid": engine.EID(e.Key), "t": ev.t[i]}
	}
	res := map[string]any{"length": int64(length), "departure": nil, "arrival": nil, "chain": es,
		"starts": int64(starts), "ends": int64(ends)}
	if len(chain) > 0 {
		res["departure"], res["arrival"] = ev.t[chain[0]], ev.t[chain[len(chain)-1]]
	}
	return res, nil
}

// longestCollect gathers the window's events: first fragments, no
// self-loops, in (t, eid) order.
func longestCollect(c *Call, hasSrc bool, srcID uint32) (*longestEvents, error) {
	r := c.R
	vs := r.EdgesStartingIn(c.Window("window"))
	if err := c.Work(int64(len(vs)) + 1); err != nil {
		return nil, err
	}
	local := map[uint32]int32{}
	loc := func(id uint32) int32 {
		l, ok := local[id]
		if !ok {
			l = int32(len(local))
			local[id] = l
		}
		return l
	}
	raw := make([]motifRaw, 0, len(vs))
	for _, v := range vs {
		s, d := r.Src(v), r.Dst(v)
		if s == d || r.Continues(v) {
			continue
		}
		raw = append(raw, motifRaw{t: r.Valid(v).Start, v: v, src: loc(s), dst: loc(d)})
	}
	motifSortEvents(r, raw)
	ev := &longestEvents{nodes: len(local), start: -1}
	if l, ok := local[srcID]; ok && hasSrc {
		ev.start = l
	}
	n := len(raw)
	ev.t, ev.ver = make([]int64, n), make([]uint32, n)
	ev.src, ev.dst = make([]int32, n), make([]int32, n)
	for i, e := range raw {
		ev.t[i], ev.ver[i], ev.src[i], ev.dst[i] = e.t, e.v, e.src, e.dst
	}
	return ev, nil
}

// pass scores every event: backward, the longest chain starting with it;
// forward, the longest chain ending with it whose first event canStart
// (0 for none). Events of one time are scored before any is inserted.
func (ev *longestEvents) pass(delta int64, backward bool, canStart func(int) bool) []int32 {
	n := len(ev.t)
	score := make([]int32, n)
	dq := make([]longestDeque, ev.nodes)
	// at: the node an event is queried at; into: the node it is kept at.
	at, into := ev.dst, ev.src
	if !backward {
		at, into = ev.src, ev.dst
	}
	idx := func(k int) int { // the k-th event in the pass's time order
		if backward {
			return n - 1 - k
		}
		return k
	}
	for g := 0; g < n; {
		h := g + 1
		for h < n && ev.t[idx(h)] == ev.t[idx(g)] {
			h++
		}
		for k := g; k < h; k++ {
			i := idx(k)
			best := dq[at[i]].best(ev.t, ev.t[i], delta, backward, score)
			switch {
			case best > 0:
				score[i] = best + 1
			case backward || canStart(i):
				score[i] = 1
			}
		}
		for k := g; k < h; k++ {
			if i := idx(k); score[i] > 0 {
				dq[into[i]].push(int32(i), score)
			}
		}
		g = h
	}
	return score
}

// longestDeque holds one node's candidate events: oldest (farthest in
// time from the query) at the head, scores strictly decreasing towards
// the tail, so the head is the best event still within the wait cap.
type longestDeque struct {
	items []int32
	head  int
}

// best is the highest score among the kept events within delta of t
// (delta < 0: unbounded), dropping those beyond it for good: queries
// come in time order, so an event too far now stays too far.
func (d *longestDeque) best(ts []int64, t, delta int64, backward bool, score []int32) int32 {
	if delta >= 0 {
		for d.head < len(d.items) {
			gap := t - ts[d.items[d.head]]
			if backward {
				gap = -gap
			}
			if gap <= delta {
				break
			}
			d.head++
		}
	}
	if d.head == len(d.items) {
		return 0
	}
	return score[d.items[d.head]]
}

// push keeps event i, dropping the kept events it dominates (no higher
// score, and they leave the wait cap before it does).
func (d *longestDeque) push(i int32, score []int32) {
	for len(d.items) > d.head && score[d.items[len(d.items)-1]] <= score[i] {
		d.items = d.items[:len(d.items)-1]
	}
	d.items = append(d.items, i)
}

// witness follows back from first: at each step the earliest event in
// (t, eid) order that continues the chain with one event less left. A
// node's list is scanned from the first event after the current time, and
// the next visit to that node is later than the event found, so scans of
// one list never overlap: O(E) in all.
func (ev *longestEvents) witness(first int, back []int32) []int {
	if first < 0 {
		return nil
	}
	out := make([][]int32, ev.nodes) // events by source, in sequence order
	for i := range ev.t {
		out[ev.src[i]] = append(out[ev.src[i]], int32(i))
	}
	chain := []int{first}
	for cur := first; back[cur] > 1; {
		list, t := out[ev.dst[cur]], ev.t[cur]
		p := sort.Search(len(list), func(j int) bool { return ev.t[list[j]] > t })
		for back[list[p]] != back[cur]-1 {
			p++ // the first such event is within the wait cap: back[cur] counted it
		}
		cur = int(list[p])
		chain = append(chain, cur)
	}
	return chain
}
