package evidence_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/evidence"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/plan"
)

// irrelevantLeaves are the trace fields no check reads, each with why an
// edit of it cannot change what the trace proves. The leaf-edit test
// requires every entry to match a leaf of the traces it edits (the list is
// not stale) and every edit of a matching leaf to verify (it is truly
// irrelevant); every other leaf's edit must be caught.
var irrelevantLeaves = []struct{ prefix, why string }{
	{"/telemetry/", "timings of this run: they differ on every run, so no digest covers them and nothing reads them as evidence"},
}

func tvIrrelevant(path string) (string, bool) {
	for _, l := range irrelevantLeaves {
		if strings.HasPrefix(path, l.prefix) {
			return l.prefix, true
		}
	}
	return "", false
}

// reportedTrace is a trace of tracePlan with the deterministic reporter's
// answer plus claims of every verdict attached.
func tvReported(t *testing.T, db *tgms.DB) *exec.Trace {
	t.Helper()
	tr, p := tvRun(t, db)
	a := evidence.Mechanical(tr, p)
	a.Claims = append(a.Claims,
		evidence.Claim{ID: "c2", Kind: evidence.KindEntity, Step: "s4", Path: "rows[*].uid", UIDs: []string{"a1"}},
		evidence.Claim{ID: "c3", Kind: evidence.KindCount, Step: "s5", Path: "rows_total", Value: int64(2)},
		evidence.Claim{ID: "c4", Kind: evidence.KindValue, Step: "s2", Path: "rows[0].earliest_arrival", Value: int64(11)})
	if _, err := evidence.Attach(tr, a); err != nil {
		t.Fatal(err)
	}
	return tr
}

func tvRun(t *testing.T, db *tgms.DB) (*exec.Trace, *plan.Plan) {
	t.Helper()
	v := tvPlan(t, tracePlan)
	tr := exec.Run(context.Background(), db, v, exec.Options{})
	if !tr.OK {
		t.Fatalf("trace not ok: %+v", tr.Steps)
	}
	return tr, v
}

func tvJSON(t *testing.T, tr *exec.Trace) []byte {
	t.Helper()
	b, err := json.MarshalIndent(tr, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func tvVerify(t *testing.T, db *tgms.DB, b []byte) (*evidence.TraceCheck, error) {
	t.Helper()
	tr, err := exec.ReadTrace(b)
	if err != nil {
		return nil, err
	}
	return evidence.VerifyTrace(context.Background(), db, tr)
}

func TestTraceRecordsCertification(t *testing.T) {
	db := payments(t)
	tr := tvReported(t, db)
	if tr.Version != exec.TraceVersion || tr.Certified == nil || !*tr.Certified || tr.UncertifiedReason != "" {
		t.Fatalf("version %d certified %v (%q), want version %d certified", tr.Version, tr.Certified, tr.UncertifiedReason, exec.TraceVersion)
	}
	if err := tr.CheckDigest(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tr.Report.Text, "[c1] The count is 3") {
		t.Fatalf("report text %q", tr.Report.Text)
	}
	// A step read from a page is not certified, and the trace says why.
	v := tvPlan(t, strings.Replace(tracePlan, `"from":"s3.value"`, `"from":"s4.rows"`, 1))
	page := exec.Run(context.Background(), db, v, exec.Options{})
	if page.Certified == nil || *page.Certified || !strings.Contains(page.UncertifiedReason, "page") {
		t.Fatalf("paged answer: certified %v (%q)", page.Certified, page.UncertifiedReason)
	}
}

// TestTraceVerifyCatchesAnswerEdit is the report's case: the answer 3
// edited to 999 (in the answer, in the reporter's claim, or both) fails,
// naming the field.
func TestTraceVerifyCatchesAnswerEdit(t *testing.T) {
	db := payments(t)
	tr := tvReported(t, db)
	chk, err := evidence.VerifyTrace(context.Background(), db, tr)
	if err != nil || !chk.OK() {
		t.Fatalf("unedited trace: %v %v", err, chk.Err())
	}
	var m map[string]any
	json.Unmarshal(tvJSON(t, tr), &m)
	m["answer"] = 999
	b, _ := json.Marshal(m)
	chk, err = tvVerify(t, db, b)
	if err != nil || chk.OK() || !strings.Contains(chk.Err().Error(), "/answer (recorded 999, recomputed 3)") {
		t.Fatalf("edited answer: %v %v", err, chk.Err())
	}
	// The claim edited too, with its verdict and text made to agree: the
	// verdict is recomputed (unsupported), and the digest names the edit.
	m["answer"] = 999
	rep := m["report"].(map[string]any)
	rep["answer"].(map[string]any)["claims"].([]any)[0].(map[string]any)["value"] = 999
	rep["text"] = strings.Replace(rep["text"].(string), "count is 3", "count is 999", 1)
	b, _ = json.Marshal(m)
	chk, err = tvVerify(t, db, b)
	if err != nil || chk.OK() {
		t.Fatalf("edited claim: %v", err)
	}
	paths := tvPaths(chk.Diffs)
	for _, want := range []string{"/answer", "/report/text", "/report/verdicts/0/verdict"} {
		if !slices.Contains(paths, want) {
			t.Fatalf("edited claim: diffs %v lack %s", paths, want)
		}
	}
}

func tvPaths(ds []evidence.Diff) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Path)
	}
	return out
}

