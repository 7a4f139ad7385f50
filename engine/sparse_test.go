package engine

import (
	"testing"

	"pgregory.net/rapid"
)

// TestSparseMatchesDense checks every row of a sparse column against a
// plain slice after random appends, including around word boundaries and
// after Clip.
func TestSparseMatchesDense(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		type row struct {
			v  int64
			ok bool
		}
		var c sparse[int64]
		var want []row
		density := rapid.IntRange(0, 100).Draw(t, "density")
		n := rapid.IntRange(0, 700).Draw(t, "rows")
		for i := range n {
			if rapid.IntRange(0, 99).Draw(t, "r") < density {
				v := rapid.Int64().Draw(t, "v")
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
