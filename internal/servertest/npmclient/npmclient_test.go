// Package npmclient runs the official TypeScript MCP SDK (the npm package
// @modelcontextprotocol/sdk, pinned in package-lock.json) against the
// tgms binary over stdio and streamable HTTP: what most desktop agents
// are built on. Install it with `npm ci` in this directory.
package npmclient

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tgms-go/tgms/agent"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/internal/servertest/testdb"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/plan"
	"github.com/tgms-go/tgms/server/tools"
)

// need skips a test without its tool, or fails it under CI=true.
func need(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s: %v (CI=true: the stock-client test must run; see the npm block in .ci/run)", what, err)
	}
	t.Skipf("%s: %v", what, err)
}

type report struct {
	Tools          []string `json:"tools"`
	ToolsListBytes int      `json:"tools_list_bytes"`
	UnsafeNumbers  []string `json:"unsafe_numbers"`
	Operator       struct {
		IsError      bool    `json:"isError"`
		ResultDigest string  `json:"result_digest"`
		RowsTotal    float64 `json:"rows_total"`
	} `json:"operator"`
	BadPlan struct {
		IsError bool     `json:"isError"`
		Valid   bool     `json:"valid"`
		Rules   []string `json:"rules"`
	} `json:"bad_plan"`
	RunPlan struct {
		IsError     bool    `json:"isError"`
		OK          bool    `json:"ok"`
		TraceDigest string  `json:"trace_digest"`
		Answer      float64 `json:"answer"`
	} `json:"run_plan"`
	Trace struct {
		TraceDigest string `json:"trace_digest"`
		Steps       int    `json:"steps"`
	} `json:"trace"`
	Refused struct {
		IsError bool   `json:"isError"`
		Code    string `json:"code"`
		Rule    string `json:"rule"`
	} `json:"refused"`
	RoundTrips []struct {
		Name    string `json:"name"`
		IsError bool   `json:"isError"`
		Body    any    `json:"body"`
	} `json:"round_trips"`
	OpenEndDouble struct {
		IsError      bool   `json:"isError"`
		ResultDigest string `json:"result_digest"`
	} `json:"open_end_double"`
	Remember struct {
		IsError    bool           `json:"isError"`
		Code       string         `json:"code"`
		TT         float64        `json:"tt"`
		Provenance map[string]any `json:"provenance"`
	} `json:"remember"`
	Recall struct {
		IsError bool             `json:"isError"`
		Facts   []map[string]any `json:"facts"`
	} `json:"recall"`
}

// recalled is the one node fact a report's recall returned.
func recalled(t *testing.T, r report) map[string]any {
	t.Helper()
	var nodes []map[string]any
	for _, f := range r.Recall.Facts {
		if f["kind"] == "node" {
			nodes = append(nodes, f)
		}
	}
	if r.Recall.IsError || len(nodes) != 1 {
		t.Fatalf("recall through the stock client: %+v", r.Recall)
	}
	return nodes[0]
}

type roundTrip struct {
	Name string         `json:"name"`
	Tool string         `json:"tool"`
	Args map[string]any `json:"args"`
	want any            // the output of the same call made in Go
}

// TestStockTypeScriptClient: the stock SDK lists the tools (it rejects
// schemas with boolean sub-schemas or null properties), checks every
// result against its tool's output schema, calls an operator,
// validate_plan with a bad plan, run_plan, reads the trace resource, and
// sends back what its schemas allow and its results hold, as doubles.
func TestStockTypeScriptClient(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs node")
	}
	node, err := exec.LookPath("node")
	need(t, "node", err)
	_, err = os.Stat(filepath.Join("node_modules", "@modelcontextprotocol", "sdk", "package.json"))
	need(t, "the SDK (run npm ci in internal/servertest/npmclient)", err)

	bin := filepath.Join(t.TempDir(), "tgms")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/tgms-go/tgms/cmd/tgms").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	s := testdb.New(t)
	dir := s.Dir
	s = s.Handover(t) // the servers own dir; expectations come from this copy
	svc := tools.New(s.DB, tools.Options{})
	cases, trips := testCases(t, s, svc)
	casesFile := filepath.Join(t.TempDir(), "cases.json")
	b, _ := json.Marshal(cases)
	if err := os.WriteFile(casesFile, b, 0o644); err != nil {
		t.Fatal(err)
	}

	t.Run("stdio", func(t *testing.T) {
		check(t, s, trips, runNode(t, node, "stdio", bin, dir, casesFile))
	})
	t.Run("streamable HTTP", func(t *testing.T) {
		const token = "stock-client-token-0123"
		url := startHTTP(t, bin, dir, token)
		check(t, s, trips, runNode(t, node, "http", url, token, casesFile))
	})
	// With writes allowed (on a store of its own), remember goes through
	// and recall returns the fact with its provenance.
	t.Run("stdio, writes allowed", func(t *testing.T) {
		w := testdb.New(t)
		wdir := w.Dir
		w.Handover(t)
		r := runNode(t, node, "stdio-writes", bin, wdir, casesFile)
		if r.Remember.IsError || r.Remember.TT == 0 || r.Remember.Provenance["authority"] != "model" {
			t.Fatalf("remember through the stock client: %+v", r.Remember)
		}
		f := recalled(t, r)
		props, _ := f["props"].(map[string]any)
		prov, _ := f["provenance"].(map[string]any)
		if props["city"] != "York" || prov["actor"] != "stock-agent" || f["batch_tt"] != r.Remember.TT {
			t.Fatalf("recall after remember: %v", f)
		}
	})
}

