package datasets

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"

	"github.com/tgms-go/tgms/bitemporal"
)

// Units and defaults of the synthetic generator.
const (
	Minute bitemporal.Time = 60_000_000
	Day    bitemporal.Time = 86_400_000_000

	// SynthChunkSize is the number of events Synthesize hands to emit at a
	// time (the last chunk may be shorter).
	SynthChunkSize = 50_000

	// DefaultSynthStart is 2020-01-01T00:00:00Z.
	DefaultSynthStart bitemporal.Time = 1_577_836_800_000_000
	// DefaultSynthSpan is 90 days.
	DefaultSynthSpan = 90 * Day

	// BurstFactor is the event rate of a burst's group inside its window
	// relative to the background rate (the window as a whole runs at about
	// BurstFactor+1 times the background rate).
	BurstFactor = 8
	// BurstGroup is the number of nodes taking part in one burst.
	BurstGroup = 20

	// Interval edges last between MinDuration and MaxDuration.
	MinDuration = Minute
	MaxDuration = 7 * Day

	maxPlanted   = 1 << 20
	stratumSize  = 4096    // background events per time stratum
	reservoirCap = 1 << 14 // endpoints kept for preferential attachment
	uidCacheMax  = 1 << 20 // background uids cached as strings up to this many nodes
)

// SynthConfig parameterizes Synthesize. Zero fields take their defaults; the
// manifest records the configuration with the defaults filled in, and
// running Synthesize on it again reproduces the stream exactly.
type SynthConfig struct {
	// Events is the number of background events. Planted patterns come on
	// top of it (Manifest.TotalEvents is the sum).
	Events int64 `json:"events"`
	// Nodes is the number of background nodes "n0".."n<Nodes-1>"; 0 means
	// max(200, Events/50).
	Nodes int `json:"nodes"`
	// Seed selects the stream; every seed, 0 included, is a distinct stream.
	Seed uint64 `json:"seed"`
	// Start is the first instant of the background stream; 0 means
	// 2020-01-01T00:00:00Z.
	Start bitemporal.Time `json:"start"`
	// Span is the length of the background stream's time range
	// [Start, Start+Span); 0 means 90 days.
	Span bitemporal.Time `json:"span"`
	// IntervalFraction is the share of background events that are interval
	// edges (rel_type "CALL", with a duration); 0 means 0.05, negative none.
	IntervalFraction float64 `json:"interval_fraction"`
	// Triangles, PingPongs and Bursts are the numbers of planted patterns;
	// 0 means 10, 6 and 4, negative none.
	Triangles int `json:"triangles"`
	PingPongs int `json:"pingpongs"`
	Bursts    int `json:"bursts"`
	// Delta is the window within which a planted triangle or ping-pong
	// happens (and the length of node corrections); 0 means one day. At
	// least 4 µs.
	Delta bitemporal.Time `json:"delta"`
	// Corrections is the fraction of emitted events chosen for a later
	// correction or retraction (Manifest.Corrections); 0 means none.
	Corrections float64 `json:"corrections"`
}

// Manifest describes a synthetic stream: what was asked for, what was
// planted where, and a digest that pins the stream byte for byte.
type Manifest struct {
	Format           string           `json:"format"`  // "tgms-synth"
	Version          int              `json:"version"` // 1
	Config           SynthConfig      `json:"config"`  // defaults filled in
	Nodes            int              `json:"nodes"`   // background nodes
	BackgroundEvents int64            `json:"background_events"`
	PlantedEvents    int64            `json:"planted_events"`
	TotalEvents      int64            `json:"total_events"`
	IntervalEvents   int64            `json:"interval_events"`
	RelTypes         map[string]int64 `json:"rel_types"` // events per rel_type
	ChunkSize        int              `json:"chunk_size"`
	Chunks           int64            `json:"chunks"`
	VtMin            bitemporal.Time  `json:"vt_min"` // first vt_s
	VtMax            bitemporal.Time  `json:"vt_max"` // largest valid-time end
	Patterns         []Pattern        `json:"patterns"`
	Corrections      []Correction     `json:"corrections"`
	// EventsSHA256 is the SHA-256 of the stream written with
	// WriteEventsJSONL (one canonical JSON object per line), in emit order.
	EventsSHA256 string `json:"events_sha256"`
}

