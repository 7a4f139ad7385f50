package ops

import (
	"slices"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
)

func init() {
	Register(&Spec{
		Name:    "graph_metric_timeseries",
		Summary: "A graph statistic per time bucket of a valid-time window (counts, degree, reciprocity).",
		Doc: `Splits window [t_a, t_b) into buckets [b_i, e_i) of width stride
(b_i = t_a + i*stride, e_i = min(b_i + stride, t_b): the last bucket may be
short) and returns one row per bucket, empty buckets included. Each bucket
holds 203 bytes of the memory budget (256 MiB unless the executor says
otherwise: about 1.3 million buckets); more is E_LIMIT naming the smallest
stride that fits.
All metrics read the versions believed at as_of_tt.

Point-in-time metrics, evaluated at the bucket start b_i:
  node_count        (int)   node versions valid at b_i (vt_s <= b_i < vt_e)
  active_edge_count (int)   edge versions valid at b_i
  mean_out_degree   (float) active_edge_count / node_count at b_i, 0.0 when
                            node_count is 0; edges whose endpoints have no
                            live node version still count.
Event metrics, over the bucket [b_i, e_i):
  edge_event_count  (int)   edge occurrences starting in the bucket
  reciprocity       (float) over the occurrences starting in the bucket, with
                            P the set of distinct directed pairs (src, dst):
                            |{(s,d) in P : (d,s) in P}| / |P|, 0.0 when P is
                            empty; a self-loop is its own reverse.
  new_node_rate     (int)   uids whose birth (the smallest vt_s of their
                            believed node versions) lies in the bucket.
An occurrence is counted once: a version that continues another believed
version of the same identity (a fragment left where a correction or retract
carved an interval) is not a new event; the occurrence's time is the vt_s
of its first fragment. Carving an edge therefore changes neither
edge_event_count nor reciprocity.

cycle {unit, utc_offset_minutes} (instead of stride) folds the window by a
calendar cycle of local time (UTC time + utc_offset_minutes, a fixed offset,
no DST), with the positions of aggregate_events' calendar_cycle: unit
hour_of_day 0..23, day_of_week 1 (Monday)..7 (Sunday), day_of_month 1..31,
month_of_year 1..12. Rows are {position, value}, one per position of the
cycle, empty positions included, ordered by position; an event metric is
taken over the window's events (births) whose local time is at that
position ("messages by hour of day" sums every day's hour 14), so the
edge_event_count values sum to the window's count. Only the event metrics
(edge_event_count, new_node_rate, reciprocity) fold: a cycle with a
point-in-time metric is E_INVALID_ARG. Exactly one of stride and cycle is
given (E_INVALID_ARG otherwise).`,
		Args: Obj("", map[string]*Schema{
			"metric":   Enum("the statistic", "node_count", "edge_event_count", "active_edge_count", "mean_out_degree", "new_node_rate", "reciprocity"),
			"window":   Window(),
			"stride":   Int("bucket width (µs); the buckets must fit the memory budget, 203 bytes each (required unless cycle is given)").Range(1, 1<<62),
			"cycle":    gmtsCycleSchema(),
			"as_of_tt": AsOfTT(),
			"limit":    Limit(),
			"cursor":   Cursor(),
		}, "metric", "window"),
		Result: Paged("one row per bucket (per cycle position with cycle), empty ones included",
			gmtsSeriesRowSchema(),
			map[string]*Schema{"n_buckets": Int("number of buckets or cycle positions (= rows_total)")}),
		Order:  "rows by bucket start t_a (by position with cycle)",
		Paged:  true,
		RowKey: gmtsRowKey,
		Cost: func(c *Call) Cost {
			return c.ScanCost(c.WindowFraction(c.Window("window")))
		},
		Run: runGraphMetricTimeseries,
	})
}

// gmtsSeriesRowSchema is a bucket row, or with cycle a position row.
func gmtsSeriesRowSchema() *Schema {
	row := gmtsBucketRowSchema("a bucket (with cycle: a cycle position)", "the metric: an integer for counts, a number for mean_out_degree and reciprocity", Num(""))
	row.Properties["position"] = Int("with cycle: the position in the cycle (no t_a, t_b)")
	return row
}

