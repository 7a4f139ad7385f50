package eval

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/plan"
)

// plantedTasks asks one question per planted pattern of a synthetic
// store's manifest: which nodes form the planted triangles (or ping-pongs)
// of a window around it, and when a planted burst happened. Gold comes
// from the manifest; the oracle plan is validated but never the source of
// the gold.
func (g *gen) plantedTasks(m *datasets.Manifest) ([]Task, error) {
	rng := rand.New(rand.NewPCG(g.cfg.Seed, streamPlanted))
	delta := m.Config.Delta
	if delta <= 0 {
		delta = day
	}
	var out []Task
	idx := 0
	add := func(name, kind, question string, uids []string, steps []step, from string, gold any, obj map[string]any) error {
		tplName := "t2-" + name
		raw, err := planValue(tplName, question, kind, from, steps)
		if err != nil {
			return err
		}
		if uids == nil {
			uids = []string{}
		}
		v := plan.Validate(raw, plan.Options{UIDs: uids, Stats: g.stats})
		if !v.Valid && !onlyCost(v.Violations) {
			return fmt.Errorf("eval: template %s built an oracle plan the contract rejects: %s", tplName, violations(v.Violations))
		}
		g.report.Attempts[tplName]++
		out = append(out, Task{
			ID: fmt.Sprintf("%s-t2-%s-%03d", g.cfg.Dataset, name, idx), Family: FamilyT2, Template: tplName,
			Dataset: g.cfg.Dataset, QuestionText: question, OraclePlan: raw, AnswerKind: kind,
			Gold: gold, GoldAnswerObject: obj, InputUIDs: uids, Difficulty: "medium", GoldSource: GoldManifest,
		})
		idx++
		return nil
	}
	motifs := map[string]string{"triangle": motifTriangle, "pingpong": "M_2node_pingpong"}
	var nTri, nPP int
	for _, pat := range m.Patterns {
		switch pat.Kind {
		case "triangle", "pingpong":
			if len(pat.Edges) == 0 {
				continue
			}
			lo, hi := pat.Edges[0].VtS, pat.Edges[0].VtS
			for _, e := range pat.Edges {
				lo, hi = min(lo, e.VtS), max(hi, e.VtS)
			}
			ta, tb := max(g.t0, lo-delta), min(g.t1, hi+delta+1)
			gold := plantedMembers(m, pat.Kind, ta, tb, delta)
			if len(gold) == 0 {
				continue
			}
			w := span(ta, tb)
			var q string
			i := nTri
			if pat.Kind == "triangle" {
				q = para(i,
					fmt.Sprintf("Which nodes take part in a time-ordered 3-cycle a→b→c→a that completes within %s, %s?", exact(delta), w),
					fmt.Sprintf("%s, which nodes form cyclic triangles of edges within %s?", capital(w), exact(delta)),
					fmt.Sprintf("List every node in a cyclic triangle of edges spanning at most %s %s.", exact(delta), w))
				nTri++
			} else {
				i = nPP
				q = para(i,
					fmt.Sprintf("Which nodes play ping-pong (a→b, b→a, a→b) within %s, %s?", exact(delta), w),
					fmt.Sprintf("%s, which nodes take part in ping-pong exchanges within %s?", capital(w), exact(delta)),
					fmt.Sprintf("List every node in a back-and-forth exchange a→b→a→b spanning at most %s %s.", exact(delta), w))
				nPP++
			}
			steps := []step{mkStep("s1", "find_temporal_motif_instances", map[string]any{"motif": motifs[pat.Kind], "delta": delta, "window": win(ta, tb), "limit": rowLimit})}
			uids := make([]any, len(gold))
			for j, u := range gold {
				uids[j] = u
			}
			obj := map[string]any{"text": "The entities are: " + strings.Join(gold, ", ") + ".",
				"claims": []any{map[string]any{"id": "c1", "kind": "entity", "step": "s1", "uids": uids}}}
			if err := add(pat.Kind, KindEntitySet, q, nil, steps, "s1.rows", slices.Clone(uids), obj); err != nil {
				return nil, err
			}
		case "burst":
			k := int64(3 + rng.IntN(10))
			ta, tb := max(g.t0, pat.Window.Start-k*day), min(g.t1, pat.Window.End+k*day)
			if ta >= tb {
				continue
			}
			w := span(ta, tb)
			q := para(pat.Index,
				fmt.Sprintf("%s, when was the first one-day burst of events?", capital(w)),
				fmt.Sprintf("When, %s, was the first burst of events in one-day buckets?", w),
				fmt.Sprintf("Find the first day-long burst of activity %s.", w))
			steps := []step{mkStep("s1", "burst_detection", map[string]any{"target": map[string]any{"kind": "edge_event_rate"}, "window": win(ta, tb), "stride": int64(day), "limit": rowLimit})}
			gold := map[string]any{"t_a": pat.Window.Start, "t_b": pat.Window.End}
			obj := map[string]any{"text": fmt.Sprintf("The interval is [%d, %d).", pat.Window.Start, pat.Window.End),
				"claims": []any{map[string]any{"id": "c1", "kind": "interval", "step": "s1", "path": "rows[0]", "t_a": pat.Window.Start, "t_b": pat.Window.End}}}
			if err := add("burst", KindInterval, q, nil, steps, "s1.rows[0]", gold, obj); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// plantedMembers is the sorted union of the nodes of every planted pattern
// of a kind whose events lie inside [ta, tb) within delta of each other.
func plantedMembers(m *datasets.Manifest, kind string, ta, tb, delta int64) []string {
	var out []string
	for _, p := range m.Patterns {
		if p.Kind != kind || len(p.Edges) == 0 {
			continue
		}
		lo, hi := p.Edges[0].VtS, p.Edges[0].VtS
		for _, e := range p.Edges {
			lo, hi = min(lo, e.VtS), max(hi, e.VtS)
		}
		if lo >= ta && hi < tb && hi-lo <= delta {
			out = append(out, p.Nodes...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