func testCases(t *testing.T, s *testdb.Store, svc *tools.Service) (map[string]any, []roundTrip) {
	bad := s.ReachPlan()
	bad["steps"].([]any)[0].(map[string]any)["args"].(map[string]any)["direction"] = "sideways"
	var trips []roundTrip
	for _, ex := range agent.Examples {
		var p any
		if err := json.Unmarshal([]byte(ex.Plan), &p); err != nil {
			t.Fatal(err)
		}
		trips = append(trips, roundTrip{Name: "worked plan " + ex.Question, Tool: "validate_plan", Args: map[string]any{"plan": p, "uids": ex.UIDs}})
	}
	hist := func(window map[string]any) map[string]any {
		return map[string]any{"kind": "node", "uids": []any{"a"}, "belief": "all", "window": window}
	}
	trips = append(trips,
		roundTrip{Name: "window end omitted", Tool: "version_history", Args: hist(map[string]any{"t_a": s.Start})},
		roundTrip{Name: "window end null", Tool: "version_history", Args: hist(map[string]any{"t_a": s.Start, "t_b": nil})},
		roundTrip{Name: "recall an entity at a valid time", Tool: "recall", Args: map[string]any{"uid": "a", "at": s.Start + 2*testdb.Hour}},
		roundTrip{Name: "recall a pair's history", Tool: "recall", Args: map[string]any{"src": "a", "dst": "b", "history": true}},
		roundTrip{Name: "why of a corrected fact", Tool: "why", Args: map[string]any{"uid": "a", "at": "2024-01-01T03:00:00Z"}},
	)
	ctx := context.Background()
	for i := range trips {
		// What Go gets for the call, with the open end written out.
		args := trips[i].Args
		if trips[i].Tool == "version_history" {
			args = hist(map[string]any{"t_a": s.Start, "t_b": bt.OpenEnd})
		}
		b, _ := json.Marshal(args)
		v, err := parse(b)
		if err != nil {
			t.Fatal(err)
		}
		out, f := svc.Call(ctx, trips[i].Tool, v.(map[string]any))
		if f != nil {
			t.Fatalf("%s: %v", trips[i].Name, f)
		}
		trips[i].want = asJSON(t, out)
	}
	return map[string]any{
		"operator": map[string]any{"name": "temporal_reachability", "args": s.ReachArgs()},
		"plan":     s.ReachPlan(), "bad_plan": bad, "uids": []string{"a"},
		"round_trips": trips,
		"memory": map[string]any{
			"remember": map[string]any{"uid": "a", "label": "Person", "props": map[string]any{"name": "Ada", "city": "York"}, "valid_from": s.Start + 20*testdb.Hour,
				"provenance": map[string]any{"authority": "model", "actor": "stock-agent", "ref": "episode-1"}},
			"recall": map[string]any{"uid": "a"},
		},
	}, trips
}

func parse(b []byte) (any, error) {
	var v any
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return numbers(v), nil
}

// numbers turns json.Numbers into int64 or float64, as canon.Parse does.
func numbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = numbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = numbers(e)
		}
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	}
	return v
}

