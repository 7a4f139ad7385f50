package engine

import (
	"bytes"
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
	ids := x.uidArena.appendMatches(nil, lq, 0)
	rows := x.nameArena.appendMatches(nil, lq, 0)
	return mergeRowUIDs(s, ids, rows)
}
