// Package peers runs the benchmark registry on peer SQL systems beside the
// native engine: it exports a store's bi-temporal version tables, loads
// them into DuckDB (in process, build tag duckdb) and into a PostgreSQL
// server it starts on a loopback port, checks that every query's answer
// equals the native one, and only then times the systems interleaved.
//
// # Tables
//
// Both systems get the same two tables, one row per stored version,
// believed or not (times are µs; open ends are 2^62):
//
//	nodes(uid, label, props, vt_s, vt_e, tt_s, tt_e, vid)
//	edges(vid, eid, src, dst, rel_type, vt_s, vt_e, tt_s, tt_e, props, multi)
//
// A version is visible at (t, tt) iff vt_s <= t < vt_e and tt_s <= tt <
// tt_e. eid and vid are the engine's identity and version ids; multi is
// true when the edge identity has more than one stored version, so that
// the "is this a carved fragment" test (another believed version of the
// identity ends where this one starts) runs only where it can succeed.
//
// # Answers
//
// Each registry query has a SQL form per system and a canonical answer:
// a sorted list of text lines (uids, eids, vids, counts, times) read from
// the native payload on one side and from the SQL rows on the other. A
// query is timed only when the lines are identical on every system.
//
// # Timing
//
// The native side is timed producing the whole answer the SQL returns
// (a paged operator read page by page, 10,000 rows a page), not its first
// page. Every run is timed straight after another system's (cold): the
// order rotates by round, and a round never starts with the system that
// ended the round before. When any system's checked run is fast
// (Options.HotBelow), every system also runs the query again right after
// (hot). The table leads with cold.
//
// # Load
//
// Every side loads the same version tables. The peers bulk-load the CSV
// export (COPY), then build their indexes and statistics; the native side
// replays every batch of the store's event log (ingests, corrections and
// retractions at their transaction times) into a new store durably, and
// the copy's version counts and digest must equal the store's
// (NativeLoad). Rows per second count node and edge versions on all sides.
//
// # Peer SQL
//
// Each query is written the way the system's own experts would write it.
// Per query, what each system runs, what else was tried, and why the
// form was kept (timings at 1M synthetic events on 2 shared cores under
// other builds' load, so only large differences decided):
//
//   - hist.single, hist.asof (entity_history): both read the uid alone in
//     a MATERIALIZED CTE and filter the belief time on what it returned.
//     DuckDB uses its ART index only for a lone equality: a key mixed with
//     other conditions, or under an OR, scans the table. PostgreSQL's
//     B-tree on (uid, vt_s) serves the same text.
//   - snap.hop2 (snapshot_subgraph): PostgreSQL walks out of the seeds, a
//     recursive CTE whose step is a LATERAL pair of index lookups, (src,
//     vt_s) and (dst, vt_s), from each frontier node, so only the
//     neighbourhood is read. Building the whole snapshot first read about
//     half the edge table to keep a few hundred rows. DuckDB keeps the
//     snapshot join: it has no index-driven recursion, and hash joins over
//     its scans are what it is fast at. The native walk reads, per
//     frontier node, only the adjacency versions that can be valid at
//     t_valid: the lists are sorted by vt_s, so the scan stops at the
//     first later one, and the belief column is read only for versions
//     valid at t_valid; the induced-edge pass reuses the out-lists the
//     walk read (with the caches emptied before every call,
//     BenchmarkRegistryCold, 0.27 → 0.14 ms a call at 1M).
//   - diff.global (diff_snapshots): only versions valid at exactly one of
//     t1 and t2 can differ (a version valid at both is the same on both
//     sides, and an identity has one believed version at an instant), so
//     each side reads the versions with a boundary between t1 and t2, not
//     the two whole snapshots. PostgreSQL finds them by GiST containment
//     on int8range(vt_s, vt_e) (valid at t1, then ended by t2; valid at
//     t2, then started after t1): 117 → 22 ms beside the two-snapshot form
//     on the same GiST index, which in turn was several times faster than
//     a B-tree on vt_s, which answers only half of "valid at t". Tried and
//     not kept: B-trees on vt_e (and on nodes' vt_s, vt_e) for the
//     boundary form, which read every edge ending between t1 and t2
//     (27,000 rows to keep 364), slower than the GiST probe. DuckDB runs
//     the boundary form as plain comparisons that its zone maps prune
//     (single-threaded, 15–18 → 8.5–10 ms).
//     The GiST builds (about 17 s at 1M) count in PostgreSQL's load time.
//     The native operator reads the same versions: the interval index's
//     classes by vt_s near the two instants for edges, and node rows
//     ordered by vt_s and by vt_e (an index built on first use) for
//     nodes, where it used to compare the two whole snapshots and every
//     node: 11.5 → 1.9 CPU ms a call at 1M
//     (BenchmarkDiffSnapshotsRegistrySynth1M).
//   - reach.window (temporal_reachability): a set-at-a-time loop on both,
//     one relaxation round per statement batch over temporary tables.
//   - paths.k (temporal_paths): PostgreSQL reads each of the three hops by
//     source through the (src, vt_s) index from the walks' heads. DuckDB
//     reads the first hop's key alone in a MATERIALIZED CTE (ART) and
//     joins the next hops. Tried on DuckDB and not kept: the window's
//     edges read once with the fragment test as a hash join, every hop a
//     hash join against them (the answer equal, 1.0–1.1 s against
//     0.56–0.74 s for the kept form, single-threaded under load). The
//     native search reads each node's adjacency only up to the window's
//     end (the lists are sorted by vt_s; belief read last) and takes edge
//     ids from the store's id cache instead of hashing them (caches
//     emptied before every call: 0.33 → 0.19 ms a call at 1M).
//   - series.count, burst.zscore (graph_metric_timeseries,
//     burst_detection), and the event sets of agg.rel_bucket and
//     motif.filtered: DuckDB tests carved fragments with a hash anti-join
//     of the window's multi-version rows against the believed
//     multi-version rows ending where they start, single-version rows
//     taken without a test; a correlated NOT EXISTS ran about 3× slower.
//     PostgreSQL keeps one scan with NOT (multi AND EXISTS ...), which it
//     plans as a hashed subplan over the partial index on the multi-version
//     identities (an index-only scan); its time is the heap scan of the
//     window.
//   - nbr.evolution (neighborhood_evolution): the incident edges are two
//     lone-key lookups in MATERIALIZED CTEs, by src and by dst (without
//     self-loops), instead of "src = u OR dst = u", which DuckDB scans.
//     (At 1M a lone-key ART lookup of 48 edges and the scan of the mixed
//     form both took about 3 ms on DuckDB; the lookup is the form whose
//     cost does not grow with the table.)
//   - coactive.narrow (co_active): each side's rows are read by one key
//     (src, else dst) in a MATERIALIZED CTE, its other conditions applied
//     to what came back, then a band join on the valid intervals.
//   - resolve.substr (resolve_entity): one scan of the believed node
//     versions, strpos on lower(); no index serves a substring (a
//     pg_trgm index needs three characters; the query has two). One
//     window pass instead (the match as min() over the uid's partition
//     beside row_number() for its canonical version) was no faster on
//     either peer. The native side finds a fragment under three bytes
//     eight bytes at a time over arenas of the lower-cased uids and
//     names (built with its trigram index, on first use) instead of
//     reading every node's versions; on each page it builds only that
//     page's rows, as typed rows encoded straight from the columns
//     (the canonical version read without materializing the others),
//     and finds where a cursor page starts by bisection. Both sides are
//     timed on the whole answer: the SQL's one result, the native
//     side's two 10,000-row pages, envelopes and digests included.
//   - The PostgreSQL rows near or under 10× cold (snap.hop2 and paths.k
//     at 4.4–5.2× before their native walks left unread the versions
//     outside their time, 10.8–13.6× and 6.0–7.0× after, in two runs
//     under the same load; nbr.evolution, coactive.narrow and motif.filtered at
//     11–21× in the last run, 6–10× in the one before): their SQL is
//     already driven by the (src, vt_s) and (dst, vt_s) B-trees from the
//     seeds or the filter's nodes, and no faster form was found; the
//     native call of 0.1–3 ms runs straight after a peer's scan and pays
//     the cache misses of reading its columns again (up to 4× its hot
//     time).
//   - agg.rel_bucket (aggregate_edges): the distinct destination count as
//     two hash aggregations ((rel_type, bucket, dst), then (rel_type,
//     bucket)); count(DISTINCT) sorts on PostgreSQL.
//   - motif.filtered (temporal_motifs): a δ-constrained three-way self-join
//     over the window's events between the filter's nodes.
package peers
