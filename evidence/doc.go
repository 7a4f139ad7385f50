// Package evidence is the evidence contract: a typed claim language, a
// verifier that checks each claim against a trace's results and their
// completeness, and a gate that lets only supported claims through and
// renders the certified answer deterministically.
//
// # Answer JSON
//
//	{"text": "free prose (never shown as certified)",
//	 "claims": [CLAIM, ...]}
//
// Every claim has "id", "kind" and "step" (the trace step whose result is
// the evidence) and, optionally, "as_of_tt" (the belief time it is about:
// it must equal the step's pinned belief time). Kinds:
//
//	count         {"path": "rows_total", "value": 4}            an exact number of things
//	value         {"path": "rows[0].earliest_arrival", "value": 20}
//	entity        {"path": "rows[*].uid", "uids": ["a1"]}       these are among the results
//	complete_set  {"path": "rows[*].uid", "uids": ["a1","a2"]}  these and only these
//	ordering      {"path": "rows", "key": "uid", "by": "earliest_arrival", "first": "a1", "second": "a2"}
//	              first's "by" value is strictly less than second's
//	interval      {"path": "rows[0]", "t_a": 40, "t_b": 50}    the value at path is this interval
//	temporal_pattern {"pattern": "burst", "t_a": 40, "t_b": 50} the cited burst_detection
//	              result flags a bucket overlapping [t_a, t_b)
//	belief        like value, with a required "as_of_tt": "as of tt, the value was ..."
//
// Values are matched against result payloads only, never against the
// arguments a step was called with. Numbers match within 1e-9; integers
// must match exactly.
//
// # Verdicts
//
// supported (true, on complete evidence), weakly_supported (true on the
// evidence delivered, but the evidence is incomplete where it matters),
// unsupported (the evidence contradicts it), unverifiable (the evidence
// cannot decide it: a missing step or path, a page too short to prove a
// complete set). Each verdict carries the reason and what it compared.
//
// # Tamper-evident traces
//
// Attach gates an answer and records it in the trace's report (the answer
// object, the verdicts, the certified text); the trace digest covers the
// report (package exec, trace format 2). VerifyTrace re-executes a
// recorded trace at its belief time, gates the recorded answer again on
// the re-execution, and compares the recorded trace with the result field
// by field: every difference is a Diff naming its JSON Pointer (/answer,
// /report/verdicts/0/verdict, /steps/1/args/window/t_b, /trace_digest for
// an edit of what nothing recomputes: the reporter's prose and claims are
// copied into the re-execution, so they change its digest). Telemetry
// (timings) is the one part not compared; integers beyond ±2^53 compare as
// doubles, the precision a JSON client may have held them at.
package evidence
