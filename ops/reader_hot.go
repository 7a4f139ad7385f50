package ops

import (
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
)

// hotReader is the few reads a traversal kernel makes per edge (Valid,
// Src, Dst) and per node (Out, In). On the in-memory engine (a Native
// Reader) they are calls on the concrete engine.Reader, which inline into
// the kernel's loop; on any other Reader they go through the interface.
// The branch is the same every call, so it costs next to nothing, while
// an interface call per edge read kept the engine's column reads from
// inlining (about a tenth of the time of a label-setting search).
type hotReader struct {
	nat    engine.Reader
	native bool
	r      Reader
}

// hot returns r's hot reads, direct when r is the in-memory engine.
func hot(r Reader) hotReader {
	if n, ok := r.(Native); ok {
		return hotReader{nat: n.Reader, native: true, r: r}
	}
	return hotReader{r: r}
}

// Valid is the valid interval of edge version v.
func (h *hotReader) Valid(v uint32) bt.Interval {
	if h.native {
		return h.nat.Valid(v)
	}
	return h.r.Valid(v)
}

// Src is the dense source id of edge version v.
func (h *hotReader) Src(v uint32) uint32 {
	if h.native {
		return h.nat.Src(v)
	}
	return h.r.Src(v)
}

// Dst is the dense destination id of edge version v.
func (h *hotReader) Dst(v uint32) uint32 {
	if h.native {
		return h.nat.Dst(v)
	}
	return h.r.Dst(v)
}

// Out is node id's believed out-edge versions, by (vt_s, id).
func (h *hotReader) Out(id uint32) []uint32 {
	if h.native {
		return h.nat.Out(id)
	}
	return h.r.Out(id)
}

// In is node id's believed in-edge versions, by (vt_s, id).
func (h *hotReader) In(id uint32) []uint32 {
	if h.native {
		return h.nat.In(id)
	}
	return h.r.In(id)
}

// NumNodes is the number of dense node ids.
func (h *hotReader) NumNodes() int { return h.r.NumNodes() }
