package ops_test

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

func init() {
	argGens["longest_temporal_path"] = func(rng *rand.Rand, w *world) map[string]any {
		args := map[string]any{"window": pickWindow(rng)}
		if rng.IntN(2) == 0 {
			args["window"] = map[string]any{"t_a": int64(rng.IntN(40)), "t_b": int64(60 + rng.IntN(100))}
		}
		switch rng.IntN(3) {
		case 0:
			args["src"] = pickUID(rng, w)
		case 1:
			if e, ok := pickEdge(rng, w); ok { // aim at an event: a chain starts there
				args["src"], args["window"] = e.Key.Src, windowAround(rng, e.Valid.Start, 60)
			}
		}
		if rng.IntN(2) == 0 {
			args["delta_max_wait"] = int64(1 + rng.IntN(30))
		}
		if rng.IntN(40) == 0 {
			args["delta_max_wait"] = int64(0) // schema error
		}
		if rng.IntN(40) == 0 {
			args["window"] = map[string]any{"t_a": int64(9), "t_b": int64(3)} // invalid window
		}
		return withAsOf(rng, w, args)
	}
}

func longestCall(t *testing.T, e *engine.Store, args map[string]any) map[string]any {
	t.Helper()
	env, err := ops.Execute(context.Background(), storeSource{e}, "longest_temporal_path", clone(args))
	if err != nil {
		t.Fatalf("longest_temporal_path(%v): %v", args, err)
	}
	return env.Result
}

// TestLongestTemporalPathInformative: the oracle harness's cases include
// chains of several events, ties between longest chains (more than one
// start), and wait caps that cut a chain.
func TestLongestTemporalPathInformative(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 7))
	gen := argGens["longest_temporal_path"]
	long, tied, capped := 0, 0, 0
	for range casesPerOp() {
		m, e := build(t, oracle.RandomHistory(rng, 2+rng.IntN(10)))
		args := gen(rng, newWorld(rng, m))
		if _, _, err := ops.Prepare("longest_temporal_path", clone(args)); err != nil {
			continue
		}
		env, err := ops.Execute(context.Background(), storeSource{e}, "longest_temporal_path", clone(args))
		if err != nil {
			continue
		}
		r := env.Result
		if r["length"].(int64) >= 3 {
			long++
		}
		if r["starts"].(int64) >= 2 {
			tied++
		}
		if args["delta_max_wait"] != nil {
			free := clone(args)
			delete(free, "delta_max_wait")
			if longestCall(t, e, free)["length"].(int64) > r["length"].(int64) {
				capped++
			}
		}
	}
	t.Logf("chains of >= 3 events %d, tied starts %d, cut by the wait cap %d", long, tied, capped)
	if n := casesPerOp() / 20; long < n || tied < n || capped < n {
		t.Fatalf("too few informative cases (floor %d each)", n)
	}
}

// TestLongestTemporalPathMetamorphic: widening the window, lifting the
// wait cap, dropping src, or adding an event never shortens the longest
// chain; the witness is a chain of the stated length.
func TestLongestTemporalPathMetamorphic(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 5))
	for i := range 300 {
		hist := oracle.RandomHistory(rng, 2+rng.IntN(10))
		m, e := build(t, hist)
		w := newWorld(rng, m)
		win := pickWindow(rng)
		args := map[string]any{"window": win}
		if rng.IntN(2) == 0 && len(w.UIDs) > 0 {
			args["src"] = w.UIDs[rng.IntN(len(w.UIDs))]
		}
		delta := int64(1 + rng.IntN(30))
		args["delta_max_wait"] = delta
		base := longestCall(t, e, args)
		n := base["length"].(int64)
		chain := base["chain"].([]any)
		if int64(len(chain)) != n {
			t.Fatalf("case %d: length %d, witness of %d", i, n, len(chain))
		}
		for j := 1; j < len(chain); j++ {
			a, b := chain[j-1].(map[string]any), chain[j].(map[string]any)
			if a["dst"] != b["src"] || b["t"].(int64) <= a["t"].(int64) || b["t"].(int64)-a["t"].(int64) > delta {
				t.Fatalf("case %d: witness step %d breaks the chain rule: %v then %v", i, j, a, b)
			}
		}
		grow := func(what string, a map[string]any, on *engine.Store) {
			if got := longestCall(t, on, a)["length"].(int64); got < n {
				t.Fatalf("case %d: %s shortened the longest chain from %d to %d (%v)", i, what, n, got, a)
			}
		}
		wider := clone(args)
		wider["window"] = map[string]any{"t_a": max(0, win["t_a"].(int64)-int64(rng.IntN(20))), "t_b": win["t_b"].(int64) + int64(rng.IntN(20))}
		grow("widening the window", wider, e)
		looser := clone(args)
		looser["delta_max_wait"] = delta + int64(rng.IntN(30))
		grow("a larger wait cap", looser, e)
		if _, ok := args["src"]; ok {
			anywhere := clone(args)
			delete(anywhere, "src")
			grow("dropping src", anywhere, e)
		}
		// one more event between two random nodes, in a later batch
		if len(w.UIDs) > 0 {
			last := hist[len(hist)-1].TT
			ev := bt.Event{Src: w.UIDs[rng.IntN(len(w.UIDs))], Dst: w.UIDs[rng.IntN(len(w.UIDs))], RelType: "R",
				VtS: win["t_a"].(int64) + int64(rng.IntN(int(win["t_b"].(int64)-win["t_a"].(int64))))}
			_, e2 := build(t, append(slices.Clone(hist), oracle.Batch{TT: last + 10, Ops: []bt.Op{bt.Ingest([]bt.Event{ev}, "Node")}}))
			grow("adding an event", args, e2)
		}
	}
}

