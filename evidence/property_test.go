package evidence_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/evidence"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/oracle"
	"github.com/tgms-go/tgms/plan"
)

// Property: on random bi-temporal stores and random plans, every claim the
// verifier supports is still supported when the trace is re-executed at its
// recorded belief time after more random batches were written.
func TestSupportedClaimsSurviveLaterWrites(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	checked := 0
	for i := range 120 {
		var tick bt.Time
		db, err := tgms.Open(t.TempDir(), &tgms.Options{NoSync: true, CheckpointBytes: -1, Clock: func() bt.Time { tick += 10; return tick }, Logf: func(string, ...any) {}})
		if err != nil {
			t.Fatal(err)
		}
		hist := oracle.RandomHistory(rng, 12)
		for _, b := range hist[:8] {
			db.Write(b.Ops...) // refused batches are part of the randomness
		}
		uids := []string{"a", "b", "c", "d", "e", "f"}
		x := uids[rng.IntN(len(uids))]
		ta := rng.IntN(60)
		planJSON := fmt.Sprintf(`{"plan_id":"p","steps":[
 {"id":"s1","op":"temporal_reachability","args":{"src":%q,"window":{"t_a":%d,"t_b":%d},"limit":%d}},
 {"id":"s2","op":"entity_history","args":{"uid":%q,"include_edges":true}},
 {"id":"s3","op":"resolve_entities","args":{"query":"a"}}],
 "answer_spec":{"kind":"count","from":"s1.rows_total"}}`, x, ta, ta+1+rng.IntN(80), 1+rng.IntN(4), x)
		v := plan.ValidateJSON([]byte(planJSON), plan.Options{UIDs: uids})
		if !v.Valid {
			db.Close()
			continue // x not registered yet in this history
		}
		tr := exec.Run(context.Background(), db, v.Plan, exec.Options{})
		var claims []evidence.Claim
		for _, s := range tr.Steps {
			res := tr.FullResult(s.StepID)
			if res == nil {
				continue
			}
			if n, ok := res["rows_total"].(int64); ok {
				claims = append(claims, evidence.Claim{Kind: evidence.KindCount, Step: s.StepID, Path: "rows_total", Value: n})
			}
			if rows, _ := res["rows"].([]any); len(rows) > 0 {
				if m, _ := rows[0].(map[string]any); m["uid"] != nil {
					claims = append(claims, evidence.Claim{Kind: evidence.KindValue, Step: s.StepID, Path: "rows[0].uid", Value: m["uid"]},
						evidence.Claim{Kind: evidence.KindEntity, Step: s.StepID, Path: "rows[*].uid", UIDs: []string{m["uid"].(string)}})
				}
			}
		}
		for j := range claims {
			claims[j].ID = fmt.Sprintf("c%d", j)
		}
		before := evidence.Verify(tr, &evidence.Answer{Claims: claims}, evidence.Options{})
		for _, b := range hist[8:] {
			db.Write(b.Ops...)
		}
		again := exec.Run(context.Background(), db, v.Plan, exec.Options{AsOf: tr.AsOfTT})
		after := evidence.Verify(again, &evidence.Answer{Claims: claims}, evidence.Options{})
		for j := range before {
			if before[j].Verdict == evidence.Supported {
				checked++
				if after[j].Verdict != evidence.Supported {
					t.Fatalf("case %d claim %+v: supported, then %s (%s) after later writes", i, claims[j], after[j].Verdict, after[j].Reason)
				}
			}
		}
		db.Close()
	}
	if checked < 100 {
		t.Fatalf("only %d supported claims were checked", checked)
	}
}
