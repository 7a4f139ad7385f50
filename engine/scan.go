package engine

import (
	"encoding/binary"
	"runtime"
	"sync"
	"sync/atomic"
)

// AnyRel makes a counting scan count every relation type.
const AnyRel = ^uint32(0)

// parallelChunks is the number of column chunks below which a scan runs
// on the calling goroutine only.
var parallelChunks = 4

// RelIDOf looks up the dense id of a relation type.
func (r Reader) RelIDOf(name string) (uint32, bool) { return r.s.rels.lookup(name) }

// CountEventStarts counts the occurrences (believed edge versions that do
// not continue another believed version of their identity) whose valid
// start t lies in [ta, tb), of relation type rel (AnyRel: all), adding
// one to out[(t-ta)/stride] for each. It reads the columns a chunk at a
// time, tests the carved-fragment rule only on versions whose identity has
// several versions, and splits the chunks over GOMAXPROCS goroutines,
// each with its own counts: the sums, and so the result, do not depend on
// the split. out must have (tb-ta-1)/stride+1 entries.
func (r Reader) CountEventStarts(ta, tb, stride int64, rel uint32, out []int64) {
	nChunks := (int(r.vLimit) + chunkMask) >> chunkBits
	workers := min(runtime.GOMAXPROCS(0), nChunks/parallelChunks+1)
	if workers <= 1 {
		for k := range nChunks {
			r.countChunk(k, ta, tb, stride, rel, out)
		}
		return
	}
	var next atomic.Int64
	parts := make([][]int64, workers)
	var wg sync.WaitGroup
	for w := range workers {
		parts[w] = make([]int64, len(out))
		wg.Add(1)
		go func(part []int64) {
			defer wg.Done()
			for k := int(next.Add(1) - 1); k < nChunks; k = int(next.Add(1) - 1) {
				r.countChunk(k, ta, tb, stride, rel, part)
			}
		}(parts[w])
	}
	wg.Wait()
	for _, part := range parts {
		for i, n := range part {
			out[i] += n
		}
	}
}

// countChunk is CountEventStarts over the versions of chunk k.
//
// Its loops make no call and keep few values live, so their state stays
// in registers: the outer loop finds the bucket of a version, the inner
// one counts the versions of that bucket that follow (versions come
// roughly in time order) in a register, not in memory (a chain of
// increments of one counter in memory waits on each store). A version
// whose identity has several versions is counted too, and if the chunk
// has any, a second pass uncounts those that continue another.
func (r Reader) countChunk(k int, ta, tb, stride int64, rel uint32, out []int64) {
	s := r.s
	base := uint32(k) << chunkBits
	n := min(chunkSize, int(r.vLimit-base))
	vts := s.eVtS.chunks[k][:n]
	tte, ops := s.eTTe.chunks[k][:len(vts)], s.eOps.chunks[k][:len(vts)]
	rels := s.eRel.chunks[k][:len(vts)]
	var ors uint8
	if rel == AnyRel {
		ors = countAny(vts, tte, ops, r.seq, ta, tb, stride, out)
	} else {
		ors = countRel(vts, tte, ops, rels, rel, r.seq, ta, tb, stride, out)
	}
	if ors&followsBit == 0 {
		return
	}
	for i, op := range ops {
		t := vts[i]
		if op&followsBit == 0 || t < ta || t >= tb || r.seq >= tte[i] || rel != AnyRel && rels[i] != rel {
			continue
		}
		if r.Continues(base + uint32(i)) {
			out[(t-ta)/stride]--
		}
	}
}

// countAny is countChunk's counting loop for every relation type; it
// returns the OR of the ops of the versions it counted.
func countAny(vts []int64, tte []uint32, ops []uint8, seq uint32, ta, tb, stride int64, out []int64) uint8 {
	var ors uint8
	for i := 0; i < len(vts); {
		t := vts[i]
		if t < ta || t >= tb {
			i++
			continue
		}
		bi := (t - ta) / stride
		lo := ta + bi*stride
		var run int64
		run, i = countRun(vts, tte, ops, i, lo, min(lo+stride, tb), seq, &ors)
		out[bi] += run
	}
	return ors
}

