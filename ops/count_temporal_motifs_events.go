package ops

import (
	"cmp"
	"slices"
	"strings"

	"github.com/tgms-go/tgms/engine"
)

// motifEvents is the event sequence a motif call works on: the believed
// edge occurrences with t_a <= t < t_b (both endpoints in the node filter,
// when there is one), self-loops removed, in (t, eid) order. Nodes are
// renumbered 0..nodes-1.
type motifEvents struct {
	t        []int64
	src, dst []int32
	ver      []uint32 // edge version of each event (its first fragment)
	nodes    int
	local    []uint32 // local node id -> dense id
	total    int64    // events in the window, self-loops included
	// adjacency (built by index): events by source, by destination and by
	// (source, destination), each list in sequence order
	outOff, inOff []int32
	outSeq, inSeq []int32
	pairOff       []int32 // per source: range of pairDst / pairLo
	pairDst       []int32 // distinct destinations of each source, sorted
	pairLo        []int32 // start of each pair's events in pairSeq (+ sentinel n)
	pairSeq       []int32
	indexed       bool
}

// motifMaxEventsUnfiltered is the most window events an unfiltered exact
// call may work on (the reference system's bound).
const motifMaxEventsUnfiltered = 5_000_000

// collect renumbers the nodes of the occurrences among vs (carved
// fragments skipped) into ev.local, counts them in ev.total and returns
// those that are not self-loops.
func (ev *motifEvents) collect(r Reader, vs []uint32) []motifRaw {
	localOf := make([]int32, r.NumNodes())
	for i := range localOf {
		localOf[i] = -1
	}
	loc := func(id uint32) int32 {
		if l := localOf[id]; l >= 0 {
			return l
		}
		l := int32(len(ev.local))
		localOf[id] = l
		ev.local = append(ev.local, id)
		return l
	}
	raw := make([]motifRaw, 0, len(vs))
	for _, v := range vs {
		if r.Continues(v) {
			continue
		}
		ev.total++
		s, d := r.Src(v), r.Dst(v)
		if s == d {
			continue
		}
		raw = append(raw, motifRaw{t: r.Valid(v).Start, v: v, src: loc(s), dst: loc(d)})
	}
	return raw
}

// finish sorts the collected events by (t, eid) into ev's columns.
func (ev *motifEvents) finish(r Reader, raw []motifRaw) {
	ev.nodes = len(ev.local)
	motifSortEvents(r, raw)
	n := len(raw)
	ev.t, ev.ver = make([]int64, n), make([]uint32, n)
	ev.src, ev.dst = make([]int32, n), make([]int32, n)
	for i, e := range raw {
		ev.t[i], ev.ver[i], ev.src[i], ev.dst[i] = e.t, e.v, e.src, e.dst
	}
}

type motifRaw struct {
	t        int64
	v        uint32
	src, dst int32
}

// motifCollect gathers the call's events. A uid in node_filter the store
// does not know at the call's belief time matches no event; an empty
// filter gives no events.
func motifCollect(c *Call) (*motifEvents, error) {
	w := c.Window("window")
	r := c.R
	ev := &motifEvents{}
	var raw []motifRaw
	if c.Has("node_filter") {
		filter := c.Strings("node_filter")
		localOf := make(map[uint32]int32, len(filter))
		for _, uid := range filter {
			id, known := c.R.Node(uid)
			if !known {
				continue // an unknown uid matches no event
			}
			if _, dup := localOf[id]; !dup {
				localOf[id] = int32(len(ev.local))
				ev.local = append(ev.local, id)
			}
		}
		ids := slices.Clone(ev.local)
		slices.Sort(ids)
		h := hot(r)
		vs, read := h.EdgesWithin(ids, w)
		if err := c.Work(int64(read + len(ids))); err != nil {
			return nil, err
		}
		for _, v := range vs {
			if r.Continues(v) {
				continue
			}
			ev.total++
			if ls, ld := localOf[r.Src(v)], localOf[r.Dst(v)]; ls != ld {
				raw = append(raw, motifRaw{t: r.Valid(v).Start, v: v, src: ls, dst: ld})
			}
		}
	} else {
		vs := r.EdgesStartingIn(w)
		if err := c.Work(int64(len(vs))); err != nil {
			return nil, err
		}
		if len(vs) > motifMaxEventsUnfiltered {
			return nil, Errorf(EInvalidArg, map[string]any{"path": "/node_filter", "events": len(vs),
				"hint": "add a node_filter or narrow the window"},
				"the window holds %d events, more than %d; an unfiltered exact motif call is refused", len(vs), motifMaxEventsUnfiltered)
		}
		raw = ev.collect(r, vs)
	}
	ev.finish(r, raw)
	return ev, nil
}

