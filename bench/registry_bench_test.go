package bench

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/ops"
)

// BenchmarkRegistry times each registry query as a sub-benchmark, as the
// benchmark's native runner calls it (typed rows, envelope and digest),
// on the store at $TGMS_BENCH_STORE (opened read-only) or else on a
// 20,000-event synthetic store; with -cpuprofile it profiles the queries
// picked by -bench (e.g. -bench 'Registry/resolve').
func BenchmarkRegistry(b *testing.B) {
	db := registryStore(b)
	qs, err := Registry(db)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, q := range qs {
		b.Run(q.ID, func(b *testing.B) {
			env, err := db.Call(ctx, q.Op, q.Args)
			if err != nil {
				b.Fatal(err)
			}
			typed := ops.ExecOptions{Typed: true}
			b.ReportAllocs()
			start, cpu0 := time.Now(), cpuTime()
			for b.Loop() {
				if _, err := db.CallWith(ctx, q.Op, q.Args, typed); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(time.Since(start).Nanoseconds())/1000/float64(b.N), "µs/call")
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/1000/float64(b.N), "cpu-µs/call")
			b.ReportMetric(float64(answerSize(env.Result)), "answer")
		})
	}
}

// registryStore is the store at $TGMS_BENCH_STORE, opened read-only and
// closed when b ends, or else a 20,000-event synthetic store.
func registryStore(b *testing.B) *tgms.DB {
	dir := os.Getenv("TGMS_BENCH_STORE")
	if dir == "" {
		return synthStore(b, 20_000, 1)
	}
	db, err := tgms.Open(dir, &tgms.Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}
