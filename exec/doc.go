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
//	{"plan_id", "plan_digest", "plan", "as_of_tt",
//	 "steps": [{"step_id", "op", "status" (ok|failed|skipped), "depends_on",
//	            "args" (references resolved, defaults filled, as_of_tt pinned),
//	            "call_digest", "result_digest", "result" | "result_excerpt",
//	            "rows_total", "rows_returned", "truncated", "upstream_truncated",
//	            "ref_truncations", "error"}],
//	 "answer", "answer_error", "ok", "trace_digest", "telemetry"}
//
// call_digest = sha256(canonical {op, args, as_of_tt}); result_digest =
// sha256(canonical payload); trace_digest = sha256(canonical {plan_digest,
// as_of_tt, steps: [{step_id, status, call_digest, result_digest,
// error_code, scope}], answer}). Each successful step's evidence record
// carries its dependency scope (ops.ScopeOf: the uids, edges, rel types and
// valid-time intervals its result depends on); the digest covers it. Timings live in telemetry, outside every digest.
package exec
