package pgstore

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"regexp"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/eventlog"
)

//go:embed schema.sql
var schemaSQL string

// SchemaVersion is the store schema's version, kept in tgms_meta:
// schema.sql is version 1 and migrations/NNNN_*.sql bring it to NNNN. A
// writer migrates an older store; a store of a later version is refused.
const SchemaVersion = 3

// lockClass is the first key of the writer's advisory lock ("tgms"); the
// second is hashtext(schema).
const lockClass = 0x74676d73

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Options tune Open.
type Options struct {
	// Write takes the store's advisory lock (one writer at a time) and
	// creates the schema when it is missing. Without it the store is read
	// only and must exist.
	Write bool
	// Clock returns the current time in µs; a batch's transaction time is
	// max(Clock(), last+1). Nil means the wall clock.
	Clock func() bt.Time
	// Wait is how long a writer waits for another writer to release the
	// store before it fails with a *LockedError. 0 means not at all.
	Wait time.Duration

	schemaUpTo int   // tests: create or migrate the schema only up to this version
	base       *Base // start from this read model instead of an empty one
}

// Base is a read model saved earlier (a replica's local checkpoint): the
// engine of the store's first Batches() batches, the store it belongs
// to and the checksum of its last batch.
type Base struct {
	Eng     *engine.Store
	StoreID [16]byte
	LastSum int64
}

// ErrBaseStale refuses a Base that is not a prefix of the store's
// batches (another store, or a history restored or replaced since).
var ErrBaseStale = errors.New("the saved read model does not belong to this store's batches")

// startFrom checks that b is a prefix of the store's batches and makes it
// the engine to replay the later batches into.
func (s *Store) startFrom(ctx context.Context, tx pgx.Tx, b *Base) error {
	if b.StoreID != s.storeID {
		return fmt.Errorf("%w: it is of store %x, the schema holds store %x", ErrBaseStale, b.StoreID, s.storeID)
	}
	if b.Eng.Batches() == 0 {
		s.eng = b.Eng
		return nil
	}
	var seq, sum int64
	err := tx.QueryRow(ctx, "SELECT seq, checksum FROM batches WHERE tt = $1", b.Eng.LastTT()).Scan(&seq, &sum)
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("%w: the store holds no batch at its last tt %d", ErrBaseStale, b.Eng.LastTT())
	}
	if err != nil {
		return err
	}
	if uint64(seq) != b.Eng.Batches() || sum != b.LastSum {
		return fmt.Errorf("%w: the store's batch at tt %d is seq %d, checksum %08x; it has seq %d, checksum %08x", ErrBaseStale, b.Eng.LastTT(), seq, sum, b.Eng.Batches(), b.LastSum)
	}
	s.eng, s.lastSum = b.Eng, b.LastSum
	return nil
}

// ErrNoStore is returned by a read-only Open of a schema that holds no
// store.
var ErrNoStore = errors.New("no TGMS store in this schema")

// LockedError refuses a writer while another session holds the store's
// advisory lock. It matches tgms.ErrStoreInUse.
type LockedError struct {
	Schema string
	PID    int    // the holder's server process id (0 when it left meanwhile)
	App    string // the holder's application_name
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("store in schema %q is in use by another writer (PostgreSQL backend pid %d, application_name %q); stop it or wait for it to finish", e.Schema, e.PID, e.App)
}

func (e *LockedError) Unwrap() error { return tgms.ErrStoreInUse }

// ChecksumError refuses a batch row whose payload does not match its
// checksum or its columns.
type ChecksumError struct {
	TT  bt.Time
	Msg string
}

func (e *ChecksumError) Error() string {
	return fmt.Sprintf("batch at tt %d is damaged: %s; restore the batches table from a backup", e.TT, e.Msg)
}

// Store is a store in PostgreSQL: the batches table is its log and the
// in-memory engine its read model.
type Store struct {
	conn    *pgx.Conn
	schema  string
	opt     Options
	eng     *engine.Store
	last    bt.Time // clock's last value
	failed  error
	version int      // the store's schema version
	storeID [16]byte // tgms_meta.store_id
	lastSum int64    // the last batch row's checksum, as loaded

	retried bool // lock tried again after its holder left
}

var schemaName = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

// Open connects to the store that url names (see ParseURL), verifies every
// batch and builds the in-memory engine from them.
func Open(ctx context.Context, url string, opt Options) (*Store, error) {
	conn, schema, err := connect(ctx, url)
	if err != nil {
		return nil, err
	}
	s := &Store{conn: conn, schema: schema, opt: opt, eng: engine.New()}
	if err := s.open(ctx); err != nil {
		conn.Close(ctx)
		return nil, err
	}
	return s, nil
}

