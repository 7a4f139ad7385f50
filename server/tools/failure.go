package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/plan"
)

// Codes of refusals that are not the plan contract's or an operator's.
const (
	EBusy     = "E_BUSY"     // too many heavy calls at once; retry
	EReadOnly = "E_READONLY" // a write tool on a read-only server
	EWrite    = "E_WRITE"    // a write batch the store refused
	ETrace    = "E_TRACE"    // an unknown trace digest, or a trace that does not reproduce
)

// Failure is a refused call: a stable code, what was wrong, and the
// violations an agent acts on. Status is the HTTP status it maps to.
type Failure struct {
	Code       string           `json:"code"`
	Message    string           `json:"message"`
	Violations []plan.Violation `json:"violations"`
	Status     int              `json:"-"`
}

func (f *Failure) Error() string { return f.Code + ": " + f.Message }

// MarshalJSON writes a Failure as every refusal reads on the wire:
// {code, message, rule, path, hint, violations}, where rule, path and hint
// are the first violation's (the one to fix first) and violations is
// never null. A message or hint over 1 KiB (one that quotes the request)
// is cut to its beginning and digest, so a refusal never outgrows the
// request that caused it.
func (f *Failure) MarshalJSON() ([]byte, error) {
	w := struct {
		Code       string           `json:"code"`
		Message    string           `json:"message"`
		Rule       string           `json:"rule"`
		Path       string           `json:"path"`
		Hint       string           `json:"hint"`
		Violations []plan.Violation `json:"violations"`
	}{Code: f.Code, Message: clip(f.Message), Violations: clipViolations(slices.Clone(f.Violations))}
	if w.Violations == nil {
		w.Violations = []plan.Violation{}
	}
	if len(w.Violations) > 0 {
		w.Rule, w.Path, w.Hint = w.Violations[0].Rule, w.Violations[0].Path, w.Violations[0].Hint
	}
	return Marshal(w)
}

// HTTP statuses of failures.
const (
	statusBadRequest  = 400
	statusNotFound    = 404
	statusForbidden   = 403
	statusConflict    = 409
	statusUnprocessed = 422
	statusUnavailable = 503
	statusInternal    = 500
)

// fail builds a Failure with one violation.
func fail(status int, code, rule, path, hint string, allowed []string, format string, args ...any) *Failure {
	msg := fmt.Sprintf(format, args...)
	return &Failure{Code: code, Message: msg, Status: status, Violations: []plan.Violation{{
		Code: code, Rule: rule, Path: path, Message: msg, Hint: hint, Allowed: allowed,
	}}}
}

// badArg is a tool argument that does not fit the tool's input schema.
func badArg(path, hint, format string, args ...any) *Failure {
	return fail(statusBadRequest, ops.ESchema, "tool.args", path, hint, nil, format, args...)
}

// rejected is a plan the contract did not admit.
func rejected(v plan.Verdict) *Failure {
	return &Failure{Code: plan.EPlanInvalid, Status: statusUnprocessed, Violations: v.Violations,
		Message: fmt.Sprintf("the plan contract rejected the plan with %d violation(s); nothing ran", len(v.Violations))}
}

// fromOpError turns an operator refusal into a Failure whose one
// violation points into the call's arguments, as the executor renders
// step failures.
func fromOpError(op string, err error) *Failure {
	var oe *ops.Error
	if !errors.As(err, &oe) {
		return fail(statusInternal, ops.EInternal, "op."+op, "", "", nil, "%s: %v", op, err)
	}
	v := plan.Violation{Code: oe.Code, Rule: "op." + op, Message: oe.Message}
	if p, ok := oe.Details["path"].(string); ok {
		v.Path = p
	}
	if h, ok := oe.Details["hint"].(string); ok {
		v.Hint = h
	}
	if a, ok := oe.Details["allowed"].([]string); ok {
		v.Allowed = a
	}
	if e, ok := oe.Details["expected"].(*ops.Schema); ok {
		v.Expected = e
	}
	status := statusBadRequest
	switch oe.Code {
	case ops.ENotFound:
		status = statusNotFound
	case ops.ECost, ops.ELimit:
		status = statusUnprocessed
	case ops.EInternal:
		status = statusInternal
	}
	return &Failure{Code: oe.Code, Message: oe.Message, Status: status, Violations: []plan.Violation{v}}
}

// fromWriteError turns a refused write batch into a Failure; line is the
// 1-based JSONL line of the op (0: the batch as a whole).
func fromWriteError(line int, err error) *Failure {
	path, code := "/ops", EWrite
	if line > 0 {
		path = fmt.Sprintf("/ops/line/%d", line)
	}
	var oe *bt.OpError
	if errors.As(err, &oe) {
		code = oe.Code
	}
	f := fail(statusUnprocessed, code, "write.op", path, "fix the op and send the whole batch again; nothing was written", nil, "%v", err)
	return f
}

// Marshal renders a tool output or a Failure as JSON, without HTML
// escaping and without a trailing newline.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
