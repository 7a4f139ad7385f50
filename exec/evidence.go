package exec

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/plan"
)

// Evidence is what a step's result can support: the belief state it was
// computed in, how complete it is, and where it came from.
type Evidence struct {
	Basis        Basis        `json:"basis"`
	Completeness Completeness `json:"completeness"`
	Provenance   Provenance   `json:"provenance"`
	// Scope is what in the store the result depends on (ops.ScopeOf): a
	// later batch that meets no part of it cannot change the result.
	Scope *ops.Scope `json:"scope,omitempty"`
}

// Basis is the belief state of a result.
type Basis struct {
	AsOfTT bt.Time        `json:"as_of_tt"`         // pinned belief time (0: the step reads no store)
	Window *bt.Interval   `json:"window,omitempty"` // the valid-time window the call covered, if it has one
	Times  map[string]any `json:"times,omitempty"`  // other valid-time arguments (t_valid, t1, t2)
}

// Completeness says which parts of a result are the whole truth.
//
// Complete means every row of the logical result was delivered and every
// input the step read was complete in the role it played. Tainted means some
// input was incomplete where it changes the answer (a truncated list used
// as a seed set, a filter, or the rows to count): then no field of the
// result is certified, rows_total included. Fields gives each top-level
// field's state: "complete", "partial" (a page of a longer list), or
// "uncertified" (computed from incomplete inputs).
type Completeness struct {
	RowsTotal    int64             `json:"rows_total"`
	RowsReturned int64             `json:"rows_returned"`
	Truncated    bool              `json:"truncated"`
	Tainted      bool              `json:"tainted"`
	Complete     bool              `json:"complete"`
	Reason       string            `json:"reason,omitempty"`
	Fields       map[string]string `json:"fields"`
}

// Provenance links a result to the call that made it and its inputs.
type Provenance struct {
	Op           string  `json:"op"`
	CallDigest   string  `json:"call_digest"`
	ResultDigest string  `json:"result_digest"`
	Inputs       []Input `json:"inputs"`
}

// Input is one reference a step resolved: which step and field it read, for
// which argument, and whether what it read was complete.
type Input struct {
	StepID       string `json:"step_id"`
	Ref          string `json:"ref"`
	Arg          string `json:"arg"` // JSON Pointer into the step's arguments: the role
	ResultDigest string `json:"result_digest"`
	Incomplete   bool   `json:"incomplete"`
	Reason       string `json:"reason,omitempty"`
}

// Field states.
const (
	FieldComplete    = "complete"
	FieldPartial     = "partial"
	FieldUncertified = "uncertified"
)

func newEvidence(r *StepRecord, env *ops.Envelope) *Evidence {
	e := &Evidence{
		Basis:      Basis{AsOfTT: env.AsOfTT},
		Provenance: Provenance{Op: r.Op, CallDigest: r.CallDigest, ResultDigest: r.ResultDigest, Inputs: r.inputs},
	}
	if e.Provenance.Inputs == nil {
		e.Provenance.Inputs = []Input{}
	}
	slices.SortFunc(e.Provenance.Inputs, func(a, b Input) int {
		return cmp.Or(strings.Compare(a.Arg, b.Arg), strings.Compare(a.Ref, b.Ref))
	})
	if w, ok := env.Args["window"].(map[string]any); ok {
		ta, _ := w["t_a"].(int64)
		tb, _ := w["t_b"].(int64)
		e.Basis.Window = &bt.Interval{Start: ta, End: tb}
	}
	for _, k := range []string{"t_valid", "t1", "t2"} {
		if v, ok := env.Args[k]; ok {
			if e.Basis.Times == nil {
				e.Basis.Times = map[string]any{}
			}
			e.Basis.Times[k] = v
		}
	}
	c := &e.Completeness
	c.RowsTotal, c.RowsReturned, c.Truncated, c.Tainted = r.RowsTotal, r.RowsReturned, r.Truncated, r.UpstreamTruncated
	c.Fields = map[string]string{}
	var reasons []string
	for _, in := range r.inputs {
		if in.Incomplete {
			reasons = append(reasons, fmt.Sprintf("input %s (for %s) was incomplete: %s", in.Ref, in.Arg, in.Reason))
		}
	}
	partial := false
	for k, v := range env.Result {
		state := FieldComplete
		switch {
		case c.Tainted:
			state = FieldUncertified
		case listTruncated(env.Result, k, v):
			state, partial = FieldPartial, true
		}
		c.Fields[k] = state
	}
	if partial {
		reasons = append(reasons, fmt.Sprintf("the result is a page: %d of %d rows", r.RowsReturned, r.RowsTotal))
	}
	c.Complete = !c.Tainted && !partial && !c.Truncated
	if c.Truncated && !partial {
		reasons = append(reasons, "the operator reported a truncated result")
	}
	c.Reason = strings.Join(reasons, "; ")
	return e
}

// listTruncated reports whether field k of a result is a list cut short:
// rows when the result is truncated, X when X_truncated is set or X_total
// exceeds the list's length.
func listTruncated(res map[string]any, k string, v any) bool {
	list, ok := v.([]any)
	if !ok {
		return false
	}
	if t, _ := res[k+"_truncated"].(bool); t {
		return true
	}
	if n, ok := res[k+"_total"].(int64); ok && n > int64(len(list)) {
		return true
	}
	if k == "rows" {
		if n, ok := res["rows_total"].(int64); ok && n > int64(len(list)) {
			return true
		}
	}
	return false
}

// incompleteRead says why reading ref from a producer yields incomplete
// data ("" when it does not): the producer's inputs were incomplete, or the
// reference reads a whole list (or projects one) that is cut short. Picking
// rows[i] from a page is complete: rows are totally ordered, so the i-th row
// of a page is the i-th row of the whole result. Reading a *_total count is
// complete: it is certified even when the page is short.
func incompleteRead(producer *StepRecord, ref plan.Ref) string {
	if producer.UpstreamTruncated {
		return fmt.Sprintf("step %s was computed from incomplete inputs", producer.StepID)
	}
	if len(ref.Path) == 0 {
		return ""
	}
	first := ref.Path[0]
	v := producer.full[first.Name]
	if !listTruncated(producer.full, first.Name, v) {
		return ""
	}
	if first.Index >= 0 {
		return ""
	}
	list, _ := v.([]any)
	return fmt.Sprintf("%s.%s is a page of %d items of a longer list", producer.StepID, first.Name, len(list))
}
