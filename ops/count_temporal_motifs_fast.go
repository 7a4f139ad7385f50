package ops

import "slices"

// Counting kernels. None of them lists instances:
//
//   - two-node motifs: per unordered node pair, one pass of the three-event
//     counter of Paranjape et al. over the pair's events (alphabet: the two
//     directions), O(events);
//   - stars (and the four-node out-star): per centre node, one pass over its
//     incident events with a sliding δ-window and per-neighbour pair sums,
//     O(1) per event, O(events) overall;
//   - triangles and the four-node path: a δ-window count: for each first
//     event, the second events come from one node's adjacency list inside
//     the window, and the third events are counted by binary search in a
//     (source, destination) list, O(Σ second candidates · log).
//
// Events are positions in the (t, eid) order, so equal timestamps are
// ordered by eid everywhere.

// motifCountFast counts instances of d.
func motifCountFast(c *Call, ev *motifEvents, d *motifDef, delta int64) (int64, error) {
	switch d.kind {
	case motifTwoNode:
		return motifCountTwoNode(c, ev, d, delta)
	case motifStar, motifStarOut4:
		return motifCountStars(c, ev, d, delta)
	}
	ev.index()
	return motifCountWindow(c, ev, d, delta)
}

// motifCountTwoNode runs the three-event counter over each unordered pair's
// events. Letter 0 is the direction lo→hi of the pair, 1 the other.
func motifCountTwoNode(c *Call, ev *motifEvents, d *motifDef, delta int64) (int64, error) {
	n := len(ev.t)
	type item struct {
		key uint64
		pos int32
	}
	items := make([]item, n)
	for i := range n {
		s, t := ev.src[i], ev.dst[i]
		if s > t {
			s, t = t, s
		}
		items[i] = item{motifPairKey(s, t), int32(i)}
	}
	slices.SortFunc(items, func(a, b item) int {
		if a.key != b.key {
			if a.key < b.key {
				return -1
			}
			return 1
		}
		return int(a.pos - b.pos)
	})
	if err := c.Work(int64(n)); err != nil {
		return 0, err
	}
	var total [2][2][2]int64
	for i := 0; i < n; {
		j := i + 1
		for j < n && items[j].key == items[i].key {
			j++
		}
		if j-i >= 3 {
			var c1 [2]int64
			var c2 [2][2]int64
			start := i
			for k := i; k < j; k++ {
				p := items[k].pos
				for ev.t[p]-ev.t[items[start].pos] > delta {
					q := items[start].pos
					a := motifLetter(ev, q)
					c1[a]--
					for b := range 2 {
						c2[a][b] -= c1[b]
					}
					start++
				}
				x := motifLetter(ev, p)
				for a := range 2 {
					for b := range 2 {
						total[a][b][x] += c2[a][b]
					}
				}
				for a := range 2 {
					c2[a][x] += c1[a]
				}
				c1[x]++
			}
		}
		i = j
	}
	o := d.orient
	return total[o[0]][o[1]][o[2]] + total[1-o[0]][1-o[1]][1-o[2]], nil
}

// motifLetter is 0 when event i runs from the lower to the higher node id.
func motifLetter(ev *motifEvents, i int32) int {
	if ev.src[i] < ev.dst[i] {
		return 0
	}
	return 1
}

// motifStarCounts holds, summed over all centres, the number of triples
// (e1 < e2 < e3, span <= delta) of events incident to the centre by
// direction (0 out of the centre, 1 into it) and by which edges share a
// neighbour.
type motifStarCounts struct {
	pre, post, mid, same, all [2][2][2]int64
}

// distinct is the number of triples with three different neighbours.
func (s *motifStarCounts) distinct(a, b, c int) int64 {
	return s.all[a][b][c] - s.same[a][b][c] - s.pre[a][b][c] - s.post[a][b][c] - s.mid[a][b][c]
}

// motifNbrState is the per-neighbour state of the star counter.
type motifNbrState struct {
	cnt [2]int64    // events in the window with this neighbour, by direction
	k   [2][2]int64 // k[d][j]: Σ over those of direction d of cumAt[j]
	q   [2][2]int64 // same-neighbour pairs (e1 < e2) in the window
}

