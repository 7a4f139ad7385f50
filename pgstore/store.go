package pgstore

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"hash/crc32"
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

// SchemaVersion is the version of schema.sql, kept in tgms_meta. A store
// of a later version is refused.
const SchemaVersion = 1

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
	conn   *pgx.Conn
	schema string
	opt    Options
	eng    *engine.Store
	last   bt.Time // clock's last value
	failed error

	retried bool // lock tried again after its holder left
}

var schemaName = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

// Open connects to the store that url names (see ParseURL), verifies every
// batch and builds the in-memory engine from them.
func Open(ctx context.Context, url string, opt Options) (*Store, error) {
	cfg, schema, err := ParseURL(url)
	if err != nil {
		return nil, err
	}
	host, _ := os.Hostname()
	cfg.RuntimeParams["application_name"] = fmt.Sprintf("tgms pid %d on %s", os.Getpid(), host)
	cfg.RuntimeParams["search_path"] = schema
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to PostgreSQL at %s: %w", Redact(url), err)
	}
	s := &Store{conn: conn, schema: schema, opt: opt, eng: engine.New()}
	if err := s.open(ctx); err != nil {
		conn.Close(ctx)
		return nil, err
	}
	return s, nil
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
	return s.load(ctx)
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

// ensureSchema creates the schema and its tables when missing, and checks
// the schema version.
func (s *Store) ensureSchema(ctx context.Context) error {
	tx, err := s.conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+pgx.Identifier{s.schema}.Sanitize()); err != nil {
		return fmt.Errorf("creating schema %q: %w", s.schema, err)
	}
	if _, err := tx.Exec(ctx, schemaSQL); err != nil {
		return fmt.Errorf("creating the store's tables in schema %q: %w", s.schema, err)
	}
	if _, err := tx.Exec(ctx, "INSERT INTO tgms_meta (schema_version, store_id) VALUES ($1, gen_random_uuid()) ON CONFLICT DO NOTHING", SchemaVersion); err != nil {
		return err
	}
	return tx.Commit(ctx)
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
	if err := tx.QueryRow(ctx, "SELECT schema_version FROM tgms_meta").Scan(&version); err != nil {
		return fmt.Errorf("schema %q: reading tgms_meta: %w", s.schema, err)
	}
	if version > SchemaVersion {
		return fmt.Errorf("schema %q holds a store of schema version %d; this release reads versions up to %d: upgrade tgms", s.schema, version, SchemaVersion)
	}
	rows, err := tx.Query(ctx, "SELECT tt, seq, source, payload, checksum FROM batches ORDER BY tt")
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
		rec, err := verifyRow(tt, seq, source, payload, sum)
		if err != nil {
			return err
		}
		if want := s.eng.Batches() + 1; rec.Seq != want {
			return &ChecksumError{TT: rec.TT, Msg: fmt.Sprintf("its seq is %d where %d follows in tt order", rec.Seq, want)}
		}
		eff, err := pl.Plan(s.eng, rec.TT, rec.Seq, rec.Ops)
		if err != nil {
			return fmt.Errorf("replaying the batch at tt %d: %w", rec.TT, err)
		}
		prov := rec.Provenance()
		eff.Prov = &prov
		if err := s.eng.Apply(eff); err != nil {
			return fmt.Errorf("replaying the batch at tt %d: %w", rec.TT, err)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("schema %q: %w", s.schema, err)
	}
	var nodes, edges int
	if err := tx.QueryRow(ctx, "SELECT (SELECT count(*) FROM node_versions), (SELECT count(*) FROM edge_versions)").Scan(&nodes, &edges); err != nil {
		return err
	}
	if nodes != s.eng.NumNodeVersions() || edges != s.eng.NumEdgeVersions() {
		return fmt.Errorf("schema %q: the version tables hold %d node and %d edge versions where the batches give %d and %d; they were changed outside tgms", s.schema, nodes, edges, s.eng.NumNodeVersions(), s.eng.NumEdgeVersions())
	}
	s.last = s.eng.LastTT()
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
