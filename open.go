package tgms

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

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
		db.opt.CheckpointBytes, db.ckptGrow = 64<<20, true
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
	if err := db.resumeErase(); err != nil {
		db.closeFiles()
		return nil, err
	}
	if !db.opt.ReadOnly {
		db.removeStaleTemps()
	}
	if db.opt.image != nil {
		if err := db.logFromCheckpoint(); err != nil {
			db.closeFiles()
			return nil, err
		}
	}
	if db.opt.repair {
		if err := db.moveAsideWitnesses(); err != nil {
			db.closeFiles()
			return nil, err
		}
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
var storeFiles = []string{LogFile, CheckpointFile, SealFile, lockFile, queueFile, "answers.log", "answers.log.torn"}

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
	name     string // file name
	id       eventlog.StoreID
	last     eventlog.Frame
	chain    eventlog.Chain
	hasChain bool
}

func (w *witness) String() string {
	if w == nil {
		return "missing"
	}
	return fmt.Sprintf("store id %s, covers batches 1..%d (log up to byte %d)", w.id, w.last.Seq, w.last.End)
}

func (db *DB) damage(file string, off int64, reason string, err error) error {
	return &DamageError{Dir: db.dir, File: file, Offset: off, Reason: reason, Repair: repairRestore(db.dir), Err: err}
}

// disagree is the refusal when the witnesses (log, checkpoint, seal) do
// not agree: it says what each file says, and how the user chooses.
func (db *DB) disagree(file string, reason string, logSays string, ckpt, seal *witness) error {
	return &DamageError{Dir: db.dir, File: file, Offset: -1, Witnesses: true,
		Reason: fmt.Sprintf("%s (the event log says: %s; the checkpoint: %s; the seal: %s)", reason, logSays, ckpt, seal),
		Repair: repairChoose(db.dir)}
}

