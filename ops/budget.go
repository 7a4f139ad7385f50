package ops

import (
	"fmt"

	"github.com/tgms-go/tgms/canon"
)

// DefaultMemBudget is the memory a call (or a whole plan, in the executor)
// may spend on materialized rows unless told otherwise: 256 MiB.
const DefaultMemBudget int64 = 256 << 20

// MaxList is the longest list an argument may hold (a projection of a
// whole earlier result included); the memory budget is the tighter bound.
const MaxList = 1_000_000

// ExecOptions tune one call.
type ExecOptions struct {
	// Whole returns every row of a paged result, ignoring the default page
	// size: the executor runs plan steps that name no limit this way, so a
	// later step reads the whole result. The limit argument is dropped from
	// the recorded arguments.
	Whole bool
	// MemBudget bounds the bytes of rows the call materializes (measured
	// with PayloadBytes); 0 means DefaultMemBudget. Over it, the call is
	// E_LIMIT.
	MemBudget int64
	// Typed leaves rows built from the store's columns (entity_history's,
	// version_history's, snapshot_subgraph's, co_active's pairs,
	// diff_snapshots' lists, neighborhood_evolution's series) in the
	// payload as typed values that encode themselves (canon.Sized)
	// instead of maps, for callers that only encode the envelope
	// (Envelope.Canonical gives the same bytes): the servers' operator
	// tools, tgms call and the benchmark's timed runs. The digest and size
	// are computed from the typed rows either way. The default builds the
	// maps, for callers that read rows (DB.Call, the executor, whose $ref
	// paths, evidence verifier and reporter read trace rows as maps).
	Typed bool
}

// PayloadBytes is the measured in-memory size of a decoded JSON value, in
// bytes (canon.Footprint): 16 per scalar, 16 plus the length per string, 24
// per list plus its items, 48 per object plus 16 plus the key length per
// member plus its value. It is the unit of the memory budget:
// deterministic, so a refusal reproduces, and close to what the Go runtime
// holds.
func PayloadBytes(v any) int64 { return canon.Footprint(v) }

// MemBudget is the bytes of rows this call may materialize.
func (c *Call) MemBudget() int64 {
	if c.mem <= 0 {
		return DefaultMemBudget
	}
	return c.mem
}

// Materialize checks that rows rows of about rowBytes bytes each fit the
// memory budget; what names them in the error ("groups", "rows").
func (c *Call) Materialize(rows, rowBytes int64, what, hint string) error {
	if b := c.MemBudget(); rows*rowBytes > b {
		return Errorf(ELimit, map[string]any{"rows": rows, "bytes": rows * rowBytes, "mem_budget": b, "hint": hint},
			"%d %s of about %d bytes each (%s) exceed the memory budget of %s", rows, what, rowBytes, FormatBytes(rows*rowBytes), FormatBytes(b))
	}
	return nil
}

// FormatBytes writes a byte count for people: 268435456 → "256.0 MiB".
func FormatBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// PageLimit is the limit argument of an operator that cuts its own lists:
// with no limit (a whole executor step) every item, bounded by the memory
// budget.
func (c *Call) PageLimit() int {
	if !c.Has("limit") {
		return MaxList
	}
	return int(c.Int("limit"))
}
