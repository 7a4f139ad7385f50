package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/internal/servertest/testdb"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/server/httpapi"
	"github.com/tgms-go/tgms/server/openapi"
	"github.com/tgms-go/tgms/server/tools"
)

type fixture struct {
	s   *testdb.Store
	svc *tools.Service
	h   http.Handler
}

func newFixture(t testing.TB, opt tools.Options) *fixture {
	s := testdb.New(t)
	svc := tools.New(s.DB, opt)
	doc, err := openapi.JSON(svc.Tools(), "test")
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{s: s, svc: svc, h: httpapi.New(svc, httpapi.Options{MaxBody: 64 << 10, OpenAPI: doc})}
}

// do sends a request and decodes the JSON response.
func (f *fixture) do(t *testing.T, method, path, body string, header ...string) (int, map[string]any) {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	f.h.ServeHTTP(rec, req)
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Fatalf("%s %s: content type %q", method, path, ct)
	}
	var m map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		t.Fatalf("%s %s: not JSON: %s", method, path, rec.Body)
	}
	return rec.Code, m
}

func jsonOf(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// violation is a refusal's first violation, checked to have the CLI's shape.
func violation(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	e, ok := m["error"].(map[string]any)
	if !ok || e["code"] == "" || e["message"] == "" {
		t.Fatalf("not a refusal: %v", m)
	}
	vs, _ := e["violations"].([]any)
	if len(vs) == 0 {
		t.Fatalf("a refusal without violations: %v", m)
	}
	v := vs[0].(map[string]any)
	for _, k := range []string{"code", "rule", "path", "message"} {
		if _, ok := v[k]; !ok {
			t.Fatalf("violation without %s: %v", k, v)
		}
	}
	return v
}

func TestRoutes(t *testing.T) {
	f := newFixture(t, tools.Options{})
	plan := jsonOf(t, map[string]any{"plan": f.s.ReachPlan(), "uids": []string{"a"}})
	var digest string
	cases := []struct {
		name, method, path, body string
		status                   int
		check                    func(t *testing.T, m map[string]any)
	}{
		{"tools", "GET", "/v1/tools", "", 200, func(t *testing.T, m map[string]any) {
			var names []string
			for _, x := range m["tools"].([]any) {
				names = append(names, x.(map[string]any)["name"].(string))
			}
			for _, op := range ops.Names() {
				if !slices.Contains(names, op) {
					t.Errorf("operator %s not listed", op)
				}
			}
		}},
		{"operator", "POST", "/v1/temporal_reachability", jsonOf(t, f.s.ReachArgs()), 200, func(t *testing.T, m map[string]any) {
			env, err := f.s.DB.Call(t.Context(), "temporal_reachability", f.s.ReachArgs())
			if err != nil || m["result_digest"] != env.ResultDigest {
				t.Fatalf("digest %v, direct %v (%v)", m["result_digest"], env, err)
			}
		}},
		{"operator bad args", "POST", "/v1/temporal_reachability", `{"src":"a","window":{"t_a":1,"t_b":"soon"}}`, 400, func(t *testing.T, m map[string]any) {
			if v := violation(t, m); v["code"] != "E_SCHEMA" || v["path"] != "/window/t_b" {
				t.Fatalf("violation %v", v)
			}
		}},
		{"unknown uid", "POST", "/v1/temporal_reachability", `{"src":"zz","window":{"t_a":1,"t_b":2}}`, 404, func(t *testing.T, m map[string]any) {
			if v := violation(t, m); v["code"] != "E_NOT_FOUND" || v["hint"] == "" {
				t.Fatalf("violation %v", v)
			}
		}},
		{"unknown operator", "POST", "/v1/temporal_reach", `{}`, 404, func(t *testing.T, m map[string]any) {
			v := violation(t, m)
			if allowed, _ := v["allowed"].([]any); v["rule"] != "tool.unknown" || !slices.Contains(allowed, any("temporal_reachability")) {
				t.Fatalf("violation %v", v)
			}
		}},
		{"bad JSON", "POST", "/v1/validate_plan", `{"plan": `, 400, func(t *testing.T, m map[string]any) {
			if v := violation(t, m); v["rule"] != "request.json" {
				t.Fatalf("violation %v", v)
			}
		}},
		{"JSON not an object", "POST", "/v1/validate_plan", `[1,2]`, 400, func(t *testing.T, m map[string]any) {
			if v := violation(t, m); v["rule"] != "request.json" || !strings.Contains(v["message"].(string), "array") {
				t.Fatalf("violation %v", v)
			}
		}},
		{"oversized body", "POST", "/v1/validate_plan", `{"plan":"` + strings.Repeat("x", 65<<10) + `"}`, 413, func(t *testing.T, m map[string]any) {
			if v := violation(t, m); v["rule"] != "request.size" {
				t.Fatalf("violation %v", v)
			}
		}},
		{"unknown argument", "POST", "/v1/validate_plan", `{"plan":{},"uid":["a"]}`, 400, func(t *testing.T, m map[string]any) {
			if v := violation(t, m); v["path"] != "/uid" {
				t.Fatalf("violation %v", v)
			}
		}},
		{"validate", "POST", "/v1/validate_plan", plan, 200, func(t *testing.T, m map[string]any) {
			if m["valid"] != true {
				t.Fatalf("verdict %v", m)
			}
		}},
		{"contract-failing plan", "POST", "/v1/run_plan", strings.Replace(plan, `"s1.rows_total"`, `"s1.rows_count"`, 1), 422, func(t *testing.T, m map[string]any) {
			v := violation(t, m)
			if m["error"].(map[string]any)["code"] != "E_PLAN_INVALID" || v["rule"] != "answer.output_field" || v["path"] != "/answer_spec/from" {
				t.Fatalf("violation %v", v)
			}
		}},
		{"run", "POST", "/v1/run_plan", plan, 200, func(t *testing.T, m map[string]any) {
			digest, _ = m["trace_digest"].(string)
			if m["answer"] != float64(4) || len(digest) != 64 {
				t.Fatalf("run %v", m)
			}
		}},
		{"trace", "GET", "/v1/traces/{digest}", "", 200, func(t *testing.T, m map[string]any) {
			if m["trace_digest"] != digest {
				t.Fatalf("trace %v", m["trace_digest"])
			}
		}},
		{"trace bad digest", "GET", "/v1/traces/..%2f..%2fetc", "", 400, func(t *testing.T, m map[string]any) { violation(t, m) }},
		{"trace unknown", "GET", "/v1/traces/" + strings.Repeat("ab", 32), "", 404, func(t *testing.T, m map[string]any) { violation(t, m) }},
		{"verify", "POST", "/v1/verify_answer", `{"trace_digest":"{digest}","answer":` + jsonOf(t, testdb.ReachAnswer()) + `}`, 200, func(t *testing.T, m map[string]any) {
			if len(m["withheld"].([]any)) != 1 || m["metrics"].(map[string]any)["supported"] != float64(1) {
				t.Fatalf("certified %v", m)
			}
		}},
		{"trace verify", "POST", "/v1/trace_verify", `{"trace_digest":"{digest}"}`, 200, func(t *testing.T, m map[string]any) {
			if m["reproduced"] != true {
				t.Fatalf("trace_verify %v", m)
			}
		}},
		{"ask", "POST", "/v1/ask", jsonOf(t, map[string]any{"question": testdb.VersionsQuestion()}), 200, func(t *testing.T, m map[string]any) {
			if m["value"] != float64(3) || m["reading"] == nil {
				t.Fatalf("ask %v", m)
			}
		}},
		{"stats GET", "GET", "/v1/stats", "", 200, func(t *testing.T, m map[string]any) {
			if m["nodes"] != float64(5) {
				t.Fatalf("stats %v", m)
			}
		}},
		{"stats POST", "POST", "/v1/stats", `{}`, 200, func(t *testing.T, m map[string]any) {
			if m["nodes"] != float64(5) {
				t.Fatalf("stats %v", m)
			}
		}},
		{"write on a read-only server", "POST", "/v1/write_batch", `{"ops":"{}"}`, 403, func(t *testing.T, m map[string]any) {
			if v := violation(t, m); v["code"] != "E_READONLY" {
				t.Fatalf("violation %v", v)
			}
		}},
		{"openapi", "GET", "/v1/openapi.json", "", 200, func(t *testing.T, m map[string]any) {
			paths := m["paths"].(map[string]any)
			for _, tool := range f.svc.Tools() {
				p, ok := paths["/v1/"+tool.Name].(map[string]any)
				if !ok {
					t.Fatalf("no path for %s", tool.Name)
				}
				req := p["post"].(map[string]any)["requestBody"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["schema"]
				if jsonOf(t, req) != jsonOf(t, tool.Input) {
					t.Fatalf("%s: the OpenAPI request schema is not the tool's input schema", tool.Name)
				}
			}
		}},
		{"trace check fresh", "POST", "/v1/trace_check", `{"trace_digest":"{digest}"}`, 200, func(t *testing.T, m map[string]any) {
			if m["verdict"] != "FRESH" || m["fresh"] != true {
				t.Fatalf("trace_check %v", m)
			}
		}},
		{"trace check unknown trace", "POST", "/v1/trace_check", `{"trace_digest":"` + strings.Repeat("ab", 32) + `"}`, 404, func(t *testing.T, m map[string]any) {
			if v := violation(t, m); v["rule"] != "trace.unknown" {
				t.Fatalf("violation %v", v)
			}
		}},
		{"trace check bad argument", "POST", "/v1/trace_check", `{"trace_digest":"{digest}","as_of_tt":1}`, 400, func(t *testing.T, m map[string]any) {
			if v := violation(t, m); v["path"] != "/as_of_tt" {
				t.Fatalf("violation %v", v)
			}
		}},
		{"answers list", "POST", "/v1/answers_list", `{}`, 200, func(t *testing.T, m map[string]any) {
			if len(m["answers"].([]any)) != 0 {
				t.Fatalf("answers_list %v", m)
			}
		}},
		{"answers save on a read-only server", "POST", "/v1/answers_save", `{"name":"x","trace_digest":"{digest}"}`, 403, func(t *testing.T, m map[string]any) {
			if v := violation(t, m); v["code"] != "E_READONLY" {
				t.Fatalf("violation %v", v)
			}
		}},
		// A second writer (the test, on the store the server reads) adds an
		// edge e→f after a reached e: the trace may be stale, and is.
		{"trace check after a write", "POST", "/v1/trace_check", `{"trace_digest":"{digest}"}`, 200, func(t *testing.T, m map[string]any) {
			step := m["steps"].([]any)[0].(map[string]any)
			reasons, _ := step["reasons"].([]any)
			if m["verdict"] != "POSSIBLY STALE" || len(reasons) == 0 || !strings.Contains(reasons[0].(map[string]any)["touched"].(string), "e→f") {
				t.Fatalf("trace_check %v", m)
			}
		}},
		{"trace refresh", "POST", "/v1/trace_refresh", `{"trace_digest":"{digest}"}`, 200, func(t *testing.T, m map[string]any) {
			if m["answer_changed"] != true || m["old_answer"] != float64(4) || m["new_answer"] != float64(5) {
				t.Fatalf("trace_refresh %v", m)
			}
		}},
		{"no route", "GET", "/v1/nothing/here", "", 404, func(t *testing.T, m map[string]any) { violation(t, m) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "trace check after a write" {
				ev := bt.Event{Src: "e", Dst: "f", RelType: "MSG", VtS: f.s.Start + 6*testdb.Hour}
				if _, err := f.s.DB.Write(bt.Ingest([]bt.Event{ev}, "Person")); err != nil {
					t.Fatal(err)
				}
			}
			path := strings.ReplaceAll(c.path, "{digest}", digest)
			status, m := f.do(t, c.method, path, strings.ReplaceAll(c.body, "{digest}", digest))
			if status != c.status {
				t.Fatalf("%s %s: status %d, want %d: %v", c.method, path, status, c.status, m)
			}
			c.check(t, m)
		})
	}
}

func TestContentType(t *testing.T) {
	f := newFixture(t, tools.Options{})
	status, m := f.do(t, "POST", "/v1/stats", "{}", "Content-Type", "text/plain")
	if status != http.StatusUnsupportedMediaType || violation(t, m)["rule"] != "request.content_type" {
		t.Fatalf("a text/plain body was read: %d %v", status, m)
	}
}

func TestWriteBatch(t *testing.T) {
	f := newFixture(t, tools.Options{Writer: nil})
	f.svc = tools.New(f.s.DB, tools.Options{Writer: f.s.DB})
	f.h = httpapi.New(f.svc, httpapi.Options{})
	status, m := f.do(t, "POST", "/v1/write_batch", jsonOf(t, map[string]any{"ops": `{"op":"assert_node","uid":"f","label":"Person","props":{"name":"Fy"}}`}))
	if status != 200 || m["ops"] != float64(1) {
		t.Fatalf("write: %d %v", status, m)
	}
	status, m = f.do(t, "POST", "/v1/write_batch", jsonOf(t, map[string]any{"ops": `{"op":"correct","ref":{"kind":"node","uid":"nobody"},"props":{},"vt_s":0}`}))
	if status != 422 || violation(t, m)["rule"] != "write.op" {
		t.Fatalf("a refused batch: %d %v", status, m)
	}
}

func TestToken(t *testing.T) {
	f := newFixture(t, tools.Options{})
	f.h = httpapi.RequireToken("s3cret-token", f.h)
	for _, c := range []struct {
		header string
		status int
	}{
		{"", 401},
		{"Bearer wrong", 401},
		{"Bearer s3cret-toke", 401},
		{"Bearer s3cret-token-and-more", 401},
		{"Basic s3cret-token", 401},
		{"s3cret-token", 401},
		{"Bearer s3cret-token", 200},
	} {
		t.Run(fmt.Sprintf("%q", c.header), func(t *testing.T) {
			status, m := f.do(t, "GET", "/v1/stats", "", "Authorization", c.header)
			if status != c.status {
				t.Fatalf("status %d, want %d: %v", status, c.status, m)
			}
			if c.status == 401 && violation(t, m)["code"] != "E_AUTH" {
				t.Fatalf("refusal %v", m)
			}
		})
	}
}

func TestLoopbackHosts(t *testing.T) {
	f := newFixture(t, tools.Options{})
	f.h = httpapi.LoopbackHosts(f.h)
	for host, want := range map[string]int{"127.0.0.1:7410": 200, "localhost:7410": 200, "[::1]:7410": 200, "localhost": 200, "evil.example:7410": 403, "127.0.0.1.evil.example": 403} {
		req := httptest.NewRequest("GET", "/v1/stats", nil)
		req.Host = host
		rec := httptest.NewRecorder()
		f.h.ServeHTTP(rec, req)
		if rec.Code != want {
			t.Errorf("Host %s: status %d, want %d", host, rec.Code, want)
		}
	}
}

var toolName = regexp.MustCompile(`^[A-Za-z0-9_]+$`)

// FuzzBody: any request body to any tool route answers JSON: the output
// with 200, or {"error": {code, message, violations}} with a 4xx/5xx.
func FuzzBody(f *testing.F) {
	fx := newFixture(f, tools.Options{})
	f.Add("validate_plan", []byte(`{"plan":{}}`))
	f.Add("run_plan", []byte(`{"plan":{"plan_id":"p","steps":[{"id":"s1","op":"compute","args":{}}],"answer_spec":{"kind":"count","from":"s1.value"}}}`))
	f.Add("ask", []byte(`{"question":""}`))
	f.Add("temporal_reachability", []byte(`{"src":"a","window":{"t_a":0,"t_b":1e300}}`))
	f.Add("stats", []byte("\xff"))
	f.Fuzz(func(t *testing.T, tool string, body []byte) {
		if !toolName.MatchString(tool) {
			return // other paths are the mux's (redirects of unclean paths)
		}
		req := httptest.NewRequest("POST", "/v1/"+tool, strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		fx.h.ServeHTTP(rec, req)
		var m map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
			t.Fatalf("status %d, not JSON: %q", rec.Code, rec.Body)
		}
		if rec.Code != 200 {
			e, _ := m["error"].(map[string]any)
			vs, _ := e["violations"].([]any)
			if e == nil || len(vs) == 0 || rec.Code < 400 {
				t.Fatalf("status %d without a structured refusal: %v", rec.Code, m)
			}
			if e["code"] == "E_INTERNAL" {
				t.Fatalf("internal error on %q: %v", body, m)
			}
		}
	})
}

// TestReplyIsNotAnEcho: a question just under the default 4 MiB body
// limit gets a reply smaller than its request (the question comes back as
// a digest), refused or answered.
func TestReplyIsNotAnEcho(t *testing.T) {
	s := testdb.New(t)
	h := httpapi.New(tools.New(s.DB, tools.Options{}), httpapi.Options{})
	for _, q := range []string{
		strings.Repeat("how many versions of node a ", (httpapi.DefaultMaxBody-64)/28),
		strings.Repeat("é", (httpapi.DefaultMaxBody-64)/2),
	} {
		body := jsonOf(t, map[string]any{"question": q})
		req := httptest.NewRequest("POST", "/v1/ask", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 || rec.Body.Len() > len(body)/4 {
			t.Errorf("a %d-byte request: status %d, a %d-byte reply: %.300s", len(body), rec.Code, rec.Body.Len(), rec.Body)
		}
	}
}
