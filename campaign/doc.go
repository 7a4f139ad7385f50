// Package campaign runs the store's fault campaigns: crash (a writer
// killed at every crash point of its write path, and by SIGKILL at random
// moments), corruption (one file of a closed store damaged in one of
// several ways) and disk full (ENOSPC and short writes at each write call),
// and two load runs: soak (a writer killed at random for a set duration
// under readers checking digests) and overload (the server under many
// concurrent clients).
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
//
// # Soak
//
// Soak runs a writer process ('tgms campaign soak-writer') that appends
// SoakBatch 1, 2, ... (a function of the seed and the batch number, so a
// restarted writer continues where its store stopped), checkpoints every
// CheckpointEvery batches and serves the store read-only over HTTP, and
// Readers goroutines calling run_plan on it at belief times already
// acknowledged. The writer is SIGKILLed at uniformly random intervals in
// [KillMean/2, 3·KillMean/2] and restarted. The oracle is an engine in
// the campaign's process given each acknowledged batch (never the store's
// files). Checks: a reopened store holds at least every acknowledged
// batch (else LOST, and the run stops) and its digest is the oracle's
// after as many batches; a (plan, uid, belief time) rerun gives the trace
// digest it gave before, across restarts too; every OracleEvery-th call's
// digest equals the same plan's on the oracle at that belief time.
//
// SoakReport as JSON ('tgms campaign soak --json'):
//
//	duration_s, seed, readers, kill_mean_s, checkpoint_every
//	batches              acknowledged at the end
//	checkpoints, kills   taken by the writer; SIGKILLs sent
//	recoveries           restarts that reopened with every acknowledged batch
//	recovery_max_ms      slowest restart, process start to store open
//	lost_batches         acknowledged batches missing after a restart (must be 0)
//	digest_mismatches    {repeat, oracle, recovery} (each must be 0)
//	reader_calls, repeats, oracle_checks
//	unavailable          calls that found the writer down (retried, not failures)
//	call_errors          calls answered other than 200
//	intervals[]          one row per interval: end_s, batches, calls,
//	                     call_p50_ms, call_p99_ms, write_p99_ms (one
//	                     batch's durable write), kills, writer_rss_mib,
//	                     campaign_rss_mib (VmRSS when the row closed)
//	writer_rss_slope_mib_per_min, campaign_rss_slope_mib_per_min
//	                     least-squares slopes of the rows' RSS over time
//	stopped, failures    why it ended early; the first failures
//
// It passes (exit status 0) with no lost batch, no mismatch, every kill
// recovered, at least one recovery in a run of two KillMean or more, and
// no failure.
//
// # Overload
//
// Overload serves a store of soak batches with 'tgms serve' on loopback
// and runs each level's clients for PerLevel, calling without pause:
// cheap calls (stats, validate_plan; outside the bound on heavy calls)
// and, HeavyShare of the time, plans (a two-hop snapshot, temporal
// reachability, an entity's history with its edges), which wait for one
// of the server's --heavy slots and are refused with E_BUSY when none
// frees within --deadline. Idle latency (one call at a time, each kind)
// is measured before the first level and one second after the last.
//
// OverloadReport as JSON ('tgms campaign overload --json'):
//
//	store_batches, deadline_s, heavy, heavy_share, per_level_s
//	idle_before, idle_after   {cheap_p50_ms, heavy_p50_ms}
//	levels[]                  clients, calls (answered, E_BUSY included),
//	                          calls_per_s, p50_ms, p99_ms, cheap_p99_ms,
//	                          heavy_p50_ms, heavy_p99_ms, e_busy,
//	                          e_busy_rate (of heavy calls), past_deadline
//	                          (503 at the server's deadline), errors,
//	                          peak_rss_mib (the server's VmRSS, sampled
//	                          every 100 ms)
//	recovered                 each idle p50 after <= 2 x before + 2 ms
//	peak_rss_mib              the server's VmHWM at the end
//	failures                  the first errors
//
// Latencies include refusals (an E_BUSY answer takes the deadline). It
// passes with no errors and recovered true.
package campaign
