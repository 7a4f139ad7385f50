package evidence_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/evidence"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/plan"
)

// Equivalence tests at the verifier's boundaries: for every rule with a
// threshold (numeric tolerance, strict order, interval overlap, set
// completeness) a claim just inside and one just outside, so that moving
// the threshold by one step in either direction turns a case red.

// boundaryStore holds a tie and a burst:
//
//	acme pays t1 and t2 at 10 and t3 at 11 (a tie, then 1 µs later);
//	b-nodes send 1, (3), 3, 1, 2, 3, … events per 10 µs bucket in [0, 100) and
//	8 events in [100, 110): the one flagged bucket.
func boundaryStore(t testing.TB) *tgms.DB {
	t.Helper()
	var tick bt.Time
	db, err := tgms.Open(t.TempDir(), &tgms.Options{NoSync: true, Clock: func() bt.Time { tick += 100; return tick }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	evs := []bt.Event{
		{Src: "acme", Dst: "t1", RelType: "PAY", VtS: 10},
		{Src: "acme", Dst: "t2", RelType: "PAY", VtS: 10},
		{Src: "acme", Dst: "t3", RelType: "PAY", VtS: 11},
	}
	for b := range 10 {
		n := 1 + b%3
		if b == 1 {
			n = 0 // the three acme payments fill bucket 1
		}
		for i := range n {
			evs = append(evs, bt.Event{Src: fmt.Sprintf("b%d", i), Dst: fmt.Sprintf("b%d", i+1), RelType: "MSG", VtS: bt.Time(10*b + 2 + i)})
		}
	}
	for i := range 8 {
		evs = append(evs, bt.Event{Src: fmt.Sprintf("b%d", i), Dst: fmt.Sprintf("b%d", i+1), RelType: "MSG", VtS: bt.Time(100 + i)})
	}
	if _, err := db.Ingest(evs, "Account", nil); err != nil {
		t.Fatal(err)
	}
	return db
}

const boundaryPlan = `{"plan_id":"edges","steps":[
 {"id":"s1","op":"temporal_reachability","args":{"src":"acme","window":{"t_a":0,"t_b":100}},"depends_on":[]},
 {"id":"s2","op":"burst_detection","args":{"target":{"kind":"edge_event_rate"},"window":{"t_a":0,"t_b":200},"stride":10},"depends_on":[]},
 {"id":"s3","op":"compute","args":{"fn":"mean","input":[1,1.000001]},"depends_on":[]}],
 "answer_spec":{"kind":"interval","from":"s2.rows[0]"}}`

func boundaryTrace(t testing.TB) *exec.Trace {
	t.Helper()
	db := boundaryStore(t)
	v := plan.ValidateJSON([]byte(boundaryPlan), plan.Options{UIDs: []string{"acme"}})
	if !v.Valid {
		t.Fatalf("plan rejected: %+v", v.Violations)
	}
	tr := exec.Run(context.Background(), db, v.Plan, exec.Options{})
	if !tr.OK {
		t.Fatalf("trace not ok")
	}
	// The fixture itself: a tie at 10, a row at 11, one flagged bucket.
	rows := tr.FullResult("s1")["rows"].([]any)
	arr := map[string]any{}
	for _, r := range rows {
		m := r.(map[string]any)
		arr[m["uid"].(string)] = m["earliest_arrival"]
	}
	if arr["t1"] != int64(10) || arr["t2"] != int64(10) || arr["t3"] != int64(11) {
		t.Fatalf("reachability fixture: %v", arr)
	}
	flagged := tr.FullResult("s2")["rows"].([]any)
	if len(flagged) != 1 {
		t.Fatalf("burst fixture: %d flagged buckets, want 1: %v", len(flagged), flagged)
	}
	f := flagged[0].(map[string]any)
	if f["t_a"] != int64(100) || f["t_b"] != int64(110) {
		t.Fatalf("burst fixture: flagged %v, want [100, 110)", f)
	}
	if s, ok := f["score"].(float64); !ok || s == math.Trunc(s) {
		t.Fatalf("burst fixture: score %v is not a fractional float", f["score"])
	}
	return tr
}

type boundaryCase struct {
	name  string
	claim evidence.Claim
	want  string
}

func runBoundary(t *testing.T, tr *exec.Trace, cases []boundaryCase) {
	t.Helper()
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.claim.ID = fmt.Sprintf("c%d", i)
			got := evidence.Verify(tr, &evidence.Answer{Claims: []evidence.Claim{c.claim}}, evidence.Options{})[0]
			if got.Verdict != c.want {
				t.Fatalf("verdict %s (%s), want %s", got.Verdict, got.Reason, c.want)
			}
		})
	}
}