func asJSON(t *testing.T, v any) any {
	b, err := tools.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func runNode(t *testing.T, node string, args ...string) report {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{"client.mjs"}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the stock client failed: %v\n%s", err, stderr.String())
	}
	var r report
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("report %s: %v", out, err)
	}
	t.Logf("tools/list: %d tools, %d bytes", len(r.Tools), r.ToolsListBytes)
	return r
}

var servingRE = regexp.MustCompile(`MCP (http://127\.0\.0\.1:[0-9]+/mcp)`)

// startHTTP runs `tgms serve --mcp-http` on a free port and returns its
// MCP URL.
func startHTTP(t *testing.T, bin, dir, token string) string {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--store", dir, "--mcp-http", "127.0.0.1:0", "--token", token)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		var seen []string
		for sc.Scan() {
			if m := servingRE.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
			seen = append(seen, sc.Text())
		}
		found <- "exited: " + strings.Join(seen, "\n")
	}()
	select {
	case url := <-found:
		if !strings.HasPrefix(url, "http") {
			t.Fatalf("tgms serve: %s", url)
		}
		return url
	case <-time.After(time.Minute):
		t.Fatal("tgms serve did not say where it listens")
	}
	return ""
}

func check(t *testing.T, s *testdb.Store, trips []roundTrip, r report) {
	for _, spec := range ops.All() {
		if !slices.Contains(r.Tools, spec.Name) {
			t.Errorf("operator %s not listed", spec.Name)
		}
	}
	for _, name := range []string{"validate_plan", "run_plan", "verify_answer", "ask", "trace_verify"} {
		if !slices.Contains(r.Tools, name) {
			t.Errorf("tool %s not listed", name)
		}
	}
	if len(r.UnsafeNumbers) > 0 {
		t.Errorf("schemas publish numbers a JavaScript client rounds: %v", r.UnsafeNumbers)
	}
	env, err := s.DB.Call(context.Background(), "temporal_reachability", s.ReachArgs())
	if err != nil {
		t.Fatal(err)
	}
	if r.Operator.IsError || r.Operator.ResultDigest != env.ResultDigest || r.Operator.RowsTotal != 4 {
		t.Errorf("operator call: %+v, want digest %s and 4 rows", r.Operator, env.ResultDigest)
	}
	if r.BadPlan.IsError || r.BadPlan.Valid || len(r.BadPlan.Rules) == 0 {
		t.Errorf("validate_plan of a bad plan: %+v", r.BadPlan)
	}
	if r.RunPlan.IsError || !r.RunPlan.OK || r.RunPlan.Answer != 4 || len(r.RunPlan.TraceDigest) != 64 {
		t.Errorf("run_plan: %+v", r.RunPlan)
	}
	if r.Trace.TraceDigest != r.RunPlan.TraceDigest || r.Trace.Steps != 1 {
		t.Errorf("the trace resource: %+v, run_plan gave %s", r.Trace, r.RunPlan.TraceDigest)
	}
	if !r.Refused.IsError || r.Refused.Code != plan.EPlanInvalid || r.Refused.Rule == "" {
		t.Errorf("run_plan of a bad plan: %+v", r.Refused)
	}
	if !r.Remember.IsError || r.Remember.Code != tools.EReadOnly {
		t.Errorf("remember on a read-only server: %+v, want %s", r.Remember, tools.EReadOnly)
	}
	if f := recalled(t, r); f["props"].(map[string]any)["name"] != "Ada" {
		t.Errorf("recall of a now: %v", f)
	}
	if len(r.RoundTrips) != len(trips) {
		t.Fatalf("%d round trips, want %d", len(r.RoundTrips), len(trips))
	}
	for i, got := range r.RoundTrips {
		if got.IsError || !reflect.DeepEqual(got.Body, trips[i].want) {
			b, _ := json.Marshal(got.Body)
			w, _ := json.Marshal(trips[i].want)
			t.Errorf("%s: through JavaScript\n got %s\nwant %s", trips[i].Name, b, w)
		}
	}
	openEnd := map[string]any{"t_a": s.Start, "t_b": bt.OpenEnd}
	want, err := s.DB.Call(context.Background(), "temporal_reachability", map[string]any{"src": "a", "window": openEnd})
	if err != nil {
		t.Fatal(err)
	}
	if r.OpenEndDouble.IsError || r.OpenEndDouble.ResultDigest != want.ResultDigest {
		t.Errorf("2^62 sent as a double: %+v, want digest %s", r.OpenEndDouble, want.ResultDigest)
	}
}
