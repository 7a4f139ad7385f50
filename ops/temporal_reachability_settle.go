package ops

import (
	"sort"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// The node-driven kernels: label-setting searches (Dijkstra on time) that
// read only the adjacency of the nodes they reach. Forward, nodes settle
// in non-decreasing arrival time and each out-edge of a settled node is
// read once, when the node settles; the hop function a ↦ max(a, vt_s) is
// non-decreasing (waiting is allowed), so the first settlement is the
// earliest arrival. Backward is the mirror image with a max-heap on
// latest departure and L ↦ min(L, vt_e−1). Several hops at one instant are
// zero-length steps, which label setting handles like zero-weight edges.

// reachHeap is a binary heap of (time, node); max turns it into a max-heap.
type reachHeap struct {
	t   []int64
	n   []uint32
	max bool
}

func (h *reachHeap) less(i, j int) bool {
	if h.max {
		return h.t[i] > h.t[j]
	}
	return h.t[i] < h.t[j]
}

func (h *reachHeap) swap(i, j int) {
	h.t[i], h.t[j] = h.t[j], h.t[i]
	h.n[i], h.n[j] = h.n[j], h.n[i]
}

func (h *reachHeap) push(t int64, n uint32) {
	h.t, h.n = append(h.t, t), append(h.n, n)
	for i := len(h.t) - 1; i > 0; {
		p := (i - 1) / 2
		if !h.less(i, p) {
			break
		}
		h.swap(i, p)
		i = p
	}
}

func (h *reachHeap) pop() (int64, uint32) {
	t, n := h.t[0], h.n[0]
	last := len(h.t) - 1
	h.swap(0, last)
	h.t, h.n = h.t[:last], h.n[:last]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < last && h.less(l, m) {
			m = l
		}
		if l+1 < last && h.less(l+1, m) {
			m = l + 1
		}
		if m == i {
			break
		}
		h.swap(i, m)
		i = m
	}
	return t, n
}

// reachNodeCost is what label setting charges its budget for settling a
// node, in adjacency entries: a node's list is found and first read at
// random (a few cache misses, ~0.3 µs), its entries then in order (~18 ns
// each on the 10M synthetic store).
const reachNodeCost = 16

// reachSettleForward computes earliest arrivals from src by label setting
// over the out-lists of reached nodes.
// It gives up (ok false) once it has read more than budget adjacency
// entries, reachNodeCost more for each node settled (budget < 0: no limit).
func reachSettleForward(c *Call, src uint32, w bt.Interval, budget int64) (hits []reachHit, ok bool, err error) {
	r := hot(c.R)
	arr := make([]int64, r.NumNodes()) // arrival+1; 0 = not reached
	done := make([]bool, r.NumNodes())
	h := reachHeap{}
	read := int64(0)
	arr[src] = w.Start + 1
	h.push(w.Start, src)
	for len(h.t) > 0 {
		a, u := h.pop()
		if done[u] {
			continue
		}
		done[u] = true
		if u != src {
			hits = append(hits, reachHit{u, a})
		}
		out := r.Out(u)
		if read += reachNodeCost + int64(len(out)); budget >= 0 && read > budget {
			return nil, false, nil
		}
		// Edges that start at or after t_b are never usable.
		end := sort.Search(len(out), func(i int) bool { return r.Valid(out[i]).Start >= w.End })
		if err := c.Work(int64(end + 1)); err != nil {
			return nil, false, err
		}
		// The same relaxation twice: on the in-memory engine its reads
		// inline (the loop is most of the search's time), else through the
		// Reader.
		if r.native {
			nat := r.nat
			for _, v := range out[:end] {
				iv := nat.Valid(v)
				if iv.End <= a {
					continue // over before we are at u
				}
				tau := max(a, iv.Start) // < iv.End and < t_b
				if x := nat.Dst(v); arr[x] == 0 || tau+1 < arr[x] {
					arr[x] = tau + 1
					h.push(tau, x)
				}
			}
			continue
		}
		for _, v := range out[:end] {
			iv := r.Valid(v)
			if iv.End <= a {
				continue // over before we are at u
			}
			tau := max(a, iv.Start) // < iv.End and < t_b
			if x := r.Dst(v); arr[x] == 0 || tau+1 < arr[x] {
				arr[x] = tau + 1
				h.push(tau, x)
			}
		}
	}
	return hits, true, nil
}

// reachSettleBackward computes latest departures towards src by label
// setting over the in-lists of reached nodes.
// It gives up (ok false) once it has read more than budget adjacency
// entries, reachNodeCost more for each node settled (budget < 0: no limit).
func reachSettleBackward(c *Call, src uint32, w bt.Interval, budget int64) (hits []reachHit, ok bool, err error) {
	r := hot(c.R)
	dep := make([]int64, r.NumNodes()) // departure+1; 0 = not reached
	done := make([]bool, r.NumNodes())
	h := reachHeap{max: true}
	read := int64(0)
	dep[src] = w.End
	h.push(w.End-1, src)
	for len(h.t) > 0 {
		l, x := h.pop()
		if done[x] {
			continue
		}
		done[x] = true
		if x != src {
			hits = append(hits, reachHit{x, l})
		}
		in := r.In(x)
		if read += reachNodeCost + int64(len(in)); budget >= 0 && read > budget {
			return nil, false, nil
		}
		// Edges that start after l cannot be taken by l.
		end := sort.Search(len(in), func(i int) bool { return r.Valid(in[i]).Start > l })
		if err := c.Work(int64(end + 1)); err != nil {
			return nil, false, err
		}
		if r.native { // as forward: the reads inline on the in-memory engine
			nat := r.nat
			for _, v := range in[:end] {
				iv := nat.Valid(v)
				tau := min(l, iv.End-1) // >= iv.Start
				if tau < w.Start || tau < iv.Start {
					continue
				}
				if u := nat.Src(v); tau+1 > dep[u] {
					dep[u] = tau + 1
					h.push(tau, u)
				}
			}
			continue
		}
		for _, v := range in[:end] {
			iv := r.Valid(v)
			tau := min(l, iv.End-1) // >= iv.Start
			if tau < w.Start || tau < iv.Start {
				continue
			}
			if u := r.Src(v); tau+1 > dep[u] {
				dep[u] = tau + 1
				h.push(tau, u)
			}
		}
	}
	return hits, true, nil
}
