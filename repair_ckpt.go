package tgms

import (
	"fmt"
	"os"
	"path/filepath"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/eventlog"
)

// ImageRepair is what RepairUseCheckpoint did: the files it kept aside,
// what the rebuilt store holds, and what the old event log held.
type ImageRepair struct {
	Kept    []string // files renamed to *.broken-<time>, never deleted
	StoreID eventlog.StoreID
	Batches uint64  // batches 1..Batches, held by the store image
	TT      bt.Time // the last one's transaction time
	Digest  string  // the store's digest, the checkpoint's
	OldLog  string  // where the replaced event log was kept ("" if there was none)
	OldRead uint64  // batches read from the old log before it ended or failed
	OldErr  string  // why the old log could not be read to its end ("" if it could)
}

// RepairUseCheckpoint settles a disagreement of a store's witnesses by
// keeping the checkpoint: under the writer's lock, the event log, the
// checkpoint and the seal are renamed to <name>.broken-<UTC time> (kept,
// never deleted), and a new event log is written whose first record is a
// store image, the bytes of the checkpoint: the store as of its last
// batch, every version with its transaction times. A writable open then
// rebuilds the seal and the checkpoint from that log, and the store's
// digest is checked to equal the checkpoint's.
//
// What is kept: everything the checkpoint holds (the same digest).
// What is lost from the live store: the batches' ops as separate log
// records (the image stands for them, so 'tgms export' and replays read
// the store, not the ops), the sources of earlier bulk ingests (a repeated
// ingest of the same file is no longer refused), and every batch of the
// old log, which stays in its *.broken-<time> copy for a manual recovery.
// A checkpoint that does not verify, or holds no batch, is refused with
// nothing changed.
func RepairUseCheckpoint(dir string, opt *Options) (*ImageRepair, error) {
	o := Options{}
	if opt != nil {
		o = *opt
	}
	o.ReadOnly = false
	if _, err := os.Lstat(filepath.Join(dir, CheckpointFile)); err != nil {
		return nil, fmt.Errorf("repair %s: %w: there is no checkpoint to keep; choose --use-log, or restore the store from a backup", dir, err)
	}
	rep := &ImageRepair{}
	o.image = rep
	o.kept = &rep.Kept
	db, err := Open(dir, &o)
	if err != nil {
		return rep, err
	}
	if got := db.Digest(); got != rep.Digest {
		db.Close()
		return rep, fmt.Errorf("repair %s: the rebuilt store has digest %s, but the checkpoint's is %s; the files kept aside are unchanged", dir, got, rep.Digest)
	}
	if err := db.Checkpoint(); err != nil {
		db.Close()
		return rep, err
	}
	return rep, db.Close()
}

// logFromCheckpoint is the first step of RepairUseCheckpoint, run under
// the writer's lock before recovery: verify the checkpoint, keep the old
// log aside, write the new log holding the checkpoint as a store image,
// and leave the checkpoint and seal to be moved aside and rebuilt.
func (db *DB) logFromCheckpoint() error {
	rep := db.opt.image
	ckptPath := filepath.Join(db.dir, CheckpointFile)
	logPath := filepath.Join(db.dir, LogFile)
	store, info, err := engine.ReadCheckpoint(ckptPath)
	if err != nil {
		return fmt.Errorf("repair %s: the checkpoint cannot be kept as the truth: %w. Nothing was changed; choose --use-log, or restore the store from a backup", db.dir, err)
	}
	if store.Batches() == 0 {
		return fmt.Errorf("repair %s: the checkpoint holds no batch, so there is nothing of it to keep. Nothing was changed; choose --use-log", db.dir)
	}
	raw, err := readRegular(ckptPath)
	if err != nil {
		return fmt.Errorf("repair %s: %w", db.dir, err)
	}
	rep.StoreID, rep.Batches, rep.TT, rep.Digest = info.StoreID, uint64(store.Batches()), store.LastTT(), store.Digest()
	if _, err := os.Lstat(logPath); err == nil {
		rerr := eventlog.ReadFileImages(logPath, func(r *eventlog.Record, _ int64) error { rep.OldRead = r.Seq; return nil })
		if rerr != nil {
			rep.OldErr = rerr.Error()
		}
		n := len(rep.Kept)
		if err := db.moveAside(LogFile); err != nil {
			return err
		}
		if len(rep.Kept) > n {
			rep.OldLog = rep.Kept[n]
		}
	}
	if _, err := eventlog.CreateFromImage(logPath, info.StoreID, &eventlog.Record{TT: rep.TT, Seq: rep.Batches, Image: raw}); err != nil {
		return fmt.Errorf("repair %s: %w (the old log is kept as %s; run the repair again)", db.dir, err, rep.OldLog)
	}
	db.opt.repair = true // the checkpoint and the seal go aside next
	return nil
}

// readRegular reads a store file that must not be a symbolic link.
func readRegular(path string) ([]byte, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	return os.ReadFile(path)
}
