package eventlog

import (
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// A moving correct survives the log (kind byte 6); a plain one keeps byte 4.
func TestMovingCorrectRoundTrip(t *testing.T) {
	k := bt.EdgeKey{Src: "a", Dst: "b", RelType: "MSG", Disc: "1"}
	ops := []bt.Op{
		bt.CorrectTime(bt.EdgeRef(k), `{"w":1}`, bt.Interval{Start: 100, End: 200}, bt.Interval{Start: 150, End: 250}),
		bt.Correct(bt.EdgeRef(k), `{"w":2}`, bt.Interval{Start: 150, End: 160}),
	}
	payload := AppendRecord(nil, &Record{TT: 7, Seq: 1, Ops: ops})
	r, err := DecodeRecord(payload)
	if err != nil {
		t.Fatal(err)
	}
	for i, op := range r.Ops {
		if op.Kind != bt.OpCorrect || op.Valid != ops[i].Valid || op.To != ops[i].To || op.Props != ops[i].Props || op.Ref != ops[i].Ref {
			t.Fatalf("op %d: %+v, want %+v", i, op, ops[i])
		}
	}
	if r.Ops[1].Moves() {
		t.Fatal("a plain correct decoded as a move")
	}
}