// countRun counts the believed versions from i on while their valid start
// stays in [lo, hi), ORing their ops into ors; it returns the count and
// the first version past the run. It is kept out of line so that the
// compiler holds its loop's state in registers.
//
//go:noinline
func countRun(vts []int64, tte []uint32, ops []uint8, i int, lo, hi int64, seq uint32, ors *uint8) (int64, int) {
	tte, ops = tte[:len(vts)], ops[:len(vts)]
	var run int64
	var or uint8
	for ; i < len(vts); i++ {
		if t := vts[i]; t < lo || t >= hi {
			break
		}
		if seq < tte[i] {
			run++
			or |= ops[i]
		}
	}
	*ors |= or
	return run, i
}

// countRel is countAny for one relation type.
func countRel(vts []int64, tte []uint32, ops []uint8, rels []uint32, rel, seq uint32, ta, tb, stride int64, out []int64) uint8 {
	var ors uint8
	for i := 0; i < len(vts); {
		t := vts[i]
		if t < ta || t >= tb {
			i++
			continue
		}
		bi := (t - ta) / stride
		lo := ta + bi*stride
		var run int64
		run, i = countRelRun(vts, tte, ops, rels, rel, i, lo, min(lo+stride, tb), seq, &ors)
		out[bi] += run
	}
	return ors
}

// countRelRun is countRun for the versions of relation type rel.
//
//go:noinline
func countRelRun(vts []int64, tte []uint32, ops []uint8, rels []uint32, rel uint32, i int, lo, hi int64, seq uint32, ors *uint8) (int64, int) {
	tte, ops, rels = tte[:len(vts)], ops[:len(vts)], rels[:len(vts)]
	var run int64
	var or uint8
	for ; i < len(vts); i++ {
		if t := vts[i]; t < lo || t >= hi {
			break
		}
		if seq < tte[i] && rels[i] == rel {
			run++
			or |= ops[i]
		}
	}
	*ors |= or
	return run, i
}

// ScanEventStarts visits the occurrences (as CountEventStarts defines
// them) whose valid start t lies in [ta, tb), reading the columns a chunk
// at a time over up to GOMAXPROCS goroutines. newVisitor is called once
// per goroutine, before any visit, with the goroutine's index; each
// visitor sees a disjoint share of the occurrences, in no particular order,
// so the caller merges per-visitor state in index order for a
// deterministic result. It returns the number of visitors made.
func (r Reader) ScanEventStarts(ta, tb int64, newVisitor func(w int) func(v uint32, t int64)) int {
	return r.ScanEventChunks(ta, tb, func(w int) func(c *EventChunk) {
		visit := newVisitor(w)
		return func(c *EventChunk) {
			for _, i := range c.Sel {
				visit(c.Base+uint32(i), c.VtS[i])
			}
		}
	})
}

// EventChunk is one column chunk's share of a scan: the occurrences are
// the versions Base+i for i in Sel (ascending), and VtS, Rel, Src and Dst
// are the chunk's columns (index them with i). The slices are valid only
// during the visit.
type EventChunk struct {
	Base          uint32
	Sel           []uint16
	VtS           []int64
	Rel, Src, Dst []uint32
}

