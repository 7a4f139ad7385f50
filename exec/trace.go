package exec

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/tgms-go/tgms/canon"
)

// TraceVersion is the trace format this release writes. Version 1 (a
// trace without "tgms_trace") is still read and verified: its digest
// covers the plan digest, the belief time, each step's status, digests,
// error code and scope, and the answer. Version 2's digest covers every
// field but telemetry and the digest itself: the certification flag and
// the report (claims, verdicts, certified text) included.
const TraceVersion = 2

// Report is a reporter's answer recorded in a trace with the evidence
// gate's verdicts on it. Its values are canonical JSON values (package
// evidence fills them in: Answer is an evidence.Answer, Verdicts its
// evidence.Result list, Text the certified text).
type Report struct {
	Answer   any    `json:"answer"`
	Verdicts any    `json:"verdicts"`
	Text     string `json:"text"`
}

// AttachReport records a report in the trace and recomputes the trace
// digest, which then covers it.
func (t *Trace) AttachReport(r *Report) error {
	t.Report = r
	d, err := t.ComputeDigest()
	if err != nil {
		return err
	}
	t.TraceDigest = d
	return nil
}

// FormatVersion is the trace's format version (1 for a trace that names
// none).
func (t *Trace) FormatVersion() int {
	if t.Version == 0 {
		return 1
	}
	return t.Version
}

// ComputeDigest computes the trace digest of the trace's content by the
// rule of its format version.
func (t *Trace) ComputeDigest() (string, error) {
	switch t.FormatVersion() {
	case 1:
		return t.digestV1()
	case 2:
		return t.digestV2()
	}
	return "", fmt.Errorf("trace format version %d is not one this release reads (1 to %d): upgrade tgms", t.Version, TraceVersion)
}

// CheckDigest reports whether the recorded trace_digest is the digest of
// the trace's content: an error names the mismatch (an edited or damaged
// trace).
func (t *Trace) CheckDigest() error {
	d, err := t.ComputeDigest()
	if err != nil {
		return err
	}
	if d != t.TraceDigest {
		return fmt.Errorf("the trace's content does not match its trace_digest (recorded %s, content %s): the trace was edited or damaged", short(t.TraceDigest), short(d))
	}
	return nil
}

func short(d string) string {
	if len(d) > 16 {
		return d[:16]
	}
	return d
}

// Canonical is the trace as a canonical JSON value (the object the trace
// JSON decodes to, integers int64), telemetry included.
func (t *Trace) Canonical() (map[string]any, error) {
	b, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	v, err := canon.Parse(b)
	if err != nil {
		return nil, err
	}
	return v.(map[string]any), nil
}

// digestV2 is the version 2 digest: of the canonical trace without
// trace_digest and telemetry. The large values (plan, arguments, results,
// answer, report) are canonical values already and go into the digested
// object as they are; only the rest takes the JSON round trip, so the
// object is the one Canonical gives.
func (t *Trace) digestV2() (string, error) {
	shallow := *t
	shallow.Plan, shallow.Answer, shallow.Report = nil, nil, nil
	shallow.Steps = make([]StepRecord, len(t.Steps))
	for i, st := range t.Steps {
		st.Args, st.Result, st.ResultExcerpt = nil, nil, nil
		shallow.Steps[i] = st
	}
	m, err := shallow.Canonical()
	if err != nil {
		return "", err
	}
	delete(m, "trace_digest")
	delete(m, "telemetry")
	if t.Plan != nil {
		m["plan"] = t.Plan
	}
	m["answer"] = t.Answer
	if r := t.Report; r != nil {
		m["report"] = map[string]any{"answer": r.Answer, "verdicts": r.Verdicts, "text": r.Text}
	}
	steps, _ := m["steps"].([]any)
	for i, st := range t.Steps {
		sm := steps[i].(map[string]any)
		for k, v := range map[string]map[string]any{"args": st.Args, "result": st.Result, "result_excerpt": st.ResultExcerpt} {
			if len(v) > 0 { // omitempty, as the JSON has it
				sm[k] = v
			}
		}
	}
	return canon.Digest(m)
}

// digestV1 is the version 1 digest.
func (t *Trace) digestV1() (string, error) {
	steps := make([]any, len(t.Steps))
	for i, s := range t.Steps {
		code := ""
		if s.Error != nil {
			code = s.Error.Code
		}
		var scope any
		if s.Evidence != nil && s.Evidence.Scope != nil {
			scope = s.Evidence.Scope.Value()
		}
		steps[i] = map[string]any{"step_id": s.StepID, "status": s.Status, "call_digest": s.CallDigest, "result_digest": s.ResultDigest, "error_code": code, "scope": scope}
	}
	return canon.Digest(map[string]any{"plan_digest": t.PlanDigest, "as_of_tt": t.AsOfTT, "steps": steps, "answer": t.Answer})
}

// AsVersion1 turns a trace this release ran into the version 1 form (no
// format number, certification flag or report; the version 1 digest), to
// compare it with a version 1 trace.
func (t *Trace) AsVersion1() error {
	t.Certified, t.UncertifiedReason, t.Report = nil, "", nil
	if t.Version != 1 {
		t.Version = 0
	}
	d, err := t.digestV1()
	if err != nil {
		return err
	}
	t.TraceDigest = d
	return nil
}

// ReadTrace decodes a trace written as JSON, keeping every number in the
// canonical value model (integers as int64, exact beyond 2^53). It does not
// check the trace digest (CheckDigest does; evidence.VerifyTrace checks
// everything by re-executing the plan).
func ReadTrace(data []byte) (*Trace, error) {
	var t Trace
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("not a trace: %w", err)
	}
	if t.Version < 0 || t.Version > TraceVersion {
		return nil, fmt.Errorf("trace format version %d is not one this release reads (1 to %d): upgrade tgms", t.Version, TraceVersion)
	}
	norm := func(m map[string]any) (map[string]any, error) {
		if m == nil {
			return nil, nil
		}
		b, err := json.Marshal(m)
		if err != nil {
			return nil, err
		}
		v, err := canon.Parse(b)
		if err != nil {
			return nil, err
		}
		return v.(map[string]any), nil
	}
	normAny := func(v any) (any, error) {
		if v == nil {
			return nil, nil
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		return canon.Parse(b)
	}
	var err error
	if t.Plan, err = norm(t.Plan); err != nil {
		return nil, fmt.Errorf("trace plan: %w", err)
	}
	for i := range t.Steps {
		s := &t.Steps[i]
		for _, f := range []*map[string]any{&s.Args, &s.Result, &s.ResultExcerpt} {
			if *f, err = norm(*f); err != nil {
				return nil, fmt.Errorf("trace step %s: %w", s.StepID, err)
			}
		}
	}
	if t.Answer, err = normAny(t.Answer); err != nil {
		return nil, fmt.Errorf("trace answer: %w", err)
	}
	if r := t.Report; r != nil {
		if r.Answer, err = normAny(r.Answer); err != nil {
			return nil, fmt.Errorf("trace report: %w", err)
		}
		if r.Verdicts, err = normAny(r.Verdicts); err != nil {
			return nil, fmt.Errorf("trace report: %w", err)
		}
	}
	return &t, nil
}
