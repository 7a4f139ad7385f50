// Package answers keeps saved answers: named traces, each name a list of
// generations, in one append-only file of the store directory.
//
// # File format
//
// The file is answers.log in the store directory. It starts with the line
//
//	tgms-answers 1
//
// and then holds one record per line:
//
//	<n> <crc> <payload>\n
//
// n is the payload's length in bytes (decimal), crc its CRC-32C
// (Castagnoli) as 8 lowercase hex digits, and payload canonical JSON (see
// package canon; it never contains a raw newline):
//
//	{"name": "monthly-report", "generation": 2, "saved_at": µs wall clock,
//	 "as_of_tt": belief time the answer was computed at,
//	 "trace_digest": "...", "trace": {the trace, as exec writes it}}
//
// Generations of a name are numbered 1, 2, ... in file order; a record
// whose generation is not the name's next one is corruption. Records are
// only ever appended (save writes generation 1, refresh the next one) and
// each is fsynced before the command reports success. The one exception
// is an erase of an entity (tgms erase): the file is rewritten whole
// (Rewrite; a new file moved into place by the store), and each record
// whose payload mentions the entity becomes an erased record that keeps
// its place and drops everything else:
//
//	{"name", "generation", "saved_at", "as_of_tt", "trace_digest",
//	 "erased": hex SHA-256 of the payload it replaced}
//
// Reading verifies every record. A final line without its newline, or
// shorter than its length says, is a torn write (a crash while
// appending): it is ignored when reading and, before the next append, moved
// to answers.log.torn (appended there, never discarded) and cut from the
// file. Any other damage (a bad checksum, a malformed header or record) is
// a *CorruptionError naming the byte offset, and the file is not appended
// to until it is repaired.
//
// The file belongs to the store directory: checkpoints never touch it, and
// rebuilding a store from its log (tgms replay) must copy it into the new
// directory (Carry).
package answers
