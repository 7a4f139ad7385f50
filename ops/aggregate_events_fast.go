package ops

import (
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/tgms-go/tgms/engine"
)

// The fast path of aggregate_events for its common shape: group by
// relation type and/or fixed-stride time bucket, aggregates count and
// count_distinct of src or dst, no filters. The engine's tally
// (engine.Reader.TallyEventStarts) computes every event's group key once
// from dense ids (rel id, bucket index), counts it in a flat array and
// marks distinct endpoints as bits of one bitset per group, over column
// chunks on GOMAXPROCS goroutines merged by addition and OR, so the
// payload is the general kernel's, byte for byte. Windows holding under a
// tenth of the store are left to the kernel, which reads them through the
// start-time index.

// aggFastMaxKeys bounds the dense key space of the fast path.
const aggFastMaxKeys = 100_000

// aggFastOff disables the fast path (tests compare it with the kernel);
// aggFastTaken counts the calls it answered.
var (
	aggFastOff   = false
	aggFastTaken atomic.Int64
)

// aggFastTallies keeps the fast path's tallies between calls, so that a
// call allocates no large arrays.
var aggFastTallies sync.Pool

// aggFastMaxBits bounds the bitsets of one goroutine (8 MiB).
const aggFastMaxBits = 1 << 26

// aggFast returns the payload when the plan has the fast shape.
func aggFast(c *Call, p *aggPlan) (map[string]any, bool, error) {
	if aggFastOff || len(p.dims) == 0 || p.filter != nil || p.auth != nil || p.epSet != nil || p.rels != nil || p.needLabels || p.either || p.needEnds ||
		c.WindowFraction(p.w) < gmtsScanFraction {
		return nil, false, nil
	}
	r := c.R
	// mult[i] is the key weight of dimension i; key = Σ slot_i * mult[i].
	mult := make([]int, len(p.dims))
	nKeys := 1
	for i := len(p.dims) - 1; i >= 0; i-- {
		d := p.dims[i]
		var width int
		switch {
		case d.kind == aggDimTime && d.stride > 0:
			width = int((p.w.End-p.w.Start-1)/d.stride + 1)
		case d.kind == aggDimRel:
			width = max(1, r.NumRels())
		default:
			return nil, false, nil
		}
		mult[i] = nKeys
		nKeys *= width
		// Past this many keys (or what the memory budget allows for
		// groups) the general kernel, which counts only groups that occur,
		// decides.
		if nKeys > aggFastMaxKeys || int64(nKeys)*p.rowBytes > c.MemBudget() {
			return nil, false, nil
		}
	}
	var distinct [2]bool // src, dst
	for _, a := range p.aggs {
		switch {
		case a.agg == "count":
		case a.agg == "count_distinct" && (a.of == "src" || a.of == "dst"):
			distinct[map[string]int{"src": 0, "dst": 1}[a.of]] = true
		default:
			return nil, false, nil
		}
	}
	nodes := r.NumNodes()
	if (distinct[0] || distinct[1]) && nKeys*nodes > aggFastMaxBits {
		return nil, false, nil
	}
	// The key is rel*relMult + bucket*timeMult (a weight of 0 drops a
	// dimension); at most one dimension of each kind.
	relMult, timeMult, stride := 0, 0, int64(1)
	for i, d := range p.dims {
		if d.kind == aggDimRel {
			if relMult != 0 {
				return nil, false, nil
			}
			relMult = mult[i]
		} else {
			if timeMult != 0 {
				return nil, false, nil
			}
			timeMult, stride = mult[i], d.stride
		}
	}
	if err := c.Work(int64(r.NumEdgeVersions())); err != nil {
		return nil, true, err
	}
	t, _ := aggFastTallies.Get().(*engine.Tally)
	if t == nil {
		t = new(engine.Tally)
	}
	defer aggFastTallies.Put(t)
	r.TallyEventStarts(engine.TallySpec{Ta: p.w.Start, Tb: p.w.End, Stride: stride,
		RelWeight: relMult, BucketWeight: timeMult, Keys: nKeys, Src: distinct[0], Dst: distinct[1]}, t)
	aggFastTaken.Add(1)
	return aggFastRows(c, p, t.Count, [2][]uint64{t.Src, t.Dst}, mult, nodes)
}

// aggFastRows renders the non-empty groups as the kernel's aggRows does.
func aggFastRows(c *Call, p *aggPlan, count []int64, seen [2][]uint64, mult []int, nodes int) (map[string]any, bool, error) {
	var rows []map[string]any
	for key, n := range count {
		if n == 0 {
			continue
		}
		if err := c.Work(1); err != nil {
			return nil, true, err
		}
		row := map[string]any{}
		gk := make([]any, 0, len(p.dims))
		for i, d := range p.dims {
			slot := key / mult[i]
			if i > 0 {
				slot %= mult[i-1] / mult[i]
			}
			if d.kind == aggDimRel {
				rel := c.R.RelName(uint32(slot))
				row["rel_type"] = rel
				gk = append(gk, rel)
			} else {
				ta := p.w.Start + int64(slot)*d.stride
				row["t_a"], row["t_b"] = ta, min(ta+d.stride, p.w.End)
				gk = append(gk, ta)
			}
		}
		row["group_key"] = gk
		for _, a := range p.aggs {
			if a.agg == "count" {
				row[a.col] = n
				continue
			}
			set := seen[0]
			if a.of == "dst" {
				set = seen[1]
			}
			row[a.col] = aggFastPopCount(set, key*nodes, (key+1)*nodes)
		}
		rows = append(rows, row)
	}
	return aggResult(p, rows), true, nil
}

// aggFastPopCount counts the set bits in [lo, hi).
func aggFastPopCount(set []uint64, lo, hi int) int64 {
	var n int
	for lo < hi && lo&63 != 0 {
		n += int(set[lo>>6] >> (lo & 63) & 1)
		lo++
	}
	for ; lo+64 <= hi; lo += 64 {
		n += bits.OnesCount64(set[lo>>6])
	}
	for ; lo < hi; lo++ {
		n += int(set[lo>>6] >> (lo & 63) & 1)
	}
	return int64(n)
}
