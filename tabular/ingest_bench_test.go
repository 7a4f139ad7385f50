package tabular_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/tabular"
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// tenColumns writes n rows of a 10-column event table: src, dst, a unix
// time, a rel type and six property columns (three typed).
func tenColumns(tb testing.TB, n int) string {
	var sb strings.Builder
	sb.WriteString("src,dst,ts,kind,amount,count,ok,channel,note,region\n")
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	kinds := []string{"PAID", "SENT", "CALLED"}
	for i := range n {
		fmt.Fprintf(&sb, "u%d,u%d,%d,%s,%d.%02d,%d,%t,ch%d,n%d,r%d\n", i%50000, (i*7+1)%50000, base+int64(i), kinds[i%3], i%1000, i%100, i%17, i%2 == 0, i%5, i%97, i%11)
	}
	p := filepath.Join(tb.TempDir(), "events.csv")
	if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

// BenchmarkIngestCSV10Durable is the whole load of a 10-column CSV into a
// new store with fsync: read, check, write. events/s is wall time;
// events/cpu-s divides by the CPU the process used, the figure that a
// machine busy with other work does not distort.
func BenchmarkIngestCSV10Durable(b *testing.B) {
	n := 500_000
	if testing.Short() {
		n = 50_000
	}
	benchDurable(b, tenColumns(b, n), n, tabular.Mapping{Src: "src", Dst: "dst", Time: "ts", TimeFormat: tabular.UnixS, RelTypeCol: "kind", Props: []string{"*"},
		Types: map[string]string{"amount": "float", "count": "int", "ok": "bool"}})
}

// BenchmarkLoadCSV10Durable is BenchmarkIngestCSV10Durable the way the
// ingest command loads a table into a new store: a survey of the file,
// then one pass that reads each batch while the one before is written.
func BenchmarkLoadCSV10Durable(b *testing.B) {
	n := 500_000
	if testing.Short() {
		n = 50_000
	}
	benchLoad(b, tenColumns(b, n), n, tabular.Mapping{Src: "src", Dst: "dst", Time: "ts", TimeFormat: tabular.UnixS, RelTypeCol: "kind", Props: []string{"*"},
		Types: map[string]string{"amount": "float", "count": "int", "ok": "bool"}})
}

// BenchmarkLoadParquet10Durable is BenchmarkLoadCSV10Durable from Parquet.
func BenchmarkLoadParquet10Durable(b *testing.B) {
	n := 500_000
	if testing.Short() {
		n = 50_000
	}
	benchLoad(b, tenColumnsParquet(b, n), n, tabular.Mapping{Src: "src", Dst: "dst", Time: "ts", RelTypeCol: "kind", Props: []string{"*"}})
}

func benchLoad(b *testing.B, p string, n int, m tabular.Mapping) {
	b.ResetTimer()
	cpu0, allocs0 := cpuTime(), mallocs()
	for i := range b.N {
		sv, err := tabular.SurveyFile(p, "")
		if err != nil || !sv.OK {
			b.Fatal(sv, err)
		}
		db, err := tgms.Open(filepath.Join(b.TempDir(), fmt.Sprint(i)), nil)
		if err != nil {
			b.Fatal(err)
		}
		pass := func(fn func([]bt.Event) error) (string, error) {
			rd, err := tabular.Open(p, "")
			if err != nil {
				return "", err
			}
			defer rd.Close()
			sc, err := tabular.ScanEvents(rd, &m, tabular.Options{}, tgms.ChunkEvents, fn)
			if err != nil {
				return "", err
			}
			return sc.SHA256, nil
		}
		res, err := db.IngestStream(context.Background(), "events", pass, tgms.StreamOptions{OnePass: &tgms.OnePass{SHA256: sv.SHA256, Events: int(sv.Rows)}})
		if err != nil || res.Events != n {
			b.Fatal(res, err)
		}
		if err := db.Close(); err != nil {
			b.Fatal(err)
		}
	}
	reportRates(b, n, cpu0, allocs0)
}

func benchDurable(b *testing.B, p string, n int, m tabular.Mapping) {
	b.ResetTimer()
	cpu0, allocs0 := cpuTime(), mallocs()
	for i := range b.N {
		rd, err := tabular.Open(p, "")
		if err != nil {
			b.Fatal(err)
		}
		et, err := tabular.ReadEvents(rd, &m, tabular.Options{})
		if err != nil {
			b.Fatal(err)
		}
		db, err := tgms.Open(filepath.Join(b.TempDir(), fmt.Sprint(i)), nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := db.IngestFrom(tgms.Source{Name: "events.csv", SHA256: rd.SHA256()}, false, et.Events, et.NodeLabel, nil); err != nil {
			b.Fatal(err)
		}
		rd.Close()
		if err := db.Close(); err != nil {
			b.Fatal(err)
		}
	}
	reportRates(b, n, cpu0, allocs0)
}

// reportRates reports events per second of wall and of CPU time, and
// heap allocations per event, for b.N runs over n events each.
func reportRates(b *testing.B, n int, cpu0 time.Duration, allocs0 uint64) {
	events := float64(n) * float64(b.N)
	b.ReportMetric(events/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(events/(cpuTime()-cpu0).Seconds(), "events/cpu-s")
	b.ReportMetric(float64(mallocs()-allocs0)/events, "allocs/event")
}

func mallocs() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.Mallocs
}

// BenchmarkWriteCSV10Durable is the write half of
// BenchmarkIngestCSV10Durable: the events read once, then written into a
// new store with fsync on each run (planning, applying, encoding and
// logging).
func BenchmarkWriteCSV10Durable(b *testing.B) {
	n := 500_000
	if testing.Short() {
		n = 50_000
	}
	p := tenColumns(b, n)
	m := tabular.Mapping{Src: "src", Dst: "dst", Time: "ts", TimeFormat: tabular.UnixS, RelTypeCol: "kind", Props: []string{"*"},
		Types: map[string]string{"amount": "float", "count": "int", "ok": "bool"}}
	rd, err := tabular.Open(p, "")
	if err != nil {
		b.Fatal(err)
	}
	et, err := tabular.ReadEvents(rd, &m, tabular.Options{})
	rd.Close()
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu0, allocs0 := cpuTime(), mallocs()
	for i := range b.N {
		db, err := tgms.Open(filepath.Join(b.TempDir(), fmt.Sprint(i)), nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := db.IngestFrom(tgms.Source{Name: "events.csv", SHA256: et.SHA256}, false, et.Events, et.NodeLabel, nil); err != nil {
			b.Fatal(err)
		}
		if err := db.Close(); err != nil {
			b.Fatal(err)
		}
	}
	reportRates(b, n, cpu0, allocs0)
}

type tenCols struct {
	Src     string  `parquet:"src"`
	Dst     string  `parquet:"dst"`
	TS      int64   `parquet:"ts,timestamp(microsecond)"`
	Kind    string  `parquet:"kind"`
	Amount  float64 `parquet:"amount"`
	Count   int64   `parquet:"count"`
	OK      bool    `parquet:"ok"`
	Channel string  `parquet:"channel"`
	Note    string  `parquet:"note"`
	Region  string  `parquet:"region"`
}

// tenColumnsParquet writes the rows of tenColumns as Parquet (times as
// TIMESTAMP(MICROS), props with their own types).
func tenColumnsParquet(tb testing.TB, n int) string {
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	kinds := []string{"PAID", "SENT", "CALLED"}
	rows := make([]tenCols, n)
	for i := range rows {
		rows[i] = tenCols{fmt.Sprintf("u%d", i%50000), fmt.Sprintf("u%d", (i*7+1)%50000), (base + int64(i)) * 1e6, kinds[i%3],
			float64(i%1000) + float64(i%100)/100, int64(i % 17), i%2 == 0, fmt.Sprintf("ch%d", i%5), fmt.Sprintf("n%d", i%97), fmt.Sprintf("r%d", i%11)}
	}
	p := filepath.Join(tb.TempDir(), "events.parquet")
	f, err := os.Create(p)
	if err != nil {
		tb.Fatal(err)
	}
	w := parquet.NewGenericWriter[tenCols](f)
	if _, err := w.Write(rows); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	f.Close()
	return p
}

// BenchmarkIngestParquet10Durable is BenchmarkIngestCSV10Durable from
// Parquet.
func BenchmarkIngestParquet10Durable(b *testing.B) {
	n := 500_000
	if testing.Short() {
		n = 50_000
	}
	benchDurable(b, tenColumnsParquet(b, n), n, tabular.Mapping{Src: "src", Dst: "dst", Time: "ts", RelTypeCol: "kind", Props: []string{"*"}})
}

// BenchmarkReadEventsParquet is the read half of
// BenchmarkIngestParquet10Durable.
func BenchmarkReadEventsParquet(b *testing.B) {
	const n = 200_000
	p := tenColumnsParquet(b, n)
	m := tabular.Mapping{Src: "src", Dst: "dst", Time: "ts", RelTypeCol: "kind", Props: []string{"*"}}
	b.ResetTimer()
	cpu0 := cpuTime()
	for range b.N {
		rd, err := tabular.Open(p, "")
		if err != nil {
			b.Fatal(err)
		}
		et, err := tabular.ReadEvents(rd, &m, tabular.Options{})
		rd.Close()
		if err != nil || len(et.Events) != n {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(n)*float64(b.N)/(cpuTime()-cpu0).Seconds(), "events/cpu-s")
}
