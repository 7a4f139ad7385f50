package campaign

import (
	"fmt"
	"math/rand/v2"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
)

// Workload is a deterministic sequence of batches. Batch k (from 1) is
// written at transaction time k: the store's clock is fixed at 1, so each
// batch gets the previous one's tt plus 1, also across reopening.
type Workload struct {
	Batches [][]bt.Op
	// Groups[i] is how many batches the i-th write commits together.
	Groups []int
	// Digests[b] is the digest of a store holding the first b batches.
	Digests []string
}

// NewWorkload builds n batches from seed, of every op kind, with group
// commits, and the digest of every prefix.
func NewWorkload(seed uint64, n int) (*Workload, error) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	w := &Workload{}
	store := engine.New()
	w.Digests = append(w.Digests, store.Digest())
	var edges []bt.EdgeKey
	for k := 1; k <= n; k++ {
		var ops []bt.Op
		switch r := rng.IntN(10); {
		case r < 3 || len(edges) == 0:
			uid := fmt.Sprintf("n%d", rng.IntN(40))
			ops = append(ops, bt.AssertNode(uid, "Person", bt.Props(fmt.Sprintf(`{"k":%d}`, k)), bt.Interval{Start: int64(rng.IntN(100)), End: bt.OpenEnd}))
			e := bt.EdgeKey{Src: uid, Dst: fmt.Sprintf("n%d", rng.IntN(40)), RelType: "KNOWS", Disc: fmt.Sprintf("d%d", k)}
			ops = append(ops, bt.AssertEdge(e, "", bt.Interval{Start: int64(rng.IntN(100)), End: int64(100 + rng.IntN(100))}))
			edges = append(edges, e)
		case r < 5:
			e := edges[rng.IntN(len(edges))]
			ops = append(ops, bt.Correct(bt.EdgeRef(e), bt.Props(fmt.Sprintf(`{"w":%d}`, k)), bt.Interval{Start: int64(rng.IntN(50)), End: int64(50 + rng.IntN(100))}))
		case r < 6:
			e := edges[rng.IntN(len(edges))]
			ops = append(ops, bt.Retract(bt.EdgeRef(e), int64(rng.IntN(200))))
		default:
			evs := make([]bt.Event, 20+rng.IntN(200))
			for i := range evs {
				evs[i] = bt.Event{Src: fmt.Sprintf("n%d", rng.IntN(40)), Dst: fmt.Sprintf("n%d", rng.IntN(40)), RelType: "MSG", VtS: int64(1000*k + i)}
			}
			ops = append(ops, bt.Ingest(evs, "Node"))
		}
		eff, err := bt.Plan(store, bt.Time(k), uint64(k), ops)
		if err != nil {
			// Keep the workload valid: replace a refused batch by a node.
			ops = []bt.Op{bt.AssertNode(fmt.Sprintf("x%d", k), "", "", bt.Always)}
			if eff, err = bt.Plan(store, bt.Time(k), uint64(k), ops); err != nil {
				return nil, err
			}
		}
		if err := store.Apply(eff); err != nil {
			return nil, err
		}
		w.Batches = append(w.Batches, ops)
		w.Digests = append(w.Digests, store.Digest())
	}
	for left := n; left > 0; {
		g := min(left, 1+rng.IntN(3)*rng.IntN(2)) // mostly 1, sometimes 2 or 3
		w.Groups = append(w.Groups, g)
		left -= g
	}
	return w, nil
}

// StoreOptions are the options every campaign opens its stores with:
// a fixed clock (so transaction times are the batch numbers) and
// checkpoints every kilobyte of log, so the checkpoint and seal paths run
// often.
func StoreOptions(logf func(string, ...any)) tgms.Options {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	return tgms.Options{Clock: func() bt.Time { return 1 }, CheckpointBytes: 1 << 10, Logf: logf}
}

// Run writes the workload into the store at dir, reopening it once halfway,
// and calls ack with the number of batches durable after each write. It
// stops at the first error and returns it.
func (w *Workload) Run(dir string, opt tgms.Options, ack func(batches int)) error {
	return w.run(dir, opt, ack, nil)
}

// run is Run; before, if not nil, is called before each write with the
// number of batches there will be after it.
func (w *Workload) run(dir string, opt tgms.Options, ack, before func(batches int)) error {
	db, err := tgms.Open(dir, &opt)
	if err != nil {
		return err
	}
	done := int(db.Stats().Batches)
	next := 0 // index into Groups
	for b := 0; next < len(w.Groups) && b < done; next++ {
		b += w.Groups[next]
	}
	reopened := false
	for ; next < len(w.Groups); next++ {
		g := w.Groups[next]
		batches := w.Batches[done : done+g]
		if before != nil {
			before(done + g)
		}
		if g == 1 {
			_, err = db.Write(batches[0]...)
		} else {
			_, err = db.WriteBatches(batches)
		}
		if err != nil {
			db.Close()
			return err
		}
		done += g
		ack(done)
		if !reopened && done >= len(w.Batches)/2 {
			reopened = true
			if err := db.Close(); err != nil {
				return err
			}
			if db, err = tgms.Open(dir, &opt); err != nil {
				return err
			}
		}
	}
	return db.Close()
}

// writeUpTo writes the workload's groups into the store at dir until it
// holds at least upto batches. With snap empty it closes the store; else
// it copies the store's files to snap while the store is still open after
// its last acknowledgement (what a writer killed then leaves), and then
// closes it.
func (w *Workload) writeUpTo(dir string, opt tgms.Options, upto int, snap string) error {
	db, err := tgms.Open(dir, &opt)
	if err != nil {
		return err
	}
	done := int(db.Stats().Batches)
	next := 0
	for b := 0; next < len(w.Groups) && b < done; next++ {
		b += w.Groups[next]
	}
	for ; next < len(w.Groups) && done < upto; next++ {
		g := w.Groups[next]
		batches := w.Batches[done : done+g]
		if g == 1 {
			_, err = db.Write(batches[0]...)
		} else {
			_, err = db.WriteBatches(batches)
		}
		if err != nil {
			db.Close()
			return err
		}
		done += g
	}
	if snap != "" {
		if err := copyStore(dir, snap); err != nil {
			db.Close()
			return err
		}
	}
	return db.Close()
}
