package tgms

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"pgregory.net/rapid"
)

// openFixedClock opens a new store whose transaction times are 1, 2, 3...
func openFixedClock(t interface {
	Helper()
	Fatal(...any)
}, dir string) *DB {
	t.Helper()
	db, err := Open(dir, &Options{NoSync: true, Clock: func() bt.Time { return 1 }, Logf: func(string, ...any) {}})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// nodeVersions renders every node version of the store, closed ones
// included, with or without transaction times and ops.
func nodeVersions(db *DB, full bool) []string {
	var out []string
	db.Read(bt.OpenEnd, func(r engine.Reader) error {
		st := r.Store()
		for i := range st.NumNodeVersions() {
			v := st.NodeVersion(i)
			if !full {
				if v.TTe != bt.OpenEnd {
					continue // believed versions only
				}
				out = append(out, fmt.Sprintf("%s %s %s %s", v.UID, v.Label, v.Props, v.Valid))
				continue
			}
			out = append(out, fmt.Sprintf("%s %s %s %s tt%s %s/%s", v.UID, v.Label, v.Props, v.Valid, bt.Interval{Start: v.TTs, End: v.TTe}, v.CreatedBy, v.ClosedBy))
		}
		return nil
	})
	slices.Sort(out)
	return out
}

func uncovered(db *DB) (int, []engine.Uncovered) {
	var n int
	var list []engine.Uncovered
	db.Read(bt.OpenEnd, func(r engine.Reader) error { n, list = r.UncoveredEdges(3); return nil })
	return n, list
}

// One ingest of events in any order gives the store an ingest of the same
// events sorted by time gives: the same node versions (each from its
// node's earliest event, in the batch that holds it) and, the times being
// distinct, the same digest. The input spans three batches.
func TestIngestUnsortedLikeSorted(t *testing.T) {
	n := 2*ChunkEvents + ChunkEvents/2
	rng := rand.New(rand.NewPCG(1, 2))
	sorted := make([]bt.Event, n)
	for i := range sorted {
		sorted[i] = bt.Event{Src: fmt.Sprintf("n%d", rng.IntN(3000)), Dst: fmt.Sprintf("n%d", rng.IntN(3000)), RelType: "M", VtS: bt.Time(1000 + 7*i)}
	}
	shuffled := slices.Clone(sorted)
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	keep := slices.Clone(shuffled)

	a := openFixedClock(t, filepath.Join(t.TempDir(), "sorted"))
	defer a.Close()
	b := openFixedClock(t, filepath.Join(t.TempDir(), "shuffled"))
	defer b.Close()
	if _, err := a.Ingest(sorted, "Node", nil); err != nil {
		t.Fatal(err)
	}
	res, err := b.Ingest(shuffled, "Node", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Batches != 3 {
		t.Fatalf("%d batches, want 3", res.Batches)
	}
	if !slices.Equal(shuffled, keep) {
		t.Fatal("Ingest reordered the caller's slice")
	}
	if got, want := nodeVersions(b, true), nodeVersions(a, true); !slices.Equal(got, want) {
		t.Fatalf("node versions differ from a sorted ingest's (%d and %d versions), e.g. %q vs %q", len(got), len(want), firstDiff(got, want), firstDiff(want, got))
	}
	if got, want := b.Digest(), a.Digest(); got != want {
		t.Fatalf("digest %s, a sorted ingest gives %s", got, want)
	}
	if n, list := uncovered(b); n != 0 {
		t.Fatalf("%d edge endpoints outside their node's validity: %+v", n, list)
	}
}

func firstDiff(a, b []string) string {
	for _, s := range a {
		if _, found := slices.BinarySearch(b, s); !found {
			return s
		}
	}
	return ""
}

// A later ingest with an event from before a node's first version corrects
// that version's start: the old version is closed by a correction, the new
// one keeps its props, a belief pinned before the ingest still sees the
// old start, and the log replays to the same store.
func TestLaterIngestCorrectsNodeStart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s")
	db := openFixedClock(t, dir)
	ev := func(src, dst string, at bt.Time) bt.Event { return bt.Event{Src: src, Dst: dst, RelType: "M", VtS: at} }
	if _, err := db.Ingest([]bt.Event{ev("a", "b", 100), ev("b", "c", 200)}, "Node", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Write(bt.Correct(bt.NodeRef("b"), `{"w":1}`, bt.Interval{Start: 100, End: bt.OpenEnd})); err != nil {
		t.Fatal(err)
	}
	before := db.LastTT()
	if _, err := db.Ingest([]bt.Event{ev("c", "b", 50), ev("d", "a", 70), ev("a", "c", 300)}, "Node", nil); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"a Node  [100, ∞) tt[1, 3) ingest/correct",
		"a Node  [70, ∞) tt[3, ∞) correct/",
		"b Node  [100, ∞) tt[1, 2) ingest/correct",
		`b Node {"w":1} [100, ∞) tt[2, 3) correct/correct`,
		`b Node {"w":1} [50, ∞) tt[3, ∞) correct/`,
		"c Node  [200, ∞) tt[1, 3) ingest/correct",
		"c Node  [50, ∞) tt[3, ∞) correct/",
		"d Node  [70, ∞) tt[3, ∞) ingest/",
	}
	if got := nodeVersions(db, true); !slices.Equal(got, want) {
		t.Fatalf("node versions:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n, list := uncovered(db); n != 0 {
		t.Fatalf("%d edge endpoints outside their node's validity: %+v", n, list)
	}
	db.Read(before, func(r engine.Reader) error {
		id, _ := r.Node("c")
		if h := r.NodeHistory(id); len(h) != 1 || h[0].Valid.Start != 200 {
			t.Fatalf("as of the belief before the ingest, c's history is %+v; want one version from 200", h)
		}
		return nil
	})
	// A batch written with Write gets the same correction.
	if _, err := db.Write(bt.Ingest([]bt.Event{ev("e", "d", 10)}, "Node")); err != nil {
		t.Fatal(err)
	}
	if got := nodeVersions(db, true); !slices.Contains(got, "d Node  [10, ∞) tt[4, ∞) correct/") || !slices.Contains(got, "d Node  [70, ∞) tt[3, 4) ingest/correct") {
		t.Fatalf("after a written ingest with an earlier event of d:\n%s", strings.Join(got, "\n"))
	}
	digest := db.Digest()
	db.Close()
	res, err := Check(dir, true, &Options{Logf: func(string, ...any) {}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Clean() || res.ReplayDigest != digest {
		t.Fatalf("check --full: clean %v, replay digest %s, store digest %s: %v", res.Clean(), res.ReplayDigest, digest, res.Findings)
	}
}

// Check --full warns about an edge outside its endpoints' validity.
func TestCheckReportsUncoveredEdges(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s")
	db := openFixedClock(t, dir)
	if _, err := db.Write(bt.AssertNode("a", "P", "", bt.Interval{Start: 10, End: bt.OpenEnd}), bt.AssertNode("b", "P", "", bt.Always),
		bt.AssertEdge(bt.EdgeKey{Src: "a", Dst: "b", RelType: "R", Disc: "d"}, "", bt.Interval{Start: 5, End: 20})); err != nil {
		t.Fatal(err)
	}
	db.Close()
	res, err := Check(dir, true, &Options{Logf: func(string, ...any) {}})
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, f := range res.Findings {
		if f.Severity == SevData {
			found = append(found, f.Message)
		}
	}
	if !res.Clean() || res.DataFindings() != 1 || len(found) != 1 || !strings.Contains(found[0], `edge a→b R disc "d" (valid [5, 20)) lies outside node a's validity: no believed version of a covers [5 (1970-01-01T00:00:00.000005Z), 10 (1970-01-01T00:00:00.00001Z))`) {
		t.Fatalf("findings: %v", res.Findings)
	}
}

// Property: events ingested in any order, in one ingest or several, give
// the believed node versions a single sorted ingest gives, and no edge
// outside its endpoints' validity.
func TestIngestOrderProperty(t *testing.T) {
	base := t.TempDir()
	k := 0
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 40).Draw(t, "events")
		evs := make([]bt.Event, n)
		for i := range evs {
			evs[i] = bt.Event{Src: fmt.Sprintf("n%d", rapid.IntRange(0, 5).Draw(t, "src")), Dst: fmt.Sprintf("n%d", rapid.IntRange(0, 5).Draw(t, "dst")),
				RelType: "M", VtS: rapid.Int64Range(0, 100).Draw(t, "t")}
			if rapid.IntRange(0, 4).Draw(t, "interval") == 0 {
				evs[i].VtE = evs[i].VtS + rapid.Int64Range(1, 20).Draw(t, "d")
			}
		}
		sorted := slices.Clone(evs)
		slices.SortStableFunc(sorted, func(a, b bt.Event) int { return int(a.VtS - b.VtS) })
		k++
		a := openFixedClock(t, filepath.Join(base, fmt.Sprint("a", k)))
		defer a.Close()
		if _, err := a.Ingest(sorted, "Node", nil); err != nil {
			t.Fatal(err)
		}
		b := openFixedClock(t, filepath.Join(base, fmt.Sprint("b", k)))
		defer b.Close()
		perm := rapid.Permutation(evs).Draw(t, "order")
		for rest := perm; len(rest) > 0; {
			m := rapid.IntRange(1, len(rest)).Draw(t, "part")
			if _, err := b.Ingest(rest[:m], "Node", nil); err != nil {
				t.Fatal(err)
			}
			rest = rest[m:]
		}
		if got, want := nodeVersions(b, false), nodeVersions(a, false); !slices.Equal(got, want) {
			t.Fatalf("believed node versions\n%s\nwant (sorted input)\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if n, list := uncovered(b); n != 0 {
			t.Fatalf("%d edge endpoints outside their node's validity: %+v", n, list)
		}
	})
}
