package tgms

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/eventlog"
)

// SealFile is the name of the event log's seal in a store directory.
const SealFile = LogFile + eventlog.SealSuffix

// Open opens the store in dir, creating it if needed, and recovers: it
// checks that the log, checkpoint and seal belong together, loads the
// checkpoint, trims a torn log tail (keeping its bytes aside, with a
// warning), and replays the log after the checkpoint. With
// Options.ReadOnly it opens an existing store without writing anything.
func Open(dir string, opt *Options) (*DB, error) {
	db := &DB{dir: dir}
	if opt != nil {
		db.opt = *opt
	}
	if db.opt.Logf == nil {
		db.opt.Logf = func(format string, args ...any) { fmt.Fprintf(os.Stderr, "tgms: "+format+"\n", args...) }
	}
	if db.opt.CheckpointBytes == 0 {
		db.opt.CheckpointBytes = 64 << 20
	}
	if db.opt.GroupEvents <= 0 {
		db.opt.GroupEvents = 200_000
	}
	if db.opt.ReadOnly {
		if _, err := os.Lstat(filepath.Join(dir, LogFile)); err != nil {
			for _, w := range []string{CheckpointFile, SealFile} {
				if _, serr := os.Lstat(filepath.Join(dir, w)); serr == nil {
					return nil, db.damage(filepath.Join(dir, LogFile), -1, fmt.Sprintf("the event log is missing, but %s is there: the store had acknowledged batches", w), err)
				}
			}
			return nil, fmt.Errorf("open store %s read-only: %w (a read-only open never creates a store)", dir, err)
		}
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("open store %s: %w", dir, err)
	}
	if err := db.checkLinks(); err != nil {
		return nil, err
	}
	lock, err := lockStore(dir, !db.opt.ReadOnly, db.opt.Wait, db.opt.AllowSymlinks)
	if err != nil {
		return nil, err
	}
	db.lock = lock
	if !db.opt.ReadOnly {
		db.removeStaleTemps()
	}
	if err := db.recover(); err != nil {
		db.closeFiles()
		return nil, err
	}
	return db, nil
}

// OpenReadOnly is Open with Options.ReadOnly set.
func OpenReadOnly(dir string, opt *Options) (*DB, error) {
	o := Options{}
	if opt != nil {
		o = *opt
	}
	o.ReadOnly = true
	return Open(dir, &o)
}

// ReadOnly reports whether the store was opened read-only.
func (db *DB) ReadOnly() bool { return db.opt.ReadOnly }

// storeFiles are the files of a store directory that must not be links.
var storeFiles = []string{LogFile, CheckpointFile, SealFile, lockFile}

// checkLinks refuses a store whose files are symbolic links, unless
// Options.AllowSymlinks.
func (db *DB) checkLinks() error {
	if db.opt.AllowSymlinks {
		return nil
	}
	for _, name := range storeFiles {
		p := filepath.Join(db.dir, name)
		if st, err := os.Lstat(p); err == nil && st.Mode()&os.ModeSymlink != 0 {
			return &DamageError{Dir: db.dir, File: p, Offset: -1,
				Reason: "it is a symbolic link, and a store's files are never followed through links (a planted link could redirect writes)",
				Repair: "Replace the link with the file itself, or allow links explicitly (--allow-symlinks, Options.AllowSymlinks) if you made it"}
		}
	}
	return nil
}

// removeStaleTemps deletes temporary files that a crash during a
// checkpoint, seal or log creation left behind. Links are removed, never
// followed.
func (db *DB) removeStaleTemps() {
	n := 0
	for _, pat := range []string{engine.CheckpointTempPattern, eventlog.SealTempPattern, LogFile + eventlog.TempPattern} {
		m, _ := filepath.Glob(filepath.Join(db.dir, pat))
		for _, p := range m {
			if st, err := os.Lstat(p); err == nil && (st.Mode().IsRegular() || st.Mode()&os.ModeSymlink != 0) && os.Remove(p) == nil {
				n++
			}
		}
	}
	if n > 0 {
		db.opt.Logf("store %s: removed %d temporary file(s) left by an interrupted checkpoint or creation", db.dir, n)
	}
}

// witness is what a checkpoint or seal says about the log.
type witness struct {
	name string // file name
	id   eventlog.StoreID
	last eventlog.Frame
}

func (db *DB) damage(file string, off int64, reason string, err error) error {
	return &DamageError{Dir: db.dir, File: file, Offset: off, Reason: reason, Repair: repairRestore(db.dir), Err: err}
}

