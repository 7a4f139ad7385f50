package ops_test

import (
	"context"
	"testing"
	"time"

	"github.com/tgms-go/tgms/ops"
)

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

// BenchmarkResolveEntitiesWholeSynth1M times the registry's query read
// whole, as the peer comparison reads it: 10,000-row pages, each next
// page from the previous page's cursor, envelopes and digests included.
func BenchmarkResolveEntitiesWholeSynth1M(b *testing.B) {
	e, _ := benchStore1M(b)
	src := storeSource{e}
	whole := func() int {
		args := map[string]any{"query": "n1", "limit": int64(10_000)}
		n := 0
		for {
			env, err := ops.ExecuteWith(context.Background(), src, "resolve_entities", args, ops.ExecOptions{Typed: true})
			if err != nil {
				b.Fatal(err)
			}
			rows, _ := env.Result["rows"].([]any)
			n += len(rows)
			cur, _ := env.Result["cursor"].(string)
			if cur == "" {
				return n
			}
			args["cursor"] = cur
		}
	}
	rows := whole()
	b.ReportAllocs()
	b.ResetTimer()
	start, cpu0 := time.Now(), cpuTime()
	for range b.N {
		whole()
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/op-whole")
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op-whole")
	b.ReportMetric(float64(rows), "rows")
}
