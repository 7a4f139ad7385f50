// Package tgms is the embeddable API of TGMS, a bi-temporal temporal-graph
// database: open a store directory, write batches of bi-temporal facts, and
// read them as of any valid time and any past belief (transaction) time.
//
//	db, err := tgms.Open("data/store", nil)
//	tt, err := db.Write(bitemporal.AssertEdge(key, props, valid))
//	err = db.Read(asOf, func(r engine.Reader) error { ... })
//
// A store directory holds the event log (the source of truth, see package
// eventlog), a checkpoint of the in-memory engine (see package engine) so
// that reopening does not replay the whole log, the log's seal (a small
// file saying how far the log reached when it was last closed or
// checkpointed) and a LOCK file.
//
// # Readers and writers
//
// One process at a time may open a store for writing: Open takes an
// exclusive lock. Any number of processes may open it read-only at once
// (Options.ReadOnly, or OpenReadOnly): they take a shared lock, never write
// a byte (no checkpoint, no repair of a torn tail: they read up to the last
// complete record), and see the store as of its last durable batch when
// they opened it. Readers and a writer exclude each other: an open that
// finds the store held fails with an error matching ErrStoreInUse that
// names the holding processes, or waits up to Options.Wait for them.
// Writers are preferred: once a writer waits, new readers wait behind it
// (or are refused at once without a wait), so a writer with a wait gets
// the store against readers that never pause.
//
//	db, err := tgms.OpenReadOnly("data/store", nil) // shared lock
//	defer db.Close()
//	env, err := db.Call(ctx, "entity_history", args)
//
// # Integrity
//
// Every acknowledgement leaves a witness outside the log: the seal,
// advanced in place and fsynced by every group commit before the batches
// are acknowledged (see package eventlog). Open checks that the files
// belong together before it serves anything: the log header's store id
// against the checkpoint's and the seal's, and the last log record each
// covers (offset, batch, transaction time, checksum and the chain digest
// of every record before it) against the log. When they disagree, or the
// seal of a log that keeps one is missing, every open refuses with a
// *DamageError (errors.Is(err, ErrStoreDamaged), Witnesses set) that says
// what each file says; RepairUseLog settles it. A log that is shorter than
// what was acknowledged or damaged at or before the seal's last record is
// refused too, and nothing is changed. Only bytes after the seal's last
// record can be a torn write; they are copied to
// events.wal.broken-<offset> before the writer truncates them. A damaged
// checkpoint (one that fails its own checks) is rebuilt from the log with
// a warning. A copy of the store directory (cp -r) gets its own store id
// on its first writable open, so its log is never taken for the
// original's.
//
// # Erasure
//
// Erase removes a node's contents from every file of the store (log,
// checkpoint, seal chain, saved answers), leaving a tombstone per version
// with the SHA-256 of what it held, so digests and replay still verify;
// files are staged beside the old ones and moved in under a commit marker
// that the next open finishes or discards (see erase.go). Copies outside
// the directory and blocks the file system has not reused are out of its
// reach.
package tgms

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/tgms-go/tgms/ops"
	"path/filepath"
	"slices"
	"sync"
	"time"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/eventlog"
)

// File names inside a store directory.
const (
	LogFile        = "events.wal"
	CheckpointFile = "checkpoint.tgc"
	lockFile       = "LOCK"
)

// ChunkEvents is the number of events per batch of a bulk ingest.
const ChunkEvents = 50_000

// MaxBatchOps is the most ops one batch may hold (an ingest op counts
// once; its events are bounded by ChunkEvents per batch of a bulk
// ingest). Applying or replaying an op costs about 1.7 KB of memory, so a
// batch needs at most about 170 MB.
const MaxBatchOps = 100_000

