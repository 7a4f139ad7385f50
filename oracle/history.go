package oracle

import (
	"fmt"
	"math/rand/v2"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// Batch is one write batch of a random history.
type Batch struct {
	TT   bt.Time
	Ops  []bt.Op
	Prov *bt.Provenance // stated provenance (nil: none)
}

// RandomHistory draws a random bi-temporal history: interval assertions,
// bulk events with same-timestamp ties, retractions and corrections, over
// a small set of uids so that writes collide. Some batches may be refused
// when applied (a retract of something already gone); appliers skip them.
// Transaction times are 10, 20, 30, ...
var historyProv = []*bt.Provenance{
	nil,
	{Authority: bt.AuthUser, Actor: "dana", Ref: "msg-1"},
	{Authority: bt.AuthModel, Actor: "agent", Note: "inferred"},
	nil,
	{Authority: bt.AuthImport, Source: "file.csv"},
	{Authority: bt.AuthSystem, Actor: "cron"},
}

func RandomHistory(rng *rand.Rand, batches int) []Batch {
	uids := []string{"a", "b", "c", "d", "e", "f"}
	rels := []string{"R", "S"}
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	t := func() bt.Time { return bt.Time(rng.IntN(100)) }
	iv := func() bt.Interval {
		s := t()
		if rng.IntN(5) == 0 {
			return bt.Interval{Start: s, End: bt.OpenEnd}
		}
		return bt.Interval{Start: s, End: s + 1 + bt.Time(rng.IntN(40))}
	}
	props := func() bt.Props {
		switch rng.IntN(4) {
		case 0:
			return ""
		case 1:
			return `{"w":1}`
		case 2:
			return bt.Props(fmt.Sprintf(`{"name":"%s","w":%d}`, pick([]string{"Alice", "alice b", "Bob", "ALI"}), rng.IntN(3)))
		}
		return `{"w":2.5}`
	}
	var keys []bt.EdgeKey
	key := func() bt.EdgeKey {
		if len(keys) > 0 && rng.IntN(3) > 0 {
			return keys[rng.IntN(len(keys))]
		}
		k := bt.EdgeKey{Src: pick(uids), Dst: pick(uids), RelType: pick(rels)}
		keys = append(keys, k)
		return k
	}
	var out []Batch
	for b := range batches {
		var ops []bt.Op
		for range 1 + rng.IntN(3) {
			switch rng.IntN(7) {
			case 0:
				ops = append(ops, bt.AssertNode(pick(uids), pick([]string{"Person", "Org"}), props(), iv()))
			case 1:
				ops = append(ops, bt.AssertEdge(key(), props(), iv()))
			case 2:
				if rng.IntN(2) == 0 {
					ops = append(ops, bt.Retract(bt.NodeRef(pick(uids)), t()))
				} else {
					ops = append(ops, bt.Retract(bt.EdgeRef(key()), t()))
				}
			case 3:
				if rng.IntN(2) == 0 {
					ops = append(ops, bt.Correct(bt.NodeRef(pick(uids)), props(), iv()))
				} else if rng.IntN(4) == 0 {
					// a timestamp correction: the fact held elsewhere in valid time
					ops = append(ops, bt.CorrectTime(bt.EdgeRef(key()), props(), iv(), iv()))
				} else {
					ops = append(ops, bt.Correct(bt.EdgeRef(key()), props(), iv()))
				}
			default:
				n := 1 + rng.IntN(8)
				evs := make([]bt.Event, n)
				base := t()
				for i := range evs {
					evs[i] = bt.Event{Src: pick(uids), Dst: pick(uids), RelType: pick(rels), VtS: base + bt.Time(rng.IntN(6))}
					if rng.IntN(6) == 0 {
						evs[i].VtE = evs[i].VtS + 1 + bt.Time(rng.IntN(20))
					}
					if rng.IntN(5) == 0 {
						evs[i].Props = `{"w":3}`
					}
				}
				ops = append(ops, bt.Ingest(evs, "Node"))
			}
		}
		// Provenance cycles over the batches without drawing from rng, so
		// the histories are those of earlier releases with provenance added.
		out = append(out, Batch{TT: bt.Time(10 * (b + 1)), Ops: ops, Prov: historyProv[b%len(historyProv)]})
	}
	return out
}