// A tie is not "strictly before"; one microsecond is.
func TestOrderingBoundary(t *testing.T) {
	tr := boundaryTrace(t)
	ord := func(a, b string) evidence.Claim {
		return evidence.Claim{Kind: evidence.KindOrdering, Step: "s1", Path: "rows", Key: "uid", By: "earliest_arrival", First: a, Second: b}
	}
	runBoundary(t, tr, []boundaryCase{
		{"tie t1 before t2", ord("t1", "t2"), evidence.Unsupported},
		{"tie t2 before t1", ord("t2", "t1"), evidence.Unsupported},
		{"one µs: t1 before t3", ord("t1", "t3"), evidence.Supported},
		{"one µs: t2 before t3", ord("t2", "t3"), evidence.Supported},
		{"one µs reversed: t3 before t1", ord("t3", "t1"), evidence.Unsupported},
		{"a row before itself", ord("t1", "t1"), evidence.Unsupported},
	})
}

// A burst claim needs an overlapping flagged bucket: sharing only an end
// point with [100, 110) is not overlapping, sharing one microsecond is.
func TestBurstOverlapBoundary(t *testing.T) {
	tr := boundaryTrace(t)
	burst := func(a, b int64) evidence.Claim {
		return evidence.Claim{Kind: evidence.KindPattern, Step: "s2", Pattern: "burst", TA: i64(a), TB: i64(b)}
	}
	runBoundary(t, tr, []boundaryCase{
		{"touching after", burst(110, 120), evidence.Unsupported},
		{"touching before", burst(90, 100), evidence.Unsupported},
		{"last µs inside", burst(109, 120), evidence.Supported},
		{"first µs inside", burst(90, 101), evidence.Supported},
		{"exactly the bucket", burst(100, 110), evidence.Supported},
		{"one µs in the middle", burst(105, 106), evidence.Supported},
		{"covering it", burst(0, 200), evidence.Supported},
		{"far away", burst(150, 200), evidence.Unsupported},
	})
}