// Options tune a store. The zero value is what a user wants: durable
// writes, wall-clock transaction times, checkpoints every 64 MiB of log.
type Options struct {
	// NoSync skips fsync: faster, but a machine crash may lose acknowledged
	// batches. For tests and loads that can be redone.
	NoSync bool
	// Clock returns the current time in µs; transaction times are
	// max(Clock(), last+1). Nil means the wall clock.
	Clock func() bt.Time
	// Logf receives warnings (torn log tails trimmed, checkpoints rebuilt).
	// Nil means standard error.
	Logf func(format string, args ...any)
	// CheckpointBytes is how much log may follow the checkpoint before a new
	// one is written. 0 means 64 MiB or the checkpoint's own size, whichever
	// is larger, so the checkpoints a growing store writes add up to a few
	// times its final image rather than to its square; negative means only
	// on Close.
	CheckpointBytes int64
	// GroupEvents bounds how many events a bulk ingest applies before one
	// group commit (one fsync). 0 means 200,000.
	GroupEvents int
	// ReadOnly opens an existing store for reading only: a shared lock,
	// no writes of any kind (see the package documentation).
	ReadOnly bool
	// Wait is how long Open waits for other processes to release the store
	// before it fails with ErrStoreInUse. 0 means not at all.
	Wait time.Duration
	// AllowSymlinks lets the store's files (events.wal, checkpoint.tgc,
	// the seal, LOCK) be symbolic links. By default a store whose files
	// are links is refused, and links are never followed.
	AllowSymlinks bool

	repair bool         // RepairUseLog: move the checkpoint and seal aside first
	kept   *[]string    // RepairUseLog: the names they were kept under
	image  *ImageRepair // RepairUseCheckpoint: rebuild the log from the checkpoint first
}

// DB is an open store. Writes are serialized; any number of readers may
// run concurrently with each other and with a writer that is planning or
// syncing. A reader never sees a batch before it is durable.
type DB struct {
	dir  string
	opt  Options
	lock *storeLock

	wmu sync.Mutex // serializes writers
	mu  sync.RWMutex

	store     *engine.Store
	log       *eventlog.Log
	published bt.Time // last durable transaction time; reads are pinned at or before it
	clockLast bt.Time
	ckptEnd   int64
	ckptSize  int64 // bytes of the checkpoint on disk (0: none)
	ckptGrow  bool  // the checkpoint interval grows with the checkpoint (CheckpointBytes 0)
	bulk      bool  // a bulk ingest is running: it checkpoints once, at its end
	sealEnd   int64 // log offset the seal on disk covers
	seal      eventlog.Seal
	sealW     *eventlog.SealWriter // advances the seal (writable opens)
	reid      eventlog.StoreID     // a new store id whose writing an open must finish
	ckptID    eventlog.StoreID     // the store id the checkpoint on disk names
	failed    error
}

// ErrFailed wraps the error that made a DB refuse further writes: a failed
// log write leaves the on-disk state uncertain until the store is reopened.
var ErrFailed = errors.New("store refuses writes after a log failure; reopen it")

// Dir is the store directory.
func (db *DB) Dir() string { return db.dir }

// LastTT is the transaction time of the last durable batch.
func (db *DB) LastTT() bt.Time {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return db.published
}

func (db *DB) tick() bt.Time {
	now := time.Now().UnixMicro()
	if db.opt.Clock != nil {
		now = db.opt.Clock()
	}
	if now <= db.clockLast {
		now = db.clockLast + 1
	}
	db.clockLast = now
	return now
}

// Write applies ops as one atomic batch and returns its transaction time
// once the batch is durable. A refused batch (*bitemporal.OpError) changes
// nothing.
func (db *DB) Write(ops ...bt.Op) (bt.Time, error) {
	db.wmu.Lock()
	defer db.wmu.Unlock()
	return db.commit(0, "", bt.Batch{Ops: ops})
}

// WriteAt is Write with a caller-chosen transaction time, which must be
// after the last batch's: for replaying or importing logs that carry their
// own transaction times.
func (db *DB) WriteAt(tt bt.Time, ops []bt.Op) error {
	db.wmu.Lock()
	defer db.wmu.Unlock()
	if tt <= db.clockLast {
		return fmt.Errorf("transaction time %d is not after the store's last %d", tt, db.clockLast)
	}
	_, err := db.commit(tt, "", bt.Batch{Ops: ops})
	return err
}

// commit plans, logs durably, applies and publishes one batch with its
// ingest source text (empty: none). tt 0 is a new write at the clock's time.
func (db *DB) commit(tt bt.Time, source string, b bt.Batch) (bt.Time, error) {
	ops := b.Ops
	if db.opt.ReadOnly {
		return 0, ErrReadOnly
	}
	if db.failed != nil {
		return 0, db.failed
	}
	fix := tt == 0 // a new write, not a replay of a logged batch
	if fix {
		tt = db.tick()
	} else {
		db.clockLast = tt
	}
	if len(ops) > MaxBatchOps {
		return 0, fmt.Errorf("the batch has %d ops, over the limit of %d per batch (MaxBatchOps): split it into several batches", len(ops), MaxBatchOps)
	}
	seq := db.store.Batches() + 1
	var pl bt.Planner
	eff, ops, err := db.plan(&pl, tt, seq, ops, fix)
	if err != nil {
		return 0, err
	}
	rec := &eventlog.Record{TT: tt, Seq: seq, Ops: ops, Source: source, Prov: b.Prov, Override: b.Override}
	prov := rec.Provenance()
	eff.Prov = &prov
	if _, err := db.log.Append(rec); err != nil {
		db.failed = fmt.Errorf("%w: %v", ErrFailed, err)
		return 0, db.failed
	}
	if err := db.advanceSeal(); err != nil {
		db.failed = fmt.Errorf("%w: %v", ErrFailed, err)
		return 0, db.failed
	}
	db.mu.Lock()
	err = db.store.Apply(eff)
	if err == nil {
		db.published = tt
	}
	db.mu.Unlock()
	if err != nil {
		db.failed = fmt.Errorf("%w: %v", ErrFailed, err)
		return 0, db.failed
	}
	db.maybeCheckpoint()
	return tt, nil
}

