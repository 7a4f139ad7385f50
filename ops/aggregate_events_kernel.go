package ops

import (
	"math/bits"
	"slices"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// --- the kernel -------------------------------------------------------------

type aggKey [6]int64

// aggGroup accumulates one group (its count and last event are kept in
// flat arrays while scanning).
type aggGroup struct {
	key   aggKey // slot ordinals (see aggIndex)
	count int64
	acc   *[aggNumSrcs]aggAcc // allocated when a numeric value arrives
	times []int64             // event times, for the sequence aggregates
	pairs []uint64            // src<<32 | dst (count_distinct of pair)
	wev   []aggWinEv          // events, for max_distinct_in_window
	kev   []aggKEv            // events with values, for first_k/last_k
	// streamed sequence state: last time, largest gap, session start,
	// longest session
	sLast, sGap, sStart, sSpan int64
	// first and last event (time, src, dst), for first/last
	ends       bool
	fT, lT     int64
	fSrc, fDst uint32
	lSrc, lDst uint32
}

// addEnds keeps the group's first and last event: earliest and latest
// time, ties broken by the smaller (src, dst) uids in code-point order.
func (g *aggGroup) addEnds(r Reader, t int64, src, dst uint32) {
	switch {
	case !g.ends:
		g.ends = true
		g.fT, g.fSrc, g.fDst, g.lT, g.lSrc, g.lDst = t, src, dst, t, src, dst
		return
	case t < g.fT || t == g.fT && aggPairLess(r, src, dst, g.fSrc, g.fDst):
		g.fT, g.fSrc, g.fDst = t, src, dst
	}
	if t > g.lT || t == g.lT && aggPairLess(r, src, dst, g.lSrc, g.lDst) {
		g.lT, g.lSrc, g.lDst = t, src, dst
	}
}

// aggPairLess orders (src, dst) pairs by their uids in code-point order.
func aggPairLess(r Reader, s1, d1, s2, d2 uint32) bool {
	if s1 != s2 {
		return r.UID(s1) < r.UID(s2)
	}
	return d1 != d2 && r.UID(d1) < r.UID(d2)
}

// accOf is the accumulator of numeric source src (empty when no value
// arrived).
func (g *aggGroup) accOf(src int) *aggAcc {
	if g.acc == nil {
		return &aggAcc{}
	}
	return &g.acc[src]
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
	p.replyTimes = p.replyTimes[:0] // a redone call starts afresh

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
		case aggDimCycle:
			widths = append(widths, 5) // 0..31
		case aggDimRel:
			// Keys hold the store's dense rel ids, below the number of
			// rel types it has seen.
			widths = append(widths, uint(bits.Len64(uint64(max(1, r.NumRels())))))
		case aggDimLabel:
			widths = append(widths, 24)
		case aggDimPair:
			widths = append(widths, nodeBits, nodeBits)
		}
	}
	index := newAggIndex(widths)
	// the groups and the sequence aggregates' kept events share the budget
	budget := c.MemBudget()
	perEvent, _ := aggKept(p)
	var kept int64
	held := func(groups int64) int64 {
		return groups*p.rowBytes + kept*perEvent + int64(len(p.replyTimes))*aggReplyBytes
	}

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
	needGroup := needSeqTimes || stream || p.needSrc != [aggNumSrcs]bool{} || p.distinct[3] || p.needEnds || p.needWinEvs || p.needKEvs
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
	st := r
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
			if held(int64(len(gs))) > budget {
				return nil, false, aggHeldErr(c, p, int64(len(gs)), kept, int64(len(p.replyTimes)))
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
		if p.auth != nil && !p.auth.keeps(r.EdgeProvenance(v)) {
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
		if p.needReplies {
			p.replyTimes = append(p.replyTimes, aggPairTime{uint64(src)<<32 | uint64(dst), t})
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
				case aggDimCycle:
					k[d.slot] = aggCycleOf(d.unit, t+d.off)
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
				if held(int64(len(gs))+1) > budget {
					if kept > 0 || len(p.replyTimes) > 0 {
						return nil, false, aggHeldErr(c, p, int64(len(gs))+1, kept, int64(len(p.replyTimes)))
					}
					return nil, false, c.Materialize(int64(len(gs))+1, p.rowBytes, "groups",
						"narrow the window, restrict rel_types, add an endpoint_filter, use pair_mode undirected, or use coarser dimensions (a larger stride or unit)")
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
						if g.acc == nil {
							g.acc = new([aggNumSrcs]aggAcc)
						}
						g.acc[s].add(nums[s])
					}
				}
				if p.distinct[3] {
					g.pairs = append(g.pairs, uint64(src)<<32|uint64(dst))
				}
				if p.needEnds {
					g.addEnds(r, t, src, dst)
				}
				if p.needWinEvs {
					g.wev = append(g.wev, aggWinEv{t, src, dst})
				}
				if p.needKEvs {
					g.kev = append(g.kev, aggKEv{t: t, src: src, dst: dst, v: v})
				}
				if perEvent > 0 {
					kept++ // what the sequence aggregates keep of it
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
	if held(int64(len(gs))) > budget {
		return nil, false, aggHeldErr(c, p, int64(len(gs)), kept, int64(len(p.replyTimes)))
	}
	for gi, g := range gs {
		g.count = gCount[gi]
	}
	slices.SortFunc(p.replyTimes, aggPairTime.cmp)
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
func aggChainEnd(r Reader, v uint32, iv bt.Interval) int64 {
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
