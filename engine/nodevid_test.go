package engine

import (
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"pgregory.net/rapid"
)

// TestNodeHistoryVIDs checks, after every batch of asserts, corrections
// and retracts, and at every belief time so far, that NodeHistoryVIDs
// lists the versions NodeHistory lists, ordered by (vt_s, vid), each with
// the id VID hashes for it: the cache is extended as rows are written and
// never serves a stale or shifted id.
func TestNodeHistoryVIDs(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := newBoth()
		for range rapid.IntRange(1, 8).Draw(t, "batches") {
			var ops []bt.Op
			for range rapid.IntRange(1, 4).Draw(t, "ops") {
				uid := rapid.SampledFrom(uidPool).Draw(t, "uid")
				iv := genInterval(t, "iv")
				switch rapid.IntRange(0, 2).Draw(t, "kind") {
				case 0:
					ops = append(ops, bt.AssertNode(uid, "N", "", iv))
				case 1:
					ops = append(ops, bt.Correct(bt.Ref{Kind: bt.RefNode, UID: uid}, `{"w":1}`, iv))
				case 2:
					ops = append(ops, bt.Retract(bt.Ref{Kind: bt.RefNode, UID: uid}, genTime(t, "at")))
				}
			}
			if b.write(t, ops) != nil {
				continue
			}
			for tt := bt.Time(0); tt <= b.tt; tt += 5 {
				r := b.eng.Reader(tt)
				for id := range r.NumNodes() {
					want := r.NodeHistory(uint32(id))
					got, vids := r.NodeHistoryVIDs(uint32(id))
					if len(got) != len(want) || len(vids) != len(got) {
						t.Fatalf("tt %d node %d: %d versions, %d ids, want %d", tt, id, len(got), len(vids), len(want))
					}
					for i, v := range got {
						if vids[i] != VID(v.UID, v.TTs, v.Valid.Start) {
							t.Fatalf("tt %d %s version %d: id %s, want %s", tt, v.UID, i, vids[i], VID(v.UID, v.TTs, v.Valid.Start))
						}
						if i > 0 && (got[i-1].Valid.Start > v.Valid.Start || got[i-1].Valid.Start == v.Valid.Start && vids[i-1] >= vids[i]) {
							t.Fatalf("tt %d %s: versions not in (vt_s, vid) order at %d", tt, v.UID, i)
						}
					}
					seen := map[string]bool{}
					for _, v := range want {
						seen[VID(v.UID, v.TTs, v.Valid.Start)] = true
					}
					for _, id := range vids {
						if !seen[id] {
							t.Fatalf("tt %d: id %s is not of a believed version", tt, id)
						}
					}
				}
			}
		}
	})
}
