package engine

import (
	"fmt"
	"slices"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"pgregory.net/rapid"
)

// both applies every batch to the engine and to the model store.
type both struct {
	eng   *Store
	model *bt.MemStore
	tt    bt.Time
}

func newBoth() *both { return &both{eng: New(), model: bt.NewMemStore()} }

func (b *both) write(t interface{ Fatalf(string, ...any) }, ops []bt.Op) error {
	b.tt += 10
	errM := b.model.Write(b.tt, ops)
	eff, errE := bt.Plan(b.eng, b.tt, b.eng.Batches()+1, ops)
	if (errM == nil) != (errE == nil) {
		t.Fatalf("model and engine disagree on batch: model %v, engine %v", errM, errE)
	}
	if errE != nil {
		b.tt -= 10
		return errE
	}
	if err := b.eng.Apply(eff); err != nil {
		t.Fatalf("apply: %v", err)
	}
	return nil
}

var uidPool = []string{"a", "b", "c", "d", "e"}

func genTime(t *rapid.T, label string) bt.Time { return rapid.Int64Range(0, 60).Draw(t, label) }

func genInterval(t *rapid.T, label string) bt.Interval {
	s := rapid.Int64Range(0, 39).Draw(t, label+".s")
	if rapid.IntRange(0, 4).Draw(t, label+".open") == 0 {
		return bt.Interval{Start: s, End: bt.OpenEnd}
	}
	return bt.Interval{Start: s, End: s + rapid.Int64Range(1, 30).Draw(t, label+".d")}
}

func genProps(t *rapid.T, label string) bt.Props {
	switch rapid.IntRange(0, 3).Draw(t, label) {
	case 0:
		return ""
	case 1:
		return `{"w":1}`
	case 2:
		return `{"w":2}`
	}
	return `{"note":"fixed","w":3}`
}

// genKey draws an edge identity: explicit discs, or store-assigned discs of
// earlier batches (which may or may not exist).
func genKey(t *rapid.T, batches uint64) bt.EdgeKey {
	// A small identity space, so that writes keep hitting the same edges.
	if len(usedKeys) > 0 && rapid.IntRange(0, 2).Draw(t, "reuse") > 0 {
		return rapid.SampledFrom(usedKeys).Draw(t, "usedKey")
	}
	k := bt.EdgeKey{
		Src: rapid.SampledFrom(uidPool[:3]).Draw(t, "src"), Dst: rapid.SampledFrom(uidPool[:3]).Draw(t, "dst"),
		// "M" is also the rel type of ingested events, so explicit and
		// store-assigned discriminators meet under one (src, dst, rel).
		RelType: rapid.SampledFrom([]string{"R", "R", "R", "S", "M"}).Draw(t, "rel"),
		Disc:    rapid.SampledFrom([]string{"", "", "", "x"}).Draw(t, "disc"),
	}
	if batches > 0 && rapid.IntRange(0, 2).Draw(t, "auto") == 0 {
		k.RelType = "M"
		k.Disc = bt.AutoDisc(rapid.Uint64Range(1, batches).Draw(t, "seq"), rapid.Int64Range(0, 2).Draw(t, "i"))
	}
	return k
}

// usedKeys holds the edge identities written so far in the current check.
var usedKeys []bt.EdgeKey

func genRef(t *rapid.T, batches uint64) bt.Ref {
	if rapid.Bool().Draw(t, "nodeRef") {
		return bt.NodeRef(rapid.SampledFrom(uidPool).Draw(t, "uid"))
	}
	return bt.EdgeRef(genKey(t, batches))
}

