package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
)

// interruptedError is the error of a command stopped by SIGINT between
// batches (exit status 130). Its message says what was committed.
type interruptedError struct{ msg string }

func (e interruptedError) Error() string { return e.msg }

// committed describes what a command wrote before it stopped.
type committed struct {
	Batches int
	Events  int64
	LastTT  bt.Time
}

func (c committed) String() string {
	last := "none"
	if c.LastTT != 0 {
		last = bt.FormatBoth(c.LastTT)
	}
	return fmt.Sprintf("%d batches, %d events, last tt %s", c.Batches, c.Events, last)
}

// stopped returns ctx's error as an interruptedError when the context was
// cancelled by SIGINT, describing what was committed; otherwise nil.
func stopped(ctx context.Context, what string, c committed) error {
	if ctx.Err() == nil {
		return nil
	}
	return interruptedError{fmt.Sprintf("interrupted: %s: committed %s", what, c)}
}

// closeDB closes db at the end of a command. A failed close (the
// end-of-command checkpoint, e.g. on a full disk) is printed as a warning,
// since every acknowledged batch is in the log and the next open replays
// what the checkpoint misses; the exit status stays that of the command's
// own work. The error is returned for callers that need a complete store
// (buildStore).
func closeDB(db *tgms.DB, stderr io.Writer) error {
	if err := db.Close(); err != nil {
		fmt.Fprintf(stderr, "tgms: warning: closing store %s: %v; every acknowledged batch is in its log, and the next open replays what the checkpoint misses\n", db.Dir(), err)
		return err
	}
	return nil
}

// buildStore creates the new store target by running fill on a store in a
// temporary directory beside it, and renames that directory to target only
// when fill and the close succeed: a failed or interrupted build leaves
// nothing at target, and the error says so. target must not exist yet (an
// empty directory is allowed and replaced).
func buildStore(ctx context.Context, target string, noSync bool, stderr io.Writer, fill func(db *tgms.DB) error) error {
	if target == "" {
		return usageError{errors.New("--store DIR is required")}
	}
	if fi, err := os.Stat(target); err == nil {
		if !fi.IsDir() {
			return badInput("--store %s is a file, not a store directory", target)
		}
		if ents, err := os.ReadDir(target); err != nil || len(ents) > 0 {
			return badInput("store %s already exists: this command builds a new store; remove it or give another --store", target)
		}
	}
	parent := filepath.Dir(filepath.Clean(target))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return asInput(err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(target)+".building-")
	if err != nil {
		return asInput(err)
	}
	abandon := func(err error) error {
		os.RemoveAll(tmp)
		return fmt.Errorf("%w (nothing was left at %s)", err, target)
	}
	db, err := tgms.Open(tmp, &tgms.Options{NoSync: noSync})
	if err != nil {
		return abandon(classifyOpen(tmp, err))
	}
	if err := fill(db); err != nil {
		db.Close()
		var ir interruptedError
		if errors.As(err, &ir) {
			os.RemoveAll(tmp)
			return interruptedError{ir.msg + " to a temporary store, now removed; nothing was left at " + target}
		}
		return abandon(err)
	}
	if err := closeDB(db, stderr); err != nil {
		return abandon(err)
	}
	if err := os.Rename(tmp, target); err != nil {
		return abandon(fmt.Errorf("moving the new store into place: %w", err))
	}
	return nil
}
