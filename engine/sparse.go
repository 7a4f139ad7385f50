package engine

import (
	"math/bits"
	"slices"
)

// sparse is an append-only uint32 column for values that most rows do not need
// to store: a row either holds a value or says "the default", which the
// caller derives (an event's end from its start, an empty property bag).
// The values are kept in row order. Each 32-row word packs one bit per
// row, set for the rows with a value, with the number of values stored
// below the word in its high half, so a lookup is one word load, a
// popcount and an index: O(1), like a dense column, at 0.25 bytes per
// default row.
type sparse struct {
	words []uint64 // rank<<32 | bits
	vals  []uint32
	n     int
}

func (c *sparse) Len() int { return c.n }

// Get returns row i's value, or ok == false when the row holds the default.
func (c *sparse) Get(i uint32) (v uint32, ok bool) {
	if len(c.vals) == 0 {
		return v, false
	}
	w := c.words[i>>5]
	b := uint32(1) << (i & 31)
	if uint32(w)&b == 0 {
		return v, false
	}
	return c.vals[uint32(w>>32)+uint32(bits.OnesCount32(uint32(w)&(b-1)))], true
}

// AppendDefault appends a row that holds the default.
func (c *sparse) AppendDefault() {
	if c.n&31 == 0 {
		c.words = append(c.words, uint64(len(c.vals))<<32)
	}
	c.n++
}

// Append appends a row holding v.
func (c *sparse) Append(v uint32) {
	c.AppendDefault()
	c.words[len(c.words)-1] |= 1 << ((c.n - 1) & 31)
	c.vals = append(c.vals, v)
}

// Clip drops the slack capacity growth left.
func (c *sparse) Clip() {
	if cap(c.words) > len(c.words)+len(c.words)/64+8 {
		c.words = slices.Clone(c.words)
	}
	if cap(c.vals) > len(c.vals)+len(c.vals)/64+8 {
		c.vals = slices.Clone(c.vals)
	}
}

// bytes is the memory the column holds.
func (c *sparse) bytes() int64 {
	return int64(cap(c.words))*8 + int64(cap(c.vals))*4 + 2*24
}
