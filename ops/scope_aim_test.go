package ops_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
)

// Later batches aimed at the edges of a step: the times, uids, relation
// types and property comparisons its arguments name, and the intervals and
// uid lists of the scope it recorded. A write just inside an edge must be
// seen by a sound scope; one just outside may be ignored; an unsound
// (too narrow) scope is caught when a write it ignores changes the result.

// aimBias narrows the power harness's arguments further, to calls whose
// result a single write can move: a temporal_pattern of one or two hops
// with its where predicate on one of them.
var aimBias = map[string]func(*rand.Rand, map[string]any){
	"temporal_pattern": func(rng *rand.Rand, args map[string]any) {
		hops, _ := args["hops"].([]any)
		if len(hops) == 0 {
			return
		}
		var where any
		for _, h := range hops {
			if w, ok := h.(map[string]any)["where"]; ok {
				where = w
			}
		}
		hops = hops[:min(len(hops), 1+rng.IntN(2))]
		if where != nil {
			h := hops[rng.IntN(len(hops))].(map[string]any)
			if _, ok := h["where"]; !ok {
				h["where"] = where
			}
		}
		args["hops"] = hops
	},
}

// argEdges are the values a step's arguments name.
type argEdges struct {
	times []bt.Time
	uids  []string
	rels  []string
	names []string // query texts a node's name may match
	props []propEdge
}

// propEdge is a property comparison: a where predicate's or a filter's
// prop and value, or a prop aggregate's prop (hasValue false).
type propEdge struct {
	prop, cmp string
	value     float64
	hasValue  bool
}

// edgesOf collects the edges named anywhere in a step's arguments.
func edgesOf(args map[string]any) argEdges {
	var a argEdges
	var walk func(key string, v any)
	walk = func(key string, v any) {
		switch x := v.(type) {
		case map[string]any:
			if p, ok := x["prop"].(string); ok && p != "" {
				pe := propEdge{prop: p}
				pe.cmp, _ = x["cmp"].(string)
				switch val := x["value"].(type) {
				case int64:
					pe.value, pe.hasValue = float64(val), true
				case float64:
					pe.value, pe.hasValue = val, true
				}
				a.props = append(a.props, pe)
			}
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys) // a fixed order: the same seed draws the same writes
			for _, k := range keys {
				walk(k, x[k])
			}
		case []any:
			for _, e := range x {
				walk(key, e)
			}
		case []string:
			for _, e := range x {
				walk(key, e)
			}
		case string:
			if key == "query" || key == "value" {
				a.names = append(a.names, x)
			}
			switch {
			case slices.Contains(storeUIDs, x):
				a.uids = append(a.uids, x)
			case x == "R" || x == "S":
				a.rels = append(a.rels, x)
			}
		case int64:
			if key != "limit" && key != "hops" && key != "as_of_tt" && x >= 0 && x < 1000 {
				a.times = append(a.times, bt.Time(x))
			}
		}
	}
	walk("", args)
	slices.Sort(a.times)
	a.times = slices.Compact(a.times)
	slices.Sort(a.uids)
	a.uids = slices.Compact(a.uids)
	return a
}

// scopeTimes are the first and last microseconds of the recorded scope's
// finite intervals (a write one µs either side of them is drawn by at).
func scopeTimes(sc *ops.Scope) []bt.Time {
	if sc == nil {
		return nil
	}
	var out []bt.Time
	add := func(iv bt.Interval) {
		if iv.Start > 0 && iv.Start < bt.OpenEnd {
			out = append(out, iv.Start)
		}
		if iv.End < bt.OpenEnd {
			out = append(out, iv.End-1)
		}
	}
	for _, n := range sc.Nodes {
		add(n.Valid)
	}
	for _, e := range sc.Edges {
		add(e.Valid)
	}
	return out
}

