// Package exec runs admitted plans deterministically and records
// content-addressed traces.
//
// At plan start the executor reads the store's last durable transaction
// time T and pins every step that reads the store at T (a step that names
// its own as_of_tt keeps it), so a plan sees one consistent belief state and
// re-running its trace later reproduces every digest, whatever was written
// since. Steps run in dependency order; the steps whose dependencies are
// done run concurrently, and their records land in plan order, so the
// trace does not depend on scheduling. A failed step skips only the steps
// that depend on it.
//
// # Trace JSON
//
//	{"tgms_trace": 2, "plan_id", "plan_digest", "plan", "as_of_tt",
//	 "steps": [{"step_id", "op", "status" (ok|failed|skipped), "depends_on",
//	            "args" (references resolved, defaults filled, as_of_tt pinned),
//	            "call_digest", "result_digest", "result" | "result_excerpt",
//	            "rows_total", "rows_returned", "truncated", "upstream_truncated",
//	            "ref_truncations" (only in traces of earlier releases), "error", "evidence"}],
//	 "answer", "answer_error", "ok",
//	 "certified" (is the answer certified by the evidence), "uncertified_reason",
//	 "report": {"answer" (the reporter's {text, claims}), "verdicts", "text"
//	            (the certified text)} (when a report is attached),
//	 "trace_digest", "telemetry"}
//
// call_digest = sha256(canonical {op, args, as_of_tt}); result_digest =
// sha256(canonical payload). Each successful step's evidence record
// carries its dependency scope (ops.ScopeOf: the uids, edges, rel types and
// valid-time intervals its result depends on).
//
// # Versions
//
// tgms_trace is the format version. Version 2's trace_digest is the SHA-256
// of the canonical trace without trace_digest and telemetry: every other
// field, the answer, the certification flag and the report included.
// Version 1 traces carry no tgms_trace, certified or report; their digest
// is sha256(canonical {plan_digest, as_of_tt, steps: [{step_id, status,
// call_digest, result_digest, error_code, scope}], answer}). Both are read
// and verified (package evidence, VerifyTrace: re-execution and a field by
// field comparison). Timings live in telemetry, outside every digest.
package exec
