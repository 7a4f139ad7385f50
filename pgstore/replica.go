package pgstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/eventlog"
	"github.com/tgms-go/tgms/ops"
)

// Channel is the notification channel on which every batch row announces
// itself ("<schema> <tt>", migrations/0002_notify.sql).
const Channel = "tgms_batches"

// EBehind is the code of a read pinned after the last batch a replica
// has applied.
const EBehind = "E_BEHIND"

// ReplicaOptions tune a Replica.
type ReplicaOptions struct {
	// Poll is how often the replica asks for new batches when no
	// notification came (a store of schema version 1 sends none); 0 means
	// 2 s.
	Poll time.Duration
	// Retry is the longest wait between attempts to reconnect; 0 means 5 s.
	Retry time.Duration
	// Logf, when set, reports losing and regaining the database.
	Logf func(format string, args ...any)
	// Checkpoint, when set, is a file where the replica keeps its read
	// model (the engine's checkpoint format): it starts from it and
	// replays only the batches after it, when it is a prefix of the
	// store's batches (else it builds from the batches). It is written
	// after the initial load and by Close.
	Checkpoint string
}

// Replica is a read model of a PostgreSQL store that follows it: it is
// built from the batches table, then applies every batch committed after,
// in tt order, as notifications (or polls) announce them. It reconnects
// after the database restarts and catches up. Reads pinned after the last
// applied batch are refused (EBehind); a read of the latest belief is
// pinned at the last applied batch, so the answer's as_of_tt reproduces it
// on any replica that has applied as far.
type Replica struct {
	url    string
	schema string
	opt    ReplicaOptions

	mu        sync.RWMutex // readers share it; applying a batch takes it
	eng       *engine.Store
	pl        bt.Planner
	appliedTT atomic.Int64 // eng.LastTT(), readable without mu
	lastSum   int64        // the checksum of the last applied batch (the following goroutine's)
	storeID   [16]byte
	fromCkpt  uint64 // batches the read model started from, out of the checkpoint
	ckptSeq   uint64 // batches in the checkpoint file

	st      sync.Mutex // guards the fields below
	dbTT    bt.Time    // the latest tt the database was seen to hold
	seenAt  time.Time  // when dbTT was read
	up      bool       // connected and listening
	lastErr error      // the last failure to follow (nil when following)
	stopped error      // set when a batch could not be applied: following stopped

	applied chan struct{} // closed and replaced when a batch is applied
	cancel  context.CancelFunc
	done    chan struct{}
}

// Lag is a replica's position against its database.
type Lag struct {
	AppliedTT  bt.Time   `json:"applied_tt"`        // the last batch the replica applied
	DatabaseTT bt.Time   `json:"database_tt"`       // the last batch the database held when last asked
	CheckedAt  time.Time `json:"checked_at"`        // when the database was last asked
	Connected  bool      `json:"connected"`         // connected and listening for new batches
	Error      string    `json:"error,omitempty"`   // why it is not following, when it is not
	Stopped    bool      `json:"stopped,omitempty"` // a batch was refused: it follows no more
	BehindUS   int64     `json:"behind_us"`         // DatabaseTT - AppliedTT (0 when caught up)
}