// scopeUIDs are the uids the recorded scope's lists name.
func scopeUIDs(sc *ops.Scope) []string {
	var out []string
	if sc == nil {
		return nil
	}
	out = append(out, sc.Known...)
	for _, n := range sc.Nodes {
		out = append(out, n.UIDs...)
	}
	for _, e := range sc.Edges {
		out = append(out, e.Endpoints...)
	}
	return out
}

// aimedOp draws one write at an edge of the step (its arguments a) or of
// the scope it recorded (sc, may be nil): an event at a named time or one
// µs either side, between a named uid (or one no list names) and any; a
// correction of an edge's props to values on either side of a named
// comparison, over its whole valid time (a props-only write); a node
// version or a retraction at a named time; or a write on the recorded
// scope's own edges (boundaryOp).
func aimedOp(rng *rand.Rand, m *bt.MemStore, sc *ops.Scope, a argEdges) bt.Op {
	pick := func(l []string) string { return l[rng.IntN(len(l))] }
	times := append(slices.Clone(a.times), scopeTimes(sc)...)
	at := func() bt.Time {
		if len(times) == 0 {
			return bt.Time(rng.IntN(150))
		}
		// Either side of it, or on it (twice as often: an instant has no
		// other inside).
		return max(0, times[rng.IntN(len(times))]+[]bt.Time{-1, 0, 0, 1}[rng.IntN(4)])
	}
	named := append(slices.Clone(a.uids), scopeUIDs(sc)...)
	uid := func() string {
		if len(named) > 0 && rng.IntN(4) > 0 {
			return pick(named)
		}
		return pick(storeUIDs[:6])
	}
	rel := func() string {
		if len(a.rels) > 0 && rng.IntN(4) > 0 {
			return pick(a.rels)
		}
		return pick([]string{"R", "S"})
	}
	// Versions valid at a named time (or one µs either side), mostly:
	// what the step read or just missed.
	near := func(iv bt.Interval) bool {
		for _, t := range times {
			if iv.Start <= t+1 && t-1 < iv.End {
				return true
			}
		}
		return false
	}
	// Edge versions: those the recorded scope reads (whose props a
	// props-free part says do not matter), those at a named time, or any.
	var believed, atNamed, read []bt.EdgeVersion
	for _, v := range m.Edges {
		if v.TTe != bt.OpenEnd {
			continue
		}
		believed = append(believed, v)
		if len(a.rels) > 0 && !slices.Contains(a.rels, v.Key.RelType) {
			continue
		}
		if near(v.Valid) {
			atNamed = append(atNamed, v)
		}
		if sc != nil && sc.MeetsEdge(v.Key, engine.EID(v.Key), v.Valid, false) {
			read = append(read, v)
		}
	}
	switch r := rng.IntN(4); {
	case r < 2 && len(read) > 0:
		believed = read
	case r < 3 && len(atNamed) > 0:
		believed = atNamed
	}
	var nodes []bt.NodeVersion
	for _, v := range m.Nodes {
		if v.TTe == bt.OpenEnd && (near(v.Valid) || rng.IntN(4) == 0) {
			nodes = append(nodes, v)
		}
	}
	switch k := rng.IntN(10); {
	case k < 4:
		ev := bt.Event{Src: uid(), Dst: pick(storeUIDs[:6]), RelType: rel(), VtS: at()}
		if rng.IntN(2) == 0 {
			ev.Src, ev.Dst = ev.Dst, ev.Src
		}
		if rng.IntN(3) == 0 {
			// Valid until another named time: across [t1, t2], a window.
			if end := at() + 1; end > ev.VtS+1 {
				ev.VtE = end
			}
		}
		return bt.Ingest([]bt.Event{ev}, "")
	case k < 6 && len(believed) > 0:
		v := believed[rng.IntN(len(believed))]
		return bt.Correct(bt.EdgeRef(v.Key), propsAround(rng, a.props, v.Props), v.Valid)
	case k < 7 && len(nodes) > 0 && rng.IntN(2) == 0:
		v := nodes[rng.IntN(len(nodes))]
		if rng.IntN(3) == 0 {
			return bt.Retract(bt.NodeRef(v.UID), max(v.Valid.Start, at()))
		}
		return bt.Correct(bt.NodeRef(v.UID), propsAround(rng, a.props, v.Props), v.Valid)
	case k < 7:
		t := at()
		props := bt.Props(`{"name":"Edge"}`)
		switch r := rng.IntN(3); {
		case r == 0 && len(a.names) > 0:
			props = bt.Props(fmt.Sprintf(`{"name":%q}`, pick(a.names)))
		case r == 1:
			props = propsAround(rng, a.props, "")
		}
		return bt.AssertNode(uid(), pick([]string{"Person", "Org"}), props, bt.Interval{Start: t, End: t + 1 + bt.Time(rng.IntN(2))*bt.Time(rng.IntN(100))})
	case k < 8 && len(believed) > 0:
		v := believed[rng.IntN(len(believed))]
		return bt.Retract(bt.EdgeRef(v.Key), max(v.Valid.Start, at()))
	}
	if sc == nil {
		return bt.Ingest([]bt.Event{{Src: uid(), Dst: uid(), RelType: rel(), VtS: at()}}, "")
	}
	return boundaryOp(rng, m, sc)
}

