// Package tabular reads a user's own tables — event tables, node tables
// and change logs in CSV, TSV, JSONL or Parquet — through a column
// mapping into write ops.
//
// # Formats
//
// CSV is RFC 4180 (quoted cells may hold commas, quotes and newlines); TSV
// is the same with tabs. Records end at LF or CR LF; a quoted cell keeps
// its bytes exactly, so a CR LF inside one stays CR LF (encoding/csv would
// make it LF). Both need a header line naming the columns (a
// UTF-8 byte-order mark is dropped; empty or repeated names are refused),
// and every row has one cell per header column. JSONL is one JSON object
// per line (blank lines skipped); a field is a column. Parquet files must
// be flat (one primitive value or null per column); TIMESTAMP and DATE
// columns are times on their own. CSV, TSV and JSONL may be gzipped
// (.gz).
//
// # Mapping
//
// The mapping is YAML (ReadMapping; unknown keys are refused) or the
// flags of tgms ingest of the same names with dashes (flags override the
// file; --types merges with the file's types, a flag entry winning for
// its column):
//
//	format:        csv | tsv | jsonl | parquet (default: from the file name)
//	src, dst:      columns of the edge's node uids             (events)
//	time:          column of the valid-time start              (events)
//	end:           column of the end: the fact holds over [time, end);
//	               an empty end cell means still holding. Without end an
//	               event is an instant, valid for [t, t+1µs)
//	rel_type:      one rel type for every event, or
//	rel_type_col:  a column of rel types
//	props:         property columns, or ["*"]: every column not mapped
//	types:         {column: string|int|float|bool|json}: CSV/TSV cells are
//	               strings unless typed here; JSONL and Parquet keep their
//	               own types (a type here converts them)
//	label:         events: label of the nodes they create (default Node);
//	               node tables: the label of every row
//	label_col:     node tables and change logs: a column of labels
//	uid_prefix:    text put before every uid read
//	time_format:   rfc3339 (default; an offset or Z is required and
//	               honoured), unix_s, unix_ms, unix_us, or a Go layout
//	               such as "2006-01-02 15:04:05"
//	tz:            IANA zone for a layout without an offset (default UTC)
//	uid:           node tables: the node uid; change logs: a node row's uid
//	valid_from:    node tables and change logs: valid-time start (empty:
//	               the start of time)
//	valid_to:      valid-time end (empty: still holding)
//	recorded_at:   change logs: when the change was recorded; it becomes
//	               the batch's transaction time
//	op:            change logs: assert, correct, retract or ingest
//	disc:          change logs: the edge discriminator
//	props_json:    change logs: a column holding a JSON object of props
//	to_valid_from, to_valid_to: change logs: where a corrected fact
//	               really held (a correction in valid time)
//
// Change-log columns default to the names tgms export writes
// (recorded_at, op, uid, label, src, dst, rel_type, disc, valid_from,
// valid_to, to_valid_from, to_valid_to, props) when the header has them.
//
// A change log may also state each batch's provenance in the columns
// prov_authority (user, model, import or system; empty: none stated),
// prov_source, prov_actor, prov_ref, prov_note (text, at most 4096 bytes,
// UTF-8 without NUL; given only with an authority) and override (true or
// false; empty: false), read by these names when the header has them.
// Every row of one batch (one recorded_at time) must carry the same
// values; a log without these columns states none.
//
// # Cells
//
// An empty text cell, a missing JSONL field and a Parquet null are null: a
// null property is left out of the version's bag, a null required cell is
// an error. Times are exact to the microsecond; a finer fraction is
// refused, not rounded, as are times before 1970. Integers are 64-bit;
// floats must be finite. Every problem is a *CellError naming the file,
// the line (Parquet: row group and row), the column, the value and what
// was expected; readers collect them into a *Problems (up to a limit) and
// return nothing to write when there is any.
//
// # Large tables
//
// ReadEvents returns every event of a table at once; ScanEvents hands
// them over in slices as it reads, holding no more than one, for a load
// that must not grow with the table. tgms ingest reads a large event
// table twice through it (see tgms.DB.IngestStream): once to check every
// row, once to write.
package tabular
