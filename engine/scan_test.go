package engine

import (
	"slices"
	"sync"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"pgregory.net/rapid"
)

// countBrute is CountEventStarts by the definition, one version at a time.
func countBrute(r Reader, ta, tb, stride int64, rel uint32) []int64 {
	out := make([]int64, (tb-ta-1)/stride+1)
	for v := range uint32(r.s.NumEdgeVersions()) {
		if !r.Believed(v) || r.Continues(v) || (rel != AnyRel && r.RelID(v) != rel) {
			continue
		}
		if t := r.Valid(v).Start; ta <= t && t < tb {
			out[(t-ta)/stride]++
		}
	}
	return out
}

// randomHistory writes up to ten random batches (corrections and
// retractions carve fragments) and reads them at a random belief time.
func randomHistory(t *rapid.T) (*both, Reader) {
	b := newBoth()
	usedKeys = nil
	for range rapid.IntRange(1, 10).Draw(t, "batches") {
		ops := make([]bt.Op, rapid.IntRange(1, 4).Draw(t, "ops"))
		for i := range ops {
			ops[i] = genOp(t, b.eng.Batches())
		}
		_ = b.write(t, ops)
		for _, op := range ops {
			if op.Kind == bt.OpAssertEdge {
				usedKeys = append(usedKeys, op.Edge)
			}
		}
	}
	return b, b.eng.Reader(rapid.Int64Range(0, b.tt+5).Draw(t, "asOf"))
}

// On random histories (corrections and retractions carve fragments), at
// random belief times, windows, strides and relation types, the scan
// counts what the definition counts, serial or split over goroutines.
func TestCountEventStartsMatchesDefinition(t *testing.T) {
	defer func(p int) { parallelChunks = p }(parallelChunks)
	rapid.Check(t, func(t *rapid.T) {
		b, r := randomHistory(t)
		ta := rapid.Int64Range(-5, 60).Draw(t, "ta")
		tb := ta + rapid.Int64Range(1, 70).Draw(t, "width")
		stride := rapid.Int64Range(1, 30).Draw(t, "stride")
		rel := AnyRel
		if n := len(b.eng.rels.s); n > 0 && rapid.Bool().Draw(t, "byRel") {
			rel = uint32(rapid.IntRange(0, n-1).Draw(t, "rel"))
		}
		want := countBrute(r, ta, tb, stride, rel)
		for _, pc := range []int{1 << 30, 1} { // serial, then split over goroutines
			parallelChunks = pc
			got := make([]int64, len(want))
			r.CountEventStarts(ta, tb, stride, rel, got)
			if !slices.Equal(got, want) {
				t.Fatalf("parallelChunks %d: counts %v, want %v", pc, got, want)
			}
		}
	})
}

// Over several chunks, at an earlier belief time too, the split scan
// counts what the definition counts.
func TestCountEventStartsAcrossChunks(t *testing.T) {
	s := benchStore(t, 5*chunkSize+123)
	for _, seq := range []uint64{2, s.Batches()} {
		r := s.Reader(s.BatchTT(seq))
		ta, tb := int64(12_345), int64(5*chunkSize+100)*1000
		for _, stride := range []int64{1_000, 7_777_777, tb} {
			want := countBrute(r, ta, tb, stride, AnyRel)
			got := make([]int64, len(want))
			r.CountEventStarts(ta, tb, stride, AnyRel, got)
			if !slices.Equal(got, want) {
				t.Fatalf("seq %d stride %d: counts differ", seq, stride)
			}
		}
	}
}

// On random histories, at random belief times and windows, the chunk
// scan selects exactly the occurrences of the definition, each once, with
// the chunk's columns at their positions, serial or split over goroutines.
func TestScanEventChunksSelectsOccurrences(t *testing.T) {
	defer func(p int) { parallelChunks = p }(parallelChunks)
	rapid.Check(t, func(t *rapid.T) {
		_, r := randomHistory(t)
		ta := rapid.Int64Range(-5, 60).Draw(t, "ta")
		tb := ta + rapid.Int64Range(1, 70).Draw(t, "width")
		var want []uint32
		for v := range uint32(r.s.NumEdgeVersions()) {
			if s := r.Valid(v).Start; ta <= s && s < tb && r.Believed(v) && !r.Continues(v) {
				want = append(want, v)
			}
		}
		for _, pc := range []int{1 << 30, 1} {
			parallelChunks = pc
			var mu sync.Mutex
			var got []uint32
			r.ScanEventChunks(ta, tb, func(int) func(c *EventChunk) {
				return func(c *EventChunk) {
					mu.Lock()
					defer mu.Unlock()
					for _, i := range c.Sel {
						v := c.Base + uint32(i)
						if c.VtS[i] != r.Valid(v).Start || c.Rel[i] != r.RelID(v) || c.Src[i] != r.Src(v) || c.Dst[i] != r.Dst(v) {
							t.Fatalf("version %d: columns differ", v)
						}
						got = append(got, v)
					}
				}
			})
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("parallelChunks %d: selected %v, want %v", pc, got, want)
			}
		}
	})
}
