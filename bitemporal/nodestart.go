package bitemporal

// A node's first version starts at its earliest event. Bulk ingest gives
// a new endpoint a version valid from its first event in the op; when a
// later batch brings an event from before every version the store
// believes of an endpoint, that start was wrong, and the writer corrects
// it: NodeStartCorrections lists, for the batch just planned, one correct
// op per such endpoint, which the writer puts at the front of the batch
// and plans again. The corrections are ordinary ops in the logged batch,
// so a replay needs no rule of its own, and a batch logged without them
// (by an earlier release) replays as it was written.

// NodeStarter is an optional View method: the earliest valid start among
// the currently believed versions of node id (a NodeIndexer id), and
// whether it has any. Bulk ingest uses it, when the view has it, to see
// cheaply whether an event precedes its endpoint's validity.
type NodeStarter interface {
	NodeStart(id uint32) (Time, bool)
}

// lateStart is an endpoint of the batch believed only from after its
// earliest event in the batch, at.
type lateStart struct {
	uid string
	at  Time
}

// noteStart records uid when all its believed stored versions start after
// first. id is its NodeIndexer id when haveID.
func (p *planner) noteStart(uid string, id uint32, haveID bool, first Time) {
	var start Time
	var ok bool
	if ns, isNS := p.v.(NodeStarter); isNS && haveID {
		start, ok = ns.NodeStart(id)
	} else {
		start, ok = p.storedStart(uid)
	}
	if !ok || start <= first {
		return
	}
	for i := range p.late {
		if p.late[i].uid == uid {
			p.late[i].at = min(p.late[i].at, first)
			return
		}
	}
	p.late = append(p.late, lateStart{uid, first})
}

// storedStart is the earliest valid start among uid's versions believed
// at this point of the batch: stored ones it has not closed, and ones it
// wrote.
func (p *planner) storedStart(uid string) (Time, bool) {
	var start Time
	found := false
	for _, h := range p.believedNodes(uid, Always) {
		if !found || h.v.Valid.Start < start {
			start, found = h.v.Valid.Start, true
		}
	}
	return start, found
}

// NodeStartCorrections returns what the batch last planned against v
// needs so that no bulk-ingested event precedes its endpoints' validity:
// for each endpoint whose currently believed versions in v all start after
// its earliest event t in the batch, a correct op over [t, end of its
// first version) with that version's props, in order of the endpoints'
// first appearance. It is empty for almost every batch. Planning the batch
// again with these ops first yields node versions valid from t (created by
// the correction, the old first version closed by it), so a belief pinned
// before the batch still sees the old start.
//
// The corrections only move a start the store already believes: an
// endpoint first written by an earlier op of the same batch, and an event
// inside a gap of a node's history (after a retraction), are left as they
// are (tgms check --full reports such edges).
func (pl *Planner) NodeStartCorrections(v View) []Op {
	p := &pl.p
	if len(p.late) == 0 {
		return nil
	}
	out := make([]Op, 0, len(p.late))
	for _, l := range p.late {
		var first NodeVersion
		found := false
		for _, h := range v.BelievedNodes(l.uid, Always) {
			if !found || h.V.Valid.Start < first.Valid.Start {
				first, found = h.V, true
			}
		}
		if !found || first.Valid.Start <= l.at {
			continue
		}
		out = append(out, Correct(NodeRef(l.uid), first.Props, Interval{l.at, first.Valid.End}))
	}
	return out
}
