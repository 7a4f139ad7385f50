package tgms

import (
	"testing"
	"time"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// BenchmarkWriteDurable measures one-op durable batches (DB.Write: log
// append and fsync, and the ack witness) into a fresh store.
func BenchmarkWriteDurable(b *testing.B) {
	db, err := Open(b.TempDir(), &Options{CheckpointBytes: -1, Logf: func(string, ...any) {}})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	start := time.Now()
	for i := range b.N {
		if _, err := db.Write(bt.AssertNode("n"+itoa(i), "", "", bt.Interval{Start: 0, End: bt.OpenEnd})); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "batches/s")
}

func itoa(i int) string {
	var b [20]byte
	n := len(b)
	for {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			return string(b[n:])
		}
	}
}
