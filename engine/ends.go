package engine

import "slices"

// endBlock is the number of rows whose long ends one block offset covers.
const endBlock = 128

// endCol holds the vt_e of every edge version in about one byte each. A
// version's code is its duration itself when that is below 128 (events
// [t, t+1) and other short versions), or 128 + j for the j-th long end
// (a long duration or an open end) stored for its block of 128 rows, whose
// first long end is long[block[v/128]]. A read is a byte load and, for a
// long end, two more indexes: no search, no call.
type endCol struct {
	code  col[uint8]
	block []uint32
	long  []int64
}

// end is vt_e of row v, whose vt_s is start.
func (c *endCol) end(v uint32, start int64) int64 {
	x := c.code.chunks[v>>chunkBits][v&chunkMask]
	if x < endBlock {
		return start + int64(x)
	}
	return c.long[c.block[v/endBlock]+uint32(x-endBlock)]
}

// Append appends the end of a row valid over [start, end).
func (c *endCol) Append(start, end int64) {
	if c.code.Len()%endBlock == 0 {
		c.block = append(c.block, uint32(len(c.long)))
	}
	if d := end - start; d > 0 && d < endBlock {
		c.code.Append(uint8(d))
		return
	}
	c.code.Append(endBlock + uint8(len(c.long)-int(c.block[len(c.block)-1])))
	c.long = append(c.long, end)
}

// Clip drops the slack capacity growth left.
func (c *endCol) Clip() {
	if cap(c.block) > len(c.block)+len(c.block)/64+8 {
		c.block = slices.Clone(c.block)
	}
	if cap(c.long) > len(c.long)+len(c.long)/64+8 {
		c.long = slices.Clone(c.long)
	}
}

// bytes is the memory the column holds.
func (c *endCol) bytes() int64 {
	return int64(c.code.cap()) + int64(cap(c.block))*4 + int64(cap(c.long))*8 + 3*24
}
