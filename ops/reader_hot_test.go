package ops_test

import (
	"context"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
)

// opaqueReader hides the in-memory engine behind the Reader interface, as
// any other backend's reader would be: the kernels then take their
// interface path.
type opaqueReader struct{ ops.Reader }

// opaqueBackend runs operators on the in-memory engine through an
// opaqueReader.
type opaqueBackend struct{ e *engine.Store }

func (b opaqueBackend) Pin(asOf bt.Time, fn func(ops.Pinned) error) error {
	return fn(opaquePinned{opaqueReader{ops.Native{Reader: b.e.Reader(asOf)}}})
}

type opaquePinned struct{ r opaqueReader }

func (p opaquePinned) AsOf() bt.Time         { return p.r.AsOf() }
func (p opaquePinned) Counts() engine.Counts { return p.r.Counts() }
func (p opaquePinned) Reader() ops.Reader    { return p.r }
func (p opaquePinned) Run(spec *ops.Spec, c *ops.Call) (map[string]any, error) {
	return spec.Run(c)
}

// TestTraversalKernelsReaderPaths runs the traversal kernels on the
// in-memory engine read directly and through the Reader interface: every
// direction, both kernels without a wait cap, and with one, must give the
// same envelopes.
func TestTraversalKernelsReaderPaths(t *testing.T) {
	e := engine.New()
	m, err := datasets.Synthesize(datasets.SynthConfig{Events: 20_000, Seed: 3}, func(chunk []bt.Event) error {
		eff, err := bt.Plan(e, bt.Time(e.Batches()+1), e.Batches()+1, []bt.Op{bt.Ingest(chunk, "Node")})
		if err != nil {
			return err
		}
		return e.Apply(eff)
	})
	if err != nil {
		t.Fatal(err)
	}
	span := m.VtMax - m.VtMin
	win := map[string]any{"t_a": m.VtMin + span/4, "t_b": m.VtMin + span/2}
	ctx := context.Background()
	checked := 0
	for _, kernel := range []string{"settle", "pass", ""} {
		restore := ops.SetReachKernelForTest(kernel)
		for _, dir := range []string{"out", "in", "both"} {
			for _, extra := range []map[string]any{nil, {"delta_max_wait": span / 200}} {
				for _, src := range []string{"n0", "n7", "n123"} {
					args := map[string]any{"src": src, "window": win, "direction": dir}
					for k, v := range extra {
						args[k] = v
					}
					nat, err := ops.Execute(ctx, storeSource{e}, "temporal_reachability", args)
					if err != nil {
						t.Fatalf("%s %v: %v", kernel, args, err)
					}
					opq, err := ops.ExecuteOn(ctx, opaqueBackend{e}, "temporal_reachability", args, ops.ExecOptions{})
					if err != nil {
						t.Fatalf("%s %v (interface): %v", kernel, args, err)
					}
					if nat.ResultDigest != opq.ResultDigest {
						t.Errorf("kernel %q %v: native digest %s, interface %s", kernel, args, nat.ResultDigest, opq.ResultDigest)
					}
					if n, _ := nat.Result["rows_total"].(int64); n > 0 {
						checked++
					}
				}
			}
		}
		restore()
	}
	if checked < 20 {
		t.Fatalf("only %d of the calls reached anything: the comparison proves little", checked)
	}
}
