package sqlengine

import (
	"math/rand/v2"
)

// moreCalls draws calls of diff_snapshots, co_active and resolve_entities
// over the oracle's uids (and one unknown) at the belief times asOfs.
func moreCalls(rng *rand.Rand, asOfs []any) []map[string]any {
	var out []map[string]any
	with := func(op string, args map[string]any) map[string]any {
		if asOf := asOfs[rng.IntN(len(asOfs))]; asOf != nil {
			args["as_of_tt"] = asOf
		}
		return map[string]any{"op": op, "args": args}
	}
	uids := []string{"a", "b", "c", "d", "e", "f", "zz"}
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	for range 50 {
		args := map[string]any{"t1": int64(rng.IntN(110)) - 5, "t2": int64(rng.IntN(110)) - 5, "limit": int64(1 + rng.IntN(6))}
		if rng.IntN(2) == 0 {
			var seeds []any
			for range rng.IntN(3) {
				seeds = append(seeds, pick(uids))
			}
			if seeds == nil {
				seeds = []any{}
			}
			args["scope"] = map[string]any{"seeds": seeds, "hops": int64(rng.IntN(4))}
		}
		out = append(out, with("diff_snapshots", args))
	}
	relations := []string{"before", "meets", "overlaps", "starts", "during", "finishes", "equals",
		"after", "met_by", "overlapped_by", "started_by", "contains", "finished_by"}
	spec := func() map[string]any {
		s := map[string]any{}
		if rng.IntN(3) == 0 {
			s["src"] = pick(uids)
		}
		if rng.IntN(4) == 0 {
			s["dst"] = pick(uids)
		}
		if rng.IntN(3) == 0 {
			s["rel_type"] = pick([]string{"R", "S"})
		}
		return s
	}
	for range 40 {
		ar := map[string]any{"relation": pick(relations)}
		if rng.IntN(5) > 0 {
			ar["gap"] = int64(1 + rng.IntN(30))
		}
		out = append(out, with("co_active", map[string]any{"a_spec": spec(), "b_spec": spec(), "allen_relation": ar, "limit": int64(1 + rng.IntN(10))}))
	}
	queries := []string{"a", "A", "ali", "ALICE", "b", "bob", "e", "zz", "li", "alice b"}
	for range 60 {
		args := map[string]any{"limit": int64(1 + rng.IntN(8))}
		if rng.IntN(4) > 0 {
			args["query"] = pick(queries)
		}
		if _, q := args["query"]; !q || rng.IntN(3) == 0 {
			var v any = pick([]string{"ali", "B"})
			switch rng.IntN(4) {
			case 0:
				v = int64(rng.IntN(3))
			case 1:
				v = 2.5
			}
			args["prop"] = map[string]any{"prop": pick([]string{"name", "w"}), "value": v}
		}
		if rng.IntN(4) == 0 {
			args["label"] = pick([]string{"Person", "Org"})
		}
		if rng.IntN(3) == 0 {
			args["at"] = int64(rng.IntN(110)) - 5
		}
		out = append(out, with("resolve_entities", args))
	}
	motifs := []string{"M11", "M24", "M45", "M51", "M61", "M66", "M_star_out_3", "M_path_3", "M_triangle_cyclic", "M_2node_pingpong"}
	for range 40 {
		ta := int64(rng.IntN(120)) - 10
		args := map[string]any{"motif": pick(motifs), "delta": int64(1 + rng.IntN(40)),
			"window": map[string]any{"t_a": ta, "t_b": ta + 1 + int64(rng.IntN(130))}}
		if rng.IntN(3) == 0 {
			var f []any
			for range rng.IntN(5) {
				f = append(f, pick(uids))
			}
			if f == nil {
				f = []any{}
			}
			args["node_filter"] = f
		}
		out = append(out, with("count_temporal_motifs", args))
	}
	for range 40 {
		ta := int64(rng.IntN(120)) - 10
		args := map[string]any{"src": pick(uids), "dst": pick(uids), "window": map[string]any{"t_a": ta, "t_b": ta + 1 + int64(rng.IntN(130))},
			"k": int64(1 + rng.IntN(6)), "max_hops": int64(1 + rng.IntN(5)), "order": pick([]string{"earliest_arrival", "fastest", "fewest_hops"})}
		out = append(out, with("temporal_paths", args))
	}
	// compute reads no store, but its envelope carries the belief time and
	// the dataset extent the SQL engine reads.
	for range 12 {
		var in []any
		for range 1 + rng.IntN(5) {
			in = append(in, map[string]any{"uid": pick(uids), "n": int64(rng.IntN(9))})
		}
		args := map[string]any{"fn": pick([]string{"count", "sum", "max", "median"}), "input": in, "field": "n"}
		if rng.IntN(3) == 0 {
			args = map[string]any{"fn": "filter", "input": in, "field": "n", "cmp": "gt", "value": int64(3)}
		}
		out = append(out, with("compute", args))
	}
	return append(out, aggCalls(rng, asOfs)...)
}