// TestTraceVerifyVersion1 verifies a trace written by the release before
// trace formats were numbered (testdata/trace-v1.json: tracePlan on the
// payments store), and catches an edit of its answer.
func TestTraceVerifyVersion1(t *testing.T) {
	db := payments(t)
	b, err := os.ReadFile("testdata/trace-v1.json")
	if err != nil {
		t.Fatal(err)
	}
	chk, err := tvVerify(t, db, b)
	if err != nil || !chk.OK() {
		t.Fatalf("version 1 trace does not verify: %v %v", err, chk.Err())
	}
	tr, _ := exec.ReadTrace(b)
	if tr.FormatVersion() != 1 || tr.CheckDigest() != nil {
		t.Fatalf("version %d digest %v", tr.FormatVersion(), tr.CheckDigest())
	}
	edited := strings.Replace(string(b), `"answer": 3,`, `"answer": 999,`, 1)
	if edited == string(b) {
		t.Fatal("testdata trace has no answer 3")
	}
	chk, err = tvVerify(t, db, []byte(edited))
	if err != nil || chk.OK() || chk.Diffs[0].Path != "/answer" {
		t.Fatalf("edited version 1 answer: %v %+v", err, chk)
	}
	tr, _ = exec.ReadTrace([]byte(edited))
	if tr.CheckDigest() == nil {
		t.Fatal("a version 1 digest must cover the answer")
	}
}

// TestTraceVerifyEveryLeaf edits every leaf of real traces (a version 2
// trace with a report, and the version 1 testdata trace), one at a time,
// and requires each edit to be caught (refused when read, unverifiable, or
// a Diff) unless the leaf is in irrelevantLeaves, whose edits must verify.
func TestTraceVerifyEveryLeaf(t *testing.T) {
	db := payments(t)
	v1, err := os.ReadFile("testdata/trace-v1.json")
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for name, data := range map[string][]byte{"v2": tvJSON(t, tvReported(t, db)), "v1": v1} {
		root, err := canon.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		leaves := 0
		for _, path := range tvLeaves("", root) {
			leaves++
			edited := tvEdit(t, root, path)
			b, err := canon.Marshal(edited)
			if err != nil {
				t.Fatal(err)
			}
			chk, err := tvVerify(t, db, b)
			caught := err != nil || !chk.OK()
			if prefix, ok := tvIrrelevant(path); ok {
				used[prefix] = true
				if caught {
					t.Errorf("%s: editing %s (listed irrelevant) was caught: %v %v; remove it from the list", name, path, err, chk.Err())
				}
				continue
			}
			if !caught {
				t.Errorf("%s: editing %s was not caught", name, path)
			}
		}
		if leaves < 100 {
			t.Fatalf("%s: only %d leaves: not a real trace", name, leaves)
		}
	}
	for _, l := range irrelevantLeaves {
		if !used[l.prefix] {
			t.Errorf("irrelevant leaf %s matches no leaf of the traces: a stale entry", l.prefix)
		}
	}
}

