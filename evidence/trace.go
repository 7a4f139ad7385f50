package evidence

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/plan"
)

// Attach gates an answer against a trace and records the answer, the
// verdicts and the certified text in the trace (its report), so the trace
// digest covers them and VerifyTrace re-checks them.
func Attach(tr *exec.Trace, a *Answer) (*Certified, error) {
	c := Gate(tr, a, Options{})
	r, err := report(a, c)
	if err != nil {
		return nil, err
	}
	if err := tr.AttachReport(r); err != nil {
		return nil, err
	}
	return c, nil
}

func report(a *Answer, c *Certified) (*exec.Report, error) {
	ans, err := canonValue(a)
	if err != nil {
		return nil, fmt.Errorf("report answer: %w", err)
	}
	verdicts, err := canonValue(c.Claims)
	if err != nil {
		return nil, fmt.Errorf("report verdicts: %w", err)
	}
	return &exec.Report{Answer: ans, Verdicts: verdicts, Text: c.Text}, nil
}

func canonValue(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return canon.Parse(b)
}

// Diff is one field where a recorded trace differs from what re-executing
// it computes.
type Diff struct {
	Path     string `json:"path"`     // JSON Pointer into the trace
	Recorded any    `json:"recorded"` // the recorded value (nil: absent)
	Again    any    `json:"again"`    // the recomputed value (nil: absent)
}

// TraceCheck is the outcome of VerifyTrace.
type TraceCheck struct {
	// Again is the re-execution at the recorded belief time, with the
	// recorded report's answer gated again on it (in the recorded trace's
	// format version).
	Again *exec.Trace
	// Diffs lists every field that differs, in path order; none when the
	// trace verifies.
	Diffs []Diff
}

// OK reports whether the recorded trace is exactly what re-executing it
// computes.
func (c *TraceCheck) OK() bool { return len(c.Diffs) == 0 }

// Err is a *TraceMismatch when the trace does not verify, nil otherwise.
func (c *TraceCheck) Err() error {
	if c.OK() {
		return nil
	}
	return &TraceMismatch{Diffs: c.Diffs}
}

// TraceMismatch is a trace that differs from its re-execution.
type TraceMismatch struct{ Diffs []Diff }

func (e *TraceMismatch) Error() string {
	var parts []string
	for _, d := range e.Diffs[:min(3, len(e.Diffs))] {
		parts = append(parts, describe(d))
	}
	more := ""
	if len(e.Diffs) > 3 {
		more = fmt.Sprintf(" and %d more field(s)", len(e.Diffs)-3)
	}
	return "the trace differs from its re-execution at " + strings.Join(parts, "; ") + more +
		": it was edited, damaged, or is not a trace of this store"
}

func describe(d Diff) string {
	if d.Path == "/trace_digest" {
		return fmt.Sprintf("/trace_digest (recorded %s, content %s: a field re-execution cannot recompute, such as the report's answer, was edited, or the digest itself)", showDiff(d.Recorded), showDiff(d.Again))
	}
	return fmt.Sprintf("%s (recorded %s, recomputed %s)", d.Path, showDiff(d.Recorded), showDiff(d.Again))
}

func showDiff(v any) string {
	if v == nil {
		return "absent"
	}
	s := show(v)
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}

