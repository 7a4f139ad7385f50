// Package ops is the operator algebra: a fixed registry of typed,
// deterministic, bounded, cost-guarded temporal operators over a pinned
// belief state of the store.
//
// Each operator (Spec) declares its argument schema, its result schema
// (every field with its type, nested row fields included, uid-valued fields
// marked), its row order with tie rules, a cost model over store
// statistics, and its kernel. The registry is the single source for the
// CLI (tgms ops, tgms call), the plan contract and the agent's manual.
//
// # Envelope (wire format of a call)
//
//	{"op": NAME,
//	 "args": {...},            arguments after defaults, as_of_tt pinned
//	 "as_of_tt": T,            the belief time the call read (0 for operators that read no store)
//	 "dataset_extent": {"vt_min": N, "vt_max": N},   the store now; informational
//	 "result": {...},          the payload
//	 "result_digest": HEX}     sha256 of the canonical JSON of result
//
// All of it is canonical JSON (package canon); computed floats are rounded
// to 9 decimals. The digest covers the payload only, so a result pinned at a
// past belief time is byte-identical after later writes.
//
// # Paging
//
// A paginated result carries "rows" (one page), "rows_total" (the size of
// the whole result), "truncated" (more rows exist, or another list of the
// payload was cut) and "cursor". The cursor is base64url (no padding) of the
// canonical JSON {"after": KEY, "tt": T}: the sort key of the last row of
// the page and the belief time it was read at. Passing it back continues
// after that key at that belief time, so pages stay consistent while
// writers commit; passing it with a different as_of_tt is an error.
//
// # Errors
//
// A refusal is an *Error {code, message, details}: E_SCHEMA (arguments do
// not fit the schema; details.path is a JSON Pointer and details.expected
// the sub-schema), E_INVALID_ARG, E_NOT_FOUND (details.uid), E_COST
// (details.estimate, details.ceilings, details.hint), E_LIMIT, E_INTERNAL.
package ops
