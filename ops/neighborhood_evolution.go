package ops

import (
	"slices"
	"strconv"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// neighborhoodMaxBuckets caps the degree series.
const neighborhoodMaxBuckets = 2000

func init() {
	Register(&Spec{
		Name:    "neighborhood_evolution",
		Summary: "How one node's neighbours and degree changed between valid times t1 and t2.",
		Doc: `nbrs(t) are the uids adjacent to uid at valid time t as believed at
as_of_tt: the other endpoint of every edge version valid at t with uid as
src or dst, any rel_type, either direction, uid itself excluded (endpoints
need no node version). neighbors_gained = nbrs(t2) - nbrs(t1) and
neighbors_lost = nbrs(t1) - nbrs(t2), each ordered by uid, first limit of
them; *_total counts all; truncated is true when either list was cut.

degree_series has one entry {t, degree} per bucket start t = t1, t1+stride,
... < t2: the number of edge versions incident to uid (a self-loop counts
once) valid at t. Edge versions are counted, not identities or events: at
one instant an identity has at most one valid version. The series is
never cut by limit. stride defaults to max(1, (t2-t1) div 20) and is
reported as the effective stride.

Errors: t1 >= t2 is E_INVALID_ARG (path /t2); more than 2000 buckets
(ceil((t2-t1)/stride)) is E_LIMIT naming the smallest admissible stride;
an unknown uid is E_NOT_FOUND.`,
		Args: Obj("", map[string]*Schema{
			"uid":      UIDField("the node"),
			"t1":       Timestamp("start of the period (its neighbourhood is the baseline)"),
			"t2":       Timestamp("end of the period, after t1"),
			"as_of_tt": AsOfTT(),
			"stride":   Int("degree series bucket width (µs); null: max(1, (t2-t1) div 20)").Range(1, 1<<62).OrNull(),
			"limit":    Limit(),
		}, "uid", "t1", "t2"),
		Result: Obj("", map[string]*Schema{
			"neighbors_gained":       Arr("neighbours at t2 that were not at t1 (first limit, by uid)", UIDField("a neighbour uid")),
			"neighbors_gained_total": Int("number of gained neighbours"),
			"neighbors_lost":         Arr("neighbours at t1 that are not at t2 (first limit, by uid)", UIDField("a neighbour uid")),
			"neighbors_lost_total":   Int("number of lost neighbours"),
			"degree_series": Arr("degree at each bucket start, by time (never cut)", Obj("one bucket", map[string]*Schema{
				"t":      Int("bucket start (µs)"),
				"degree": Int("incident edge versions valid at t"),
			})),
			"stride":    Int("the effective stride (µs)"),
			"truncated": Bool("a neighbour list holds only its first limit entries"),
		}),
		Order: "neighbour lists by uid; degree_series by t",
		Cost:  func(c *Call) Cost { return c.ScanCost(1) },
		Run:   runNeighborhoodEvolution,
	})
}

// neighborhoodCeilDiv is ceil(a/b) for a >= 0, b > 0, without overflow.
func neighborhoodCeilDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 {
		q++
	}
	return q
}

// neighborhoodStride checks t1 < t2 and the bucket cap and returns the
// effective stride and the number of buckets.
func neighborhoodStride(c *Call) (stride, n int64, err error) {
	t1, t2 := c.Int("t1"), c.Int("t2")
	if t1 >= t2 {
		return 0, 0, Errorf(EInvalidArg, map[string]any{"path": "/t2", "hint": "pass t2 after t1"},
			"t2 %d must be after t1 %d", t2, t1)
	}
	stride = max(1, (t2-t1)/20)
	if c.Has("stride") {
		stride = c.Int("stride")
	}
	n = neighborhoodCeilDiv(t2-t1, stride)
	if n > neighborhoodMaxBuckets {
		minStride := neighborhoodCeilDiv(t2-t1, neighborhoodMaxBuckets)
		return 0, 0, Errorf(ELimit, map[string]any{"path": "/stride", "buckets": n, "max_buckets": int64(neighborhoodMaxBuckets),
			"min_stride": minStride, "hint": "pass stride >= " + strconv.FormatInt(minStride, 10) + " µs or narrow t1..t2"},
			"%d buckets of stride %d between t1 and t2, over the cap of %d; the smallest admissible stride is %d",
			n, stride, neighborhoodMaxBuckets, minStride)
	}
	return stride, n, nil
}

