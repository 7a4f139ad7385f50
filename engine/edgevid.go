package engine

import (
	"sync/atomic"
)

// edgeIDSlots is the number of edge versions whose ids the cache holds:
// a direct-mapped table, at most about 2 MiB when full.
const edgeIDSlots = 1 << 14

// edgeIDCache remembers the ids (EID and VID) of recently read edge
// versions, so that a point query that reads the same edges again copies
// them instead of hashing twice per row. Slot v mod edgeIDSlots holds the
// last version read there; a slot's entry is immutable and swapped whole,
// so readers need no lock. It is derived data, not part of the
// checkpoint: an edge version's key, tt_s and vt_s never change once it
// is stored (erasure empties props, not keys), so a remembered id stays
// right.
type edgeIDCache struct {
	slots atomic.Pointer[[edgeIDSlots]atomic.Pointer[edgeIDEntry]]
}

// edgeIDEntry is one remembered version: its eid then its vid, 24 hex
// digits each.
type edgeIDEntry struct {
	v    uint32
	text string
}

// EdgeIDs returns edge version v's identity id and version id
// (EID(key) and VID(eid, tt_s, vt_s)), remembered when read recently.
func (r Reader) EdgeIDs(v uint32) (eid, vid string) {
	return r.s.edgeIDs(v)
}

func (s *Store) edgeIDs(v uint32) (eid, vid string) {
	tab := s.eids.slots.Load()
	if tab == nil {
		tab = new([edgeIDSlots]atomic.Pointer[edgeIDEntry])
		if !s.eids.slots.CompareAndSwap(nil, tab) {
			tab = s.eids.slots.Load()
		}
	}
	slot := &tab[v%edgeIDSlots]
	if e := slot.Load(); e != nil && e.v == v {
		return e.text[:vidLen], e.text[vidLen:]
	}
	ev := s.EdgeVersion(v)
	eid = EID(ev.Key)
	vid = VID(eid, ev.TTs, ev.Valid.Start)
	e := &edgeIDEntry{v: v, text: eid + vid}
	slot.Store(e)
	return e.text[:vidLen], e.text[vidLen:]
}