// motifSortEvents orders events by (t, eid): by (t, version id) first, then
// each run of equal t by eid (hashed only for the ties).
func motifSortEvents(r Reader, raw []motifRaw) {
	slices.SortFunc(raw, func(a, b motifRaw) int {
		if a.t != b.t {
			return cmp.Compare(a.t, b.t)
		}
		return cmp.Compare(a.v, b.v)
	})
	for i := 0; i < len(raw); {
		j := i + 1
		for j < len(raw) && raw[j].t == raw[i].t {
			j++
		}
		if j-i > 1 {
			run := raw[i:j]
			eids := make(map[uint32]string, len(run))
			for _, e := range run {
				eids[e.v] = engine.EID(r.Edge(e.v).Key)
			}
			slices.SortFunc(run, func(a, b motifRaw) int { return strings.Compare(eids[a.v], eids[b.v]) })
		}
		i = j
	}
}

// index builds the by-source, by-destination and by-(source, destination)
// lists in linear time. The pair lists are the by-source lists regrouped by
// destination: source s's distinct destinations, sorted, are
// pairDst[pairOff[s]:pairOff[s+1]], and the events of the k-th pair are
// pairSeq[pairLo[k]:pairLo[k+1]], in sequence order.
func (ev *motifEvents) index() {
	n := len(ev.t)
	ev.outOff, ev.outSeq = motifCSR(ev.nodes, ev.src, n)
	ev.inOff, ev.inSeq = motifCSR(ev.nodes, ev.dst, n)
	ev.pairSeq = make([]int32, n)
	ev.pairOff = make([]int32, ev.nodes+1)
	ev.pairDst, ev.pairLo = ev.pairDst[:0], ev.pairLo[:0]
	cnt := make([]int32, ev.nodes) // events per destination of the current source
	var touched []int32
	for s := range int32(ev.nodes) {
		lst := ev.out(s)
		touched = touched[:0]
		for _, e := range lst {
			d := ev.dst[e]
			if cnt[d] == 0 {
				touched = append(touched, d)
			}
			cnt[d]++
		}
		slices.Sort(touched)
		pos := ev.outOff[s]
		for _, d := range touched {
			ev.pairDst = append(ev.pairDst, d)
			ev.pairLo = append(ev.pairLo, pos)
			pos, cnt[d] = pos+cnt[d], pos // cnt now holds the next free slot
		}
		for _, e := range lst {
			d := ev.dst[e]
			ev.pairSeq[cnt[d]] = e
			cnt[d]++
		}
		for _, d := range touched {
			cnt[d] = 0
		}
		ev.pairOff[s+1] = int32(len(ev.pairDst))
	}
	ev.pairLo = append(ev.pairLo, int32(n))
	ev.indexed = true
}

func motifPairKey(s, d int32) uint64 { return uint64(uint32(s))<<32 | uint64(uint32(d)) }

// motifCSR groups event positions 0..n-1 by key (a node id), keeping
// sequence order inside each group.
func motifCSR(nodes int, key []int32, n int) (off, seq []int32) {
	off = make([]int32, nodes+1)
	for i := range n {
		off[key[i]+1]++
	}
	for i := 1; i <= nodes; i++ {
		off[i] += off[i-1]
	}
	seq = make([]int32, n)
	fill := slices.Clone(off[:nodes])
	for i := range n {
		k := key[i]
		seq[fill[k]] = int32(i)
		fill[k]++
	}
	return off, seq
}

func (ev *motifEvents) out(node int32) []int32 { return ev.outSeq[ev.outOff[node]:ev.outOff[node+1]] }
func (ev *motifEvents) in(node int32) []int32  { return ev.inSeq[ev.inOff[node]:ev.inOff[node+1]] }
func (ev *motifEvents) pair(s, d int32) []int32 {
	dsts := ev.pairDst[ev.pairOff[s]:ev.pairOff[s+1]]
	k, ok := slices.BinarySearch(dsts, d)
	if !ok {
		return nil
	}
	k += int(ev.pairOff[s])
	return ev.pairSeq[ev.pairLo[k]:ev.pairLo[k+1]]
}

// horizon returns, for every event i, the first position whose time is more
// than delta after t_i (the exclusive end of i's δ-window).
func (ev *motifEvents) horizon(delta int64) []int32 {
	n := len(ev.t)
	hi := make([]int32, n)
	k := 0
	for i := range n {
		if k < i {
			k = i
		}
		for k < n && ev.t[k]-ev.t[i] <= delta {
			k++
		}
		hi[i] = int32(k)
	}
	return hi
}

// motifRange counts the positions of a sequence-ordered list in (after, end).
func motifRange(list []int32, after, end int32) int64 {
	lo, _ := slices.BinarySearch(list, after+1)
	hi, _ := slices.BinarySearch(list, end)
	if hi < lo {
		return 0
	}
	return int64(hi - lo)
}

// motifWindow returns the part of a sequence-ordered list in (after, end).
func motifWindow(list []int32, after, end int32) []int32 {
	lo, _ := slices.BinarySearch(list, after+1)
	hi, _ := slices.BinarySearch(list, end)
	if hi < lo {
		return nil
	}
	return list[lo:hi]
}

// edgeRow renders event i as {src, dst, t, eid, rel_type}.
func (ev *motifEvents) edgeRow(r Reader, i int32) map[string]any {
	e := r.Edge(ev.ver[i])
	return map[string]any{"src": e.Key.Src, "dst": e.Key.Dst, "t": ev.t[i], "eid": engine.EID(e.Key), "rel_type": e.Key.RelType}
}