// IngestResult describes a finished bulk ingest.
type IngestResult struct {
	Events   int
	Batches  int
	FirstSeq uint64 // batch k (from 0) of the ingest has sequence number FirstSeq+k
	FirstTT  bt.Time
	LastTT   bt.Time
}

// Ingest bulk-loads events in batches of ChunkEvents, with group commit:
// several batches are applied, then logged with one fsync, then published
// together; the next group is planned and applied in memory (unpublished)
// while the previous one is logged, and each batch's log record is encoded
// on a second goroutine. ack, if not nil, is called after each group is
// durable with the number of events durable so far and the group's last
// transaction time.
//
// Every node's first version starts at its earliest event whatever the
// order of the input: input of more than one batch that is not sorted by
// vt_s is written sorted (stably; the store-assigned discriminators
// #<batch>.<n> then number the events in that order, while the events of
// a one-batch ingest keep their input positions). An event from before
// every version the store already believes of its endpoint corrects that
// node's start (see bitemporal.Planner.NodeStartCorrections).
//
// Every event is validated before anything is written, so malformed input
// leaves the store unchanged. If writing fails midway (a full disk, say),
// the batches acknowledged so far stay, and the error says how many.
func (db *DB) Ingest(events []bt.Event, nodeLabel string, ack func(done int, tt bt.Time)) (IngestResult, error) {
	return db.ingest(context.Background(), events, nodeLabel, nil, ack)
}

// ingest is Ingest; src, when not nil, gives each batch's source text
// from its index and the number of batches. It stops between group commits
// once ctx is done: what was committed stays, the result counts it, and the
// error wraps ctx.Err().
func (db *DB) ingest(ctx context.Context, events []bt.Event, nodeLabel string, src func(k, n int) string, ack func(done int, tt bt.Time)) (IngestResult, error) {
	chunks := chunkOps(events, nodeLabel)
	if err := validateChunks(chunks); err != nil {
		return IngestResult{}, err
	}
	if err := db.checkNewIdentities(events); err != nil {
		return IngestResult{}, err
	}
	if sorted := inTimeOrder(events); len(sorted) > 0 && &sorted[0] != &events[0] {
		chunks = chunkOps(sorted, nodeLabel)
	}
	return db.writeChunks(ctx, chunks, src, ack)
}

// writeChunks writes validated batches, each an ingest op, with group
// commit (see writeGroups); src, when not nil, gives each batch's source
// text from its index and the number of batches.
func (db *DB) writeChunks(ctx context.Context, chunks [][]bt.Op, src func(k, n int) string, ack func(done int, tt bt.Time)) (IngestResult, error) {
	var sources []string
	if src != nil {
		for k := range chunks {
			sources = append(sources, src(k, len(chunks)))
		}
	}
	db.wmu.Lock()
	defer db.wmu.Unlock()
	return db.writeGroups(ctx, listFeed(chunks, sources, db.perGroup()), ack)
}

// inTimeOrder returns events in non-decreasing vt_s order: events itself
// when it is in that order already, else a sorted copy (a stable sort, so
// events with equal times keep their input order). A bulk ingest of more
// than one batch writes events in this order, so the batch that first
// names a node holds its earliest event and the node's version starts
// there, whatever the order of the input's lines. (Within one batch the
// ingest op itself starts each node at its earliest event.)
func inTimeOrder(events []bt.Event) []bt.Event {
	if len(events) <= ChunkEvents {
		return events
	}
	for i := 1; i < len(events); i++ {
		if events[i].VtS < events[i-1].VtS {
			sorted := slices.Clone(events)
			slices.SortStableFunc(sorted, func(a, b bt.Event) int { return cmp.Compare(a.VtS, b.VtS) })
			return sorted
		}
	}
	return events
}