// propsAround draws props on either side of a named comparison: the
// value, one either side, half a unit below, or the prop missing; two in
// three times one on the other side of it from cur (the props now).
func propsAround(rng *rand.Rand, named []propEdge, cur bt.Props) bt.Props {
	if len(named) == 0 {
		return []bt.Props{`{"w":0}`, `{"w":1}`, `{"w":2}`, `{"w":2.5}`, `{"w":14}`, ""}[rng.IntN(6)]
	}
	p := named[rng.IntN(len(named))]
	v := p.value
	if !p.hasValue {
		v = float64(rng.IntN(4))
	}
	var cands []bt.Props
	for _, d := range []float64{-1, -0.5, 0, 1} {
		cands = append(cands, bt.Props(fmt.Sprintf(`{%q:%v}`, p.prop, v+d)))
	}
	cands = append(cands, `{"other":1}`)
	if rng.IntN(3) > 0 {
		was := satisfies(p, cur)
		var flip []bt.Props
		for _, c := range cands {
			if satisfies(p, c) != was {
				flip = append(flip, c)
			}
		}
		if len(flip) > 0 {
			cands = flip
		}
	}
	return cands[rng.IntN(len(cands))]
}

// satisfies evaluates a comparison on props (a missing or non-numeric
// value satisfies only "ne"; a prop aggregate's edge is "exists").
func satisfies(p propEdge, props bt.Props) bool {
	var x float64
	ok := false
	if props != "" {
		if m, err := canon.ParseString(string(props)); err == nil {
			if obj, isObj := m.(map[string]any); isObj {
				switch n := obj[p.prop].(type) {
				case int64:
					x, ok = float64(n), true
				case float64:
					x, ok = n, true
				case nil:
				default:
					if p.cmp == "exists" {
						return true
					}
				}
			}
		}
	}
	if !ok {
		return p.cmp == "ne"
	}
	switch p.cmp {
	case "eq":
		return x == p.value
	case "ne":
		return x != p.value
	case "lt":
		return x < p.value
	case "le":
		return x <= p.value
	case "gt":
		return x > p.value
	case "ge":
		return x >= p.value
	}
	return true
}

