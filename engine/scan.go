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
	nChunks := (int(r.vLimit) + chunkMask) >> chunkBits
	workers := max(1, min(runtime.GOMAXPROCS(0), nChunks/parallelChunks+1))
	visitors := make([]func(uint32, int64), workers)
	for w := range visitors {
		visitors[w] = newVisitor(w)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for _, visit := range visitors {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := int(next.Add(1) - 1); k < nChunks; k = int(next.Add(1) - 1) {
				r.scanChunk(k, ta, tb, visit)
			}
		}()
	}
	wg.Wait()
	return workers
}

func (r Reader) scanChunk(k int, ta, tb int64, visit func(v uint32, t int64)) {
	s := r.s
	base := uint32(k) << chunkBits
	n := min(chunkSize, int(r.vLimit-base))
	vts := s.eVtS.chunks[k][:n]
	tte := s.eTTe.chunks[k][:n]
	ops := s.eOps.chunks[k][:n]
	seq := r.seq
	for i, t := range vts {
		if t < ta || t >= tb || seq >= tte[i] {
			continue
		}
		if ops[i]&multiBit != 0 && r.Continues(base+uint32(i)) {
			continue
		}
		visit(base+uint32(i), t)
	}
}

// NumRels is the number of relation types the store has seen (dense ids
// are 0..NumRels-1).
func (r Reader) NumRels() int { return len(r.s.rels.s) }