// Numbers match within 1e-9 (relative to the evidence when it exceeds 1):
// half the tolerance is the same number, twice it, 1e-6 or 1e-3 relative
// is another number. Integers match integers exactly.
func TestValueToleranceBoundary(t *testing.T) {
	tr := boundaryTrace(t)
	score := tr.FullResult("s2")["rows"].([]any)[0].(map[string]any)["score"].(float64)
	tol := 1e-9 * math.Max(1, math.Abs(score))
	val := func(path string, v any) evidence.Claim {
		return evidence.Claim{Kind: evidence.KindValue, Step: "s2", Path: path, Value: v}
	}
	arr := func(v any) evidence.Claim {
		return evidence.Claim{Kind: evidence.KindValue, Step: "s1", Path: "rows[2].earliest_arrival", Value: v}
	}
	runBoundary(t, tr, []boundaryCase{
		{"float exact", val("rows[0].score", score), evidence.Supported},
		{"float within half the tolerance", val("rows[0].score", score+tol/2), evidence.Supported},
		{"float below by half the tolerance", val("rows[0].score", score-tol/2), evidence.Supported},
		{"float off by twice the tolerance", val("rows[0].score", score+2*tol), evidence.Unsupported},
		{"float below by twice the tolerance", val("rows[0].score", score-2*tol), evidence.Unsupported},
		{"float off by 1e-6 relative", val("rows[0].score", score*(1+1e-6)), evidence.Unsupported},
		{"float off by 1e-3 relative", val("rows[0].score", score*(1+1e-3)), evidence.Unsupported},
		{"float count as an integer", val("rows[0].value", int64(8)), evidence.Supported},
		{"float count off by 2e-8 absolute", val("rows[0].value", 8+2e-8), evidence.Unsupported},
		{"integer as a float within tolerance", arr(11 + 5e-10), evidence.Supported},
		{"integer as a float off by 2e-9", arr(11 + 2e-9), evidence.Unsupported},
		{"integer as a float off by 1e-6", arr(11 + 1e-6), evidence.Unsupported},
		{"integer exact", arr(int64(11)), evidence.Supported},
		// An integer claim against a float 5e-7 away: another number.
		{"integer against a float 5e-7 away", evidence.Claim{Kind: evidence.KindValue, Step: "s3", Path: "value", Value: int64(1)}, evidence.Unsupported},
		{"float against that float", evidence.Claim{Kind: evidence.KindValue, Step: "s3", Path: "value", Value: 1.0000005}, evidence.Supported},
		{"integer off by one", arr(int64(12)), evidence.Unsupported},
	})
}

// A complete set needs complete evidence: over a step computed from a page
// (uncertified) the exact member list is unverifiable, however right; over
// complete evidence it is supported, and membership of the uncertified
// step is only weakly supported.
func TestCompleteSetOverUncertifiedInputs(t *testing.T) {
	tr, _ := runTrace(t)
	s5, _ := tr.Step("s5")
	if !s5.Evidence.Completeness.Tainted {
		t.Fatalf("fixture: s5 is not tainted: %+v", s5.Evidence.Completeness)
	}
	nodes := tr.FullResult("s5")["nodes"].([]any)
	var members []string
	for _, n := range nodes {
		members = append(members, n.(map[string]any)["uid"].(string))
	}
	if len(members) < 2 {
		t.Fatalf("fixture: s5 reached %v", members)
	}
	set := func(step, path string, uids []string) evidence.Claim {
		return evidence.Claim{Kind: evidence.KindCompleteSet, Step: step, Path: path, UIDs: uids}
	}
	runBoundary(t, tr, []boundaryCase{
		{"exact set over uncertified nodes", set("s5", "nodes[*].uid", members), evidence.Unverifiable},
		{"short set over uncertified nodes", set("s5", "nodes[*].uid", members[1:]), evidence.Unverifiable},
		{"membership over uncertified nodes", evidence.Claim{Kind: evidence.KindEntity, Step: "s5", Path: "nodes[*].uid", UIDs: members}, evidence.WeaklySupported},
		{"exact set over complete rows", set("s2", "rows[*].uid", []string{"a1", "a2", "a3"}), evidence.Supported},
		{"exact set over a page", set("s4", "rows[*].uid", []string{"a1", "a2"}), evidence.Unverifiable},
	})
}

// An interval claim names both ends exactly.
func TestIntervalBoundary(t *testing.T) {
	tr := boundaryTrace(t)
	iv := func(a, b int64) evidence.Claim {
		return evidence.Claim{Kind: evidence.KindInterval, Step: "s2", Path: "rows[0]", TA: i64(a), TB: i64(b)}
	}
	runBoundary(t, tr, []boundaryCase{
		{"exact", iv(100, 110), evidence.Supported},
		{"end one µs late", iv(100, 111), evidence.Unsupported},
		{"end one µs early", iv(100, 109), evidence.Unsupported},
		{"start one µs early", iv(99, 110), evidence.Unsupported},
		{"start one µs late", iv(101, 110), evidence.Unsupported},
	})
}
