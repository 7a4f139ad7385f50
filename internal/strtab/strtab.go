// Package strtab indexes a list of distinct strings by value: the string
// table of the write path (node uids, rel types and property bags in the
// engine, the dictionary of a log record, the cells a table reader
// shares).
//
// An Index does not hold the strings: its caller keeps them in a slice,
// numbered by position, and passes the slice to every call. The index
// stores for each string only its position and 32 bits of its hash, so
// growing it never reads or hashes a string again, and adding a string
// costs one hash (a Go map costs one for the lookup, one for the insert
// and one more for every string each time the map grows).
package strtab

import (
	"hash/maphash"
	"unsafe"
)

var seed = maphash.MakeSeed()

// Index maps strings to their positions in the caller's slice. The zero
// value is an empty index. It is not safe for concurrent use with
// writes; concurrent Finds are safe.
type Index struct {
	slots []uint64 // hash<<32 | position+1; 0 is an empty slot
	n     int
}

func hash32(s string) uint32 { return uint32(maphash.String(seed, s) >> 32) }

// Len is the number of strings indexed.
func (x *Index) Len() int { return x.n }

// Bytes is the index's memory.
func (x *Index) Bytes() int64 { return int64(cap(x.slots)) * 8 }

// Find returns the position of s in strs, if the index holds it.
func (x *Index) Find(strs []string, s string) (uint32, bool) {
	if x.n == 0 {
		return 0, false
	}
	h := hash32(s)
	mask := uint32(len(x.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := x.slots[i]
		if e == 0 {
			return 0, false
		}
		if uint32(e>>32) == h {
			if id := uint32(e) - 1; strs[id] == s {
				return id, true
			}
		}
	}
}

// FindBytes is Find for the bytes of a string, without copying them.
func (x *Index) FindBytes(strs []string, b []byte) (uint32, bool) {
	if len(b) == 0 {
		return x.Find(strs, "")
	}
	return x.Find(strs, unsafe.String(&b[0], len(b)))
}

// Add returns the position of s in strs, or, when the index does not
// hold s, records it at position len(strs) and reports added: the caller
// must then append s to strs.
func (x *Index) Add(strs []string, s string) (id uint32, added bool) {
	if 8*(x.n+1) > 5*len(x.slots) {
		x.grow()
	}
	h := hash32(s)
	mask := uint32(len(x.slots) - 1)
	i := h & mask
	for ; ; i = (i + 1) & mask {
		e := x.slots[i]
		if e == 0 {
			break
		}
		if uint32(e>>32) == h {
			if id := uint32(e) - 1; strs[id] == s {
				return id, false
			}
		}
	}
	id = uint32(len(strs))
	x.slots[i] = uint64(h)<<32 | uint64(id+1)
	x.n++
	return id, true
}

// Of indexes every string of strs; where one repeats, the index names
// its last position.
func Of(strs []string) Index {
	var x Index
	x.Reserve(len(strs))
	for i, s := range strs {
		h := hash32(s)
		mask := uint32(len(x.slots) - 1)
		j := h & mask
		for ; ; j = (j + 1) & mask {
			e := x.slots[j]
			if e == 0 || (uint32(e>>32) == h && strs[uint32(e)-1] == s) {
				break
			}
		}
		if x.slots[j] == 0 {
			x.n++
		}
		x.slots[j] = uint64(h)<<32 | uint64(i+1)
	}
	return x
}

// Reserve makes room for n strings in all without growing again.
func (x *Index) Reserve(n int) {
	for 8*n > 5*len(x.slots) {
		x.grow()
	}
}

// Reset empties the index, keeping its memory.
func (x *Index) Reset() {
	if x.n > 0 {
		clear(x.slots)
		x.n = 0
	}
}

func (x *Index) grow() {
	size := max(16, 2*len(x.slots))
	slots := make([]uint64, size)
	mask := uint32(size - 1)
	for _, e := range x.slots {
		if e == 0 {
			continue
		}
		i := uint32(e>>32) & mask
		for slots[i] != 0 {
			i = (i + 1) & mask
		}
		slots[i] = e
	}
	x.slots = slots
}
