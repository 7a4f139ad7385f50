package ops

import (
	"slices"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
)

// CoActiveMaxPairs is the most pairs co_active returns (E_LIMIT above).
const CoActiveMaxPairs = coActiveMaxPairs

// CoActivePayload is co_active's payload from the matching pairs (a, b) a
// backend joined, in any order: sorted by (a.vt_s, a.vid, b.vt_s, b.vid),
// or E_LIMIT as the native kernel refuses more than CoActiveMaxPairs.
func CoActivePayload(pairs [][2]bt.EdgeVersion) (map[string]any, error) {
	if len(pairs) > coActiveMaxPairs {
		return nil, Errorf(ELimit, map[string]any{"path": "/a_spec", "max_pairs": int64(coActiveMaxPairs),
			"hint": "narrow a_spec or b_spec (src, dst, rel_type)"},
			"co_active would return more than %d pairs", coActiveMaxPairs)
	}
	type side struct {
		vid string
		row map[string]any
	}
	rows := map[string]map[string]any{}
	render := func(e bt.EdgeVersion) side {
		eid := engine.EID(e.Key)
		vid := engine.VID(eid, e.TTs, e.Valid.Start)
		r, ok := rows[vid]
		if !ok {
			r = EdgeVersionRows([]bt.EdgeVersion{e})[0]
			rows[vid] = r
		}
		return side{vid, r}
	}
	type pair struct {
		a, b   side
		as, bs int64
	}
	ps := make([]pair, len(pairs))
	for i, p := range pairs {
		ps[i] = pair{render(p[0]), render(p[1]), p[0].Valid.Start, p[1].Valid.Start}
	}
	slices.SortFunc(ps, func(x, y pair) int {
		if x.as != y.as {
			return cmpOrdered(x.as, y.as)
		}
		if c := strings.Compare(x.a.vid, y.a.vid); c != 0 {
			return c
		}
		if x.bs != y.bs {
			return cmpOrdered(x.bs, y.bs)
		}
		return strings.Compare(x.b.vid, y.b.vid)
	})
	out := make([]any, len(ps))
	for i, p := range ps {
		out[i] = map[string]any{"a": p.a.row, "b": p.b.row}
	}
	return map[string]any{"rows": out}, nil
}
