package ops_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

var patTestVars = []string{"u", "v", "w", "x", "y", "z"}

// patGenHops draws 1-4 hops over few variables, mostly connected (chains,
// cycles, reverse edges), with rel_type, where and pick now and then.
func patGenHops(rng *rand.Rand) []any {
	n := 1 + rng.IntN(3)
	if rng.IntN(10) == 0 {
		n = 4
	}
	used := []string{}
	fresh := func() string {
		for _, v := range patTestVars {
			if !contains(used, v) {
				used = append(used, v)
				return v
			}
		}
		return patTestVars[0]
	}
	var hops []any
	for i := range n {
		var s, d string
		switch {
		case i == 0:
			s, d = fresh(), fresh()
		case rng.IntN(12) == 0:
			s, d = fresh(), fresh() // an unconnected hop
		default:
			s = used[rng.IntN(len(used))]
			if rng.IntN(2) == 0 || len(used) == 1 {
				d = fresh()
			} else {
				d = used[rng.IntN(len(used))]
			}
			if d == s {
				d = fresh()
			}
			if rng.IntN(2) == 0 {
				s, d = d, s
			}
		}
		if rng.IntN(60) == 0 {
			d = s // refused: a self-loop hop
		}
		h := map[string]any{"src": s, "dst": d}
		if rng.IntN(5) == 0 {
			h["rel_type"] = []string{"R", "S", "R", "T"}[rng.IntN(4)]
		}
		if rng.IntN(6) == 0 {
			h["where"] = patGenWhere(rng)
		}
		if (i > 0 && rng.IntN(4) == 0) || (i == 0 && rng.IntN(60) == 0) {
			h["pick"] = "first"
		} else if rng.IntN(10) == 0 {
			h["pick"] = "all"
		}
		hops = append(hops, h)
	}
	return hops
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func patGenWhere(rng *rand.Rand) []any {
	var out []any
	for range 1 + rng.IntN(2) {
		cmp := []string{"eq", "ne", "lt", "le", "gt", "ge", "exists"}[rng.IntN(7)]
		p := map[string]any{"prop": "w", "cmp": cmp}
		switch rng.IntN(12) {
		case 0:
			p["prop"], p["value"] = "name", []any{"Bob", "alice b", "B"}[rng.IntN(3)]
		case 1:
			p["value"] = rng.IntN(2) == 0 // a boolean: refused with an order comparison
		case 2:
			p["value"] = nil // refused unless the schema already refuses it
		default:
			p["value"] = []any{int64(0), int64(1), int64(2), 2.5, int64(3), 1.0}[rng.IntN(6)]
		}
		if cmp == "exists" && rng.IntN(4) != 0 {
			delete(p, "value")
		}
		if cmp != "exists" && rng.IntN(40) == 0 {
			delete(p, "value")
		}
		out = append(out, p)
	}
	return out
}

// patGenArgs draws temporal_pattern arguments.
func patGenArgs(rng *rand.Rand, w *world) map[string]any {
	hops := patGenHops(rng)
	args := map[string]any{"window": pickWindow(rng), "hops": hops}
	if rng.IntN(3) > 0 { // wide windows see more events
		args["window"] = map[string]any{"t_a": int64(0), "t_b": int64(150)}
	}
	if rng.IntN(5) == 0 {
		h := hops[rng.IntN(len(hops))].(map[string]any)
		v := h["src"].(string)
		if rng.IntN(2) == 0 {
			v = h["dst"].(string)
		}
		if rng.IntN(30) == 0 {
			v = "z" // maybe unused: refused
		}
		var l []any
		for range rng.IntN(4) {
			l = append(l, pickUID(rng, w))
		}
		if l == nil {
			l = []any{}
		}
		args["bind"] = map[string]any{v: l}
	}
	switch rng.IntN(4) {
	case 1:
		args["order"] = "strict"
	case 2:
		args["order"] = "any"
	case 3:
		args["order"] = "sequence"
	}
	if rng.IntN(2) == 0 {
		args["within"] = []int64{0, 0, 1, 3, 10, 40}[rng.IntN(6)] // 0: same-time hops only
	}
	if rng.IntN(5) == 0 {
		args["min_gap"] = int64(rng.IntN(8))
	}
	if rng.IntN(4) == 0 {
		args["span"] = int64(rng.IntN(60))
	}
	if rng.IntN(8) == 0 {
		args["same_day"] = map[string]any{"utc_offset_minutes": int64(rng.IntN(3) - 1)}
	}
	if rng.IntN(5) == 0 {
		args["distinct"] = false
	}
	if rng.IntN(4) == 0 {
		args["output"] = "count"
	}
	if rng.IntN(3) == 0 {
		args["limit"] = int64(1 + rng.IntN(5))
	}
	return withAsOf(rng, w, args)
}

func init() { argGens["temporal_pattern"] = patGenArgs }

func patCall(t testing.TB, e *engine.Store, args map[string]any) map[string]any {
	t.Helper()
	env, err := ops.ExecuteWith(context.Background(), storeSource{e}, "temporal_pattern", args, ops.ExecOptions{Whole: true})
	if err != nil {
		t.Fatalf("temporal_pattern(%v): %v", args, err)
	}
	return env.Result
}

// TestTemporalPatternInformative: the oracle harness counts a case as
// non-empty when the window has events (n_events_in_window); this checks
// that the generator's patterns match something often enough, with
// same-time hops among them, on stores with corrections and retractions.
func TestTemporalPatternInformative(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 13))
	ran, matched, tied := 0, 0, 0
	for range 300 {
		m, e := build(t, oracle.RandomHistory(rng, 2+rng.IntN(10)))
		args := patGenArgs(rng, newWorld(rng, m))
		a := clone(args)
		a["limit"] = int64(10_000)
		env, err := ops.Execute(context.Background(), storeSource{e}, "temporal_pattern", a)
		if err != nil {
			continue
		}
		ran++
		if env.Result["count"].(int64) > 0 {
			matched++
		}
		for _, r := range env.Result["rows"].([]any) {
			hops := r.(map[string]any)["hops"].([]any)
			if patTied(hops) {
				tied++
				break
			}
		}
	}
	t.Logf("%d cases ran, %d matched an instance, %d listed an instance with two hops at one time", ran, matched, tied)
	if matched < ran/4 || tied < 4 {
		t.Fatalf("too few informative cases: %d of %d matched, %d with ties", matched, ran, tied)
	}
}

// patErrCode runs a call and returns its refusal code ("" when it ran).
func patErrCode(e *engine.Store, args map[string]any) string {
	_, err := ops.Execute(context.Background(), storeSource{e}, "temporal_pattern", args)
	if err == nil {
		return ""
	}
	if oe, ok := err.(*ops.Error); ok {
		return oe.Code + " " + fmt.Sprint(oe.Details["path"])
	}
	return err.Error()
}

// patTied reports whether two hops of an instance share an event time.
func patTied(hops []any) bool {
	seen := map[any]bool{}
	for _, h := range hops {
		t := h.(map[string]any)["t"]
		if seen[t] {
			return true
		}
		seen[t] = true
	}
	return false
}
