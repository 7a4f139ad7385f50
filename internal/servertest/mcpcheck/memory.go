package mcpcheck

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tgms-go/tgms/internal/servertest/testdb"
)

// names returns the name prop of recall's node facts.
func names(t testing.TB, m map[string]any) []any {
	t.Helper()
	var out []any
	for _, f := range m["facts"].([]any) {
		fm := f.(map[string]any)
		if fm["kind"] == "node" {
			out = append(out, fm["props"].(map[string]any)["name"])
		}
	}
	return out
}

// MemoryReads checks recall and why over testdb's store: node a was
// corrected to "Ada Lovelace" over [T0+2h, T0+5h) by the batch Corrected.
func MemoryReads(t *testing.T, cs *mcp.ClientSession, s *testdb.Store) {
	at := testdb.T0 + 3*testdb.Hour
	m, isErr := Call(t, cs, "recall", map[string]any{"uid": "a", "at": at})
	if got := names(t, m); isErr || len(got) != 1 || got[0] != "Ada Lovelace" || m["complete"] != true {
		t.Fatalf("recall a inside the corrected interval: %v", m)
	}
	digest := m["trace_digest"].(string)
	if len(m["evidence"].([]any)) != 2 {
		t.Fatalf("recall's evidence: %v", m["evidence"])
	}
	edges := 0
	for _, f := range m["facts"].([]any) {
		if f.(map[string]any)["kind"] == "edge" {
			edges++
		}
	}
	if edges != 0 {
		t.Fatalf("recall at an instant with no message lists %d edges", edges)
	}
	m, _ = Call(t, cs, "recall", map[string]any{"uid": "a", "at": at, "as_of_tt": s.Corrected - 1})
	if got := names(t, m); len(got) != 1 || got[0] != "Ada" {
		t.Fatalf("recall a before the correction: %v", m)
	}
	m, _ = Call(t, cs, "recall", map[string]any{"uid": "a", "at": testdb.T0 + 6*testdb.Hour})
	if got := names(t, m); len(got) != 1 || got[0] != "Ada" {
		t.Fatalf("recall a after the corrected interval: %v", m)
	}
	m, _ = Call(t, cs, "recall", map[string]any{"src": "b", "dst": "a", "history": true})
	if facts := m["facts"].([]any); len(facts) != 1 || facts[0].(map[string]any)["src"] != "a" {
		t.Fatalf("recall of the pair a, b: %v", m)
	}
	if m, isErr = Call(t, cs, "trace_verify", map[string]any{"trace_digest": digest}); isErr || m["reproduced"] != true {
		t.Fatalf("recall's trace does not reproduce: %v", m)
	}
	m, isErr = Call(t, cs, "why", map[string]any{"uid": "a", "at": at})
	vs, _ := m["versions"].([]any)
	if isErr || len(vs) != 2 || m["corrections"] != float64(1) {
		t.Fatalf("why a: %v", m)
	}
	first := vs[0].(map[string]any)
	if first["closed_by"] != "correct" || first["change"] != "correction" || first["closed_at_tt"] != float64(s.Corrected) || vs[1].(map[string]any)["believed"] != true {
		t.Fatalf("why a's versions: %v", vs)
	}
	for _, c := range []struct {
		tool string
		args map[string]any
		code string
	}{
		{"recall", map[string]any{"uid": "nobody"}, "E_NOT_FOUND"},
		{"recall", map[string]any{"uid": "a", "src": "b"}, "E_SCHEMA"},
		{"why", map[string]any{"src": "a", "dst": "b"}, "E_SCHEMA"},
		{"why", map[string]any{"uid": "a", "at": "yesterday"}, "E_SCHEMA"},
	} {
		m, isErr := Call(t, cs, c.tool, c.args)
		if v := Violations(t, m)[0]; !isErr || v["code"] != c.code || v["path"] == "" || v["hint"] == "" {
			t.Fatalf("%s %v: %v", c.tool, c.args, m)
		}
	}
}