// OpenReplica builds the read model of the store that url names, verifying
// every batch as Open does, and starts following it. Close stops it.
func OpenReplica(ctx context.Context, url string, opt ReplicaOptions) (*Replica, error) {
	if opt.Poll <= 0 {
		opt.Poll = 2 * time.Second
	}
	if opt.Retry <= 0 {
		opt.Retry = 5 * time.Second
	}
	r := &Replica{url: url, opt: opt, applied: make(chan struct{}), done: make(chan struct{})}
	var base *Base
	if opt.Checkpoint != "" {
		eng, info, err := engine.ReadCheckpoint(opt.Checkpoint)
		switch {
		case err == nil:
			base = &Base{Eng: eng, StoreID: info.StoreID, LastSum: int64(info.Last.CRC)}
			r.fromCkpt = eng.Batches()
		case errors.Is(err, fs.ErrNotExist):
		default:
			r.logf("not using the checkpoint (%v): building the read model from the batches", err)
		}
	}
	s, err := Open(ctx, url, Options{base: base})
	if errors.Is(err, ErrBaseStale) {
		r.logf("not using the checkpoint %s (%v): building the read model from the batches", opt.Checkpoint, err)
		r.fromCkpt = 0
		s, err = Open(ctx, url, Options{})
	}
	if err != nil {
		return nil, err
	}
	r.schema, r.eng, r.storeID, r.lastSum = s.schema, s.eng, s.storeID, s.lastSum
	r.dbTT, r.seenAt = s.eng.LastTT(), time.Now()
	r.appliedTT.Store(s.eng.LastTT())
	s.Close()
	r.ckptSeq = r.fromCkpt
	if opt.Checkpoint != "" && r.eng.Batches() > r.ckptSeq {
		if err := r.SaveCheckpoint(); err != nil {
			r.logf("saving the checkpoint: %v", err)
		}
	}
	fctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	go r.follow(fctx)
	return r, nil
}

// Schema is the PostgreSQL schema the replica follows.
func (r *Replica) Schema() string { return r.schema }

// Read runs fn with a reader pinned at asOf; bitemporal.OpenEnd (or
// MaxBelief) pins it at the last applied batch. A later asOf is refused
// with an *ops.Error of code EBehind: the replica cannot know yet what
// the database believed then.
func (r *Replica) Read(asOf bt.Time, fn func(engine.Reader) error) error {
	r.mu.RLock()
	defer r.mu.RUnlock()
	last := r.eng.LastTT()
	if asOf >= bt.MaxBelief {
		asOf = last
	} else if asOf > last {
		lag := r.Lag()
		return ops.Errorf(EBehind, map[string]any{"path": "/as_of_tt", "applied_tt": last, "database_tt": lag.DatabaseTT,
			"hint": fmt.Sprintf("retry when this replica has caught up, pass as_of_tt <= %d, or omit as_of_tt for the latest belief it holds", last)},
			"as_of_tt %d is after the last batch this replica has applied (tt %d; the database held tt %d when last asked): its answer could still change", asOf, last, lag.DatabaseTT)
	}
	return fn(r.eng.Reader(asOf))
}

// LastTT is the last applied batch's transaction time.
func (r *Replica) LastTT() bt.Time { return r.appliedTT.Load() }

// Stats describes the read model, with the replica's lag.
func (r *Replica) Stats() engine.Stats {
	r.mu.RLock()
	st := r.eng.Stats()
	r.mu.RUnlock()
	l := r.Lag()
	st.Replication = &engine.Replication{AppliedTT: l.AppliedTT, DatabaseTT: l.DatabaseTT, BehindUS: l.BehindUS,
		CheckedAt: l.CheckedAt.UTC().Format(time.RFC3339Nano), Connected: l.Connected, Error: l.Error}
	return st
}

// Card is the dataset card of the read model.
func (r *Replica) Card() *engine.Card {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.eng.Card()
}

// Digest is the read model's store digest.
func (r *Replica) Digest() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.eng.Digest()
}

// Lag reports the replica's position.
func (r *Replica) Lag() Lag {
	applied := r.appliedTT.Load()
	r.st.Lock()
	defer r.st.Unlock()
	l := Lag{AppliedTT: applied, DatabaseTT: max(r.dbTT, applied), CheckedAt: r.seenAt, Connected: r.up}
	l.BehindUS = l.DatabaseTT - applied
	if r.stopped != nil {
		l.Error, l.Stopped = r.stopped.Error(), true
	} else if r.lastErr != nil {
		l.Error = r.lastErr.Error()
	}
	return l
}

// WaitFor blocks until the replica has applied a batch at tt or later, or
// ctx ends.
func (r *Replica) WaitFor(ctx context.Context, tt bt.Time) error {
	for {
		r.st.Lock()
		ch, stopped := r.applied, r.stopped
		r.st.Unlock()
		if r.LastTT() >= tt {
			return nil
		}
		if stopped != nil {
			return stopped
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("waiting for tt %d (applied %d): %w", tt, r.LastTT(), ctx.Err())
		}
	}
}

