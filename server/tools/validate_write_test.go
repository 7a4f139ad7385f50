package tools_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/internal/servertest/testdb"
	"github.com/tgms-go/tgms/server/tools"
	"github.com/tgms-go/tgms/writecheck"
)

// validate_write is offered read-only too, returns the contract's
// violations with their paths, and writes nothing.
func TestValidateWrite(t *testing.T) {
	s := testdb.New(t)
	svc := tools.New(s.DB, tools.Options{}) // read-only
	before := s.DB.Digest()
	cases := []struct {
		args map[string]any
		want string // rules@paths, or "" when admitted
	}{
		{map[string]any{"ops": `{"op":"assert_edge","src":"a","dst":"zed","rel_type":"KNOWS","vt_s":"2024-01-01T00:00:00Z"}`, "provenance": map[string]any{"authority": "model", "actor": "agent"}},
			"entity.unknown@/ops/0/dst"},
		{map[string]any{"ops": `{"op":"assert_node","uid":"a","label":"Person","props":{"name":7}}`},
			"props.type@/ops/0/props/name belief.implicit@/ops/0/vt_s"},
		{map[string]any{"ops": `{"op":"assert_node","uid":"zed","label":"Person","props":{"name":"Zed"}}`, "provenance": map[string]any{"authority": "user"}},
			""},
	}
	for _, tc := range cases {
		out, f := svc.Call(context.Background(), "validate_write", tc.args)
		if f != nil {
			t.Fatalf("%v: %v", tc.args, f)
		}
		res := out.(*writecheck.Result)
		var got []string
		for _, v := range res.Violations {
			got = append(got, v.Rule+"@"+v.Path)
		}
		if strings.Join(got, " ") != tc.want || res.Admitted != (tc.want == "") {
			t.Fatalf("%v: violations %q admitted %v, want %q", tc.args, got, res.Admitted, tc.want)
		}
		if res.Admitted && (res.Preview == nil || len(res.Preview.Opened) != 1) {
			t.Fatalf("preview %+v", res.Preview)
		}
	}
	if _, f := svc.Call(context.Background(), "validate_write", map[string]any{"ops": `{"op":"assert_node","uid":"q"}`, "provenance": map[string]any{"authority": "boss"}}); f == nil || !strings.Contains(f.Error(), "authority") {
		t.Fatalf("a bad authority: %v", f)
	}
	if s.DB.Digest() != before {
		t.Fatal("validate_write changed the store")
	}
}