// motifCountStars counts star motifs centred anywhere.
//
// For a centre c, its incident events are scanned in sequence order with a
// window of the events at most delta before the current one, which is the
// third event e3 (neighbour x, direction d3). With per-neighbour state the
// pairs (e1, e2) of the window split by shape in O(1):
//
//	P[d1][d2]     same-neighbour pairs in the window (any neighbour)
//	Q_x[d1][d2]   same-neighbour pairs with neighbour x
//	A_x[d1][d2] = cnt_x[d1]·cum[d2] − K_x[d1][d2] − [d1=d2]·cnt_x[d1]
//	                                               pairs whose e1 has neighbour x
//	B_x[d1][d2] = K_x[d2][d1] − cnt_x[d2]·popped[d1]  pairs whose e2 has neighbour x
//
// where cum[d] counts the events of direction d pushed so far, popped[d]
// those that left the window, and K_x[d][j] sums, over the window's events
// with neighbour x and direction d, the value of cum[j] when they were
// pushed. Then pre (e1,e2 same, e3 other) = P − Q_x, mid (e1,e3 same) =
// A_x − Q_x, post (e2,e3 same) = B_x − Q_x, and all-three-same = Q_x.
func motifCountStars(c *Call, ev *motifEvents, d *motifDef, delta int64) (int64, error) {
	n := len(ev.t)
	// incident lists per centre (out and in merged in sequence order)
	off := make([]int32, ev.nodes+1)
	for i := range n {
		off[ev.src[i]+1]++
		off[ev.dst[i]+1]++
	}
	for i := 1; i <= ev.nodes; i++ {
		off[i] += off[i-1]
	}
	inc := make([]int32, 2*n) // event position<<1 | direction
	fill := slices.Clone(off[:ev.nodes])
	for i := range n {
		s, t := ev.src[i], ev.dst[i]
		inc[fill[s]] = int32(i) << 1
		fill[s]++
		inc[fill[t]] = int32(i)<<1 | 1
		fill[t]++
	}
	if err := c.Work(int64(2 * n)); err != nil {
		return 0, err
	}
	slot := make([]int32, ev.nodes)
	for i := range slot {
		slot[i] = -1
	}
	var states []motifNbrState
	var used []int32
	var cumAt [][2]int64
	var sc motifStarCounts
	for centre := range ev.nodes {
		list := inc[off[centre]:off[centre+1]]
		if len(list) < 3 {
			continue
		}
		if d.kind == motifStarOut4 {
			// only out-events matter: drop the others up front
			outs := list[:0:0]
			for _, e := range list {
				if e&1 == 0 {
					outs = append(outs, e)
				}
			}
			list = outs
			if len(list) < 3 {
				continue
			}
		}
		nbrOf := func(e int32) int32 {
			p := e >> 1
			if e&1 == 0 {
				return ev.dst[p]
			}
			return ev.src[p]
		}
		states = states[:0]
		used = used[:0]
		for _, e := range list {
			x := nbrOf(e)
			if slot[x] < 0 {
				slot[x] = int32(len(states))
				states = append(states, motifNbrState{})
				used = append(used, x)
			}
		}
		cumAt = slices.Grow(cumAt[:0], len(list))[:len(list)]
		var cum, popped, win [2]int64
		var pp, tt [2][2]int64 // same-neighbour pairs, all pairs in the window
		front := 0
		for j, e := range list {
			p := e >> 1
			for ev.t[p]-ev.t[list[front]>>1] > delta {
				f := list[front]
				st := &states[slot[nbrOf(f)]]
				fd := int(f & 1)
				st.cnt[fd]--
				win[fd]--
				for i := range 2 {
					st.q[fd][i] -= st.cnt[i]
					pp[fd][i] -= st.cnt[i]
					tt[fd][i] -= win[i]
					st.k[fd][i] -= cumAt[front][i]
				}
				popped[fd]++
				front++
			}
			st := &states[slot[nbrOf(e)]]
			d3 := int(e & 1)
			for d1 := range 2 {
				for d2 := range 2 {
					q := st.q[d1][d2]
					sc.same[d1][d2][d3] += q
					sc.pre[d1][d2][d3] += pp[d1][d2] - q
					a := st.cnt[d1]*cum[d2] - st.k[d1][d2]
					if d1 == d2 { // cum counted each e1 itself
						a -= st.cnt[d1]
					}
					sc.mid[d1][d2][d3] += a - q
					sc.post[d1][d2][d3] += st.k[d2][d1] - st.cnt[d2]*popped[d1] - q
					sc.all[d1][d2][d3] += tt[d1][d2]
				}
			}
			for i := range 2 {
				st.q[i][d3] += st.cnt[i]
				pp[i][d3] += st.cnt[i]
				tt[i][d3] += win[i]
				st.k[d3][i] += cum[i]
			}
			cumAt[j] = cum
			st.cnt[d3]++
			win[d3]++
			cum[d3]++
		}
		for _, x := range used {
			slot[x] = -1
		}
		if err := c.Work(int64(len(list))); err != nil {
			return 0, err
		}
	}
	a, b, cc := d.dirs[0], d.dirs[1], d.dirs[2]
	switch d.shape {
	case motifShapePre:
		return sc.pre[a][b][cc], nil
	case motifShapePost:
		return sc.post[a][b][cc], nil
	case motifShapeMid:
		return sc.mid[a][b][cc], nil
	}
	return sc.distinct(a, b, cc), nil
}

