package engine

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"sort"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// A fragment shorter than a trigram cannot be narrowed by the posting
// lists, so the node text index also keeps every lower-cased uid and
// every node row's lower-cased name back to back in one byte arena each,
// each text followed by a zero byte: a short fragment is then found by
// bytes.Index over the arena (a vectorized scan of a few bytes a node)
// instead of a read of every node's versions.

// textArena holds texts 0..len(end)-1: text i is text[start(i):end[i]-1],
// followed by a zero byte.
type textArena struct {
	text []byte
	end  []uint32
}

// add appends text t. It appends in place: a reader of an older arena
// reads only within its own lengths.
func (a *textArena) add(t string) {
	a.text = append(append(a.text, t...), 0)
	a.end = append(a.end, uint32(len(a.text)))
}

// appendMatches appends, ascending, base plus the index of every text
// containing lq (not empty, no zero byte).
func (a *textArena) appendMatches(dst []uint32, lq string, base uint32) []uint32 {
	if len(lq) <= 2 {
		return a.appendShort(dst, lq, base)
	}
	q := []byte(lq)
	pos, i := 0, 0
	for {
		j := bytes.Index(a.text[pos:], q)
		if j < 0 {
			return dst
		}
		i = a.textAt(i, uint32(pos+j))
		dst = append(dst, base+uint32(i))
		pos = int(a.end[i])
		i++
	}
}

// appendShort is appendMatches for a fragment of one or two bytes: eight
// positions at a time are tested against its bytes (a zero-byte test on
// the words XORed with them), and a match skips to the next text. No
// match spans two texts: the zero byte between them is in no fragment.
func (a *textArena) appendShort(dst []uint32, q string, base uint32) []uint32 {
	t := a.text
	b0, b1 := bcast(q[0]), uint64(0)
	if len(q) == 2 {
		b1 = bcast(q[1])
	}
	p, i := 0, 0
	for p+9 <= len(t) {
		m := zeroBytes(binary.LittleEndian.Uint64(t[p:]) ^ b0)
		if len(q) == 2 {
			m &= zeroBytes(binary.LittleEndian.Uint64(t[p+1:]) ^ b1)
		}
		next := p + 8
		for m != 0 {
			i = a.textAt(i, uint32(p+bits.TrailingZeros64(m)/8))
			dst = append(dst, base+uint32(i))
			end := int(a.end[i])
			i++
			if end >= p+8 {
				next = end
				break
			}
			m &^= 1<<(8*(end-p)) - 1
		}
		p = next
	}
	for p+len(q) <= len(t) {
		if t[p] != q[0] || len(q) == 2 && t[p+1] != q[1] {
			p++
			continue
		}
		i = a.textAt(i, uint32(p))
		dst = append(dst, base+uint32(i))
		p = int(a.end[i])
		i++
	}
	return dst
}

// bcast is c in every byte of a word.
func bcast(c byte) uint64 { return uint64(c) * 0x0101010101010101 }

// zeroBytes has the high bit of each zero byte of x set, and no other bit.
func zeroBytes(x uint64) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	return ^((x&low7 + low7) | x | low7)
}

// textAt is the index of the text holding byte at, searched from text i
// on: a few steps forward, where matches are dense, then by bisection.
func (a *textArena) textAt(i int, at uint32) int {
	for range 4 {
		if i >= len(a.end) || a.end[i] > at {
			return i
		}
		i++
	}
	return i + sort.Search(len(a.end)-i, func(k int) bool { return a.end[i+k] > at })
}

func (a *textArena) bytes() int { return cap(a.text) + 4*cap(a.end) }

// extendArenas gives x old's arenas with the uids from id old.uids on
// and the node rows from old.rows on added.
func (s *Store) extendArenas(old *nodeText, x *nodeText) {
	x.uidArena, x.nameArena = old.uidArena, old.nameArena
	for id := old.uids; id < x.uids; id++ {
		x.uidArena.add(strings.ToLower(s.uids.s[id]))
	}
	for r := old.rows; r < x.rows; r++ {
		name, _ := nodeName(bt.Props(s.props.s[s.nodes[r].props]))
		x.nameArena.add(strings.ToLower(name))
	}
}

// shortCandidates returns, ascending, the node ids whose lower-cased uid
// or some stored version's lower-cased name contains lq (one or two
// bytes, no zero byte), at any belief time (an erased version's old name
// included: the caller checks each one).
func (x *nodeText) shortCandidates(s *Store, lq string) []uint32 {
	// Room for many matches up front: a fragment this short is often in
	// a large share of the texts.
	ids := x.uidArena.appendMatches(make([]uint32, 0, min(len(x.uidArena.end), 1<<16)), lq, 0)
	rows := x.nameArena.appendMatches(nil, lq, 0)
	return mergeRowUIDs(s, ids, rows)
}
