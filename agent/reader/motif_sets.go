package reader

import "strings"

// Motif instances drawn from a set of nodes (doc.go): the nodes a node
// can reach ("among the nodes n5 can reach"), or its partners ("among
// n5's correspondents"), every corner of an instance in the set.

// cAmong marks "among n5's partners": every corner of a motif instance
// is one of the node's partners.
const cAmong = "among-partners"

// motifSets reads the words that put every corner of an instance in a
// set, in a motif question.
func (x *extractor) motifSets() {
	if !x.motifQuestion() && !x.hasWord(cTriangle, -1, -1) {
		return
	}
	for i, t := range x.toks {
		if t.used || t.kind != tWord {
			continue
		}
		switch t.low {
		case "among", "amongst":
			x.amongPartners(i)
		case "all":
			x.everyCorner(i)
		}
	}
}

// amongPartners reads "among n5's correspondents", "among the partners
// of n5": the instances' corners are the node's partners.
func (x *extractor) amongPartners(i int) {
	k := i + 1
	if x.tok(k).low == "the" {
		k++
	}
	switch {
	case x.nodeAt(k) && possessive(x.tok(k)) && concept(x.tok(k+1).low) == cPartner:
	case concept(x.tok(k).low) == cPartner && x.tok(k+1).low == "of" && x.nodeAt(k+2):
	default:
		return
	}
	x.toks[i].used = true
	x.mark(cAmong, i)
}

func possessive(t *token) bool {
	return t.poss || strings.HasSuffix(t.text, "'s") || strings.HasSuffix(t.text, "’s")
}

// everyCorner reads "all three of whose corners were reachable from n5"
// (or "exchanged mail with n5"), with "counting only triangles" before
// it: a clause that puts every corner in the set its verb names. The
// words after it are read as usual; the clause is read only when they
// name reach or partners, and when the set is partners it is the set
// "among" names.
func (x *extractor) everyCorner(i int) {
	k := i + 1
	if l := x.tok(k).low; l == "three" || l == "two" || l == "both" {
		k++
	}
	if x.tok(k).low != "of" || x.tok(k+1).low != "whose" || !cornerNouns[x.tok(k+2).low] {
		return
	}
	k += 3
	if l := x.tok(k).low; l == "were" || l == "are" || l == "was" || l == "is" {
		k++
	}
	reach, partner := false, false
	for j := k; j < len(x.toks) && !x.clauseEnd(j); j++ {
		l := x.tok(j).low
		reach = reach || concept(l) == cReach
		partner = partner || concept(l) == cPartner || l == "exchanged" || l == "exchange"
	}
	if reach == partner {
		return
	}
	a := i
	// "(counting only triangles all three of whose …)": "only" names the
	// set the clause puts the corners in.
	if n := x.tok(i - 1); concept(n.low) == cTriangle || concept(n.low) == cMotif {
		if x.tok(i-2).low == "only" && attentionVerbs[x.tok(i-3).low] {
			x.toks[i-2].used = true
		}
	}
	x.use(a, k)
	x.s.ignored = append(x.s.ignored, x.span(a, k))
	if partner {
		x.mark(cAmong, i)
	}
}

// motifCountPartners counts motif instances whose every node is a
// partner of the node named (the node itself left out of the set).
var motifCountPartners = &intent{name: "motif-count-partners", example: "Among {x}'s partners {W}, how many cyclic triangles complete within {D}?",
	need: []string{cTriangle + "|" + cPingPong, cHowMany, cAmong, cPartner}, allow: []string{cMotif, cEvent, cTimeOrder, cTriangle, cPingPong, cEither}, nodes: 1, window: true, delta: true, belief: true,
	summary: func(r *Reading) string {
		n := nodeText(r, "node")
		return "the number of δ-temporal " + motifText(r) + " whose every node is a partner of " + n + " in the window (either direction), " + n + " itself not among them"
	},
	build: func(r *Reading, b *builder) {
		s1, field := partnerRows(r, b)
		s2 := b.add("compute", map[string]any{"fn": "filter", "input": ref(s1 + ".rows"), "field": field, "cmp": "ne", "value": b.node("node"), "limit": rowLimit})
		s3 := b.add("count_temporal_motifs", b.asOf(map[string]any{"motif": motifName(r), "delta": r.Delta.Micros, "window": b.window(), "node_filter": ref(s2 + ".rows[*]." + field)}))
		b.answer("count", s3+".count")
	}}

func init() { intents = append(intents, motifCountPartners) }
