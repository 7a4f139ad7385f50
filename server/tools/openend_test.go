package tools_test

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/internal/servertest/testdb"
	"github.com/tgms-go/tgms/server/tools"
)

// TestOpenWindowEnd: a window whose end is omitted, null, 2^62, or 2^62
// as a JavaScript double prints it (4611686018427388000) is the same open
// window, for an operator tool and inside a plan; a larger end is still
// refused.
func TestOpenWindowEnd(t *testing.T) {
	s := testdb.New(t)
	svc := tools.New(s.DB, tools.Options{})
	ctx := context.Background()
	digest := func(window string) (string, *tools.Failure) {
		args, err := canon.Parse([]byte(`{"src":"a","window":` + window + `}`))
		if err != nil {
			t.Fatal(err)
		}
		out, f := svc.Call(ctx, "temporal_reachability", args.(map[string]any))
		if f != nil {
			return "", f
		}
		var env struct {
			ResultDigest string `json:"result_digest"`
			Args         struct {
				Window struct {
					TB int64 `json:"t_b"`
				} `json:"window"`
			} `json:"args"`
		}
		b, _ := tools.Marshal(out)
		json.Unmarshal(b, &env)
		if env.Args.Window.TB != bt.OpenEnd {
			t.Errorf("window %s ran with t_b %d", window, env.Args.Window.TB)
		}
		return env.ResultDigest, nil
	}
	start := json.Number(strconv.FormatInt(s.Start, 10))
	want, f := digest(`{"t_a":` + string(start) + `,"t_b":4611686018427387904}`)
	if f != nil {
		t.Fatal(f)
	}
	for _, w := range []string{
		`{"t_a":` + string(start) + `}`,
		`{"t_a":` + string(start) + `,"t_b":null}`,
		`{"t_a":` + string(start) + `,"t_b":4611686018427388000}`,
		`{"t_a":` + string(start) + `,"t_b":4611686018427388416}`,
	} {
		if got, f := digest(w); f != nil || got != want {
			t.Errorf("window %s: digest %s, failure %v; want %s", w, got, f, want)
		}
	}
	if _, f := digest(`{"t_a":` + string(start) + `,"t_b":4611686018427388417}`); f == nil || f.Violations[0].Path != "/window/t_b" {
		t.Errorf("an end past 2^62 + 512 was accepted: %v", f)
	}
	// Inside a plan, validate_plan and run_plan read it the same way.
	p := s.ReachPlan()
	delete(p["steps"].([]any)[0].(map[string]any)["args"].(map[string]any)["window"].(map[string]any), "t_b")
	out, f := svc.Call(ctx, "run_plan", map[string]any{"plan": p, "uids": []any{"a"}})
	if f != nil {
		t.Fatalf("a plan with an open window: %v", f)
	}
	if r := out.(*tools.RunResult); !r.OK || r.Steps[0].Args["window"].(map[string]any)["t_b"] != bt.OpenEnd {
		t.Fatalf("run_plan with an open window: %+v", r.Steps[0].Args)
	}
}

// TestToolListSize bounds what an agent pays for the tool list in every
// conversation: the listed descriptions and schemas of every tool.
func TestToolListSize(t *testing.T) {
	var list []map[string]any
	for _, tool := range tools.Catalog(true) {
		list = append(list, map[string]any{"name": tool.Name, "description": tool.Description, "inputSchema": tool.Input, "outputSchema": tool.Output})
		if len(tool.Description) > 600 {
			t.Errorf("%s: a %d-byte description; the reference belongs in tgms://manual", tool.Name, len(tool.Description))
		}
	}
	b, _ := json.Marshal(map[string]any{"tools": list})
	// 36 tools (the memory tools and validate_write among them) with a
	// worked example each; the budget grows only with new tools.
	const limit = 84 << 10
	t.Logf("tools/list of %d tools: %d bytes", len(list), len(b))
	if len(b) > limit {
		t.Errorf("the tool list is %d bytes, over %d", len(b), limit)
	}
}
