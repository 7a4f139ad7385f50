package ops_test

import (
	"context"
	"math/rand/v2"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

func init() {
	argGens["neighborhood_evolution"] = func(rng *rand.Rand, w *world) map[string]any {
		t1 := snapshotTime(rng, w)
		t2 := t1 + 1 + int64(rng.IntN(100))
		switch rng.IntN(12) {
		case 0:
			t2 = t1 - int64(rng.IntN(5)) // E_INVALID_ARG (when t1 >= t2)
		case 1:
			t2 = t1 + 2001 + int64(rng.IntN(5000)) // default stride keeps it under the cap
		}
		args := map[string]any{"uid": pickUID(rng, w), "t1": t1, "t2": t2}
		switch rng.IntN(4) {
		case 0:
			args["stride"] = int64(1 + rng.IntN(20))
		case 1:
			args["stride"] = nil
		}
		if rng.IntN(25) == 0 { // E_LIMIT: more than 2000 buckets
			args["t2"], args["stride"] = t1+2001+int64(rng.IntN(3000)), int64(1)
		}
		if rng.IntN(3) == 0 {
			args["limit"] = int64(1 + rng.IntN(2))
		}
		return withAsOf(rng, w, args)
	}
}

func TestNeighborhoodEvolutionExamples(t *testing.T) {
	e := snapshotGoldenStore(t)
	snapshotRunCases(t, e, "neighborhood_evolution", []snapshotCase{
		{name: "A.2#15", args: map[string]any{"uid": "a", "t1": int64(15), "t2": int64(90), "stride": int64(25)},
			want:   `{"degree_series":[{"degree":1,"t":15},{"degree":1,"t":40},{"degree":1,"t":65}],"neighbors_gained":[],"neighbors_gained_total":0,"neighbors_lost":["b"],"neighbors_lost_total":1,"stride":25,"truncated":false}`,
			digest: "4fb1b114144c143931a68908693675cef67d94078c1d09c035a73b079fee431a"},
		// Default stride (25-15) div 20 = 0 -> 1: ten buckets 15..24; the
		// event a→c [20,21) adds to KNOWS [10,40) at 20 only.
		{name: "default stride floor 1", args: map[string]any{"uid": "a", "t1": int64(15), "t2": int64(25)},
			want: `{"degree_series":[{"degree":1,"t":15},{"degree":1,"t":16},{"degree":1,"t":17},{"degree":1,"t":18},{"degree":1,"t":19},{"degree":2,"t":20},{"degree":1,"t":21},{"degree":1,"t":22},{"degree":1,"t":23},{"degree":1,"t":24}],"neighbors_gained":[],"neighbors_gained_total":0,"neighbors_lost":[],"neighbors_lost_total":0,"stride":1,"truncated":false}`},
		// Default stride 100 div 20 = 5; the last bucket starts at 95 < t2.
		{name: "default stride", args: map[string]any{"uid": "b", "t1": int64(0), "t2": int64(100)},
			want: `{"degree_series":[{"degree":0,"t":0},{"degree":0,"t":5},{"degree":1,"t":10},{"degree":1,"t":15},{"degree":1,"t":20},{"degree":1,"t":25},{"degree":1,"t":30},{"degree":1,"t":35},{"degree":1,"t":40},{"degree":1,"t":45},{"degree":1,"t":50},{"degree":1,"t":55},{"degree":1,"t":60},{"degree":1,"t":65},{"degree":1,"t":70},{"degree":1,"t":75},{"degree":0,"t":80},{"degree":0,"t":85},{"degree":0,"t":90},{"degree":0,"t":95}],"neighbors_gained":[],"neighbors_gained_total":0,"neighbors_lost":[],"neighbors_lost_total":0,"stride":5,"truncated":false}`},
		{name: "gained, partial last bucket", args: map[string]any{"uid": "a", "t1": int64(5), "t2": int64(30), "stride": int64(10)},
			want: `{"degree_series":[{"degree":0,"t":5},{"degree":1,"t":15},{"degree":1,"t":25}],"neighbors_gained":["b","c"],"neighbors_gained_total":2,"neighbors_lost":[],"neighbors_lost_total":0,"stride":10,"truncated":false}`},
		{name: "limit cuts the lists, not the series", args: map[string]any{"uid": "a", "t1": int64(5), "t2": int64(30), "stride": int64(10), "limit": int64(1)},
			want: `{"degree_series":[{"degree":0,"t":5},{"degree":1,"t":15},{"degree":1,"t":25}],"neighbors_gained":["b"],"neighbors_gained_total":2,"neighbors_lost":[],"neighbors_lost_total":0,"stride":10,"truncated":true}`},
		{name: "as of 3", args: map[string]any{"uid": "a", "t1": int64(50), "t2": int64(95), "stride": int64(40), "as_of_tt": int64(3)},
			want: `{"degree_series":[{"degree":1,"t":50},{"degree":1,"t":90}],"neighbors_gained":[],"neighbors_gained_total":0,"neighbors_lost":[],"neighbors_lost_total":0,"stride":40,"truncated":false}`},
		{name: "t1 == t2", args: map[string]any{"uid": "a", "t1": int64(15), "t2": int64(15)}, code: ops.EInvalidArg, path: "/t2"},
		{name: "t1 > t2", args: map[string]any{"uid": "a", "t1": int64(15), "t2": int64(5)}, code: ops.EInvalidArg, path: "/t2"},
		{name: "over 2000 buckets", args: map[string]any{"uid": "a", "t1": int64(0), "t2": int64(4001), "stride": int64(2)}, code: ops.ELimit, path: "/stride"},
		{name: "exactly 2000 buckets", args: map[string]any{"uid": "a", "t1": int64(0), "t2": int64(4000), "stride": int64(2)}},
		{name: "stride 0", args: map[string]any{"uid": "a", "t1": int64(0), "t2": int64(40), "stride": int64(0)}, code: ops.ESchema, path: "/stride"},
		{name: "unknown uid", args: map[string]any{"uid": "zz", "t1": int64(0), "t2": int64(40)}, code: ops.ENotFound, path: "/uid"},
		{name: "argument errors first", args: map[string]any{"uid": "zz", "t1": int64(40), "t2": int64(40)}, code: ops.EInvalidArg, path: "/t2"},
	})
	_, _, oe := snapshotCall(t, e, "neighborhood_evolution", map[string]any{"uid": "a", "t1": int64(0), "t2": int64(4001), "stride": int64(2)})
	if oe.Details["min_stride"] != int64(3) || oe.Details["buckets"] != int64(2001) {
		t.Fatalf("E_LIMIT details %v: want min_stride 3, buckets 2001", oe.Details)
	}
}

// A self-loop is one incident edge version and no neighbour.
func TestNeighborhoodEvolutionSelfLoop(t *testing.T) {
	_, e := build(t, []oracle.Batch{{TT: 1, Ops: []bt.Op{
		bt.AssertEdge(bt.EdgeKey{Src: "x", Dst: "x", RelType: "R"}, "", bt.Interval{Start: 0, End: 10}),
		bt.AssertEdge(bt.EdgeKey{Src: "y", Dst: "x", RelType: "R"}, "", bt.Interval{Start: 5, End: 20}),
	}}})
	snapshotRunCases(t, e, "neighborhood_evolution", []snapshotCase{
		{name: "self-loop", args: map[string]any{"uid": "x", "t1": int64(0), "t2": int64(20), "stride": int64(5)},
			want: `{"degree_series":[{"degree":1,"t":0},{"degree":2,"t":5},{"degree":1,"t":10},{"degree":1,"t":15}],"neighbors_gained":[],"neighbors_gained_total":0,"neighbors_lost":[],"neighbors_lost_total":0,"stride":5,"truncated":false}`},
		{name: "lost y", args: map[string]any{"uid": "x", "t1": int64(7), "t2": int64(20), "stride": int64(13)},
			want: `{"degree_series":[{"degree":2,"t":7}],"neighbors_gained":[],"neighbors_gained_total":0,"neighbors_lost":["y"],"neighbors_lost_total":1,"stride":13,"truncated":false}`},
	})
}

// The series with stride k·s is every k-th entry of the series with stride s,
// and the neighbour lists do not depend on the stride.
func TestNeighborhoodEvolutionStrideRefinement(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 3))
	for i := range 200 {
		m, e := build(t, oracle.RandomHistory(rng, 2+rng.IntN(9)))
		if len(m.UIDs) == 0 {
			continue
		}
		w := newWorld(rng, m)
		t1 := snapshotTime(rng, w)
		s, k := int64(1+rng.IntN(6)), int64(2+rng.IntN(4))
		args := map[string]any{"uid": w.UIDs[rng.IntN(len(w.UIDs))], "t1": t1, "t2": t1 + 1 + int64(rng.IntN(120)), "stride": s}
		fine, err := ops.Execute(context.Background(), storeSource{e}, "neighborhood_evolution", args)
		if err != nil {
			t.Fatal(err)
		}
		args["stride"] = s * k
		coarse, err := ops.Execute(context.Background(), storeSource{e}, "neighborhood_evolution", args)
		if err != nil {
			t.Fatal(err)
		}
		var every []any
		for j, x := range fine.Result["degree_series"].([]any) {
			if int64(j)%k == 0 {
				every = append(every, x)
			}
		}
		a, _ := canon.Marshal(every)
		b, _ := canon.Marshal(coarse.Result["degree_series"])
		if string(a) != string(b) {
			t.Fatalf("case %d %v: every %d-th of stride %d\n %s\nstride %d\n %s", i, args, k, s, a, s*k, b)
		}
		for _, f := range []string{"neighbors_gained", "neighbors_lost"} {
			a, _ := canon.Marshal(fine.Result[f])
			b, _ := canon.Marshal(coarse.Result[f])
			if string(a) != string(b) {
				t.Fatalf("case %d: %s depends on the stride: %s vs %s", i, f, a, b)
			}
		}
	}
}
