package bitemporal

import (
	"errors"
	"testing"
)

// The model store erases like the engine: PlanErase lists every version,
// planning it empties them, and a second erase has nothing to do.
func TestMemStoreErase(t *testing.T) {
	m := NewMemStore()
	k := EdgeKey{Src: "a", Dst: "b", RelType: "R", Disc: "x"}
	for i, b := range [][]Op{
		{AssertNode("a", "Secret", `{"name":"Ann"}`, Interval{0, OpenEnd}), AssertNode("b", "P", `{"name":"Bo"}`, Always)},
		{Correct(NodeRef("a"), `{"name":"Anne"}`, Interval{5, 10}), AssertEdge(k, `{"w":1}`, Interval{1, 50})},
	} {
		if err := m.Write(Time(i+1), b); err != nil {
			t.Fatal(err)
		}
	}
	before := m.Digest()
	op, err := PlanErase(m, "a", true)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(op.Erase.Tombs); n != 5 { // a: closed original, 2 fragments, the correction; the edge
		t.Fatalf("%d tombstones, want 5: %+v", n, op.Erase.Tombs)
	}
	if err := m.Write(3, []Op{op}); err != nil {
		t.Fatal(err)
	}
	for _, v := range m.Nodes {
		if v.UID == "a" && (v.Erased == "" || v.Label != "" || v.Props != "") {
			t.Errorf("version not erased: %+v", v)
		}
		if v.UID == "b" && (v.Erased != "" || v.Props == "") {
			t.Errorf("b changed: %+v", v)
		}
	}
	if m.Digest() == before {
		t.Error("the digest did not change")
	}
	if _, err := PlanErase(m, "a", true); !errors.Is(err, ErrNothingToErase) {
		t.Errorf("second erase: %v", err)
	}
	if _, err := PlanErase(m, "zz", false); err == nil {
		t.Error("erase of an unknown uid planned")
	}
	// A tombstone list that does not match the store is refused.
	bad := op
	bad.Erase = &Erasure{UID: "b", Tombs: []Tombstone{op.Erase.Tombs[0]}}
	if err := m.Write(4, []Op{bad}); err == nil {
		t.Error("a tombstone of another node's version was accepted")
	}
	if err := m.Write(4, []Op{op, AssertNode("c", "", "", Always)}); err == nil {
		t.Error("an erase sharing its batch was accepted")
	}
}

// Scrub removes content and nothing else.
func TestScrub(t *testing.T) {
	k := EdgeKey{Src: "b", Dst: "a", RelType: "R"}
	cases := []struct {
		op      Op
		edges   bool
		changed bool
	}{
		{AssertNode("a", "L", `{"n":1}`, Always), false, true},
		{AssertNode("b", "L", `{"n":1}`, Always), true, false},
		{Correct(NodeRef("a"), `{"n":2}`, Always), false, true},
		{AssertEdge(k, `{"w":1}`, Always), false, false},
		{AssertEdge(k, `{"w":1}`, Always), true, true},
		{Correct(EdgeRef(k), `{"w":1}`, Always), true, true},
		{Retract(NodeRef("a"), 5), true, false},
		{Ingest([]Event{{Src: "a", Dst: "c", RelType: "R", Props: `{"t":"x"}`}, {Src: "c", Dst: "d", RelType: "R", Props: `{"t":"y"}`}}, "N"), true, true},
	}
	for i, c := range cases {
		orig := c.op
		evs := append([]Event(nil), c.op.Events...)
		out, changed := Scrub(c.op, "a", c.edges)
		if changed != c.changed {
			t.Errorf("case %d: changed %v, want %v", i, changed, c.changed)
		}
		if changed && out.Label == orig.Label && out.Props == orig.Props && len(out.Events) == 0 {
			t.Errorf("case %d: nothing removed", i)
		}
		if out.Kind != orig.Kind || out.Valid != orig.Valid || out.UID != orig.UID || out.Ref != orig.Ref || out.Edge != orig.Edge {
			t.Errorf("case %d: identity or times changed: %+v", i, out)
		}
		for j := range evs {
			if c.op.Events[j] != evs[j] {
				t.Errorf("case %d: the input's events were changed", i)
			}
		}
		if orig.Kind == OpIngest && (out.Events[0].Props != "" || out.Events[1].Props == "") {
			t.Errorf("case %d: events %+v", i, out.Events)
		}
	}
}
