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
	r := e.Reader(bt.OpenEnd)
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
