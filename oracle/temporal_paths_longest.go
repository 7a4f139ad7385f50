package oracle

import (
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
)

func init() { register("longest_temporal_path", longestTemporalPath) }

// longestTemporalPath enumerates every chain of events literally (each
// event followed by every later event out of its head, within the wait
// cap) and keeps the longest, the smallest (t, eid) list among them, and
// the sets of first and last events of the longest ones.
func longestTemporalPath(s *bt.MemStore, args map[string]any) (map[string]any, error) {
	tt := asOf(args)
	src, hasSrc := args["src"].(string)
	if hasSrc && !known(s, src, tt) {
		return nil, NotFound{src}
	}
	delta := int64(-1)
	if _, ok := args["delta_max_wait"]; ok && args["delta_max_wait"] != nil {
		delta = num(args["delta_max_wait"])
	}
	var evs []motifEvent
	all, err := motifEventList(s, map[string]any{"as_of_tt": args["as_of_tt"], "window": args["window"]})
	if err != nil {
		return nil, err
	}
	for _, e := range all {
		if e.e.Key.Src != e.e.Key.Dst {
			evs = append(evs, e)
		}
	}
	key := func(chain []int) string { // (t, eid) pairs, comparable as bytes
		var b strings.Builder
		for _, i := range chain {
			b.WriteString(tpathsFixed(evs[i].e.Valid.Start))
			b.WriteString(evs[i].eid)
			b.WriteByte(0)
		}
		return b.String()
	}
	best, bestKey := []int(nil), ""
	starts, ends := map[int]bool{}, map[int]bool{}
	var chain []int
	var grow func()
	grow = func() {
		switch n := len(chain); {
		case n > len(best):
			best, bestKey = append([]int(nil), chain...), key(chain)
			starts, ends = map[int]bool{chain[0]: true}, map[int]bool{chain[n-1]: true}
		case n == len(best):
			starts[chain[0]], ends[chain[n-1]] = true, true
			if k := key(chain); k < bestKey {
				best, bestKey = append([]int(nil), chain...), k
			}
		}
		last := evs[chain[len(chain)-1]].e
		for j, f := range evs {
			if f.e.Key.Src != last.Key.Dst || f.e.Valid.Start <= last.Valid.Start {
				continue
			}
			if delta >= 0 && f.e.Valid.Start-last.Valid.Start > delta {
				continue
			}
			chain = append(chain, j)
			grow()
			chain = chain[:len(chain)-1]
		}
	}
	for i, e := range evs {
		if hasSrc && e.e.Key.Src != src {
			continue
		}
		chain = []int{i}
		grow()
	}
	out := []any{}
	for _, i := range best {
		e := evs[i].e
		out = append(out, map[string]any{"src": e.Key.Src, "dst": e.Key.Dst, "rel_type": e.Key.RelType, "eid": evs[i].eid, "t": e.Valid.Start})
	}
	res := map[string]any{"length": int64(len(best)), "departure": nil, "arrival": nil, "chain": out,
		"starts": int64(len(starts)), "ends": int64(len(ends))}
	if len(best) > 0 {
		res["departure"], res["arrival"] = evs[best[0]].e.Valid.Start, evs[best[len(best)-1]].e.Valid.Start
	}
	return res, nil
}
