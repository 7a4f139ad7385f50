package engine

import (
	"slices"
	"strings"
	"sync"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// The node text index answers "which nodes may contain this lower-cased
// fragment" for substring entity resolution without reading every node.
// It indexes the byte trigrams of strings.ToLower(uid) for every uid and
// of strings.ToLower(props.name) for every stored node version whose name
// is a JSON string, believed or not: a fragment of three or more bytes
// can only occur in a text holding all its trigrams, so the candidates it
// returns are a superset of the matches at any belief time, and the
// caller checks each one exactly. Trigrams are hashed into buckets of
// posting lists; a collision only adds candidates.
//
// It also keeps the uids in byte order, so result rows sort by integer
// rank rather than by string comparison.
//
// The index is built on first use and extended as batches add uids and
// node versions (rows only grow; closing a version changes no text). It
// is a stack of immutable levels, each covering the next contiguous range
// of uids and rows in compact offset/posting arrays; a new level is
// merged with the one below while it is at least half that one's size,
// so every item is rebuilt O(log n) times. Each extension publishes a new
// snapshot sharing the old levels, so a reader may keep the snapshot it
// was given.

// nodeTextCache holds the current snapshot; mu serializes building.
type nodeTextCache struct {
	mu  sync.Mutex
	cur *nodeText
}

type nodeText struct {
	uids, rows int // uids and node rows covered
	levels     []*textLevel
	order      []uint32 // node ids by uid, byte order
	rank       []uint32 // rank[id]: position of id in order

	uidArena, nameArena textArena // for fragments under three bytes (see textarena.go)
}

// textLevel indexes uids [uidLo, uidHi) and node rows [rowLo, rowHi).
type textLevel struct {
	uidLo, uidHi, rowLo, rowHi int
	uids, names                postings
}

// postings are 2^bits lists of refs (node ids or rows), ascending without
// repeats: list b is ref[off[b]:off[b+1]].
type postings struct {
	bits     uint
	off, ref []uint32
}

func (p *postings) list(b uint32) []uint32 { return p.ref[p.off[b]:p.off[b+1]] }

// nodeText returns the index extended to the store's current uids and node
// rows.
func (s *Store) nodeText() *nodeText {
	c := &s.text
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.cur
	if old == nil {
		old = &nodeText{}
	}
	if c.cur != nil && old.uids == len(s.uids.s) && old.rows == len(s.nodes) {
		return old
	}
	x := &nodeText{uids: len(s.uids.s), rows: len(s.nodes), order: old.order, rank: old.rank}
	x.levels = append(slices.Clip(old.levels), s.buildTextLevel(old.uids, x.uids, old.rows, x.rows))
	for n := len(x.levels); n >= 2 && 2*x.levels[n-1].size() >= x.levels[n-2].size(); n = len(x.levels) {
		lo, hi := x.levels[n-2], x.levels[n-1]
		x.levels = append(x.levels[:n-2], s.buildTextLevel(lo.uidLo, hi.uidHi, lo.rowLo, hi.rowHi))
	}
	if old.uids < x.uids {
		x.order, x.rank = s.mergeUIDOrder(old.order, old.uids)
	}
	s.extendArenas(old, x)
	c.cur = x
	return x
}

func (l *textLevel) size() int { return l.uidHi - l.uidLo + l.rowHi - l.rowLo }

// buildTextLevel indexes uids [u0, u1) and node rows [r0, r1).
func (s *Store) buildTextLevel(u0, u1, r0, r1 int) *textLevel {
	uidText := make([]string, 0, u1-u0)
	for id := u0; id < u1; id++ {
		uidText = append(uidText, strings.ToLower(s.uids.s[id]))
	}
	nameText := make([]string, 0, r1-r0)
	for r := r0; r < r1; r++ {
		name, _ := nodeName(bt.Props(s.props.s[s.nodes[r].props]))
		nameText = append(nameText, strings.ToLower(name))
	}
	return &textLevel{uidLo: u0, uidHi: u1, rowLo: r0, rowHi: r1,
		uids: buildPostings(uidText, uint32(u0)), names: buildPostings(nameText, uint32(r0))}
}

// buildPostings indexes texts[i] under ref base+i, with about four
// trigram occurrences per bucket (so offsets cost about a byte a posting).
func buildPostings(texts []string, base uint32) postings {
	n := 0
	for _, t := range texts {
		n += max(0, len(t)-2)
	}
	bits := uint(4)
	for 4<<bits < n && bits < 24 {
		bits++
	}
	nb := 1 << bits
	last := make([]uint32, nb)
	for i := range last {
		last[i] = NoVersion
	}
	off := make([]uint32, nb+1)
	each := func(fn func(b, ref uint32)) {
		for i, t := range texts {
			ref := base + uint32(i)
			for j := 0; j+3 <= len(t); j++ {
				if b := trigramBucket(t[j:], bits); last[b] != ref {
					last[b] = ref
					fn(b, ref)
				}
			}
		}
	}
	each(func(b, _ uint32) { off[b+1]++ })
	for b := range nb {
		off[b+1] += off[b]
	}
	ref := make([]uint32, off[nb])
	pos := slices.Clone(off[:nb])
	for i := range last {
		last[i] = NoVersion
	}
	each(func(b, r uint32) { ref[pos[b]] = r; pos[b]++ })
	return postings{bits, off, ref}
}

// mergeUIDOrder merges the uids from id `from` on into order (the ids
// below from, by uid), returning a new order and rank.
func (s *Store) mergeUIDOrder(order []uint32, from int) ([]uint32, []uint32) {
	byUID := func(a, b uint32) int { return strings.Compare(s.uids.s[a], s.uids.s[b]) }
	add := make([]uint32, 0, len(s.uids.s)-from)
	for id := from; id < len(s.uids.s); id++ {
		add = append(add, uint32(id))
	}
	slices.SortFunc(add, byUID)
	merged := make([]uint32, 0, len(s.uids.s))
	i, j := 0, 0
	for i < len(order) && j < len(add) {
		if byUID(order[i], add[j]) < 0 {
			merged = append(merged, order[i])
			i++
		} else {
			merged = append(merged, add[j])
			j++
		}
	}
	merged = append(append(merged, order[i:]...), add[j:]...)
	rank := make([]uint32, len(merged))
	for r, id := range merged {
		rank[id] = uint32(r)
	}
	return merged, rank
}

// nodeName is props.name when it is a non-empty JSON string.
func nodeName(p bt.Props) (string, bool) {
	if p == "" || !strings.Contains(string(p), `"name"`) {
		return "", false
	}
	name, ok := p.Map()["name"].(string)
	return name, ok && name != ""
}

// trigramBucket hashes the first three bytes of s into 2^bits buckets.
func trigramBucket(s string, bits uint) uint32 {
	k := uint32(s[0])<<16 | uint32(s[1])<<8 | uint32(s[2])
	return (k * 0x9E3779B1) >> (32 - bits)
}

// candidates returns, ascending, the node ids whose lower-cased uid or
// some version's lower-cased name may contain lq (at least three bytes).
func (x *nodeText) candidates(s *Store, lq string) []uint32 {
	var ids, rows []uint32
	for _, l := range x.levels {
		ids = l.uids.appendMatches(ids, lq)
		rows = l.names.appendMatches(rows, lq)
	}
	return mergeRowUIDs(s, ids, rows)
}

// mergeRowUIDs merges ascending node ids with the uids of node rows,
// ascending and without repeats.
func mergeRowUIDs(s *Store, ids, rows []uint32) []uint32 {
	if len(rows) == 0 {
		return ids
	}
	for i, r := range rows {
		rows[i] = s.nodes[r].uid
	}
	ids = append(ids, rows...)
	slices.Sort(ids)
	return slices.Compact(ids)
}

// appendMatches appends, ascending, the refs present in the bucket of
// every trigram of lq.
func (p *postings) appendMatches(dst []uint32, lq string) []uint32 {
	var lists [][]uint32
	for i := 0; i+3 <= len(lq); i++ {
		lists = append(lists, p.list(trigramBucket(lq[i:], p.bits)))
	}
	slices.SortFunc(lists, func(a, b []uint32) int { return len(a) - len(b) })
	start := len(dst)
	dst = append(dst, lists[0]...)
	out := dst[start:]
	for _, l := range lists[1:] {
		if len(out) == 0 {
			break
		}
		keep, j := out[:0], 0
		for _, ref := range out {
			for j < len(l) && l[j] < ref {
				j++
			}
			if j < len(l) && l[j] == ref {
				keep = append(keep, ref)
			}
		}
		out = keep
	}
	return dst[:start+len(out)]
}

// NodeTextCandidates returns, ascending, dense node ids that may have
// strings.ToLower(uid) or strings.ToLower(props.name) of some node version
// contain lq, which must be lower-cased: a superset of the matches at the
// reader's belief time (it may include uids the reader does not know), to
// be checked exactly. A fragment of three bytes or more is narrowed by
// its trigrams, a shorter one found by a scan of the lower-cased texts.
// ok is false when a shorter one is empty or holds a zero byte and the
// index cannot narrow the search.
func (r Reader) NodeTextCandidates(lq string) (ids []uint32, ok bool) {
	switch {
	case len(lq) >= 3:
		return r.s.nodeText().candidates(r.s, lq), true
	case lq == "" || strings.IndexByte(lq, 0) >= 0:
		return nil, false
	}
	return r.s.nodeText().shortCandidates(r.s, lq), true
}

// UIDOrderRanks returns the store's node ids in uid byte (code point)
// order, and its inverse rank: for ids a, b known to the reader, rank[a] <
// rank[b] exactly when UID(a) < UID(b). order may include ids the reader
// does not know. Both come from one state of the index, so they stay
// inverse to each other while writes add uids; the slices are shared: do
// not modify them.
func (r Reader) UIDOrderRanks() (order, rank []uint32) {
	x := r.s.nodeText()
	return x.order, x.rank
}

// NodeTextBytes is the memory the node text index holds (posting lists
// and uid order), building it if needed.
func (s *Store) NodeTextBytes() int {
	x := s.nodeText()
	b := 4 * (cap(x.order) + cap(x.rank))
	for _, l := range x.levels {
		b += 4 * (len(l.uids.off) + len(l.uids.ref) + len(l.names.off) + len(l.names.ref))
	}
	return b + x.uidArena.bytes() + x.nameArena.bytes()
}
