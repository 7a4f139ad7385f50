package ops

import (
	"cmp"
	"slices"
	"strings"
)

// MotifEvent is one edge occurrence a backend selected for
// count_temporal_motifs: a believed version starting in the window that
// does not continue another believed version of its identity (self-loops
// included: they count in n_events_in_window only).
type MotifEvent struct {
	T        int64
	Src, Dst string
	EID      string
}

// MotifMaxEventsUnfiltered is the most window events an unfiltered call
// may work on.
const MotifMaxEventsUnfiltered = motifMaxEventsUnfiltered

// MotifCheck runs count_temporal_motifs' refusals that come before its
// events are read (mode, motif).
func MotifCheck(c *Call) error {
	if c.Str("mode") == "sample" {
		return Errorf(EInvalidArg, map[string]any{"path": "/mode", "hint": `use mode "exact" with a node_filter or a narrower window`},
			`mode "sample" is not implemented`)
	}
	if _, ok := motifByName[c.Str("motif")]; !ok {
		return Errorf(ESchema, map[string]any{"path": "/motif", "allowed": motifNames()}, "unknown motif %q", c.Str("motif"))
	}
	return nil
}

// MotifRefuseUnfiltered is the refusal of an unfiltered call over n
// window events (nil when n is within the bound).
func MotifRefuseUnfiltered(n int64) error {
	if n <= motifMaxEventsUnfiltered {
		return nil
	}
	return Errorf(EInvalidArg, map[string]any{"path": "/node_filter", "events": n,
		"hint": "add a node_filter or narrow the window"},
		"the window holds %d events, more than %d; an unfiltered exact motif call is refused", n, motifMaxEventsUnfiltered)
}

// MotifCountPayload counts the call's motif over events (any order) with
// the native counters.
func MotifCountPayload(c *Call, events []MotifEvent) (map[string]any, error) {
	if err := MotifCheck(c); err != nil {
		return nil, err
	}
	d := motifByName[c.Str("motif")]
	slices.SortFunc(events, func(a, b MotifEvent) int { return cmp.Or(cmp.Compare(a.T, b.T), strings.Compare(a.EID, b.EID)) })
	ev := &motifEvents{total: int64(len(events))}
	local := map[string]int32{}
	loc := func(uid string) int32 {
		l, ok := local[uid]
		if !ok {
			l = int32(len(local))
			local[uid] = l
		}
		return l
	}
	for _, e := range events {
		if e.Src == e.Dst {
			continue
		}
		ev.t = append(ev.t, e.T)
		ev.src = append(ev.src, loc(e.Src))
		ev.dst = append(ev.dst, loc(e.Dst))
	}
	ev.nodes = len(local)
	n, err := motifCountFast(c, ev, d, c.Int("delta"))
	if err != nil {
		return nil, err
	}
	return map[string]any{"count": n, "n_events_in_window": ev.total, "truncated": false}, nil
}