// connect opens a session in the store's schema (search_path), named
// "tgms pid <pid> on <host>" (application_name).
func connect(ctx context.Context, url string) (*pgx.Conn, string, error) {
	cfg, schema, err := ParseURL(url)
	if err != nil {
		return nil, "", err
	}
	host, _ := os.Hostname()
	cfg.RuntimeParams["application_name"] = fmt.Sprintf("tgms pid %d on %s", os.Getpid(), host)
	cfg.RuntimeParams["search_path"] = schema
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, "", fmt.Errorf("connect to PostgreSQL at %s: %w", Redact(url), err)
	}
	return conn, schema, nil
}

func (s *Store) open(ctx context.Context) error {
	if s.opt.Write {
		if err := s.lock(ctx); err != nil {
			return err
		}
		if err := s.ensureSchema(ctx); err != nil {
			return err
		}
	}
	if err := s.load(ctx); err != nil {
		return err
	}
	if s.opt.Write {
		return s.fillUIDs(ctx)
	}
	return nil
}

// lock takes the writer's advisory lock, held by the session until Close,
// trying again until Options.Wait has passed.
func (s *Store) lock(ctx context.Context) error {
	deadline := time.Now().Add(s.opt.Wait)
	for {
		var ok bool
		if err := s.conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1, hashtext($2))", int32(lockClass), s.schema).Scan(&ok); err != nil {
			return fmt.Errorf("taking the store's advisory lock: %w", err)
		}
		if ok {
			return nil
		}
		if !time.Now().Before(deadline) {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(min(200*time.Millisecond, time.Until(deadline))):
		}
	}
	e := &LockedError{Schema: s.schema}
	err := s.conn.QueryRow(ctx, `SELECT a.pid, coalesce(a.application_name, '')
		FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
		WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
		  AND l.classid::bigint = $1 AND l.objid::bigint = (hashtext($2)::bigint & 4294967295)
		  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
		LIMIT 1`, int64(lockClass), s.schema).Scan(&e.PID, &e.App)
	if errors.Is(err, pgx.ErrNoRows) && !s.retried {
		// The holder left between the two statements: try once more.
		s.retried = true
		return s.lock(ctx)
	}
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("%v (and naming the holder failed: %v)", e, err)
	}
	return e
}

// load verifies the batches in tt order and applies them to a new engine.
func (s *Store) load(ctx context.Context) error {
	tx, err := s.conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	var exists bool
	if err := tx.QueryRow(ctx, "SELECT to_regclass('tgms_meta') IS NOT NULL").Scan(&exists); err != nil {
		return err
	}
	if !exists {
		return fmt.Errorf("schema %q: %w (write to it once, e.g. with tgms ingest, to create one)", s.schema, ErrNoStore)
	}
	var version int
	if err := tx.QueryRow(ctx, "SELECT schema_version, store_id FROM tgms_meta").Scan(&version, &s.storeID); err != nil {
		return fmt.Errorf("schema %q: reading tgms_meta: %w", s.schema, err)
	}
	if version > SchemaVersion {
		return newerSchema(s.schema, version)
	}
	s.version = version
	from := int64(math.MinInt64)
	if b := s.opt.base; b != nil {
		if err := s.startFrom(ctx, tx, b); err != nil {
			return err
		}
		from = b.Eng.LastTT()
	}
	rows, err := tx.Query(ctx, "SELECT tt, seq, source, payload, checksum FROM batches WHERE tt > $1 ORDER BY tt", from)
	if err != nil {
		return err
	}
	var (
		tt, seq, sum int64
		source       string
		payload      []byte
		pl           bt.Planner
	)
	_, err = pgx.ForEachRow(rows, []any{&tt, &seq, &source, &payload, &sum}, func() error {
		if err := applyRow(s.eng, &pl, tt, seq, source, payload, sum); err != nil {
			return err
		}
		s.lastSum = sum
		return nil
	})
	if err != nil {
		return fmt.Errorf("schema %q: %w", s.schema, err)
	}
	if err := checkCounts(ctx, tx, s.schema, s.eng); err != nil {
		return err
	}
	if err := checkUIDs(ctx, tx, s.schema, version, s.eng); err != nil {
		return err
	}
	s.last = s.eng.LastTT()
	return nil
}

