package writecheck

import (
	"encoding/json"
	"strings"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
)

func props(t testing.TB, s string) bt.Props {
	p, err := bt.ParseProps([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var (
	user  = &bt.Provenance{Authority: bt.AuthUser, Actor: "dana"}
	model = &bt.Provenance{Authority: bt.AuthModel, Actor: "agent"}
	open  = bt.OpenEnd
)

// base is a store with a user's node dana [100, open), a system node
// berlin [50, open) and an edge dana→berlin WORKS_AT [200, open) by a
// user; dana's props hold age as a number and office as a string.
func base(t testing.TB) *bt.MemStore {
	m := bt.NewMemStore()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(m.WriteBatch(10, "", bt.Batch{Prov: user, Ops: []bt.Op{
		bt.AssertNode("dana", "Person", props(t, `{"age":41,"office":"Paris"}`), bt.Interval{Start: 100, End: open}),
	}}))
	must(m.Write(20, []bt.Op{bt.AssertNode("berlin", "Office", "", bt.Interval{Start: 50, End: open})}))
	must(m.WriteBatch(30, "", bt.Batch{Prov: user, Ops: []bt.Op{
		bt.AssertEdge(bt.EdgeKey{Src: "dana", Dst: "berlin", RelType: "WORKS_AT"}, "", bt.Interval{Start: 200, End: open}),
	}}))
	return m
}

func TestRules(t *testing.T) {
	works := bt.EdgeKey{Src: "dana", Dst: "berlin", RelType: "WORKS_AT"}
	cases := []struct {
		name  string
		batch func(t testing.TB) bt.Batch
		want  []string // rule@path, in order; empty: admitted
	}{
		{"new node and edge", func(t testing.TB) bt.Batch {
			return bt.Batch{Prov: model, Ops: []bt.Op{
				bt.AssertNode("eve", "Person", props(t, `{"age":30}`), bt.Interval{Start: 10, End: open}),
				bt.AssertEdge(bt.EdgeKey{Src: "eve", Dst: "berlin", RelType: "VISITS"}, "", bt.Interval{Start: 60, End: 70}),
			}}
		}, nil},
		{"unknown endpoint", func(t testing.TB) bt.Batch {
			return bt.Batch{Prov: model, Ops: []bt.Op{bt.AssertEdge(bt.EdgeKey{Src: "zed", Dst: "berlin", RelType: "VISITS"}, "", bt.Interval{Start: 60, End: 70})}}
		}, []string{"entity.unknown@/ops/0/src"}},
		{"endpoint not valid yet", func(t testing.TB) bt.Batch {
			return bt.Batch{Prov: model, Ops: []bt.Op{bt.AssertEdge(bt.EdgeKey{Src: "dana", Dst: "berlin", RelType: "VISITS"}, "", bt.Interval{Start: 60, End: 70})}}
		}, []string{"entity.unknown@/ops/0/src"}},
		{"assert over a belief", func(t testing.TB) bt.Batch {
			return bt.Batch{Prov: user, Ops: []bt.Op{bt.AssertNode("dana", "Person", props(t, `{"office":"Berlin"}`), bt.Interval{Start: 300, End: open})}}
		}, []string{"belief.implicit@/ops/0/vt_s"}},
		{"retract then assert is explicit", func(t testing.TB) bt.Batch {
			return bt.Batch{Prov: user, Ops: []bt.Op{
				bt.Retract(bt.NodeRef("dana"), 300),
				bt.AssertNode("dana", "Person", props(t, `{"office":"Berlin"}`), bt.Interval{Start: 300, End: open}),
			}}
		}, nil},
		{"model corrects a user's fact", func(t testing.TB) bt.Batch {
			return bt.Batch{Prov: model, Ops: []bt.Op{bt.Correct(bt.NodeRef("dana"), props(t, `{"office":"Rome"}`), bt.Interval{Start: 100, End: open})}}
		}, []string{"authority.override@/ops/0/ref"}},
		{"model retracts a user's edge", func(t testing.TB) bt.Batch {
			return bt.Batch{Prov: model, Ops: []bt.Op{bt.Retract(bt.EdgeRef(works), 400)}}
		}, []string{"authority.override@/ops/0/ref"}},
		{"model overrides on purpose", func(t testing.TB) bt.Batch {
			return bt.Batch{Prov: model, Override: true, Ops: []bt.Op{bt.Correct(bt.NodeRef("dana"), props(t, `{"office":"Rome"}`), bt.Interval{Start: 100, End: open})}}
		}, nil},
		{"model corrects a system fact", func(t testing.TB) bt.Batch {
			return bt.Batch{Prov: model, Ops: []bt.Op{bt.Correct(bt.NodeRef("berlin"), props(t, `{"city":"Berlin"}`), bt.Interval{Start: 50, End: open})}}
		}, nil},
		{"correct where nothing is believed", func(t testing.TB) bt.Batch {
			return bt.Batch{Prov: user, Ops: []bt.Op{bt.Correct(bt.NodeRef("dana"), "", bt.Interval{Start: 10, End: 20})}}
		}, []string{"entity.unknown@/ops/0/ref"}},
		{"prop type", func(t testing.TB) bt.Batch {
			return bt.Batch{Prov: user, Ops: []bt.Op{bt.Correct(bt.NodeRef("dana"), props(t, `{"age":"forty","office":"Rome"}`), bt.Interval{Start: 100, End: open})}}
		}, []string{"props.type@/ops/0/props/age"}},
		{"int where floats were is a number", func(t testing.TB) bt.Batch {
			return bt.Batch{Prov: user, Ops: []bt.Op{bt.Correct(bt.NodeRef("dana"), props(t, `{"age":41.5}`), bt.Interval{Start: 100, End: open})}}
		}, nil},
		{"prop type within the batch", func(t testing.TB) bt.Batch {
			return bt.Batch{Prov: user, Ops: []bt.Op{
				bt.AssertNode("x", "", props(t, `{"fresh":true}`), bt.Always),
				bt.AssertNode("y", "", props(t, `{"fresh":"yes"}`), bt.Always),
			}}
		}, []string{"props.type@/ops/1/props/fresh"}},
		{"time bounds", func(t testing.TB) bt.Batch {
			return bt.Batch{Prov: user, Ops: []bt.Op{bt.AssertNode("x", "", "", bt.Interval{Start: 5, End: MaxSaneTime + 10})}}
		}, []string{"time.bounds@/ops/0/vt_e"}},
		{"open end is fine", func(t testing.TB) bt.Batch {
			return bt.Batch{Prov: user, Ops: []bt.Op{bt.AssertNode("x", "", "", bt.Interval{Start: MaxSaneTime, End: open})}}
		}, nil},
		{"bad op", func(t testing.TB) bt.Batch {
			return bt.Batch{Prov: user, Ops: []bt.Op{bt.AssertNode("", "", "", bt.Always)}}
		}, []string{"op.invalid@/ops/0/uid"}},
		{"bad provenance", func(t testing.TB) bt.Batch {
			return bt.Batch{Prov: &bt.Provenance{Authority: bt.AuthUser, Actor: "a\x00b"}, Ops: []bt.Op{bt.AssertNode("x", "", "", bt.Always)}}
		}, []string{"provenance.invalid@/provenance/actor"}},
		{"all violations in one pass", func(t testing.TB) bt.Batch {
			return bt.Batch{Prov: model, Ops: []bt.Op{
				bt.AssertEdge(bt.EdgeKey{Src: "dana", Dst: "nobody", RelType: "KNOWS"}, "", bt.Interval{Start: 150, End: open}),
				bt.Correct(bt.NodeRef("dana"), props(t, `{"age":"x"}`), bt.Interval{Start: 100, End: 200}),
			}}
		}, []string{"entity.unknown@/ops/0/dst", "authority.override@/ops/1/ref", "props.type@/ops/1/props/age"}},
		{"ingest creates its endpoints", func(t testing.TB) bt.Batch {
			return bt.Batch{Prov: &bt.Provenance{Authority: bt.AuthImport}, Ops: []bt.Op{
				bt.Ingest([]bt.Event{{Src: "p", Dst: "q", RelType: "MSG", VtS: 5}}, ""),
				bt.AssertEdge(bt.EdgeKey{Src: "p", Dst: "q", RelType: "KNOWS"}, "", bt.Interval{Start: 6, End: open}),
			}}
		}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := base(t)
			before := m.Digest()
			res := Check(m, 100, m.Batches+1, tc.batch(t))
			var got []string
			for _, v := range res.Violations {
				got = append(got, v.Rule+"@"+v.Path)
				if v.Code != Code || v.Message == "" || v.Hint == "" {
					t.Errorf("violation without code, message or hint: %+v", v)
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Fatalf("violations %q, want %q\n%+v", got, tc.want, res.Violations)
			}
			if res.Admitted != (len(tc.want) == 0) {
				t.Fatalf("admitted %v with %d violations", res.Admitted, len(got))
			}
			if m.Digest() != before {
				t.Fatal("Check changed the store")
			}
		})
	}
}

// The preview is what the write does: the versions opened and closed.
func TestPreview(t *testing.T) {
	m := base(t)
	b := bt.Batch{Prov: user, Ops: []bt.Op{bt.Retract(bt.NodeRef("dana"), 300)}}
	res := Check(m, 100, m.Batches+1, b)
	if !res.Admitted || res.Preview == nil {
		t.Fatalf("%+v", res)
	}
	got, _ := json.Marshal(res.Preview)
	want := `{"opened":[{"kind":"node","uid":"dana","label":"Person","props":{"age":41,"office":"Paris"},"vt_s":100,"vt_e":300,"created_by":"retract","authority":"user"}],"closed":[{"kind":"node","uid":"dana","label":"Person","props":{"age":41,"office":"Paris"},"vt_s":100,"vt_e":4611686018427387904,"tt_s":10,"created_by":"assert_node","closed_by":"retract","authority":"user"}]}`
	if string(got) != want {
		t.Fatalf("preview\n got %s\nwant %s", got, want)
	}
	// Writing the batch opens and closes exactly these.
	n, e := len(m.Nodes), 0
	if err := m.WriteBatch(100, "", b); err != nil {
		t.Fatal(err)
	}
	for _, v := range m.Nodes {
		if v.TTe == 100 {
			e++
		}
	}
	if len(m.Nodes)-n != len(res.Preview.Opened) || e != len(res.Preview.Closed) {
		t.Fatalf("the write opened %d and closed %d; the preview said %d and %d", len(m.Nodes)-n, e, len(res.Preview.Opened), len(res.Preview.Closed))
	}
}
