package ops_test

import (
	"math"
	"math/rand/v2"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

// costStats are the store statistics the static cost check is tried under:
// empty, tiny, large and extreme stores.
var costStats = []ops.Stats{
	{},
	{Nodes: 1, NodeVersions: 1, EdgeVersions: 1, VtMin: 0, VtMax: 1},
	{Nodes: 1900, NodeVersions: 1900, EdgeVersions: 59835, VtMin: 1082008561000000, VtMax: 1098744742000000},
	{Nodes: math.MaxInt64, NodeVersions: math.MaxInt64, EdgeVersions: math.MaxInt64, VtMin: math.MinInt64, VtMax: math.MaxInt64},
}

// staticCost runs the plan contract's cost check on raw arguments and fails
// on an internal error: a panicking cost model must never pass as "no
// static check".
func staticCost(t *testing.T, op string, raw map[string]any, st ops.Stats) {
	t.Helper()
	spec, args, err := ops.Prepare(op, raw)
	if err != nil {
		return
	}
	if e := ops.CheckCost(spec, args, st); e != nil && e.Code == ops.EInternal {
		t.Fatalf("%s(%v) under %+v: %v", op, raw, st, e)
	}
}

// Every operator's cost model decides from statistics alone, on every
// argument the generators draw.
func TestCheckCostNeverInternal(t *testing.T) {
	for _, spec := range ops.All() {
		gen, ok := argGens[spec.Name]
		if !ok {
			continue
		}
		rng := rand.New(rand.NewPCG(7, uint64(len(spec.Name))))
		for range 200 {
			m, _ := build(t, oracle.RandomHistory(rng, 1+rng.IntN(4)))
			args := gen(rng, newWorld(rng, m))
			for _, st := range costStats {
				staticCost(t, spec.Name, args, st)
			}
		}
	}
}

// A cost model that panics is reported as E_INTERNAL with the operator's
// name.
func TestCheckCostReportsPanics(t *testing.T) {
	spec := &ops.Spec{Name: "broken", Cost: func(*ops.Call) ops.Cost { panic("index out of range") }}
	e := ops.CheckCost(spec, map[string]any{}, ops.Stats{})
	if e == nil || e.Code != ops.EInternal {
		t.Fatalf("CheckCost on a panicking cost model = %v, want E_INTERNAL", e)
	}
}

func FuzzCheckCost(f *testing.F) {
	names := ops.Names()
	rng := rand.New(rand.NewPCG(1, 2))
	for i, name := range names {
		if gen, ok := argGens[name]; ok {
			m, _ := build(f, oracle.RandomHistory(rng, 3))
			b, err := canon.Marshal(gen(rng, newWorld(rng, m)))
			if err == nil {
				f.Add(uint8(i), b, int64(100), int64(1000), int64(0), int64(150))
			}
		}
	}
	f.Fuzz(func(t *testing.T, op uint8, raw []byte, nodes, edges int64, vtMin, vtMax bt.Time) {
		v, err := canon.Parse(raw)
		if err != nil {
			return
		}
		args, ok := v.(map[string]any)
		if !ok {
			return
		}
		staticCost(t, names[int(op)%len(names)], args, ops.Stats{Nodes: nodes, NodeVersions: nodes, EdgeVersions: edges, VtMin: vtMin, VtMax: vtMax})
	})
}