// motifCountWindow is the δ-window counter for any pattern: every event is
// a first edge e1 (binding u, v); second edges come from the adjacency list
// the pattern names, inside (e1, horizon); third edges are counted by
// binary search, minus the candidates whose free node is already bound.
func motifCountWindow(c *Call, ev *motifEvents, d *motifDef, delta int64) (int64, error) {
	hi := ev.horizon(delta)
	var total int64
	var bind [4]int32
	for i := range int32(len(ev.t)) {
		end := hi[i]
		if end-i < 3 {
			continue
		}
		bind = [4]int32{ev.src[i], ev.dst[i], -1, -1}
		cand := motifCandidates(ev, d.pat[1], &bind, i, end)
		if err := c.Work(int64(len(cand)) + 1); err != nil {
			return 0, err
		}
		e2 := d.pat[1]
		for _, j := range cand {
			free := motifBindFree(ev, e2, &bind, j)
			if free == -2 {
				continue
			}
			total += motifCountThird(ev, d.pat[2], &bind, j, end)
			if free >= 0 {
				bind[free] = -1
			}
		}
	}
	return total, nil
}

// motifCandidates returns the events after position i and before end that
// can play pattern edge e given the bound variables (bind[v] < 0: free).
func motifCandidates(ev *motifEvents, e motifEdge, bind *[4]int32, i, end int32) []int32 {
	s, t := bind[e.s], bind[e.d]
	switch {
	case s >= 0 && t >= 0:
		return motifWindow(ev.pair(s, t), i, end)
	case s >= 0:
		return motifWindow(ev.out(s), i, end)
	default:
		return motifWindow(ev.in(t), i, end)
	}
}

// motifBindFree binds the free variable of pattern edge e to event j's
// endpoint. It returns the variable bound (-1 if none was free), or -2 when
// the endpoint is already bound to another variable.
func motifBindFree(ev *motifEvents, e motifEdge, bind *[4]int32, j int32) int {
	v, node := -1, int32(0)
	switch {
	case bind[e.s] < 0:
		v, node = int(e.s), ev.src[j]
	case bind[e.d] < 0:
		v, node = int(e.d), ev.dst[j]
	default:
		return -1
	}
	for _, b := range bind {
		if b == node {
			return -2
		}
	}
	bind[v] = node
	return v
}

// motifCountThird counts the events in (j, end) that can play pattern edge
// e: a pair list length when both ends are bound, else an adjacency list
// length minus the pair lists towards already-bound nodes.
func motifCountThird(ev *motifEvents, e motifEdge, bind *[4]int32, j, end int32) int64 {
	s, t := bind[e.s], bind[e.d]
	if s >= 0 && t >= 0 {
		return motifRange(ev.pair(s, t), j, end)
	}
	var n int64
	if s >= 0 {
		n = motifRange(ev.out(s), j, end)
		for _, b := range bind {
			if b >= 0 && b != s {
				n -= motifRange(ev.pair(s, b), j, end)
			}
		}
		return n
	}
	n = motifRange(ev.in(t), j, end)
	for _, b := range bind {
		if b >= 0 && b != t {
			n -= motifRange(ev.pair(b, t), j, end)
		}
	}
	return n
}
