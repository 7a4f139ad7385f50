// Package tools is the one catalog of what `tgms serve` offers: every tool
// with its name, description, input and output JSON Schemas and its
// handler. The MCP server (package mcpserver), the HTTP API (package
// httpapi) and the OpenAPI document (package openapi) are all generated
// from Catalog, and every schema in it is generated from the ops registry,
// the plan IR and the evidence and trace types: nothing is written twice.
//
// # Tools
//
//	<operator>      one per operator of the algebra (temporal_reachability, ...):
//	                input = the operator's argument schema, output = its envelope
//	                {op, args, as_of_tt, dataset_extent, result, result_digest}
//	validate_plan   {plan, uids}              → {valid, violations}
//	run_plan        {plan, uids, as_of_tt}    → {trace_digest, trace_uri, as_of_tt, ok,
//	                                             steps, answer, certified}
//	verify_answer   {trace_digest | trace, answer} → the certified answer
//	                                             {text, claims, withheld, metrics}
//	ask             {question, uids, as_of_tt} → {reading, answer, claims, withheld,
//	                                             attempts, trace_digest, ...}
//	stats           {}                        → the store's statistics
//	trace_verify    {trace_digest | trace}    → {reproduced, steps: [...]}
//	trace_check     {trace_digest | trace}    → {verdict: FRESH | POSSIBLY STALE, steps:
//	                                             [{fresh, reasons: [{tt, batch, op,
//	                                             touched, valid, step_id}], ...}]}
//	trace_refresh   {trace_digest | trace}    → {old_answer, new_answer, answer_changed,
//	                                             steps: [{old/new status and digest}]}
//	answers_list    {}                        → the saved answers, every generation
//	answers_check   {names}                   → {stale, answers: [{..., check}]}
//	validate_write  {ops: "JSONL", provenance, override} → {admitted, violations,
//	                                             preview: {opened, closed}} (the write
//	                                             contract, package writecheck; reads only)
//	write_batch     {ops: "JSONL"}            → {tt, ops}   (only with --allow-writes)
//	answers_save    {name, trace_digest | trace} → the saved generation (writes)
//	answers_refresh {name}                    → {saved, refresh}            (writes)
//
// trace_check, trace_refresh, answers_save take a trace by digest or inline;
// an inline trace must reproduce at its recorded belief time, so that its
// recorded dependency scopes can be trusted. A read-only server sees the
// store as of its open: it reports writes made before it opened (to traces
// pinned earlier), and none made later (a writer cannot open the store
// while it runs). The service keeps the index of written batches it built
// last and rebuilds it from the log only after a new batch, or for a trace
// older than it reaches. Saved answers live in the store directory (package
// answers); a writable server orders its appends with a mutex, and its
// exclusive store lock keeps every other appender out.
//
// # Published schemas
//
// Every schema in the catalog is published in the form stock clients
// accept (publish; CheckStrict is the rule a test holds every schema to):
// no boolean sub-schemas ({} for "anything"), no null keywords, no bound
// or default beyond ±(2^53-1), which a JavaScript client would round (the
// server still checks them). Output schemas give the structure (field
// names and types, three levels deep) without descriptions; the long
// reference, the motif catalogue included, is the tgms://manual resource
// the descriptions point to. A window's t_b may be omitted or null for
// the open end 2^62, and an integer in (2^62, 2^62+512], the decimal a
// double holding 2^62 prints as, is read as 2^62.
//
// # Errors
//
// A refused call is a Failure {code, message, violations}: violations are
// the plan contract's objects {code, rule, step_id, path, message, hint,
// allowed, expected}, the same the CLI prints, so an agent repairs a bad
// call the way it repairs a rejected plan. Operator refusals become one
// violation with rule "op.<name>" and the path into the arguments.
package tools
