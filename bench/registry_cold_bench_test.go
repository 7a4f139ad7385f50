package bench

import (
	"context"
	"testing"

	"github.com/tgms-go/tgms/ops"
)

// evictBytes is larger than the machine's last-level cache: writing it
// between calls leaves none of the store's columns or the call's code
// cached, as a peer system's run does before the benchmark's cold run.
const evictBytes = 64 << 20

// BenchmarkRegistryCold is BenchmarkRegistry with the caches emptied
// before every call (a 64 MiB buffer written, untimed): the per-call cost
// of the cache misses the three-system table's cold column measures, in
// ns/op (a harsher eviction than a peer's run: nothing stays cached).
func BenchmarkRegistryCold(b *testing.B) {
	db := registryStore(b)
	qs, err := Registry(db)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	junk := make([]byte, evictBytes)
	for _, q := range qs {
		b.Run(q.ID, func(b *testing.B) {
			typed := ops.ExecOptions{Typed: true}
			if _, err := db.CallWith(ctx, q.Op, q.Args, typed); err != nil {
				b.Fatal(err)
			}
			for i := 0; b.Loop(); i++ {
				b.StopTimer()
				for j := 0; j < len(junk); j += 64 {
					junk[j] = byte(i)
				}
				b.StartTimer()
				if _, err := db.CallWith(ctx, q.Op, q.Args, typed); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
