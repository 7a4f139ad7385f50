package ops

import (
	"math/rand/v2"
	"reflect"
	"runtime"
	"strconv"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
)

// TestDiffNodesParallelMatchesSequential checks that the node diff split
// over goroutines returns exactly the lists (same entries, same order)
// and work of one pass, on a store whose nodes are added, removed and
// relabelled between the two times, for several split sizes.
func TestDiffNodesParallelMatchesSequential(t *testing.T) {
	defer func(n int) { diffNodeChunk = n }(diffNodeChunk)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	rng := rand.New(rand.NewPCG(7, 11))
	e := engine.New()
	for b := range 4 {
		var ops []bt.Op
		for i := range 500 {
			uid := "u" + strconv.Itoa(rng.IntN(800))
			s := bt.Time(rng.IntN(100))
			iv := bt.Interval{Start: s, End: s + 1 + bt.Time(rng.IntN(100))}
			props := bt.Props(`{"w":` + strconv.Itoa(rng.IntN(3)) + `}`)
			if b == 0 || i%3 > 0 {
				ops = append(ops, bt.AssertNode(uid, []string{"P", "Q"}[rng.IntN(2)], props, iv))
			} else {
				ops = append(ops, bt.Correct(bt.NodeRef(uid), props, iv))
			}
		}
		eff, err := bt.Plan(e, bt.Time(b+1), uint64(b+1), ops)
		if err != nil {
			continue
		}
		if err := e.Apply(eff); err != nil {
			t.Fatal(err)
		}
	}
	r := Native{e.Reader(bt.OpenEnd)}
	var ids []uint32
	for id := range uint32(r.NumNodes()) {
		ids = append(ids, id)
	}
	if len(ids) < 100 {
		t.Fatalf("only %d nodes written", len(ids))
	}
	for _, times := range [][2]bt.Time{{10, 60}, {0, 150}, {5, 95}} {
		want := diffNodes(r, ids, times[0], times[1])
		if len(want.added)+len(want.removed)+len(want.changed) == 0 {
			t.Fatalf("t1=%d t2=%d: an empty diff tests nothing", times[0], times[1])
		}
		for _, chunk := range []int{1, 7, 100, 4096} {
			diffNodeChunk = chunk
			got := diffNodesParallel(r, ids, times[0], times[1])
			if !reflect.DeepEqual(got, want) {
				t.Errorf("t1=%d t2=%d chunk %d: parallel diff differs: %d/%d/%d entries, want %d/%d/%d",
					times[0], times[1], chunk, len(got.added), len(got.removed), len(got.changed),
					len(want.added), len(want.removed), len(want.changed))
			}
		}
	}
}

// TestDiffEdgesValidParallelMatchesSequential checks that the edge half
// of the diff read on two goroutines gives exactly the sequential pass's
// maps and counts, and that both hold, for each identity, its believed
// version valid at the instant (by the definition, over every version),
// on edges asserted, corrected and retracted over several batches.
func TestDiffEdgesValidParallelMatchesSequential(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	e := engine.New()
	var keys []bt.EdgeKey
	for b := range 5 {
		var ops []bt.Op
		for i := range 400 {
			s := bt.Time(rng.IntN(100))
			iv := bt.Interval{Start: s, End: s + 1 + bt.Time(rng.IntN(60))}
			props := bt.Props(`{"w":` + strconv.Itoa(rng.IntN(3)) + `}`)
			switch {
			case b == 0 || i%4 == 0 || len(keys) == 0:
				k := bt.EdgeKey{Src: "u" + strconv.Itoa(rng.IntN(60)), Dst: "u" + strconv.Itoa(rng.IntN(60)), RelType: []string{"A", "B"}[rng.IntN(2)]}
				keys = append(keys, k)
				ops = append(ops, bt.AssertEdge(k, props, iv))
			case i%4 == 1:
				ops = append(ops, bt.Retract(bt.EdgeRef(keys[rng.IntN(len(keys))]), s))
			default:
				ops = append(ops, bt.Correct(bt.EdgeRef(keys[rng.IntN(len(keys))]), props, iv))
			}
		}
		eff, err := bt.Plan(e, bt.Time(b+1), uint64(b+1), ops)
		if err != nil {
			continue
		}
		if err := e.Apply(eff); err != nil {
			t.Fatal(err)
		}
	}
	for _, asOf := range []bt.Time{2, bt.OpenEnd} {
		r := Native{e.Reader(asOf)}
		for _, ts := range [][2]bt.Time{{10, 60}, {0, 150}, {40, 41}} {
			want := [2]map[uint32]uint32{{}, {}}
			for v := range uint32(e.NumEdgeVersions()) {
				for k, at := range ts {
					if r.Believed(v) && r.Valid(v).Contains(at) {
						want[k][diffIdentity(r, v)] = v
					}
				}
			}
			s1, s2, sn := diffEdgesValid(r, ts[0], ts[1], false)
			p1, p2, pn := diffEdgesValid(r, ts[0], ts[1], true)
			if !reflect.DeepEqual([2]map[uint32]uint32{s1, s2}, want) || len(want[0]) == 0 {
				t.Fatalf("asOf %d t=%v: sequential maps differ from the definition (%d, %d entries, want %d, %d)", asOf, ts, len(s1), len(s2), len(want[0]), len(want[1]))
			}
			if !reflect.DeepEqual(p1, s1) || !reflect.DeepEqual(p2, s2) || pn != sn {
				t.Fatalf("asOf %d t=%v: parallel maps differ from sequential", asOf, ts)
			}
		}
	}
}
