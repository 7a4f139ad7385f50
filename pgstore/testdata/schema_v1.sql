-- TGMS store schema, version 1. Every statement is idempotent (IF NOT
-- EXISTS); the store runs it inside one transaction in its own schema
-- (search_path), before it first writes.
--
-- Times are bigint microseconds (bitemporal.Time); the open end of an
-- interval is 4611686018427387904 (2^62). tt_s and tt_e are batch
-- transaction times, vt_s and vt_e valid times.
--
-- Citus: batches and tgms_meta are small and read whole in tt order: they
-- become reference tables. node_versions is distributed by uid and
-- edge_versions by src (create_distributed_table(..., colocate_with =>
-- 'node_versions')), so that a node's versions and its out-edges live on
-- one shard; each primary key would then lead with the distribution column.

CREATE TABLE IF NOT EXISTS tgms_meta (
	one            boolean PRIMARY KEY DEFAULT true CHECK (one), -- a single row
	schema_version integer NOT NULL,
	store_id       uuid NOT NULL,
	created_at     timestamptz NOT NULL DEFAULT now()
);

-- The log: one row per acknowledged batch. payload is the batch's record
-- exactly as events.wal stores it (eventlog.AppendRecord: type, tt, seq,
-- source, ops), checksum its CRC-32C (Castagnoli) as an unsigned 32-bit
-- value. tt, seq and source repeat the payload's for SQL; a row whose
-- columns disagree with its payload is refused like a wrong checksum.
CREATE TABLE IF NOT EXISTS batches (
	tt       bigint PRIMARY KEY,       -- replay order: Open reads batches ORDER BY tt
	seq      bigint NOT NULL UNIQUE CHECK (seq >= 1),
	source   text NOT NULL DEFAULT '', -- what a bulk ingest loaded ('' when nothing)
	payload  bytea NOT NULL,
	checksum bigint NOT NULL CHECK (checksum BETWEEN 0 AND 4294967295),
	written  timestamptz NOT NULL DEFAULT now()
);

-- Source texts are looked up by an ingest that refuses to load the same
-- content twice.
CREATE INDEX IF NOT EXISTS batches_source ON batches (source) WHERE source <> '';

-- Node versions; vid is the version's position in insertion order (the
-- in-memory engine's handle), so a batch closes versions by vid.
CREATE TABLE IF NOT EXISTS node_versions (
	vid        bigint PRIMARY KEY,  -- a closure updates by vid
	uid        text COLLATE "C" NOT NULL, -- distribution column
	label      text NOT NULL,
	props      jsonb NOT NULL,
	vt_s       bigint NOT NULL,
	vt_e       bigint NOT NULL CHECK (vt_e > vt_s),
	tt_s       bigint NOT NULL,
	tt_e       bigint NOT NULL CHECK (tt_e > tt_s),
	opened_by  smallint NOT NULL, -- bitemporal.OpKind that wrote the version
	closed_by  smallint NOT NULL DEFAULT 0 -- the OpKind that closed it, 0 while believed
);

-- Edge versions; disc is the discriminator as stored (a store-assigned one
-- spelt #<seq>.<n>).
CREATE TABLE IF NOT EXISTS edge_versions (
	vid        bigint PRIMARY KEY,  -- a closure updates by vid
	src        text COLLATE "C" NOT NULL, -- distribution column
	dst        text COLLATE "C" NOT NULL,
	rel_type   text COLLATE "C" NOT NULL,
	disc       text COLLATE "C" NOT NULL,
	props      jsonb NOT NULL,
	vt_s       bigint NOT NULL,
	vt_e       bigint NOT NULL CHECK (vt_e > vt_s),
	tt_s       bigint NOT NULL,
	tt_e       bigint NOT NULL CHECK (tt_e > tt_s),
	opened_by  smallint NOT NULL,
	closed_by  smallint NOT NULL DEFAULT 0
);

-- History and resolve look up one node's versions, in valid-time order.
CREATE INDEX IF NOT EXISTS node_versions_uid ON node_versions (uid, vt_s);
-- Out-neighbourhoods, reachability rounds and paths expand a frontier of
-- sources; vt_s orders each node's edges like the engine's adjacency.
CREATE INDEX IF NOT EXISTS edge_versions_src ON edge_versions (src, vt_s);
-- In-neighbourhoods and reverse expansion start from the destination.
CREATE INDEX IF NOT EXISTS edge_versions_dst ON edge_versions (dst, vt_s);
-- Snapshots, series and bursts scan a valid-time window; the INCLUDE
-- columns answer the belief test (tt_s <= as_of < tt_e) from the index.
CREATE INDEX IF NOT EXISTS edge_versions_vt ON edge_versions (vt_s) INCLUDE (vt_e, tt_s, tt_e);
-- Diff and "as of" reads pick versions by the batch that wrote or closed them.
CREATE INDEX IF NOT EXISTS edge_versions_tt ON edge_versions (tt_s, tt_e);
-- The planner of a batch asks for an edge identity's believed versions.
CREATE INDEX IF NOT EXISTS edge_versions_ident ON edge_versions (src, dst, rel_type, disc) WHERE closed_by = 0;