// leafPaths lists the JSON Pointers of every leaf: scalars, and empty
// objects and arrays.
func tvLeaves(path string, v any) []string {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			return []string{path}
		}
		var out []string
		for k, e := range x {
			out = append(out, tvLeaves(path+"/"+k, e)...)
		}
		slices.Sort(out)
		return out
	case []any:
		if len(x) == 0 {
			return []string{path}
		}
		var out []string
		for i, e := range x {
			out = append(out, tvLeaves(path+"/"+strconv.Itoa(i), e)...)
		}
		return out
	}
	return []string{path}
}

// editLeaf returns a deep copy of root with the leaf at path changed to a
// different value of the same kind.
func tvEdit(t *testing.T, root any, path string) any {
	t.Helper()
	b, _ := canon.Marshal(root)
	cp, _ := canon.Parse(b)
	parts := strings.Split(path, "/")[1:]
	var set func(v any, i int) any
	set = func(v any, i int) any {
		if i == len(parts) {
			return tvChanged(v)
		}
		switch x := v.(type) {
		case map[string]any:
			x[parts[i]] = set(x[parts[i]], i+1)
			return x
		case []any:
			n, _ := strconv.Atoi(parts[i])
			x[n] = set(x[n], i+1)
			return x
		}
		t.Fatalf("bad path %s", path)
		return nil
	}
	return set(cp, 0)
}

func tvChanged(v any) any {
	switch x := v.(type) {
	case int64:
		if x >= 1<<53 || x <= -(1<<53) {
			// Integers beyond 2^53 compare as doubles (VerifyTrace): the
			// smallest edit a double holds at 2^62 is 1024.
			return x - 4096
		}
		return x + 1
	case float64:
		return x + 0.5
	case string:
		return x + "x"
	case bool:
		return !x
	case nil:
		return int64(1)
	case map[string]any:
		return map[string]any{"x": int64(1)}
	case []any:
		return []any{"x"}
	}
	panic(fmt.Sprintf("unknown value %T", v))
}

func tvPlan(t *testing.T, js string) *plan.Plan {
	t.Helper()
	v := plan.ValidateJSON([]byte(js), plan.Options{})
	if !v.Valid {
		t.Fatalf("plan rejected: %+v", v.Violations)
	}
	return v.Plan
}

// TestTraceVerifyThroughDoubles: a trace that passed through a client
// holding numbers as doubles (2^62 comes back as 4611686018427388000)
// still verifies.
func TestTraceVerifyThroughDoubles(t *testing.T) {
	db := payments(t)
	var m any
	if err := json.Unmarshal(tvJSON(t, tvReported(t, db)), &m); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(m)
	if !strings.Contains(string(b), "4611686018427388000") {
		t.Fatal("the trace holds no integer beyond 2^53")
	}
	chk, err := tvVerify(t, db, b)
	if err != nil || !chk.OK() {
		t.Fatalf("%v %v", err, chk.Err())
	}
}

// BenchmarkVerifyTrace: re-execute and compare the six-step trace with its
// report.
func BenchmarkVerifyTrace(b *testing.B) {
	db := payments(b)
	v := plan.ValidateJSON([]byte(tracePlan), plan.Options{})
	tr := exec.Run(context.Background(), db, v.Plan, exec.Options{})
	if _, err := evidence.Attach(tr, evidence.Mechanical(tr, v.Plan)); err != nil {
		b.Fatal(err)
	}
	data, _ := json.Marshal(tr)
	b.ResetTimer()
	for b.Loop() {
		rec, err := exec.ReadTrace(data)
		if err != nil {
			b.Fatal(err)
		}
		chk, err := evidence.VerifyTrace(context.Background(), db, rec)
		if err != nil || !chk.OK() {
			b.Fatal(err, chk.Err())
		}
	}
}
