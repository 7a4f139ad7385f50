package ops_test

import "testing"

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
