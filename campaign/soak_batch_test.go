package campaign

import (
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
)

// Every soak batch is admitted on the state its predecessors leave, and
// a batch is a function of the seed and its number alone.
func TestSoakBatchesAdmitted(t *testing.T) {
	s := engine.New()
	for k := 1; k <= 2000; k++ {
		eff, err := bt.Plan(s, bt.Time(k), uint64(k), SoakBatch(3, k))
		if err != nil {
			t.Fatalf("batch %d refused: %v", k, err)
		}
		if err := s.Apply(eff); err != nil {
			t.Fatalf("batch %d: %v", k, err)
		}
	}
	a, _ := bt.EncodeOp(SoakBatch(3, 77)[1])
	b, _ := bt.EncodeOp(SoakBatch(3, 77)[1])
	c, _ := bt.EncodeOp(SoakBatch(4, 77)[1])
	if string(a) != string(b) || string(a) == string(c) {
		t.Fatalf("batch 77: seed 3 twice %s / %s, seed 4 %s", a, b, c)
	}
}