func runGraphMetricTimeseries(c *Call) (map[string]any, error) {
	cy, cyclic, err := gmtsParseCycle(c)
	if err != nil {
		return nil, err
	}
	if cyclic {
		return runGraphMetricCycle(c, cy)
	}
	w := c.Window("window")
	b, err := gmtsBudgetBuckets(c, w, c.Int("stride"))
	if err != nil {
		return nil, err
	}
	var values []any
	switch metric := c.Str("metric"); metric {
	case "node_count":
		nodes, err := gmtsNodeCounts(c, b)
		if err != nil {
			return nil, err
		}
		values = gmtsInts(nodes)
	case "active_edge_count":
		edges, err := gmtsActiveEdges(c, b, w)
		if err != nil {
			return nil, err
		}
		values = gmtsInts(edges)
	case "mean_out_degree":
		nodes, err := gmtsNodeCounts(c, b)
		if err != nil {
			return nil, err
		}
		edges, err := gmtsActiveEdges(c, b, w)
		if err != nil {
			return nil, err
		}
		values = make([]any, b.n)
		for i := range values {
			v := 0.0
			if nodes[i] > 0 {
				v = float64(edges[i]) / float64(nodes[i])
			}
			values[i] = v
		}
	case "edge_event_count":
		counts, err := gmtsEventCounts(c, b, w)
		if err != nil {
			return nil, err
		}
		values = gmtsInts(counts)
	case "new_node_rate":
		births, err := gmtsBirths(c, b)
		if err != nil {
			return nil, err
		}
		values = gmtsInts(births)
	case "reciprocity":
		values, err = gmtsReciprocity(c, b, w)
		if err != nil {
			return nil, err
		}
	default:
		return nil, Errorf(EInvalidArg, map[string]any{"path": "/metric"}, "unknown metric %q", metric)
	}
	rows := make([]any, b.n)
	for i := range rows {
		rows[i] = b.row(i, values[i])
	}
	return map[string]any{"rows": rows, "n_buckets": int64(b.n)}, nil
}

func gmtsInts(xs []int64) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// gmtsSweep turns a difference array (len n+1) into per-bucket values.
func gmtsSweep(diff []int64, n int) []int64 {
	out := make([]int64, n)
	var run int64
	for i := range n {
		run += diff[i]
		out[i] = run
	}
	return out
}

// gmtsNodeCounts counts, per bucket start, the believed node versions valid
// there: one pass over every node's believed versions, each adding +1 over
// the range of bucket starts it covers (a difference array), then a sweep.
func gmtsNodeCounts(c *Call, b gmtsBuckets) ([]int64, error) {
	diff := make([]int64, b.n+1)
	for id := range c.R.NumNodes() {
		if !c.R.Known(uint32(id)) {
			continue
		}
		hist := c.R.NodeHistory(uint32(id))
		if err := c.Work(int64(1 + len(hist))); err != nil {
			return nil, err
		}
		for _, v := range hist {
			lo, hi := b.liveRange(v.Valid)
			if lo < hi {
				diff[lo]++
				diff[hi]--
			}
		}
	}
	return gmtsSweep(diff, b.n), nil
}

// gmtsScanFraction is the share of the store's valid-time extent above
// which a window's edges are read by one pass over every edge version (a
// sequential column scan, no sort, no allocation) instead of from the
// interval index, whose answer is materialized and merged into (vt_s, id)
// order at a higher cost per edge.
const gmtsScanFraction = 0.1

// gmtsVisit calls fn for every believed edge version whose valid start lies
// in w (starting) or whose valid interval overlaps w (!starting), in no
// particular order, each once.
func gmtsVisit(c *Call, w bt.Interval, starting bool, fn func(v uint32, iv bt.Interval)) error {
	if c.WindowFraction(w) < gmtsScanFraction {
		var vs []uint32
		if starting {
			vs = c.R.EdgesStartingIn(w)
		} else {
			vs = c.R.EdgesOverlapping(w)
		}
		if err := c.Work(int64(len(vs))); err != nil {
			return err
		}
		for _, v := range vs {
			fn(v, c.R.Valid(v))
		}
		return nil
	}
	n := c.R.NumEdgeVersions()
	if err := c.Work(int64(n)); err != nil {
		return err
	}
	for v := range uint32(n) {
		if !c.R.Believed(v) {
			continue
		}
		iv := c.R.Valid(v)
		if starting {
			if iv.Start < w.Start || iv.Start >= w.End {
				continue
			}
		} else if iv.Start >= w.End || iv.End <= w.Start {
			continue
		}
		fn(v, iv)
	}
	return nil
}

// gmtsActiveEdges counts, per bucket start, the believed edge versions valid
// there, from the versions overlapping the window and a difference-array
// sweep.
func gmtsActiveEdges(c *Call, b gmtsBuckets, w bt.Interval) ([]int64, error) {
	diff := make([]int64, b.n+1)
	starts, ends := b.ceilCache(), b.ceilCache()
	err := gmtsVisit(c, w, false, func(_ uint32, iv bt.Interval) {
		lo, hi := starts.firstAtOrAfter(iv.Start), ends.firstAtOrAfter(iv.End)
		if lo < hi {
			diff[lo]++
			diff[hi]--
		}
	})
	if err != nil {
		return nil, err
	}
	return gmtsSweep(diff, b.n), nil
}

