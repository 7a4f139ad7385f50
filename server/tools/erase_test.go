package tools_test

import (
	"context"
	"testing"

	tgms "github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/internal/servertest/testdb"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/server/tools"
)

func TestEraseTool(t *testing.T) {
	s := testdb.New(t)
	ctx := context.Background()
	ro := tools.New(s.DB, tools.Options{})
	if _, f := ro.Call(ctx, "erase", map[string]any{"uid": "a"}); f == nil {
		t.Fatal("a read-only service erased")
	}
	svc := tools.New(s.DB, tools.Options{Writer: s.DB})
	before := s.DB.Digest()
	for _, tc := range []struct {
		args map[string]any
		code string
	}{
		{map[string]any{"uid": "nobody"}, ops.ENotFound},
		{map[string]any{"uid": "a", "edges": "yes"}, ops.ESchema},
		{map[string]any{"uid": "a", "extra": 1}, ops.ESchema},
	} {
		_, f := svc.Call(ctx, "erase", tc.args)
		if f == nil || f.Code != tc.code {
			t.Errorf("erase %v: %v, want %s", tc.args, f, tc.code)
		}
	}
	if s.DB.Digest() != before {
		t.Fatal("a refused erase changed the store")
	}
	out, f := svc.Call(ctx, "erase", map[string]any{"uid": "a", "edges": true})
	if f != nil {
		t.Fatal(f)
	}
	if res := out.(*tgms.EraseResult); res.NodeVersions == 0 || res.Digest == before || res.Digest != s.DB.Digest() {
		t.Errorf("erase result %+v (digest before %s, now %s)", res, before, s.DB.Digest())
	}
	if _, f := svc.Call(ctx, "erase", map[string]any{"uid": "a", "edges": true}); f == nil || f.Code != ops.ENotFound {
		t.Errorf("second erase: %v", f)
	}
}
