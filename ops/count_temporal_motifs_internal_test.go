package ops

import (
	"context"
	"math/rand/v2"
	"testing"
)

// motifTestEvents builds an event sequence directly (positions are the
// (t, eid) order): n events over nodes nodes, timestamps in [0, span) with
// ties, no self-loops.
func motifTestEvents(rng *rand.Rand, n, nodes int, span int64) *motifEvents {
	ev := &motifEvents{nodes: nodes}
	var t int64
	for range n {
		if rng.IntN(3) > 0 {
			t += rng.Int64N(span/int64(n)*2 + 1)
		}
		s := int32(rng.IntN(nodes))
		d := int32(rng.IntN(nodes - 1))
		if d >= s {
			d++
		}
		ev.t = append(ev.t, t)
		ev.src = append(ev.src, s)
		ev.dst = append(ev.dst, d)
	}
	ev.total = int64(n)
	return ev
}

// TestMotifFastCountersMatchWindowCounter: the linear two-node and star
// counters agree with the δ-window counter (a different algorithm) for
// every catalogue motif on streams too large for the cubic oracle.
func TestMotifFastCountersMatchWindowCounter(t *testing.T) {
	for seed := range 12 {
		rng := rand.New(rand.NewPCG(uint64(seed), 3))
		nodes := 3 + rng.IntN(25)
		ev := motifTestEvents(rng, 1500+rng.IntN(1500), nodes, 100_000)
		ev.index()
		delta := int64(1 + rng.IntN(3000))
		nonZero := 0
		for _, d := range motifCatalog {
			c := &Call{Ctx: context.Background(), limit: MaxWork}
			fast, err := motifCountFast(c, ev, d, delta)
			if err != nil {
				t.Fatal(err)
			}
			slow, err := motifCountWindow(c, ev, d, delta)
			if err != nil {
				t.Fatal(err)
			}
			if fast != slow {
				t.Fatalf("seed %d %s (%s), %d nodes, delta %d: fast %d, window %d", seed, d.name, d.pattern(), nodes, delta, fast, slow)
			}
			if fast > 0 {
				nonZero++
			}
		}
		if nonZero < len(motifCatalog)/2 {
			t.Errorf("seed %d: only %d motifs with instances", seed, nonZero)
		}
	}
}

// TestMotifGridClasses pins the 6×6 layout: 4 two-node motifs, 8
// triangles, 24 stars, and the counter classes of a few cells.
func TestMotifGridClasses(t *testing.T) {
	kinds := map[motifKind][]string{}
	for _, d := range motifCatalog[:36] {
		kinds[d.kind] = append(kinds[d.kind], d.name)
	}
	if len(kinds[motifTwoNode]) != 4 || len(kinds[motifTriangle]) != 8 || len(kinds[motifStar]) != 24 {
		t.Fatalf("grid classes: %v", kinds)
	}
	want := map[string]string{"two": "M51 M52 M61 M62", "tri": "M13 M14 M23 M24 M35 M36 M45 M46"}
	join := func(xs []string) string {
		s := ""
		for i, x := range xs {
			if i > 0 {
				s += " "
			}
			s += x
		}
		return s
	}
	if join(kinds[motifTwoNode]) != want["two"] || join(kinds[motifTriangle]) != want["tri"] {
		t.Fatalf("grid classes: %v", kinds)
	}
	// SNAP's counter indices (direction 0 out of the centre, 1 into it).
	for name, w := range map[string]struct {
		shape motifStarShape
		dirs  [3]int
	}{
		"M11": {motifShapeMid, [3]int{1, 1, 1}}, "M15": {motifShapePost, [3]int{1, 1, 0}},
		"M31": {motifShapeMid, [3]int{0, 1, 0}}, "M43": {motifShapePost, [3]int{0, 0, 0}},
		"M53": {motifShapePre, [3]int{0, 1, 0}}, "M66": {motifShapePre, [3]int{1, 1, 1}},
	} {
		d := motifByName[name]
		if d.shape != w.shape || d.dirs != w.dirs {
			t.Errorf("%s: shape %d dirs %v, want %d %v", name, d.shape, d.dirs, w.shape, w.dirs)
		}
	}
}