func (db *DB) recover() error {
	logPath := filepath.Join(db.dir, LogFile)
	ckptPath := filepath.Join(db.dir, CheckpointFile)
	links := db.opt.AllowSymlinks

	// The checkpoint and the seal, each ignored with a warning when damaged.
	var ckpt, seal *witness
	store, info, err := engine.ReadCheckpoint(ckptPath)
	var ce *engine.CheckpointError
	switch {
	case err == nil:
		ckpt = &witness{name: ckptPath, id: info.StoreID, last: info.Last}
	case errors.Is(err, os.ErrNotExist):
	case errors.As(err, &ce):
		db.opt.Logf("%v; rebuilding from the event log", err)
	default:
		return fmt.Errorf("open store %s: %w", db.dir, err)
	}
	sl, err := eventlog.ReadSeal(logPath, links)
	var le *eventlog.CorruptionError
	switch {
	case err == nil:
		seal = &witness{name: filepath.Join(db.dir, SealFile), id: sl.StoreID, last: sl.Last}
	case errors.Is(err, eventlog.ErrNoSeal):
	case errors.As(err, &le):
		db.opt.Logf("%v; ignoring the seal (the next checkpoint rewrites it)", err)
	default:
		return fmt.Errorf("open store %s: %w", db.dir, err)
	}

	// The log's store id decides which of them belong to it.
	id, err := eventlog.ReadID(logPath, links)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if w := firstOf(ckpt, seal); w != nil {
			return db.damage(logPath, -1, fmt.Sprintf("the event log is missing, but %s says batches up to %d were acknowledged", w.name, w.last.Seq), nil)
		}
	case errors.As(err, &le):
		return db.damage(logPath, le.Offset, le.Reason, err)
	case errors.Is(err, eventlog.ErrNotLog):
		return db.damage(logPath, 0, "the file is not a TGMS event log (its header is not one)", err)
	case err != nil:
		return fmt.Errorf("open store %s: %w", db.dir, err)
	}
	if err == nil {
		if seal != nil && seal.id != id {
			if ckpt != nil && ckpt.id == seal.id {
				return db.damage(logPath, 0, fmt.Sprintf("the event log belongs to another store (id %s), while the checkpoint and the seal belong to store %s", id, seal.id), nil)
			}
			db.opt.Logf("store %s: %s belongs to another store (id %s, the log's is %s); ignoring it", db.dir, seal.name, seal.id, id)
			seal = nil
		}
		if ckpt != nil && ckpt.id != id {
			db.opt.Logf("store %s: %s belongs to another store (id %s, the log's is %s); ignoring it and rebuilding from the event log", db.dir, ckpt.name, ckpt.id, id)
			ckpt, store = nil, nil
		}
	}
	var acked int64
	for _, w := range []*witness{ckpt, seal} {
		if w != nil {
			acked = max(acked, w.last.End)
		}
	}
	log, err := eventlog.Open(logPath, eventlog.Options{NoSync: db.opt.NoSync, Logf: db.opt.Logf, ReadOnly: db.opt.ReadOnly, Acked: acked, AllowSymlink: links})
	if errors.As(err, &le) {
		return db.damage(logPath, le.Offset, le.Reason, err)
	}
	if err != nil {
		return fmt.Errorf("open store %s: %w", db.dir, err)
	}
	db.log = log
	// Each witness's last record must be in the log, exactly.
	for _, w := range []*witness{ckpt, seal} {
		if w == nil || w.last.Seq == 0 {
			continue
		}
		f, ferr := log.FrameAt(w.last.Start)
		if ferr != nil || f != w.last {
			return db.damage(logPath, w.last.Start, fmt.Sprintf("%s says batch %d (tt %d) is the record at this offset, but the log holds %s there: the log was changed after those batches were acknowledged",
				w.name, w.last.Seq, w.last.TT, describeFrame(f, ferr)), ferr)
		}
	}
	from := log.Start()
	if ckpt != nil {
		if ckpt.last.End > from {
			from = ckpt.last.End
		}
	} else {
		store = engine.New()
	}
	if seal != nil {
		db.sealEnd = seal.last.End
	}
	var planner bt.Planner // each batch is applied before the next is planned
	err = log.Replay(from, func(r *eventlog.Record, end int64) error {
		if r.Seq != store.Batches()+1 {
			return fmt.Errorf("record at offset %d has batch seq %d, the store expects %d", end, r.Seq, store.Batches()+1)
		}
		eff, err := planner.Plan(store, r.TT, r.Seq, r.Ops)
		if err != nil {
			return fmt.Errorf("batch %d (tt %d, ending at offset %d) no longer applies: %w", r.Seq, r.TT, end, err)
		}
		return store.Apply(eff)
	})
	if errors.As(err, &le) {
		return db.damage(logPath, le.Offset, le.Reason, err)
	}
	if err != nil {
		return fmt.Errorf("open store %s: replaying %s: %w", db.dir, log.Path(), err)
	}
	store.Compact()
	db.store = store
	db.ckptEnd = from
	db.published = store.LastTT()
	db.clockLast = store.LastTT()
	return nil
}

func firstOf(ws ...*witness) *witness {
	for _, w := range ws {
		if w != nil {
			return w
		}
	}
	return nil
}

func describeFrame(f eventlog.Frame, err error) string {
	if err != nil {
		return "no valid record"
	}
	return fmt.Sprintf("batch %d (tt %d, checksum %08x)", f.Seq, f.TT, f.CRC)
}
