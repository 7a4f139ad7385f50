package mcpcheck

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Erase checks the erase tool of a writable server: an unknown uid is
// refused with a repairable violation, uid is erased (its node versions
// counted, the new digest given), a second erase of it is refused, and
// the server keeps serving.
func Erase(t *testing.T, cs *mcp.ClientSession, uid string) {
	t.Helper()
	m, isErr := Call(t, cs, "erase", map[string]any{"uid": "no-such-node"})
	if !isErr {
		t.Fatalf("erase of an unknown uid: %v", m)
	}
	if v := Violations(t, m); len(v) != 1 || v[0]["rule"] != "write.erase" || v[0]["hint"] == "" {
		t.Fatalf("erase of an unknown uid: violations %v", v)
	}
	m, isErr = Call(t, cs, "erase", map[string]any{"uid": uid, "edges": true})
	if isErr {
		t.Fatalf("erase %s: %v", uid, m)
	}
	if n, _ := m["node_versions"].(float64); n < 1 {
		t.Fatalf("erase %s erased no node version: %v", uid, m)
	}
	if d, _ := m["digest"].(string); len(d) != 64 {
		t.Fatalf("erase %s: digest %v", uid, m["digest"])
	}
	if m, isErr = Call(t, cs, "erase", map[string]any{"uid": uid, "edges": true}); !isErr {
		t.Fatalf("a second erase of %s: %v", uid, m)
	}
	if m, isErr = Call(t, cs, "stats", map[string]any{}); isErr {
		t.Fatalf("stats after an erase: %v", m)
	}
}