func (db *DB) recover() error {
	logPath := filepath.Join(db.dir, LogFile)
	ckptPath := filepath.Join(db.dir, CheckpointFile)
	sealPath := filepath.Join(db.dir, SealFile)
	links := db.opt.AllowSymlinks

	// The checkpoint and the seal. A damaged checkpoint is only a cache
	// (the log and the seal still vote); a damaged seal is a missing
	// witness.
	var ckpt, seal *witness
	store, info, err := engine.ReadCheckpoint(ckptPath)
	var ce *engine.CheckpointError
	var ckptBroken error
	switch {
	case err == nil:
		ckpt = &witness{name: ckptPath, id: info.StoreID, last: info.Last, chain: info.Chain, hasChain: info.HasChain}
	case errors.Is(err, os.ErrNotExist):
	case errors.As(err, &ce):
		ckptBroken = err
	default:
		return fmt.Errorf("open store %s: %w", db.dir, err)
	}
	sl, err := eventlog.ReadSeal(logPath, links)
	var le *eventlog.CorruptionError
	var sealErr error
	switch {
	case err == nil:
		seal = &witness{name: sealPath, id: sl.StoreID, last: sl.Last, chain: sl.Chain, hasChain: sl.Version >= 2}
		db.seal = sl
	case errors.Is(err, eventlog.ErrNoSeal):
	case errors.As(err, &le):
		sealErr = err
	default:
		return fmt.Errorf("open store %s: %w", db.dir, err)
	}

	// The log's header: its store id, and whether its store keeps an ack
	// witness (version 3: then the seal must be there).
	id, version, err := eventlog.ReadHeader(logPath, links)
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
	exists := err == nil
	logSays := fmt.Sprintf("store id %s, format version %d", id, version)
	witnessed := exists && version >= eventlog.WitnessVersion
	if exists {
		if sealErr != nil {
			if witnessed {
				return db.disagree(sealPath, fmt.Sprintf("the seal, the witness of every acknowledged batch, is damaged (%v)", sealErr), logSays, ckpt, nil)
			}
			db.opt.Logf("%v; ignoring the seal (a writable open rewrites it)", sealErr)
		}
		// A log of no records without a seal is a creation interrupted
		// before its seal was written: nothing was acknowledged.
		if witnessed && seal == nil && sealErr == nil && !db.opt.repair && !emptyLog(logPath) {
			return db.disagree(sealPath, "the seal, the witness of every acknowledged batch, is missing, so no one can tell which batches were acknowledged", logSays, ckpt, nil)
		}
		if seal != nil && seal.id != id {
			if db.seal.Parent == id {
				// A copy of the store getting its own id, interrupted after
				// the seal was written: the writer finishes it.
				db.reid = seal.id
			} else {
				return db.disagree(logPath, "the event log and the seal name different stores", logSays, ckpt, seal)
			}
		}
		// A copy's first checkpoint may still name the store it was
		// copied from (its seal's Parent); the chain below still ties it.
		if ckpt != nil && ckpt.id != id && (seal == nil || db.seal.Parent.IsZero() || ckpt.id != db.seal.Parent) {
			return db.disagree(ckptPath, "the checkpoint names another store than the event log", logSays, ckpt, seal)
		}
		if witnessed && ckpt != nil && seal != nil && ckpt.last.End > seal.last.End {
			return db.disagree(sealPath, "the checkpoint covers more of the log than the seal, which every acknowledgement advances: the seal is an older copy", logSays, ckpt, seal)
		}
	}
	if ckptBroken != nil {
		db.opt.Logf("%v; rebuilding from the event log", ckptBroken)
	}
	var acked int64
	var marks []int64
	for _, w := range []*witness{ckpt, seal} {
		if w != nil {
			acked = max(acked, w.last.End)
			marks = append(marks, w.last.End)
		}
	}
	if seal != nil && db.seal.Damaged {
		db.opt.Logf("store %s: one of the two slots of %s is damaged; the other says batch %d was the last acknowledged, and nothing after it is taken for a torn write (a writable open rewrites the seal)", db.dir, sealPath, seal.last.Seq)
		// One slot of the seal is damaged: the newest acknowledgement may
		// be lost with it, so nothing after the other slot may be taken for
		// a torn write.
		if st, err := os.Lstat(logPath); err == nil {
			acked = max(acked, st.Size())
		}
	}
	log, err := eventlog.Open(logPath, eventlog.Options{NoSync: db.opt.NoSync, Logf: db.opt.Logf, ReadOnly: db.opt.ReadOnly, Acked: acked, AllowSymlink: links, Marks: marks,
		Witnessed: witnessed && seal != nil && !db.seal.Damaged && acked > 0})
	if errors.As(err, &le) {
		return db.damage(logPath, le.Offset, le.Reason, err)
	}
	if err != nil {
		return fmt.Errorf("open store %s: %w", db.dir, err)
	}
	db.log = log
	// Each witness's last record must be in the log, exactly, and the
	// records before it the same (the chain).
	for _, w := range []*witness{ckpt, seal} {
		if w == nil || w.last.Seq == 0 {
			continue
		}
		f, ferr := log.FrameAt(w.last.Start)
		if ferr != nil || f != w.last {
			return db.damage(logPath, w.last.Start, fmt.Sprintf("%s says batch %d (tt %d) is the record at this offset, but the log holds %s there: the log was changed after those batches were acknowledged",
				w.name, w.last.Seq, w.last.TT, describeFrame(f, ferr)), ferr)
		}
		if c, ok := log.ChainAt(w.last.End); w.hasChain && (!ok || c != w.chain) {
			return db.disagree(w.name, fmt.Sprintf("%s covers other records than the event log holds before byte %d (their chain digests differ): one of them is an older copy or another store's", w.name, w.last.End), logSays, ckpt, seal)
		}
	}
	from := log.Start()
	if ckpt != nil {
		if ckpt.last.End > from {
			from = ckpt.last.End
		}
		if !info.HasProvenance && ckpt.last.Seq > 0 {
			if err := provenanceFromLog(log, store, ckpt.last.Seq); err != nil {
				return db.damage(logPath, -1, err.Error(), err)
			}
		}
	} else {
		store = engine.New()
	}
	if seal != nil {
		db.sealEnd = seal.last.End
	}
	var planner bt.Planner // each batch is applied before the next is planned
	err = log.Replay(from, func(r *eventlog.Record, end int64) error {
		if r.Image != nil {
			img, err := loadImage(r, store)
			store = img
			return err
		}
		if r.Seq != store.Batches()+1 {
			return fmt.Errorf("record at offset %d has batch seq %d, the store expects %d", end, r.Seq, store.Batches()+1)
		}
		eff, err := planner.Plan(store, r.TT, r.Seq, r.Ops)
		if err != nil {
			return fmt.Errorf("batch %d (tt %d, ending at offset %d) no longer applies: %w", r.Seq, r.TT, end, err)
		}
		prov := r.Provenance()
		eff.Prov = &prov
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
	db.ckptID = eventlog.StoreID{}
	if ckpt != nil {
		db.ckptID = ckpt.id
		if st, err := os.Stat(ckptPath); err == nil {
			db.ckptSize = st.Size()
		}
	}
	if !db.opt.ReadOnly {
		return db.startWitness()
	}
	return nil
}

// loadImage is the store held by a log's store image record r (its first
// record), which must be replayed into an empty store.
func loadImage(r *eventlog.Record, into *engine.Store) (*engine.Store, error) {
	if into.Batches() != 0 {
		return into, fmt.Errorf("a store image of batches 1..%d follows %d batches", r.Seq, into.Batches())
	}
	img, _, err := engine.DecodeImage(r.Image)
	if err != nil {
		return into, err
	}
	if uint64(img.Batches()) != r.Seq || img.LastTT() != r.TT {
		return into, fmt.Errorf("the store image holds %d batches up to tt %d, but its record says batch %d at tt %d", img.Batches(), img.LastTT(), r.Seq, r.TT)
	}
	return img, nil
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

// startWitness makes the seal the ack witness of a writable store: a
// version 2 seal covering the whole log, advanced in place by every group
// commit from now on. It upgrades a version 2 log's header (whose store
// wrote the seal only at checkpoints), and gives a copy of the store
// directory its own store id: the seal records the directory's identity
// (device and inode), and a seal written in another directory means this
// one is a copy (cp -r, a restored backup), whose log must never be taken
// for the original's. The new id is written to the seal first (naming the
// old one as Parent), then to the log header, then to a new checkpoint; an
// open after a crash in between finishes it.
func (db *DB) startWitness() error {
	logPath := db.log.Path()
	cur, err := dirIdentity(db.dir)
	if err != nil {
		return fmt.Errorf("open store %s: %w", db.dir, err)
	}
	id := db.log.ID()
	base := db.seal
	newID, parent := id, base.Parent
	fresh := base.Version < 2 || base.Damaged
	switch {
	case !db.reid.IsZero():
		newID = db.reid
	case !fresh && base.Dir != cur:
		n, err := eventlog.NewStoreID()
		if err != nil {
			return fmt.Errorf("open store %s: %w", db.dir, err)
		}
		db.opt.Logf("store %s: this directory is a copy of store %s (its seal was written in another directory); it gets its own store id %s, so that its log is never taken for the original's", db.dir, id, n)
		newID, parent, fresh = n, id, true
	}
	last := db.log.Last()
	if last.Seq == 0 {
		last = eventlog.Frame{End: db.log.Start()}
	}
	s := eventlog.Seal{StoreID: newID, Parent: parent, Last: last, Chain: db.log.Chain(), Dir: cur, Version: 2}
	if fresh || newID != base.StoreID {
		if err := db.log.Sync(); err != nil {
			return err
		}
		if err := eventlog.WriteSeal(logPath, s); err != nil {
			return err
		}
		db.seal = s
	}
	if newID != id || db.log.Version() < eventlog.WitnessVersion {
		if err := db.log.SetHeader(newID); err != nil {
			return err
		}
	}
	w, err := eventlog.OpenSealWriter(logPath, db.seal, db.opt.NoSync)
	if err != nil {
		return err
	}
	db.sealW = w
	if db.seal.Last != last {
		if err := db.advanceSeal(); err != nil {
			return err
		}
	}
	db.sealEnd = last.End
	if !db.ckptID.IsZero() && db.ckptID != newID {
		return db.checkpointLocked()
	}
	return nil
}

// emptyLog reports whether the log at path is a bare header.
func emptyLog(path string) bool {
	st, err := os.Lstat(path)
	return err == nil && st.Size() <= eventlog.HeaderSize
}

// dirIdentity is the device and inode of dir.
func dirIdentity(dir string) (eventlog.DirID, error) {
	var d eventlog.DirID
	st, err := os.Stat(dir)
	if err != nil {
		return d, err
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return d, nil
	}
	binary.LittleEndian.PutUint64(d[:], uint64(sys.Dev))
	binary.LittleEndian.PutUint64(d[8:], uint64(sys.Ino))
	return d, nil
}

// errCovered stops a log read once the checkpoint's batches are seen.
var errCovered = errors.New("covered")

// provenanceFromLog gives the batches 1..last of a store loaded from a
// checkpoint written before checkpoints held provenance their defaults,
// from the log records (whose provenance such a store never stated): one
// read of the covered log, until the next checkpoint is written.
func provenanceFromLog(log *eventlog.Log, store *engine.Store, last uint64) error {
	err := log.Replay(log.Start(), func(r *eventlog.Record, _ int64) error {
		p := r.Provenance()
		store.SetBatchProvenance(r.Seq, &p)
		if r.Seq >= last {
			return errCovered
		}
		return nil
	})
	if err != nil && !errors.Is(err, errCovered) {
		return fmt.Errorf("reading the provenance of the batches the checkpoint covers: %w", err)
	}
	return nil
}
