package tabular

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// benchCSV writes n rows of a 10-column event table.
func benchCSV(b *testing.B, n int) string {
	var sb strings.Builder
	sb.WriteString("src,dst,ts,kind,amount,count,ok,channel,note,region\n")
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	kinds := []string{"PAID", "SENT", "CALLED"}
	for i := range n {
		fmt.Fprintf(&sb, "u%d,u%d,%d,%s,%d.%02d,%d,%t,ch%d,n%d,r%d\n", i%50000, (i*7+1)%50000, base+int64(i), kinds[i%3], i%1000, i%100, i%17, i%2 == 0, i%5, i%97, i%11)
	}
	p := filepath.Join(b.TempDir(), "bench.csv")
	os.WriteFile(p, []byte(sb.String()), 0o644)
	return p
}

// BenchmarkReadEventsCSV reads a 10-column CSV (7 typed property columns)
// into events: the parse half of an ingest.
func BenchmarkReadEventsCSV(b *testing.B) {
	const n = 200_000
	p := benchCSV(b, n)
	m := Mapping{Src: "src", Dst: "dst", Time: "ts", TimeFormat: UnixS, RelTypeCol: "kind", Props: []string{"*"},
		Types: map[string]string{"amount": "float", "count": "int", "ok": "bool"}}
	b.ResetTimer()
	cpu0 := cpuTime()
	for range b.N {
		rd, err := Open(p, "")
		if err != nil {
			b.Fatal(err)
		}
		et, err := ReadEvents(rd, &m, Options{})
		rd.Close()
		if err != nil || len(et.Events) != n {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(n)*float64(b.N)/(cpuTime()-cpu0).Seconds(), "events/cpu-s")
}

// cpuTime is the process's user and system CPU time so far: on a machine
// shared with other work, events per CPU-second is the figure that does
// not depend on what else runs.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
