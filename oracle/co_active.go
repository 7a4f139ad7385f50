package oracle

import (
	"sort"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
)

func init() { register("co_active", coActive) }

// coActiveAllen says whether [as, ae) R [bs, be), R an Allen relation,
// written from the endpoint comparisons of Allen's table.
func coActiveAllen(rel string, gap, as, ae, bs, be int64) bool {
	switch rel {
	case "before":
		return ae < bs && bs-ae <= gap
	case "after":
		return coActiveAllen("before", gap, bs, be, as, ae)
	case "meets":
		return ae == bs
	case "met_by":
		return be == as
	case "overlaps":
		return as < bs && bs < ae && ae < be
	case "overlapped_by":
		return coActiveAllen("overlaps", gap, bs, be, as, ae)
	case "starts":
		return as == bs && ae < be
	case "started_by":
		return coActiveAllen("starts", gap, bs, be, as, ae)
	case "during":
		return bs < as && ae < be
	case "contains":
		return coActiveAllen("during", gap, bs, be, as, ae)
	case "finishes":
		return ae == be && bs < as
	case "finished_by":
		return coActiveAllen("finishes", gap, bs, be, as, ae)
	case "equals":
		return as == bs && ae == be
	}
	return false
}

func coActive(s *bt.MemStore, args map[string]any) (map[string]any, error) {
	tt := asOf(args)
	ar, _ := args["allen_relation"].(map[string]any)
	rel, _ := ar["relation"].(string)
	if (rel == "before" || rel == "after") && ar["gap"] == nil {
		return nil, Refused{"E_INVALID_ARG"}
	}
	gap := num(ar["gap"])
	matcher := func(name string) (func(bt.EdgeVersion) bool, error) {
		spec, _ := args[name].(map[string]any)
		src, _ := spec["src"].(string)
		dst, _ := spec["dst"].(string)
		rt, _ := spec["rel_type"].(string)
		for _, uid := range []string{src, dst} {
			if uid != "" && !known(s, uid, tt) {
				return nil, NotFound{uid}
			}
		}
		return func(e bt.EdgeVersion) bool {
			return (src == "" || e.Key.Src == src) && (dst == "" || e.Key.Dst == dst) && (rt == "" || e.Key.RelType == rt)
		}, nil
	}
	inA, err := matcher("a_spec")
	if err != nil {
		return nil, err
	}
	inB, err := matcher("b_spec")
	if err != nil {
		return nil, err
	}
	edges := believedEdges(s, tt)
	type pair struct{ a, b map[string]any }
	var pairs []pair
	for i, a := range edges {
		if !inA(a) {
			continue
		}
		for j, b := range edges {
			if i == j || !inB(b) {
				continue
			}
			if coActiveAllen(rel, gap, a.Valid.Start, a.Valid.End, b.Valid.Start, b.Valid.End) {
				pairs = append(pairs, pair{edgeRow(a), edgeRow(b)})
			}
		}
	}
	if len(pairs) > 100_000 {
		return nil, Refused{"E_LIMIT"}
	}
	less := func(x, y map[string]any) int {
		if x["vt_s"].(int64) != y["vt_s"].(int64) {
			if x["vt_s"].(int64) < y["vt_s"].(int64) {
				return -1
			}
			return 1
		}
		return strings.Compare(x["vid"].(string), y["vid"].(string))
	}
	sort.Slice(pairs, func(i, j int) bool {
		if c := less(pairs[i].a, pairs[j].a); c != 0 {
			return c < 0
		}
		return less(pairs[i].b, pairs[j].b) < 0
	})
	rows := make([]any, len(pairs))
	for i, p := range pairs {
		rows[i] = map[string]any{"a": p.a, "b": p.b}
	}
	return map[string]any{"rows": rows}, nil
}
