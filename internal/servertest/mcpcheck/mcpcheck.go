// Package mcpcheck is the battery of checks the MCP tests run against a
// client session, whatever the transport (in memory, stdio, streamable
// HTTP): the same assertions for every way in.
package mcpcheck

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tgms-go/tgms/internal/servertest/testdb"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/server/tools"
)

// Call calls a tool and decodes its structured content.
func Call(t testing.TB, cs *mcp.ClientSession, name string, args any) (map[string]any, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: want one text content, got %d", name, len(res.Content))
	}
	var fromText map[string]any
	if tc, ok := res.Content[0].(*mcp.TextContent); !ok || json.Unmarshal([]byte(tc.Text), &fromText) != nil {
		t.Fatalf("%s: the text content is not one JSON object", name)
	}
	if res.IsError {
		// Errors carry no structured content: clients check it against
		// the output schema, which describes the success.
		if res.StructuredContent != nil {
			t.Fatalf("%s: a tool error with structured content %v", name, res.StructuredContent)
		}
		e, _ := fromText["error"].(map[string]any)
		for _, k := range []string{"code", "message", "rule", "path", "hint", "violations"} {
			if _, ok := e[k]; !ok {
				t.Fatalf("%s: the error has no %q: %v", name, k, fromText)
			}
		}
		return fromText, true
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: structured content %s: %v", name, b, err)
	}
	if !reflect.DeepEqual(fromText, m) {
		t.Fatalf("%s: the text content is not the structured content", name)
	}
	return m, false
}

// Violations returns a tool error's violations.
func Violations(t testing.TB, m map[string]any) []map[string]any {
	t.Helper()
	e, _ := m["error"].(map[string]any)
	list, _ := e["violations"].([]any)
	var out []map[string]any
	for _, v := range list {
		out = append(out, v.(map[string]any))
	}
	if len(out) == 0 {
		t.Fatalf("a tool error without violations: %v", m)
	}
	return out
}

