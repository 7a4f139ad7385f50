package tgms

import (
	"context"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/evidence"
)

// The public API end to end: validate, execute, verify, ask.
func TestAgentAPI(t *testing.T) {
	db := open(t, t.TempDir(), nil)
	defer db.Close()
	if _, err := db.Ingest([]bt.Event{{Src: "a", Dst: "b", RelType: "M", VtS: 10}, {Src: "b", Dst: "c", RelType: "M", VtS: 20}}, "", nil); err != nil {
		t.Fatal(err)
	}
	v := db.Validate([]byte(`{"plan_id":"p","steps":[{"id":"s1","op":"temporal_reachability","args":{"src":"a","window":{"t_a":0,"t_b":100}}}],"answer_spec":{"kind":"count","from":"s1.rows_total"}}`), []string{"a"})
	if !v.Valid {
		t.Fatalf("rejected: %+v", v.Violations)
	}
	tr := db.Execute(context.Background(), v.Plan)
	if !tr.OK || tr.Answer != int64(2) {
		t.Fatalf("trace ok %v, answer %v", tr.OK, tr.Answer)
	}
	c := db.Verify(tr, evidence.Mechanical(tr, v.Plan))
	if c.Metrics.Emitted != 1 || c.Metrics.Claims != 1 {
		t.Fatalf("certified %+v", c)
	}
	if bad := db.Validate([]byte(`{"plan_id":"p","steps":[{"id":"s1","op":"temporal_reachability","args":{"src":"zz","window":{"t_a":0,"t_b":100}}}],"answer_spec":{"kind":"count","from":"s1.rows_total"}}`), nil); bad.Valid {
		t.Fatal("an ungrounded uid was admitted")
	}
	res, err := db.Ask(context.Background(), "How many nodes can a reach along time-respecting paths (each edge no earlier than the one before) with events from 0 to 100?", []string{"a"})
	if err != nil || res.Value != int64(2) {
		t.Fatalf("ask: %v, value %v, refusal %q", err, res.Value, res.Refusal)
	}
}