// gmtsEventCounts counts the occurrences starting in each bucket, in one
// pass over the window's events.
func gmtsEventCounts(c *Call, b gmtsBuckets, w bt.Interval) ([]int64, error) {
	out := make([]int64, b.n)
	if c.WindowFraction(w) >= gmtsScanFraction {
		return out, gmtsCountScan(c, b, engine.AnyRel, out)
	}
	bk := b.cache()
	err := gmtsVisit(c, w, true, func(v uint32, iv bt.Interval) {
		if !c.R.Continues(v) {
			out[bk.of(iv.Start)]++
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// gmtsCountScan counts the occurrences of relation type rel per bucket
// with the engine's parallel column scan (for windows holding a large
// share of the store).
func gmtsCountScan(c *Call, b gmtsBuckets, rel uint32, out []int64) error {
	if err := c.Work(int64(c.R.NumEdgeVersions())); err != nil {
		return err
	}
	c.R.CountEventStarts(b.ta, b.tb, b.stride, rel, out)
	return nil
}

// gmtsBirths counts the uids whose first believed node version starts in
// each bucket.
func gmtsBirths(c *Call, b gmtsBuckets) ([]int64, error) {
	out := make([]int64, b.n)
	for id := range c.R.NumNodes() {
		if !c.R.Known(uint32(id)) {
			continue
		}
		hist := c.R.NodeHistory(uint32(id)) // sorted by vt_s
		if err := c.Work(int64(1 + len(hist))); err != nil {
			return nil, err
		}
		if len(hist) == 0 {
			continue
		}
		if t := hist[0].Valid.Start; b.ta <= t && t < b.tb {
			out[b.of(t)]++
		}
	}
	return out, nil
}

// gmtsReciprocity computes each bucket's reciprocity from the occurrences
// starting in it: one pass collects (bucket, directed pair), a counting sort
// groups the pairs by bucket, and per bucket an open-addressing set of
// pairs gives the distinct pairs and, by lookup of each reverse, the
// reciprocated ones.
func gmtsReciprocity(c *Call, b gmtsBuckets, w bt.Interval) ([]any, error) {
	bk := b.cache()
	return gmtsReciprocityBy(c, b.n, w, bk.of)
}

// gmtsReciprocityBy is gmtsReciprocity over n buckets, an occurrence
// starting at t going to bucket of(t) (a stride bucket or a cycle position).
func gmtsReciprocityBy(c *Call, n int, w bt.Interval, of func(t int64) int) ([]any, error) {
	// Sized from the window's share of the store so that the appends below
	// do not regrow (and copy) the arrays.
	est := min(c.R.NumEdgeVersions(), int(c.WindowFraction(w)*float64(c.R.NumEdgeVersions())*1.05)+64)
	evBucket := make([]int32, 0, est)
	evPair := make([]uint64, 0, est)
	err := gmtsVisit(c, w, true, func(v uint32, iv bt.Interval) {
		if c.R.Continues(v) {
			return
		}
		evBucket = append(evBucket, int32(of(iv.Start)))
		evPair = append(evPair, uint64(c.R.Src(v))<<32|uint64(c.R.Dst(v)))
	})
	if err != nil {
		return nil, err
	}
	start := make([]int, n+1)
	for _, bk := range evBucket {
		start[bk+1]++
	}
	largest := 0
	for i := range n {
		largest = max(largest, start[i+1])
		start[i+1] += start[i]
	}
	grouped := make([]uint64, len(evPair))
	pos := slices.Clone(start[:n])
	for i, bk := range evBucket {
		grouped[pos[bk]] = evPair[i]
		pos[bk]++
	}
	table := make([]uint64, gmtsPow2(2*largest))
	var distinct []uint64
	out := make([]any, n)
	for i := range n {
		ps := grouped[start[i]:start[i+1]]
		if len(ps) == 0 {
			out[i] = 0.0
			continue
		}
		t := table[:gmtsPow2(2*len(ps))]
		distinct = distinct[:0]
		for _, p := range ps {
			if gmtsSetAdd(t, p) {
				distinct = append(distinct, p)
			}
		}
		recip := 0
		for _, p := range distinct {
			if gmtsSetHas(t, p<<32|p>>32) {
				recip++
			}
		}
		out[i] = float64(recip) / float64(len(distinct))
		clear(t)
	}
	return out, nil
}

// gmtsPow2 is the smallest power of two >= max(n, 2).
func gmtsPow2(n int) int {
	p := 2
	for p < n {
		p <<= 1
	}
	return p
}

// The pair set: linear probing over a power-of-two table holding pair+1
// (0 = empty slot).
func gmtsSlot(t []uint64, p uint64) int {
	return int((p * 0x9E3779B97F4A7C15) >> 32 & uint64(len(t)-1))
}

func gmtsSetAdd(t []uint64, p uint64) bool {
	for i := gmtsSlot(t, p); ; i = (i + 1) & (len(t) - 1) {
		switch t[i] {
		case 0:
			t[i] = p + 1
			return true
		case p + 1:
			return false
		}
	}
}

func gmtsSetHas(t []uint64, p uint64) bool {
	for i := gmtsSlot(t, p); ; i = (i + 1) & (len(t) - 1) {
		switch t[i] {
		case 0:
			return false
		case p + 1:
			return true
		}
	}
}
