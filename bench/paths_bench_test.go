package bench

import (
	"context"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// BenchmarkRegistryPathsSynth times the registry's paths.k query on an
// in-process synthetic store of $TGMS_BENCH_SYNTH_EVENTS events (default
// 1,000,000, seed 1), reporting wall and CPU milliseconds per call.
func BenchmarkRegistryPathsSynth(b *testing.B) {
	n := int64(1_000_000)
	if s := os.Getenv("TGMS_BENCH_SYNTH_EVENTS"); s != "" {
		var err error
		if n, err = strconv.ParseInt(s, 10, 64); err != nil || n <= 0 {
			b.Fatalf("TGMS_BENCH_SYNTH_EVENTS=%q: want a positive event count", s)
		}
	}
	db := synthStore(b, n, 1)
	qs, err := Registry(db)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, q := range qs {
		if q.ID != "paths.k" {
			continue
		}
		b.Run(q.ID, func(b *testing.B) {
			env, err := db.Call(ctx, q.Op, q.Args)
			if err != nil {
				b.Fatal(err)
			}
			start, cpu0 := time.Now(), cpuTime()
			for b.Loop() {
				if _, err := db.Call(ctx, q.Op, q.Args); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/call")
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/call")
			b.ReportMetric(float64(answerSize(env.Result)), "answer")
		})
	}
}

// cpuTime is the process's CPU time (all threads, GC included).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
