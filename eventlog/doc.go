/*
Package eventlog is the write-ahead log of the bi-temporal store: an
append-only file of checksummed records, one per write batch. A batch is
appended and fsynced before it is acknowledged; on open the whole log is
verified; the store is rebuilt by replaying it, optionally from the byte
offset recorded by a checkpoint.

# Using the log

Open creates the file if it is missing and otherwise verifies every
record. Append writes any number of records with a single write and a
single fsync (group commit) and returns the byte offset just past the last
one; that offset, like HeaderSize and every offset Replay passes to its
callback, is a record boundary that a checkpoint can store and later hand
to Replay to resume from. ReadFile reads a log without writing to it.

	l, err := eventlog.Open(path, eventlog.Options{})
	...
	end, err := l.Append(&eventlog.Record{TT: tt, Seq: l.LastSeq() + 1, Ops: ops})
	...
	err = l.Replay(eventlog.HeaderSize, func(r *eventlog.Record, end int64) error {
		return store.Apply(r) // end: where to resume after this record
	})

A failed write or fsync makes the Log unusable: after such an error the
state of the file on disk is unknown (the kernel may have dropped the dirty
pages), so the Log tries to cut the file back to its last acknowledged end
and refuses every later call. The process should stop and reopen the log,
which verifies it again.

# File layout

All integers in fixed-size fields are little-endian. CRC means CRC-32C
(Castagnoli polynomial), as computed by hash/crc32 with crc32.Castagnoli.

	file   := header record*
	header := magic[8] version[4] store_id[16] crc[4]         (32 bytes)
	record := length[4] crc[4] hcrc[4] payload[length]        (version 4)
	record := length[4] crc[4] payload[length]                (versions 1 to 3)

	magic    "TGMSWAL\x00"
	version  uint32, 4 (1 to 3 are read; see Compatibility)
	store_id 16 random bytes chosen when the log is created, never changed
	         (StoreID); the store's checkpoint and seal repeat it
	crc      CRC of the 28 bytes before it
	length  uint32, 1 ≤ length ≤ 2^30 (1 GiB)
	crc     CRC of the payload bytes
	hcrc    CRC of the 8 bytes of length and crc: the frame header's own
	        checksum, so a damaged length is told from a torn write

A record starts at offset 32 or right after the previous record; there is
no padding, no alignment and no trailer. The header checksum costs 4 bytes
a record and a CRC of 8 bytes; it adds no write and no fsync. Offsets handed out by the API are
offsets of record ends, which are the starts of the following records.

# Payload

Inside a payload, integers are Go's encoding/binary varints: uvarint is an
unsigned LEB128 (7 bits per byte, low group first, high bit set on every
byte but the last, at most 10 bytes); varint is a signed integer mapped to
a uvarint by zigzag ((x << 1) ^ (x >> 63): 0, -1, 1, -2, ... become 0, 1,
2, 3, ...). A string is a uvarint byte length followed by the bytes (the log
stores any bytes; it does not check UTF-8). A time is a varint number of
microseconds (bitemporal.Time); the open end 2^62 is an ordinary value and
takes 9 bytes.

	payload := type:u8 tt:varint seq:uvarint [source:string] [prov]
	           nops:uvarint op{nops}
	payload := 8 tt:varint seq:uvarint image:string           (a store image)

	type    1 = batch, 2 = batch with a source, 3 = batch that states its
	        provenance, 8 = store image (others are refused)
	source  only in type 2: a non-empty text naming what a bulk ingest
	        loaded; the store writes "sha256=<64 hex digits of the content>
	        part=<k>/<n> name=<dataset or file name>" into each of the n
	        batches of one ingest, and refuses a later ingest of the same
	        SHA-256 unless told to load it again
	prov    only in type 3, which always carries a source (empty when the
	        batch names none):
	          flags:u8 authority:u8 source:string actor:string ref:string
	          note:string
	        flags bit 0 is override (the batch may replace users' facts;
	        other bits must be zero); authority is 1 user, 2 model,
	        3 import, 4 system, or 0 (none stated, only with override).
	        A batch that states no provenance, or exactly its default
	        (bitemporal.Resolve), is written as type 1 or 2, so the
	        records of earlier releases are what this release writes for
	        the same batches; they read as their defaults: import, with
	        their source, when they carry a source or an ingest op, else
	        system
	tt      the batch's transaction time
	seq   the batch's sequence number: 1 for the first record of the
	      file, then exactly one more per record
	nops  the number of ops
	image the bytes of a checkpoint file (engine's format) holding the
	      whole store as of batch seq at tt; only the first record of a
	      log may be one, and the next record is batch seq+1. It is written
	      by CreateFromImage when 'tgms check --repair --use-checkpoint'
	      rebuilds a log from a checkpoint; Replay hands it over as
	      Record.Image, ReadFileImages too, and ReadFile refuses it (its
	      callers replay ops, and batches 1..seq have none in the log)

Each op is its bitemporal.OpKind as one byte, then fields in this order:

	1 assert_node  uid:string label:string props:string vt_s:varint vt_e:varint
	2 assert_edge  src:string dst:string rel_type:string disc:string props:string
	               vt_s:varint vt_e:varint
	3 retract      ref t:varint
	4 correct      ref props:string vt_s:varint vt_e:varint
	5 ingest       node_label:string nevents:uvarint event{nevents}
	6 correct that moves the fact in valid time (bitemporal.CorrectTime)
	               ref props:string vt_s:varint vt_e:varint
	               to_vt_s:varint to_vt_e:varint
	7 erase        uid:string edges:u8 ntombs:uvarint tomb{ntombs}
	               (bitemporal.OpErase, alone in its batch; see below)

props is the property bag's canonical JSON text (bitemporal.Props); the
empty string means no properties. A ref is one byte, the bitemporal.RefKind,
followed by

	1 node   uid:string
	2 edge   src:string dst:string rel_type:string disc:string
	other    nothing (an invalid ref, kept so the batch replays as it ran)

Fields of bitemporal.Op that the op's kind does not use are not stored and
decode as zero values. Op kinds other than 1 to 7 are refused by Append and
by the decoder (6 is written only for a moving correct).

# Erasure

An erase (bitemporal.OpErase) lists one tombstone per version it empties:

	tomb := kind:u8 [src:string dst:string rel_type:string disc:string]
	        vt_s:varint vt_e:varint tt_s:varint tt_e:varint hash[32]

kind is 1 (a version of the node uid) or 2 (a version of the edge whose key
follows); hash is the SHA-256 of the version's content
(bitemporal.ContentHash). The store writes the erase record while it
rewrites the log without the content: every earlier op about the node
(assert_node's label and props, correct's props; with edges, the props of
incident assert_edge, correct and ingest events) is stored with those
fields empty, and nothing else changes, so replaying the rewritten log
builds the same versions and the erase record marks them erased. The
rewrite goes through Open, SetHeader (the same store id) and Append;
records keep their seq and tt, so only the CRCs and the chain change, and
the store writes a new seal and checkpoint for them (see the tgms
package). A build without op kind 7 refuses such a log naming the kind.

# Ingest events

Bulk ingest ops carry tens of thousands of events that mostly repeat the
same few node uids and relation types, and whose valid times are close to
each other. Each ingest op therefore has its own string dictionary, empty at
the start of the op and shared by the src, dst and rel_type fields of its
events, and stores vt_s as a difference:

	event := src:dref dst:dref rel_type:dref dvt_s:varint dur:uvarint
	         disc:string props:string

	dref    uvarint index i into the dictionary. i < size: the string at
	        index i. i == size: a string follows and becomes entry i.
	        i > size: corrupt.
	dvt_s   vt_s minus the previous event's vt_s in this op (the first
	        event's predecessor is 0); the events need not be sorted
	dur     0 when vt_e == 0 (the default end, vt_s+1), else vt_e − vt_s

For dur, the subtraction wraps around (two's complement), and the two values
that would otherwise collide are swapped: vt_e == vt_s (an empty interval,
rejected by validation but still logged as written) is stored as −vt_s, the
number that would decode to vt_e == 0. So every (vt_s, vt_e) pair survives
a round trip, and an ordinary event with vt_e == vt_s+1 takes one byte.

A dictionary index needs one byte up to 127 entries and two up to 16383.
An event of an established pair of nodes with one relation type and no disc
or props takes 7 bytes plus the vt_s delta beyond its first byte.

# Reading and verification

Open reads the file header and then every record in order, checking that
the length is in range and the record fits in the file, that the CRC
matches, that the payload decodes completely (no trailing bytes), that the
first record has seq 1 and each following one the previous seq plus 1, and
that tt strictly increases. It does this without building the ops, so it
costs roughly the time to read the file.

The decoder never panics on arbitrary input and bounds its allocations by
the payload length: a count of ops or events that could not fit in the
bytes that remain (at 3 bytes per op and 7 per event at least) is reported
as corruption before anything is allocated.

# Torn tails and corruption

In a version 4 log every frame header is checked against its own
checksum (hcrc) before its length is used. A header whose checksum fails
is a torn write only if it is what a crash leaves, all zeros or zeros on
one side of a 512-byte boundary inside it; any other failing header (a
flipped bit in the length or the payload CRC, a changed byte, garbage) is
damage, at the end of the log too, so a damaged length can never make a
record look cut short. A length that passes the header check and runs past
the end of the file is a record that was being written when the process
died.

A crash during an append can leave an incomplete record at the end of the
file: a short frame header, a payload cut short (the length runs past
the end of the file), or bytes that the file system allocated but never
wrote, which read as zeros: a zero length, or a complete-length record
whose CRC fails and whose payload ends in zeros that continue past it to
the end of the file (16 bytes or more), or ends in zeros from a
512-byte-aligned offset, or holds a whole aligned 512-byte block of zeros.
Such a record was never fsynced, hence never acknowledged, so Open copies
its bytes to a new file <log>.broken-<offset> (O_EXCL, fsynced; a numeric
suffix is added if the name is taken), truncates the log at its start,
fsyncs, and reports the byte offset, the number of bytes dropped and the
copy's name through Options.Logf.

A complete record whose CRC fails without any of those zero patterns (a
bit flip, a changed byte) is corruption, also when it is the last record:
a crash cannot produce it, and it may be an acknowledged batch. Open also
never truncates below Options.Acked (what the store's checkpoint or seal
says was acknowledged), and a log that ends before it, even exactly at a
record boundary, is a *CorruptionError.

A record that does not frame is taken for a torn tail only if nothing after
it frames: no later offset holds a frame header whose checksum matches
(version 4), a length in range and a payload that
starts with the batch record type, a seq above the last good record's and
a tt after its tt (every genuine later record has these), with a matching
CRC. If a valid record follows, the damage is in the middle of the log,
where acknowledged batches live, and Open returns a *CorruptionError naming
the file and byte offset without changing anything. The search costs up to
one CRC per candidate offset; it is capped at 256 MiB plus 32 bytes per
byte searched, and a search that hits the cap also ends in a
*CorruptionError, because bytes that were not ruled out are never dropped.
Torn writes (zeros, or a prefix of real records) stay far below the cap.
A record whose CRC matches but whose payload does not decode, and a seq or
tt out of order, are corruption wherever they occur, because no torn write
produces them. Corruption is never repaired automatically: the remedy is to
restore the log (and the store) from a backup.

A group commit is written with one write, and the file system may
persist its pages in any order if the machine crashes before the fsync,
so a later record of an unacknowledged group can reach the disk while an
earlier one does not. When the store passes its ack witness
(Options.Witnessed with Options.Acked), nothing after Acked was ever
acknowledged, so a record that does not frame there is a torn tail even
when valid records follow it, and those are dropped (kept aside) with it.
Without a witness (a version 2 store's log), such a state is reported as
corruption: it errs on the safe side.

ReadFile verifies the same way but never writes: it reports a torn tail as a
*TornTailError after its callback has seen every record before it. Open
with Options.ReadOnly never writes either: it reads up to the torn record
and leaves it for the next writer.

Replay reads from a given offset to the end of the log as it was when Replay
was called, through a buffered reader. It checks frames, payloads and
ordering again and treats any failure as corruption (a torn tail was already
dealt with by Open). The start offset is checked through the frame found
there: an offset inside a record fails the CRC check (a false pass has odds
of 2^-32 per frame), and the sequence numbers read from it must also run up
to the log's last one.

# The seal: the ack witness

Every acknowledgement leaves a witness outside the log: the seal, a small
file beside the log, <log>.sealed (events.wal.sealed). A writer advances it
with every group commit, after the log's fsync and before the batches are
acknowledged, whether or not a checkpoint is due or succeeds. So at any
moment the seal names the last acknowledged record, and

	every record up to the seal's last record was acknowledged,
	and every acknowledged record is at or before it (a batch is
	acknowledged only after its seal advance is on stable storage).

Hence a record that does not frame below the seal's end is damage to an
acknowledged batch, never a torn write, whatever its length field says,
and a log that ends before the seal's end, or holds another record where
the seal's last one was, or other records before it (the chain differs),
lost or replaced acknowledged batches. Only bytes after the seal's end
can be a torn tail, and they were never acknowledged.

	seal := slot slot                                         (384 bytes)
	slot := magic[8] version[4] gen[8] store_id[16] parent_id[16]
	        last_start[8] last_end[8] last_seq[8] last_tt[8] last_crc[4]
	        dir_id[16] chain[32] reserved[52] crc[4]          (192 bytes)

	magic     "TGMSSEAL"
	version   uint32, 2
	gen       the advance's generation; it is written into slot gen mod 2
	parent_id the store id this store was copied from, or zeros
	last_*    the Frame of the log's last acknowledged record: its offset,
	          end, batch number, transaction time and stored CRC (an empty
	          log: zeros, last_end the header size)
	dir_id    the identity of the store's directory when the seal was
	          written (device and inode, 8 bytes each)
	chain     the record chain at the last record (below)
	crc       CRC of the 188 bytes before it

The seal is created atomically (temporary file, fsync, rename, fsync of
the directory) with the same content in both slots; after that each
advance overwrites the older slot in place and fsyncs the file, so a crash
during an advance leaves the newer acknowledgement in the other slot. A
reader takes the verified slot with the higher generation. When the other
slot is neither valid nor all zeros the seal is marked damaged, and then
nothing in the log may be taken for a torn tail (the lost slot may have
been the newest acknowledgement).

The record chain ties a checkpoint or seal to every record it covers, not
only the last: chain_0 is 32 zero bytes and, for each record in order,

	chain_n = SHA-256(chain_{n-1} || seq[8] || tt[8] || crc[4] || end[8])

with the record's seq, tt, stored payload CRC and end offset in
little-endian. Open computes it while it verifies the log (one hash of 60
bytes per record).

The fsync cost of the witness is one small in-place write and one fsync
per group commit (not per batch): bulk ingest commits groups of 200,000
events, so it pays one extra fsync per group; single-batch writes pay two
fsyncs instead of one.

A version 1 seal (68 bytes: magic, version 1, store id, the last Frame,
crc), written by earlier builds only at checkpoints and close, is still
read; in stores with a version 2 log, batches acknowledged after it are
guarded by the log alone. A writer replaces it with a version 2 seal
and then rewrites the log header as version 3.

# Limits

Open takes an exclusive flock on the file (on Linux, macOS and the BSDs;
elsewhere nothing stops two writers); a read-only Open takes none (the
store's LOCK file orders readers and writers). ReadFile takes no lock.
Replay must not run concurrently with Close. Open refuses a log that is a
symbolic link unless Options.AllowSymlink, and creates a new log through
a temporary file made with O_EXCL, so a planted link is never followed.

# Compatibility

The format version is 4: a log with a checksum in every frame header,
whose store keeps the ack witness. Every new log is written as version 4.
Version 3 has 8-byte frame headers (no hcrc) and also keeps the witness, so
a missing seal beside a log of version 3 or 4 is a missing witness
(WitnessVersion); Open reads a version 3 log and Append continues it in its
own layout, because its records cannot be reframed in place (the seal and
checkpoint name their offsets). In a version 3 log a damaged length is
told from a torn write by the witness alone (below the seal's end every
failure is damage); 'tgms replay' into a new store rewrites it as version
4. Version 2 has the layout of version 3
(its store wrote the seal only at checkpoints and close); Open reads it,
and a store's writer upgrades the header in place to version 3 (32 bytes with their own
CRC, within one sector) once its seal is a version 2 seal. Version 1 (a
16-byte header without a store id: magic, version, crc) is read by
ReadFile, so that 'tgms replay' converts it into a new store, and refused
by Open with that advice. A reader that
meets any other version refuses the file, naming both versions; the
layout above may only change together with the version. Record type 3
(a batch that states its provenance) was added within version 3: every
log written before it reads unchanged, and a release from before it
refuses a type 3 record as an unknown record type, so a store an agent
wrote with provenance must not be opened by such a release. Golden files
in testdata pin the encoding of one record framed as in versions 1 to 3
(record-v1.hex) and as in version 4 (record-v4.hex).

ImportTGMSPy reads the reference system's JSONL event log (see its
documentation); it does not write this format itself.
*/
package eventlog
