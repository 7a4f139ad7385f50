// Package export writes a store's contents as plain tables that any tool
// can read, and that tgms can load back.
//
// An export directory holds three tables, as CSV (RFC 4180, a header line)
// or Parquet (flat, one row group per 64k rows):
//
// nodes.csv: one row per node version ever believed (closed ones included)
//
//	uid, label, valid_from, valid_to, recorded_from, recorded_to,
//	created_by, closed_by, props
//
// edges.csv: one row per edge version ever believed
//
//	src, dst, rel_type, disc, valid_from, valid_to, recorded_from,
//	recorded_to, created_by, closed_by, props
//
// changes.csv: the store's history as a change log (the batches of the
// event log, one row per op or ingested event)
//
//	recorded_at, op, uid, label, src, dst, rel_type, disc, valid_from,
//	valid_to, to_valid_from, to_valid_to, props, prov_authority,
//	prov_source, prov_actor, prov_ref, prov_note, override
//
// The prov_ columns hold the provenance the row's batch stated, as the
// store resolved it (an import batch's source filled in), and override is
// true when the batch may replace users' facts; all are empty for a batch
// that stated none (it has its default), so every row of one batch holds
// the same values. Exports written before these columns existed end at
// props and still load. In CSV a carriage return before a newline inside a
// quoted note reads back as a newline (RFC 4180 line ends); Parquet keeps
// every byte.
//
// Times are RFC 3339 in UTC with microsecond precision in CSV (exact), and
// TIMESTAMP(MICROS) in Parquet; an empty cell (null) is the open end. The
// valid interval is [valid_from, valid_to) and the belief (transaction)
// interval [recorded_from, recorded_to). created_by and closed_by are the
// write ops that opened and closed a version (assert_node, assert_edge,
// ingest, correct, retract; closed_by empty while believed). props is the
// canonical JSON object of the version's properties ({} for none).
//
// changes.csv uses the op words of tabular.ReadChanges (assert, ingest,
// correct, retract) and its column names, so
//
//	tgms ingest --store NEW --changes DIR/changes.csv
//
// rebuilds the store into an empty directory with the same digest: every
// batch is written again at its recorded transaction time, and events
// whose discriminator the store assigned (disc empty in changes.csv, #b.n
// in edges.csv) get the same one again; each batch keeps its stated
// provenance and override. One provenance does not come back as written:
// authority import with no source, on a batch that loaded no events,
// takes the change log's source (as any import batch without a source of
// its own does). With an as-of transaction time the export holds what the store had recorded by then: versions recorded
// later are left out and versions closed later are shown open.
package export
