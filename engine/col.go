package engine

const (
	chunkBits = 16
	chunkSize = 1 << chunkBits
	chunkMask = chunkSize - 1
)

// col is an append-only column stored in fixed-size chunks, so growing it
// never copies and never leaves more than one partly used chunk: resident
// memory stays proportional to the number of rows.
type col[T any] struct {
	chunks [][]T
	n      int
}

func (c *col[T]) Len() int { return c.n }

func (c *col[T]) At(i uint32) T { return c.chunks[i>>chunkBits][i&chunkMask] }

func (c *col[T]) Ptr(i uint32) *T { return &c.chunks[i>>chunkBits][i&chunkMask] }

func (c *col[T]) Set(i uint32, v T) { c.chunks[i>>chunkBits][i&chunkMask] = v }

func (c *col[T]) Append(v T) {
	if c.n&chunkMask == 0 {
		c.chunks = append(c.chunks, make([]T, chunkSize))
	}
	c.chunks[c.n>>chunkBits][c.n&chunkMask] = v
	c.n++
}

// Truncate drops rows from n on.
func (c *col[T]) Truncate(n int) {
	c.n = n
	keep := (n + chunkMask) >> chunkBits
	for i := keep; i < len(c.chunks); i++ {
		c.chunks[i] = nil
	}
	c.chunks = c.chunks[:keep]
}

// bytes is the memory the column holds.
func (c *col[T]) cap() int { return len(c.chunks) * chunkSize }
