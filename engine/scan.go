package engine

import (
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
func (r Reader) countChunk(k int, ta, tb, stride int64, rel uint32, out []int64) {
	s := r.s
	base := uint32(k) << chunkBits
	n := min(chunkSize, int(r.vLimit-base))
	vts := s.eVtS.chunks[k][:n]
	tte := s.eTTe.chunks[k][:n]
	ops := s.eOps.chunks[k][:n]
	rels := s.eRel.chunks[k][:n]
	seq := r.seq
	// The bucket of the previous event: versions come roughly in time
	// order, so most lookups skip the division.
	lo, hi, bi := int64(1), int64(0), 0
	for i, t := range vts {
		if t < ta || t >= tb || seq >= tte[i] || (rel != AnyRel && rels[i] != rel) {
			continue
		}
		if ops[i]&multiBit != 0 && r.Continues(base+uint32(i)) {
			continue
		}
		if t < lo || t >= hi {
			bi = int((t - ta) / stride)
			lo = ta + int64(bi)*stride
			hi = lo + stride
		}
		out[bi]++
	}
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
// loop runs over plain slices with no call per occurrence. (Selecting
// first and aggregating over the selection measured faster than testing
// each version inside the kernel's loop.) Visitors, their shares and the
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
		if ops[i]&multiBit != 0 && r.Continues(base+uint32(i)) {
			continue
		}
		sel[j&chunkMask] = uint16(i)
		j++
	}
	*c = EventChunk{Base: base, Sel: sel[:j], VtS: vts,
		Rel: s.eRel.chunks[k][:n], Src: s.eSrc.chunks[k][:n], Dst: s.eDst.chunks[k][:n]}
}

// NumRels is the number of relation types the store has seen (dense ids
// are 0..NumRels-1).
func (r Reader) NumRels() int { return len(r.s.rels.s) }
