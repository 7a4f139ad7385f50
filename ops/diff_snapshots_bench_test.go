package ops_test

import "testing"

// BenchmarkDiffSnapshotsRegistrySynth1M times the registry's global diff
// on the shared 1M store: t1 mid-window, t2 a fortieth of the window later.
func BenchmarkDiffSnapshotsRegistrySynth1M(b *testing.B) {
	_, m := benchStore1M(b)
	span := m.VtMax - m.VtMin
	mid := m.VtMin + span/2
	res := benchOp(b, "diff_snapshots", map[string]any{"t1": mid, "t2": mid + span/40})
	b.ReportMetric(float64(res["edges_added_total"].(int64)+res["edges_removed_total"].(int64)), "edges-changed")
}