// ScanEventChunks is ScanEventStarts a chunk at a time: each visitor gets
// the positions of a chunk's occurrences in one slice, so a kernel's inner
// loop runs over plain slices with no call per occurrence. (A count by
// relation and time bucket does better with TallyEventStarts, whose
// passes keep their state in registers.) Visitors, their shares and the
// merge rule are as in ScanEventStarts.
func (r Reader) ScanEventChunks(ta, tb int64, newVisitor func(w int) func(c *EventChunk)) int {
	nChunks := (int(r.vLimit) + chunkMask) >> chunkBits
	workers := max(1, min(runtime.GOMAXPROCS(0), nChunks/parallelChunks+1))
	visitors := make([]func(*EventChunk), workers)
	for w := range visitors {
		visitors[w] = newVisitor(w)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for _, visit := range visitors {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &EventChunk{Sel: make([]uint16, chunkSize)}
			for k := int(next.Add(1) - 1); k < nChunks; k = int(next.Add(1) - 1) {
				r.selectChunk(k, ta, tb, c)
				visit(c)
			}
		}()
	}
	wg.Wait()
	return workers
}

// selectChunk points c at chunk k and its occurrences starting in
// [ta, tb).
func (r Reader) selectChunk(k int, ta, tb int64, c *EventChunk) {
	s := r.s
	base := uint32(k) << chunkBits
	n := min(chunkSize, int(r.vLimit-base))
	vts := s.eVtS.chunks[k][:n]
	tte, ops := s.eTTe.chunks[k][:n], s.eOps.chunks[k][:n]
	seq := r.seq
	sel := c.Sel[:chunkSize]
	j := 0
	for i, t := range vts {
		if t < ta || t >= tb || seq >= tte[i] {
			continue
		}
		if ops[i]&followsBit != 0 && r.Continues(base+uint32(i)) {
			continue
		}
		sel[j&chunkMask] = uint16(i)
		j++
	}
	*c = EventChunk{Base: base, Sel: sel[:j], VtS: vts,
		Rel: s.eRel.chunks[k][:n], Src: s.eSrc.chunks[k][:n], Dst: s.eDst.chunks[k][:n]}
}

// TallySpec says what TallyEventStarts counts: the occurrences (as
// CountEventStarts defines them) starting in [Ta, Tb), grouped by the key
// rel*RelWeight + bucket*BucketWeight, where rel is the occurrence's
// dense relation id and bucket is (t-Ta)/Stride (a zero weight drops that
// dimension). Keys bounds the keys; Src and Dst ask for a mark per
// (key, endpoint).
type TallySpec struct {
	Ta, Tb, Stride          int64
	RelWeight, BucketWeight int
	Keys                    int
	Src, Dst                bool
}

// Tally is what TallyEventStarts counts: Count[key] occurrences, and when
// asked, bit key*NumNodes()+node of Src (Dst) set when an occurrence of
// the key has that source (destination) node (bits past Keys*NumNodes()
// are scratch).
type Tally struct {
	Count    []int64
	Src, Dst []uint64
}

// tallyBlock is the versions whose keys a tally computes before counting
// them: small enough that the keys stay in the first-level cache.
const tallyBlock = 1024

// TallyEventStarts counts the occurrences of sp by group key into t,
// reusing t's slices where they are large enough (so a caller that keeps
// its Tally between calls allocates nothing large). The scan runs a chunk
// at a time over up to GOMAXPROCS goroutines, each with its own counts
// and marks; they are merged by addition and OR, so the tally does not
// depend on the split. The caller keeps every key below sp.Keys (rel ids
// are below NumRels) and sp.Keys below 2^31.
func (r Reader) TallyEventStarts(sp TallySpec, t *Tally) {
	if sp.BucketWeight == 0 {
		sp.Stride = max(1, sp.Tb-sp.Ta)
	}
	nodes := r.NumNodes()
	bits := ((sp.Keys+1)*nodes + 63) / 64
	nChunks := (int(r.vLimit) + chunkMask) >> chunkBits
	workers := max(1, min(runtime.GOMAXPROCS(0), nChunks/parallelChunks+1))
	parts := make([]*tallyPart, workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			parts[w] = newTallyPart(&sp, bits)
			r.tallyChunks(&sp, nodes, parts[w], &next, nChunks)
		}()
	}
	wg.Wait()
	t.Count = sized(t.Count, sp.Keys)
	for key := range t.Count {
		var n int64
		for _, p := range parts {
			c := p.count[4*key : 4*key+4]
			n += c[0] + c[1] + c[2] + c[3]
		}
		t.Count[key] = n
	}
	t.Src, t.Dst = mergeMarks(t.Src, parts, 0, sp.Src, bits), mergeMarks(t.Dst, parts, 1, sp.Dst, bits)
	for _, p := range parts {
		tallyParts.Put(p)
	}
}