// "What is the longest chain of CollegeMsg messages in which each one is
// sent by the previous one's recipient within an hour of it?", checked
// against a quadratic brute force over the file.
func TestLongestTemporalPathCollegeMsg(t *testing.T) {
	raw := readSNAP(t, "CollegeMsg.txt.gz", false)
	e := snapStore(t, "collegemsg")
	const hour = int64(3_600_000_000)
	evs := slices.DeleteFunc(slices.Clone(raw), func(x snapEvent) bool { return x.src == x.dst })
	slices.SortStableFunc(evs, func(a, b snapEvent) int { return cmp.Compare(a.t, b.t) })
	// back[i]: the longest chain starting with message i, trying every
	// later message within the hour
	back := make([]int64, len(evs))
	var length, starts int64
	for i := len(evs) - 1; i >= 0; i-- {
		back[i] = 1
		for j := i + 1; j < len(evs) && evs[j].t <= evs[i].t+hour; j++ {
			if evs[j].t > evs[i].t && evs[j].src == evs[i].dst {
				back[i] = max(back[i], back[j]+1)
			}
		}
	}
	for _, b := range back {
		length = max(length, b)
	}
	for _, b := range back {
		if b == length {
			starts++
		}
	}
	lo, hi := evs[0].t, evs[len(evs)-1].t+1
	res := longestCall(t, e, map[string]any{"window": map[string]any{"t_a": lo, "t_b": hi}, "delta_max_wait": hour})
	t.Logf("CollegeMsg, one hour: length %v (brute force %d), starts %v (%d), ends %v, departure %v, arrival %v",
		res["length"], length, res["starts"], starts, res["ends"], res["departure"], res["arrival"])
	if res["length"] != length || res["starts"] != starts {
		t.Fatalf("length %v starts %v, brute force %d and %d", res["length"], res["starts"], length, starts)
	}
	// the witness is made of messages in the file, chained by the rule
	inFile := map[snapEvent]int{}
	for _, x := range evs {
		inFile[snapEvent{src: x.src, dst: x.dst, t: x.t}]++
	}
	chain := res["chain"].([]any)
	for j, c := range chain {
		c := c.(map[string]any)
		if inFile[snapEvent{src: c["src"].(string), dst: c["dst"].(string), t: c["t"].(int64)}] == 0 {
			t.Fatalf("witness step %d %v is not a message in the file", j, c)
		}
		if j > 0 {
			p := chain[j-1].(map[string]any)
			if p["dst"] != c["src"] || c["t"].(int64) <= p["t"].(int64) || c["t"].(int64)-p["t"].(int64) > hour {
				t.Fatalf("witness step %d breaks the rule: %v then %v", j, p, c)
			}
		}
	}
}

// BenchmarkLongestTemporalPath1M: the longest chain over the 1M-event
// synthetic store's whole extent, from anywhere, with and without a wait
// cap of an hour.
func BenchmarkLongestTemporalPath1M(b *testing.B) {
	const hour = int64(3_600_000_000)
	win := map[string]any{"t_a": int64(0), "t_b": int64(1) << 62}
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"unbounded", map[string]any{"window": win}},
		{"wait_1h", map[string]any{"window": win, "delta_max_wait": hour}},
	} {
		b.Run(c.name, func(b *testing.B) {
			res := benchOp(b, "longest_temporal_path", c.args)
			b.ReportMetric(float64(res["length"].(int64)), "length")
		})
	}
}
