package agent_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/agent"
	bt "github.com/tgms-go/tgms/bitemporal"
)

// Every motif instance includes as many nodes as the motif has, so the
// instances "involving" each node, summed over the nodes, are that many
// times the whole count (computed by count_temporal_motifs, a separate
// operator): the oracle for the reader's involving plans.
func TestMotifInvolvingSumsToTheCount(t *testing.T) {
	db, err := tgms.Open(t.TempDir(), &tgms.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rng := rand.New(rand.NewPCG(3, 9))
	const nodes, hour = 7, int64(3_600_000_000)
	var evs []bt.Event
	for range 260 {
		s, d := rng.IntN(nodes), rng.IntN(nodes)
		if s == d {
			continue
		}
		at := rng.Int64N(40 * hour)
		evs = append(evs, bt.Event{Src: fmt.Sprintf("n%d", s), Dst: fmt.Sprintf("n%d", d), RelType: "MSG", VtS: at, VtE: at + 1})
	}
	if _, err := db.Write(bt.Ingest(evs, "Node")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	count := func(q string, uids ...string) int64 {
		t.Helper()
		res, err := agent.Ask(ctx, db, agent.Question{Text: q, UIDs: uids}, agent.Options{})
		if err != nil || res.Refusal != "" {
			t.Fatalf("%q: %v %s", q, err, res.Refusal)
		}
		n, ok := res.Value.(int64)
		if !ok {
			t.Fatalf("%q: value %#v", q, res.Value)
		}
		return n
	}
	win := fmt.Sprintf("from 0 to %d", 40*hour)
	for _, m := range []struct {
		name string
		size int64
	}{{"cyclic triangles", 3}, {"ping-pong exchanges", 2}} {
		total := count(fmt.Sprintf("How many %s completing within 2 hours happened %s?", m.name, win))
		var sum int64
		for i := range nodes {
			u := fmt.Sprintf("n%d", i)
			sum += count(fmt.Sprintf("How many %s within 2 hours involved %s %s?", m.name, u, win), u)
		}
		if total == 0 || sum != m.size*total {
			t.Errorf("%s: the involving counts sum to %d, want %d × %d", m.name, sum, m.size, total)
		}
	}
}
