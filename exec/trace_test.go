package exec_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/exec"
)

// A trace survives writing and reading: the digest of what was read is the
// recorded one, in format 2, and any edit of a covered field changes it.
func TestTraceDigestRoundTrip(t *testing.T) {
	db := store(t)
	tr := exec.Run(context.Background(), db, mustPlan(t, reachPlan), exec.Options{})
	b, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	back, err := exec.ReadTrace(b)
	if err != nil {
		t.Fatal(err)
	}
	if back.FormatVersion() != exec.TraceVersion || back.CheckDigest() != nil {
		t.Fatalf("version %d digest %v", back.FormatVersion(), back.CheckDigest())
	}
	back.Answer = int64(999)
	if back.CheckDigest() == nil {
		t.Fatal("the digest does not cover the answer")
	}
	back.Answer = tr.Answer
	f := false
	back.Certified = &f
	if back.CheckDigest() == nil {
		t.Fatal("the digest does not cover the certification flag")
	}
	if _, err := exec.ReadTrace([]byte(`{"tgms_trace": 3, "steps": []}`)); err == nil {
		t.Fatal("a trace of a later format was read")
	}
}

// FuzzReadTrace: reading any bytes as a trace never panics, and a trace
// that reads has a digest or an error.
func FuzzReadTrace(f *testing.F) {
	f.Add([]byte(`{"tgms_trace":2,"plan":{},"steps":[{"step_id":"s1","args":{"a":1}}],"answer":3,"report":{"answer":{"claims":[]},"verdicts":[],"text":""}}`))
	f.Add([]byte(`{"steps":[{"evidence":{"scope":{}}}],"answer":[1,2]}`))
	f.Add([]byte(`{"tgms_trace":-1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := exec.ReadTrace(data)
		if err != nil {
			return
		}
		if d, err := tr.ComputeDigest(); err == nil && len(d) != 64 {
			t.Fatalf("digest %q", d)
		}
	})
}

// The trace digest is the digest of the canonical trace (Canonical) less
// trace_digest and telemetry, for traces with whole results, excerpts and
// a report, and for the same traces read back from JSON.
func TestDigestIsOfTheCanonicalTrace(t *testing.T) {
	small := exec.Run(context.Background(), store(t), mustPlan(t, reachPlan), exec.Options{})
	big := exec.Run(context.Background(), pairStore(t), mustPlan(t, onePairPlan), exec.Options{})
	if s1, _ := big.Step("s1"); s1.ResultExcerpt == nil {
		t.Fatal("want a trace with an excerpt")
	}
	if err := big.AttachReport(&exec.Report{Answer: map[string]any{"text": "x", "claims": []any{}}, Verdicts: []any{}, Text: "y"}); err != nil {
		t.Fatal(err)
	}
	for _, tr := range []*exec.Trace{small, big} {
		b, _ := json.Marshal(tr)
		back, err := exec.ReadTrace(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range []*exec.Trace{tr, back} {
			m, err := x.Canonical()
			if err != nil {
				t.Fatal(err)
			}
			delete(m, "trace_digest")
			delete(m, "telemetry")
			want, _ := canon.Digest(m)
			if got, _ := x.ComputeDigest(); got != want || got != tr.TraceDigest {
				t.Fatalf("digest %s, of the canonical trace %s, recorded %s", got, want, tr.TraceDigest)
			}
		}
	}
}
