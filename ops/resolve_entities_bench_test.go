package ops_test

import "testing"

// BenchmarkResolveEntitiesShapesSynth1M times resolve_entities on the shared 1M
// store: the registry's query ("n1", two runes, about half the uids
// match), a selective fragment, a query that matches nothing and a
// property criterion alone (which every uid must be checked against).
func BenchmarkResolveEntitiesShapesSynth1M(b *testing.B) {
	for _, bc := range []struct {
		name string
		args map[string]any
	}{
		{"registry_n1", map[string]any{"query": "n1"}},
		{"fragment_n1234", map[string]any{"query": "N1234"}},
		{"planted_burst1_", map[string]any{"query": "burst1_"}},
		{"none_zzz", map[string]any{"query": "zzz"}},
		{"prop_only", map[string]any{"prop": map[string]any{"prop": "name", "value": "x"}}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			res := benchOp(b, "resolve_entities", bc.args)
			b.ReportMetric(float64(res["rows_total"].(int64)), "rows")
			e, _ := benchStore1M(b)
			b.ReportMetric(float64(e.NodeTextBytes())/float64(e.NumNodeVersions()), "index-B/nodeversion")
		})
	}
}
