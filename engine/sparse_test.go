package engine

import (
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"

	"pgregory.net/rapid"
)

// TestSparseMatchesDense checks every row of a sparse column against a
// plain slice after random appends, including around word boundaries and
// after Clip.
func TestSparseMatchesDense(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		type row struct {
			v  uint32
			ok bool
		}
		var c sparse
		var want []row
		density := rapid.IntRange(0, 100).Draw(t, "density")
		n := rapid.IntRange(0, 700).Draw(t, "rows")
		for i := range n {
			if rapid.IntRange(0, 99).Draw(t, "r") < density {
				v := rapid.Uint32().Draw(t, "v")
				c.Append(v)
				want = append(want, row{v, true})
			} else {
				c.AppendDefault()
				want = append(want, row{})
			}
			if i%97 == 0 {
				c.Clip()
			}
		}
		if rapid.Bool().Draw(t, "clip") {
			c.Clip()
		}
		if c.Len() != len(want) {
			t.Fatalf("Len %d, want %d", c.Len(), len(want))
		}
		for i, w := range want {
			if v, ok := c.Get(uint32(i)); v != w.v || ok != w.ok {
				t.Fatalf("row %d: got (%d, %v), want (%d, %v)", i, v, ok, w.v, w.ok)
			}
		}
	})
}

// TestEndColMatchesDense checks every row of an end column against the
// ends appended, with durations on both sides of the one-byte codes,
// open ends, and blocks whose rows are all long.
func TestEndColMatchesDense(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var c endCol
		var starts, ends []int64
		long := rapid.IntRange(0, 100).Draw(t, "long%")
		for range rapid.IntRange(0, 600).Draw(t, "rows") {
			start := rapid.Int64Range(0, 1<<50).Draw(t, "start")
			end := start + rapid.Int64Range(1, 3).Draw(t, "short")
			if rapid.IntRange(0, 99).Draw(t, "r") < long {
				end = rapid.SampledFrom([]int64{start + 127, start + 128, start + 1<<40, bt.OpenEnd}).Draw(t, "end")
			}
			c.Append(start, end)
			starts, ends = append(starts, start), append(ends, end)
		}
		c.Clip()
		for i := range ends {
			if got := c.end(uint32(i), starts[i]); got != ends[i] {
				t.Fatalf("row %d: end %d, want %d", i, got, ends[i])
			}
		}
	})
}
