/*
Package pgstore keeps a store in PostgreSQL: the batches table is the
store's log, the version tables are maintained with it, and the in-memory
engine (package engine) is a read model built from the log. A PostgreSQL
store and a file store built from the same batches have the same digest.

# Addressing

A store is named by a URL, postgres://USER@HOST:PORT/DB?schema=NAME (see
ParseURL). The schema (default "tgms", a lower-case identifier) holds one
store; a database holds any number. Every other parameter is libpq's, and
so is the password's lookup: PGPASSWORD, a password file or a service file
(pgx reads them). Errors print the URL redacted.

# Tables

schema.sql (embedded; run with IF NOT EXISTS by the first writer) defines:

	tgms_meta      one row: schema_version (SchemaVersion, 3), store_id, created_at, uids_pending
	batches        tt PK, seq UNIQUE, source, payload bytea, checksum bigint, written
	node_versions  vid PK, uid, label, props jsonb, vt_s, vt_e, tt_s, tt_e, opened_by, closed_by
	edge_versions  vid PK, src, dst, rel_type, disc, props jsonb, vt_s, vt_e, tt_s, tt_e, opened_by, closed_by
	uids           uid PK, tt: every registered uid and the batch that registered it

A batch row's payload is the batch's record in the encoding of events.wal
(eventlog.AppendRecord, decoded by eventlog.DecodeRecord): type, tt, seq,
source and the ops, byte for byte what the file log frames. checksum is the
payload's CRC-32C (Castagnoli), as the file log's frame has it, stored as a
non-negative bigint. The tt, seq and source columns repeat the payload's.

Times are bigint microseconds (bitemporal.Time); an open end is 2^62.
A version's vid is its position in insertion order over the whole store,
from 0 (the engine's handle); tt_s is the transaction time of the batch
that wrote it, tt_e that of the batch that closed it (2^62 while believed);
opened_by and closed_by are bitemporal.OpKind values (closed_by 0 while
believed). props is the version's property bag (an empty bag is {}).
Store-assigned discriminators are stored spelt out (#<seq>.<n>). The
tables' indexes and the reasons for each are commented in schema.sql, and
so are the Citus distribution columns (node_versions by uid, edge_versions
by src, co-located; batches and tgms_meta as reference tables).

# Schema versions

schema.sql is version 1, frozen as released (testdata/schema_v1.sql);
migrations/NNNN_name.sql brings a store from version NNNN-1 to NNNN. A new
store runs schema.sql and then every migration; a writer that opens an
older store runs the missing migrations and raises schema_version, in one
transaction under its lock. Readers open older versions as they are. A
later version than SchemaVersion is refused by readers and writers.

	2  migrations/0002_notify.sql: the trigger batches_notify on batches
	   sends pg_notify('tgms_batches', '<schema> <tt>') for every batch row,
	   delivered at commit
	3  migrations/0003_uids.sql: the uids table, written with each batch
	   (bitemporal.Effect.NewUIDs). A batch registers every uid it names,
	   also one none of whose versions outlives the batch, so the version
	   tables cannot tell which uids a read as of T knows. A store migrated
	   with batches in it is marked uids_pending until its writer, right
	   after the replay, fills the table from the read model and clears the
	   mark in one transaction; an open checks the table's count against
	   the replay once it is filled

# Replicas

A Replica (OpenReplica) builds the read model as Open does, or from a
local checkpoint file (engine.WriteCheckpoint's format; CheckpointInfo
carries the store_id, and the last batch's seq, tt and checksum) plus the
batches after it, when that batch is still in the table with the same seq
and checksum; otherwise it builds from all the batches. It then LISTENs on
tgms_batches on a session of its own and, on every notification for its
schema (and every ReplicaOptions.Poll without one), reads the batches after
the last applied tt in tt order, verifies each as Open does and applies it.
Before each catch-up it checks that the database still holds its last
applied batch with the same checksum; when it does not (a restore from an
older backup, or commits lost in a crash) it stops with a *DivergedError
and keeps serving what it has. A broken session is retried with a pause
doubling up to ReplicaOptions.Retry. A read pinned after the last applied
tt is refused with an *ops.Error of code EBehind; a read of the latest
belief is pinned at the last applied tt, which the answer records.

# Checking

Check reads the store in one REPEATABLE READ snapshot: it verifies every
batch row (a bad one reported with its tt, later rows still checksummed),
replays them, and compares node_versions and edge_versions row by row
(vid, every column, props as JSON values) and the uids table (uid, tt)
with the replay. ReadBatches
reads the verified batches for replay and export.

# Writing

A writer holds the session-level advisory lock
pg_try_advisory_lock(0x74676d73, hashtext(schema)) until it closes; a
second writer is refused with a *LockedError naming the holder's backend
pid and application_name ("tgms pid <pid> on <host>"), which matches
tgms.ErrStoreInUse. Readers take no lock.

A batch is planned by the same bitemporal planner as a file store's
(bitemporal.Planner, node-start corrections included) against the read
model, then written in one transaction: the batch row, tt_e and closed_by of
the versions it closes, and its new versions (COPY). The batch is
acknowledged when the transaction commits, and only then applied to the
read model. A refused batch writes nothing.

# Opening

Open reads batches in tt order inside one REPEATABLE READ transaction,
verifies each row (checksum, decodable payload, columns equal to the
payload's, seq one more than the previous), refusing the first bad one with
a *ChecksumError naming its tt, replays it into a new engine, and checks
that the version tables hold as many versions as the replay.
*/
package pgstore