// Pattern is one planted structure.
type Pattern struct {
	Kind  string   `json:"kind"`  // "triangle", "pingpong" or "burst"
	Index int      `json:"index"` // i in the node names
	Nodes []string `json:"nodes"`
	// Window is where the pattern lies: [base, base+Delta) for triangles
	// and ping-pongs, the one-day burst window for bursts.
	Window bitemporal.Interval `json:"window"`
	// Edges are the planted events of a triangle or ping-pong, in time
	// order (empty for bursts, which list counts only).
	Edges []PatternEdge `json:"edges,omitempty"`
	// Events is the number of planted events.
	Events int64 `json:"events"`
	// Factor (bursts) is the rate of the planted events relative to the
	// background rate: Events = max(10, ceil(Factor × background events
	// expected in the window)).
	Factor int `json:"factor,omitempty"`
	// BackgroundInWindow (bursts) counts background events in the window.
	BackgroundInWindow int64 `json:"background_in_window,omitempty"`
}

// PatternEdge is one planted event of a triangle or ping-pong.
type PatternEdge struct {
	Src   string          `json:"src"`
	Dst   string          `json:"dst"`
	VtS   bitemporal.Time `json:"vt_s"`
	Event int64           `json:"event"` // global index in emit order
}

// Correction is a later write the caller applies after ingesting the stream:
//
//	"correct", Node == "": correct the edge of event Event to Props over Valid
//	"correct", Node != "": correct node Node to Props over Valid
//	"retract":             retract the (interval) edge of event Event at At
type Correction struct {
	Event int64               `json:"event"` // global index of the event in emit order
	Kind  string              `json:"kind"`  // "correct" or "retract"
	Props map[string]any      `json:"props,omitempty"`
	At    bitemporal.Time     `json:"at,omitzero"`   // retract time (interval edges only)
	Node  string              `json:"node,omitzero"` // node corrections: the uid
	Valid bitemporal.Interval `json:"valid,omitzero"`
}

// Op turns the correction into a write op. edge is the key the store gave
// the correction's event (its Disc included); node corrections ignore it.
func (c Correction) Op(edge bitemporal.EdgeKey) (bitemporal.Op, error) {
	ref := bitemporal.EdgeRef(edge)
	if c.Node != "" {
		ref = bitemporal.NodeRef(c.Node)
	}
	switch c.Kind {
	case "retract":
		return bitemporal.Retract(ref, c.At), nil
	case "correct":
		p, err := bitemporal.NewProps(c.Props)
		if err != nil {
			return bitemporal.Op{}, err
		}
		return bitemporal.Correct(ref, p, c.Valid), nil
	}
	return bitemporal.Op{}, fmt.Errorf("datasets: unknown correction kind %q", c.Kind)
}

// normalize fills in defaults and checks ranges.
func (c SynthConfig) normalize() (SynthConfig, error) {
	bad := func(format string, args ...any) (SynthConfig, error) {
		return c, fmt.Errorf("datasets: synth config: "+format, args...)
	}
	if c.Events < 0 {
		return bad("events %d is negative", c.Events)
	}
	if c.Nodes < 0 {
		return bad("nodes %d is negative", c.Nodes)
	}
	if c.Nodes == 0 {
		c.Nodes = int(max(200, c.Events/50))
	}
	if c.Nodes < 2 || uint64(c.Nodes) > math.MaxUint32 {
		return bad("nodes must be within [2, 2^32) (at least 2: no self loops), got %d", c.Nodes)
	}
	if c.Start < 0 {
		return bad("start %d is negative", c.Start)
	}
	if c.Start == 0 {
		c.Start = DefaultSynthStart
	}
	if c.Span < 0 {
		return bad("span %d is negative", c.Span)
	}
	if c.Span == 0 {
		c.Span = DefaultSynthSpan
	}
	if c.Delta < 0 {
		return bad("delta %d is negative", c.Delta)
	}
	if c.Delta == 0 {
		c.Delta = Day
	}
	if c.Delta < 4 {
		return bad("delta must be at least 4 µs (three distinct times inside it), got %d", c.Delta)
	}
	const limit = bitemporal.OpenEnd / 4
	if c.Start >= limit || c.Span >= limit || c.Delta >= limit || c.Start+c.Span+c.Delta+MaxDuration+2 >= bitemporal.OpenEnd {
		return bad("start %d + span %d + delta %d is too close to the open end 2^62", c.Start, c.Span, c.Delta)
	}
	if math.IsNaN(c.IntervalFraction) || c.IntervalFraction > 1 {
		return bad("interval_fraction %v must be at most 1", c.IntervalFraction)
	}
	if c.IntervalFraction == 0 {
		c.IntervalFraction = 0.05
	}
	if math.IsNaN(c.Corrections) || c.Corrections < 0 || c.Corrections > 1 {
		return bad("corrections %v must be within [0, 1]", c.Corrections)
	}
	for _, p := range []struct {
		name string
		v    *int
		def  int
	}{{"triangles", &c.Triangles, 10}, {"pingpongs", &c.PingPongs, 6}, {"bursts", &c.Bursts, 4}} {
		if *p.v == 0 {
			*p.v = p.def
		}
		if *p.v > maxPlanted {
			return bad("%s %d is more than %d", p.name, *p.v, maxPlanted)
		}
	}
	return c, nil
}

