// Package writecheck is the write contract: the rules a proposed batch
// must meet before anything is written, checked against the store's
// current beliefs, with every violation collected in one pass and shaped
// like the plan contract's ({code, rule, op, path, message, hint,
// expected}; path is a JSON Pointer into the batch {provenance, override,
// ops: [...]}).
//
// The rules:
//
//	provenance.invalid  the batch's provenance is malformed (authority one of
//	                    user, model, import, system; text fields UTF-8, no NUL,
//	                    at most 4096 bytes)
//	op.invalid          an op fails its own checks (bitemporal.Op.Validate)
//	time.bounds         a valid time outside [1970-01-01, 9999-12-31], other
//	                    than the open end 2^62
//	entity.unknown      an op names a node that does not exist at the op's
//	                    valid time (no believed version overlaps it) and that
//	                    no earlier op of the batch creates (assert_node); an
//	                    edge endpoint, a retracted or corrected node or edge.
//	                    Bulk ingest ops are exempt: they create their
//	                    endpoints by design
//	belief.implicit     an assert overlaps a believed version of the same
//	                    node or edge: it would replace what was believed
//	                    without saying why. Say correct (the old belief was
//	                    wrong) or retract at t and assert from t (the world
//	                    changed)
//	authority.override  a model-authority batch would close (correct or
//	                    retract) a version a user stated, and the batch does
//	                    not say override: true
//	props.type          a property's JSON type differs from the types the
//	                    store (or an earlier op of the batch) already used for
//	                    that key; int and float count as one type (number),
//	                    and null matches any
//	plan.refused        the store's planner refuses the batch (the error it
//	                    would return on write)
//
// Check also returns a preview: the versions the batch would open and the
// believed versions it would close, computed by the store's own planner,
// so what the preview says is what the write does.
//
// The contract is enforced on batches that state a provenance (the agent
// path: tgms.DB.WriteBatch with Prov set, the memory tools, 'tgms write'
// of a file that states one); the store's own writes, replays and imports
// are not subject to it. validate_write and 'tgms write --dry-run' check
// any batch.
package writecheck
