package engine

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestAdjOverlappingMatchesFilter: OutOverlapping and InOverlapping list
// exactly the versions of Out and In whose valid interval overlaps the
// window, in the same order, and NodeLabelAt is the label of the
// earliest-starting NodeHistory version valid at t, on random histories
// with corrections and retractions read at random belief times.
func TestAdjOverlappingMatchesFilter(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		_, r := randomHistory(t)
		iv := genInterval(t, "window")
		at := genTime(t, "at")
		filter := func(list []uint32) []uint32 {
			var out []uint32
			for _, v := range list {
				if r.Valid(v).Overlaps(iv) {
					out = append(out, v)
				}
			}
			return out
		}
		for id := range uint32(r.NumNodes()) {
			if got, want := r.OutOverlapping(nil, id, iv.Start, iv.End), filter(r.Out(id)); !slices.Equal(got, want) {
				t.Fatalf("OutOverlapping(%s, %v) = %v, Out filtered %v", r.UID(id), iv, got, want)
			}
			if got, want := r.InOverlapping(nil, id, iv.Start, iv.End), filter(r.In(id)); !slices.Equal(got, want) {
				t.Fatalf("InOverlapping(%s, %v) = %v, In filtered %v", r.UID(id), iv, got, want)
			}
			var want string
			ok := false
			for _, v := range r.NodeHistory(id) {
				if v.Valid.Contains(at) && !ok {
					want, ok = v.Label, true
				}
			}
			if got, gotOK := r.NodeLabelAt(id, at); got != want || gotOK != ok {
				t.Fatalf("NodeLabelAt(%s, %d) = %q %v, NodeHistory gives %q %v", r.UID(id), at, got, gotOK, want, ok)
			}
		}
	})
}
