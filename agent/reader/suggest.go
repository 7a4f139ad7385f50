package reader

import (
	"slices"
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
		out = append(out, fillExample(exampleFor(in, x), x, env))
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
		// "reach n9") is {y} whatever the word order. A placeholder is
		// never one of the question's nodes.
		ns := orderedNodes(x)
		for i, nd := range ns {
			if i < 2 {
				nodes[i] = nd.written
			}
		}
		for i := len(ns); i < 2; i++ {
			for k := 1; ; k++ {
				c := "n" + strconv.Itoa(k)
				if k <= len(env.UIDs) {
					c = env.UIDs[k-1]
				}
				if !slices.ContainsFunc(ns, func(n nodeSlot) bool { return n.written == c }) && (i == 0 || nodes[0] != c) {
					nodes[i] = c
					break
				}
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
		// The window exactly as read, [start, end); none written is the
		// whole store, which a form without a window also reads.
		if tr, err := x.times(); err == nil && len(tr.wins) > 0 {
			w = "from " + tr.wins[0].StartText + " to " + tr.wins[0].EndText
		} else if err == nil && len(x.s.times) == 0 {
			w = "-"
		}
		for i := range x.s.durs {
			x.s.durs[i].taken = false
		}
	}
	lo, hi := env.VtMin, env.VtMax
	if hi <= lo {
		lo, hi = 0, 30*usDay
	}
	switch {
	case w == "-":
		w = ""
	case w == "":
		w = "from " + FormatTime(lo) + " to " + FormatTime(min(hi, lo+30*usDay))
	case !strings.HasPrefix(w, "from") && !strings.HasPrefix(w, "between") && !strings.HasPrefix(w, "("):
		w = "during " + w
	}
	for len(insts) < 2 {
		insts = append(insts, FormatTime(lo+int64(len(insts)+1)*usDay))
	}
	r := strings.NewReplacer("{x}", nodes[0], "{y}", nodes[1], "{W}", w, "{t}", insts[0], "{t1}", insts[0], "{t2}", insts[1], "{D}", d, "{k}", k)
	out := strings.NewReplacer("  ", " ", " ?", "?", " ,", ",").Replace(r.Replace(ex))
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

// variants are question forms that say an intent's choices: the
// direction it counts, the motif, the change, the answer form. Each is
// "opt=value ..." → form; the first whose choices the question has is
// used, "" last.
var variants = map[string][][2]string{
	"node-event-count": {{"direction=dst", "How many messages did {x} receive {W}?"},
		{"direction=either", "How many messages did {x} send or receive {W}?"}},
	"partner-count": {{"direction=src", "How many distinct nodes did {x} send messages to {W}?"},
		{"direction=dst", "How many distinct nodes did {x} receive messages from {W}?"}},
	"partners": {{"direction=dst", "Who did {x} receive messages from {W}?"},
		{"direction=either", "With whom did {x} exchange messages {W}?"}},
	"pair-event-count": {{"direction=either", "How many messages were exchanged between {x} and {y} {W}?"}},
	"top-nodes": {{"by=dst", "Which {k} nodes received the most messages {W}?"},
		{"by=either", "Which {k} nodes sent or received the most messages {W}?"},
		{"by=partners", "Which {k} nodes had the most distinct partners {W}?"}},
	"threshold-count":         {{"by=dst", "How many nodes received more than 5 messages {W}?"}},
	"partner-threshold-count": {{"direction=dst", "How many nodes sent more than 5 messages to {x} {W}?"}, {"direction=either", "How many nodes exchanged more than 5 messages with {x} {W}?"}},
	"average-per-period":      {{"per=hour", "What was the average number of messages per hour {W}?"}, {"per=week", "What was the average number of messages per week {W}?"}},
	"threshold-nodes":         {{"by=dst", "Which nodes received more than 5 messages {W}?"}},
	"partner-threshold-nodes": {{"direction=dst", "Which nodes sent more than 5 messages to {x} {W}?"}, {"direction=either", "Which nodes exchanged more than 5 messages with {x} {W}?"}},
	"top-nodes-except": {{"by=dst", "Apart from {x}, which {k} nodes received the most messages {W}?"},
		{"by=either", "Apart from {x}, which {k} nodes sent or received the most messages {W}?"},
		{"by=partners", "Apart from {x}, which {k} nodes had the most distinct partners {W}?"}},
	"correction-count": {{"closed_by=evolution", "How many times was {x} retracted?"}},
	"nodes-added": {{"change=removed form=list", "Which nodes were removed between {t1} and {t2}?"},
		{"change=removed", "How many nodes were removed between {t1} and {t2}?"},
		{"form=list", "Which nodes were added between {t1} and {t2}?"}},
	"neighbours-gained": {{"change=lost form=count", "How many neighbours did {x} lose between {t1} and {t2}?"},
		{"change=lost", "Which neighbours did {x} lose between {t1} and {t2}?"},
		{"form=count", "How many neighbours did {x} gain between {t1} and {t2}?"}},
	"busiest-cycle": {{"cycle=cycle-weekday", "Which day of the week had the most messages {W}?"},
		{"cycle=cycle-month", "Which month of the year had the most messages {W}?"}},
	"motif-count":          {{"motif=ping-pong", "How many ping-pong exchanges completing within {D} happened {W}?"}},
	"motif-count-around":   {{"motif=triangle", "How many cyclic triangles within {D} involved {x} {W}?"}},
	"motif-count-reach":    {{"motif=ping-pong", "Among the nodes {x} can reach {W}, how many ping-pong exchanges complete within {D}?"}},
	"motif-count-partners": {{"motif=ping-pong", "Among {x}'s partners {W}, how many ping-pong exchanges complete within {D}?"}},
	"motif-members":        {{"motif=ping-pong", "Which nodes form ping-pong exchanges within {D} {W}?"}},
}

// exampleFor is the intent's example with the question's own choices: a
// form naming another direction, motif or change would answer another
// question. The choices are those the intent reads from the question
// (its fill, or where a slot is missing, its options).
func exampleFor(in *intent, x *extractor) string {
	if x == nil {
		return in.example
	}
	opts := x.choices(in)
	// A question naming one node where the form names two: the node
	// keeps its direction.
	if in.name == "pair-event-count" && len(x.s.nodes) == 1 {
		switch x.choices(byName("node-event-count"))["direction"] {
		case "dst":
			return "How many messages did {y} send to {x} {W}?"
		case "either":
			return "How many messages were exchanged between {x} and {y} {W}?"
		}
	}
	for _, v := range variants[in.name] {
		ok := true
		for _, kv := range strings.Fields(v[0]) {
			k, val, _ := strings.Cut(kv, "=")
			ok = ok && opts[k] == val
		}
		if ok {
			return v[1]
		}
	}
	return in.example
}

// choices are the options an intent reads from the question: those of
// its reading when the question fills it, else those its options read
// without instants (none for the change intents, which need them).
func (x *extractor) choices(in *intent) map[string]string {
	if r, prob := x.fill(in, ""); prob == "" {
		return r.Options
	}
	r := &Reading{Options: map[string]string{}}
	switch {
	case in.inst == 2:
		// The change intents read the base instant from the times.
		if tr, err := x.times(); err == nil {
			switch {
			case len(tr.insts) == 2 && len(tr.wins) == 0:
				r.Instants = []Instant{tr.insts[0], tr.insts[1]}
			case len(tr.wins) == 1 && tr.pair && len(tr.insts) == 0:
				r.Instants = []Instant{{T: tr.wins[0].Start}, {T: tr.wins[0].End}}
			}
		}
		for i := range x.s.durs {
			x.s.durs[i].taken = false
		}
		if len(r.Instants) == 2 {
			x.change(in, r)
		}
	case len(x.s.nodes) >= in.nodes:
		// The options read the first node: the one the form names first.
		saved := x.s.nodes
		x.s.nodes = orderedNodes(x)
		x.options(in, r)
		x.s.nodes = saved
	}
	// Choices that do not depend on the slots the question lacks.
	o := r.Options
	if x.has(cTriangle) != x.has(cPingPong) && o["motif"] == "" {
		o["motif"] = map[bool]string{true: "triangle", false: "ping-pong"}[x.has(cTriangle)]
	}
	if c := x.cycle(); c != "" && o["cycle"] == "" {
		o["cycle"] = c
	}
	if x.has(cCorrect) != x.has(cEvolve) && o["closed_by"] == "" {
		o["closed_by"] = map[bool]string{true: "correction", false: "evolution"}[x.has(cCorrect)]
	}
	if x.has(cWhich) != x.has(cHowMany) && o["form"] == "" {
		o["form"] = map[bool]string{true: "list", false: "count"}[x.has(cWhich)]
	}
	return o
}

// orderedNodes are the question's nodes with the one written as the
// target ("to n9", "reach n9") second, whatever the word order.
func orderedNodes(x *extractor) []nodeSlot {
	ns := append([]nodeSlot(nil), x.s.nodes...)
	for k := range ns {
		ns[k] = x.verbRole(ns[k])
	}
	if len(ns) >= 2 && (ns[0].cue == "dst" && ns[1].cue != "dst" || ns[1].cue == "src" && ns[0].cue != "src") {
		ns[0], ns[1] = ns[1], ns[0]
	}
	return ns
}
