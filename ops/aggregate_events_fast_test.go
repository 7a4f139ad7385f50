package ops

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/engine"
)

type fastSource struct{ s *engine.Store }

func (f fastSource) Read(asOf bt.Time, fn func(engine.Reader) error) error {
	return fn(f.s.Reader(asOf))
}

// fastStore is a synthetic store with corrections and retractions, so
// carved fragments and closed versions take part.
func fastStore(t *testing.T) *engine.Store {
	s := engine.New()
	tt := bt.Time(1)
	apply := func(ops []bt.Op) error {
		eff, err := bt.Plan(s, tt, s.Batches()+1, ops)
		if err != nil {
			return err
		}
		tt++
		return s.Apply(eff)
	}
	var chunks [][]bt.Event
	m, err := datasets.Synthesize(datasets.SynthConfig{Events: 8_000, Seed: 5, Corrections: 0.05}, func(c []bt.Event) error {
		chunks = append(chunks, append([]bt.Event(nil), c...))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chunks {
		if err := apply([]bt.Op{bt.Ingest(c, "Node")}); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range m.Corrections {
		var key bt.EdgeKey
		if c.Node == "" {
			k, ok := s.AutoEdge(1+uint64(c.Event/datasets.SynthChunkSize), c.Event%datasets.SynthChunkSize)
			if !ok {
				t.Fatalf("correction of event %d: no such edge", c.Event)
			}
			key = k
		}
		op, err := c.Op(key)
		if err != nil {
			t.Fatal(err)
		}
		var oe *bt.OpError
		if err := apply([]bt.Op{op}); err != nil && !errors.As(err, &oe) {
			t.Fatal(err)
		}
	}
	return s
}

// On the fast path's shapes, at random windows, strides and belief times,
// the payload digest equals the general kernel's.
func TestAggregateFastPathMatchesKernel(t *testing.T) {
	s := fastStore(t)
	st := s.Stats()
	rng := rand.New(rand.NewPCG(1, 2))
	ctx := context.Background()
	shapes := [][]any{
		{map[string]any{"dim": "rel_type"}, map[string]any{"dim": "time_bucket"}},
		{map[string]any{"dim": "time_bucket"}, map[string]any{"dim": "rel_type"}},
		{map[string]any{"dim": "time_bucket"}},
		{map[string]any{"dim": "rel_type"}},
	}
	aggSets := [][]any{
		{map[string]any{"agg": "count"}, map[string]any{"agg": "count_distinct", "of": "dst"}},
		{map[string]any{"agg": "count_distinct", "of": "src"}},
		{map[string]any{"agg": "count"}},
		{map[string]any{"agg": "count_distinct", "of": "dst"}, map[string]any{"agg": "count_distinct", "of": "src"}, map[string]any{"agg": "count"}},
	}
	span := st.VtMax - st.VtMin
	before := aggFastTaken.Load()
	for i := range 60 {
		ta := st.VtMin + rng.Int64N(span/2) - span/10
		tb := ta + span/5 + rng.Int64N(span)
		var dims []any
		for _, d := range shapes[rng.IntN(len(shapes))] {
			d := clone(d.(map[string]any))
			if d["dim"] == "time_bucket" {
				d["stride"] = (tb-ta)/int64(1+rng.IntN(300)) + 1
			}
			dims = append(dims, d)
		}
		args := map[string]any{"group_by": dims, "aggregates": aggSets[rng.IntN(len(aggSets))],
			"window": map[string]any{"t_a": ta, "t_b": tb}, "limit": int64(10_000)}
		if rng.IntN(3) == 0 {
			args["as_of_tt"] = 1 + rng.Int64N(int64(s.Batches()))
		}
		var digests [2]string
		for k, off := range []bool{false, true} {
			aggFastOff = off
			env, err := Execute(ctx, fastSource{s}, "aggregate_events", clone(args))
			aggFastOff = false
			if err != nil {
				t.Fatalf("call %d (fast off %v): %v", i, off, err)
			}
			digests[k] = env.ResultDigest
		}
		if digests[0] != digests[1] {
			t.Fatalf("call %d %v: fast path digest %s, kernel %s", i, args, digests[0], digests[1])
		}
	}
	if fast := aggFastTaken.Load() - before; fast < 30 {
		t.Fatalf("only %d of 60 calls took the fast path", fast)
	}
}

func clone(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
