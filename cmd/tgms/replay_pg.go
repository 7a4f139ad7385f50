package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/eventlog"
	"github.com/tgms-go/tgms/export"
	"github.com/tgms-go/tgms/pgstore"
)

// replay, export and check between the two backends: the batches table of
// a PostgreSQL store is its log, record for record what events.wal holds,
// so a replay in either direction keeps every transaction time and the
// digest.

// batchSource reads the batches of a log file or a PostgreSQL store in
// order.
func batchSource(cmd *cobra.Command, log string) func(fn func(*eventlog.Record) error) error {
	if pgstore.IsURL(log) {
		return func(fn func(*eventlog.Record) error) error { return pgstore.ReadBatches(cmd.Context(), log, fn) }
	}
	return func(fn func(*eventlog.Record) error) error {
		return eventlog.ReadFile(log, func(r *eventlog.Record, _ int64) error { return fn(r) })
	}
}

// pgReplay is replay when the log or the new store is in PostgreSQL. Every
// batch of the source is verified before anything is written, so a
// damaged source writes nothing.
func pgReplay(cmd *cobra.Command, log, store string, noSync bool) error {
	if store == "" {
		return usageError{errors.New("--store DIR or URL is required")}
	}
	if !pgstore.IsURL(log) {
		if _, err := os.Stat(log); err != nil {
			return badInput("replay: --log %s: %v", log, err)
		}
	}
	each := batchSource(cmd, log)
	if err := each(func(*eventlog.Record) error { return nil }); err != nil {
		return inputError{fmt.Errorf("replay %s: %w (nothing was written)", redactStore(log), err)}
	}
	var done committed
	var digest string
	if pgstore.IsURL(store) {
		s, err := openPG(cmd, store, true)
		if err != nil {
			return err
		}
		defer s.Close()
		if n := s.Stats().Batches; n > 0 {
			return badInput("store %s already holds %d batches: replay builds a new store; give a schema that holds none", pgstore.Redact(store), n)
		}
		err = each(func(r *eventlog.Record) error {
			if err := stopped(cmd.Context(), "replay of "+redactStore(log), done); err != nil {
				return err
			}
			if err := s.Append(cmd.Context(), r); err != nil {
				return fmt.Errorf("batch %d (tt %d): %w", r.Seq, r.TT, err)
			}
			done.Batches++
			done.Events += int64(countEvents(r.Ops))
			done.LastTT = r.TT
			return nil
		})
		if err != nil {
			return fmt.Errorf("%w; schema %s holds the %d batches written before (DROP SCHEMA %s CASCADE to start again)", err, s.Schema(), done.Batches, s.Schema())
		}
		digest = s.Digest()
	} else {
		err := buildStore(cmd.Context(), store, noSync, cmd.ErrOrStderr(), func(db *tgms.DB) error {
			err := each(func(r *eventlog.Record) error {
				if err := stopped(cmd.Context(), "replay of "+redactStore(log), done); err != nil {
					return err
				}
				if err := db.WriteAt(r.TT, r.Ops); err != nil {
					return fmt.Errorf("batch %d (tt %d): %w", r.Seq, r.TT, err)
				}
				done.Batches++
				done.Events += int64(countEvents(r.Ops))
				done.LastTT = r.TT
				return nil
			})
			digest = db.Digest()
			return err
		})
		if err != nil {
			return err
		}
	}
	fmt.Fprintf(cmd.OutOrStdout(), "replayed %d batches into %s\ndigest %s\n", done.Batches, redactStore(store), digest)
	return nil
}

// pgExport is export of a PostgreSQL store: its read model's versions and
// its batches as the change log.
func pgExport(cmd *cobra.Command, store, out, format string, at int64) (*export.Summary, error) {
	s, err := openPG(cmd, store, false)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	var eng *engine.Store = s.Engine()
	sum, err := export.WriteFrom(eng, batchSource(cmd, store), out, format, at)
	if err != nil {
		return nil, asInput(err)
	}
	return sum, nil
}

// pgCheck is check of a PostgreSQL store (see pgstore.Check).
func pgCheck(cmd *cobra.Command, store string, asJSON bool) error {
	res, err := pgstore.Check(cmd.Context(), store)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if asJSON {
		if err := printJSON(out, res); err != nil {
			return err
		}
	} else {
		for _, f := range res.Findings {
			fmt.Fprintln(out, f)
		}
	}
	if !res.Clean() {
		return checkFailed{}
	}
	if !asJSON {
		fmt.Fprintf(out, "clean: %d batches, %d node and %d edge versions equal to their replay (schema %s, version %d)\ndigest %s\n",
			res.Batches, res.NodeVersions, res.EdgeVersions, res.Schema, res.SchemaVersion, res.Digest)
	}
	return nil
}
