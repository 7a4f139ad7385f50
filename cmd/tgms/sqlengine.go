package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/pgstore"
	"github.com/tgms-go/tgms/sqlengine"
)

// Engines a call on a PostgreSQL store runs on: the in-memory read model
// built from the batches (native), or SQL against the version tables
// (package sqlengine).
const (
	engineNative = "native"
	engineSQL    = "sql"
)

// pgRead pins a PostgreSQL store's read model as DB.Read pins a file
// store's: at the asked belief time, clamped to the last batch.
type pgRead struct{ s *pgstore.Store }

func (p pgRead) Read(asOf bt.Time, fn func(engine.Reader) error) error {
	return fn(p.s.Engine().Reader(min(asOf, p.s.LastTT())))
}

// pgCall is 'tgms call' on a PostgreSQL store.
func pgCall(cmd *cobra.Command, store, eng, op string, raw map[string]any, timeout time.Duration) error {
	var b ops.Backend
	switch eng {
	case engineSQL:
		e, err := sqlengine.Open(cmd.Context(), store)
		if err != nil {
			return err
		}
		defer e.Close()
		b = e
	case engineNative:
		s, err := openPG(cmd, store, false)
		if err != nil {
			return err
		}
		defer s.Close()
		b = ops.NativeBackend{Src: pgRead{s}}
	default:
		return badInput("--engine %q: the engines are native and sql", eng)
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
	defer cancel()
	env, err := ops.ExecuteOn(ctx, b, op, raw, ops.ExecOptions{Typed: true})
	return printEnvelope(cmd, env, err)
}

// printEnvelope prints a call's envelope, or its refusal as {"error": ...}
// (exit status 2).
func printEnvelope(cmd *cobra.Command, env *ops.Envelope, err error) error {
	if err != nil {
		var oe *ops.Error
		if errors.As(err, &oe) {
			enc := json.NewEncoder(cmd.OutOrStdout())
			enc.SetEscapeHTML(false)
			enc.Encode(map[string]any{"error": oe})
			return inputError{err}
		}
		return err
	}
	b, err := env.Canonical()
	if err != nil {
		return err
	}
	fmt.Fprintln(cmd.OutOrStdout(), string(b))
	return nil
}
