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

// OutOverlapping appends id's believed out-edge versions whose valid
// interval overlaps iv, by (vt_s, id); on the engine it leaves the
// versions starting at or after iv.End unread.
func (h *hotReader) OutOverlapping(dst []uint32, id uint32, iv bt.Interval) []uint32 {
	if h.native {
		return h.nat.OutOverlapping(dst, id, iv.Start, iv.End)
	}
	return h.overlapping(dst, h.r.Out(id), iv)
}

// InOverlapping is OutOverlapping over id's in-edge versions.
func (h *hotReader) InOverlapping(dst []uint32, id uint32, iv bt.Interval) []uint32 {
	if h.native {
		return h.nat.InOverlapping(dst, id, iv.Start, iv.End)
	}
	return h.overlapping(dst, h.r.In(id), iv)
}

func (h *hotReader) overlapping(dst, list []uint32, iv bt.Interval) []uint32 {
	for _, v := range list {
		if h.r.Valid(v).Overlaps(iv) {
			dst = append(dst, v)
		}
	}
	return dst
}

// NodeLabelAt is the label of id's believed node version valid at t (the
// earliest-starting one), ok false when none is.
func (h *hotReader) NodeLabelAt(id uint32, t bt.Time) (string, bool) {
	if h.native {
		return h.nat.NodeLabelAt(id, t)
	}
	best := -1
	hist := h.r.NodeHistory(id)
	for i, v := range hist {
		if v.Valid.Contains(t) && (best < 0 || v.Valid.Start < hist[best].Valid.Start) {
			best = i
		}
	}
	if best < 0 {
		return "", false
	}
	return hist[best].Label, true
}

// Degree is the number of id's out- and in-edge versions a walk from id
// may read: every stored one on the engine, the believed ones elsewhere.
func (h *hotReader) Degree(id uint32) int {
	if h.native {
		out, in := h.nat.AdjLen(id)
		return out + in
	}
	return len(h.r.Out(id)) + len(h.r.In(id))
}

// EachNodeHistoryVID calls fn with each of NodeHistoryVIDs(id)'s versions
// and ids, and their count n; on the engine without building the lists.
func (h *hotReader) EachNodeHistoryVID(id uint32, fn func(n int, v *bt.NodeVersion, vid string)) {
	if h.native {
		h.nat.EachNodeHistoryVID(id, fn)
		return
	}
	hist, vids := h.r.NodeHistoryVIDs(id)
	for i := range hist {
		fn(len(hist), &hist[i], vids[i])
	}
}