// Run checks a session against a server over testdb's store, read-only.
func Run(t *testing.T, cs *mcp.ClientSession, s *testdb.Store) {
	ctx := context.Background()
	t.Run("tools", func(t *testing.T) {
		lt, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		published := map[string]*tools.Tool{}
		for _, tool := range tools.Catalog(false) {
			published[tool.Name] = tool
		}
		byName := map[string]*mcp.Tool{}
		for _, tool := range lt.Tools {
			byName[tool.Name] = tool
		}
		for _, spec := range ops.All() {
			tool, ok := byName[spec.Name]
			if !ok {
				t.Errorf("operator %s is not a tool", spec.Name)
				continue
			}
			// The published schemas are the catalog's: the registry's
			// arguments and result in the form stock clients accept.
			want, _ := json.Marshal(published[spec.Name].Input)
			got, _ := json.Marshal(tool.InputSchema)
			if !jsonEqual(want, got) {
				t.Errorf("%s: input schema differs from the catalog's:\n got %s\nwant %s", spec.Name, got, want)
			}
			for which, s := range map[string]any{"input": tool.InputSchema, "output": tool.OutputSchema} {
				var m tools.Schema
				b, _ := json.Marshal(s)
				if err := json.Unmarshal(b, &m); err != nil {
					t.Fatal(err)
				}
				if err := tools.CheckStrict(m); err != nil {
					t.Errorf("%s: %s schema as listed: %v", spec.Name, which, err)
				}
			}
			var in struct {
				Properties map[string]any `json:"properties"`
			}
			json.Unmarshal(got, &in)
			if names := slices.Sorted(maps.Keys(in.Properties)); !slices.Equal(names, spec.Args.FieldNames()) {
				t.Errorf("%s: input fields %v, the registry's %v", spec.Name, names, spec.Args.FieldNames())
			}
			var out struct {
				Properties struct {
					Result struct {
						Properties map[string]any `json:"properties"`
					} `json:"result"`
				} `json:"properties"`
			}
			b, _ := json.Marshal(tool.OutputSchema)
			json.Unmarshal(b, &out)
			if names := slices.Sorted(maps.Keys(out.Properties.Result.Properties)); !slices.Equal(names, spec.Result.FieldNames()) {
				t.Errorf("%s: output result fields %v, the registry's %v", spec.Name, names, spec.Result.FieldNames())
			}
		}
		for _, name := range []string{"validate_plan", "run_plan", "verify_answer", "ask", "stats", "trace_verify", "trace_check", "trace_refresh", "answers_list", "answers_check", "recall", "why"} {
			if byName[name] == nil {
				t.Errorf("tool %s missing", name)
			}
		}
		for _, name := range tools.WriteTools {
			if byName[name] != nil {
				t.Errorf("%s is listed on a read-only server", name)
			}
		}
		ops, _ := json.Marshal(byName["validate_plan"].InputSchema)
		for _, op := range []string{"temporal_reachability", "version_history"} {
			if !strings.Contains(string(ops), `"`+op+`"`) {
				t.Errorf("validate_plan's plan schema does not list operator %s", op)
			}
		}
	})
	t.Run("call operator", func(t *testing.T) {
		m, isErr := Call(t, cs, "temporal_reachability", s.ReachArgs())
		if isErr {
			t.Fatalf("error: %v", m)
		}
		env, err := s.DB.Call(ctx, "temporal_reachability", s.ReachArgs())
		if err != nil {
			t.Fatal(err)
		}
		if m["result_digest"] != env.ResultDigest {
			t.Fatalf("result digest %v, a direct call gives %s", m["result_digest"], env.ResultDigest)
		}
		if got := m["result"].(map[string]any)["rows_total"]; got != float64(4) {
			t.Fatalf("rows_total %v, want 4", got)
		}
		m, isErr = Call(t, cs, "temporal_reachability", map[string]any{"src": "a", "window": map[string]any{"t_a": 5, "t_b": 1}})
		if !isErr {
			t.Fatalf("an inverted window was accepted: %v", m)
		}
		v := Violations(t, m)[0]
		if v["code"] != "E_INVALID_ARG" || v["path"] != "/window" || v["rule"] != "op.temporal_reachability" || v["hint"] == "" {
			t.Fatalf("violation %v", v)
		}
	})
	t.Run("validate bad plan", func(t *testing.T) {
		p := s.ReachPlan()
		p["steps"].([]any)[0].(map[string]any)["op"] = "temporal_reach"
		m, isErr := Call(t, cs, "validate_plan", map[string]any{"plan": p, "uids": []string{"a"}})
		if isErr || m["valid"] != false {
			t.Fatalf("validate_plan: %v", m)
		}
		v := m["violations"].([]any)[0].(map[string]any)
		allowed, _ := v["allowed"].([]any)
		if v["rule"] != "op.unknown" || v["path"] != "/steps/0/op" || !slices.Contains(allowed, any("temporal_reachability")) {
			t.Fatalf("violation %v", v)
		}
		m, isErr = Call(t, cs, "run_plan", map[string]any{"plan": p, "uids": []string{"a"}})
		if !isErr || m["error"].(map[string]any)["code"] != "E_PLAN_INVALID" || Violations(t, m)[0]["rule"] != "op.unknown" {
			t.Fatalf("run_plan of a rejected plan: %v", m)
		}
		m, _ = Call(t, cs, "validate_plan", map[string]any{"plan": s.ReachPlan()})
		if m["valid"] != false || m["violations"].([]any)[0].(map[string]any)["rule"] != "ground.literal_uid" {
			t.Fatalf("a literal uid the task did not supply was admitted: %v", m)
		}
	})
	var digest string
	t.Run("run plan", func(t *testing.T) {
		m, isErr := Call(t, cs, "run_plan", map[string]any{"plan": s.ReachPlan(), "uids": []string{"a"}})
		if isErr || m["ok"] != true || m["answer"] != float64(4) {
			t.Fatalf("run_plan: %v", m)
		}
		digest = m["trace_digest"].(string)
		step := m["steps"].([]any)[0].(map[string]any)
		if step["complete"] != true || step["result_digest"] == "" || step["rows_total"] != float64(4) {
			t.Fatalf("step %v", step)
		}
		cert := m["certified"].(map[string]any)
		if !strings.Contains(cert["text"].(string), "4") || len(cert["claims"].([]any)) != 1 {
			t.Fatalf("certified %v", cert)
		}
		rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: m["trace_uri"].(string)})
		if err != nil || !strings.Contains(rr.Contents[0].Text, digest) {
			t.Fatalf("trace resource: %v", err)
		}
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "tgms://trace/" + strings.Repeat("0", 64)}); err == nil {
			t.Fatalf("an unknown trace resolved")
		}
		m, isErr = Call(t, cs, "trace_verify", map[string]any{"trace_digest": digest})
		if isErr || m["reproduced"] != true {
			t.Fatalf("trace_verify: %v", m)
		}
		m, isErr = Call(t, cs, "trace_check", map[string]any{"trace_digest": digest})
		if isErr || m["verdict"] != "FRESH" || m["fresh"] != true || m["batches_since"] != float64(0) {
			t.Fatalf("trace_check of a trace at the last batch: %v", m)
		}
		m, isErr = Call(t, cs, "trace_refresh", map[string]any{"trace_digest": digest})
		if isErr || m["changed"] != false || m["answer_changed"] != false || m["new_trace_digest"] != digest {
			t.Fatalf("trace_refresh with nothing written since: %v", m)
		}
		m, isErr = Call(t, cs, "answers_list", map[string]any{})
		if isErr || len(m["answers"].([]any)) != 0 {
			t.Fatalf("answers_list of a store without saved answers: %v", m)
		}
	})
	t.Run("freshness of an earlier belief", func(t *testing.T) {
		// Pinned before the correction of a, a's history may be stale and
		// the correction is the reason; a refresh shows 1 version becoming 3.
		m, isErr := Call(t, cs, "run_plan", map[string]any{"plan": testdb.HistoryPlan(), "uids": []string{"a"}, "as_of_tt": s.Corrected - 1})
		if isErr || m["answer"] != float64(1) {
			t.Fatalf("run_plan before the correction: %v", m)
		}
		digest := m["trace_digest"].(string)
		rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: m["trace_uri"].(string)})
		if err != nil {
			t.Fatal(err)
		}
		var inline map[string]any
		if err := json.Unmarshal([]byte(rr.Contents[0].Text), &inline); err != nil {
			t.Fatal(err)
		}
		byDigest, _ := Call(t, cs, "trace_check", map[string]any{"trace_digest": digest})
		sent, isErr := Call(t, cs, "trace_check", map[string]any{"trace": inline})
		if isErr || !reflect.DeepEqual(byDigest, sent) {
			t.Fatalf("trace_check of the trace sent inline differs from by digest:\n%v\n%v", sent, byDigest)
		}
		step := sent["steps"].([]any)[0].(map[string]any)
		reasons, _ := step["reasons"].([]any)
		if sent["verdict"] != "POSSIBLY STALE" || sent["batches_since"] != float64(1) || len(reasons) != 1 {
			t.Fatalf("trace_check before the correction: %v", sent)
		}
		r := reasons[0].(map[string]any)
		if r["op"] != "correct" || r["tt"] != float64(s.Corrected) || !strings.Contains(r["touched"].(string), "node a") {
			t.Fatalf("reason %v", r)
		}
		m, isErr = Call(t, cs, "trace_refresh", map[string]any{"trace": inline})
		if isErr || m["old_answer"] != float64(1) || m["new_answer"] != float64(3) || m["answer_changed"] != true || m["new_as_of_tt"] != float64(s.Corrected) {
			t.Fatalf("trace_refresh: %v", m)
		}
		inline["trace_digest"] = strings.Repeat("0", 64)
		if m, isErr = Call(t, cs, "trace_check", map[string]any{"trace": inline}); !isErr {
			t.Fatalf("a tampered trace was checked: %v", m)
		}
		if m, isErr = Call(t, cs, "trace_check", map[string]any{"trace_digest": digest, "trace": inline}); !isErr {
			t.Fatalf("trace_check took both a digest and a trace: %v", m)
		}
	})
	t.Run("verify claims", func(t *testing.T) {
		m, isErr := Call(t, cs, "verify_answer", map[string]any{"trace_digest": digest, "answer": testdb.ReachAnswer()})
		if isErr {
			t.Fatalf("verify_answer: %v", m)
		}
		claims, withheld := m["claims"].([]any), m["withheld"].([]any)
		if len(claims) != 2 || len(withheld) != 1 {
			t.Fatalf("claims %v withheld %v", claims, withheld)
		}
		if claims[0].(map[string]any)["verdict"] != "supported" || withheld[0].(map[string]any)["id"] != "c2" || withheld[0].(map[string]any)["verdict"] != "unsupported" {
			t.Fatalf("verdicts %v / %v", claims, withheld)
		}
		if text := m["text"].(string); strings.Contains(text, "[c2]") || !strings.Contains(text, "[c1]") {
			t.Fatalf("the certified text shows the unsupported claim: %q", m["text"])
		}
	})
	t.Run("ask", func(t *testing.T) {
		m, isErr := Call(t, cs, "ask", map[string]any{"question": testdb.VersionsQuestion()})
		if isErr || m["value"] != float64(3) || m["reading"] == nil || m["text"] == "" {
			t.Fatalf("ask: %v", m)
		}
		m, _ = Call(t, cs, "ask", map[string]any{"question": testdb.VersionsQuestion(), "as_of_tt": s.Corrected - 1})
		if m["value"] != float64(1) {
			t.Fatalf("ask before the correction: %v", m["value"])
		}
		m, _ = Call(t, cs, "ask", map[string]any{"question": "Which node is the most influential one?"})
		if m["refusal"] == nil || m["value"] != nil {
			t.Fatalf("an unreadable question was answered: %v", m)
		}
	})
	t.Run("memory reads", func(t *testing.T) { MemoryReads(t, cs, s) })
	t.Run("validate_write", func(t *testing.T) { ValidateWrite(t, cs, s) })
	t.Run("read-only refuses memory writes", func(t *testing.T) {
		before := s.DB.LastTT()
		for _, name := range []string{"remember", "correct", "retract"} {
			m, isErr := Call(t, cs, name, map[string]any{"uid": "a", "at": 5, "reason": "r", "provenance": map[string]any{"authority": "user", "actor": "t"}})
			if v := Violations(t, m)[0]; !isErr || v["code"] != tools.EReadOnly || !strings.Contains(v["hint"].(string), "--allow-writes") {
				t.Fatalf("%s on a read-only server: %v", name, m)
			}
		}
		if s.DB.LastTT() != before {
			t.Fatalf("a refused write changed the store")
		}
	})
	t.Run("resources and prompt", func(t *testing.T) {
		rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "tgms://manual"})
		if err != nil {
			t.Fatalf("manual: %v", err)
		}
		// The manual holds what the tool list leaves out: every operator's
		// whole argument descriptions (the motif catalogue), its row order,
		// and every other tool's whole output schema.
		manual := rr.Contents[0].Text
		for _, spec := range ops.All() {
			if !strings.Contains(manual, "## "+spec.Name+"\n") || spec.Order != "" && !strings.Contains(manual, spec.Order) {
				t.Errorf("the manual lacks operator %s or its row order", spec.Name)
			}
			args, _ := tools.Marshal(spec.Args)
			if !strings.Contains(manual, string(args)) {
				t.Errorf("the manual lacks %s's whole argument schema", spec.Name)
			}
		}
		for _, name := range []string{"validate_plan", "run_plan", "ask", "trace_check"} {
			if !strings.Contains(manual, "## "+name+"\n") {
				t.Errorf("the manual lacks tool %s", name)
			}
		}
		if !strings.Contains(manual, `"provenance"`) || !strings.Contains(manual, `"inputs"`) {
			t.Errorf("the manual lacks run_plan's whole output schema (evidence provenance inputs)")
		}
		rr, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "tgms://stats"})
		if err != nil || !strings.Contains(rr.Contents[0].Text, `"nodes":5`) {
			t.Fatalf("stats: %v %v", err, rr)
		}
		p, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "plan", Arguments: map[string]string{"question": s.ReachQuestion()}})
		if err != nil {
			t.Fatal(err)
		}
		body := p.Messages[0].Content.(*mcp.TextContent).Text
		for _, want := range []string{"### temporal_reachability", "TASK UIDS: a", "validate_plan"} {
			if !strings.Contains(body, want) {
				t.Errorf("the plan prompt lacks %q", want)
			}
		}
	})
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// Writer writes one batch of ops (the JSONL format of write_batch) to the
// store the session's server reads.
type Writer func(t *testing.T, jsonl string)

