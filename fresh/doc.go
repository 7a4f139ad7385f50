// Package fresh tells whether a trace's answer may have changed since it
// was computed: it compares every batch written after the trace's belief
// time with each step's dependency scope (ops.Scope, recorded in the
// step's evidence record).
//
// An Index lists, for the batches after a belief time, the identities each
// one touched: a node whose believed versions changed, an edge identity
// whose believed versions changed, a uid that became known. A touch
// carries the valid-time hull of the identity's versions just before and
// just after the batch, so it covers every fragment an operator may read.
// Build makes one from a store's event log; Index.Add extends one batch at
// a time.
//
// A step is FRESH when no touch after its belief time meets its scope and
// every step it reads is fresh; a trace is fresh when every step is. The
// check errs on the wide side only:
//   - a step that failed keeps the scope of its literal arguments, unless
//     the refusal depends on the whole store (E_COST, E_INTERNAL) or its
//     arguments came from references: then every write meets it;
//   - a page with a next-page cursor depends on the belief time itself
//     (the cursor names it), so any later batch meets it;
//   - a step pinned by its own literal as_of_tt never goes stale by itself.
//
// The cost guard reads store-wide statistics, so a fresh plan may still be
// refused by it after the store grows; it is never given a different
// answer. Refresh re-runs a trace's plan at the current belief and
// compares each step's result with the old one.
package fresh