// Close stops following and, with a checkpoint file, saves the read model
// when it has grown since.
func (r *Replica) Close() error {
	r.cancel()
	<-r.done
	if r.opt.Checkpoint != "" && r.eng.Batches() > r.ckptSeq {
		return r.SaveCheckpoint()
	}
	return nil
}

// FromCheckpoint is how many batches the read model took from the
// checkpoint file when it opened (0: it replayed them all).
func (r *Replica) FromCheckpoint() uint64 { return r.fromCkpt }

// SaveCheckpoint writes the read model to the checkpoint file.
func (r *Replica) SaveCheckpoint() error {
	r.mu.RLock()
	defer r.mu.RUnlock()
	info := engine.CheckpointInfo{StoreID: r.storeID, Last: eventlog.Frame{Seq: r.eng.Batches(), TT: r.eng.LastTT(), CRC: uint32(r.lastSum)}}
	if _, err := r.eng.WriteCheckpoint(r.opt.Checkpoint, info); err != nil {
		return fmt.Errorf("replica checkpoint %s: %w", r.opt.Checkpoint, err)
	}
	r.ckptSeq = r.eng.Batches()
	return nil
}

// follow connects, listens and catches up until ctx ends, reconnecting
// with a growing pause after every failure.
func (r *Replica) follow(ctx context.Context) {
	defer close(r.done)
	pause := 50 * time.Millisecond
	for ctx.Err() == nil {
		err := r.session(ctx)
		if ctx.Err() != nil {
			return
		}
		r.st.Lock()
		wasUp := r.up
		r.up, r.lastErr = false, err
		stopped := r.stopped
		r.st.Unlock()
		if stopped != nil {
			r.logf("stopped following schema %q: %v", r.schema, stopped)
			return
		}
		if wasUp {
			r.logf("lost the database (%v); reconnecting", err)
			pause = 50 * time.Millisecond
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(pause):
		}
		pause = min(2*pause, r.opt.Retry)
	}
}

// session is one connection: LISTEN, catch up, then apply what each
// notification or poll finds, until the connection fails.
func (r *Replica) session(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	conn, _, err := connect(cctx, r.url)
	cancel()
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+Channel); err != nil {
		return err
	}
	// Listening before catching up: no batch falls between the two.
	if err := r.catchUp(ctx, conn); err != nil {
		return err
	}
	r.st.Lock()
	if !r.up && r.lastErr != nil {
		r.logf("following schema %q again at tt %d", r.schema, r.LastTT())
	}
	r.up, r.lastErr = true, nil
	r.st.Unlock()
	for {
		wctx, cancel := context.WithTimeout(ctx, r.opt.Poll)
		n, err := conn.WaitForNotification(wctx)
		cancel()
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case err == nil:
			if t, ok := parseNotice(n.Payload, r.schema); !ok || t <= r.LastTT() {
				continue // another store's batch, one already applied, or not a batch's notice
			}
		case errors.Is(err, context.DeadlineExceeded) && !conn.IsClosed():
			// No notification within Poll: ask anyway.
		default:
			return err
		}
		if err := r.catchUp(ctx, conn); err != nil {
			return err
		}
	}
}

// parseNotice reads a notification's payload, "<schema> <tt>" with tt in
// canonical decimal (as bigint prints), and reports whether it announces
// a batch of schema.
func parseNotice(payload, schema string) (bt.Time, bool) {
	name, tt, ok := strings.Cut(payload, " ")
	if !ok || name != schema {
		return 0, false
	}
	t, err := strconv.ParseInt(tt, 10, 64)
	return t, err == nil && strconv.FormatInt(t, 10) == tt
}

