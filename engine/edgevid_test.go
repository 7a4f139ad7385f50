package engine

import (
	"fmt"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// TestEdgeIDsMatchHashes reads every edge version's ids three times (cold,
// warm, and after the other versions sharing its slot were read) and
// compares them with EID and VID computed from the version.
func TestEdgeIDsMatchHashes(t *testing.T) {
	s := New()
	n := edgeIDSlots + 5000 // slots are shared
	var evs []bt.Event
	for i := range n {
		evs = append(evs, bt.Event{Src: fmt.Sprintf("n%d", i%97), Dst: fmt.Sprintf("n%d", i%89), RelType: []string{"MSG", "CALL"}[i%2],
			VtS: bt.Time(1000 + i), VtE: bt.Time(1001 + i + i%3)})
	}
	eff, err := bt.Plan(s, 1, 1, []bt.Op{bt.Ingest(evs, "Node")})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Apply(eff); err != nil {
		t.Fatal(err)
	}
	r := s.Reader(bt.OpenEnd)
	check := func(round string) {
		for v := range uint32(s.NumEdgeVersions()) {
			e := s.EdgeVersion(v)
			wantE := EID(e.Key)
			wantV := VID(wantE, e.TTs, e.Valid.Start)
			if eid, vid := r.EdgeIDs(v); eid != wantE || vid != wantV {
				t.Fatalf("%s: version %d: ids %s %s, want %s %s", round, v, eid, vid, wantE, wantV)
			}
		}
	}
	check("cold")
	check("warm")
	for v := s.NumEdgeVersions() - 1; v > 0; v -= edgeIDSlots / 3 {
		if eid, _ := r.EdgeIDs(uint32(v)); eid != EID(s.EdgeVersion(uint32(v)).Key) {
			t.Fatalf("backwards: version %d", v)
		}
	}
	check("after collisions")
	// Readers share the slots: concurrent reads of colliding versions
	// still get their own ids (run with -race).
	done := make(chan error, 4)
	for g := range 4 {
		go func() {
			for v := g; v < s.NumEdgeVersions(); v += 3 {
				e := s.EdgeVersion(uint32(v))
				if eid, vid := r.EdgeIDs(uint32(v)); eid != EID(e.Key) || vid != VID(eid, e.TTs, e.Valid.Start) {
					done <- fmt.Errorf("concurrent: version %d: ids %s %s", v, eid, vid)
					return
				}
			}
			done <- nil
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}
