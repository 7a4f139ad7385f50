package peers

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/bench"
	"github.com/tgms-go/tgms/ops"
)

// BenchmarkNativeWhole times each registry query as the comparison times
// the native side: the whole answer (every 10,000-row page), typed rows,
// envelopes and digests, on the store at $TGMS_BENCH_STORE (opened
// read-only) or else on a 20,000-event synthetic store; with -cpuprofile
// it profiles the queries picked by -bench (e.g. -bench 'Whole/resolve').
func BenchmarkNativeWhole(b *testing.B) {
	var db *tgms.DB
	if dir := os.Getenv("TGMS_BENCH_STORE"); dir != "" {
		var err error
		if db, err = tgms.Open(dir, &tgms.Options{ReadOnly: true}); err != nil {
			b.Fatal(err)
		}
		defer db.Close()
	} else {
		db = synthStore(b, 20_000)
	}
	qs, err := bench.Registry(db)
	if err != nil {
		b.Fatal(err)
	}
	ctx, typed := context.Background(), ops.ExecOptions{Typed: true}
	for _, q := range qs {
		b.Run(q.ID, func(b *testing.B) {
			p, err := nativeFull(ctx, db, q, typed)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			start, cpu0 := time.Now(), cpuTime()
			for b.Loop() {
				if _, err := nativeFull(ctx, db, q, typed); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/whole")
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/whole")
			b.ReportMetric(float64(answerSize(p)), "answer")
		})
	}
}

// cpuTime is the process's CPU time (all threads, GC included): steadier
// than wall time on a shared machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
