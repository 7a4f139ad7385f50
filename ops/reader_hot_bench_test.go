package ops_test

import (
	"context"
	"testing"
	"time"

	"github.com/tgms-go/tgms/ops"
)

// BenchmarkReaderPathOut1M times Out1M's reachability on the in-memory
// engine read directly (native) and through the Reader interface
// (interface), in one run so the two are compared under the same load.
func BenchmarkReaderPathOut1M(b *testing.B) {
	e, _ := benchStore1M(b)
	args := reachBenchArgs(b, 0, nil)
	for _, bc := range []struct {
		name string
		b    ops.Backend
	}{{"native", ops.NativeBackend{Src: storeSource{e}}}, {"interface", opaqueBackend{e}}} {
		b.Run(bc.name, func(b *testing.B) {
			want, err := ops.ExecuteOn(context.Background(), bc.b, "temporal_reachability", args, ops.ExecOptions{})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			start, cpu0 := time.Now(), cpuTime()
			for range b.N {
				env, err := ops.ExecuteOn(context.Background(), bc.b, "temporal_reachability", args, ops.ExecOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if env.ResultDigest != want.ResultDigest {
					b.Fatalf("digest %s, first call %s", env.ResultDigest, want.ResultDigest)
				}
			}
			b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/call")
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/call")
		})
	}
}
