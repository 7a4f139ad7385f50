package bitemporal

import (
	"slices"
	"strings"
	"testing"
)

// A correct that moves an edge in valid time closes the wrong version as a
// correction and believes the fact over the new interval: no retract, no
// evolution. It round-trips through the JSON write format, and moving onto
// valid time the identity still holds is refused with the store untouched.
func TestCorrectTimeIsACorrection(t *testing.T) {
	m := NewMemStore()
	k := EdgeKey{Src: "a", Dst: "b", RelType: "MSG", Disc: "1"}
	if err := m.Write(10, []Op{AssertEdge(k, props(t, `{"w":1}`), Interval{Start: 100, End: 200})}); err != nil {
		t.Fatal(err)
	}
	move := CorrectTime(EdgeRef(k), props(t, `{"w":1}`), Interval{Start: 100, End: 200}, Interval{Start: 150, End: 250})
	b, err := EncodeOp(move)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeOp(b)
	if err != nil || back.To != move.To || back.Valid != move.Valid || back.Kind != OpCorrect {
		t.Fatalf("round trip %s: %+v %v", b, back, err)
	}
	if err := m.Write(20, []Op{back}); err != nil {
		t.Fatal(err)
	}
	rows := edgeRows(m)
	// the part outside the moved-from interval is gone: the whole of
	// [100, 200) was the wrong belief, so nothing of it remains
	if len(rows) != 2 || !strings.Contains(rows[0], "vt[100,200) tt[10,20)") || !strings.HasSuffix(rows[0], "assert_edge/correct") ||
		!strings.Contains(rows[1], "vt[150,250) tt[20,") || !strings.HasSuffix(rows[1], "correct/") {
		t.Fatalf("versions after the move:\n%s", strings.Join(rows, "\n"))
	}
	// Moving part of it onto time it still holds is a conflict.
	before := slices.Clone(edgeRows(m))
	bad := CorrectTime(EdgeRef(k), "", Interval{Start: 150, End: 160}, Interval{Start: 200, End: 210})
	if err := m.Write(30, []Op{bad}); err == nil || !strings.Contains(err.Error(), CodeConflict) {
		t.Fatalf("move onto believed time: %v", err)
	}
	if !slices.Equal(before, edgeRows(m)) {
		t.Fatal("a refused move changed the store")
	}
	// An empty target interval is refused.
	if err := m.Write(40, []Op{CorrectTime(EdgeRef(k), "", Interval{Start: 150, End: 250}, Interval{Start: 5, End: 5})}); err == nil {
		t.Fatal("an empty target interval was accepted")
	}
}
