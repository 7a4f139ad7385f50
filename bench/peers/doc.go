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
package peers
