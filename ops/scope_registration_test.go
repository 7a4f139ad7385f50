package ops_test

import (
	"context"
	"math/rand/v2"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/fresh"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

// registrationCases is the number of seeds tried per operator.
const registrationCases = 40

// TestFreshAfterRegistration pins the registration side of every scope
// rule, independently of the rule: each operator is called with every
// uid argument naming a uid the store does not know yet, then a batch
// registers that uid by an event far from every interval any call reads
// (so only its registration can meet the scope). Whenever re-executing
// the plan gives another status or result, the freshness check must not
// call the trace FRESH. Unlike the random property, the later batch is
// not drawn from the scope the rule recorded, so a rule that forgets a
// looked-up uid (its Known) is caught.
func TestFreshAfterRegistration(t *testing.T) {
	const newcomer = "newcomer"
	ctx := context.Background()
	changed := map[string]int{}
	for _, op := range ops.Names() {
		for seed := range uint64(registrationCases) {
			rng := rand.New(rand.NewPCG(seed, 0x4e6577))
			w := &twin{m: bt.NewMemStore(), e: engine.New()}
			for _, b := range oracle.RandomHistory(rng, 1+rng.IntN(6)) {
				if _, err := w.write(b.TT, b.Ops); err != nil {
					t.Fatal(err)
				}
			}
			world := newWorld(rng, w.m)
			world.UIDs = []string{newcomer} // every uid argument names it
			pl, ok := randomPlan(rng, world, op, nil, false)
			if !ok {
				continue
			}
			src := memSource{w.e}
			tr := exec.Run(ctx, src, pl, exec.Options{Sequential: true})
			ix := fresh.NewIndex(fresh.Since(tr))
			prev, tt := w.e.LastTT(), w.e.LastTT()+10
			batch := []bt.Op{bt.Ingest([]bt.Event{{Src: newcomer, Dst: "a", RelType: "R", VtS: bt.Time(1_000_000 + rng.IntN(100))}}, "")}
			written, err := w.write(tt, batch)
			if err != nil {
				t.Fatal(err)
			}
			if !written {
				t.Fatalf("%s seed %d: the registering batch was refused", op, seed)
			}
			if err := ix.Add(src, fresh.Batch{TT: tt, Seq: w.e.Batches(), Ops: batch}, prev); err != nil {
				t.Fatal(err)
			}
			rep := ix.Check(tr, fresh.Options{})
			again := exec.Run(ctx, src, pl, exec.Options{Sequential: true})
			for i := range tr.Steps {
				a, b := &tr.Steps[i], &again.Steps[i]
				if a.Status == b.Status && a.ResultDigest == b.ResultDigest {
					continue
				}
				changed[op]++
				if rep.Fresh {
					t.Errorf("%s seed %d: called FRESH, but registering %q changed step %s (%s) from %s to %s\nplan %s",
						op, seed, newcomer, a.StepID, a.Op, a.Status, b.Status, planText(pl))
				}
				break
			}
		}
	}
	// The test has power only where registration changes outcomes: the
	// operators that look a uid up must show such cases.
	for _, op := range []string{"temporal_reachability", "entity_history"} {
		if changed[op] == 0 {
			t.Errorf("%s: registering a looked-up uid never changed a result in %d cases: the test has no power there", op, registrationCases)
		}
	}
	t.Logf("cases whose result registration changed, per operator: %v", changed)
}
