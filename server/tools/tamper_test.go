package tools_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/internal/servertest/testdb"
	"github.com/tgms-go/tgms/server/tools"
)

// An inline trace whose answer was edited is refused by trace_verify,
// answers_save and verify_answer, naming the field; the unedited trace
// passes.
func TestEditedInlineTraceIsRefused(t *testing.T) {
	s := testdb.New(t)
	svc := tools.New(s.DB, tools.Options{Writer: s.DB})
	ctx := context.Background()
	run, f := svc.Call(ctx, "run_plan", map[string]any{"plan": s.ReachPlan(), "uids": []any{"a"}})
	if f != nil {
		t.Fatal(f)
	}
	tr, _ := svc.Traces().Get(run.(*tools.RunResult).TraceDigest)
	b, _ := json.Marshal(tr)
	inline := func(edit func(m map[string]any)) map[string]any {
		v, err := canon.Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		m := v.(map[string]any)
		edit(m)
		return m
	}
	if _, f := svc.Call(ctx, "trace_verify", map[string]any{"trace": inline(func(map[string]any) {})}); f != nil {
		t.Fatalf("unedited trace: %v", f)
	}
	edited := inline(func(m map[string]any) { m["answer"] = int64(999) })
	for tool, args := range map[string]map[string]any{
		"trace_verify":  {"trace": edited},
		"answers_save":  {"name": "edited", "trace": edited},
		"verify_answer": {"trace": edited, "answer": testdb.ReachAnswer()},
	} {
		_, f := svc.Call(ctx, tool, args)
		if f == nil || !strings.Contains(f.Error(), "/answer") {
			t.Errorf("%s accepted a trace with an edited answer: %v", tool, f)
		}
	}
	list, _ := svc.Call(ctx, "answers_list", map[string]any{})
	if len(list.(*tools.AnswersList).Answers) != 0 {
		t.Fatalf("an edited trace was saved: %+v", list)
	}
}
