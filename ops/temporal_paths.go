package ops

import (
	"slices"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// temporal_paths: up to k concrete time-respecting, node-simple paths from
// src to dst, with the traversal rule of temporal_reachability.
//
// The kernel first runs a forward earliest-arrival pass from src over
// max_hops − 1 hops (ea[x]: no path is at x before it), then a
// hop-bounded latest-departure search backwards from dst restricted to
// the nodes and times of ea (can[h][x] = the latest time one can be at x
// and still reach dst in at most h hops, over walks that src can be on),
// then a depth-first enumeration from src that only enters a node v at
// time τ with h hops left when can[h][v] >= τ. Both searches stay inside
// the part of the window that src reaches in time, not the whole window.
// The bound is exact for such walks, so the enumeration only explores
// branches that end at dst unless node-simplicity cuts them; the set of
// paths found is that of the plain enumeration.

func init() {
	Register(&Spec{
		Name:    "temporal_paths",
		Summary: "Up to k concrete time-respecting paths from src to dst in a window, ordered by earliest arrival, fastest or fewest hops.",
		Doc: `Enumerates every node-simple path from src to dst with 1..max_hops hops over
the edge versions believed at as_of_tt that overlap the window [t_a, t_b),
following edge direction, with the traversal rule of temporal_reachability:
start at src at t_a; being at u at time a, an edge u→v valid over [s, e) is
taken at τ = max(a, s), which needs τ < e and τ < t_b. Times are
non-decreasing, and several hops may happen at the same instant. A path
ends when it reaches dst (it never passes through dst); src == dst has no
paths. Distinct occurrences make distinct paths (two messages a→c are two
one-hop paths), but the fragments of one edge identity left by a correction
or retraction (a version that continues another believed version of the
same identity) are one edge: a path takes the identity at its earliest
traversable fragment, so a fragment is used only by a path that reaches its
tail at or after the fragment's start, and carving never adds paths.

Each row: arrival (τ of the last hop), departure (τ of the first hop),
duration = arrival − departure, hops, and edges in path order, each
{src, dst, rel_type, eid, t, traversed_at}: t is the edge version's valid
start vt_s, traversed_at its traversal time τ (they differ only for interval
edges entered after they started).

order: "earliest_arrival" (default) sorts by (arrival, hops, edges);
"fastest" by (duration, arrival, hops, edges); "fewest_hops" by (hops,
arrival, edges); edges compare as the list of (t, eid) pairs in path order,
lexicographically. (t, eid) is unique among believed versions, so the order
is total. rows holds the first k paths; rows_total counts every path found
and truncated is rows_total > k. There are no further pages (cursor is
always null): raise k (at most 20) or narrow the window.

Errors: E_NOT_FOUND for an unknown src or dst; E_INVALID_ARG for an empty
or inverted window; E_SCHEMA for k outside 1..20 or max_hops outside 1..6;
E_COST when the enumeration spends the work budget (one unit per examined
edge): narrow the window or reduce max_hops.`,
		Args: Obj("", map[string]*Schema{
			"src":      UIDField("the start node"),
			"dst":      UIDField("the end node"),
			"window":   Window(),
			"k":        Int("number of paths to return, 1..20").Range(1, 20).Def(int64(5)),
			"max_hops": Int("maximum path length, 1..6").Range(1, 6).Def(int64(4)),
			"order":    Enum("which paths come first", "earliest_arrival", "fastest", "fewest_hops").Def("earliest_arrival"),
			"as_of_tt": AsOfTT(),
		}, "src", "dst", "window"),
		Result: Obj("", map[string]*Schema{
			"rows": Arr("the first k paths in the requested order", Obj("a path", map[string]*Schema{
				"arrival":   Int("time of the last hop (µs)"),
				"departure": Int("time of the first hop (µs)"),
				"duration":  Int("arrival − departure (µs)"),
				"hops":      Int("number of edges"),
				"edges": Arr("the edges in path order", Obj("a traversed edge version", map[string]*Schema{
					"src":          UIDField("tail"),
					"dst":          UIDField("head"),
					"rel_type":     Str("relation type"),
					"eid":          Str("edge identity id"),
					"t":            Int("the version's valid start vt_s (µs)"),
					"traversed_at": Int("traversal time τ (µs)"),
				})),
			})),
			"rows_total": Int("number of paths found (all of them, not only the first k)"),
			"truncated":  Bool("rows_total > k: more paths exist than rows lists"),
			"cursor":     Str("always null: temporal_paths has no further pages").OrNull(),
		}),
		Order: `earliest_arrival: (arrival, hops, [(t, eid)...]); fastest: (duration, arrival, hops, [(t, eid)...]); fewest_hops: (hops, arrival, [(t, eid)...])`,
		Cost: func(c *Call) Cost {
			ew := int64(float64(c.Stats.EdgeVersions) * c.WindowFraction(c.Window("window")))
			b := max(1.0, float64(ew)/float64(max(1, c.Stats.Nodes)))
			exp, p := 0.0, 1.0
			for range c.Int("max_hops") {
				p *= b
				exp += p
				if exp >= 1<<40 {
					exp = 1 << 40
					break
				}
			}
			return Cost{Rows: ew, Expansions: int64(exp)}
		},
		Run: runTemporalPaths,
	})
}

// tpathsPath is one found path: its edge versions and traversal times.
type tpathsPath struct {
	edges []uint32
	taus  []int64
}

func (p *tpathsPath) arrival() int64   { return p.taus[len(p.taus)-1] }
func (p *tpathsPath) departure() int64 { return p.taus[0] }

type tpathsRun struct {
	c        *Call
	r        Reader
	h        hotReader
	w        bt.Interval
	src, dst uint32
	maxHops  int
	k        int
	order    string
	out      map[uint32][]uint32 // window out-edges per node, (vt_s, id) order
	can      map[uint32]*[7]int64
	ea       *nodeTable[tpathsArrival] // per node: a lower bound on every arrival time within max_hops − 1 hops
	eids     map[uint32]string
	best     []*tpathsPath // the first k found so far, sorted
	total    int64
	onPath   map[uint32]bool
	edges    []uint32
	taus     []int64
}

const tpathsNever = -1 << 62

// tpathsArrival is a node's earliest arrival and the round of arrivals'
// search that last queued it.
type tpathsArrival struct {
	t      int64
	queued int32
}

var tpathsArrivals nodeTables[tpathsArrival]

func runTemporalPaths(c *Call) (map[string]any, error) {
	src, err := c.Node("/src", c.Str("src"))
	if err != nil {
		return nil, err
	}
	dst, err := c.Node("/dst", c.Str("dst"))
	if err != nil {
		return nil, err
	}
	p := &tpathsRun{c: c, r: c.R, h: hot(c.R), w: c.Window("window"), src: src, dst: dst,
		maxHops: int(c.Int("max_hops")), k: int(c.Int("k")), order: c.Str("order"),
		out: map[uint32][]uint32{}, can: map[uint32]*[7]int64{}, ea: tpathsArrivals.get(c.R.NumNodes()), eids: map[uint32]string{},
		onPath: map[uint32]bool{src: true}}
	defer tpathsArrivals.put(p.ea)
	if src != dst {
		if err := p.arrivals(); err != nil {
			return nil, err
		}
		if err := p.bound(); err != nil {
			return nil, err
		}
		if c0 := p.can[src]; c0 != nil && c0[p.maxHops] >= p.w.Start {
			if err := p.dfs(src, p.w.Start); err != nil {
				return nil, err
			}
		}
	}
	rows := make([]any, len(p.best))
	for i, path := range p.best {
		es := make([]any, len(path.edges))
		for j, v := range path.edges {
			es[j] = map[string]any{"src": p.r.UID(p.h.Src(v)), "dst": p.r.UID(p.h.Dst(v)), "rel_type": p.r.RelType(v),
				"eid": p.eid(v), "t": p.h.Valid(v).Start, "traversed_at": path.taus[j]}
		}
		rows[i] = map[string]any{"arrival": path.arrival(), "departure": path.departure(),
			"duration": path.arrival() - path.departure(), "hops": int64(len(path.edges)), "edges": es}
	}
	return map[string]any{"rows": rows, "rows_total": p.total, "truncated": p.total > int64(p.k), "cursor": nil}, nil
}

// bound computes can[x][h], the latest time one can be at x and still
// reach dst within h hops (tpathsNever if one cannot), by h rounds of a
// backward frontier search from dst (can[dst][0] = t_b − 1). It only
// relaxes an edge x→y at τ when x is in ea and τ >= ea[x]: every path
// the enumeration can extend is at its nodes no earlier, so the bound
// stays exact for them, and the search stays inside the part of the
// window that src can reach in time.
func (p *tpathsRun) bound() error {
	newCan := func() *[7]int64 {
		a := new([7]int64)
		for i := range a {
			a[i] = tpathsNever
		}
		return a
	}
	d := newCan()
	for h := range d {
		d[h] = p.w.End - 1
	}
	p.can[p.dst] = d
	frontier := []uint32{p.dst}
	for h := 1; h <= p.maxHops && len(frontier) > 0; h++ {
		for _, a := range p.can { // can[.][h] >= can[.][h-1]
			a[h] = max(a[h], a[h-1])
		}
		var next []uint32
		for _, y := range frontier {
			ly := p.can[y][h-1]
			ins := p.h.InOverlapping(nil, y, p.w)
			if err := p.c.Work(int64(len(ins) + 1)); err != nil {
				return err
			}
			for _, v := range ins {
				iv := p.h.Valid(v)
				tau := min(ly, iv.End-1)
				if tau < iv.Start || tau < p.w.Start {
					continue
				}
				x := p.h.Src(v)
				if lo, ok := p.ea.get(x); !ok || tau < lo.t {
					continue // no path is at x by tau
				}
				a := p.can[x]
				if a == nil {
					a = newCan()
					p.can[x] = a
				}
				if tau > a[h] {
					if a[h] == max(tpathsNever, a[h-1]) {
						next = append(next, x) // first improvement this round
					}
					a[h] = tau
				}
			}
		}
		frontier = next
	}
	for _, a := range p.can {
		for h := 1; h < len(a); h++ {
			a[h] = max(a[h], a[h-1])
		}
	}
	return nil
}

// arrivals fills ea: the earliest arrival time at each node over walks of
// at most max_hops − 1 hops from src (not through dst), by hop rounds of a
// forward frontier search. Every path the enumeration can extend reaches
// its nodes no earlier, and a node missing from ea is on none of them.
func (p *tpathsRun) arrivals() error {
	p.ea.set(p.src, tpathsArrival{t: p.w.Start})
	frontier := []uint32{p.src}
	for h := int32(1); h < int32(p.maxHops) && len(frontier) > 0; h++ {
		var next []uint32
		for _, u := range frontier {
			list, err := p.outEdges(u)
			if err != nil {
				return err
			}
			a, _ := p.ea.get(u)
			for _, v := range list {
				iv := p.h.Valid(v)
				tau := max(a.t, iv.Start)
				if tau >= iv.End || tau >= p.w.End {
					continue
				}
				y := p.h.Dst(v)
				if y == p.dst {
					continue
				}
				if old, seen := p.ea.get(y); !seen || tau < old.t {
					if old.queued != h {
						next = append(next, y)
					}
					p.ea.set(y, tpathsArrival{t: tau, queued: h})
				}
			}
		}
		frontier = next
	}
	return nil
}

// outEdges is u's out-edge versions that overlap the window, in (vt_s, id)
// order, charging one work unit per edge (and one for u) on every use.
func (p *tpathsRun) outEdges(u uint32) ([]uint32, error) {
	list, ok := p.out[u]
	if !ok {
		list = p.h.OutOverlapping(nil, u, p.w)
		p.out[u] = list
	}
	if err := p.c.Work(int64(len(list) + 1)); err != nil {
		return nil, err
	}
	return list, nil
}

// dfs extends the current path, which is at node u at time a.
func (p *tpathsRun) dfs(u uint32, a int64) error {
	list, err := p.outEdges(u)
	if err != nil {
		return err
	}
	left := p.maxHops - len(p.edges) - 1 // hops left after this one
	for _, v := range list {
		iv := p.h.Valid(v)
		tau := max(a, iv.Start)
		if tau >= iv.End || tau >= p.w.End {
			continue
		}
		if a < iv.Start && p.r.Continues(v) {
			continue // the fragment it continues is taken instead, earlier
		}
		x := p.h.Dst(v)
		if p.onPath[x] {
			continue
		}
		if x == p.dst {
			p.edges, p.taus = append(p.edges, v), append(p.taus, tau)
			p.found()
			p.edges, p.taus = p.edges[:len(p.edges)-1], p.taus[:len(p.taus)-1]
			continue
		}
		if left == 0 {
			continue
		}
		if cx := p.can[x]; cx == nil || cx[left] < tau {
			continue
		}
		p.edges, p.taus = append(p.edges, v), append(p.taus, tau)
		p.onPath[x] = true
		err := p.dfs(x, tau)
		p.onPath[x] = false
		p.edges, p.taus = p.edges[:len(p.edges)-1], p.taus[:len(p.taus)-1]
		if err != nil {
			return err
		}
	}
	return nil
}

// found records the current path: counted, and kept if among the first k.
func (p *tpathsRun) found() {
	p.total++
	path := &tpathsPath{edges: p.edges, taus: p.taus} // compared before it is copied
	i, _ := slices.BinarySearchFunc(p.best, path, p.compare)
	if i >= p.k {
		return
	}
	kept := &tpathsPath{edges: slices.Clone(p.edges), taus: slices.Clone(p.taus)}
	p.best = slices.Insert(p.best, i, kept)
	if len(p.best) > p.k {
		p.best = p.best[:p.k]
	}
}

func (p *tpathsRun) eid(v uint32) string {
	s, ok := p.eids[v]
	if !ok {
		s, _ = p.r.EdgeIDs(v) // remembered by the store, not hashed per call
		p.eids[v] = s
	}
	return s
}

// compare orders paths by the requested order.
func (p *tpathsRun) compare(a, b *tpathsPath) int {
	var keys [][2]int64
	switch p.order {
	case "fastest":
		keys = [][2]int64{{a.arrival() - a.departure(), b.arrival() - b.departure()}, {a.arrival(), b.arrival()}, {int64(len(a.edges)), int64(len(b.edges))}}
	case "fewest_hops":
		keys = [][2]int64{{int64(len(a.edges)), int64(len(b.edges))}, {a.arrival(), b.arrival()}}
	default:
		keys = [][2]int64{{a.arrival(), b.arrival()}, {int64(len(a.edges)), int64(len(b.edges))}}
	}
	for _, k := range keys {
		if k[0] != k[1] {
			return cmpOrdered(k[0], k[1])
		}
	}
	for i := 0; i < len(a.edges) && i < len(b.edges); i++ {
		va, vb := a.edges[i], b.edges[i]
		if va == vb {
			continue
		}
		if sa, sb := p.h.Valid(va).Start, p.h.Valid(vb).Start; sa != sb {
			return cmpOrdered(sa, sb)
		}
		if c := strings.Compare(p.eid(va), p.eid(vb)); c != 0 {
			return c
		}
	}
	return len(a.edges) - len(b.edges)
}
