package engine

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// tallyBrute is TallyEventStarts by the definition, one version at a
// time (marks only for the keys below sp.Keys).
func tallyBrute(r Reader, sp TallySpec) Tally {
	nodes := r.NumNodes()
	bits := (sp.Keys*nodes + 63) / 64
	t := Tally{Count: make([]int64, sp.Keys), Src: make([]uint64, bits), Dst: make([]uint64, bits)}
	for v := range uint32(r.s.NumEdgeVersions()) {
		s := r.Valid(v).Start
		if !r.Believed(v) || r.Continues(v) || s < sp.Ta || s >= sp.Tb {
			continue
		}
		key := int(r.RelID(v)) * sp.RelWeight
		if sp.BucketWeight != 0 {
			key += int((s-sp.Ta)/sp.Stride) * sp.BucketWeight
		}
		t.Count[key]++
		for _, m := range []struct {
			set  []uint64
			node uint32
		}{{t.Src, r.Src(v)}, {t.Dst, r.Dst(v)}} {
			b := key*nodes + int(m.node)
			m.set[b/64] |= 1 << (b % 64)
		}
	}
	return t
}

// tallySpecs are the key layouts of a window over nRels relation types:
// relation-major, bucket-major, relation only and bucket only.
func tallySpecs(ta, tb, stride int64, nRels int) []TallySpec {
	nb := int((tb-ta-1)/stride + 1)
	nRels = max(1, nRels)
	return []TallySpec{
		{Ta: ta, Tb: tb, Stride: stride, RelWeight: nb, BucketWeight: 1, Keys: nRels * nb},
		{Ta: ta, Tb: tb, Stride: stride, RelWeight: 1, BucketWeight: nRels, Keys: nRels * nb},
		{Ta: ta, Tb: tb, RelWeight: 1, Keys: nRels},
		{Ta: ta, Tb: tb, Stride: stride, BucketWeight: 1, Keys: nb},
	}
}

// reused is the Tally every check counts into: a tally must not depend on
// what its destination held.
var reused Tally

// checkTally compares the scan's tally of sp with the definition's; marks
// only where sp asks for them, and only below sp.Keys*NumNodes().
func checkTally(t interface {
	Helper()
	Fatalf(string, ...any)
}, r Reader, sp TallySpec) {
	t.Helper()
	want := tallyBrute(r, sp)
	r.TallyEventStarts(sp, &reused)
	got := reused
	if !slices.Equal(got.Count, want.Count) {
		t.Fatalf("%+v: counts %v, want %v", sp, got.Count, want.Count)
	}
	n := sp.Keys * r.NumNodes()
	for _, m := range []struct {
		name      string
		on        bool
		got, want []uint64
	}{{"src", sp.Src, got.Src, want.Src}, {"dst", sp.Dst, got.Dst, want.Dst}} {
		if !m.on {
			if m.got != nil {
				t.Fatalf("%+v: %s marks not asked for", sp, m.name)
			}
			continue
		}
		for b := range n {
			if g, w := m.got[b/64]>>(b%64)&1, m.want[b/64]>>(b%64)&1; g != w {
				t.Fatalf("%+v: %s mark %d (key %d, node %d) is %d, want %d", sp, m.name, b, b/r.NumNodes(), b%r.NumNodes(), g, w)
			}
		}
	}
}

// On random histories (corrections and retractions carve fragments), at
// random belief times, windows, strides and key layouts, the tally counts
// and marks what the definition does, serial or split over goroutines.
func TestTallyEventStartsMatchesDefinition(t *testing.T) {
	defer func(p int) { parallelChunks = p }(parallelChunks)
	rapid.Check(t, func(t *rapid.T) {
		b, r := randomHistory(t)
		ta := rapid.Int64Range(-5, 60).Draw(t, "ta")
		tb := ta + rapid.Int64Range(1, 70).Draw(t, "width")
		stride := rapid.Int64Range(1, 30).Draw(t, "stride")
		specs := tallySpecs(ta, tb, stride, len(b.eng.rels.s))
		sp := specs[rapid.IntRange(0, len(specs)-1).Draw(t, "layout")]
		sp.Src, sp.Dst = rapid.Bool().Draw(t, "src"), rapid.Bool().Draw(t, "dst")
		for _, pc := range []int{1 << 30, 1} { // serial, then split over goroutines
			parallelChunks = pc
			checkTally(t, r, sp)
		}
	})
}

// Over several chunks and many blocks, at an earlier belief time too, the
// split tally counts and marks what the definition does.
func TestTallyEventStartsAcrossChunks(t *testing.T) {
	s := benchStore(t, 3*chunkSize+123)
	for _, seq := range []uint64{2, s.Batches()} {
		r := s.Reader(s.BatchTT(seq))
		ta, tb := int64(12_345), int64(3*chunkSize+100)*1000
		for _, stride := range []int64{1_000_000, 7_777_777, tb} {
			for _, sp := range tallySpecs(ta, tb, stride, len(s.rels.s)) {
				sp.Src, sp.Dst = true, stride != tb
				checkTally(t, r, sp)
			}
		}
	}
}
