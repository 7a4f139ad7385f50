package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/server/tools"
)

// memStore opens an empty store and a writable service over it.
func memStore(t *testing.T) (*tgms.DB, *tools.Service) {
	t.Helper()
	db, err := tgms.Open(t.TempDir(), &tgms.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, tools.New(db, tools.Options{Writer: memoryWriter(db)})
}

// call runs a tool and returns its output as JSON values.
func call(t *testing.T, svc *tools.Service, name string, args string) (map[string]any, *tools.Failure) {
	t.Helper()
	var a map[string]any
	if err := json.Unmarshal([]byte(args), &a); err != nil {
		t.Fatalf("%s args: %v", name, err)
	}
	out, f := svc.Call(context.Background(), name, normalize(a))
	if f != nil {
		return nil, f
	}
	b, err := tools.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m, nil
}

// normalize turns JSON numbers into int64 as canon.Parse decodes them.
func normalize(v any) map[string]any {
	b, _ := json.Marshal(v)
	m, _ := parseCanon(b).(map[string]any)
	return m
}

func mustCall(t *testing.T, svc *tools.Service, name, args string) map[string]any {
	t.Helper()
	m, f := call(t, svc, name, args)
	if f != nil {
		t.Fatalf("%s %s: %v", name, args, f)
	}
	return m
}

func tt(m map[string]any) int64 { return int64(m["tt"].(float64)) }

// facts returns recall's facts as (props.key) values.
func officeOf(t *testing.T, m map[string]any) []any {
	t.Helper()
	var out []any
	for _, f := range m["facts"].([]any) {
		fm := f.(map[string]any)
		if fm["kind"] != "node" {
			continue
		}
		props, _ := fm["props"].(map[string]any)
		out = append(out, props["office"])
	}
	return out
}

const (
	user  = `{"authority":"user","actor":"dana@example.org","ref":"msg-1"}`
	model = `{"authority":"model","actor":"planner","ref":"episode-3"}`
)

func TestMemoryToolsRoundTrip(t *testing.T) {
	db, svc := memStore(t)
	tt1 := tt(mustCall(t, svc, "remember", `{"uid":"dana","label":"Person","props":{"name":"Dana","office":"Lisbon"},"valid_from":"2025-01-01T00:00:00Z","provenance":`+user+`}`))
	mustCall(t, svc, "remember", `{"uid":"acme","label":"Org","props":{"name":"Acme"},"valid_from":"2025-01-01T00:00:00Z","provenance":`+user+`}`)
	// A model may not replace what a person said without saying so.
	berlin := `{"uid":"dana","label":"Person","props":{"name":"Dana","office":"Berlin"},"valid_from":"2025-03-03T00:00:00Z","provenance":` + model
	if _, f := call(t, svc, "remember", berlin+`}`); f == nil || f.Code != "E_WRITE_CONTRACT" || f.Violations[0].Rule != "authority.override" || f.Violations[0].Hint == "" {
		t.Fatalf("a model replaced a user's fact silently: %v", f)
	}
	w2 := mustCall(t, svc, "remember", berlin+`,"override":true}`)
	tt2 := tt(w2)
	if ops := w2["ops"].([]any); len(ops) != 2 || ops[0].(map[string]any)["op"] != "retract" || ops[1].(map[string]any)["op"] != "assert_node" || w2["override"] != true {
		t.Fatalf("remember over a believed fact wrote %v, want a retract and an assert", w2["ops"])
	}
	w := mustCall(t, svc, "correct", `{"uid":"dana","props":{"name":"Dana","office":"Munich"},"valid_from":"2025-03-03T00:00:00Z","reason":"Dana said Munich","provenance":`+user+`}`)
	tt3 := tt(w)
	if w["ops"].([]any)[0].(map[string]any)["op"] != "correct" || w["provenance"].(map[string]any)["note"] != "Dana said Munich" {
		t.Fatalf("correct wrote %v", w)
	}
	april := `"at":"2025-04-01T00:00:00Z"`
	for _, c := range []struct {
		asOf int64
		want any
	}{{tt1, "Lisbon"}, {tt2, "Berlin"}, {tt3, "Munich"}, {0, "Munich"}} {
		m := mustCall(t, svc, "recall", `{"uid":"dana",`+april+`,"as_of_tt":`+jsonInt(c.asOf)+`}`)
		if got := officeOf(t, m); len(got) != 1 || got[0] != c.want {
			t.Errorf("recall dana in April as of %d: %v, want %v", c.asOf, got, c.want)
		}
		if m["complete"] != true || m["trace_digest"] == "" || len(m["evidence"].([]any)) != 2 {
			t.Errorf("recall without evidence: %v", m)
		}
	}
	// Each fact carries the provenance of the batch that wrote it.
	for asOf, want := range map[int64]string{tt1: "user/dana@example.org", tt2: "model/planner", tt3: "user/dana@example.org"} {
		m := mustCall(t, svc, "recall", `{"uid":"dana",`+april+`,"as_of_tt":`+jsonInt(asOf)+`}`)
		f := m["facts"].([]any)[0].(map[string]any)
		p, _ := f["provenance"].(map[string]any)
		if got := fmt.Sprint(p["authority"], "/", p["actor"]); got != want || f["batch_tt"] != float64(asOf) {
			t.Errorf("recall as of %d: provenance %v batch %v, want %s written at %d", asOf, p, f["batch_tt"], want, asOf)
		}
	}
	if got := officeOf(t, mustCall(t, svc, "recall", `{"uid":"dana","at":"2025-02-01T00:00:00Z"}`)); len(got) != 1 || got[0] != "Lisbon" {
		t.Errorf("recall dana in February: %v", got)
	}
	if got := officeOf(t, mustCall(t, svc, "recall", `{"uid":"dana"}`)); len(got) != 1 || got[0] != "Munich" {
		t.Errorf("recall dana now: %v", got)
	}

	// why: the April story has three versions: Lisbon closed by the
	// model's remember (a retraction: evolution), Berlin closed by the
	// user's correction, Munich believed.
	m := mustCall(t, svc, "why", `{"uid":"dana",`+april+`}`)
	vs := m["versions"].([]any)
	if len(vs) != 3 || m["corrections"] != float64(1) || m["evolutions"] != float64(1) {
		t.Fatalf("why dana in April: %v", m)
	}
	want := []struct {
		office, closedBy string
		closedAt         int64
	}{{"Lisbon", "retract", tt2}, {"Berlin", "correct", tt3}, {"Munich", "", 0}}
	for i, v := range vs {
		vm := v.(map[string]any)
		got := vm["props"].(map[string]any)["office"]
		cb, _ := vm["closed_by"].(string)
		var at int64
		if c, ok := vm["closed_at_tt"].(float64); ok {
			at = int64(c)
		}
		if got != want[i].office || cb != want[i].closedBy || at != want[i].closedAt {
			t.Errorf("why version %d: %v %q %d, want %+v", i, got, cb, at, want[i])
		}
		// who wrote and who closed each version
		wrote, _ := vm["provenance"].(map[string]any)
		closed, _ := vm["closed_provenance"].(map[string]any)
		wantWrote := []string{"user", "model", "user"}[i]
		if wrote["authority"] != wantWrote {
			t.Errorf("why version %d written by %v, want %s", i, wrote, wantWrote)
		}
		switch i {
		case 0:
			if closed["authority"] != "model" {
				t.Errorf("Lisbon closed by %v, want the model", closed)
			}
		case 1:
			if closed["authority"] != "user" || closed["note"] != "Dana said Munich" || closed["ref"] != "msg-1" {
				t.Errorf("Berlin closed by %v, want the user's correction with its reason", closed)
			}
		case 2:
			if closed != nil {
				t.Errorf("the believed version has a closer %v", closed)
			}
		}
	}

	// An edge that held until a retraction.
	mustCall(t, svc, "remember", `{"src":"dana","dst":"acme","rel_type":"WORKS_AT","valid_from":"2025-01-01T00:00:00Z","provenance":`+user+`}`)
	mustCall(t, svc, "retract", `{"src":"dana","dst":"acme","rel_type":"WORKS_AT","at":"2025-06-30T00:00:00Z","provenance":`+user+`}`)
	if n := len(mustCall(t, svc, "recall", `{"src":"acme","dst":"dana","at":"2025-05-01T00:00:00Z"}`)["facts"].([]any)); n != 1 {
		t.Errorf("the pair in May: %d facts, want 1", n)
	}
	if n := len(mustCall(t, svc, "recall", `{"src":"acme","dst":"dana","at":"2025-07-01T00:00:00Z"}`)["facts"].([]any)); n != 0 {
		t.Errorf("the pair after the retraction: %d facts, want 0", n)
	}
	e := mustCall(t, svc, "why", `{"src":"dana","dst":"acme","rel_type":"WORKS_AT"}`)
	if vs := e["versions"].([]any); len(vs) != 2 || e["evolutions"] != float64(1) || vs[0].(map[string]any)["closed_by"] != "retract" {
		t.Errorf("why of the retracted edge: %v", e)
	}
	// The recall's trace reproduces.
	r := mustCall(t, svc, "recall", `{"uid":"dana","history":true}`)
	if v := mustCall(t, svc, "trace_verify", `{"trace_digest":"`+r["trace_digest"].(string)+`"}`); v["reproduced"] != true {
		t.Errorf("a recall trace does not reproduce: %v", v)
	}
	if n := len(r["facts"].([]any)); n < 5 {
		t.Errorf("history recall lists %d versions", n)
	}
	_ = db
}

func jsonInt(n int64) string { b, _ := json.Marshal(n); return string(b) }

// TestMemoryToolsRefuse: bad calls are refused with the argument to fix,
// and nothing is written.
func TestMemoryToolsRefuse(t *testing.T) {
	db, svc := memStore(t)
	mustCall(t, svc, "remember", `{"uid":"dana","props":{"office":"Lisbon"},"provenance":`+user+`}`)
	before := db.LastTT()
	for _, c := range []struct {
		tool, args, code, path string
	}{
		{"remember", `{"uid":"dana","props":{"office":"Oslo"}}`, "E_SCHEMA", "/provenance"},
		{"remember", `{"uid":"dana","provenance":{"authority":"guess","actor":"x"}}`, "E_SCHEMA", "/provenance/authority"},
		{"remember", `{"uid":"dana","provenance":{"authority":"user"}}`, "E_SCHEMA", "/provenance/actor"},
		{"remember", `{"uid":"dana","provenance":{"authority":"user","actor":"x","who":1}}`, "E_SCHEMA", "/provenance/who"},
		{"remember", `{"uid":"dana","src":"a","provenance":` + user + `}`, "E_SCHEMA", "/uid"},
		{"remember", `{"src":"dana","dst":"acme","provenance":` + user + `}`, "E_SCHEMA", "/rel_type"},
		{"remember", `{"uid":"dana","valid_from":"2025-05-01T00:00:00Z","valid_until":"2025-01-01T00:00:00Z","provenance":` + user + `}`, "E_SCHEMA", "/valid_until"},
		{"remember", `{"uid":"dana","valid_from":"last week","provenance":` + user + `}`, "E_SCHEMA", "/valid_from"},
		{"correct", `{"uid":"dana","props":{"office":"Oslo"},"provenance":` + user + `}`, "E_SCHEMA", "/reason"},
		{"correct", `{"uid":"nobody","props":{"office":"Oslo"},"reason":"r","provenance":` + user + `}`, "E_WRITE_CONTRACT", "/uid"},
		{"correct", `{"uid":"dana","props":{"office":7},"reason":"r","provenance":` + user + `}`, "E_WRITE_CONTRACT", "/props"},
		{"retract", `{"uid":"dana","provenance":` + user + `}`, "E_SCHEMA", "/at"},
		{"retract", `{"uid":"nobody","at":5,"provenance":` + user + `}`, "E_WRITE_CONTRACT", "/uid"},
		{"retract", `{"uid":"dana","at":5,"provenance":` + model + `}`, "E_WRITE_CONTRACT", "/uid"},
		{"remember", `{"src":"dana","dst":"nobody","rel_type":"KNOWS","provenance":` + user + `}`, "E_WRITE_CONTRACT", "/dst"},
		{"recall", `{"uid":"nobody"}`, "E_NOT_FOUND", "/uid"},
		{"recall", `{}`, "E_SCHEMA", "/uid"},
		{"recall", `{"src":"dana"}`, "E_SCHEMA", "/src"},
		{"recall", `{"uid":"dana","limit":0}`, "E_SCHEMA", "/limit"},
		{"why", `{"uid":"nobody"}`, "E_NOT_FOUND", "/uid"},
	} {
		_, f := call(t, svc, c.tool, c.args)
		if f == nil {
			t.Errorf("%s %s was accepted", c.tool, c.args)
			continue
		}
		if v := f.Violations[0]; f.Code != c.code || v.Path != c.path || v.Hint == "" {
			t.Errorf("%s %s: %s at %q (hint %q), want %s at %s", c.tool, c.args, f.Code, v.Path, v.Hint, c.code, c.path)
		}
	}
	if db.LastTT() != before {
		t.Fatalf("a refused call wrote to the store")
	}
	// A read-only service refuses every memory write, structured.
	ro := tools.New(db, tools.Options{})
	for _, name := range []string{"remember", "correct", "retract"} {
		_, f := call(t, ro, name, `{"uid":"dana","at":5,"reason":"r","provenance":`+user+`}`)
		if f == nil || f.Code != tools.EReadOnly || f.Violations[0].Rule != "tool.read_only" {
			t.Errorf("%s on a read-only service: %v", name, f)
		}
	}
	if m := mustCall(t, ro, "recall", `{"uid":"dana"}`); len(m["facts"].([]any)) != 1 {
		t.Errorf("recall on a read-only service: %v", m)
	}
}

var _ = bt.OpenEnd
