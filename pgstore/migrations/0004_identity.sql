-- Schema version 4: an index on the whole edge identity and the valid
-- end, for the carved-fragment test of the event-counting reads (series,
-- bursts, motifs): "another believed version of this identity ends where
-- this one starts" is then an index-only probe per candidate event
-- instead of a hash of every edge version. edge_versions_ident does not
-- serve it: it is partial (closed_by = 0), and a read as of an earlier
-- belief time must also see versions closed since. The index leads with
-- src, the Citus distribution column, so each shard holds its own part.
CREATE INDEX IF NOT EXISTS edge_versions_identity_end ON edge_versions (src, dst, rel_type, disc, vt_e) INCLUDE (vid, tt_s, tt_e);
