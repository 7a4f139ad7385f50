package oracle

import (
	"slices"

	bt "github.com/tgms-go/tgms/bitemporal"
)

func init() { register("neighborhood_evolution", neighborhoodEvolution) }

func neighborhoodEvolution(s *bt.MemStore, args map[string]any) (map[string]any, error) {
	tt := asOf(args)
	uid, _ := args["uid"].(string)
	t1, t2 := num(args["t1"]), num(args["t2"])
	if t1 >= t2 {
		return nil, Refused{"E_INVALID_ARG"}
	}
	stride := max(1, (t2-t1)/20)
	if args["stride"] != nil {
		stride = num(args["stride"])
	}
	buckets := (t2 - t1) / stride
	if (t2-t1)%stride != 0 {
		buckets++
	}
	if buckets > 2000 {
		return nil, Refused{"E_LIMIT"}
	}
	if !known(s, uid, tt) {
		return nil, NotFound{uid}
	}
	edges := believedEdges(s, tt)
	nbrs := func(t bt.Time) map[string]bool {
		out := map[string]bool{}
		for _, e := range edges {
			if !(e.Valid.Start <= t && t < e.Valid.End) {
				continue
			}
			if e.Key.Src == uid && e.Key.Dst != uid {
				out[e.Key.Dst] = true
			}
			if e.Key.Dst == uid && e.Key.Src != uid {
				out[e.Key.Src] = true
			}
		}
		return out
	}
	n1, n2 := nbrs(t1), nbrs(t2)
	minus := func(a, b map[string]bool) []string {
		var out []string
		for u := range a {
			if !b[u] {
				out = append(out, u)
			}
		}
		slices.Sort(out)
		return out
	}
	gained, lost := minus(n2, n1), minus(n1, n2)
	var series []any
	for b := t1; b < t2; b += stride {
		var deg int64
		for _, e := range edges {
			if (e.Key.Src == uid || e.Key.Dst == uid) && e.Valid.Start <= b && b < e.Valid.End {
				deg++
			}
		}
		series = append(series, map[string]any{"t": b, "degree": deg})
	}
	limit := int(num(args["limit"]))
	list := func(xs []string) []any {
		out := []any{}
		for _, x := range xs[:min(limit, len(xs))] {
			out = append(out, x)
		}
		return out
	}
	return map[string]any{
		"neighbors_gained": list(gained), "neighbors_gained_total": int64(len(gained)),
		"neighbors_lost": list(lost), "neighbors_lost_total": int64(len(lost)),
		"degree_series": series, "stride": stride,
		"truncated": len(gained) > limit || len(lost) > limit,
	}, nil
}
