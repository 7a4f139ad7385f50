package ops_test

import (
	"context"
	"sync"
	"syscall"
	"testing"
	"time"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
)

// synth1M is the store every operator benchmark reads: the 1M-event
// synthetic stream (seed 1: 20,000 background nodes over 90 days, 5%
// interval edges, planted patterns), ingested in 50,000-event batches
// straight into the engine. It is built once per test binary.
var synth1M struct {
	once     sync.Once
	store    *engine.Store
	manifest *datasets.Manifest
	err      error
}

func benchStore1M(b *testing.B) (*engine.Store, *datasets.Manifest) {
	b.Helper()
	synth1M.once.Do(func() {
		e := engine.New()
		m, err := datasets.Synthesize(datasets.SynthConfig{Events: 1_000_000, Seed: 1}, func(chunk []bt.Event) error {
			eff, err := bt.Plan(e, bt.Time(e.Batches()+1), e.Batches()+1, []bt.Op{bt.Ingest(chunk, "Node")})
			if err != nil {
				return err
			}
			return e.Apply(eff)
		})
		e.Compact()
		synth1M.store, synth1M.manifest, synth1M.err = e, m, err
	})
	if synth1M.err != nil {
		b.Fatal(synth1M.err)
	}
	return synth1M.store, synth1M.manifest
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

// benchOp times op(args) on the shared store: b.N calls after one untimed
// call, reporting wall and CPU milliseconds per call. It returns the first
// call's payload, for size metrics.
func benchOp(b *testing.B, op string, args map[string]any) map[string]any {
	b.Helper()
	e, _ := benchStore1M(b)
	src := storeSource{e}
	env, err := ops.Execute(context.Background(), src, op, args)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	start, cpu0 := time.Now(), cpuTime()
	for range b.N {
		if _, err := ops.Execute(context.Background(), src, op, args); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/call")
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/call")
	return env.Result
}
