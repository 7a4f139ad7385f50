package engine

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"unsafe"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// vidLen is the length of a version id: 12 bytes of SHA-256, in hex.
const vidLen = 24

// nodeVIDCache holds the version ids of node rows, computed once per row
// instead of hashed on every read. It is derived data, not part of the
// checkpoint: the ids of the rows present when a store opens are computed
// on the first read that needs one, and rows written later are added on
// the first read after them. A row's id never changes (uid, tt_s and vt_s
// are fixed when the row is written), so a published text is immutable.
type nodeVIDCache struct {
	mu  sync.Mutex
	cur atomic.Pointer[nodeVIDs]
}

// nodeVIDs is the hex ids of node rows [0, rows), vidLen bytes each.
type nodeVIDs struct {
	rows int
	hex  []byte
}

// at is the id of row r (r < rows), sharing the cache's memory.
func (v *nodeVIDs) at(r uint32) string {
	return unsafe.String(&v.hex[int(r)*vidLen], vidLen)
}

// nodeVIDs returns the cache extended to cover node row need.
func (s *Store) nodeVIDs(need uint32) *nodeVIDs {
	c := &s.vids
	if x := c.cur.Load(); x != nil && int(need) < x.rows {
		return x
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.cur.Load()
	if old == nil {
		old = &nodeVIDs{}
	}
	if int(need) < old.rows {
		return old
	}
	n := len(s.nodes)
	// The old text is shared by readers: extend a copy when it is full.
	hexb := old.hex
	if cap(hexb) < n*vidLen {
		hexb = make([]byte, old.rows*vidLen, n*vidLen+n*vidLen/4)
		copy(hexb, old.hex)
	}
	var key []byte
	for r := old.rows; r < n; r++ {
		row := &s.nodes[r]
		key = appendVIDKey(key[:0], s.uids.s[row.uid], s.seqTT(row.tts), row.valid.Start)
		sum := sha256.Sum256(key)
		hexb = hexb[:len(hexb)+vidLen]
		hex.Encode(hexb[r*vidLen:], sum[:vidLen/2])
	}
	x := &nodeVIDs{rows: n, hex: hexb}
	c.cur.Store(x)
	return x
}

// appendVIDKey appends the text VID hashes: identity:tt_s:vt_s.
func appendVIDKey(b []byte, identity string, tts, vts bt.Time) []byte {
	b = append(b, identity...)
	b = append(b, ':')
	b = strconv.AppendInt(b, tts, 10)
	b = append(b, ':')
	return strconv.AppendInt(b, vts, 10)
}

// NodeHistoryVIDs is NodeHistory with each version's id (VID of its uid,
// tt_s and vt_s) beside it, read from a cache rather than hashed.
func (r Reader) NodeHistoryVIDs(id uint32) ([]bt.NodeVersion, []string) {
	var out []bt.NodeVersion
	var vids []string
	r.EachNodeHistoryVID(id, func(n int, v *bt.NodeVersion, vid string) {
		if out == nil {
			out, vids = make([]bt.NodeVersion, 0, n), make([]string, 0, n)
		}
		out, vids = append(out, *v), append(vids, vid)
	})
	return out, vids
}

// EachNodeHistoryVID calls fn with each of NodeHistoryVIDs' versions and
// ids in turn, and their count n, without building the lists: v is
// reused between calls. Histories of up to 64 versions are ordered on the
// stack.
func (r Reader) EachNodeHistoryVID(id uint32, fn func(n int, v *bt.NodeVersion, vid string)) {
	rows := r.s.nodeHist[id]
	var buf [64]uint32
	keep := buf[:0]
	last := uint32(0)
	for _, i := range rows {
		if n := &r.s.nodes[i]; n.tts <= r.seq && r.seq < n.tte {
			keep = append(keep, i)
			last = max(last, i)
		}
	}
	if len(keep) == 0 {
		return
	}
	vc := r.s.nodeVIDs(last)
	slices.SortFunc(keep, func(a, b uint32) int {
		if c := cmp.Compare(r.s.nodes[a].valid.Start, r.s.nodes[b].valid.Start); c != 0 {
			return c
		}
		return cmp.Compare(vc.at(a), vc.at(b))
	})
	var v bt.NodeVersion
	for _, i := range keep {
		v = r.s.nodeVersion(i)
		fn(len(keep), &v, vc.at(i))
	}
}
