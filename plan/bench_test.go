package plan

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"
)

// twelveStepPlan chains a resolver, reachability, history, motif-free
// operators and computes: the largest plan the contract admits.
func twelveStepPlan() string {
	steps := []string{
		`{"id":"s1","op":"resolve_entities","args":{"query":"acme"},"depends_on":[]}`,
		`{"id":"s2","op":"temporal_reachability","args":{"src":{"$ref":"s1.rows[0].uid"},"window":{"t_a":100,"t_b":200}},"depends_on":["s1"]}`,
		`{"id":"s3","op":"entity_history","args":{"uid":"n1","include_edges":true},"depends_on":[]}`,
	}
	for i := 4; i <= 12; i++ {
		steps = append(steps, fmt.Sprintf(`{"id":"s%d","op":"entity_history","args":{"uid":{"$ref":"s2.rows[0].uid"},"limit":%d},"depends_on":["s2"]}`, i, i))
	}
	return `{"plan_id":"p12","steps":[` + strings.Join(steps, ",") + `],"answer_spec":{"kind":"count","from":"s2.rows_total"}}`
}

// BenchmarkAdmission reports plan admission latency (p50 and p99) for a
// typical 3-step plan and a 12-step plan.
func BenchmarkAdmission(b *testing.B) {
	for _, c := range []struct{ name, plan string }{{"3-step", basePlan}, {"12-step", twelveStepPlan()}} {
		b.Run(c.name, func(b *testing.B) {
			data := []byte(c.plan)
			if v := ValidateJSON(data, baseOptions()); !v.Valid {
				b.Fatalf("plan rejected: %+v", v.Violations)
			}
			times := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				ValidateJSON(data, baseOptions())
				times = append(times, time.Since(start))
			}
			sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
			b.ReportMetric(float64(times[len(times)/2].Nanoseconds())/1e6, "p50-ms")
			b.ReportMetric(float64(times[min(len(times)-1, len(times)*99/100)].Nanoseconds())/1e6, "p99-ms")
		})
	}
}