// Memory checks the memory writes of a writable server over testdb's
// store, read back with recall and why: a model's inference, a user's
// correction with its reason, a retraction; and refused writes (no
// provenance, an unknown entity, a retraction of nothing, a model
// replacing a user's fact) that leave the store as it was.
func Memory(t *testing.T, cs *mcp.ClientSession, s *testdb.Store) {
	user := map[string]any{"authority": "user", "actor": "ada", "ref": "msg-1"}
	model := map[string]any{"authority": "model", "actor": "agent-7", "ref": "episode-2"}
	from := testdb.T0 + 20*testdb.Hour
	write := func(tool string, args map[string]any) map[string]any {
		t.Helper()
		m, isErr := Call(t, cs, tool, args)
		if isErr || m["tt"] == nil || m["provenance"] == nil {
			t.Fatalf("%s: %v", tool, m)
		}
		return m
	}
	write("remember", map[string]any{"uid": "a", "label": "Person", "props": map[string]any{"name": "Ada", "city": "Leeds"}, "valid_from": from, "provenance": model})
	w := write("correct", map[string]any{"uid": "a", "props": map[string]any{"name": "Ada", "city": "London"}, "valid_from": from, "reason": "Ada lives in London", "provenance": user})
	if w["ops"].([]any)[0].(map[string]any)["op"] != "correct" || w["provenance"].(map[string]any)["note"] != "Ada lives in London" {
		t.Fatalf("correct wrote %v", w)
	}
	write("retract", map[string]any{"src": "a", "dst": "b", "rel_type": "MSG", "disc": "#2.0", "at": testdb.T0, "provenance": user})
	m, _ := Call(t, cs, "recall", map[string]any{"uid": "a"})
	facts := m["facts"].([]any)
	if len(facts) != 1 || facts[0].(map[string]any)["props"].(map[string]any)["city"] != "London" {
		t.Fatalf("recall a now: %v", m)
	}
	if p := facts[0].(map[string]any)["provenance"].(map[string]any); p["authority"] != "user" || p["actor"] != "ada" || p["note"] != "Ada lives in London" {
		t.Fatalf("recall a now: provenance %v, want the user's correction", p)
	}
	m, _ = Call(t, cs, "recall", map[string]any{"uid": "a", "as_of_tt": int64(w["tt"].(float64)) - 1})
	if facts := m["facts"].([]any); len(facts) != 1 || facts[0].(map[string]any)["props"].(map[string]any)["city"] != "Leeds" {
		t.Fatalf("recall a before the correction: %v", m)
	}
	// At from: the first version (corrected over [T0+2h, T0+5h) by the
	// store's batch), its remainder from T0+5h (closed by the model's
	// assert: evolution), the model's Leeds (corrected by the user) and
	// London, believed.
	m, _ = Call(t, cs, "why", map[string]any{"uid": "a", "at": from})
	vs := m["versions"].([]any)
	if len(vs) != 4 || m["corrections"] != float64(2) || m["evolutions"] != float64(1) {
		t.Fatalf("why a after the writes: %v", m)
	}
	for i, want := range []string{"correction", "evolution", "correction", ""} {
		v := vs[i].(map[string]any)
		if c, _ := v["change"].(string); c != want || (want == "") != (v["believed"] == true) {
			t.Fatalf("why a: version %d changed by %q, want %q: %v", i, c, want, v)
		}
	}
	if city := vs[3].(map[string]any)["props"].(map[string]any)["city"]; city != "London" {
		t.Fatalf("why a: the believed version says %v", city)
	}
	leeds := vs[2].(map[string]any)
	wrote, _ := leeds["provenance"].(map[string]any)
	closed, _ := leeds["closed_provenance"].(map[string]any)
	if wrote["authority"] != "model" || wrote["actor"] != "agent-7" || closed["authority"] != "user" || closed["ref"] != "msg-1" {
		t.Fatalf("why a: Leeds written by %v and closed by %v, want the model and the user", wrote, closed)
	}
	m, _ = Call(t, cs, "recall", map[string]any{"src": "a", "dst": "b", "history": true})
	if facts := m["facts"].([]any); len(facts) != 1 || facts[0].(map[string]any)["closed_by"] != "retract" {
		t.Fatalf("the retracted message: %v", m)
	}
	before := s.DB.LastTT()
	for _, c := range []struct {
		tool string
		args map[string]any
		code string
	}{
		{"remember", map[string]any{"uid": "a", "props": map[string]any{"city": "Paris"}}, "E_SCHEMA"},
		{"remember", map[string]any{"uid": "a", "provenance": map[string]any{"authority": "rumour", "actor": "x"}}, "E_SCHEMA"},
		{"correct", map[string]any{"uid": "nobody", "props": map[string]any{}, "reason": "r", "provenance": user}, "E_WRITE_CONTRACT"},
		{"retract", map[string]any{"uid": "a", "at": from, "provenance": model}, "E_WRITE_CONTRACT"},
		{"correct", map[string]any{"uid": "a", "props": map[string]any{}, "provenance": user}, "E_SCHEMA"},
		{"retract", map[string]any{"src": "a", "dst": "b", "rel_type": "MSG", "disc": "#2.0", "at": testdb.T0, "provenance": user}, "E_WRITE_CONTRACT"},
	} {
		m, isErr := Call(t, cs, c.tool, c.args)
		if v := Violations(t, m)[0]; !isErr || v["code"] != c.code || v["path"] == "" || v["hint"] == "" {
			t.Fatalf("%s %v: %v", c.tool, c.args, m)
		}
	}
	if s.DB.LastTT() != before {
		t.Fatalf("a refused memory write changed the store")
	}
}

// ValidateWrite checks validate_write, which read-only servers offer too:
// a batch naming an unknown entity is not admitted and the violation
// points at the op field to fix; a batch creating its entity is admitted
// with a preview of the version it would open; neither writes anything.
func ValidateWrite(t *testing.T, cs *mcp.ClientSession, s *testdb.Store) {
	before := s.DB.Digest()
	m, isErr := Call(t, cs, "validate_write", map[string]any{
		"ops":        `{"op":"assert_edge","src":"a","dst":"nobody-yet","rel_type":"KNOWS","vt_s":"2024-01-01T00:00:00Z"}`,
		"provenance": map[string]any{"authority": "model", "actor": "agent-1"},
	})
	vs, _ := m["violations"].([]any)
	if isErr || m["admitted"] != false || len(vs) == 0 {
		t.Fatalf("validate_write of an edge to an unknown node: %v", m)
	}
	if v := vs[0].(map[string]any); v["rule"] != "entity.unknown" || v["path"] != "/ops/0/dst" || v["hint"] == "" {
		t.Fatalf("validate_write's violation: %v", v)
	}
	m, isErr = Call(t, cs, "validate_write", map[string]any{
		"ops":        `{"op":"assert_node","uid":"newcomer","label":"Person","props":{"name":"Nu"},"vt_s":"2024-01-01T00:00:00Z"}`,
		"provenance": map[string]any{"authority": "user", "actor": "dana"},
	})
	pv, _ := m["preview"].(map[string]any)
	if opened, _ := pv["opened"].([]any); isErr || m["admitted"] != true || len(opened) != 1 {
		t.Fatalf("validate_write of a new node: %v", m)
	}
	if s.DB.Digest() != before {
		t.Fatal("validate_write changed the store")
	}
}
