package ops_test

import (
	"context"
	"os"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
)

// The memory floor of a whole-window kernel is the time it takes, on the
// same cores in the same run, to stream exactly the bytes the kernel must
// read: for every edge version of the store, the column entries it
// touches (valid start 8 B, closing batch 4 B, flags 1 B; plus relation
// type 4 B and destination 4 B for the grouped aggregation). The floor
// holds one []uint64 per column, of the column's size at the store's edge
// version count, and sums it word by word with four accumulators, split
// into 64k-entry chunks like the engine's columns: over one goroutine
// (floor1) and over GOMAXPROCS goroutines pulling chunks (floorN, the
// kernels' own split). Both the floor's columns and the store's are
// resident in the last-level cache after the first round when the cache
// holds them, so the comparison is like for like either way.
//
// Each round times floor1, floorN and one call of the kernel (through
// ops.Execute, so validation, encoding and digest are included),
// interleaved; the benchmark reports the medians and the kernel/floorN
// and kernel/floor1 ratios of the medians, the median over rounds of the
// kernel/floor1 ratio within a round, and the ratio of the kernel's CPU
// time per call (all goroutines, GC included) to floor1's.

// floorCols is a set of columns of n entries each, of the given widths.
type floorCols struct {
	cols [][]uint64
	n    int
}

func newFloorCols(n int, widths ...int) floorCols {
	f := floorCols{n: n}
	for _, w := range widths {
		c := make([]uint64, (n*w+7)/8)
		for i := range c {
			c[i] = uint64(i) * 0x9e3779b97f4a7c15
		}
		f.cols = append(f.cols, c)
	}
	return f
}

// bytes is the number of bytes the floor streams.
func (f floorCols) bytes() int {
	n := 0
	for _, c := range f.cols {
		n += 8 * len(c)
	}
	return n
}

// floorChunk is the entries of one chunk, as in the engine's columns.
const floorChunk = 1 << 16

// stream sums every word of the columns over workers goroutines, a chunk
// (the same entries of every column) at a time.
func (f floorCols) stream(workers int) uint64 {
	nChunks := (f.n + floorChunk - 1) / floorChunk
	sums := make([]uint64, workers)
	var mu sync.Mutex
	next := 0
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var s uint64
			for {
				mu.Lock()
				k := next
				next++
				mu.Unlock()
				if k >= nChunks {
					break
				}
				for _, c := range f.cols {
					lo, hi := k*len(c)/nChunks, (k+1)*len(c)/nChunks
					s += sumWords(c[lo:hi])
				}
			}
			sums[w] = s
		}()
	}
	wg.Wait()
	var s uint64
	for _, x := range sums {
		s += x
	}
	return s
}

// sumWords sums c with four accumulators; the loop has no bounds checks,
// so it is as fast a reader of c as Go writes.
func sumWords(c []uint64) uint64 {
	var a, b, d, e uint64
	for ; len(c) >= 4; c = c[4:] {
		a += c[0]
		b += c[1]
		d += c[2]
		e += c[3]
	}
	for _, w := range c {
		a += w
	}
	return a + b + d + e
}

var floorSink uint64

// With TGMS_BENCH_STORE set, the benchmark runs on that store (opened
// read-only) instead of the in-process 1M synthetic store: a store with
// corrections has versions whose carved-fragment test reads more than the
// floor's columns.
func BenchmarkKernelFloorSynth1M(b *testing.B) {
	var e *engine.Store
	if dir := os.Getenv("TGMS_BENCH_STORE"); dir != "" {
		db, err := tgms.Open(dir, &tgms.Options{ReadOnly: true})
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		_ = db.Read(bt.OpenEnd, func(r engine.Reader) error { e = r.Store(); return nil })
	} else {
		e, _ = benchStore1M(b)
	}
	st := e.Stats()
	t0, t1 := st.VtMin, st.VtMax
	stride := max(1, (t1-t0)/100)
	win := map[string]any{"t_a": t0, "t_b": t1}
	n := e.NumEdgeVersions()
	for _, k := range []struct {
		name   string
		widths []int
		op     string
		args   map[string]any
	}{
		{"agg.rel_bucket", []int{8, 4, 1, 4, 4}, "aggregate_events", map[string]any{
			"group_by":   []any{map[string]any{"dim": "rel_type"}, map[string]any{"dim": "time_bucket", "stride": stride}},
			"aggregates": []any{map[string]any{"agg": "count"}, map[string]any{"agg": "count_distinct", "of": "dst"}},
			"window":     win, "limit": int64(1000)}},
		{"series.count", []int{8, 4, 1}, "graph_metric_timeseries", map[string]any{"metric": "edge_event_count", "window": win, "stride": stride}},
		{"burst.zscore", []int{8, 4, 1}, "burst_detection", map[string]any{"target": map[string]any{"kind": "edge_event_rate"}, "window": win, "stride": stride, "method": "zscore"}},
	} {
		b.Run(k.name, func(b *testing.B) {
			f := newFloorCols(n, k.widths...)
			src := storeSource{e}
			call := func() {
				if _, err := ops.Execute(context.Background(), src, k.op, k.args); err != nil {
					b.Fatal(err)
				}
			}
			call()
			floorSink += f.stream(1)
			procs := runtime.GOMAXPROCS(0)
			var t1s, tNs, tKs, c1s, cKs []float64
			ms := func(t time.Time) float64 { return float64(time.Since(t).Nanoseconds()) / 1e6 }
			cms := func(c time.Duration) float64 { return float64((cpuTime() - c).Nanoseconds()) / 1e6 }
			b.ResetTimer()
			for range b.N {
				s, c := time.Now(), cpuTime()
				floorSink += f.stream(1)
				t1s, c1s = append(t1s, ms(s)), append(c1s, cms(c))
				s = time.Now()
				floorSink += f.stream(procs)
				tNs = append(tNs, ms(s))
				s, c = time.Now(), cpuTime()
				call()
				tKs, cKs = append(tKs, ms(s)), append(cKs, cms(c))
			}
			b.StopTimer()
			med := func(x []float64) float64 { slices.Sort(x); return x[len(x)/2] }
			// The kernel against the floor of its own round: a change of
			// load between rounds cancels out.
			perRound := make([]float64, len(tKs))
			for i := range tKs {
				perRound[i] = tKs[i] / t1s[i]
			}
			b.ReportMetric(med(perRound), "kernel/floor1-round")
			m1, mN, mK := med(t1s), med(tNs), med(tKs)
			// CPU time (all threads, GC included) is steadier than wall
			// time on a shared machine: the kernel's CPU per call against
			// the one-goroutine floor's.
			b.ReportMetric(med(cKs), "kernel-cpu-ms")
			b.ReportMetric(med(cKs)/med(c1s), "kernel-cpu/floor1-cpu")
			b.ReportMetric(float64(f.bytes())/1e6, "floor-MB")
			b.ReportMetric(m1, "floor1-ms")
			b.ReportMetric(mN, "floorN-ms")
			b.ReportMetric(mK, "kernel-p50-ms")
			b.ReportMetric(mK/mN, "kernel/floorN")
			b.ReportMetric(mK/m1, "kernel/floor1")
		})
	}
}