// VerifyTrace re-executes a recorded trace's plan on src at its recorded
// belief time, recomputes the answer, the certification flag and, when the
// trace carries a report, every claim's verdict and the certified text,
// and compares the whole recorded trace with the result field by field
// (telemetry aside: timings are no evidence; integers beyond ±2^53 compare
// as doubles, the precision a JSON client may hold them at). Any difference is a Diff:
// the answer, the claims, the verdicts, the certified text, the plan, a
// step's arguments, results, evidence records or digests, or a trace
// digest that does not match the content (the report's answer object,
// which nothing recomputes, is copied into the re-execution, so an edit of
// it shows as a different trace_digest). The error is for a trace that
// cannot be checked at all (its plan does not parse, its format is
// unknown); ctx bounds the re-execution.
func VerifyTrace(ctx context.Context, src exec.Source, recorded *exec.Trace) (*TraceCheck, error) {
	v1 := recorded.FormatVersion() == 1
	if _, err := recorded.ComputeDigest(); err != nil {
		return nil, err
	}
	if recorded.Plan == nil {
		return nil, fmt.Errorf("the trace records no plan")
	}
	val := plan.Validate(recorded.Plan, plan.Options{})
	if val.Plan == nil {
		msg := "malformed"
		if len(val.Violations) > 0 {
			msg = val.Violations[0].Path + ": " + val.Violations[0].Message
		}
		return nil, fmt.Errorf("the trace's plan does not parse (%s)", msg)
	}
	again := exec.Run(ctx, src, val.Plan, exec.Options{AsOf: recorded.AsOfTT})
	chk := &TraceCheck{Again: again}
	if recorded.Report != nil && !v1 {
		if err := regate(again, recorded.Report); err != nil {
			chk.Diffs = append(chk.Diffs, Diff{Path: "/report/answer", Recorded: recorded.Report.Answer, Again: err.Error()})
		}
	}
	if v1 {
		if err := again.AsVersion1(); err != nil {
			return nil, err
		}
		again.Version = recorded.Version
	}
	rec, err := recorded.Canonical()
	if err != nil {
		return nil, fmt.Errorf("recorded trace: %w", err)
	}
	now, err := again.Canonical()
	if err != nil {
		return nil, fmt.Errorf("re-executed trace: %w", err)
	}
	delete(rec, "telemetry")
	delete(now, "telemetry")
	diffValues("", rec, now, &chk.Diffs)
	slices.SortStableFunc(chk.Diffs, func(a, b Diff) int { return strings.Compare(a.Path, b.Path) })
	return chk, nil
}

// regate gates the recorded report's answer on the re-executed trace and
// records the recomputed verdicts and text in it.
func regate(again *exec.Trace, r *exec.Report) error {
	b, err := canon.Marshal(r.Answer)
	if err != nil {
		return err
	}
	a, err := ParseAnswer(b)
	if err != nil {
		return fmt.Errorf("the recorded answer does not parse: %v", err)
	}
	_, err = Attach(again, a)
	return err
}

// diffValues appends a Diff for every leaf where a and b differ.
func diffValues(path string, a, b any, out *[]Diff) {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			break
		}
		keys := make([]string, 0, len(x)+len(y))
		for k := range x {
			keys = append(keys, k)
		}
		for k := range y {
			if _, dup := x[k]; !dup {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			p := path + "/" + escapePointer(k)
			xv, inA := x[k]
			yv, inB := y[k]
			switch {
			case !inA:
				*out = append(*out, Diff{Path: p, Again: summarize(yv)})
			case !inB:
				*out = append(*out, Diff{Path: p, Recorded: summarize(xv)})
			default:
				diffValues(p, xv, yv, out)
			}
		}
		return
	case []any:
		y, ok := b.([]any)
		if !ok {
			break
		}
		for i := range min(len(x), len(y)) {
			diffValues(path+"/"+strconv.Itoa(i), x[i], y[i], out)
		}
		if len(x) != len(y) {
			*out = append(*out, Diff{Path: path, Recorded: fmt.Sprintf("%d items", len(x)), Again: fmt.Sprintf("%d items", len(y))})
		}
		return
	}
	if !canon.Equal(a, b) && !sameDouble(a, b) {
		*out = append(*out, Diff{Path: path, Recorded: summarize(a), Again: summarize(b)})
	}
}

// sameDouble reports whether two integers beyond ±2^53 are the same
// double: a trace that passed through a JSON client holding numbers as
// doubles (JavaScript) keeps them only to that precision (2^62, the open
// end, comes back as 4611686018427388000).
func sameDouble(a, b any) bool {
	x, okA := a.(int64)
	y, okB := b.(int64)
	const exact = 1 << 53
	if !okA || !okB || (x > -exact && x < exact && y > -exact && y < exact) {
		return false
	}
	return float64(x) == float64(y)
}

func escapePointer(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}
