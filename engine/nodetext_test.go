package engine

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"pgregory.net/rapid"
)

// textRunes mixes ASCII with runes whose lower case changes length or
// differs from a naive byte fold: İ (2 bytes, lowers to i), K (Kelvin
// sign, 3 bytes, lowers to k), ẞ (3 bytes, lowers to ß, 2 bytes), Σ.
var textRunes = []rune("abkAKİiKẞßΣσ_1")

func genText(t *rapid.T, label string) string {
	rs := rapid.SliceOfN(rapid.SampledFrom(textRunes), 1, 7).Draw(t, label)
	return string(rs)
}

// textMatches is the brute force: ids whose lower-cased uid or the
// lower-cased name of any stored version contains lq.
func textMatches(s *Store, lq string) []uint32 {
	var out []uint32
	for id, uid := range s.uids.s {
		hit := strings.Contains(strings.ToLower(uid), lq)
		for _, r := range s.nodeHist[id] {
			if name, ok := bt.Props(s.props.s[s.nodes[r].props]).Map()["name"].(string); ok && strings.Contains(strings.ToLower(name), lq) {
				hit = true
			}
		}
		if hit {
			out = append(out, uint32(id))
		}
	}
	return out
}

// TestNodeTextCandidates checks, after every batch, that the candidates
// of a fragment are ascending, without repeats and include every node
// whose uid or any version's name contains it (exactly those under three
// bytes), and that the uid ranks
// order the uids. Small stores get 16-bucket levels (many collisions),
// and batches stack and merge levels.
func TestNodeTextCandidates(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := newBoth()
		var texts []string
		for i := range rapid.IntRange(1, 8).Draw(t, "batches") {
			var ops []bt.Op
			for j := range rapid.IntRange(1, 4).Draw(t, "nodes") {
				uid := genText(t, "uid")
				props := ""
				switch rapid.IntRange(0, 2).Draw(t, "props") {
				case 1:
					name := genText(t, "name")
					texts = append(texts, name)
					props = `{"name":` + string(canon.AppendString(nil, name)) + `}`
				case 2:
					props = `{"name":42}`
				}
				texts = append(texts, uid)
				iv := bt.Interval{Start: int64(10*i + j), End: bt.OpenEnd}
				ops = append(ops, bt.AssertNode(uid, "N", bt.Props(props), iv))
			}
			if b.write(t, ops) != nil {
				continue
			}
			s := b.eng
			r := s.Reader(bt.OpenEnd)
			for range 4 {
				q := rapid.SampledFrom(texts).Draw(t, "text")
				lo := rapid.IntRange(0, len(q)).Draw(t, "lo")
				hi := rapid.IntRange(lo, len(q)).Draw(t, "hi")
				lq := strings.ToLower(q[lo:hi])
				if rapid.Bool().Draw(t, "whole") {
					lq = strings.ToLower(q)
				}
				got, ok := r.NodeTextCandidates(lq)
				if ok != (lq != "") {
					t.Fatalf("NodeTextCandidates(%q): ok = %v", lq, ok)
				}
				if !ok {
					continue
				}
				// Under three bytes the arena scan finds exactly the
				// matches.
				if want := textMatches(s, lq); len(lq) < 3 && !slices.Equal(got, want) {
					t.Fatalf("candidates of short %q = %v, want exactly %v", lq, got, want)
				}
				if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
					t.Fatalf("candidates of %q not ascending without repeats: %v", lq, got)
				}
				for _, id := range textMatches(s, lq) {
					if _, found := slices.BinarySearch(got, id); !found {
						t.Fatalf("candidates of %q = %v miss node %d (%q)", lq, got, id, s.uids.s[id])
					}
				}
			}
			_, rank := r.UIDOrderRanks()
			ids := make([]uint32, s.NumNodes())
			for id := range ids {
				ids[id] = uint32(id)
			}
			slices.SortFunc(ids, func(a, b uint32) int { return strings.Compare(s.uids.s[a], s.uids.s[b]) })
			for pos, id := range ids {
				if rank[id] != uint32(pos) {
					t.Fatalf("rank[%d] (%q) = %d, want %d", id, s.uids.s[id], rank[id], pos)
				}
			}
		}
	})
}

// BenchmarkNodeTextBuild times building the text index over 100,000
// named nodes (one version each) and reports its size per node version.
func BenchmarkNodeTextBuild(b *testing.B) {
	s := New()
	var ops []bt.Op
	for i := range 100_000 {
		name := string(canon.AppendString(nil, "Person Number "+strconv.Itoa(i*7919%100_000)))
		ops = append(ops, bt.AssertNode("user:"+strconv.Itoa(i), "Person", bt.Props(`{"name":`+name+`}`), bt.Always))
	}
	eff, err := bt.Plan(s, 1, 1, ops)
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Apply(eff); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		s.text.cur = nil
		s.nodeText()
	}
	b.StopTimer()
	b.ReportMetric(float64(s.NodeTextBytes())/float64(s.NumNodeVersions()), "B/nodeversion")
}

// TestNodeTextConcurrentReaders has readers build, extend and query the
// index at once (run with -race): between writes any number of readers
// may share it.
func TestNodeTextConcurrentReaders(t *testing.T) {
	s := New()
	for b := range 3 {
		var ops []bt.Op
		for i := range 50 {
			ops = append(ops, bt.AssertNode("user"+strconv.Itoa(100*b+i), "P", bt.Props(`{"name":"Name`+strconv.Itoa(i)+`"}`), bt.Always))
		}
		eff, err := bt.Plan(s, bt.Time(b+1), uint64(b+1), ops)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Apply(eff); err != nil {
			t.Fatal(err)
		}
		want := textMatches(s, "ame4")
		done := make(chan []uint32)
		for range 4 {
			go func() {
				ids, _ := s.Reader(bt.OpenEnd).NodeTextCandidates("ame4")
				_, _ = s.Reader(bt.OpenEnd).UIDOrderRanks()
				done <- ids
			}()
		}
		for range 4 {
			got := <-done
			for _, id := range want {
				if _, ok := slices.BinarySearch(got, id); !ok {
					t.Fatalf("batch %d: candidates %v miss %d", b, got, id)
				}
			}
		}
	}
}
