package engine

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestTextArenaMatches checks appendMatches against strings.Contains on
// every text of random arenas: texts of a small alphabet (so that
// fragments match often, in runs and at text edges), empty texts, long
// ones crossing many words, fragments of one to four bytes, and bases.
func TestTextArenaMatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 26))
	const alphabet = "ab1n\x80\xff"
	found := 0
	for c := range 3000 {
		var a textArena
		var texts []string
		for range rng.IntN(40) {
			n := rng.IntN(6)
			if rng.IntN(10) == 0 {
				n = 8 + rng.IntN(40)
			}
			var b strings.Builder
			for range n {
				b.WriteByte(alphabet[rng.IntN(len(alphabet))])
			}
			texts = append(texts, b.String())
			a.add(b.String())
		}
		var q strings.Builder
		for range 1 + rng.IntN(4) {
			q.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		base := uint32(rng.IntN(3))
		prefix := []uint32{7}
		got := a.appendMatches(slices.Clone(prefix), q.String(), base)
		want := prefix
		for i, s := range texts {
			if strings.Contains(s, q.String()) {
				want = append(want, base+uint32(i))
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("case %d: texts %q, fragment %q: got %v, want %v", c, texts, q.String(), got, want)
		}
		found += len(want) - 1
	}
	if found < 5000 {
		t.Fatalf("only %d matches checked", found)
	}
}

func TestZeroBytes(t *testing.T) {
	for _, x := range []uint64{0, 1, 0xff, 0x0100, 0x8000000000000000, 0x0080ff00017f0000, ^uint64(0)} {
		var want uint64
		for k := range 8 {
			if byte(x>>(8*k)) == 0 {
				want |= 0x80 << (8 * k)
			}
		}
		if got := zeroBytes(x); got != want {
			t.Errorf("zeroBytes(%#x) = %#x, want %#x", x, got, want)
		}
	}
}
