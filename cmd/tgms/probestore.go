package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/eval"
)

// A task suite's correction probes are written into a copy of the user's
// store, never into the store itself: 'tgms tasks' replays the store's log
// into a private copy (a temporary directory, or --probe-store DIR when the
// copy should be kept) and generates there; the suite records the digest
// of the original, the probes and the digest of the copy. The probes'
// transaction times follow the store's last batch in fixed steps
// (eval.ProbeTTStep), so the same store and seed give a byte-identical
// suite. The eval
// commands, given the original, rebuild the copy the same way (replay,
// then the probes at their recorded transaction times) and check that it
// reaches the recorded digest, so gold and answers come from the same
// store.

// storeCopy is a copy of a store being worked on; done closes it and, for
// a temporary copy, removes it.
type storeCopy struct {
	db   *tgms.DB
	done func() error
}

// copyStore replays src's log into a new store in a temporary directory,
// removed by done.
func copyStore(ctx context.Context, src *tgms.DB, stderr io.Writer) (*storeCopy, error) {
	tmp, err := os.MkdirTemp("", "tgms-probes-")
	if err != nil {
		return nil, err
	}
	db, err := tgms.Open(filepath.Join(tmp, "store"), &tgms.Options{NoSync: true, Logf: func(string, ...any) {}})
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	var done committed
	if err := replayLog(ctx, filepath.Join(src.Dir(), tgms.LogFile), db, &done); err != nil {
		db.Close()
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("copying store %s for the correction probes: %w", src.Dir(), err)
	}
	return &storeCopy{db: db, done: func() error {
		err := db.Close()
		os.RemoveAll(tmp)
		return err
	}}, nil
}

// suiteStore opens the store a suite's gold was computed on, given the
// store the user named: that store itself when its digest is the suite's
// (or the suite predates recording it), or a temporary copy with the
// suite's probes re-applied when it is the store the suite was generated
// from. Any other store is refused: its answers would be scored against
// gold from different data.
func suiteStore(ctx context.Context, store string, suite *eval.Suite, suitePath string, stderr io.Writer) (*tgms.DB, func(), error) {
	db, err := openExisting(store)
	if err != nil {
		return nil, nil, err
	}
	closeUser := func() { closeDB(db, stderr) }
	b := suite.Basis
	if b == nil {
		return db, closeUser, nil
	}
	switch digest := db.Digest(); digest {
	case b.Digest:
		return db, closeUser, nil
	case b.BaseDigest:
	default:
		closeUser()
		return nil, nil, badInput("store %s (digest %s) is not the store suite %s was generated from (digest %s, or %s with its %d correction probes): give --store that store",
			store, digest, suitePath, b.BaseDigest, b.Digest, len(b.Probes))
	}
	cp, err := copyStore(ctx, db, stderr)
	closeUser()
	if err != nil {
		return nil, nil, err
	}
	release := func() { cp.done() }
	if err := eval.ApplyProbes(cp.db, b.Probes); err != nil {
		release()
		return nil, nil, err
	}
	if got := cp.db.Digest(); got != b.Digest {
		release()
		return nil, nil, fmt.Errorf("the copy of %s with the %d correction probes of %s has digest %s, not the suite's %s", store, len(b.Probes), suitePath, got, b.Digest)
	}
	return cp.db, release, nil
}
