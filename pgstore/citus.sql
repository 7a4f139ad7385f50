-- TGMS store on Citus: distribution of the tables of schema.sql.
--
-- Targets Citus 12.1 or later on PostgreSQL 15 or 16 (Citus 12.1 supports
-- both; PostgreSQL 15 is what the tests run here). Run it once, on the
-- coordinator, in the store's schema (SET search_path = <schema>), after
-- schema.sql has created the tables and before the first batch is
-- written (distributing a table that holds rows copies them to the
-- shards).
--
-- Layout:
--   tgms_meta, batches     reference tables: small, read whole in tt order
--                          (a replica replays batches), replicated to every
--                          node so any join with them stays local.
--   node_versions (uid)    distributed by uid: a node's versions on one shard.
--   edge_versions (src)    distributed by src, co-located with node_versions:
--                          a node's versions and its out-edges share a shard,
--                          and so do all versions of one edge identity
--                          (src, dst, rel_type, disc).
--
-- Citus requires every primary key and unique constraint of a distributed
-- table to contain the distribution column: the version tables' keys
-- become (uid, vid) and (src, vid). vid stays unique store-wide (the
-- writer assigns it); a closure's UPDATE ... WHERE vid = ANY(...) without
-- the distribution column is a multi-shard UPDATE, which Citus runs in the
-- writer's transaction (batch row, closures and COPY of new versions
-- commit together, with two-phase commit across the workers).

BEGIN;

SELECT create_reference_table('tgms_meta');
SELECT create_reference_table('batches');

ALTER TABLE node_versions DROP CONSTRAINT node_versions_pkey;
ALTER TABLE node_versions ADD PRIMARY KEY (uid, vid);
ALTER TABLE edge_versions DROP CONSTRAINT edge_versions_pkey;
ALTER TABLE edge_versions ADD PRIMARY KEY (src, vid);

SELECT create_distributed_table('node_versions', 'uid');
SELECT create_distributed_table('edge_versions', 'src', colocate_with => 'node_versions');
SELECT create_distributed_table('uids', 'uid', colocate_with => 'node_versions');

COMMIT;

-- The indexes of schema.sql are created on every shard by Citus; each
-- leads with a column a shard can serve alone: (uid, vt_s) and (src, vt_s)
-- are router lookups, (dst, vt_s) and (vt_s) serve multi-shard scans that
-- every shard runs on its part.
