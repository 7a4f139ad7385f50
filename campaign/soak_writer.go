package campaign

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"time"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/server"
	"github.com/tgms-go/tgms/server/tools"
)

// soakUIDs is how many node uids the soak workload draws from.
const soakUIDs = 2000

// soakEdge is the edge batch k asserts: its key depends only on the seed
// and k, so a later batch can correct or retract it without state.
func soakEdge(seed uint64, k int) (bt.EdgeKey, bt.Interval) {
	rng := rand.New(rand.NewPCG(seed^0xed9e, uint64(k)))
	key := bt.EdgeKey{Src: fmt.Sprintf("n%d", rng.IntN(soakUIDs)), Dst: fmt.Sprintf("n%d", rng.IntN(soakUIDs)), RelType: "KNOWS", Disc: fmt.Sprintf("d%d", k)}
	return key, bt.Interval{Start: int64(rng.IntN(100)), End: int64(100 + rng.IntN(100))}
}

func soakEdgeRef(seed uint64, k int) bt.Ref {
	key, _ := soakEdge(seed, k)
	return bt.EdgeRef(key)
}

// SoakBatch is batch k (from 1) of the soak workload of seed: a function
// of seed and k alone, so a restarted writer continues where the store
// stopped and the campaign rebuilds the same batches for its oracle. Each
// batch asserts a node version and a new edge, ingests 5 to 24 events,
// corrects an earlier edge one time in three and, every fifth batch,
// retracts the edge of batch k-3 (an edge no batch corrects) inside its
// valid interval. Corrections stay inside the corrected edge's interval.
func SoakBatch(seed uint64, k int) []bt.Op {
	rng := rand.New(rand.NewPCG(seed, uint64(k)))
	uid := fmt.Sprintf("n%d", rng.IntN(soakUIDs))
	ops := []bt.Op{
		bt.AssertNode(uid, "Person", bt.Props(fmt.Sprintf(`{"k":%d}`, k)), bt.Interval{Start: int64(rng.IntN(100)), End: bt.OpenEnd}),
	}
	key, iv := soakEdge(seed, k)
	ops = append(ops, bt.AssertEdge(key, "", iv))
	if k > 1 && rng.IntN(3) == 0 {
		j := 1 + rng.IntN(k-1)
		if j%5 == 2 {
			j-- // edges of batches j = 2 mod 5 are retracted; never correct them
		}
		if j >= 1 {
			_, old := soakEdge(seed, j)
			a := old.Start + rng.Int64N(old.End-old.Start)
			ops = append(ops, bt.Correct(soakEdgeRef(seed, j), bt.Props(fmt.Sprintf(`{"w":%d}`, k)), bt.Interval{Start: a, End: a + 1 + rng.Int64N(old.End-a)}))
		}
	}
	if k%5 == 0 {
		_, old := soakEdge(seed, k-3)
		ops = append(ops, bt.Retract(soakEdgeRef(seed, k-3), old.Start+int64(rng.Int64N(old.End-old.Start))))
	}
	evs := make([]bt.Event, 5+rng.IntN(20))
	for i := range evs {
		evs[i] = bt.Event{Src: fmt.Sprintf("n%d", rng.IntN(soakUIDs)), Dst: fmt.Sprintf("n%d", rng.IntN(soakUIDs)), RelType: "MSG", VtS: int64(1000*k + i)}
	}
	return append(ops, bt.Ingest(evs, "Node"))
}

// soakOptions opens the soak store: the campaigns' fixed clock (batch k
// is written at transaction time k) and no automatic checkpoint (the
// writer takes one every N batches).
func soakOptions() tgms.Options {
	o := StoreOptions(nil)
	o.CheckpointBytes = -1
	return o
}

// SoakWriterConfig configures the soak campaign's writer process.
type SoakWriterConfig struct {
	Dir             string
	Seed            uint64
	HTTP            string        // address of the read-only JSON API the readers call
	Every           time.Duration // pause between batches
	CheckpointEvery int           // batches between checkpoints
	// AckEarly acknowledges each batch before writing it, a pause before
	// the write: a broken writer the campaign must catch.
	AckEarly bool
}

// SoakWriter is the soak campaign's writer process: it opens the store
// (recovering it), prints "ready B DIGEST" with the batches it holds,
// serves the store read-only over HTTP, then appends SoakBatch B+1, B+2,
// ... forever, printing "ack K MICROSECONDS" after each durable write and
// "checkpoint K" after each checkpoint. It returns only on an error; the
// campaign ends it with SIGKILL.
func SoakWriter(ctx context.Context, c SoakWriterConfig, out *os.File) error {
	if c.CheckpointEvery <= 0 {
		c.CheckpointEvery = 100
	}
	db, err := tgms.Open(c.Dir, ptr(soakOptions()))
	if err != nil {
		return err
	}
	defer db.Close()
	done := int(db.Stats().Batches)
	fmt.Fprintf(out, "ready %d %s\n", done, db.Digest())
	svc := tools.New(db, tools.Options{})
	errc := make(chan error, 1)
	go func() { errc <- server.Run(ctx, svc, server.Config{HTTP: c.HTTP}) }()
	for k := done + 1; ; k++ {
		select {
		case err := <-errc:
			return fmt.Errorf("soak writer: the HTTP API stopped: %v", err)
		default:
		}
		ops := SoakBatch(c.Seed, k)
		if c.AckEarly {
			fmt.Fprintf(out, "ack %d 0\n", k)
			time.Sleep(c.Every)
		}
		start := time.Now()
		if _, err := db.Write(ops...); err != nil {
			return fmt.Errorf("soak writer: batch %d: %w", k, err)
		}
		if !c.AckEarly {
			fmt.Fprintf(out, "ack %d %d\n", k, time.Since(start).Microseconds())
		}
		if k%c.CheckpointEvery == 0 {
			if err := db.Checkpoint(); err != nil {
				return fmt.Errorf("soak writer: checkpoint after batch %d: %w", k, err)
			}
			fmt.Fprintf(out, "checkpoint %d\n", k)
		}
		if !c.AckEarly {
			time.Sleep(c.Every)
		}
	}
}
