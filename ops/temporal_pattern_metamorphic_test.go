package ops_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/oracle"
)

var fullWindow = map[string]any{"t_a": int64(0), "t_b": int64(150)}

// patMotifHops writes a motif of the catalogue as hops, from the
// catalogue's definition (e1 = u→v, row i gives e2, column j gives e3).
func patMotifHops() map[string][]any {
	hop := func(p string) any { return map[string]any{"src": p[:1], "dst": p[1:]} }
	rows := []string{"wv", "vw", "wu", "uw", "vu", "uv"}
	cols := []string{"uv", "vu", "uw", "wu", "vw", "wv"}
	out := map[string][]any{
		"M_star_out_3": {hop("uv"), hop("uw"), hop("ux")},
		"M_path_3":     {hop("uv"), hop("vw"), hop("wx")},
	}
	for i, r := range rows {
		for j, c := range cols {
			out[fmt.Sprintf("M%d%d", i+1, j+1)] = []any{hop("uv"), hop(r), hop(c)}
		}
	}
	return out
}

// A three-hop pattern with the motif's edges, order sequence, span delta
// and distinct variables is the motif: its count equals
// count_temporal_motifs' on the same events (same population, same (t,
// eid) order, same δ rule).
func TestTemporalPatternEqualsMotifCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	motifs := patMotifHops()
	names := slices.Sorted(maps.Keys(motifs))
	nonZero := 0
	for i := range 400 {
		_, e := build(t, oracle.RandomHistory(rng, 4+rng.IntN(10)))
		name := names[i%len(names)]
		delta := int64(1 + rng.IntN(60))
		want := motifCall(t, e, "count_temporal_motifs", map[string]any{"motif": name, "delta": delta, "window": fullWindow})
		got := patCall(t, e, map[string]any{"hops": motifs[name], "span": delta, "window": fullWindow, "output": "count"})
		if got["count"] != want["count"] || got["n_events_in_window"] != want["n_events_in_window"] {
			t.Fatalf("%s delta %d: pattern count %v (events %v), motif count %v (events %v)", name, delta,
				got["count"], got["n_events_in_window"], want["count"], want["n_events_in_window"])
		}
		if want["count"].(int64) > 0 {
			nonZero++
		}
	}
	if nonZero < 100 {
		t.Fatalf("only %d of 400 cases had a motif instance", nonZero)
	}
}

func patKeys(rows []any) map[string]bool {
	out := map[string]bool{}
	for _, r := range rows {
		b, _ := canon.Marshal(r)
		out[string(b)] = true
	}
	return out
}

// pick first keeps a subset of the instances without it; on a hop it
// keeps at most one continuation per binding of the hops before it.
func TestTemporalPatternPickFirstIsSubset(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 17))
	strict := 0
	for range 300 {
		m, e := build(t, oracle.RandomHistory(rng, 2+rng.IntN(10)))
		args := patGenArgs(rng, newWorld(rng, m))
		args["output"] = "instances"
		hops := args["hops"].([]any)
		if len(hops) < 2 {
			continue
		}
		picked, plain := clone(args), clone(args)
		ph, uh := make([]any, len(hops)), make([]any, len(hops))
		k := 1 + rng.IntN(len(hops)-1)
		for i, h := range hops {
			a, b := clone(h.(map[string]any)), clone(h.(map[string]any))
			delete(a, "pick")
			delete(b, "pick")
			if i == k {
				a["pick"] = "first"
			}
			ph[i], uh[i] = a, b
		}
		picked["hops"], plain["hops"] = ph, uh
		if patErrCode(e, picked) != "" || patErrCode(e, plain) != "" {
			continue
		}
		got, all := patCall(t, e, picked)["rows"].([]any), patCall(t, e, plain)["rows"].([]any)
		allKeys := patKeys(all)
		prefixes := map[string]int{}
		for _, r := range got {
			b, _ := canon.Marshal(r)
			if !allKeys[string(b)] {
				t.Fatalf("%v: picked row %s is not an instance without pick", picked, b)
			}
			p, _ := canon.Marshal(r.(map[string]any)["hops"].([]any)[:k])
			prefixes[string(p)]++
			if prefixes[string(p)] > 1 && len(hops) == k+1 {
				t.Fatalf("%v: two instances continue %s at the picked last hop", picked, p)
			}
		}
		if len(got) < len(all) {
			strict++
		}
	}
	if strict < 20 {
		t.Fatalf("pick first removed instances in only %d cases", strict)
	}
}

// A where predicate splits the instances: gt c plus le c on one hop is
// every instance whose hop has a numeric value (ge the least float). The
// hop itself has no pick (pick first on other hops still partitions).
func TestTemporalPatternWhereSplits(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 23))
	split := 0
	for range 600 {
		m, e := build(t, oracle.RandomHistory(rng, 2+rng.IntN(10)))
		args := patGenArgs(rng, newWorld(rng, m))
		args["output"] = "count"
		hops := args["hops"].([]any)
		k := rng.IntN(len(hops))
		c := []any{int64(1), 1.5, int64(2), 2.5}[rng.IntN(4)]
		count := func(cmp string, v any) (int64, bool) {
			a := clone(args)
			hs := make([]any, len(hops))
			for i, h := range hops {
				hs[i] = clone(h.(map[string]any))
			}
			hk := hs[k].(map[string]any)
			hk["where"] = []any{map[string]any{"prop": "w", "cmp": cmp, "value": v}}
			delete(hk, "pick") // the first of a part is not the first of all
			a["hops"] = hs
			if patErrCode(e, a) != "" {
				return 0, false
			}
			return patCall(t, e, a)["count"].(int64), true
		}
		gt, ok1 := count("gt", c)
		le, ok2 := count("le", c)
		num, ok3 := count("ge", -1.7976931348623157e308)
		if !ok1 || !ok2 || !ok3 {
			continue
		}
		if gt+le != num {
			t.Fatalf("%v, hop %d, w vs %v: gt %d + le %d != numeric %d", args, k, c, gt, le, num)
		}
		if gt > 0 && le > 0 {
			split++
		}
	}
	if split < 20 {
		t.Fatalf("only %d cases split into two non-empty parts", split)
	}
}

// The reverse-edge join with order any sees each pair of opposite events
// twice (either may be hop 0), with order sequence once.
func TestTemporalPatternReverseJoinOrders(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 31))
	seen := 0
	hops := []any{map[string]any{"src": "u", "dst": "v"}, map[string]any{"src": "v", "dst": "u"}}
	for range 200 {
		_, e := build(t, oracle.RandomHistory(rng, 2+rng.IntN(10)))
		anyN := patCall(t, e, map[string]any{"hops": hops, "window": fullWindow, "order": "any", "output": "count"})["count"].(int64)
		seqN := patCall(t, e, map[string]any{"hops": hops, "window": fullWindow, "output": "count"})["count"].(int64)
		if anyN != 2*seqN {
			t.Fatalf("reverse join: order any %d, sequence %d", anyN, seqN)
		}
		if seqN > 0 {
			seen++
		}
	}
	if seen < 50 {
		t.Fatalf("only %d stores had a reverse pair", seen)
	}
}
