package mcpserver_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tgms-go/tgms/answers"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/internal/servertest/mcpcheck"
	"github.com/tgms-go/tgms/internal/servertest/testdb"
	"github.com/tgms-go/tgms/server/mcpserver"
	"github.com/tgms-go/tgms/server/tools"
)

func connect(t *testing.T, svc *tools.Service) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := mcpserver.New(svc).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestInMemory(t *testing.T) {
	s := testdb.New(t)
	mcpcheck.Run(t, connect(t, tools.New(s.DB, tools.Options{})), s)
}

func TestWriteBatch(t *testing.T) {
	s := testdb.New(t)
	cs := connect(t, tools.New(s.DB, tools.Options{Writer: s.DB}))
	before := s.DB.LastTT()
	m, isErr := mcpcheck.Call(t, cs, "write_batch", map[string]any{"ops": `{"op":"assert_node","uid":"f","label":"Person","props":{"name":"Fy"}}` + "\n" + `{"op":"retract","ref":{"kind":"node","uid":"nobody"},"t":5}`})
	if !isErr {
		t.Fatalf("a batch naming an unknown node was written: %v", m)
	}
	if v := mcpcheck.Violations(t, m)[0]; v["rule"] != "write.op" {
		t.Fatalf("violation %v", v)
	}
	if s.DB.LastTT() != before {
		t.Fatalf("a refused batch changed the store")
	}
	m, isErr = mcpcheck.Call(t, cs, "write_batch", map[string]any{"ops": `{"op":"assert_node","uid":"f","label":"Person","props":{"name":"Fy"}}`})
	if isErr || m["ops"] != float64(1) || int64(m["tt"].(float64)) != s.DB.LastTT() {
		t.Fatalf("write_batch: %v", m)
	}
	m, isErr = mcpcheck.Call(t, cs, "write_batch", map[string]any{"ops": `{"op":"assert_node","uid":"g"` + "\n"})
	if v := mcpcheck.Violations(t, m)[0]; !isErr || v["path"] != "/ops/line/1" {
		t.Fatalf("a malformed line: %v", m)
	}
}

func TestReadOnlyRefusesWrites(t *testing.T) {
	s := testdb.New(t)
	cs := connect(t, tools.New(s.DB, tools.Options{}))
	for _, name := range tools.WriteTools {
		m, isErr := mcpcheck.Call(t, cs, name, map[string]any{"ops": "{}"})
		v := mcpcheck.Violations(t, m)[0]
		if !isErr || m["error"].(map[string]any)["code"] != "E_READONLY" || v["rule"] != "tool.read_only" || !strings.Contains(v["hint"].(string), "--allow-writes") {
			t.Fatalf("%s on a read-only server: %v", name, m)
		}
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "no_such_tool"}); err == nil {
		t.Fatalf("an unknown tool was called")
	}
}

// TestFresh runs the freshness battery twice: on a read-only server while
// the test writes to the store it reads, and on a writable server through
// write_batch, with saved answers.
func TestFresh(t *testing.T) {
	t.Run("read-only", func(t *testing.T) {
		s := testdb.New(t)
		cs := connect(t, tools.New(s.DB, tools.Options{}))
		mcpcheck.Fresh(t, cs, s, func(t *testing.T, jsonl string) {
			op, err := bt.DecodeOp([]byte(jsonl))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.DB.Write(op); err != nil {
				t.Fatal(err)
			}
		}, false)
	})
	t.Run("writable", func(t *testing.T) {
		s := testdb.New(t)
		cs := connect(t, tools.New(s.DB, tools.Options{Writer: s.DB}))
		mcpcheck.Fresh(t, cs, s, mcpcheck.WriteBatch(cs), true)
		defer mcpcheck.Erase(t, cs, "f")
		// What the server saved is what 'tgms answers' reads.
		f, err := answers.Open(s.Dir)
		if err != nil {
			t.Fatal(err)
		}
		gens := f.Generations("reach-a")
		if names := f.Names(); len(names) != 1 || len(gens) != 2 || gens[0].AsOfTT >= gens[1].AsOfTT || gens[1].AsOfTT != s.DB.LastTT() {
			t.Fatalf("answers.log holds %v with %d generations", names, len(gens))
		}
	})
}

// TestMemory runs the memory battery on a writable server.
func TestMemory(t *testing.T) {
	s := testdb.New(t)
	cs := connect(t, tools.New(s.DB, tools.Options{Writer: s.DB}))
	mcpcheck.Memory(t, cs, s)
}