// catchUp applies every batch after the last applied one, in tt order.
// A batch that fails verification or replay stops the replica for good
// (stopped): it keeps answering from what it has, and says why in Lag.
func (r *Replica) catchUp(ctx context.Context, conn *pgx.Conn) error {
	var dbTT bt.Time
	if err := conn.QueryRow(ctx, "SELECT coalesce(max(tt), 0) FROM batches").Scan(&dbTT); err != nil {
		return err
	}
	r.st.Lock()
	r.dbTT, r.seenAt = dbTT, time.Now()
	r.st.Unlock()
	from := r.LastTT()
	if err := r.sameHistory(ctx, conn, dbTT); err != nil {
		var de *DivergedError
		if !errors.As(err, &de) {
			return err // the connection's failure: reconnect
		}
		r.st.Lock()
		r.stopped = err
		close(r.applied)
		r.applied = make(chan struct{})
		r.st.Unlock()
		return err
	}
	if dbTT <= from {
		return nil
	}
	rows, err := conn.Query(ctx, "SELECT tt, seq, source, payload, checksum FROM batches WHERE tt > $1 ORDER BY tt", from)
	if err != nil {
		return err
	}
	var (
		tt, seq, sum int64
		source       string
		payload      []byte
		bad          error
	)
	_, err = pgx.ForEachRow(rows, []any{&tt, &seq, &source, &payload, &sum}, func() error {
		r.mu.Lock()
		err := applyRow(r.eng, &r.pl, tt, seq, source, payload, sum)
		if err == nil {
			r.lastSum = sum
		}
		r.appliedTT.Store(r.eng.LastTT())
		r.mu.Unlock()
		if err != nil {
			bad = fmt.Errorf("schema %q: %w", r.schema, err)
			return bad
		}
		r.st.Lock()
		close(r.applied)
		r.applied = make(chan struct{})
		r.st.Unlock()
		return nil
	})
	if bad != nil {
		r.st.Lock()
		r.stopped = bad
		close(r.applied)
		r.applied = make(chan struct{})
		r.st.Unlock()
		return bad
	}
	return err
}

// sameHistory checks that the database still holds the last batch the
// replica applied, with the same checksum. It does not after a restore
// from a backup older than the replica, or after a crash of a database
// that acknowledged commits it had not made durable: the replica's read
// model is then ahead of, or beside, the database's history, and it
// stops (open it again to rebuild from the database).
func (r *Replica) sameHistory(ctx context.Context, conn *pgx.Conn, dbTT bt.Time) error {
	r.mu.RLock()
	n, last := r.eng.Batches(), r.eng.LastTT()
	r.mu.RUnlock()
	if n == 0 {
		return nil
	}
	var seq, sum int64
	err := conn.QueryRow(ctx, "SELECT seq, checksum FROM batches WHERE tt = $1", last).Scan(&seq, &sum)
	if errors.Is(err, pgx.ErrNoRows) {
		return &DivergedError{Schema: r.schema, AppliedTT: last, DatabaseTT: dbTT, Msg: "the database no longer holds the last batch this replica applied"}
	}
	if err != nil {
		return err
	}
	if uint64(seq) != n || sum != r.lastSum {
		return &DivergedError{Schema: r.schema, AppliedTT: last, DatabaseTT: dbTT, Msg: fmt.Sprintf("the database's batch at tt %d is not the one this replica applied (seq %d, checksum %08x; applied seq %d, checksum %08x)", last, seq, sum, n, r.lastSum)}
	}
	return nil
}

// DivergedError stops a replica whose database's history no longer
// contains what the replica applied.
type DivergedError struct {
	Schema                string
	AppliedTT, DatabaseTT bt.Time
	Msg                   string
}

func (e *DivergedError) Error() string {
	return fmt.Sprintf("schema %q: %s (applied up to tt %d, the database ends at tt %d): it was restored from an older backup or lost commits in a crash; restart this replica to rebuild it from the database", e.Schema, e.Msg, e.AppliedTT, e.DatabaseTT)
}

func (r *Replica) logf(format string, args ...any) {
	if r.opt.Logf != nil {
		r.opt.Logf(format, args...)
	}
}
