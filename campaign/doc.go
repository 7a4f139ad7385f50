// Package campaign runs the store's fault campaigns: crash (a writer
// killed at every crash point of its write path, and by SIGKILL at random
// moments), corruption (one file of a closed store damaged in one of
// several ways) and disk full (ENOSPC and short writes at each write call).
// Each campaign checks every trial against an oracle computed
// independently of the store under test: the digest of each prefix of a
// deterministic workload, built by applying its batches to a fresh engine.
//
// Verdicts:
//   - crash and disk full: a trial passes when the reopened store holds
//     exactly a prefix of the workload's batches (its digest equals that
//     prefix's), the prefix includes every acknowledged batch, the digest
//     equals a replay of the recovered log, and the child neither hung nor
//     failed to reopen. LOST counts trials that lost an acknowledged
//     batch, TORN trials whose state is no prefix.
//   - corruption: DETECTED (the open was refused), REPAIRED (it opened with
//     a warning and the store's digest is unchanged), BENIGN (it opened
//     without a warning and the digest is unchanged: provably no effect,
//     since the digest covers every version), LOST (it opened with a
//     warning but the digest changed) and SILENT (no warning, different
//     digest). SILENT and LOST must be 0.
//
// The corruption campaign damages stores in three states (States): sealed
// (closed cleanly), killed-after-ack and server-session. With the tgms
// binary (CorruptConfig.Binary, as 'tgms campaign corrupt' runs it) the
// last two are made by real kills: the campaign's writer child continues
// the workload on a store holding two thirds of it and SIGKILLs itself
// right after its last acknowledgement, and 'tgms serve --allow-writes'
// gets the last third through its HTTP API and is SIGKILLed after its last
// 200 (it takes no checkpoint in that session). Each state's oracle is
// checked before any damage: the workload's digest for the writer (whose
// clock is fixed), a replay of the log by a fresh engine for the server
// (whose clock is the wall clock). Trials cycle through the states, so two
// thirds are post-seal; the report tallies verdicts per state, per file
// and per mutation.
//
// Documented runs (24-batch workload, 2 shared cores under a load of
// about 30): 'tgms campaign corrupt --trials 10000' took 471 s: 6,667
// trials post-seal (from real kills), 3,296 damaging two files; DETECTED
// 6,746, REPAIRED 3,011, BENIGN 243, LOST 0, SILENT 0, for the writer and
// for a read-only open first, and 0 LOST and 0 SILENT in every state and
// file. 'tgms campaign crash --trials 1000' with seeds 1 to 10 (10,000
// trials) took 3,160 s in all: 7,500 at crash points, 1,250 SIGKILLs of the
// writer and 1,250 of 'serve --allow-writes'; every trial OK (LOST 0,
// TORN 0).
package campaign
