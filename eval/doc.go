// Package eval builds task suites whose gold answers the engine computes,
// and scores systems' answers against them.
//
// # Suites
//
// Generate turns a store into a suite of questions. Every task carries the
// question text (each time printed as a UTC date and as microseconds), an
// oracle plan, the answer kind, the gold answer, the deterministic
// reporter's answer object over the oracle trace (evidence.Mechanical), the
// identifiers the question mentions, and the belief time the gold was
// computed at. Gold comes from the engine: the oracle plan must pass the
// plan contract (plan.Validate with the task's uids and the store's
// statistics; a rejection is a generator bug and fails the run, except a
// cost refusal, which depends on the data and only skips the attempt) and
// then run (exec.Run). A run that fails, or whose answer field is not
// complete evidence, is skipped: no gold is ever read off a truncated page.
// Planted-pattern tasks (family t2) are the exception: their gold comes
// from the synthetic generator's manifest, never from the engine.
//
// Families:
//
//	t1     one operator (plus a reduction): reachability, neighbours at an
//	       instant, degree, event counts, busiest bucket, new nodes,
//	       reciprocity, earliest arrival, bursts, recipients, history
//	t2     planted patterns of a synthetic store: triangles, ping-pongs, bursts
//	t3     multi-step: nodes added, neighbours gained, first burst
//	t4     compositions: reach → motifs, reach → history, reach → motif
//	       participant, follow-up pairs (a two-hop temporal pattern)
//	probe  correction probes in before/now pairs: how many versions of a
//	       corrected node were believed just before its correction, and now
//
// Corrections for the probes are written into the store (one batch each,
// props {"note":"correction probe","revised":true} over an interior valid
// interval) unless the store already holds such versions, which are reused:
// generating twice does not correct twice. Each probe batch's transaction
// time is the previous batch's plus ProbeTTStep (one second), never the
// clock's, so the probes' as_of_tt, their question text and their gold
// follow from the store alone.
//
// Generation is deterministic given the store's content and the seed:
// every random choice comes from math/rand/v2 PCG streams derived from the
// seed, and every engine read is pinned at one belief time. Each family is
// split 20/80 into dev and test with a seeded shuffle; the suite's
// test_split_sha is the SHA-256 of the canonical JSON of the test list, so
// the same store (the same batches at the same transaction times) and seed
// give a byte-identical suite and the same hash.
//
// # Scoring
//
// Match compares one answer with the gold by answer kind: counts and
// integer values exactly, floats within 1e-9 relative, entity sets as sets
// (uids taken from strings, or from uid/src/dst fields of rows at any
// depth), intervals by intersection over union ≥ 0.5. Score computes
// accuracy, coverage and a per-family breakdown over one split;
// PairedBootstrap gives a seeded 95% confidence interval of the accuracy
// difference between two systems on the same tasks.
//
// Answers files are JSONL, one object per line: {"id": TASK_ID, "answer":
// VALUE or null}; other fields are ignored.
package eval