// ignoredBy tells, from the scope's own rules and without writing it,
// whether sc would ignore op on store m: the versions op touches (their
// valid hull before and after it), whether it keeps their valid intervals,
// and the uids it registers. It errs on the side of "met", so a write it
// calls ignored lies just outside the scope's edges.
func ignoredBy(sc *ops.Scope, m *bt.MemStore, op bt.Op) bool {
	if sc == nil || sc.All {
		return false
	}
	known := func(uid string) bool { return slices.Contains(m.UIDs, uid) }
	edgeHull := func(k bt.EdgeKey, iv bt.Interval) bt.Interval {
		for _, v := range m.Edges {
			if v.Key == k && v.TTe == bt.OpenEnd {
				iv = hull(iv, v.Valid)
			}
		}
		return iv
	}
	nodeHull := func(uid string, iv bt.Interval) bt.Interval {
		for _, v := range m.Nodes {
			if v.UID == uid && v.TTe == bt.OpenEnd {
				iv = hull(iv, v.Valid)
			}
		}
		return iv
	}
	nodeMet := func(uid string, iv bt.Interval) bool {
		return sc.MeetsNode(uid, nodeHull(uid, iv)) || !known(uid) && sc.MeetsRegistration(uid)
	}
	switch op.Kind {
	case bt.OpIngest:
		for _, ev := range op.Events {
			k := bt.EdgeKey{Src: ev.Src, Dst: ev.Dst, RelType: ev.RelType, Disc: ev.Disc}
			// An ingest writes a node only for a uid not yet known (valid
			// from the event on).
			created := func(uid string) bool {
				return !known(uid) && (sc.MeetsRegistration(uid) || sc.MeetsNode(uid, bt.Interval{Start: ev.VtS, End: bt.OpenEnd}))
			}
			if sc.MeetsEdge(k, engine.EID(k), edgeHull(k, ev.Valid()), false) || created(ev.Src) || created(ev.Dst) {
				return false
			}
		}
		return true
	case bt.OpAssertNode:
		return !nodeMet(op.UID, op.Valid)
	case bt.OpAssertEdge:
		k := op.Edge
		return !sc.MeetsEdge(k, engine.EID(k), edgeHull(k, op.Valid), false) && !nodeMet(k.Src, op.Valid) && !nodeMet(k.Dst, op.Valid)
	}
	// Retract and correct name a ref.
	if op.Ref.Kind == bt.RefNode {
		return !nodeMet(op.Ref.UID, bt.Always)
	}
	k := op.Ref.Edge
	h := edgeHull(k, op.Valid)
	if op.Moves() {
		h = hull(h, op.To)
	}
	propsOnly := op.Kind == bt.OpCorrect && !op.Moves() && h == edgeHull(k, bt.Interval{Start: h.Start, End: h.Start + 1}) && coversVersions(m, k, op.Valid)
	if op.Kind == bt.OpRetract {
		h = edgeHull(k, bt.Interval{Start: op.At, End: op.At + 1})
	}
	return !sc.MeetsEdge(k, engine.EID(k), h, propsOnly)
}

// coversVersions reports whether iv is exactly the valid interval of a
// believed version of k (a correction over it keeps the intervals).
func coversVersions(m *bt.MemStore, k bt.EdgeKey, iv bt.Interval) bool {
	for _, v := range m.Edges {
		if v.Key == k && v.TTe == bt.OpenEnd && v.Valid == iv {
			return true
		}
	}
	return false
}

func hull(a, b bt.Interval) bt.Interval {
	return bt.Interval{Start: min(a.Start, b.Start), End: max(a.End, b.End)}
}

// outsideOp draws aimed writes until one the recorded scope ignores (at
// most tries draws; the last one otherwise): the writes that could show
// the scope too narrow.
func outsideOp(rng *rand.Rand, m *bt.MemStore, sc *ops.Scope, a argEdges, tries int) bt.Op {
	var op bt.Op
	for range tries {
		if op = aimedOp(rng, m, sc, a); ignoredBy(sc, m, op) {
			break
		}
	}
	return op
}

// outsideBatch is one to four writes the recorded scope ignores, each
// drawn by outsideOp (a draw it would meet is left out): together they
// change more of what an unsound scope drops, and none of what a sound
// one does.
func outsideBatch(rng *rand.Rand, m *bt.MemStore, sc *ops.Scope, a argEdges) []bt.Op {
	var out []bt.Op
	for range 1 + rng.IntN(4) {
		if op := outsideOp(rng, m, sc, a, 40); ignoredBy(sc, m, op) || len(out) == 0 {
			out = append(out, op)
		}
	}
	return out
}
