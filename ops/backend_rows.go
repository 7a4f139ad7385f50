package ops

import (
	"slices"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
)

// Row builders for backends that run whole operators (Backend): a payload
// built from the same rows as the native kernels' has the same digest by
// construction, so a backend is tested only on which versions it selects.

// UnknownUID is the E_NOT_FOUND refusal of a uid argument at path.
func UnknownUID(path, uid string) *Error {
	return Errorf(ENotFound, map[string]any{"path": path, "uid": uid, "hint": "resolve names to uids with resolve_entities first"},
		"unknown uid %q at %s", uid, path)
}

// NodeVersionRows renders one node's believed versions as entity_history
// rows, sorted by (vt_s, vid).
func NodeVersionRows(vs []bt.NodeVersion) []any {
	type keyed struct {
		v   bt.NodeVersion
		vid string
	}
	ks := make([]keyed, len(vs))
	for i, v := range vs {
		ks[i] = keyed{v, engine.VID(v.UID, v.TTs, v.Valid.Start)}
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		if a.v.Valid.Start != b.v.Valid.Start {
			return cmpOrdered(a.v.Valid.Start, b.v.Valid.Start)
		}
		return strings.Compare(a.vid, b.vid)
	})
	var nr nodeRows
	out := make([]any, len(ks))
	for i, k := range ks {
		out[i] = nr.row(k.v, k.vid)
	}
	return out
}

// EdgeVersionRows renders edge versions as the operators' edge rows
// ({eid, vid, src, dst, rel_type, vt_s, vt_e}), sorted by (vt_s, vid).
func EdgeVersionRows(es []bt.EdgeVersion) []map[string]any {
	rows := make([]map[string]any, len(es))
	for i, e := range es {
		eid := engine.EID(e.Key)
		rows[i] = map[string]any{
			"eid": eid, "vid": engine.VID(eid, e.TTs, e.Valid.Start),
			"src": e.Key.Src, "dst": e.Key.Dst, "rel_type": e.Key.RelType,
			"vt_s": e.Valid.Start, "vt_e": e.Valid.End,
		}
	}
	slices.SortFunc(rows, func(a, b map[string]any) int {
		if sa, sb := a["vt_s"].(int64), b["vt_s"].(int64); sa != sb {
			return cmpOrdered(sa, sb)
		}
		return strings.Compare(a["vid"].(string), b["vid"].(string))
	})
	return rows
}

// RowsAny is a row list as a payload value.
func RowsAny(rows []map[string]any) []any { return rowsOf(rows) }

// SeriesBuckets are graph_metric_timeseries' buckets of window w at
// stride, refused with E_LIMIT as the native kernel refuses them.
type SeriesBuckets struct{ b gmtsBuckets }

// NewSeriesBuckets splits w at stride within the call's memory budget.
func NewSeriesBuckets(c *Call, w bt.Interval, stride int64) (SeriesBuckets, error) {
	b, err := gmtsBudgetBuckets(c, w, stride)
	return SeriesBuckets{b}, err
}

// N is the number of buckets.
func (s SeriesBuckets) N() int { return s.b.n }

// Start and End bound bucket i.
func (s SeriesBuckets) Start(i int) int64 { return s.b.start(i) }
func (s SeriesBuckets) End(i int) int64   { return s.b.end(i) }

// LiveRange is the half-open range of buckets whose start lies in iv.
func (s SeriesBuckets) LiveRange(iv bt.Interval) (int, int) { return s.b.liveRange(iv) }

// Payload is the operator's payload for integer values, one per bucket.
func (s SeriesBuckets) Payload(values []int64) map[string]any {
	rows := make([]any, s.b.n)
	for i := range rows {
		rows[i] = s.b.row(i, values[i])
	}
	return map[string]any{"rows": rows, "n_buckets": int64(s.b.n)}
}

// SeriesCyclic reports whether a graph_metric_timeseries call folds by a
// cycle, with the native kernel's refusal of a call that gives both or
// neither of stride and cycle.
func SeriesCyclic(c *Call) (bool, error) {
	_, cyclic, err := gmtsParseCycle(c)
	return cyclic, err
}

// ReachRows is temporal_reachability's rows from the earliest arrival
// (fwd) and latest departure (bwd) of each reached uid, in the operator's
// order: by earliest_arrival, then latest_departure (nulls last), then uid.
func ReachRows(fwd, bwd map[string]int64) []any {
	rows := make([]reachRow, 0, len(fwd)+len(bwd))
	for uid, t := range fwd {
		ld, ok := bwd[uid]
		if !ok {
			ld = bt.OpenEnd
		}
		rows = append(rows, reachRow{uid, t, ld})
	}
	for uid, t := range bwd {
		if _, ok := fwd[uid]; !ok {
			rows = append(rows, reachRow{uid, bt.OpenEnd, t})
		}
	}
	return renderReachRows(rows)
}

// NeighborhoodStride is neighborhood_evolution's effective stride and
// bucket count, with the native kernel's refusals.
func NeighborhoodStride(c *Call) (stride, n int64, err error) { return neighborhoodStride(c) }

// NeighborhoodAcc accumulates neighborhood_evolution for a backend that
// names neighbours by uid: Add each incident edge version, then Payload.
type NeighborhoodAcc struct{ a *neighborhoodAcc[string] }

// NewNeighborhoodAcc starts the accumulation for a call whose stride and
// bucket count NeighborhoodStride gave.
func NewNeighborhoodAcc(c *Call, stride, n int64) NeighborhoodAcc {
	return NeighborhoodAcc{newNeighborhoodAcc[string](c, stride, n)}
}

// Add counts an incident edge version of node uid.
func (a NeighborhoodAcc) Add(uid string, key bt.EdgeKey, iv bt.Interval) {
	other := key.Dst
	if other == uid {
		other = key.Src
	}
	a.a.add(other, other == uid, iv)
}

// Payload is the operator's payload.
func (a NeighborhoodAcc) Payload(c *Call) map[string]any {
	return a.a.payload(c, func(u string) string { return u })
}

// BurstPayload is burst_detection's payload from a backend's per-bucket
// occurrence counts: counts(t_a, t_b, stride, n) returns n counts. The
// buckets and parameters are checked first, as the native kernel does.
func BurstPayload(c *Call, counts func(ta, tb, stride int64, n int) ([]int64, error)) (map[string]any, error) {
	b, err := gmtsMakeBuckets(c.Window("window"), c.Int("stride"))
	if err != nil {
		return nil, err
	}
	p, err := burstReadParams(c)
	if err != nil {
		return nil, err
	}
	x, err := counts(b.ta, b.tb, b.stride, b.n)
	if err != nil {
		return nil, err
	}
	return burstRows(c, b, p, x)
}
