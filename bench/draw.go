package bench

import (
	"cmp"
	"context"
	"slices"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
)

// activity is what the registry reads of a store to draw its arguments:
// per dense node id, counts over the believed edge versions.
type activity struct {
	uids     []string
	deg      []int64 // events incident to the node (a self-loop once)
	liveMid  []int64 // edge versions incident to the node valid at mid
	outEarly []int64 // out-edges starting in the reachability window
	outSpan  []int64 // out-edges with a duration (interval edges)
	history  []int64 // believed node versions << 32 | deg: the busiest history
	lastTTs  []bt.Time
	firstTTs []bt.Time
	liveNode []bool // the node has a node version valid at mid
}

func readActivity(r engine.Reader, mid, earlyEnd bt.Time) *activity {
	s := r.Store()
	n := r.NumNodes()
	a := &activity{uids: make([]string, n), deg: make([]int64, n), liveMid: make([]int64, n),
		outEarly: make([]int64, n), outSpan: make([]int64, n), history: make([]int64, n),
		lastTTs: make([]bt.Time, n), firstTTs: make([]bt.Time, n), liveNode: make([]bool, n)}
	for id := range n {
		a.uids[id] = r.UID(uint32(id))
		for _, nv := range r.NodeHistory(uint32(id)) {
			a.history[id] += 1 << 32
			a.lastTTs[id] = max(a.lastTTs[id], nv.TTs)
			if a.firstTTs[id] == 0 || nv.TTs < a.firstTTs[id] {
				a.firstTTs[id] = nv.TTs
			}
			if nv.Valid.Contains(mid) {
				a.liveNode[id] = true
			}
		}
	}
	for v := range uint32(s.NumEdgeVersions()) {
		if !r.Believed(v) {
			continue
		}
		src, dst, iv := r.Src(v), r.Dst(v), r.Valid(v)
		a.deg[src]++
		if dst != src {
			a.deg[dst]++
		}
		if iv.Contains(mid) {
			a.liveMid[src]++
			if dst != src {
				a.liveMid[dst]++
			}
		}
		if iv.Start < earlyEnd {
			a.outEarly[src]++
		}
		if iv.End-iv.Start > 1 {
			a.outSpan[src]++
		}
	}
	for id := range n {
		if a.history[id] > 0 {
			a.history[id] += a.deg[id]
		}
	}
	return a
}

// ranked lists the node ids with a positive count, busiest first (ties by
// uid), keeping those ok accepts.
func (a *activity) ranked(count []int64, ok func(id int) bool) []int {
	var ids []int
	for id, c := range count {
		if c > 0 && (ok == nil || ok(id)) {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, func(x, y int) int {
		if c := cmp.Compare(count[y], count[x]); c != 0 {
			return c
		}
		return cmp.Compare(a.uids[x], a.uids[y])
	})
	return ids
}

// firstNonEmpty returns the first candidate whose call's answer size
// (rows_total or count) is at least lo and, when hi > 0, at most hi,
// trying at most tries of them; else the first with a non-empty answer,
// else the first candidate.
func firstNonEmpty(db *tgms.DB, op string, cands []string, lo, hi int64, tries int, args func(c string) map[string]any) string {
	if len(cands) == 0 {
		return ""
	}
	fallback := cands[0]
	found := false
	for _, c := range cands[:min(tries, len(cands))] {
		env, err := db.Call(context.Background(), op, args(c))
		if err != nil {
			continue
		}
		n := answerSize(env.Result)
		if n >= lo && (hi <= 0 || n <= hi) {
			return c
		}
		if n > 0 && !found {
			fallback, found = c, true
		}
	}
	return fallback
}
