// Package engine is the native in-memory engine of a TGMS store: every node
// and edge version in compact columns, the indexes that reads need, and the
// checkpoint file that lets a large store reopen without replaying its
// whole event log.
//
// # Memory layout
//
// Strings (uids, labels, relation types, explicit discriminators, property
// bags) are interned once. An edge version is a row across fixed-width
// columns (src, dst, rel_type, vt_s, tt_e, ops) stored in 64Ki-row chunks,
// so growth never copies. Transaction times are kept as batch sequence
// numbers (uint32) and mapped back through the batch table. Versions are
// stored in batch order, so tt_s needs no column: a read pinned at batch
// seq sees version v iff v < edgeEnd[seq] and seq < tt_e(v).
//
// vt_e takes about a byte per version: a duration below 128 (every event
// [t, t+1)) is the code itself; a longer or open end is stored exactly,
// found through the code and a per-128-row offset (see endCol).
//
// Two columns store only the rows that need them (a sparse column: one
// bit per row, with a running count every 32 rows, so a lookup stays
// O(1)):
//   - props, for versions with a non-empty property bag;
//   - disc. Store-assigned discriminators ("#<batch>.<n>") are not stored
//     as strings: a disc is a global auto index with the high bit set,
//     from which the batch and n are recovered. In a batch whose new
//     store-assigned identities have their first versions contiguous and
//     in order (every plain ingest), those versions' discs follow from the
//     batch table and are not stored at all.
//
// Indexes:
//   - per node, out- and in-edge version lists sorted by (vt_s, id);
//   - per node, the number of its believed versions;
//   - per identity, its version list (implicit for store-assigned
//     identities, a map for explicit ones);
//   - an interval index: edge versions partitioned by duration class
//     (durations in [4^c, 4^(c+1))) and sorted by vt_s within a class, so
//     "valid at t" and "overlapping [a, b)" are bounded range scans.
//
// # Reopen memory
//
// Loading a checkpoint allocates at most ReopenMultiple (16) bytes per
// byte of the file, plus ReopenOverhead (4 MiB, the first chunks of the
// columns and indexes), the file's own bytes included. Every count read
// from the file is checked against the bytes left before anything is
// allocated for it, and each allocation sized by a count is charged
// against that bound first: a file whose counts would pass it (one a
// store never writes, such as 200,000 empty uids) is refused as damaged
// before the allocation. TestReopenMemoryBound measures real stores
// against the bound (BenchmarkReopenMemory reports alloc-B/ckpt-B): at
// 100,000 ops, ingested event edges allocate 11.1 bytes per checkpoint
// byte, distinct nodes 13.6, one-op batches 12.8, and an edge corrected
// 6,250 times 29 (of which the fixed part is most; 5.7 MB in all). The log
// after the checkpoint is replayed batch by batch, each bounded by
// the store's MaxBatchOps.
//
// # Checkpoint file format (version 4, and 5 with erased versions)
//
// All integers are little-endian; varint and uvarint are the encodings of
// encoding/binary; zigzag(x) = (x << 1) ^ (x >> 63).
//
//	header   8 bytes  magic "TGMSCKP\x00"
//	         4 bytes  format version (4, or 5; 2 and 3 are read)
//	         4 bytes  reserved, zero
//	body     see below
//	trailer  8 bytes  body length in bytes
//	         4 bytes  CRC-32C (Castagnoli) of the body
//
// Body, in order:
//
//	16 bytes storeID: the store id of the event log this checkpoint was
//	         taken from (eventlog.StoreID)
//	uvarint  logEnd: byte offset of the event log covered by this checkpoint
//	         (the end of the last covered record, or the offset of the
//	         log's first record when it covers none)
//	uvarint  lastStart: offset of the last covered record's frame (0 if none)
//	uvarint  lastSeq: batch number of the last covered record (0 if none)
//	varint   lastTT: its transaction time (0 if none)
//	4 bytes  lastCRC: the CRC-32C its frame stores (0 if none)
//	32 bytes chain: the log's record chain at the last covered record
//	         (eventlog.Chain; zeros if none); absent in version 2
//	5 string tables, each uvarint count then (uvarint length, bytes) per
//	string: uids (dense node ids in order), labels, rel_types, explicit
//	discs, props (canonical JSON; entry 0 is "" = no properties)
//	uvarint  per uid (in dense id order): the batch seq that registered it
//	uvarint  number of batches B; then per batch seq = 1..B:
//	         uvarint tt(seq) - tt(seq-1) (>= 1; tt(0) = 0)
//	         uvarint number of store-assigned discs of the batch
//	         uvarint number of edge versions the batch wrote (edge versions
//	                 are stored in batch order, so this gives each one's tt_s)
//	uvarint  number of node versions; per node version:
//	         uvarint uid, uvarint label, uvarint props (table indexes)
//	         uvarint vt_s, uvarint end (0 = open, else vt_e - vt_s)
//	         uvarint tt_s as batch seq, uvarint tt_e (0 = open, else seq(tt_e) - seq(tt_s))
//	         byte    created op | closed op << 4 (bitemporal.OpKind)
//	uvarint  number of edge versions; per edge version, in id order:
//	         uvarint src, uvarint dst, uvarint rel_type
//	         uvarint disc: explicit table index i as i << 1; a store-assigned
//	                 disc with global auto index g as zigzag(g - g_prev) << 1 | 1
//	         varint  vt_s - previous edge version's vt_s
//	         uvarint end (0 = open, else vt_e - vt_s)
//	         uvarint tt_e (0 = open, else seq(tt_e) - seq(tt_s))
//	         uvarint props
//	         byte    created op | 0x08 if another version of the identity ends where
//	                 this one starts | closed op << 4
//	                 (earlier checkpoints set 0x08 on every version whose
//	                 identity has others: a superset, read the same way)
//	provenance (version 4): the batches' provenance, interned
//	uvarint  number P of distinct provenances besides entry 0, the system
//	         default; per entry: byte flags (1 = derived, the default of a
//	         batch that stated none; other values refused), byte authority
//	         (1 user, 2 model, 3 import, 4 system), then source, actor,
//	         ref and note as (uvarint length, bytes)
//	per batch seq = 1..B: uvarint index into the table (0..P)
//
// A version's provenance is its writing batch's (tt_s) and its closing
// provenance the closing batch's (tt_e), so versions store none.
//
// Version 5 is version 4 followed by the erased section, written only by a
// store that holds erased versions (bitemporal.OpErase): for node rows,
// then for edge versions, a uvarint count and per erased one (in index
// order) the uvarint distance from the previous one's index (the first:
// its index + 1) and the 32-byte SHA-256 of its erased content. An erased
// version's label and props are the empty table entries; a section entry
// for a version that still has content is refused.
//
// Everything else (indexes, identity maps) is rebuilt on load. A checkpoint
// with a bad magic, version, length or checksum, whose body does not decode
// exactly, or whose batch table disagrees with lastSeq and lastTT, is
// refused with a *CheckpointError; the store then rebuilds from its event
// log with a warning. Every count and offset is checked against the bytes
// left before it is used (running sums of the batch table before each
// addition, so none can wrap around). A checkpoint whose storeID does not
// match its log, or whose lastStart, lastSeq, lastTT, lastCRC or chain do
// not match the log's records, makes the store refuse to open (the
// witnesses disagree), so a checkpoint of another store, a stale copy of
// another history or a forged one never serves data the log does not hold.
//
// Version 3 (no provenance section) is read with every batch at the
// system default; the store then reads the covered log records once to
// give each batch its default (import for a bulk load), and writes version
// 4 at its next checkpoint. Version 2 (no chain, no provenance) is read
// and tied to the log by its last record only. Version 1 (no
// storeID and no last-record fields) is refused like a damaged
// checkpoint: the store rebuilds from its log.
package engine