// applyRow verifies one batch row, read in tt order, and applies it to eng.
func applyRow(eng *engine.Store, pl *bt.Planner, tt, seq int64, source string, payload []byte, sum int64) error {
	rec, err := verifyRow(tt, seq, source, payload, sum)
	if err != nil {
		return err
	}
	if want := eng.Batches() + 1; rec.Seq != want {
		return &ChecksumError{TT: rec.TT, Msg: fmt.Sprintf("its seq is %d where %d follows in tt order", rec.Seq, want)}
	}
	if rec.TT <= eng.LastTT() {
		return &ChecksumError{TT: rec.TT, Msg: fmt.Sprintf("its tt is not after the previous batch's %d", eng.LastTT())}
	}
	eff, err := pl.Plan(eng, rec.TT, rec.Seq, rec.Ops)
	if err != nil {
		return fmt.Errorf("replaying the batch at tt %d: %w", rec.TT, err)
	}
	prov := rec.Provenance()
	eff.Prov = &prov
	if err := eng.Apply(eff); err != nil {
		return fmt.Errorf("replaying the batch at tt %d: %w", rec.TT, err)
	}
	return nil
}

// checkCounts checks that the version tables hold as many versions as eng,
// read in the same snapshot as eng's batches.
func checkCounts(ctx context.Context, q pgx.Tx, schema string, eng *engine.Store) error {
	var nodes, edges int
	if err := q.QueryRow(ctx, "SELECT (SELECT count(*) FROM node_versions), (SELECT count(*) FROM edge_versions)").Scan(&nodes, &edges); err != nil {
		return err
	}
	if nodes != eng.NumNodeVersions() || edges != eng.NumEdgeVersions() {
		return fmt.Errorf("schema %q: the version tables hold %d node and %d edge versions where the batches give %d and %d; they were changed outside tgms", schema, nodes, edges, eng.NumNodeVersions(), eng.NumEdgeVersions())
	}
	return nil
}

// verifyRow checks a batch row's checksum and that its columns repeat its
// payload, and decodes it.
func verifyRow(tt, seq int64, source string, payload []byte, sum int64) (*eventlog.Record, error) {
	if got := int64(crc32.Checksum(payload, castagnoli)); got != sum {
		return nil, &ChecksumError{TT: tt, Msg: fmt.Sprintf("checksum %08x, payload's is %08x", sum, got)}
	}
	rec, err := eventlog.DecodeRecord(payload)
	if err != nil {
		return nil, &ChecksumError{TT: tt, Msg: err.Error()}
	}
	if rec.TT != tt || rec.Seq != uint64(seq) || rec.Source != source {
		return nil, &ChecksumError{TT: tt, Msg: fmt.Sprintf("its columns (tt %d, seq %d, source %q) disagree with its payload (tt %d, seq %d, source %q)", tt, seq, source, rec.TT, rec.Seq, rec.Source)}
	}
	return &rec, nil
}

// StoreID is the store's id in tgms_meta.
func (s *Store) StoreID() [16]byte { return s.storeID }

// SchemaVersion is the store's schema version in tgms_meta.
func (s *Store) SchemaVersion() int { return s.version }

// Schema is the PostgreSQL schema that holds the store.
func (s *Store) Schema() string { return s.schema }

// Engine is the in-memory read model. It changes with each write: do not
// read it while writing.
func (s *Store) Engine() *engine.Store { return s.eng }

// Digest is the store digest, equal to a file store's with the same batches.
func (s *Store) Digest() string { return s.eng.Digest() }

// Stats describes the store.
func (s *Store) Stats() engine.Stats { return s.eng.Stats() }

// LastTT is the last batch's transaction time.
func (s *Store) LastTT() bt.Time { return s.eng.LastTT() }

// Close releases the writer's lock and ends the session. The lock is
// released explicitly first: a server ends a closed session's backend, and
// so frees its locks, only some time after the client has gone.
func (s *Store) Close() error {
	ctx := context.Background()
	if s.opt.Write && !s.conn.IsClosed() {
		s.conn.Exec(ctx, "SELECT pg_advisory_unlock($1, hashtext($2))", int32(lockClass), s.schema)
	}
	return s.conn.Close(ctx)
}

func (s *Store) tick() bt.Time {
	now := time.Now().UnixMicro()
	if s.opt.Clock != nil {
		now = s.opt.Clock()
	}
	if now <= s.last {
		now = s.last + 1
	}
	s.last = now
	return now
}
