package tgms

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// RepairUseLog settles a disagreement of a store's witnesses (the event
// log, the checkpoint and the seal) by keeping the event log, the source
// of truth: under the writer's lock, the checkpoint and the seal are
// renamed to <name>.broken-<UTC time> (kept, never deleted), and a
// writable open rebuilds both from the log, which must itself verify. It
// returns the names of the files kept aside. Damage inside the log is not
// repaired: that needs a backup.
func RepairUseLog(dir string, opt *Options) ([]string, error) {
	o := Options{}
	if opt != nil {
		o = *opt
	}
	o.ReadOnly = false
	o.repair = true
	if _, err := os.Lstat(filepath.Join(dir, LogFile)); err != nil {
		return nil, fmt.Errorf("repair %s: %w: there is no event log to keep; restore the store from a backup", dir, err)
	}
	var kept []string
	o.kept = &kept
	db, err := Open(dir, &o)
	if err != nil {
		return kept, err
	}
	if err := db.Checkpoint(); err != nil {
		db.Close()
		return kept, err
	}
	return kept, db.Close()
}

// moveAsideWitnesses renames the checkpoint and the seal to
// <name>.broken-<UTC time> (a numeric suffix if taken) and fsyncs the
// directory; it is the first step of RepairUseLog, run under the lock.
func (db *DB) moveAsideWitnesses() error {
	return db.moveAside(CheckpointFile, SealFile)
}

// moveAside renames each of the store's files names that exists to
// <name>.broken-<UTC time> (a numeric suffix if taken), records the new
// names, and fsyncs the directory.
func (db *DB) moveAside(names ...string) error {
	stamp := time.Now().UTC().Format("20060102T150405Z")
	for _, name := range names {
		p := filepath.Join(db.dir, name)
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			continue
		}
		to := p + ".broken-" + stamp
		for i := 1; ; i++ {
			if _, err := os.Lstat(to); errors.Is(err, os.ErrNotExist) {
				break
			}
			to = fmt.Sprintf("%s.broken-%s.%d", p, stamp, i)
		}
		if err := os.Rename(p, to); err != nil {
			return fmt.Errorf("repair %s: keep %s aside: %w", db.dir, name, err)
		}
		if db.opt.kept != nil {
			*db.opt.kept = append(*db.opt.kept, to)
		}
	}
	return syncDirOf(db.dir)
}

func syncDirOf(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
