package ops_test

import (
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
)

// BenchmarkEntityHistorySynth1M times a point query whose cost is mostly the
// reply envelope: the history of one busy background node.
func BenchmarkEntityHistorySynth1M(b *testing.B) {
	benchOp(b, "entity_history", map[string]any{"uid": "n0"})
}

// BenchmarkNeighborhoodEvolutionSynth1M times another point query: the
// neighbourhood change of one busy node over a tenth of the stream.
func BenchmarkNeighborhoodEvolutionSynth1M(b *testing.B) {
	e, _ := benchStore1M(b)
	st := e.Stats()
	span := st.VtMax - st.VtMin
	mid := st.VtMin + span/2
	benchOp(b, "neighborhood_evolution", map[string]any{"uid": "n0", "t1": int64(mid), "t2": int64(mid + span/10)})
}

// BenchmarkEntityHistoryBusySynth1M times the history of the node with the
// most believed versions (the registry's hist.single), envelope and digest
// included, in µs per call.
func BenchmarkEntityHistoryBusySynth1M(b *testing.B) {
	e, _ := benchStore1M(b)
	var uid string
	best := -1
	if err := (storeSource{e}).Read(bt.OpenEnd, func(r engine.Reader) error {
		for id := range r.NumNodes() {
			if n := len(r.NodeHistory(uint32(id))); n > best {
				best, uid = n, r.UID(uint32(id))
			}
		}
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	benchOp(b, "entity_history", map[string]any{"uid": uid})
	b.ReportMetric(float64(best), "versions")
}