// checkNewIdentities refuses events with explicit discriminators that
// repeat within the input or name existing edges, before anything is
// written: bulk ingest only creates identities.
func (db *DB) checkNewIdentities(events []bt.Event) error {
	var seen map[bt.EdgeKey]int
	db.mu.RLock()
	defer db.mu.RUnlock()
	for i := range events {
		e := &events[i]
		if e.Disc == "" {
			continue
		}
		if seen == nil {
			seen = map[bt.EdgeKey]int{}
		}
		k := bt.EdgeKey{Src: e.Src, Dst: e.Dst, RelType: e.RelType, Disc: e.Disc}
		if j, dup := seen[k]; dup {
			return &bt.OpError{Code: bt.CodeConflict, Kind: bt.OpIngest, Event: i, Field: "disc", Msg: fmt.Sprintf("edge %s→%s %s disc %q repeats event %d; each event must be a new edge", e.Src, e.Dst, e.RelType, e.Disc, j)}
		}
		seen[k] = i
		if db.store.EdgeKnown(k) {
			return &bt.OpError{Code: bt.CodeConflict, Kind: bt.OpIngest, Event: i, Field: "disc", Msg: fmt.Sprintf("edge %s→%s %s disc %q already exists; bulk ingest only creates new edges", e.Src, e.Dst, e.RelType, e.Disc)}
		}
	}
	return nil
}

// WriteBatches writes several batches with group commit (one fsync for
// all) and returns how many were committed. Each batch is atomic on its
// own; when one is refused, the batches before it are committed and the
// error names the refused one.
func (db *DB) WriteBatches(batches [][]bt.Op) (int, error) {
	db.wmu.Lock()
	defer db.wmu.Unlock()
	_, _, err := db.commitGroup(batches)
	if ge := (*groupError)(nil); errors.As(err, &ge) {
		return ge.index, err
	}
	if err != nil {
		return 0, err
	}
	return len(batches), nil
}

type groupError struct {
	index int
	err   error
}

func (e *groupError) Error() string { return fmt.Sprintf("batch %d: %v", e.index, e.err) }
func (e *groupError) Unwrap() error { return e.err }

// commitGroup plans and applies batches in memory (unpublished: readers
// are pinned at or before db.published), logs them with one fsync, then
// publishes them. A refused batch stops the group: the batches before it
// are committed, and a *groupError names it.
func (db *DB) commitGroup(batches [][]bt.Op) (first, last bt.Time, err error) {
	return db.commitSourced(new(bt.Planner), batches, nil, nil)
}

// commitSourced is commitGroup with a source text per batch (nil: none),
// planned with pl, and caller-chosen transaction times (nil: the clock's;
// the caller checks they increase and follow the store's last).
func (db *DB) commitSourced(pl *bt.Planner, batches [][]bt.Op, sources []string, tts []bt.Time) (first, last bt.Time, err error) {
	return db.commitProv(pl, batches, sources, nil, tts)
}

// plan plans one batch against the store. With fix, a new batch whose
// bulk-ingested events precede their endpoints' believed validity gets the
// corrections that start those nodes at the events in front of its ops
// (see bitemporal.Planner.NodeStartCorrections), and is planned again;
// plan returns the ops to log. A replayed batch (fix false) is planned as
// it was logged.
func (db *DB) plan(pl *bt.Planner, tt bt.Time, seq uint64, ops []bt.Op, fix bool) (*bt.Effect, []bt.Op, error) {
	eff, err := pl.Plan(db.store, tt, seq, ops)
	if err != nil || !fix {
		return eff, ops, err
	}
	if starts := pl.NodeStartCorrections(db.store); len(starts) > 0 {
		ops = append(starts, ops...)
		if eff, err = pl.Plan(db.store, tt, seq, ops); err != nil {
			return nil, nil, fmt.Errorf("planning the batch with the corrections that start %d nodes at their earliest events: %w", len(starts), err)
		}
	}
	return eff, ops, nil
}

func (db *DB) maybeCheckpoint() {
	if !db.bulk && db.opt.CheckpointBytes > 0 && db.log.End()-db.ckptEnd >= db.checkpointAfter() {
		if err := db.checkpointLocked(); err != nil {
			db.opt.Logf("checkpoint failed (the event log still has everything): %v", err)
		}
	}
}

// checkpointAfter is how much log may follow the checkpoint before
// maybeCheckpoint writes a new one (see Options.CheckpointBytes).
func (db *DB) checkpointAfter() int64 {
	if db.ckptGrow {
		return max(db.opt.CheckpointBytes, db.ckptSize)
	}
	return db.opt.CheckpointBytes
}

