package bitemporal

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func props(t *testing.T, s string) Props {
	t.Helper()
	p, err := ParseProps([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// rowsOf renders every edge (or node) version as "vt tt props created/closed",
// sorted, so tests compare whole tables.
func edgeRows(m *MemStore) []string {
	var out []string
	for _, e := range m.Edges {
		out = append(out, fmt.Sprintf("%s->%s %s %s vt[%s,%s) tt[%s,%s) %s %s/%s", e.Key.Src, e.Key.Dst, e.Key.RelType, e.Key.Disc,
			FormatMicros(e.Valid.Start), FormatMicros(e.Valid.End), FormatMicros(e.TTs), FormatMicros(e.TTe), e.Props.JSON(), e.CreatedBy, e.ClosedBy))
	}
	slices.Sort(out)
	return out
}

func nodeRows(m *MemStore) []string {
	var out []string
	for _, n := range m.Nodes {
		out = append(out, fmt.Sprintf("%s %s vt[%s,%s) tt[%s,%s) %s %s/%s", n.UID, n.Label,
			FormatMicros(n.Valid.Start), FormatMicros(n.Valid.End), FormatMicros(n.TTs), FormatMicros(n.TTe), n.Props.JSON(), n.CreatedBy, n.ClosedBy))
	}
	slices.Sort(out)
	return out
}

func mustWrite(t *testing.T, m *MemStore, tt Time, ops ...Op) {
	t.Helper()
	if err := m.Write(tt, ops); err != nil {
		t.Fatalf("write at tt %d: %v", tt, err)
	}
}

func eq(t *testing.T, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("rows differ\ngot:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

var ab = EdgeKey{"a", "b", "R", ""}

// The worked examples of the data model: a correction carve, a batch that
// carves its own writes, retraction as evolution, and a correction across a
// gap followed by a retraction at a version start.
func TestWorkedExamples(t *testing.T) {
	t.Run("correction carve", func(t *testing.T) {
		m := NewMemStore()
		mustWrite(t, m, 1, AssertEdge(ab, props(t, `{"p":1}`), Interval{0, 100}))
		mustWrite(t, m, 2, Correct(EdgeRef(ab), props(t, `{"p":2}`), Interval{40, 60}))
		eq(t, edgeRows(m), []string{
			`a->b R  vt[0,100) tt[1,2) {"p":1} assert_edge/correct`,
			`a->b R  vt[0,40) tt[2,∞) {"p":1} correct/`,
			`a->b R  vt[40,60) tt[2,∞) {"p":2} correct/`,
			`a->b R  vt[60,100) tt[2,∞) {"p":1} correct/`,
		})
		// Retract at 80 (evolution) closes [60,100) and keeps [60,80).
		mustWrite(t, m, 3, Retract(EdgeRef(ab), 80))
		eq(t, edgeRows(m)[3:], []string{
			`a->b R  vt[60,100) tt[2,3) {"p":1} correct/retract`,
			`a->b R  vt[60,80) tt[3,∞) {"p":1} retract/`,
		})
	})
	t.Run("batch carves its own writes", func(t *testing.T) {
		m := NewMemStore()
		xy := EdgeKey{"x", "y", "R", ""}
		mustWrite(t, m, 1,
			AssertNode("x", "N", props(t, `{"p":1}`), Interval{0, 100}),
			AssertNode("x", "N", props(t, `{"p":2}`), Interval{50, 150}),
			AssertEdge(xy, props(t, `{"w":1}`), Interval{10, 20}),
			AssertEdge(xy, props(t, `{"w":2}`), Interval{5, 15}))
		eq(t, nodeRows(m), []string{
			`x N vt[0,50) tt[1,∞) {"p":1} assert_node/`,
			`x N vt[50,150) tt[1,∞) {"p":2} assert_node/`,
		})
		eq(t, edgeRows(m), []string{
			`x->y R  vt[15,20) tt[1,∞) {"w":1} assert_edge/`,
			`x->y R  vt[5,15) tt[1,∞) {"w":2} assert_edge/`,
		})
	})
	t.Run("correct across a gap then retract at a start", func(t *testing.T) {
		m := NewMemStore()
		mustWrite(t, m, 1, AssertNode("n", "L1", props(t, `{"p":1}`), Interval{0, 10}))
		mustWrite(t, m, 2, AssertNode("n", "L2", props(t, `{"p":2}`), Interval{20, 30}))
		mustWrite(t, m, 3, Correct(NodeRef("n"), props(t, `{"p":9}`), Interval{5, 25}))
		mustWrite(t, m, 4, Retract(NodeRef("n"), 5))
		eq(t, nodeRows(m), []string{
			`n L1 vt[0,10) tt[1,3) {"p":1} assert_node/correct`,
			`n L1 vt[0,5) tt[3,∞) {"p":1} correct/`,
			`n L1 vt[5,25) tt[3,4) {"p":9} correct/retract`,
			`n L2 vt[20,30) tt[2,3) {"p":2} assert_node/correct`,
			// Retraction ends the fact from t on: the later version goes too.
			`n L2 vt[25,30) tt[3,4) {"p":2} correct/retract`,
		})
	})
	t.Run("ingest creates identities and first-seen nodes", func(t *testing.T) {
		m := NewMemStore()
		mustWrite(t, m, 1, AssertNode("a", "Person", "", Interval{0, OpenEnd}))
		mustWrite(t, m, 7, Ingest([]Event{{Src: "a", Dst: "c", RelType: "MSG", VtS: 20}, {Src: "c", Dst: "a", RelType: "MSG", VtS: 30}, {Src: "a", Dst: "c", RelType: "MSG", VtS: 35, VtE: 50}}, ""))
		eq(t, nodeRows(m), []string{
			`a Person vt[0,∞) tt[1,∞) {} assert_node/`,
			`c Node vt[20,∞) tt[7,∞) {} ingest/`,
		})
		eq(t, edgeRows(m), []string{
			`a->c MSG #2.0 vt[20,21) tt[7,∞) {} ingest/`,
			`a->c MSG #2.2 vt[35,50) tt[7,∞) {} ingest/`,
			`c->a MSG #2.1 vt[30,31) tt[7,∞) {} ingest/`,
		})
		// A later batch can address an ingested event by its store-assigned disc.
		mustWrite(t, m, 8, Correct(EdgeRef(EdgeKey{"a", "c", "MSG", "#2.2"}), props(t, `{"w":3}`), Interval{40, 50}))
		if got := len(m.BelievedEdges(EdgeKey{"a", "c", "MSG", "#2.2"}, Always)); got != 2 {
			t.Fatalf("believed versions of #2.2 = %d, want 2", got)
		}
	})
	t.Run("ops in one batch see earlier ingested events", func(t *testing.T) {
		m := NewMemStore()
		mustWrite(t, m, 1,
			Ingest([]Event{{Src: "a", Dst: "b", RelType: "M", VtS: 10, VtE: 20}}, "N"),
			Retract(EdgeRef(EdgeKey{"a", "b", "M", "#1.0"}), 15))
		eq(t, edgeRows(m), []string{`a->b M #1.0 vt[10,15) tt[1,∞) {} retract/`})
	})
}

func TestRetractEndsLaterVersionsToo(t *testing.T) {
	m := NewMemStore()
	mustWrite(t, m, 1, AssertNode("n", "L", props(t, `{"p":1}`), Interval{0, 10}))
	mustWrite(t, m, 2, AssertNode("n", "L", props(t, `{"p":2}`), Interval{20, 30}))
	mustWrite(t, m, 3, Retract(NodeRef("n"), 5))
	var believed []string
	for _, h := range m.BelievedNodes("n", Always) {
		believed = append(believed, h.V.Valid.String())
	}
	eq(t, believed, []string{"[0, 5)"})
}

func TestBadOpsLeaveStoreUntouched(t *testing.T) {
	cases := []struct {
		name string
		op   Op
		code string
		want string
	}{
		{"empty interval", AssertNode("x", "L", "", Interval{5, 5}), CodeInvalidArg, "empty"},
		{"inverted interval", AssertEdge(ab, "", Interval{9, 3}), CodeInvalidArg, "empty"},
		{"negative time", AssertNode("x", "L", "", Interval{-1, 3}), CodeInvalidArg, "outside"},
		{"empty uid", AssertNode("", "L", "", Always), CodeInvalidArg, "uid"},
		{"empty rel", AssertEdge(EdgeKey{"a", "b", "", ""}, "", Always), CodeInvalidArg, "rel_type"},
		{"non-canonical props", AssertNode("x", "L", `{"b":1, "a":2}`, Always), CodeInvalidArg, "canonical"},
		{"props not an object", AssertNode("x", "L", `[1]`, Always), CodeInvalidArg, "object"},
		{"retract unknown", Retract(NodeRef("ghost"), 3), CodeNotFound, "does not exist"},
		{"retract after end", Retract(NodeRef("a"), 500), CodeNotFound, "no version believed"},
		{"correct unknown edge", Correct(EdgeRef(EdgeKey{"a", "zz", "R", ""}), "", Interval{0, 1}), CodeNotFound, "does not exist"},
		{"event end before start", Ingest([]Event{{Src: "a", Dst: "b", RelType: "M", VtS: 10, VtE: 5}}, ""), CodeInvalidArg, "after start"},
		{"reserved disc", AssertEdge(EdgeKey{"a", "b", "R", "#9.1"}, "", Always), CodeConflict, "reserved"},
		{"ingest existing identity", Ingest([]Event{{Src: "a", Dst: "b", RelType: "R", VtS: 1, Disc: "d1"}}, ""), CodeConflict, "already exists"},
		{"unknown kind", Op{Kind: 42}, CodeInvalidArg, "unknown op kind"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := NewMemStore()
			mustWrite(t, m, 1, AssertNode("a", "L", "", Interval{0, 100}), AssertEdge(EdgeKey{"a", "b", "R", "d1"}, "", Interval{0, 10}))
			before := m.Digest()
			// The bad op comes after a good one in the same batch: the batch must
			// be refused whole.
			err := m.Write(2, []Op{AssertNode("good", "L", "", Always), c.op})
			var oe *OpError
			if !errors.As(err, &oe) {
				t.Fatalf("err = %v, want *OpError", err)
			}
			if oe.Code != c.code || oe.Op != 1 || !strings.Contains(oe.Error(), c.want) {
				t.Fatalf("err = %v (code %s, op %d), want code %s at op 1 mentioning %q", err, oe.Code, oe.Op, c.code, c.want)
			}
			if m.Digest() != before || m.NodeKnown("good") || m.Batches != 1 {
				t.Fatal("a refused batch changed the store")
			}
		})
	}
}

func TestAutoDisc(t *testing.T) {
	for _, c := range []struct {
		seq uint64
		i   int64
	}{{1, 0}, {12, 49999}, {1 << 40, 7}} {
		s, i, ok := ParseAutoDisc(AutoDisc(c.seq, c.i))
		if !ok || s != c.seq || i != c.i {
			t.Fatalf("round trip of (%d,%d) gave (%d,%d,%v)", c.seq, c.i, s, i, ok)
		}
	}
	for _, bad := range []string{"", "#", "#1", "#1.", "#.1", "#01.1", "#1.01", "#-1.2", "#1.-2", "x1.2", "#1.2.3"} {
		if _, _, ok := ParseAutoDisc(bad); ok {
			t.Errorf("ParseAutoDisc(%q) accepted", bad)
		}
	}
}

func TestVisibility(t *testing.T) {
	iv := Interval{10, 20}
	for _, c := range []struct {
		t, asOf  Time
		tts, tte Time
		want     bool
	}{
		{10, 5, 5, OpenEnd, true},  // written at the pinned tt: visible
		{19, 5, 1, 5, false},       // closed at the pinned tt: invisible
		{20, 5, 1, OpenEnd, false}, // valid end is exclusive
		{9, 5, 1, OpenEnd, false},
		{15, OpenEnd, 1, OpenEnd, true}, // "now" still sees open rows
		{15, 0, 1, OpenEnd, false},
	} {
		if got := Visible(iv, c.tts, c.tte, c.t, c.asOf); got != c.want {
			t.Errorf("Visible(%v, tt[%d,%d), t=%d, asOf=%d) = %v", iv, c.tts, c.tte, c.t, c.asOf, got)
		}
	}
}

func TestParseTime(t *testing.T) {
	for in, want := range map[string]Time{
		"1082040961000000":            1082040961000000,
		"2004-04-15T14:56:01Z":        1082040961000000,
		"2004-04-15T16:56:01+02:00":   1082040961000000,
		"2004-04-15":                  1081987200000000,
		"2004-04-15T14:56:01.000001Z": 1082040961000001,
	} {
		got, err := ParseTime(in)
		if err != nil || got != want {
			t.Errorf("ParseTime(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	if _, err := ParseTime("yesterday"); err == nil || !strings.Contains(err.Error(), "RFC 3339") {
		t.Errorf("ParseTime(yesterday) err = %v", err)
	}
}