// rng is splitmix64: tiny, fast, and fully specified here so that streams
// do not depend on the standard library's choice of algorithms.
type rng struct{ s uint64 }

func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// newRNG derives independent stream number stream of seed.
func newRNG(seed, stream uint64) rng {
	return rng{s: mix64(seed^0x5851f42d4c957f2d) ^ mix64(stream*0x9e3779b97f4a7c15+0x2545f4914f6cdd1d)}
}

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	return mix64(r.s)
}

// intn returns a uniform integer in [0, n), n > 0 (Lemire's method).
func (r *rng) intn(n uint64) uint64 {
	hi, lo := bits.Mul64(r.next(), n)
	if lo < n {
		t := -n % n
		for lo < t {
			hi, lo = bits.Mul64(r.next(), n)
		}
	}
	return hi
}

// chance returns true with probability th/2^53.
func (r *rng) chance(th uint64) bool { return r.next()>>11 < th }

// threshold converts a probability into a chance threshold.
func threshold(p float64) uint64 {
	switch {
	case !(p > 0):
		return 0
	case p >= 1:
		return 1 << 53
	}
	return uint64(p * (1 << 53))
}

// mulDiv returns floor(a*b/c) for a <= c.
func mulDiv(a, b, c uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	q, _ := bits.Div64(hi, lo, c)
	return q
}

// mulDivCeil returns ceil(a*b/c) for a*b/c < 2^63.
func mulDivCeil(a, b, c uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	q, r := bits.Div64(hi, lo, c)
	if r != 0 {
		q++
	}
	return q
}

// sortedTimes yields n times in [start, start+span) in non-decreasing
// order without holding them all: the range is cut into equal strata, each
// receiving an equal share of the events at uniform times, sorted per
// stratum.
type sortedTimes struct {
	r      rng
	n      uint64
	start  bitemporal.Time
	span   uint64
	strata uint64
	k      uint64
	buf    []bitemporal.Time
	pos    int
}

func newSortedTimes(r rng, n int64, start, span bitemporal.Time) *sortedTimes {
	return &sortedTimes{r: r, n: uint64(n), start: start, span: uint64(span), strata: (uint64(n) + stratumSize - 1) / stratumSize}
}

func (s *sortedTimes) next() (bitemporal.Time, bool) {
	for s.pos == len(s.buf) {
		if s.k == s.strata {
			return 0, false
		}
		lo, hi := mulDiv(s.k, s.n, s.strata), mulDiv(s.k+1, s.n, s.strata)
		ta, tb := mulDiv(s.k, s.span, s.strata), mulDiv(s.k+1, s.span, s.strata)
		s.buf = s.buf[:0]
		for range hi - lo {
			t := ta
			if tb > ta {
				t += s.r.intn(tb - ta)
			}
			s.buf = append(s.buf, s.start+bitemporal.Time(t))
		}
		slices.Sort(s.buf)
		s.pos = 0
		s.k++
	}
	t := s.buf[s.pos]
	s.pos++
	return t, true
}

// head is a stream's next time in the merge heap.
type head struct {
	t bitemporal.Time
	s int
}

func (a head) less(b head) bool { return a.t < b.t || (a.t == b.t && a.s < b.s) }

type mergeHeap []head

