package tgms

import (
	"errors"
	"fmt"
	"strings"
)

// ErrStoreInUse is matched (errors.Is) by the error Open returns when
// another process holds the store: a writer for any open, readers for a
// writable open. The error is an *InUseError naming the holders.
var ErrStoreInUse = errors.New("store in use")

// ErrStoreDamaged is matched (errors.Is) by the error Open and Check return
// when the store's files are damaged or do not belong together: the error
// is a *DamageError naming the file and byte offset.
var ErrStoreDamaged = errors.New("store damaged")

// ErrReadOnly is returned by writes to a store opened with
// Options.ReadOnly.
var ErrReadOnly = errors.New("store is open read-only")

// InUseError says who holds a store.
type InUseError struct {
	Dir     string
	Write   bool     // the open that failed wanted to write
	Holders []string // one line per holding process: "pid 123 (tgms ingest ...) since ..."
}

func (e *InUseError) Error() string {
	who := "another process"
	if len(e.Holders) > 0 {
		who = strings.Join(e.Holders, "; ")
	}
	want := "read"
	if e.Write {
		want = "write to"
	}
	return fmt.Sprintf("store %s is in use by %s, so it cannot be opened to %s now: wait for it to finish, or pass --wait (Options.Wait) to wait for it", e.Dir, who, want)
}

// Is makes errors.Is(err, ErrStoreInUse) true.
func (e *InUseError) Is(target error) bool { return target == ErrStoreInUse }

// DamageError reports store files that are damaged, missing or mixed up
// with another store's. Nothing was changed; Repair says what to do.
type DamageError struct {
	Dir    string
	File   string // the file at fault (a path inside Dir)
	Offset int64  // byte offset in File, -1 when not about one place
	Reason string
	Repair string
	Err    error // the underlying error, if any (an *eventlog.CorruptionError, say)
	// Witnesses reports that the log, checkpoint and seal disagree (or
	// one is missing): writes are blocked until 'tgms check --repair'
	// chooses which to keep.
	Witnesses bool
}

func (e *DamageError) Error() string {
	at := ""
	if e.Offset >= 0 {
		at = fmt.Sprintf(" at byte offset %d", e.Offset)
	}
	return fmt.Sprintf("store %s is damaged: %s%s: %s. %s", e.Dir, e.File, at, e.Reason, e.Repair)
}

// Is makes errors.Is(err, ErrStoreDamaged) true.
func (e *DamageError) Is(target error) bool { return target == ErrStoreDamaged }

// Unwrap returns the underlying error.
func (e *DamageError) Unwrap() error { return e.Err }

// repairRestore is the usual remedy for damage to acknowledged data.
func repairRestore(dir string) string {
	return fmt.Sprintf("Nothing was changed. Keep the files as they are, run 'tgms check --store %s' for the full list of findings, and restore the store from a backup", dir)
}

// repairChoose is the remedy when the witnesses disagree.
func repairChoose(dir string) string {
	return fmt.Sprintf("Nothing was changed, and no read or write will use the store until you choose: "+
		"'tgms check --store %s --repair --use-log' keeps the event log, the source of truth (the checkpoint and seal are kept aside as *.broken-<time> and rebuilt from it); "+
		"if the log is the wrong one, restore it from a backup instead. Run 'tgms check --store %s' first for every finding", dir, dir)
}