// Fresh checks freshness across a write: a plan's trace is FRESH, then a
// later batch that adds an edge e→f after a reached e makes it POSSIBLY
// STALE with a reason naming the touched edge, and trace_refresh shows the
// answer going from 4 to 5; a batch elsewhere (a new node g alone) keeps
// another trace fresh. With saved answers (save true: the server allows
// writes) it saves the trace first, and answers_check and answers_refresh
// follow it.
func Fresh(t *testing.T, cs *mcp.ClientSession, s *testdb.Store, write Writer, save bool) {
	m, isErr := Call(t, cs, "run_plan", map[string]any{"plan": s.ReachPlan(), "uids": []string{"a"}})
	if isErr {
		t.Fatalf("run_plan: %v", m)
	}
	digest := m["trace_digest"].(string)
	if m, isErr = Call(t, cs, "trace_check", map[string]any{"trace_digest": digest}); isErr || m["verdict"] != "FRESH" {
		t.Fatalf("trace_check before any write: %v", m)
	}
	if save {
		m, isErr = Call(t, cs, "answers_save", map[string]any{"name": "reach-a", "trace_digest": digest})
		if isErr || m["generation"] != float64(1) || m["trace_digest"] != digest {
			t.Fatalf("answers_save: %v", m)
		}
		if m, isErr = Call(t, cs, "answers_save", map[string]any{"name": "reach-a", "trace_digest": digest}); !isErr {
			t.Fatalf("a second save under one name was accepted: %v", m)
		}
	}
	// A node no step reads: the trace stays fresh.
	write(t, `{"op":"assert_node","uid":"g","label":"Person","props":{"name":"Gi"}}`)
	m, isErr = Call(t, cs, "trace_check", map[string]any{"trace_digest": digest})
	if isErr || m["verdict"] != "FRESH" || m["batches_since"] != float64(1) {
		t.Fatalf("trace_check after a write outside the scope: %v", m)
	}
	write(t, fmt.Sprintf(`{"op":"ingest","events":[{"src":"e","dst":"f","rel_type":"MSG","vt_s":%d}],"node_label":"Person"}`, s.Start+6*testdb.Hour))
	m, isErr = Call(t, cs, "trace_check", map[string]any{"trace_digest": digest})
	if isErr || m["verdict"] != "POSSIBLY STALE" || m["fresh"] != false || m["stale_steps"] != float64(1) || m["batches_since"] != float64(2) {
		t.Fatalf("trace_check after a write inside the scope: %v", m)
	}
	step := m["steps"].([]any)[0].(map[string]any)
	reasons := step["reasons"].([]any)
	if step["step_id"] != "s1" || step["fresh"] != false || len(reasons) == 0 {
		t.Fatalf("stale step %v", step)
	}
	r := reasons[0].(map[string]any)
	if !strings.Contains(r["touched"].(string), "e→f") || r["step_id"] != "s1" || r["tt"] == nil || r["op"] == "" {
		t.Fatalf("the reason does not name the touched edge: %v", r)
	}
	for _, x := range reasons {
		if strings.Contains(x.(map[string]any)["touched"].(string), "node g") {
			t.Fatalf("the write outside the scope is given as a reason: %v", x)
		}
	}
	m, isErr = Call(t, cs, "trace_refresh", map[string]any{"trace_digest": digest})
	if isErr || m["changed"] != true || m["answer_changed"] != true || m["old_answer"] != float64(4) || m["new_answer"] != float64(5) {
		t.Fatalf("trace_refresh: %v", m)
	}
	if ch := m["steps"].([]any)[0].(map[string]any); ch["changed"] != true || ch["old_result_digest"] == ch["new_result_digest"] {
		t.Fatalf("refreshed step %v", ch)
	}
	newDigest := m["new_trace_digest"].(string)
	if m, isErr = Call(t, cs, "trace_check", map[string]any{"trace_digest": newDigest}); isErr || m["verdict"] != "FRESH" {
		t.Fatalf("the refreshed trace is not fresh: %v", m)
	}
	if !save {
		return
	}
	m, isErr = Call(t, cs, "answers_check", map[string]any{})
	if isErr || m["stale"] != float64(1) {
		t.Fatalf("answers_check: %v", m)
	}
	if c := m["answers"].([]any)[0].(map[string]any)["check"].(map[string]any); c["verdict"] != "POSSIBLY STALE" {
		t.Fatalf("answers_check verdict %v", c)
	}
	m, isErr = Call(t, cs, "answers_refresh", map[string]any{"name": "reach-a"})
	if isErr || m["saved"].(map[string]any)["generation"] != float64(2) || m["refresh"].(map[string]any)["new_answer"] != float64(5) {
		t.Fatalf("answers_refresh: %v", m)
	}
	m, isErr = Call(t, cs, "answers_list", map[string]any{})
	if list := m["answers"].([]any); isErr || len(list) != 2 || list[0].(map[string]any)["answer"] != float64(4) || list[1].(map[string]any)["answer"] != float64(5) {
		t.Fatalf("answers_list after a refresh: %v", m)
	}
	if m, isErr = Call(t, cs, "answers_check", map[string]any{"names": []string{"reach-a"}}); isErr || m["stale"] != float64(0) {
		t.Fatalf("answers_check after a refresh: %v", m)
	}
	if m, isErr = Call(t, cs, "answers_check", map[string]any{"names": []string{"nobody"}}); !isErr {
		t.Fatalf("answers_check of an unknown name: %v", m)
	}
}

// WriteBatch writes through the session's write_batch tool.
func WriteBatch(cs *mcp.ClientSession) Writer {
	return func(t *testing.T, jsonl string) {
		t.Helper()
		if m, isErr := Call(t, cs, "write_batch", map[string]any{"ops": jsonl}); isErr {
			t.Fatalf("write_batch: %v", m)
		}
	}
}
