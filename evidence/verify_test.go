package evidence_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/evidence"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/plan"
)

// payments builds a small graph: acme pays a1 at 10, a1 pays a2 at 20, a2
// pays a3 at 30; beta pays a3 at 5; burst: eight payments among b-nodes in
// [60, 62).
func payments(t testing.TB) *tgms.DB {
	t.Helper()
	var tick bt.Time
	db, err := tgms.Open(t.TempDir(), &tgms.Options{NoSync: true, Clock: func() bt.Time { tick += 100; return tick }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	p, _ := bt.ParseProps([]byte(`{"name":"ACME Corp"}`))
	if _, err := db.Write(bt.AssertNode("acme", "Org", p, bt.Always)); err != nil {
		t.Fatal(err)
	}
	evs := []bt.Event{
		{Src: "acme", Dst: "a1", RelType: "PAY", VtS: 10},
		{Src: "a1", Dst: "a2", RelType: "PAY", VtS: 20},
		{Src: "a2", Dst: "a3", RelType: "PAY", VtS: 30},
		{Src: "beta", Dst: "a3", RelType: "PAY", VtS: 5},
	}
	if _, err := db.Ingest(evs, "Account", nil); err != nil {
		t.Fatal(err)
	}
	return db
}

// The trace every case cites:
//
//	s1 resolve "ACME"                        complete
//	s2 reachability from s1.rows[0].uid      complete: a1@10, a2@20, a3@30
//	s3 count of s2.rows                      3, complete
//	s4 reachability, limit 2                 a page: a1, a2 of 3
//	s5 snapshot seeded by s4.rows[*].uid     tainted (seeds from a page)
//	s6 history of the first reached node     complete (s4.rows[0] is certain)
const tracePlan = `{"plan_id":"ev","steps":[
 {"id":"s1","op":"resolve_entities","args":{"query":"ACME"},"depends_on":[]},
 {"id":"s2","op":"temporal_reachability","args":{"src":{"$ref":"s1.rows[0].uid"},"window":{"t_a":0,"t_b":100}},"depends_on":["s1"]},
 {"id":"s3","op":"compute","args":{"fn":"count","input":{"$ref":"s2.rows"}},"depends_on":["s2"]},
 {"id":"s4","op":"temporal_reachability","args":{"src":{"$ref":"s1.rows[0].uid"},"window":{"t_a":0,"t_b":100},"limit":2},"depends_on":["s1"]},
 {"id":"s5","op":"snapshot_subgraph","args":{"seeds":{"$ref":"s4.rows[*].uid"},"t_valid":20,"hops":1},"depends_on":["s4"]},
 {"id":"s6","op":"entity_history","args":{"uid":{"$ref":"s4.rows[0].uid"},"include_edges":true},"depends_on":["s4"]}],
 "answer_spec":{"kind":"count","from":"s3.value"}}`

func runTrace(t testing.TB) (*exec.Trace, *plan.Plan) {
	t.Helper()
	db := payments(t)
	v := plan.ValidateJSON([]byte(tracePlan), plan.Options{})
	if !v.Valid {
		t.Fatalf("plan rejected: %+v", v.Violations)
	}
	tr := exec.Run(context.Background(), db, v.Plan, exec.Options{})
	if !tr.OK {
		b, _ := json.Marshal(tr.Steps)
		t.Fatalf("trace not ok: %s", b)
	}
	return tr, v.Plan
}

func i64(n int64) *int64 { return &n }

func TestCompletenessPropagation(t *testing.T) {
	tr, _ := runTrace(t)
	want := map[string]struct{ complete, tainted bool }{
		"s1": {true, false}, "s2": {true, false}, "s3": {true, false},
		"s4": {false, false}, // a page
		"s5": {false, true},  // seeded by a page: uncertified
		"s6": {true, false},  // rows[0] of a page is certain
	}
	for id, w := range want {
		s, _ := tr.Step(id)
		c := s.Evidence.Completeness
		if c.Complete != w.complete || c.Tainted != w.tainted {
			t.Errorf("%s: complete %v tainted %v (%s), want %v %v", id, c.Complete, c.Tainted, c.Reason, w.complete, w.tainted)
		}
	}
	s5, _ := tr.Step("s5")
	if s5.Evidence.Completeness.Fields["rows_total"] != exec.FieldUncertified || len(s5.Evidence.Provenance.Inputs) != 1 || !s5.Evidence.Provenance.Inputs[0].Incomplete {
		t.Errorf("s5 evidence %+v", s5.Evidence)
	}
	s4, _ := tr.Step("s4")
	if s4.Evidence.Completeness.Fields["rows"] != exec.FieldPartial || s4.Evidence.Completeness.Fields["rows_total"] != exec.FieldComplete {
		t.Errorf("s4 fields %v", s4.Evidence.Completeness.Fields)
	}
	if s4.Evidence.Basis.AsOfTT != tr.AsOfTT || s4.Evidence.Basis.Window == nil || s4.Evidence.Basis.Window.End != 100 {
		t.Errorf("s4 basis %+v", s4.Evidence.Basis)
	}
}

func TestVerdicts(t *testing.T) {
	tr, _ := runTrace(t)
	asOf := tr.AsOfTT
	s5 := tr.FullResult("s5")
	cases := []struct {
		name  string
		claim evidence.Claim
		want  string
		why   string // a substring of the reason
	}{
		// count
		{"count from a computed value", evidence.Claim{Kind: evidence.KindCount, Step: "s3", Path: "value", Value: int64(3)}, evidence.Supported, "matches"},
		{"count off by one", evidence.Claim{Kind: evidence.KindCount, Step: "s3", Path: "value", Value: int64(4)}, evidence.Unsupported, "evidence says 3"},
		{"count from rows_total of a page", evidence.Claim{Kind: evidence.KindCount, Step: "s4", Path: "rows_total", Value: int64(3)}, evidence.Supported, "matches"},
		{"count of a page is not the total", evidence.Claim{Kind: evidence.KindCount, Step: "s4", Path: "rows", Value: int64(2)}, evidence.Unsupported, "cite rows_total"},
		{"count of a complete list", evidence.Claim{Kind: evidence.KindCount, Step: "s2", Path: "rows", Value: int64(3)}, evidence.Supported, "matches"},
		{"count over a tainted step", evidence.Claim{Kind: evidence.KindCount, Step: "s5", Path: "nodes_total", Value: s5["nodes_total"]}, "", "incomplete inputs"},
		{"count that is not an integer", evidence.Claim{Kind: evidence.KindCount, Step: "s3", Path: "value", Value: 3.5}, evidence.Unverifiable, "integer"},
		// value
		{"value from a row", evidence.Claim{Kind: evidence.KindValue, Step: "s2", Path: "rows[1].earliest_arrival", Value: int64(20)}, evidence.Supported, ""},
		{"value mismatch", evidence.Claim{Kind: evidence.KindValue, Step: "s2", Path: "rows[1].earliest_arrival", Value: int64(21)}, evidence.Unsupported, ""},
		{"value in seconds instead of µs", evidence.Claim{Kind: evidence.KindValue, Step: "s2", Path: "rows[1].earliest_arrival", Value: 0.00002}, evidence.Unsupported, ""},
		{"value on a path that does not exist", evidence.Claim{Kind: evidence.KindValue, Step: "s2", Path: "rows[7].uid", Value: "a1"}, evidence.Unverifiable, "out of range"},
		{"value cited from a missing step", evidence.Claim{Kind: evidence.KindValue, Step: "s9", Path: "value", Value: int64(3)}, evidence.Unverifiable, "no step s9"},
		{"value is never read from arguments", evidence.Claim{Kind: evidence.KindValue, Step: "s2", Path: "window", Value: int64(100)}, evidence.Unverifiable, "no field"},
		{"value from the first row of a page", evidence.Claim{Kind: evidence.KindValue, Step: "s4", Path: "rows[0].uid", Value: "a1"}, evidence.Supported, ""},
		{"value from a tainted step", evidence.Claim{Kind: evidence.KindValue, Step: "s5", Path: "rows_total", Value: s5["rows_total"]}, "", "incomplete inputs"},
		// entity
		{"entity present", evidence.Claim{Kind: evidence.KindEntity, Step: "s2", Path: "rows[*].uid", UIDs: []string{"a1", "a3"}}, evidence.Supported, ""},
		{"entity fabricated", evidence.Claim{Kind: evidence.KindEntity, Step: "s2", Path: "rows[*].uid", UIDs: []string{"a1", "fabricated-0001"}}, evidence.Unsupported, "fabricated-0001"},
		{"entity that is the source, not a result", evidence.Claim{Kind: evidence.KindEntity, Step: "s2", Path: "rows[*].uid", UIDs: []string{"acme"}}, evidence.Unsupported, "acme"},
		{"entity witnessed in a page", evidence.Claim{Kind: evidence.KindEntity, Step: "s4", Path: "rows[*].uid", UIDs: []string{"a2"}}, evidence.Supported, ""},
		{"entity beyond the page", evidence.Claim{Kind: evidence.KindEntity, Step: "s4", Path: "rows[*].uid", UIDs: []string{"a3"}}, evidence.Unverifiable, "later pages"},
		{"entity on a path that is not uids", evidence.Claim{Kind: evidence.KindEntity, Step: "s2", Path: "rows_total", UIDs: []string{"a1"}}, evidence.Unverifiable, "uids"},
		// complete set
		{"complete set", evidence.Claim{Kind: evidence.KindCompleteSet, Step: "s2", Path: "rows[*].uid", UIDs: []string{"a3", "a1", "a2"}}, evidence.Supported, "exactly"},
		{"complete set with a member dropped", evidence.Claim{Kind: evidence.KindCompleteSet, Step: "s2", Path: "rows[*].uid", UIDs: []string{"a1", "a2"}}, evidence.Unsupported, "omits 1"},
		{"complete set with an extra member", evidence.Claim{Kind: evidence.KindCompleteSet, Step: "s2", Path: "rows[*].uid", UIDs: []string{"a1", "a2", "a3", "beta"}}, evidence.Unsupported, "adds 1"},
		{"complete set on a page", evidence.Claim{Kind: evidence.KindCompleteSet, Step: "s4", Path: "rows[*].uid", UIDs: []string{"a1", "a2"}}, evidence.Unverifiable, "incomplete"},
		// ordering
		{"ordering", evidence.Claim{Kind: evidence.KindOrdering, Step: "s2", Path: "rows", Key: "uid", By: "earliest_arrival", First: "a1", Second: "a3"}, evidence.Supported, ""},
		{"ordering swapped", evidence.Claim{Kind: evidence.KindOrdering, Step: "s2", Path: "rows", Key: "uid", By: "earliest_arrival", First: "a3", Second: "a1"}, evidence.Unsupported, "not strictly before"},
		{"ordering with a stranger", evidence.Claim{Kind: evidence.KindOrdering, Step: "s2", Path: "rows", Key: "uid", By: "earliest_arrival", First: "a1", Second: "zz"}, evidence.Unsupported, ""},
		{"ordering beyond the page", evidence.Claim{Kind: evidence.KindOrdering, Step: "s4", Path: "rows", Key: "uid", By: "earliest_arrival", First: "a1", Second: "a3"}, evidence.Unverifiable, "page"},
		// belief
		{"belief at the pinned time", evidence.Claim{Kind: evidence.KindBelief, Step: "s3", Path: "value", Value: int64(3), AsOfTT: i64(asOf)}, evidence.Supported, ""},
		{"belief at another time", evidence.Claim{Kind: evidence.KindBelief, Step: "s3", Path: "value", Value: int64(3), AsOfTT: i64(asOf - 1)}, evidence.Unsupported, "belief time"},
		{"count about another belief time", evidence.Claim{Kind: evidence.KindCount, Step: "s2", Path: "rows_total", Value: int64(3), AsOfTT: i64(1)}, evidence.Unsupported, "belief time"},
		// interval and pattern
		{"interval on a non-interval", evidence.Claim{Kind: evidence.KindInterval, Step: "s2", Path: "rows[0]", TA: i64(0), TB: i64(1)}, evidence.Unverifiable, "t_a"},
		{"pattern citing the wrong operator", evidence.Claim{Kind: evidence.KindPattern, Step: "s2", Pattern: "burst", TA: i64(0), TB: i64(10)}, evidence.Unverifiable, "burst_detection"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.claim.ID = "c" + string(rune('a'+i%26))
			got := evidence.Verify(tr, &evidence.Answer{Claims: []evidence.Claim{c.claim}}, evidence.Options{})[0]
			want := c.want
			if want == "" { // tainted evidence: true claims are only weakly supported
				want = evidence.WeaklySupported
			}
			if got.Verdict != want || !strings.Contains(got.Reason, c.why) {
				t.Fatalf("verdict %s (%s), want %s mentioning %q", got.Verdict, got.Reason, want, c.why)
			}
		})
	}
}

// With completeness tracking off (the ablation), a count over a page and
// a value from tainted evidence pass as supported: that is what tracking
// catches.
func TestCompletenessAblation(t *testing.T) {
	tr, _ := runTrace(t)
	claims := []evidence.Claim{
		{ID: "a", Kind: evidence.KindCount, Step: "s4", Path: "rows", Value: int64(2)},
		{ID: "b", Kind: evidence.KindValue, Step: "s5", Path: "rows_total", Value: int64(0)},
	}
	s5, _ := tr.Step("s5")
	claims[1].Value = s5.Result["rows_total"]
	on := evidence.Verify(tr, &evidence.Answer{Claims: claims}, evidence.Options{})
	off := evidence.Verify(tr, &evidence.Answer{Claims: claims}, evidence.Options{IgnoreCompleteness: true})
	for i := range claims {
		if on[i].Verdict == evidence.Supported || off[i].Verdict != evidence.Supported {
			t.Errorf("claim %s: tracking on %s, off %s", claims[i].ID, on[i].Verdict, off[i].Verdict)
		}
	}
}

func TestGateRendersOnlySupported(t *testing.T) {
	tr, p := runTrace(t)
	a := &evidence.Answer{Text: "ACME reached 4 accounts including zz", Claims: []evidence.Claim{
		{ID: "c1", Kind: evidence.KindCount, Step: "s3", Path: "value", Value: int64(3)},
		{ID: "c2", Kind: evidence.KindEntity, Step: "s2", Path: "rows[*].uid", UIDs: []string{"zz"}},
		{ID: "c3", Kind: evidence.KindCount, Step: "s5", Path: "rows_total", Value: tr.FullResult("s5")["rows_total"]},
	}}
	out := evidence.Gate(tr, a, evidence.Options{})
	if !strings.HasPrefix(out.Text, "[c1] The count is 3 (s3 compute value") || strings.Contains(out.Text, "zz") || strings.Contains(out.Text, "4 accounts") {
		t.Fatalf("certified text: %q", out.Text)
	}
	if len(out.Withheld) != 2 || out.Withheld[0].ID != "c2" || out.Withheld[1].Verdict != evidence.WeaklySupported || out.Metrics.Emitted != 1 || out.Metrics.Unsupported != 1 {
		t.Fatalf("withheld %+v metrics %+v", out.Withheld, out.Metrics)
	}
	none := evidence.Gate(tr, &evidence.Answer{Claims: []evidence.Claim{{ID: "x", Kind: evidence.KindCount, Step: "s3", Path: "value", Value: int64(9)}}}, evidence.Options{})
	if none.Text != evidence.NoCertainAnswer {
		t.Fatalf("no surviving claim: %q", none.Text)
	}
	// The deterministic reporter's claim for the plan's answer is supported.
	m := evidence.Mechanical(tr, p)
	if r := evidence.Verify(tr, m, evidence.Options{}); len(r) != 1 || r[0].Verdict != evidence.Supported {
		t.Fatalf("mechanical answer %+v: %+v", m, r)
	}
}

// A supported claim stays supported when verified against a re-executed
// trace (pinned at the recorded belief time), even after later writes.
func TestSupportedSurvivesReexecution(t *testing.T) {
	db := payments(t)
	v := plan.ValidateJSON([]byte(tracePlan), plan.Options{})
	tr := exec.Run(context.Background(), db, v.Plan, exec.Options{})
	claims := []evidence.Claim{
		{ID: "c1", Kind: evidence.KindCount, Step: "s3", Path: "value", Value: int64(3)},
		{ID: "c2", Kind: evidence.KindCompleteSet, Step: "s2", Path: "rows[*].uid", UIDs: []string{"a1", "a2", "a3"}},
		{ID: "c3", Kind: evidence.KindBelief, Step: "s2", Path: "rows[2].earliest_arrival", Value: int64(30), AsOfTT: i64(tr.AsOfTT)},
	}
	if _, err := db.Write(bt.Retract(bt.EdgeRef(bt.EdgeKey{Src: "a2", Dst: "a3", RelType: "PAY", Disc: "#2.2"}), 30)); err != nil {
		t.Fatal(err)
	}
	again := exec.Run(context.Background(), db, v.Plan, exec.Options{AsOf: tr.AsOfTT})
	for _, r := range evidence.Verify(again, &evidence.Answer{Claims: claims}, evidence.Options{}) {
		if r.Verdict != evidence.Supported {
			t.Errorf("%s: %s (%s) after re-execution", r.ID, r.Verdict, r.Reason)
		}
	}
	now := exec.Run(context.Background(), db, v.Plan, exec.Options{})
	if r := evidence.Verify(now, &evidence.Answer{Claims: claims[:1]}, evidence.Options{}); r[0].Verdict != evidence.Unsupported {
		t.Errorf("the current belief should contradict the old count: %+v", r[0])
	}
}

// Evidence read back from a trace file must match its digest.
func TestTamperedEvidence(t *testing.T) {
	tr, _ := runTrace(t)
	b, _ := json.Marshal(tr)
	var loaded exec.Trace
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	if err := dec.Decode(&loaded); err != nil {
		t.Fatal(err)
	}
	normalizeNumbers(&loaded)
	c := evidence.Claim{ID: "c1", Kind: evidence.KindCount, Step: "s3", Path: "value", Value: int64(3)}
	if r := evidence.Verify(&loaded, &evidence.Answer{Claims: []evidence.Claim{c}}, evidence.Options{}); r[0].Verdict != evidence.Supported {
		t.Fatalf("loaded trace: %+v", r[0])
	}
	s3, _ := loaded.Step("s3")
	s3.Result["value"] = int64(4)
	c.Value = int64(4)
	if r := evidence.Verify(&loaded, &evidence.Answer{Claims: []evidence.Claim{c}}, evidence.Options{}); r[0].Verdict != evidence.Unverifiable || !strings.Contains(r[0].Reason, "tampered") {
		t.Fatalf("tampered trace: %+v", r[0])
	}
}

// normalizeNumbers turns json.Number values into the canon value model.
func normalizeNumbers(tr *exec.Trace) {
	for i := range tr.Steps {
		if tr.Steps[i].Result != nil {
			b, _ := json.Marshal(tr.Steps[i].Result)
			v, _ := canon.Parse(b)
			tr.Steps[i].Result = v.(map[string]any)
		}
	}
}

func TestParseAnswer(t *testing.T) {
	good := `{"text":"x","claims":[{"id":"c1","kind":"count","step":"s3","path":"value","value":3},
 {"id":"c2","kind":"temporal_pattern","step":"s6","pattern":"burst","t_a":40,"t_b":50,"as_of_tt":7}]}`
	a, err := evidence.ParseAnswer([]byte(good))
	if err != nil || len(a.Claims) != 2 || *a.Claims[1].TA != 40 || *a.Claims[1].AsOfTT != 7 {
		t.Fatalf("%+v %v", a, err)
	}
	for in, want := range map[string]string{
		`[]`:                  "must be an object",
		`{"claims":[],"x":1}`: "unknown field",
		`{"claims":[{"id":"c1","kind":"guess","step":"s1"}]}`:                                                                                  "unknown kind",
		`{"claims":[{"id":"c1","kind":"count","step":"s1","value":3}]}`:                                                                        `needs "path"`,
		`{"claims":[{"id":"c1","kind":"count","step":"s1","path":"v","value":3,"uids":[]}]}`:                                                   "does not belong",
		`{"claims":[{"id":"c1","kind":"entity","step":"s1","path":"v","uids":[]}]}`:                                                            "non-empty array",
		`{"claims":[{"id":"c1","kind":"interval","step":"s1","path":"v","t_a":1.5,"t_b":2}]}`:                                                  "integer",
		`{"claims":[{"id":"c1","kind":"value","step":"s1","path":"v","value":1},{"id":"c1","kind":"value","step":"s1","path":"v","value":1}]}`: "duplicate id",
	} {
		if _, err := evidence.ParseAnswer([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseAnswer(%s) = %v, want %q", in, err, want)
		}
	}
}

func FuzzParseAnswer(f *testing.F) {
	f.Add([]byte(`{"text":"x","claims":[{"id":"c1","kind":"count","step":"s3","path":"value","value":3}]}`))
	f.Add([]byte(`{"claims":[{"id":"c1","kind":"ordering","step":"s2","path":"rows","key":"uid","by":"t","first":"a","second":"b"}]}`))
	f.Add([]byte(`{"claims":[{"id":"c1","kind":"interval","step":"s1","path":"rows[0]","t_a":1,"t_b":2},{"id":"c2","kind":"temporal_pattern","step":"s1","pattern":"burst","t_a":1,"t_b":2}]}`))
	f.Add([]byte(`{"claims":[{"id":"c1","kind":"complete_set","step":"s2","path":"rows[*].uid","uids":["a1"],"as_of_tt":3}]}`))
	tr, _ := runTrace(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := evidence.ParseAnswer(data)
		if err == nil && a == nil {
			t.Fatal("nil answer without an error")
		}
		if err != nil {
			return
		}
		// Every parsed answer can be verified and gated: one verdict per
		// claim, each a known verdict (a panic fails the target).
		res := evidence.Verify(tr, a, evidence.Options{})
		if len(res) != len(a.Claims) {
			t.Fatalf("%d verdicts for %d claims", len(res), len(a.Claims))
		}
		for _, r := range res {
			switch r.Verdict {
			case evidence.Supported, evidence.WeaklySupported, evidence.Unsupported, evidence.Unverifiable:
			default:
				t.Fatalf("claim %s: verdict %q", r.ID, r.Verdict)
			}
		}
		evidence.Gate(tr, a, evidence.Options{})
	})
}

// BenchmarkVerify reports claim verification latency per answer (p50 and
// p99): three claims checked and gated against a six-step trace.
func BenchmarkVerify(b *testing.B) {
	tr, _ := runTrace(b)
	a := &evidence.Answer{Claims: []evidence.Claim{
		{ID: "c1", Kind: evidence.KindCount, Step: "s3", Path: "value", Value: int64(3)},
		{ID: "c2", Kind: evidence.KindCompleteSet, Step: "s2", Path: "rows[*].uid", UIDs: []string{"a1", "a2", "a3"}},
		{ID: "c3", Kind: evidence.KindEntity, Step: "s4", Path: "rows[*].uid", UIDs: []string{"a1"}},
	}}
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		evidence.Gate(tr, a, evidence.Options{})
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds())/1e6, "p50-ms")
	b.ReportMetric(float64(times[min(len(times)-1, len(times)*99/100)].Nanoseconds())/1e6, "p99-ms")
}
