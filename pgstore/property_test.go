package pgstore

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/eventlog"
	"github.com/tgms-go/tgms/internal/pgtest"
	"github.com/tgms-go/tgms/oracle"
	"pgregory.net/rapid"
)

// Random bi-temporal histories (the oracle's: colliding assertions, bulk
// events, retractions, corrections) written through a PostgreSQL store are
// refused exactly where the model store refuses them, and give the model's
// digest: live, after reopening, from the version tables alone, and on a
// replica that followed the writes; Check finds the store clean.
func TestRandomHistoriesMatchModel(t *testing.T) {
	c := pgtest.Shared(t)
	// Each check creates a schema: 30 by default keep the test to seconds;
	// -rapid.checks or RAPID_CHECKS asks for more.
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "rapid.checks" })
	if _, env := os.LookupEnv("RAPID_CHECKS"); !explicit && !env {
		flag.Set("rapid.checks", "30")
		defer flag.Set("rapid.checks", "100")
	}
	ctx := context.Background()
	n := 0
	rapid.Check(t, func(rt *rapid.T) {
		seed := rapid.Uint64().Draw(rt, "seed")
		batches := rapid.IntRange(1, 12).Draw(rt, "batches")
		n++
		url := schemaURL(c, fmt.Sprintf("random_%d", n))
		s, err := Open(ctx, url, Options{Write: true})
		if err != nil {
			rt.Fatal(err)
		}
		defer s.Close()
		rep, err := OpenReplica(ctx, url, ReplicaOptions{Poll: 50 * time.Millisecond})
		if err != nil {
			rt.Fatal(err)
		}
		defer rep.Close()
		m := bt.NewMemStore()
		for i, b := range oracle.RandomHistory(rand.New(rand.NewPCG(seed, 1)), batches) {
			merr := m.Write(b.TT, b.Ops)
			perr := s.Append(ctx, &eventlog.Record{TT: b.TT, Seq: s.Engine().Batches() + 1, Ops: b.Ops})
			var oe *bt.OpError
			if perr != nil && !errors.As(perr, &oe) {
				rt.Fatalf("batch %d: %v", i, perr)
			}
			if (merr == nil) != (perr == nil) {
				rt.Fatalf("batch %d: the model says %v, the PostgreSQL store %v", i, merr, perr)
			}
		}
		want := m.Digest()
		if got := s.Digest(); got != want {
			rt.Fatalf("digest %s, model's %s", got, want)
		}
		s.Close()
		r, err := Open(ctx, url, Options{})
		if err != nil {
			rt.Fatal(err)
		}
		defer r.Close()
		if got := r.Digest(); got != want {
			rt.Fatalf("reopened digest %s, model's %s", got, want)
		}
		if got := tableDigest(t, url); got != want {
			rt.Fatalf("version tables' digest %s, model's %s", got, want)
		}
		wctx, cancel := context.WithTimeout(ctx, visibleWithin)
		defer cancel()
		if err := rep.WaitFor(wctx, r.LastTT()); err != nil {
			rt.Fatal(err)
		}
		if got := rep.Digest(); got != want {
			rt.Fatalf("replica's digest %s, model's %s", got, want)
		}
		if res, err := Check(ctx, url); err != nil || !res.Clean() {
			rt.Fatalf("check: %v %v", err, res.Findings)
		}
	})
}