func runNeighborhoodEvolution(c *Call) (map[string]any, error) {
	stride, n, err := neighborhoodStride(c)
	if err != nil {
		return nil, err
	}
	id, err := c.Node("/uid", c.Str("uid"))
	if err != nil {
		return nil, err
	}
	r := c.R
	inc := r.Out(id)
	for _, v := range r.In(id) {
		if r.Src(v) != id { // a self-loop is counted once
			inc = append(inc, v)
		}
	}
	if err := c.Work(int64(len(inc)) + n); err != nil {
		return nil, err
	}
	acc := newNeighborhoodAcc[uint32](c, stride, n)
	for _, v := range inc {
		other := r.Dst(v)
		if other == id {
			other = r.Src(v)
		}
		acc.add(other, other == id, r.Valid(v))
	}
	return acc.payload(c, r.UID), nil
}

// neighborhoodAcc accumulates neighborhood_evolution over a node's
// incident edge versions, keyed by the backend's neighbour id K: the
// neighbours at t1 and at t2, and the degree series as a difference array
// (+1 where an edge enters the series, -1 where it leaves).
type neighborhoodAcc[K comparable] struct {
	t1, t2, stride, n int64
	at1, at2          map[K]bool
	diff              []int64
}

func newNeighborhoodAcc[K comparable](c *Call, stride, n int64) *neighborhoodAcc[K] {
	return &neighborhoodAcc[K]{t1: c.Int("t1"), t2: c.Int("t2"), stride: stride, n: n,
		at1: map[K]bool{}, at2: map[K]bool{}, diff: make([]int64, n+1)}
}

// bucketAt is the first k with t1 + k*stride >= x, capped at n.
func (a *neighborhoodAcc[K]) bucketAt(x bt.Time) int64 {
	if x <= a.t1 {
		return 0
	}
	return min(a.n, neighborhoodCeilDiv(x-a.t1, a.stride))
}

// add counts one incident edge version valid over iv whose other end is
// other (self: a self-loop, which is no neighbour but counts in the degree).
func (a *neighborhoodAcc[K]) add(other K, self bool, iv bt.Interval) {
	if !self {
		if iv.Contains(a.t1) {
			a.at1[other] = true
		}
		if iv.Contains(a.t2) {
			a.at2[other] = true
		}
	}
	if lo, hi := a.bucketAt(iv.Start), a.bucketAt(iv.End); lo < hi {
		a.diff[lo]++
		a.diff[hi]--
	}
}

// payload is the operator's payload, neighbours named by uid.
func (a *neighborhoodAcc[K]) payload(c *Call, uid func(K) string) map[string]any {
	series := make([]any, a.n)
	entries := make([]degreeRow, a.n)
	var deg int64
	for k := range a.n {
		deg += a.diff[k]
		entries[k] = degreeRow{t: a.t1 + k*a.stride, degree: deg}
		series[k] = &entries[k]
	}
	c.typed = true
	limit := c.PageLimit()
	list := func(from, minus map[K]bool) ([]any, int) {
		var uids []string
		for x := range from {
			if !minus[x] {
				uids = append(uids, uid(x))
			}
		}
		slices.Sort(uids)
		out := make([]any, 0, min(limit, len(uids)))
		for _, u := range uids[:min(limit, len(uids))] {
			out = append(out, u)
		}
		return out, len(uids)
	}
	gained, ng := list(a.at2, a.at1)
	lost, nl := list(a.at1, a.at2)
	return map[string]any{
		"neighbors_gained":       gained,
		"neighbors_gained_total": int64(ng),
		"neighbors_lost":         lost,
		"neighbors_lost_total":   int64(nl),
		"degree_series":          series,
		"stride":                 a.stride,
		"truncated":              ng > limit || nl > limit,
	}
}
