package main

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/pgstore"
	"github.com/tgms-go/tgms/server/tools"
	"github.com/tgms-go/tgms/sqlengine"
)

// A served PostgreSQL store is a read replica (pgstore.Replica): it
// answers from its in-memory read model and follows the batches that any
// writer commits. With --allow-writes the server is also the store's
// writer (it holds the advisory lock), and a write returns once the
// replica has applied it, so the caller reads its own write.

// openServe opens what serve serves: the store, the writer when writes are
// allowed, and what closes them.
func openServe(cmd *cobra.Command, store string, allowWrites bool, ckpt string, logf func(string, ...any)) (tools.Store, tools.Writer, func(), error) {
	if !pgstore.IsURL(store) {
		if ckpt != "" {
			return nil, nil, nil, usageError{errors.New("--replica-checkpoint is for a PostgreSQL store (--store postgres://...): a store directory keeps its own checkpoint")}
		}
		db, err := openForServe(store, allowWrites)
		if err != nil {
			return nil, nil, nil, err
		}
		var w tools.Writer
		if allowWrites {
			w = db
		}
		return db, w, func() { db.Close() }, nil
	}
	r, err := pgstore.OpenReplica(cmd.Context(), store, pgstore.ReplicaOptions{Logf: logf, Checkpoint: ckpt})
	if err != nil {
		return nil, nil, nil, pgOpenError(err)
	}
	closeReplica := func() {
		if err := r.Close(); err != nil {
			logf("%v", err)
		}
	}
	if !allowWrites {
		return r, nil, closeReplica, nil
	}
	w, err := openPG(cmd, store, true)
	if err != nil {
		r.Close()
		return nil, nil, nil, err
	}
	pw := &pgWriter{w: w, r: r}
	return r, pw, func() { w.Close(); closeReplica() }, nil
}

// pgWriter writes through the store's writer and waits for the served
// replica to apply the batch.
type pgWriter struct {
	mu sync.Mutex
	w  *pgstore.Store
	r  *pgstore.Replica
}

func (p *pgWriter) Write(ops ...bt.Op) (bt.Time, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), tools.DefaultDeadline)
	defer cancel()
	tt, err := p.w.Write(ctx, ops...)
	if err != nil {
		return 0, err
	}
	if err := p.r.WaitFor(ctx, tt); err != nil {
		return tt, fmt.Errorf("the batch is committed at tt %d, but this server's replica has not applied it: %w", tt, err)
	}
	return tt, nil
}

// pgOpenError classifies a failure to open a PostgreSQL store.
func pgOpenError(err error) error {
	var ce *pgstore.ChecksumError
	if errors.As(err, &ce) {
		return fmt.Errorf("%w: %v", tgms.ErrStoreDamaged, err)
	}
	return err
}

// redactStore is a --store argument as it may be printed.
func redactStore(store string) string {
	if pgstore.IsURL(store) {
		return pgstore.Redact(store)
	}
	return store
}

// openServeSQL opens a PostgreSQL store for 'serve --engine sql': no read
// replica, the operators and plans run through the SQL engine.
func openServeSQL(cmd *cobra.Command, store, eng string, allowWrites bool, ckpt string, opt *tools.Options) (tools.Store, func(), error) {
	if eng != engineSQL {
		return nil, nil, badInput("--engine %q: the engines are native and sql", eng)
	}
	if !pgstore.IsURL(store) {
		return nil, nil, usageError{fmt.Errorf("--engine sql runs on a PostgreSQL store (--store postgres://...), not on %s", store)}
	}
	if allowWrites || ckpt != "" {
		return nil, nil, usageError{errors.New("--engine sql serves read-only and keeps no read model: drop --allow-writes and --replica-checkpoint (or serve with --engine native)")}
	}
	e, err := sqlengine.Open(cmd.Context(), store)
	if err != nil {
		return nil, nil, err
	}
	opt.Backend, opt.BackendOps = e, sqlengine.Supported()
	return e, func() { e.Close() }, nil
}
