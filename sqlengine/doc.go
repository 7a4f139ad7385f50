/*
Package sqlengine runs operators as SQL against a PostgreSQL store's
version tables (package pgstore), for stores larger than a process's
memory: no batch is read and no in-memory engine is built. It is an
ops.Backend, so a call gets the envelope of the in-memory engine (default
arguments, pinned belief time, cost check, paging, memory budget, digest)
and, for every operator it supports, the same result digest: the
payloads are built by the operators' own row builders from the versions
the SQL selects (tested against the in-memory engine on random
bi-temporal stores).

# Operators

Supported lists the operators with a SQL form; any other is refused with
E_INVALID_ARG naming them:

	aggregate_events         every argument but authority: SQL selects the events, the operator aggregates them
	burst_detection          target kind edge_event_rate (any rel_type, every method)
	co_active                every argument: one interval join
	compute                  every argument (it reads no store)
	count_temporal_motifs    every argument: SQL selects the events, the operator counts them
	diff_snapshots           every argument: a full join of the two snapshots per table
	entity_history           every argument (include_edges, pages)
	snapshot_subgraph        every argument: breadth-first rounds driven by the client
	temporal_paths           every argument: SQL reads the walkable subgraph, the operator searches it
	temporal_reachability    out, in and both without delta_max_wait: relaxation rounds driven by the client
	graph_metric_timeseries  stride with node_count, active_edge_count, edge_event_count
	neighborhood_evolution   every argument
	resolve_entities         every argument: SQL selects candidates, the operator scores them

A form of a supported operator without SQL (a calendar cycle, another
metric) is refused the same way.

aggregate_events holds the call's events in the client (the operator's
kernel then groups them under its memory budget, with its own E_LIMIT):
the window, rel_types and endpoint filter narrow what is read, the
property filter and the dimensions do not. Props are read only when the
call reads a property. Its authority argument has no SQL form (a batch's
provenance is in its payload, not a column).

# Pinning and plans

A call runs in one REPEATABLE READ, READ ONLY transaction: every
statement sees one snapshot. The belief time is the call's as_of_tt
clamped to the last batch's tt (as the in-memory engine clamps it), and a
version is believed at T iff tt_s <= T < tt_e. A uid is known at T iff
the uids table says a batch at or before T registered it (schema
version 3; an older store, or one whose migration has not been filled
by a writer yet, is refused). The statistics for the cost
models and the envelope's dataset extent are read in the same snapshot,
once per last batch. The connection plans every statement for its values
(plan_cache_mode force_custom_plan): a generic plan cannot see that the
belief test keeps nearly every row.

# Distribution (Citus)

Every statement is one Citus plans across shards, with node_versions
distributed by uid and edge_versions by src, co-located (citus.sql):

  - a uid's node versions: a filter on the distribution column (router
    query, one shard);

  - a node's out-edges: a filter on src (router); its in-edges: a filter
    on dst, a multi-shard scan that each shard answers from its dst index;

  - series: grouped aggregates (group by bucket index) that every shard
    computes in part and the coordinator merges (count is combinable);

  - snapshot and reachability rounds: the frontier is sent as arrays
    (unnest, or = ANY); a round joins it with edge_versions on src
    (forward, co-located with the frontier's own shard key) or on dst
    (backward), which Citus plans by sending the frontier to every
    worker as an intermediate result; grouped min/max is combinable;

  - the carved-fragment test of event counts: an anti-join on the whole
    edge identity, src included, so both sides are on one shard;

  - whether a uid is known: a filter on the uids table's distribution
    column (router);

  - the store statistics: counts, min and max (combinable).

  - diff_snapshots: full joins of the two snapshots on the identity (uid,
    or the edge identity with src): co-located;

  - co_active: the two edge sets are materialized CTEs (each a filter
    scan, a router query when its src is given), which Citus evaluates as
    intermediate results; the interval join then runs over those on the
    coordinator (an inequality join of two distributed tables would not
    be distributable);

  - resolve_entities: a semi-join of node_versions with itself on uid;

  - temporal_paths: rounds of out-edges of a frontier (src = ANY, a
    co-located lookup) with the carved-fragment test (co-located);

  - count_temporal_motifs: a window scan with the carved-fragment
    anti-join (co-located), filtered by src and dst = ANY(the node
    filter) when there is one.

  - aggregate_events: a window scan with the carved-fragment anti-join
    (co-located), the rel_types and endpoint filter (src or dst = ANY)
    in its WHERE clause; for durations, the other believed versions of
    the events' identities (a join on the whole identity: co-located);
    for labels, the endpoints' node versions (uid = ANY).

# Lower case

resolve_entities matches case-insensitively with Go's strings.ToLower,
which PostgreSQL's lower() does not reproduce (it follows the
collation's locale: U+212A KELVIN SIGN lowers to an ASCII k in Go, not
under COLLATE "C"). The SQL only narrows the nodes to a superset of the
matches: a text is kept when lower() under COLLATE "C" (A-Z only, which
is Go's mapping of an ASCII text) contains the Go-lowered query, or when
it holds any byte outside ASCII; the operator's own code then scores the
candidates. The answers agree whatever the database's locale.

No statement is a recursive CTE: the operators that walk the graph run
as client-driven rounds, one statement per round, so no statement
recurses across shards.
*/
package sqlengine
