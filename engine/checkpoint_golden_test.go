package engine

import (
	"os"
	"path/filepath"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// goldenCheckpoint is a version 2 checkpoint written by the engine before
// its in-memory columns were made sparse, from goldenBatches.
const goldenCheckpoint = "testdata/v2-golden.ckpt"

// goldenBatches is a small history that touches every column encoding:
// events and intervals, open ends, long durations, explicit and
// store-assigned discs (including references to an earlier batch's, which
// make a batch irregular), props, retractions and corrections.
func goldenBatches() [][]bt.Op {
	k := bt.EdgeKey{Src: "a", Dst: "b", RelType: "R", Disc: "x"}
	return [][]bt.Op{
		{bt.Ingest([]bt.Event{
			{Src: "a", Dst: "b", RelType: "M", VtS: 10},
			{Src: "b", Dst: "c", RelType: "M", VtS: 11, VtE: 11 + 127},
			{Src: "c", Dst: "a", RelType: "M", VtS: 12, VtE: 12 + 128, Props: `{"w":1}`},
			{Src: "a", Dst: "c", RelType: "M", VtS: 13, VtE: 13 + 1<<40},
		}, "")},
		{bt.AssertNode("a", "P", `{"n":1}`, bt.Interval{Start: 0, End: bt.OpenEnd}),
			bt.AssertEdge(k, `{"w":2}`, bt.Interval{Start: 5, End: bt.OpenEnd}),
			bt.AssertEdge(bt.EdgeKey{Src: "a", Dst: "b", RelType: "M", Disc: "#1.0"}, "", bt.Interval{Start: 10, End: 11})},
		{bt.Retract(bt.EdgeRef(k), 50),
			bt.Correct(bt.EdgeRef(bt.EdgeKey{Src: "c", Dst: "a", RelType: "M", Disc: "#1.2"}), `{"w":3}`, bt.Interval{Start: 20, End: 30}),
			bt.Ingest([]bt.Event{{Src: "c", Dst: "b", RelType: "M", VtS: 40}, {Src: "b", Dst: "a", RelType: "N", VtS: 41, VtE: 45}}, "")},
	}
}

// An existing version 2 checkpoint reads back into the same store: the
// digest equals the model's for the same history, and every edge version
// reads as the model's.
func TestCheckpointGolden(t *testing.T) {
	b := newBoth()
	for _, ops := range goldenBatches() {
		if err := b.write(t, ops); err != nil {
			t.Fatalf("golden batch: %v", err)
		}
	}
	if os.Getenv("TGMS_WRITE_GOLDEN") != "" {
		if _, err := b.eng.WriteCheckpoint(goldenCheckpoint, infoFor(b.eng, 1234)); err != nil {
			t.Fatal(err)
		}
	}
	got, _, err := ReadCheckpoint(filepath.FromSlash(goldenCheckpoint))
	if err != nil {
		t.Fatal(err)
	}
	if d, want := got.Digest(), b.model.Digest(); d != want {
		t.Fatalf("digest %s, the model's is %s", d, want)
	}
	if got.NumEdgeVersions() != len(b.model.Edges) {
		t.Fatalf("%d edge versions, the model has %d", got.NumEdgeVersions(), len(b.model.Edges))
	}
	for v := range uint32(got.NumEdgeVersions()) {
		if g, w := render(got.EdgeVersion(v)), render(b.eng.EdgeVersion(v)); g != w {
			t.Errorf("version %d: %s, want %s", v, g, w)
		}
	}
}
