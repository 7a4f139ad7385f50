package tabular

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
)

func TestReadChangesProvenance(t *testing.T) {
	const hdr = "recorded_at,op,uid,prov_authority,prov_source,prov_actor,prov_ref,prov_note,override\n"
	const t1, t2 = "2024-03-01T00:00:00Z", "2024-03-02T00:00:00Z"
	type want struct {
		prov     *bt.Provenance
		override bool
	}
	cases := []struct {
		name string
		body string
		want []want     // per batch
		bad  *CellError // the first problem (Pos.Line, Column, Msg prefix)
	}{
		{"none stated", t1 + ",assert,a,,,,,,\n" + t2 + ",assert,b,,,,,,\n", []want{{}, {}}, nil},
		{"every field", t1 + ",assert,a,user,crm,dana,chat-7,\"a, \"\"b\"\"\nc\",true\n" + t1 + ",assert,b,user,crm,dana,chat-7,\"a, \"\"b\"\"\nc\",TRUE\n",
			[]want{{&bt.Provenance{Authority: bt.AuthUser, Source: "crm", Actor: "dana", Ref: "chat-7", Note: "a, \"b\"\nc"}, true}}, nil},
		{"authorities", t1 + ",assert,a,model,,,,,false\n" + t2 + ",assert,b,system,,,,,\n",
			[]want{{prov: &bt.Provenance{Authority: bt.AuthModel}}, {prov: &bt.Provenance{Authority: bt.AuthSystem}}}, nil},
		{"import", t1 + ",assert,a,import,s3://bucket,,,,\n", []want{{prov: &bt.Provenance{Authority: bt.AuthImport, Source: "s3://bucket"}}}, nil},
		{"override alone", t1 + ",assert,a,,,,,,true\n", []want{{override: true}}, nil},
		{"unknown authority", t1 + ",assert,a,admin,,,,,\n", nil, &CellError{Pos: Pos{Line: 2}, Column: ColProvAuthority, Msg: "unknown authority"}},
		{"case matters", t1 + ",assert,a,User,,,,,\n", nil, &CellError{Pos: Pos{Line: 2}, Column: ColProvAuthority, Msg: "unknown authority"}},
		{"text without authority", t1 + ",assert,a,,,dana,,,\n", nil, &CellError{Pos: Pos{Line: 2}, Column: ColProvAuthority, Msg: "provenance text without"}},
		{"bad override", t1 + ",assert,a,user,,,,,1\n", nil, &CellError{Pos: Pos{Line: 2}, Column: ColOverride, Msg: "not a boolean"}},
		{"NUL in note", t1 + ",assert,a,user,,,,x\x00y,\n", nil, &CellError{Pos: Pos{Line: 2}, Column: ColProvNote, Msg: "not UTF-8"}},
		{"too long", t1 + ",assert,a,user,,," + strings.Repeat("r", bt.MaxProvenanceText+1) + ",,\n", nil, &CellError{Pos: Pos{Line: 2}, Column: ColProvRef, Msg: "4097 bytes"}},
		{"batch disagrees", t1 + ",assert,a,user,,dana,,,\n" + t2 + ",assert,c,,,,,,\n" + t1 + ",assert,b,user,,ben,,,\n", nil, &CellError{Pos: Pos{Line: 4}, Msg: "provenance authority \"user\" source \"\" actor \"ben\""}},
		{"override disagrees", t1 + ",assert,a,,,,,,\n" + t1 + ",assert,b,,,,,,true\n", nil, &CellError{Pos: Pos{Line: 3}, Msg: "provenance none, override true differs"}},
	}
	dir := t.TempDir()
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := write(t, dir, filepath.Base(t.Name())+string(rune('a'+i))+".csv", hdr+c.body)
			rd, err := Open(p, "")
			if err != nil {
				t.Fatal(err)
			}
			cl, err := ReadChanges(rd, &Mapping{}, Options{MaxProblems: 1})
			rd.Close()
			if c.bad != nil {
				var pr *Problems
				if !errors.As(err, &pr) {
					t.Fatalf("want a problem, got %v", err)
				}
				e := pr.First()
				if e.Pos.Line != c.bad.Pos.Line || e.Pos.File != p || e.Column != c.bad.Column || !strings.HasPrefix(e.Msg, c.bad.Msg) {
					t.Fatalf("got %s (line %d column %q), want line %d column %q %q", e, e.Pos.Line, e.Column, c.bad.Pos.Line, c.bad.Column, c.bad.Msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(cl.Batches) != len(c.want) {
				t.Fatalf("%d batches, want %d", len(cl.Batches), len(c.want))
			}
			for k, w := range c.want {
				b := cl.Batches[k]
				if b.Override != w.override || (b.Prov == nil) != (w.prov == nil) || (b.Prov != nil && *b.Prov != *w.prov) {
					t.Errorf("batch %d: prov %+v override %t, want %+v %t", k, b.Prov, b.Override, w.prov, w.override)
				}
			}
		})
	}
}

// A change log without provenance columns binds none of them: property
// columns named like them are free ("*" takes them as props).
func TestReadChangesWithoutProvenanceColumns(t *testing.T) {
	p := write(t, t.TempDir(), "old.csv", "recorded_at,op,uid,note\n2024-03-01T00:00:00Z,assert,a,hello\n")
	rd, _ := Open(p, "")
	cl, err := ReadChanges(rd, &Mapping{Props: []string{"*"}}, Options{})
	rd.Close()
	if err != nil {
		t.Fatal(err)
	}
	if b := cl.Batches[0]; b.Prov != nil || b.Override || b.Ops[0].Props != `{"note":"hello"}` {
		t.Fatalf("%+v", b)
	}
}