func (h mergeHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h[r].less(h[l]) {
			m = r
		}
		if !h[m].less(h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

func (h *mergeHeap) push(x head) {
	*h = append(*h, x)
	i := len(*h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !(*h)[i].less((*h)[p]) {
			break
		}
		(*h)[i], (*h)[p] = (*h)[p], (*h)[i]
		i = p
	}
}

// plantedEvent is one event of a triangle or ping-pong.
type plantedEvent struct {
	t        bitemporal.Time
	src, dst string
	pat, e   int
}

type burstStream struct {
	times *sortedTimes
	r     rng
	uids  []string
	pat   int
}

// Stream numbers of the generator's random sources.
const (
	streamTimes = iota + 1
	streamEdges
	streamPlanted
	streamCorrections
	streamBursts // + burst index, twice (times and endpoints)
)

// Synthesize generates the synthetic stream described by cfg and hands it
// to emit in chunks of SynthChunkSize events, in non-decreasing vt_s order
// (ties: background, then triangles and ping-pongs, then bursts). Memory
// stays bounded whatever cfg.Events is: times are produced stratum by
// stratum, endpoints come from a bounded reservoir, and only the current
// chunk is held. emit owns each chunk it is given. An error from emit stops
// the generator and is returned.
//
// The model: background events have a src uniform over the nodes and a dst
// that, three times in four, is drawn from a uniform sample of earlier
// endpoints (preferential attachment), else uniform; never a self loop.
// A share IntervalFraction of them are "CALL" edges lasting between a
// minute and seven days (log-uniform), the rest instantaneous "MSG" events.
// Planted triangles (tri{i}_a→_b→_c→_a), ping-pongs (pp{i}_a→_b→_a→_b) and
// bursts (burst{i}_{0..19} exchanging at BurstFactor times the background
// rate for one day, at least 10 events) are merged in. The same cfg always gives the same
// stream and manifest.
func Synthesize(cfg SynthConfig, emit func(chunk []bitemporal.Event) error) (*Manifest, error) {
	c, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	if emit == nil {
		return nil, errors.New("datasets: Synthesize needs an emit function")
	}
	m := &Manifest{
		Format: "tgms-synth", Version: 1, Config: c, Nodes: c.Nodes,
		BackgroundEvents: c.Events, RelTypes: map[string]int64{},
		ChunkSize: SynthChunkSize, Patterns: []Pattern{}, Corrections: []Correction{},
	}

	// Planted patterns, all drawn from one stream in a fixed order.
	pr := newRNG(c.Seed, streamPlanted)
	var fixed []plantedEvent
	placeBase := func() bitemporal.Time {
		if c.Span > c.Delta {
			return c.Start + bitemporal.Time(pr.intn(uint64(c.Span-c.Delta)))
		}
		return c.Start
	}
	threeTimes := func(base bitemporal.Time) [3]bitemporal.Time {
		var d [3]bitemporal.Time
		for {
			for j := range d {
				d[j] = 1 + bitemporal.Time(pr.intn(uint64(c.Delta-1)))
			}
			if d[0] != d[1] && d[1] != d[2] && d[0] != d[2] {
				break
			}
		}
		slices.Sort(d[:])
		for j := range d {
			d[j] += base
		}
		return d
	}
	plant := func(kind string, i int, nodes []string, pairs [3][2]int) {
		base := placeBase()
		ts := threeTimes(base)
		p := Pattern{Kind: kind, Index: i, Nodes: nodes, Window: bitemporal.Interval{Start: base, End: base + c.Delta}, Events: 3}
		for j, e := range pairs {
			p.Edges = append(p.Edges, PatternEdge{Src: nodes[e[0]], Dst: nodes[e[1]], VtS: ts[j]})
			fixed = append(fixed, plantedEvent{t: ts[j], src: nodes[e[0]], dst: nodes[e[1]], pat: len(m.Patterns), e: j})
		}
		m.Patterns = append(m.Patterns, p)
	}
	for i := range max(c.Triangles, 0) {
		s := "tri" + strconv.Itoa(i)
		plant("triangle", i, []string{s + "_a", s + "_b", s + "_c"}, [3][2]int{{0, 1}, {1, 2}, {2, 0}})
	}
	for i := range max(c.PingPongs, 0) {
		s := "pp" + strconv.Itoa(i)
		plant("pingpong", i, []string{s + "_a", s + "_b"}, [3][2]int{{0, 1}, {1, 0}, {0, 1}})
	}
	slices.SortStableFunc(fixed, func(a, b plantedEvent) int {
		switch {
		case a.t < b.t:
			return -1
		case a.t > b.t:
			return 1
		}
		return 0
	})
	m.PlantedEvents = int64(len(fixed))

	wl := min(Day, c.Span)
	var bursts []burstStream
	for i := range max(c.Bursts, 0) {
		bs := c.Start + bitemporal.Time(pr.intn(uint64(c.Span-wl)+1))
		// The group alone runs at BurstFactor times the background rate.
		extra := max(int64(mulDivCeil(uint64(c.Events)*BurstFactor, uint64(wl), uint64(c.Span))), 10)
		uids := make([]string, BurstGroup)
		for j := range uids {
			uids[j] = "burst" + strconv.Itoa(i) + "_" + strconv.Itoa(j)
		}
		bursts = append(bursts, burstStream{
			times: newSortedTimes(newRNG(c.Seed, streamBursts+2*uint64(i)), extra, bs, wl),
			r:     newRNG(c.Seed, streamBursts+2*uint64(i)+1),
			uids:  uids,
			pat:   len(m.Patterns),
		})
		m.Patterns = append(m.Patterns, Pattern{
			Kind: "burst", Index: i, Nodes: uids, Window: bitemporal.Interval{Start: bs, End: bs + wl},
			Events: extra, Factor: BurstFactor,
		})
		m.PlantedEvents += extra
	}
	m.TotalEvents = c.Events + m.PlantedEvents

	// Burst windows sorted by start, for counting background events in them.
	windows := make([]int, len(bursts))
	for i := range windows {
		windows[i] = bursts[i].pat
	}
	slices.SortStableFunc(windows, func(a, b int) int {
		return cmp.Compare(m.Patterns[a].Window.Start, m.Patterns[b].Window.Start)
	})
	var active []int
	nextWindow := 0

	// Background sources.
	bg := newSortedTimes(newRNG(c.Seed, streamTimes), c.Events, c.Start, c.Span)
	er := newRNG(c.Seed, streamEdges)
	nodes := uint64(c.Nodes)
	var uidCache []string
	if c.Nodes <= uidCacheMax {
		uidCache = make([]string, c.Nodes)
	}
	uid := func(n uint64) string {
		if uidCache != nil {
			if s := uidCache[n]; s != "" {
				return s
			}
			s := "n" + strconv.FormatUint(n, 10)
			uidCache[n] = s
			return s
		}
		return "n" + strconv.FormatUint(n, 10)
	}
	reservoir := make([]uint32, 0, reservoirCap)
	var seen uint64
	remember := func(n uint64) {
		seen++
		if len(reservoir) < reservoirCap {
			reservoir = append(reservoir, uint32(n))
		} else if j := er.intn(seen); j < reservoirCap {
			reservoir[j] = uint32(n)
		}
	}
	ivTh := threshold(c.IntervalFraction)

	cr := newRNG(c.Seed, streamCorrections)
	corrTh := threshold(c.Corrections)

	// Merge.
	h := mergeHeap{}
	if t, ok := bg.next(); ok {
		h.push(head{t, 0})
	}
	fpos := 0
	if len(fixed) > 0 {
		h.push(head{fixed[0].t, 1})
	}
	for i := range bursts {
		if t, ok := bursts[i].times.next(); ok {
			h.push(head{t, 2 + i})
		}
	}

	hasher := sha256.New()
	hbuf := make([]byte, 0, 128<<10)
	chunk := make([]bitemporal.Event, 0, min(int64(SynthChunkSize), m.TotalEvents))
	var idx int64
	flush := func() error {
		if len(chunk) == 0 {
			return nil
		}
		m.Chunks++
		if err := emit(chunk); err != nil {
			return err
		}
		chunk = make([]bitemporal.Event, 0, min(int64(SynthChunkSize), m.TotalEvents-idx))
		return nil
	}

	for len(h) > 0 {
		top := h[0]
		t := top.t
		var ev bitemporal.Event
		var more bool
		var nt bitemporal.Time
		switch {
		case top.s == 0:
			src := er.intn(nodes)
			var dst uint64
			if len(reservoir) > 0 && er.next()&3 != 0 {
				dst = uint64(reservoir[er.intn(uint64(len(reservoir)))])
			} else {
				dst = er.intn(nodes)
			}
			if dst == src {
				dst = (src + 1 + er.intn(nodes-1)) % nodes
			}
			remember(src)
			remember(dst)
			ev = bitemporal.Event{Src: uid(src), Dst: uid(dst), RelType: "MSG", VtS: t}
			if er.chance(ivTh) {
				// Log-uniform-ish duration: a random power-of-two scale of a
				// minute, then uniform within it, capped at seven days.
				scale := Minute << er.intn(14)
				d := min(scale+bitemporal.Time(er.intn(uint64(scale))), MaxDuration)
				ev.RelType = "CALL"
				ev.VtE = t + d
				m.IntervalEvents++
			}
			// Count the event in the burst windows it falls in.
			for nextWindow < len(windows) && m.Patterns[windows[nextWindow]].Window.Start <= t {
				active = append(active, windows[nextWindow])
				nextWindow++
			}
			active = slices.DeleteFunc(active, func(p int) bool { return m.Patterns[p].Window.End <= t })
			for _, p := range active {
				m.Patterns[p].BackgroundInWindow++
			}
			nt, more = bg.next()
		case top.s == 1:
			f := fixed[fpos]
			ev = bitemporal.Event{Src: f.src, Dst: f.dst, RelType: "MSG", VtS: t}
			m.Patterns[f.pat].Edges[f.e].Event = idx
			fpos++
			if more = fpos < len(fixed); more {
				nt = fixed[fpos].t
			}
		default:
			b := &bursts[top.s-2]
			s := b.r.intn(BurstGroup)
			d := (s + 1 + b.r.intn(BurstGroup-1)) % BurstGroup
			ev = bitemporal.Event{Src: b.uids[s], Dst: b.uids[d], RelType: "MSG", VtS: t}
			nt, more = b.times.next()
		}
		if more {
			h[0].t = nt
			h.down(0)
		} else {
			h[0] = h[len(h)-1]
			h = h[:len(h)-1]
			h.down(0)
		}

		if corrTh > 0 && cr.chance(corrTh) {
			m.Corrections = append(m.Corrections, pickCorrection(&cr, idx, &ev, c.Delta))
		}
		if idx == 0 {
			m.VtMin = ev.VtS
		}
		m.VtMax = max(m.VtMax, ev.Valid().End)
		hbuf = appendEventJSONUnchecked(hbuf, &ev) // valid by construction
		if len(hbuf) >= 120<<10 {
			hasher.Write(hbuf)
			hbuf = hbuf[:0]
		}
		chunk = append(chunk, ev)
		idx++
		if len(chunk) == SynthChunkSize {
			if err := flush(); err != nil {
				return nil, err
			}
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	hasher.Write(hbuf)
	m.RelTypes["CALL"] = m.IntervalEvents
	m.RelTypes["MSG"] = m.TotalEvents - m.IntervalEvents
	for k, v := range m.RelTypes {
		if v == 0 {
			delete(m.RelTypes, k)
		}
	}
	m.EventsSHA256 = hex.EncodeToString(hasher.Sum(nil))
	if idx != m.TotalEvents {
		return nil, fmt.Errorf("datasets: synth internal error: emitted %d events, planned %d", idx, m.TotalEvents)
	}
	return m, nil
}

// pickCorrection decides what later write event idx gets: interval edges
// are retracted at their midpoint or corrected, half and half; other events
// get an edge correction {"weight": 2} over their whole interval, or (one in
// seven) their source node is corrected over [vt_s+1, vt_s+1+delta).
func pickCorrection(r *rng, idx int64, ev *bitemporal.Event, delta bitemporal.Time) Correction {
	if ev.VtE != 0 && r.next()&1 == 0 {
		return Correction{Event: idx, Kind: "retract", At: ev.VtS + (ev.VtE-ev.VtS)/2}
	}
	if ev.VtE == 0 && r.intn(7) == 0 {
		return Correction{
			Event: idx, Kind: "correct", Node: ev.Src,
			Props: map[string]any{"note": "corrected", "revised": true},
			Valid: bitemporal.Interval{Start: ev.VtS + 1, End: ev.VtS + 1 + delta},
		}
	}
	return Correction{Event: idx, Kind: "correct", Props: map[string]any{"weight": int64(2)}, Valid: ev.Valid()}
}
