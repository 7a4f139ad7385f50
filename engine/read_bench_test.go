package engine

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// benchStore holds n instantaneous events among 20,000 nodes plus 5%
// interval edges, in 50,000-event batches.
func benchStore(b testing.TB, n int) *Store {
	b.Helper()
	s := New()
	var evs []bt.Event
	for i := range n {
		e := bt.Event{Src: fmt.Sprintf("n%d", (i*7919)%20000), Dst: fmt.Sprintf("n%d", (i*104729+1)%20000), RelType: "MSG", VtS: bt.Time(i) * 1000}
		if i%20 == 0 {
			e.VtE = e.VtS + 3_600_000
		}
		evs = append(evs, e)
		if len(evs) == 50_000 || i == n-1 {
			eff, err := bt.Plan(s, bt.Time(len(s.batchTT)), s.Batches()+1, []bt.Op{bt.Ingest(evs, "")})
			if err != nil {
				b.Fatal(err)
			}
			s.Apply(eff)
			evs = nil
		}
	}
	s.Compact()
	return s
}

// BenchmarkWindowScans compares the ordered window lists with the
// unordered visitors over the whole extent of a 1M-event store.
func BenchmarkWindowScans(b *testing.B) {
	s := benchStore(b, 1_000_000)
	r := s.Reader(bt.OpenEnd)
	all := bt.Interval{Start: 0, End: bt.OpenEnd - 1}
	b.Run("EdgesOverlapping", func(b *testing.B) {
		for range b.N {
			_ = r.EdgesOverlapping(all)
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/scan")
	})
	b.Run("EachOverlapping", func(b *testing.B) {
		for range b.N {
			n := 0
			r.EachOverlapping(all, func(uint32) { n++ })
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/scan")
	})
	b.Run("EdgesStartingIn", func(b *testing.B) {
		for range b.N {
			_ = r.EdgesStartingIn(all)
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/scan")
	})
	b.Run("EachStartingIn", func(b *testing.B) {
		for range b.N {
			n := 0
			r.EachStartingIn(all, func(uint32) { n++ })
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/scan")
	})
}

// cpuTime is the process's user and system CPU time so far: on a machine
// shared with other work it varies less than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkVersionReads reads one field group of every edge version of a
// 1M-event store (5% of them intervals) in id order.
func BenchmarkVersionReads(b *testing.B) {
	s := benchStore(b, 1_000_000)
	r := s.Reader(bt.OpenEnd)
	n := uint32(s.NumEdgeVersions())
	report := func(b *testing.B, cpu0 time.Duration) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/version")
		b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/version")
	}
	b.Run("Valid", func(b *testing.B) {
		cpu0 := cpuTime()
		var sum int64
		for range b.N {
			for v := range n {
				iv := r.Valid(v)
				sum += iv.End - iv.Start
			}
		}
		report(b, cpu0)
		_ = sum
	})
	b.Run("Props", func(b *testing.B) {
		cpu0 := cpuTime()
		var sum int
		for range b.N {
			for v := range n {
				sum += len(r.Props(v))
			}
		}
		report(b, cpu0)
		_ = sum
	})
	b.Run("Edge", func(b *testing.B) {
		cpu0 := cpuTime()
		var sum int
		for range b.N {
			for v := range n {
				sum += len(r.Edge(v).Key.Disc)
			}
		}
		report(b, cpu0)
		_ = sum
	})
}
