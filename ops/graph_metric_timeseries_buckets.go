package ops

import (
	"strconv"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// Buckets shared by graph_metric_timeseries and burst_detection.

// gmtsMaxBuckets is the hard cap on the number of buckets of a
// burst_detection series (graph_metric_timeseries is bounded by the memory
// budget instead).
const gmtsMaxBuckets = 2000

// gmtsBucketBytes is what one bucket of a graph_metric_timeseries series
// holds while the call runs, charged to the memory budget: its output row
// (PayloadBytes of {t_a, t_b, value}: 155) and its working state (the
// value and row slots and a per-bucket count: 48).
const gmtsBucketBytes = 203

// gmtsBudgetBuckets builds the buckets of window w at stride, or E_LIMIT
// naming the smallest stride whose buckets fit the call's memory budget.
func gmtsBudgetBuckets(c *Call, w bt.Interval, stride int64) (gmtsBuckets, error) {
	d := w.End - w.Start // >= 1: the executor checked t_a < t_b
	n := (d-1)/stride + 1
	budget := c.MemBudget()
	if maxN := budget / gmtsBucketBytes; n > maxN {
		minStride := (d-1)/max(1, maxN) + 1
		return gmtsBuckets{}, Errorf(ELimit, map[string]any{
			"path": "/stride", "buckets": n, "bucket_bytes": int64(gmtsBucketBytes), "mem_budget": budget, "min_stride": minStride,
			"hint": "use stride >= " + strconv.FormatInt(minStride, 10) + " or a narrower window",
		}, "window of %d µs at stride %d gives %d buckets of %d bytes, over the memory budget of %s: use stride >= %d",
			d, stride, n, gmtsBucketBytes, FormatBytes(budget), minStride)
	}
	return gmtsBuckets{ta: w.Start, tb: w.End, stride: stride, n: int(n)}, nil
}

// gmtsBuckets splits a window [t_a, t_b) into n buckets of width stride:
// bucket i is [t_a + i*stride, min(t_a + (i+1)*stride, t_b)); the last one
// may be short.
type gmtsBuckets struct {
	ta, tb, stride int64
	n              int
}

// gmtsMakeBuckets builds the buckets of window w, or E_LIMIT naming the
// minimum admissible stride when there would be more than 2000.
func gmtsMakeBuckets(w bt.Interval, stride int64) (gmtsBuckets, error) {
	d := w.End - w.Start // >= 1: the executor checked t_a < t_b
	n := (d-1)/stride + 1
	if n > gmtsMaxBuckets {
		minStride := (d-1)/gmtsMaxBuckets + 1
		return gmtsBuckets{}, Errorf(ELimit, map[string]any{
			"path": "/stride", "buckets": n, "max_buckets": int64(gmtsMaxBuckets), "min_stride": minStride,
			"hint": "use stride >= " + strconv.FormatInt(minStride, 10) + " or a narrower window",
		}, "window of %d µs at stride %d gives %d buckets, over the cap of %d: use stride >= %d", d, stride, n, gmtsMaxBuckets, minStride)
	}
	return gmtsBuckets{ta: w.Start, tb: w.End, stride: stride, n: int(n)}, nil
}

// start and end of bucket i.
func (b gmtsBuckets) start(i int) int64 { return b.ta + int64(i)*b.stride }
func (b gmtsBuckets) end(i int) int64   { return min(b.start(i)+b.stride, b.tb) }

// of is the bucket holding t (t_a <= t < t_b).
func (b gmtsBuckets) of(t int64) int { return int((t - b.ta) / b.stride) }

// firstAtOrAfter is the smallest bucket index whose start is >= t, clipped
// to [0, n].
func (b gmtsBuckets) firstAtOrAfter(t int64) int {
	if t <= b.ta {
		return 0
	}
	i := (t-b.ta-1)/b.stride + 1
	if i > int64(b.n) {
		return b.n
	}
	return int(i)
}

// liveRange is the half-open range of buckets whose start lies in the
// valid interval iv (the buckets at whose start iv is live).
func (b gmtsBuckets) liveRange(iv bt.Interval) (int, int) {
	return b.firstAtOrAfter(iv.Start), b.firstAtOrAfter(iv.End)
}

// row renders bucket i with a value.
func (b gmtsBuckets) row(i int, value any) map[string]any {
	return map[string]any{"t_a": b.start(i), "t_b": b.end(i), "value": value}
}

// gmtsBucketRowSchema is the schema of a bucket row with a value.
func gmtsBucketRowSchema(desc, valueDesc string, value *Schema) *Schema {
	value.Description = valueDesc
	return Obj(desc, map[string]*Schema{
		"t_a":   Int("bucket start, inclusive (µs)"),
		"t_b":   Int("bucket end, exclusive (µs); the last bucket may be short"),
		"value": value,
	})
}

// gmtsBucketCache memoizes the last bucket looked up: edge versions are
// stored roughly in time order, so consecutive lookups mostly hit the same
// bucket and skip the division.
type gmtsBucketCache struct {
	b      gmtsBuckets
	lo, hi int64 // [lo, hi) maps to i
	i      int
}

func (b gmtsBuckets) cache() gmtsBucketCache { return gmtsBucketCache{b: b, lo: 1, hi: 0} }

// of is b.of(t) for t_a <= t < t_b.
func (k *gmtsBucketCache) of(t int64) int {
	if k.lo <= t && t < k.hi {
		return k.i
	}
	k.i = k.b.of(t)
	k.lo = k.b.start(k.i)
	k.hi = k.lo + k.b.stride
	return k.i
}

// gmtsCeilCache memoizes firstAtOrAfter: (lo, hi] maps to i.
type gmtsCeilCache struct {
	b      gmtsBuckets
	lo, hi int64
	i      int
}

func (b gmtsBuckets) ceilCache() gmtsCeilCache { return gmtsCeilCache{b: b, lo: 0, hi: -1} }

func (k *gmtsCeilCache) firstAtOrAfter(t int64) int {
	if k.lo < t && t <= k.hi {
		return k.i
	}
	b := k.b
	i := b.firstAtOrAfter(t)
	k.i = i
	switch {
	case i == 0:
		k.lo, k.hi = gmtsMinTime, b.ta
	case i == b.n:
		k.lo, k.hi = b.start(b.n-1), gmtsMaxTime
	default:
		k.lo, k.hi = b.start(i-1), b.start(i)
	}
	return i
}

const (
	gmtsMinTime = -1 << 63
	gmtsMaxTime = 1<<63 - 1
)
