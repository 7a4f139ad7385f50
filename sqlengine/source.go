package sqlengine

import (
	"errors"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
)

// ErrNoReadModel is what Read answers: the SQL engine builds no in-memory
// engine, so whatever needs one (an operator without SQL, an ask, a
// trace's re-execution) runs without --engine sql.
var ErrNoReadModel = errors.New("sql engine: this needs the in-memory read model, which --engine sql does not build: run it without --engine sql")

// Read refuses: an Engine is an exec.Source only for its last belief time
// (LastTT), with its steps run through it as the Backend.
func (e *Engine) Read(bt.Time, func(engine.Reader) error) error { return ErrNoReadModel }

// Stats are the store's sizes and extent, its batch count and last batch,
// read in one snapshot (without the relation types: they would need a
// scan of every edge version).
func (e *Engine) Stats() engine.Stats {
	var st engine.Stats
	_ = e.Pin(bt.OpenEnd, func(p ops.Pinned) error {
		c := p.Counts()
		st = engine.Stats{Nodes: c.Nodes, NodeVersions: c.NodeVersions, EdgeVersions: c.EdgeVersions, VtMin: c.VtMin, VtMax: c.VtMax, LastTT: p.AsOf(), RelTypes: []string{}}
		pp := p.(*pinned)
		var n int64
		if err := pp.tx.QueryRow(ctx0, "SELECT count(*) FROM batches").Scan(&n); err == nil {
			st.Batches = uint64(n)
		}
		return nil
	})
	return st
}

// runCompute is compute: a function over earlier steps' rows, which reads
// no store, so it runs as it does on the in-memory engine.
func runCompute(_ *pinned, c *ops.Call) (map[string]any, error) {
	spec, _ := ops.Lookup("compute")
	return spec.Run(c)
}