// Checkpoint writes a checkpoint now, so the next Open replays nothing.
func (db *DB) Checkpoint() error {
	db.wmu.Lock()
	defer db.wmu.Unlock()
	return db.checkpointLocked()
}

func (db *DB) checkpointLocked() error {
	if db.opt.ReadOnly {
		return ErrReadOnly
	}
	if db.failed != nil {
		return db.failed
	}
	// The checkpoint says these records were acknowledged: with NoSync
	// they (and the seal) must reach the disk first.
	if err := db.log.Sync(); err != nil {
		return err
	}
	if db.opt.NoSync && db.sealW != nil {
		if err := db.sealW.Sync(); err != nil {
			return err
		}
	}
	last := db.log.Last()
	if last.Seq == 0 {
		last = eventlog.Frame{End: db.log.Start()}
	}
	db.mu.Lock()
	db.store.Compact()
	db.mu.Unlock()
	db.mu.RLock()
	size, err := db.store.WriteCheckpoint(filepath.Join(db.dir, CheckpointFile), engine.CheckpointInfo{StoreID: db.log.ID(), Last: last, Chain: db.log.Chain(), HasChain: true})
	db.mu.RUnlock()
	if err != nil {
		return err
	}
	db.ckptEnd, db.ckptSize = last.End, size
	db.ckptID = db.log.ID()
	return nil
}

// advanceSeal records the log's last record in the seal, the ack
// witness, and fsyncs it: every group commit calls it after the log's
// fsync and before the batches are acknowledged, and it does not depend on
// a checkpoint succeeding.
func (db *DB) advanceSeal() error {
	last := db.log.Last()
	if db.sealW == nil || last.Seq == 0 || last.End <= db.sealEnd {
		return nil
	}
	s := db.seal
	s.Last, s.Chain = last, db.log.Chain()
	if err := db.sealW.Advance(s); err != nil {
		return err
	}
	db.seal, db.sealEnd = s, last.End
	return nil
}

// Read runs fn with a reader pinned at asOf (bitemporal.OpenEnd: the latest
// durable belief). Writers may commit concurrently; fn never sees them.
func (db *DB) Read(asOf bt.Time, fn func(r engine.Reader) error) error {
	db.mu.RLock()
	defer db.mu.RUnlock()
	if asOf > db.published {
		asOf = db.published
	}
	return fn(db.store.Reader(asOf))
}

// Stats summarizes the store at its latest durable belief.
func (db *DB) Stats() engine.Stats {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return db.store.Stats()
}

// Digest is the store digest over every version (see bitemporal.Digester).
func (db *DB) Digest() string {
	db.wmu.Lock() // no unpublished batches while hashing
	defer db.wmu.Unlock()
	db.mu.RLock()
	defer db.mu.RUnlock()
	return db.store.Digest()
}

// Close writes a checkpoint if the log has grown since the last one, and
// releases the store.
func (db *DB) Close() error {
	db.wmu.Lock()
	defer db.wmu.Unlock()
	if db.log == nil {
		return nil
	}
	var err error
	switch {
	case db.opt.ReadOnly || db.failed != nil:
	case db.log.End() > db.ckptEnd:
		err = db.checkpointLocked()
	}
	if cerr := db.closeFiles(); err == nil {
		err = cerr
	}
	return err
}

func (db *DB) closeFiles() error {
	var err error
	if db.sealW != nil {
		if db.opt.NoSync && db.failed == nil {
			err = db.sealW.Sync()
		}
		if cerr := db.sealW.Close(); err == nil {
			err = cerr
		}
		db.sealW = nil
	}
	if db.log != nil {
		if cerr := db.log.Close(); err == nil {
			err = cerr
		}
		db.log = nil
	}
	db.lock.release()
	db.lock = nil
	return err
}

// Call runs one operator (see package ops) against the store and returns
// its envelope: the payload, the belief time it was pinned at, and the
// payload's digest.
func (db *DB) Call(ctx context.Context, op string, args map[string]any) (*ops.Envelope, error) {
	return ops.Execute(ctx, db, op, args)
}

// CallWith is Call with options (see ops.ExecOptions): a caller that only
// encodes the envelope (Envelope.Canonical) passes Typed and skips
// building row maps; the bytes and digests are the same.
func (db *DB) CallWith(ctx context.Context, op string, args map[string]any, opt ops.ExecOptions) (*ops.Envelope, error) {
	return ops.ExecuteWith(ctx, db, op, args, opt)
}

// Card describes the dataset (see engine.Card): its currently believed
// versions.
func (db *DB) Card() *engine.Card {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return db.store.Card()
}
