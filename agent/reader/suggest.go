package reader

import (
	"sort"
	"strconv"
	"strings"
)

// suggestions fills the examples of the nearest intents with the
// question's own slots: its nodes, window, instants and durations, or
// placeholders from the store's extent.
func suggestions(x *extractor, near []*intent, env Env, n int) []string {
	cands := append([]*intent(nil), near...)
	if x != nil {
		// Then the intents sharing the most concepts with the question.
		type scored struct {
			in    *intent
			score int
		}
		var ss []scored
		for i, in := range intents {
			sc := 0
			for c := range x.s.concepts {
				if in.accepts(c) && c != cNodeNoun && c != cPeriod {
					sc += 2
				}
			}
			for _, nd := range in.need {
				for _, alt := range strings.Split(nd, "|") {
					if x.has(alt) {
						sc++
					}
				}
			}
			if in.nodes == len(x.s.nodes) {
				sc++
			}
			ss = append(ss, scored{in, sc*100 - i})
		}
		sort.SliceStable(ss, func(a, b int) bool { return ss[a].score > ss[b].score })
		for _, s := range ss {
			cands = append(cands, s.in)
		}
	} else {
		cands = append(cands, intents...)
	}
	var out []string
	seen := map[string]bool{}
	for _, in := range cands {
		if len(out) == n {
			break
		}
		if seen[in.name] {
			continue
		}
		seen[in.name] = true
		out = append(out, fillExample(in.example, x, env))
	}
	return out
}

func fillExample(ex string, x *extractor, env Env) string {
	nodes := []string{"n1", "n2"}
	if len(env.UIDs) > 0 {
		nodes[0] = env.UIDs[0]
		if len(env.UIDs) > 1 {
			nodes[1] = env.UIDs[1]
		}
	}
	w := ""
	var insts []string
	d := "1 day"
	k := "3"
	if x != nil {
		// Nodes in their roles: the one written as the target ("to n9",
		// "reach n9") is {y} whatever the word order.
		ns := append([]nodeSlot(nil), x.s.nodes...)
		if len(ns) >= 2 && (ns[0].cue == "dst" && ns[1].cue != "dst" || ns[1].cue == "src" && ns[0].cue != "src") {
			ns[0], ns[1] = ns[1], ns[0]
		}
		for i, nd := range ns {
			if i < 2 {
				nodes[i] = nd.written
			}
		}
		if len(x.s.durs) > 0 {
			d = x.s.durs[0].written
		}
		if x.s.k > 0 {
			k = strconv.FormatInt(x.s.k, 10)
		}
		for _, t := range x.s.times {
			insts = append(insts, t.w.text)
		}
		// The window exactly as read, [start, end).
		if tr, err := x.times(); err == nil && len(tr.wins) > 0 {
			w = "from " + tr.wins[0].StartText + " to " + tr.wins[0].EndText
		}
		for i := range x.s.durs {
			x.s.durs[i].taken = false
		}
	}
	lo, hi := env.VtMin, env.VtMax
	if hi <= lo {
		lo, hi = 0, 30*usDay
	}
	if w == "" {
		w = "from " + FormatTime(lo) + " to " + FormatTime(min(hi, lo+30*usDay))
	} else if !strings.HasPrefix(w, "from") && !strings.HasPrefix(w, "between") && !strings.HasPrefix(w, "(") {
		w = "during " + w
	}
	for len(insts) < 2 {
		insts = append(insts, FormatTime(lo+int64(len(insts)+1)*usDay))
	}
	r := strings.NewReplacer("{x}", nodes[0], "{y}", nodes[1], "{W}", w, "{t}", insts[0], "{t1}", insts[0], "{t2}", insts[1], "{D}", d, "{k}", k)
	out := r.Replace(ex)
	if len(env.RelTypes) > 1 {
		// "messages" would be ambiguous on this store.
		out = strings.ReplaceAll(out, "messages", "events")
	}
	// The question's belief time goes with every form.
	if x != nil && x.s.belief != nil && !x.s.belief.Now {
		out = strings.TrimSuffix(strings.Replace(out, " now?", "?", 1), "?") + ", as of transaction time " + strconv.FormatInt(x.s.belief.AsOfTT, 10) + "?"
	}
	return out
}
