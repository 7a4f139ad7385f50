package agent_test

import (
	"testing"

	tgms "github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/agent"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
)

// The card's first transaction time is the first batch's, 0 for an
// empty store.
func TestCardFirstTT(t *testing.T) {
	db, err := tgms.Open(t.TempDir(), &tgms.Options{NoSync: true, Clock: fixedClock(), CheckpointBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if c := agent.CardFor(db); c.FirstTT != 0 {
		t.Fatalf("empty store: first tt %d", c.FirstTT)
	}
	var buf []bt.Event
	if _, err := datasets.Synthesize(datasets.SynthConfig{Events: 300, Seed: 3}, func(chunk []bt.Event) error {
		buf = append(buf, chunk...)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	first, err := db.Ingest(buf[:100], "Node", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Ingest(buf[100:], "Node", nil); err != nil {
		t.Fatal(err)
	}
	c := agent.CardFor(db)
	if c.FirstTT != first.FirstTT || c.FirstTT <= 0 || c.FirstTT >= c.LastTT {
		t.Fatalf("first tt %d, want %d (last tt %d)", c.FirstTT, first.FirstTT, c.LastTT)
	}
}