// mergeMarks returns the OR of the parts' marks of endpoint k (0 source,
// 1 destination), in dst's array when it has room, or nil if not on.
func mergeMarks(dst []uint64, parts []*tallyPart, k int, on bool, bits int) []uint64 {
	if !on {
		return nil
	}
	dst = sized(dst[:0], bits)
	copy(dst, parts[0].keep[k])
	for _, p := range parts[1:] {
		orWords(dst, p.keep[k][:bits])
	}
	return dst
}

// sized returns n entries, in s's array when it has room (their values
// are not cleared).
func sized[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// tallyPart is one goroutine's counts and marks; tallyParts keeps them
// between calls.
type tallyPart struct {
	count    []int64  // four counters per key, the scratch key's last
	src, dst []uint64 // nil when not asked for
	keep     [2][]uint64
	keys     []int32
}

var tallyParts sync.Pool

// newTallyPart returns a cleared part for sp, with marks of bits words.
func newTallyPart(sp *TallySpec, bits int) *tallyPart {
	p, _ := tallyParts.Get().(*tallyPart)
	if p == nil {
		p = &tallyPart{keys: make([]int32, tallyBlock)}
	}
	p.count = zeroed(p.count, 4*(sp.Keys+1))
	p.src, p.dst = nil, nil
	if sp.Src {
		p.keep[0] = zeroed(p.keep[0], bits)
		p.src = p.keep[0]
	}
	if sp.Dst {
		p.keep[1] = zeroed(p.keep[1], bits)
		p.dst = p.keep[1]
	}
	return p
}

// zeroed returns n zeros, in s's array when it has room.
func zeroed[T any](s []T, n int) []T {
	s = sized(s, n)
	clear(s)
	return s
}

// tallyChunks is one goroutine's share of TallyEventStarts: the chunks it
// takes from next, tallied into p.
//
// Each block of versions is tallied in passes, each a tight loop with no
// call: the first gives every version its key (sp.Keys, a scratch key,
// for a version that is no occurrence), the next count the keys and mark
// the endpoints. The scratch key's count and marks are dropped.
func (r Reader) tallyChunks(sp *TallySpec, nodes int, p *tallyPart, next *atomic.Int64, nChunks int) {
	s := r.s
	b := tallyBucket{lo: 1}
	for k := int(next.Add(1) - 1); k < nChunks; k = int(next.Add(1) - 1) {
		base := uint32(k) << chunkBits
		n := min(chunkSize, int(r.vLimit-base))
		for j := 0; j < n; j += tallyBlock {
			e := min(j+tallyBlock, n)
			kb := p.keys[:e-j]
			r.blockKeys(base+uint32(j), k, j, e, sp, &b, kb)
			switch {
			case p.dst != nil:
				countMarkKeys(kb, s.eDst.chunks[k][j:e], nodes, p.dst, p.count)
				if p.src != nil {
					markKeys(kb, s.eSrc.chunks[k][j:e], nodes, p.src)
				}
			case p.src != nil:
				countMarkKeys(kb, s.eSrc.chunks[k][j:e], nodes, p.src, p.count)
			default:
				countKeys(kb, p.count)
			}
		}
	}
}

// tallyBucket is the time bucket of the last occurrence a tally keyed:
// versions come roughly in time order, so most keys skip the division.
type tallyBucket struct {
	lo, hi int64 // the bucket's span [lo, hi); empty at first
	key    int32 // its share of the group key
}

// blockKeys sets keys[i-j] for the versions i in [j, e) of chunk k (base
// is the first one's id): the group key of an occurrence, sp.Keys for any
// other version.
func (r Reader) blockKeys(base uint32, k, j, e int, sp *TallySpec, b *tallyBucket, keys []int32) {
	s := r.s
	vts := s.eVtS.chunks[k][j:e]
	tte, ops := s.eTTe.chunks[k][j:e], s.eOps.chunks[k][j:e]
	rels := s.eRel.chunks[k][j:e]
	keys = keys[:len(vts)]
	none := int32(sp.Keys)
	for i := 0; i < len(vts); {
		t := vts[i]
		if t < b.lo || t >= b.hi {
			if t < sp.Ta || t >= sp.Tb {
				keys[i] = none
				i++
				continue
			}
			bi := (t - sp.Ta) / sp.Stride
			b.lo = sp.Ta + bi*sp.Stride
			b.hi, b.key = min(b.lo+sp.Stride, sp.Tb), int32(bi)*int32(sp.BucketWeight)
		}
		i = keyRun(vts, tte, rels, keys, i, b, r.seq, int32(sp.RelWeight), none)
	}
	if !anyFollows(ops) {
		return
	}
	for i, op := range ops {
		if op&followsBit != 0 && keys[i] != none && r.Continues(base+uint32(i)) {
			keys[i] = none
		}
	}
}

// keyRun sets the keys of the versions from i on while their valid start
// stays in bucket b; it returns the first version past the run. It is
// kept out of line, and its loop to a dozen values, so that the compiler
// holds the loop's state in registers.
//
//go:noinline
func keyRun(vts []int64, tte []uint32, rels []uint32, keys []int32, i int, b *tallyBucket, seq uint32, relW, none int32) int {
	tte, rels, keys = tte[:len(vts)], rels[:len(vts)], keys[:len(vts)]
	lo, hi, bkey := b.lo, b.hi, b.key
	for ; i < len(vts); i++ {
		if t := vts[i]; t < lo || t >= hi {
			break
		}
		key := none
		if seq < tte[i] {
			key = bkey + int32(rels[i])*relW
		}
		keys[i] = key
	}
	return i
}

// anyFollows reports whether any of ops has followsBit, eight at a time.
func anyFollows(ops []uint8) bool {
	const follows8 = followsBit * 0x0101010101010101
	var or uint64
	for ; len(ops) >= 8; ops = ops[8:] {
		or |= binary.LittleEndian.Uint64(ops)
	}
	for _, op := range ops {
		or |= uint64(op)
	}
	return or&follows8 != 0
}

// countKeys adds one to the counter of every key: four counters per key,
// taken in turn by position, since a run of increments of one counter in
// memory would wait on each store.
//
//go:noinline
func countKeys(keys []int32, count []int64) {
	for i, key := range keys {
		count[4*int(key)+(i&3)]++
	}
}

// markKeys sets bit key*nodes+ends[i] of seen for every keys[i].
//
//go:noinline
func markKeys(keys []int32, ends []uint32, nodes int, seen []uint64) {
	ends = ends[:len(keys)]
	for i, key := range keys {
		b := uint(key)*uint(nodes) + uint(ends[i])
		seen[b>>6] |= 1 << (b & 63)
	}
}

// countMarkKeys is countKeys and markKeys in one pass.
//
//go:noinline
func countMarkKeys(keys []int32, ends []uint32, nodes int, seen []uint64, count []int64) {
	ends = ends[:len(keys)]
	for i, key := range keys {
		count[4*int(key)+(i&3)]++
		b := uint(key)*uint(nodes) + uint(ends[i])
		seen[b>>6] |= 1 << (b & 63)
	}
}

// orWords ORs src into dst word by word.
func orWords(dst, src []uint64) {
	src = src[:len(dst)]
	for i, w := range src {
		dst[i] |= w
	}
}

// NumRels is the number of relation types the store has seen (dense ids
// are 0..NumRels-1).
func (r Reader) NumRels() int { return len(r.s.rels.s) }
