package oracle

import (
	"slices"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
)

func init() { register("temporal_reachability", temporalReachability) }

// reachHop is a believed edge version that overlaps the window.
type reachHop struct {
	u, v string
	s, e bt.Time
}

func reachHops(s *bt.MemStore, tt bt.Time, ta, tb bt.Time) []reachHop {
	var hops []reachHop
	for _, e := range believedEdges(s, tt) {
		if e.Valid.Start < tb && e.Valid.End > ta {
			hops = append(hops, reachHop{e.Key.Src, e.Key.Dst, e.Valid.Start, e.Valid.End})
		}
	}
	return hops
}

func reachWindow(args map[string]any) (bt.Time, bt.Time) {
	w, _ := args["window"].(map[string]any)
	return num(w["t_a"]), num(w["t_b"])
}

// temporalReachability: without a wait cap, forward earliest arrival and
// backward latest departure are each a fixpoint of "relax every hop once",
// repeated until nothing changes. With a cap, every (node, time) state
// reachable under the rule is enumerated, scanning all hops per state.
func temporalReachability(s *bt.MemStore, args map[string]any) (map[string]any, error) {
	src, _ := args["src"].(string)
	tt := asOf(args)
	if !known(s, src, tt) {
		return nil, NotFound{src}
	}
	ta, tb := reachWindow(args)
	hops := reachHops(s, tt, ta, tb)
	dir, _ := args["direction"].(string)
	delta := int64(-1)
	if d, ok := args["delta_max_wait"]; ok && d != nil {
		delta = num(d)
	}
	var fwd, bwd map[string]bt.Time
	if dir != "in" {
		if delta < 0 {
			fwd = reachFixpointForward(hops, src, ta, tb)
		} else {
			fwd = reachStatesForward(hops, src, ta, tb, delta)
		}
	}
	if dir != "out" {
		if delta < 0 {
			bwd = reachFixpointBackward(hops, src, ta, tb)
		} else {
			bwd = reachStatesBackward(hops, src, ta, tb, delta)
		}
	}
	delete(fwd, src)
	delete(bwd, src)
	uids := map[string]bool{}
	for u := range fwd {
		uids[u] = true
	}
	for u := range bwd {
		uids[u] = true
	}
	var rows []map[string]any
	for u := range uids {
		row := map[string]any{"uid": u, "earliest_arrival": nil, "latest_departure": nil}
		if t, ok := fwd[u]; ok {
			row["earliest_arrival"] = t
		}
		if t, ok := bwd[u]; ok {
			row["latest_departure"] = t
		}
		rows = append(rows, row)
	}
	// Nulls sort last.
	key := func(v any) int64 {
		if v == nil {
			return bt.OpenEnd
		}
		return v.(int64)
	}
	slices.SortFunc(rows, func(a, b map[string]any) int {
		if x, y := key(a["earliest_arrival"]), key(b["earliest_arrival"]); x != y {
			return reachCmp(x, y)
		}
		if x, y := key(a["latest_departure"]), key(b["latest_departure"]); x != y {
			return reachCmp(x, y)
		}
		return strings.Compare(a["uid"].(string), b["uid"].(string))
	})
	return map[string]any{"rows": anyRows(rows)}, nil
}

func reachCmp(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// reachFixpointForward: arrival[src] = t_a; relax every hop until no
// arrival improves. Hop u→v [s,e) from arrival a: τ = max(a, s), usable
// iff τ < e and τ < t_b.
func reachFixpointForward(hops []reachHop, src string, ta, tb bt.Time) map[string]bt.Time {
	arr := map[string]bt.Time{src: ta}
	for changed := true; changed; {
		changed = false
		for _, h := range hops {
			a, ok := arr[h.u]
			if !ok {
				continue
			}
			tau := max(a, h.s)
			if tau >= h.e || tau >= tb {
				continue
			}
			if old, ok := arr[h.v]; !ok || tau < old {
				arr[h.v] = tau
				changed = true
			}
		}
	}
	return arr
}

// reachFixpointBackward: departure[src] = t_b−1 (src must be reached
// before t_b); relax every hop until no departure gets later. Hop u→v
// [s,e) into a node that must be left by L: τ = min(L, e−1), usable iff
// τ >= s and τ >= t_a; u must then leave by τ.
func reachFixpointBackward(hops []reachHop, src string, ta, tb bt.Time) map[string]bt.Time {
	dep := map[string]bt.Time{src: tb - 1}
	for changed := true; changed; {
		changed = false
		for _, h := range hops {
			l, ok := dep[h.v]
			if !ok {
				continue
			}
			tau := min(l, h.e-1)
			if tau < h.s || tau < ta {
				continue
			}
			if old, ok := dep[h.u]; !ok || tau > old {
				dep[h.u] = tau
				changed = true
			}
		}
	}
	return dep
}

type reachState struct {
	n string
	t bt.Time
}

// reachStatesForward enumerates every reachable (node, time) state with
// waits of at most delta, the start state (src, t_a) exempt.
func reachStatesForward(hops []reachHop, src string, ta, tb, delta bt.Time) map[string]bt.Time {
	start := reachState{src, ta}
	seen := map[reachState]bool{start: true}
	todo := []reachState{start}
	for len(todo) > 0 {
		st := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, h := range hops {
			if h.u != st.n {
				continue
			}
			tau := max(st.t, h.s)
			if tau >= h.e || tau >= tb || (st != start && tau-st.t > delta) {
				continue
			}
			next := reachState{h.v, tau}
			if !seen[next] {
				seen[next] = true
				todo = append(todo, next)
			}
		}
	}
	best := map[string]bt.Time{}
	for st := range seen {
		if t, ok := best[st.n]; !ok || st.t < t {
			best[st.n] = st.t
		}
	}
	return best
}

// reachStatesBackward is the mirror image: states (node, latest
// departure), waits L − τ of at most delta, the deadline state (src,
// t_b−1) exempt.
func reachStatesBackward(hops []reachHop, src string, ta, tb, delta bt.Time) map[string]bt.Time {
	start := reachState{src, tb - 1}
	seen := map[reachState]bool{start: true}
	todo := []reachState{start}
	for len(todo) > 0 {
		st := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, h := range hops {
			if h.v != st.n {
				continue
			}
			tau := min(st.t, h.e-1)
			if tau < h.s || tau < ta || (st != start && st.t-tau > delta) {
				continue
			}
			next := reachState{h.u, tau}
			if !seen[next] {
				seen[next] = true
				todo = append(todo, next)
			}
		}
	}
	best := map[string]bt.Time{}
	for st := range seen {
		if t, ok := best[st.n]; !ok || st.t > t {
			best[st.n] = st.t
		}
	}
	return best
}
