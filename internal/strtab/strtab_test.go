package strtab

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

// TestIndexModel runs random Adds, Finds, Resets and rebuilds against a
// Go map holding the same strings.
func TestIndexModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var x Index
		var strs []string
		model := map[string]uint32{}
		word := rapid.StringMatching(`[a-c]{0,3}|u[0-9]{1,4}`)
		for range rapid.IntRange(1, 400).Draw(t, "steps") {
			s := word.Draw(t, "s")
			switch rapid.IntRange(0, 9).Draw(t, "op") {
			case 0:
				x.Reset()
				strs = strs[:0]
				clear(model)
			case 1:
				x = Of(strs)
			case 2, 3, 4:
				id, ok := x.Find(strs, s)
				want, wok := model[s]
				if ok != wok || (ok && id != want) {
					t.Fatalf("Find(%q) = %d, %v; want %d, %v", s, id, ok, want, wok)
				}
				if id2, ok2 := x.FindBytes(strs, []byte(s)); id2 != id || ok2 != ok {
					t.Fatalf("FindBytes(%q) = %d, %v; Find says %d, %v", s, id2, ok2, id, ok)
				}
			default:
				id, added := x.Add(strs, s)
				want, had := model[s]
				if added == had || (had && id != want) || (added && int(id) != len(strs)) {
					t.Fatalf("Add(%q) = %d, %v; model has %d, %v (len %d)", s, id, added, want, had, len(strs))
				}
				if added {
					strs = append(strs, s)
					model[s] = id
				}
			}
			if x.Len() != len(model) {
				t.Fatalf("Len = %d, model has %d", x.Len(), len(model))
			}
		}
	})
}

// TestOfLastWins: a list with repeats is indexed at each string's last
// position, as a map filled in order would be.
func TestOfLastWins(t *testing.T) {
	strs := []string{"a", "b", "a", "", "c", ""}
	x := Of(strs)
	for s, want := range map[string]uint32{"a": 2, "b": 1, "": 5, "c": 4} {
		if id, ok := x.Find(strs, s); !ok || id != want {
			t.Errorf("Find(%q) = %d, %v; want %d", s, id, ok, want)
		}
	}
	if x.Len() != 4 {
		t.Errorf("Len = %d, want 4", x.Len())
	}
}

func TestGrowKeepsAll(t *testing.T) {
	var x Index
	var strs []string
	for i := range 100_000 {
		s := fmt.Sprint("k", i)
		if _, added := x.Add(strs, s); !added {
			t.Fatalf("%q reported as present", s)
		}
		strs = append(strs, s)
	}
	for i, s := range strs {
		if id, ok := x.Find(strs, s); !ok || id != uint32(i) {
			t.Fatalf("Find(%q) = %d, %v", s, id, ok)
		}
	}
	if _, ok := x.Find(strs, "k100000"); ok {
		t.Fatal("found a string never added")
	}
}
