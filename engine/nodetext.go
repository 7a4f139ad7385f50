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
// caller checks each one exactly. Trigrams are hashed into a table of
// posting lists; a collision only adds candidates.
//
// It also keeps the uids in byte order, so result rows sort by integer
// rank rather than by string comparison.
//
// The index is built on first use and extended, never rebuilt, as
// batches add uids and node versions (rows only grow; closing a version
// changes no text). Each extension publishes a new snapshot: the bucket
// headers are copied and lists only grow past the lengths older snapshots
// see, so a reader may keep using the snapshot it was given.

// minTrigramBits is the smallest posting table (2^bits lists); tests
// lower it to force collisions and rebuilds.
var minTrigramBits uint = 10

// nodeTextCache holds the current snapshot; mu serializes building.
type nodeTextCache struct {
	mu  sync.Mutex
	cur *nodeText
}

type nodeText struct {
	uids, rows int // uids and node rows covered
	bits       uint
	entries    int        // postings in both tables
	uidPost    [][]uint32 // per hashed trigram: node ids, ascending, no repeats
	namePost   [][]uint32 // per hashed trigram: node rows, ascending, no repeats
	order      []uint32   // node ids by uid, byte order
	rank       []uint32   // rank[id]: position of id in order
}

// nodeText returns the index extended to the store's current uids and node
// rows.
func (s *Store) nodeText() *nodeText {
	c := &s.text
	c.mu.Lock()
	defer c.mu.Unlock()
	x := c.cur
	if x != nil && x.uids == len(s.uids.s) && x.rows == len(s.nodes) {
		return x
	}
	if x == nil || x.entries > 4<<x.bits {
		x = s.buildNodeText()
	} else {
		x = s.extendNodeText(x)
	}
	c.cur = x
	return x
}

// buildNodeText indexes everything, sizing the table to about two postings
// per list.
func (s *Store) buildNodeText() *nodeText {
	n := 0
	for _, u := range s.uids.s {
		n += max(0, len(u)-2)
	}
	n += 4 * len(s.nodes)
	bits := minTrigramBits
	for 2<<bits < n && bits < 24 {
		bits++
	}
	x := &nodeText{bits: bits, uidPost: make([][]uint32, 1<<bits), namePost: make([][]uint32, 1<<bits)}
	s.addNodeText(x)
	return x
}

// extendNodeText returns a copy of x that also covers the uids and node
// rows added since x was built.
func (s *Store) extendNodeText(old *nodeText) *nodeText {
	x := *old
	x.uidPost = slices.Clone(old.uidPost)
	x.namePost = slices.Clone(old.namePost)
	s.addNodeText(&x)
	return &x
}

// addNodeText adds the uids and rows beyond x's coverage.
func (s *Store) addNodeText(x *nodeText) {
	for id := x.uids; id < len(s.uids.s); id++ {
		x.entries += x.post(x.uidPost, strings.ToLower(s.uids.s[id]), uint32(id))
	}
	for r := x.rows; r < len(s.nodes); r++ {
		if name, ok := nodeName(bt.Props(s.props.s[s.nodes[r].props])); ok {
			x.entries += x.post(x.namePost, strings.ToLower(name), uint32(r))
		}
	}
	if x.uids < len(s.uids.s) {
		x.order, x.rank = s.mergeUIDOrder(x.order, x.uids)
	}
	x.uids, x.rows = len(s.uids.s), len(s.nodes)
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

// post appends ref to the list of every trigram of text, once per list,
// and returns the number of postings added. refs arrive in ascending
// order, so a repeat is always the list's last entry.
func (x *nodeText) post(table [][]uint32, text string, ref uint32) int {
	added := 0
	for i := 0; i+3 <= len(text); i++ {
		b := trigramBucket(text[i:], x.bits)
		l := table[b]
		if len(l) > 0 && l[len(l)-1] == ref {
			continue
		}
		table[b] = append(l, ref)
		added++
	}
	return added
}

// trigramBucket hashes the first three bytes of s into a table of 2^bits
// lists.
func trigramBucket(s string, bits uint) uint32 {
	k := uint32(s[0])<<16 | uint32(s[1])<<8 | uint32(s[2])
	return (k * 0x9E3779B1) >> (32 - bits)
}

// candidates returns, ascending, the node ids whose lower-cased uid or
// some version's lower-cased name may contain lq (at least three bytes).
func (x *nodeText) candidates(s *Store, lq string) []uint32 {
	var buckets []uint32
	for i := 0; i+3 <= len(lq); i++ {
		buckets = append(buckets, trigramBucket(lq[i:], x.bits))
	}
	slices.Sort(buckets)
	buckets = slices.Compact(buckets)
	ids := intersectPostings(x.uidPost, buckets)
	rows := intersectPostings(x.namePost, buckets)
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

// intersectPostings returns the refs present in every listed bucket, in a
// new ascending slice.
func intersectPostings(table [][]uint32, buckets []uint32) []uint32 {
	lists := make([][]uint32, len(buckets))
	for i, b := range buckets {
		lists[i] = table[b]
	}
	slices.SortFunc(lists, func(a, b []uint32) int { return len(a) - len(b) })
	out := slices.Clone(lists[0])
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
	return out
}

// NodeTextCandidates returns, ascending, dense node ids that may have
// strings.ToLower(uid) or strings.ToLower(props.name) of some node version
// contain lq, which must be lower-cased: a superset of the matches at the
// reader's belief time (it may include uids the reader does not know), to
// be checked exactly. ok is false when lq is shorter than three bytes and
// the index cannot narrow the search.
func (r Reader) NodeTextCandidates(lq string) (ids []uint32, ok bool) {
	if len(lq) < 3 {
		return nil, false
	}
	return r.s.nodeText().candidates(r.s, lq), true
}

// UIDRanks returns rank, where rank[id] orders the store's uids by byte
// (code point) order: for ids a, b known to the reader, rank[a] < rank[b]
// exactly when UID(a) < UID(b). The slice is shared: do not modify it.
func (r Reader) UIDRanks() []uint32 { return r.s.nodeText().rank }

// NodeTextBytes is the memory the node text index holds (posting lists
// and uid order), building it if needed.
func (s *Store) NodeTextBytes() int {
	x := s.nodeText()
	b := 24 * (len(x.uidPost) + len(x.namePost))
	for i := range x.uidPost {
		b += 4 * (cap(x.uidPost[i]) + cap(x.namePost[i]))
	}
	return b + 4*(cap(x.order)+cap(x.rank))
}