func genOp(t *rapid.T, batches uint64) bt.Op {
	switch rapid.IntRange(0, 5).Draw(t, "kind") {
	case 0:
		return bt.AssertNode(rapid.SampledFrom(uidPool).Draw(t, "uid"), rapid.SampledFrom([]string{"P", "Q"}).Draw(t, "label"), genProps(t, "props"), genInterval(t, "vt"))
	case 1:
		return bt.AssertEdge(genKey(t, batches), genProps(t, "props"), genInterval(t, "vt"))
	case 2:
		return bt.Retract(genRef(t, batches), genTime(t, "at"))
	case 3:
		return bt.Correct(genRef(t, batches), genProps(t, "props"), genInterval(t, "vt"))
	default:
		n := rapid.IntRange(0, 4).Draw(t, "events")
		evs := make([]bt.Event, n)
		for i := range evs {
			evs[i] = bt.Event{Src: rapid.SampledFrom(uidPool[:3]).Draw(t, "esrc"), Dst: rapid.SampledFrom(uidPool[:3]).Draw(t, "edst"),
				RelType: "M", VtS: genTime(t, "evs"), Props: genProps(t, "eprops")}
			if rapid.IntRange(0, 3).Draw(t, "interval") == 0 {
				evs[i].VtE = evs[i].VtS + rapid.Int64Range(1, 30).Draw(t, "dur")
			}
		}
		return bt.Ingest(evs, "")
	}
}

// render shows a whole edge version for comparison.
func render(e bt.EdgeVersion) string {
	return fmt.Sprintf("%s>%s %s %s [%d,%d) tt[%d,%d) %s", e.Key.Src, e.Key.Dst, e.Key.RelType, e.Key.Disc, e.Valid.Start, e.Valid.End, e.TTs, e.TTe, e.Props)
}

// renderPinned leaves out tt_e: the one field a later batch may change
// (closing a version after the pinned time is not visible to the read, but
// the stored value moves).
func renderPinned(e bt.EdgeVersion) string {
	return fmt.Sprintf("%s>%s %s %s [%d,%d) tt_s %d %s", e.Key.Src, e.Key.Dst, e.Key.RelType, e.Key.Disc, e.Valid.Start, e.Valid.End, e.TTs, e.Props)
}

func TestEngineMatchesModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := newBoth()
		usedKeys = nil
		type pinned struct {
			asOf bt.Time
			iv   bt.Interval
			want []string
		}
		var pins []pinned
		nb := rapid.IntRange(1, 12).Draw(t, "batches")
		for range nb {
			nops := rapid.IntRange(1, 4).Draw(t, "ops")
			ops := make([]bt.Op, nops)
			for i := range ops {
				ops[i] = genOp(t, b.eng.Batches())
			}
			_ = b.write(t, ops)
			for _, op := range ops {
				if op.Kind == bt.OpAssertEdge {
					usedKeys = append(usedKeys, op.Edge)
				}
			}
			if got, want := b.eng.Digest(), b.model.Digest(); got != want {
				t.Fatalf("digest differs after batch %d: engine %s model %s", b.eng.Batches(), got, want)
			}
			// Reads at a random belief time and window agree with a scan.
			// Belief times land on batch boundaries most of the time: that is
			// where off-by-one errors in visibility live.
			asOf := rapid.Int64Range(0, b.tt+5).Draw(t, "asOf")
			if rapid.IntRange(0, 3).Draw(t, "onBatch") > 0 {
				asOf = 10 * rapid.Int64Range(0, b.tt/10).Draw(t, "batchTT")
			}
			iv := genInterval(t, "window")
			r := b.eng.Reader(asOf)
			var got, want []string
			for _, v := range r.EdgesOverlapping(iv) {
				got = append(got, render(r.Edge(v)))
			}
			for _, e := range b.model.Edges {
				if bt.BelievedAt(e.TTs, e.TTe, asOf) && e.Valid.Overlaps(iv) {
					want = append(want, render(e))
				}
			}
			slices.Sort(want)
			sortedGot := slices.Sorted(slices.Values(got))
			if !slices.Equal(sortedGot, want) {
				t.Fatalf("EdgesOverlapping(%v) as of %d:\n got  %v\n want %v", iv, asOf, sortedGot, want)
			}
			var pinnedRows []string
			for _, v := range r.EdgesOverlapping(iv) {
				pinnedRows = append(pinnedRows, renderPinned(r.Edge(v)))
			}
			pins = append(pins, pinned{asOf, iv, pinnedRows})
			// Per-node adjacency and events-in-window agree too.
			for _, uid := range uidPool {
				id, ok := r.Node(uid)
				if !ok {
					continue
				}
				var out, wantOut []string
				for _, v := range r.Out(id) {
					out = append(out, render(r.Edge(v)))
				}
				for _, e := range b.model.Edges {
					if e.Key.Src == uid && bt.BelievedAt(e.TTs, e.TTe, asOf) {
						wantOut = append(wantOut, render(e))
					}
				}
				slices.Sort(out)
				slices.Sort(wantOut)
				if !slices.Equal(out, wantOut) {
					t.Fatalf("Out(%s) as of %d:\n got  %v\n want %v", uid, asOf, out, wantOut)
				}
			}
			var starts, wantStarts []string
			for _, v := range r.EdgesStartingIn(iv) {
				starts = append(starts, render(r.Edge(v)))
			}
			for _, e := range b.model.Edges {
				if bt.BelievedAt(e.TTs, e.TTe, asOf) && iv.Contains(e.Valid.Start) {
					wantStarts = append(wantStarts, render(e))
				}
			}
			// Both lists come in (vt_s, id) order: the index merges its
			// duration classes and their deltas.
			for name, list := range map[string][]uint32{"EdgesOverlapping": r.EdgesOverlapping(iv), "EdgesStartingIn": r.EdgesStartingIn(iv)} {
				for i := 1; i < len(list); i++ {
					a, b := list[i-1], list[i]
					if sa, sb := r.Valid(a).Start, r.Valid(b).Start; sa > sb || sa == sb && a >= b {
						t.Fatalf("%s(%v) as of %d: %d (vt_s %d) before %d (vt_s %d), not in (vt_s, id) order", name, iv, asOf, a, sa, b, sb)
					}
				}
			}
			var visited, visitedOv []string
			r.EachStartingIn(iv, func(v uint32) { visited = append(visited, render(r.Edge(v))) })
			r.EachOverlapping(iv, func(v uint32) { visitedOv = append(visitedOv, render(r.Edge(v))) })
			slices.Sort(visited)
			slices.Sort(visitedOv)
			slices.Sort(starts)
			slices.Sort(wantStarts)
			if !slices.Equal(visited, wantStarts) || !slices.Equal(visitedOv, sortedGot) {
				t.Fatalf("visitors over %v as of %d disagree with the lists", iv, asOf)
			}
			if !slices.Equal(starts, wantStarts) {
				t.Fatalf("EdgesStartingIn(%v) as of %d:\n got  %v\n want %v", iv, asOf, starts, wantStarts)
			}
		}
		// A read pinned at an earlier belief time never changes after later
		// writes (except tt_e, which it must not reveal: compare without it).
		for _, p := range pins {
			if p.asOf > b.tt {
				continue
			}
			r := b.eng.Reader(p.asOf)
			var now []string
			for _, v := range r.EdgesOverlapping(p.iv) {
				now = append(now, renderPinned(r.Edge(v)))
			}
			if !slices.Equal(now, p.want) {
				t.Fatalf("read pinned at %d changed after later writes:\n now %v\n was %v", p.asOf, now, p.want)
			}
		}
		checkDisjoint(t, b.model)
	})
}

// checkDisjoint is invariant I1: at the latest belief, the believed versions
// of one identity never overlap in valid time.
func checkDisjoint(t *rapid.T, m *bt.MemStore) {
	byKey := map[bt.EdgeKey][]bt.Interval{}
	for _, e := range m.Edges {
		if e.TTe == bt.OpenEnd {
			byKey[e.Key] = append(byKey[e.Key], e.Valid)
		}
	}
	byUID := map[string][]bt.Interval{}
	for _, n := range m.Nodes {
		if n.TTe == bt.OpenEnd {
			byUID[n.UID] = append(byUID[n.UID], n.Valid)
		}
	}
	check := func(what string, ivs []bt.Interval) {
		for i := range ivs {
			for j := i + 1; j < len(ivs); j++ {
				if ivs[i].Overlaps(ivs[j]) {
					t.Fatalf("%s has overlapping believed versions %v and %v", what, ivs[i], ivs[j])
				}
			}
		}
	}
	for k, ivs := range byKey {
		check(fmt.Sprint(k), ivs)
	}
	for u, ivs := range byUID {
		check(u, ivs)
	}
}
