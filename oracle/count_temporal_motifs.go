package oracle

import (
	"fmt"
	"slices"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// Brute-force oracles of count_temporal_motifs and
// find_temporal_motif_instances: list the events, try every ordered triple.

func init() {
	register("count_temporal_motifs", countTemporalMotifs)
	register("find_temporal_motif_instances", findTemporalMotifInstances)
}

// motifPatterns maps every motif name to its three edges written as
// "ab" = variable a -> variable b over variables u, v, w, x. The grid is
// built from its definition: e1 = u->v, row i gives e2, column j gives e3.
var motifPatterns = func() map[string][3]string {
	rows := []string{"wv", "vw", "wu", "uw", "vu", "uv"}
	cols := []string{"uv", "vu", "uw", "wu", "vw", "wv"}
	m := map[string][3]string{}
	for i, r := range rows {
		for j, c := range cols {
			m[fmt.Sprintf("M%d%d", i+1, j+1)] = [3]string{"uv", r, c}
		}
	}
	m["M_star_out_3"] = [3]string{"uv", "uw", "ux"}
	m["M_path_3"] = [3]string{"uv", "vw", "wx"}
	m["M_2node_pingpong"] = [3]string{"uv", "vu", "uv"}
	m["M_2node_reply_repeat"] = [3]string{"uv", "vu", "vu"}
	m["M_2node_repeat"] = [3]string{"uv", "uv", "uv"}
	m["M_2node_repeat_reply"] = [3]string{"uv", "uv", "vu"}
	m["M_triangle_cyclic"] = [3]string{"uv", "vw", "wu"}
	m["M_triangle_acyclic_1"] = [3]string{"uv", "uw", "vw"}
	return m
}()

type motifEvent struct {
	e   bt.EdgeVersion
	eid string
}

// motifEventList returns the events of the call in (t, eid) order and the
// refusal, if any.
func motifEventList(s *bt.MemStore, args map[string]any) ([]motifEvent, error) {
	if mode, _ := args["mode"].(string); mode == "sample" {
		return nil, Refused{"E_INVALID_ARG"}
	}
	tt := asOf(args)
	var filter map[string]bool
	if f, ok := args["node_filter"].([]any); ok {
		filter = map[string]bool{}
		for _, x := range f {
			filter[x.(string)] = true // an unknown uid matches no event
		}
	}
	w, _ := args["window"].(map[string]any)
	ta, tb := num(w["t_a"]), num(w["t_b"])
	believed := believedEdges(s, tt)
	var out []motifEvent
	for _, e := range believed {
		if e.Valid.Start < ta || e.Valid.Start >= tb || continues(e, believed) {
			continue
		}
		if filter != nil && (!filter[e.Key.Src] || !filter[e.Key.Dst]) {
			continue
		}
		out = append(out, motifEvent{e, eid(e.Key)})
	}
	slices.SortFunc(out, func(a, b motifEvent) int {
		if a.e.Valid.Start != b.e.Valid.Start {
			if a.e.Valid.Start < b.e.Valid.Start {
				return -1
			}
			return 1
		}
		return strings.Compare(a.eid, b.eid)
	})
	return out, nil
}

// motifMatch reports whether events a, b, c fit the pattern with distinct
// nodes for distinct variables.
func motifMatch(pat [3]string, evs ...motifEvent) bool {
	bound := map[byte]string{}
	for k, p := range pat {
		for side, node := range []string{evs[k].e.Key.Src, evs[k].e.Key.Dst} {
			v := p[side]
			if have, ok := bound[v]; ok && have != node {
				return false
			}
			bound[v] = node
		}
	}
	seen := map[string]bool{}
	for _, node := range bound {
		if seen[node] {
			return false
		}
		seen[node] = true
	}
	return true
}

// motifInstances enumerates all ordered triples i < j < k.
func motifInstances(s *bt.MemStore, args map[string]any) ([]motifEvent, [][3]int, error) {
	evs, err := motifEventList(s, args)
	if err != nil {
		return nil, nil, err
	}
	pat := motifPatterns[args["motif"].(string)]
	delta := num(args["delta"])
	var out [][3]int
	for i := range evs {
		for j := i + 1; j < len(evs); j++ {
			for k := j + 1; k < len(evs); k++ {
				if evs[k].e.Valid.Start-evs[i].e.Valid.Start > delta {
					continue
				}
				if motifMatch(pat, evs[i], evs[j], evs[k]) {
					out = append(out, [3]int{i, j, k})
				}
			}
		}
	}
	return evs, out, nil
}

func countTemporalMotifs(s *bt.MemStore, args map[string]any) (map[string]any, error) {
	evs, inst, err := motifInstances(s, args)
	if err != nil {
		return nil, err
	}
	return map[string]any{"count": int64(len(inst)), "n_events_in_window": int64(len(evs)), "truncated": false}, nil
}

func findTemporalMotifInstances(s *bt.MemStore, args map[string]any) (map[string]any, error) {
	evs, inst, err := motifInstances(s, args)
	if err != nil {
		return nil, err
	}
	rows := make([]any, len(inst))
	for r, tr := range inst {
		edges := make([]any, 3)
		for k, i := range tr {
			e := evs[i]
			edges[k] = map[string]any{"src": e.e.Key.Src, "dst": e.e.Key.Dst, "t": e.e.Valid.Start, "eid": e.eid, "rel_type": e.e.Key.RelType}
		}
		rows[r] = map[string]any{"edges": edges}
	}
	if len(rows) > 100_000 {
		return nil, Refused{"E_LIMIT"}
	}
	return map[string]any{"rows": rows}, nil
}
