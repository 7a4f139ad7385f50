package ops

import (
	"fmt"
	"strings"
)

// The δ-temporal motif catalogue of count_temporal_motifs and
// find_temporal_motif_instances.
//
// Every motif is three directed edges over node variables u, v, w, x
// (indices 0..3); an instance binds the variables to pairwise distinct
// nodes. The 36 motifs of Paranjape, Benson & Leskovec (WSDM 2017, Fig. 2)
// form a 6×6 grid M_ij: the first edge is always u→v, row i fixes the
// second edge and column j the third:
//
//	row i (e2):    1 w→v  2 v→w  3 w→u  4 u→w  5 v→u  6 u→v
//	column j (e3): 1 u→v  2 v→u  3 u→w  4 w→u  5 v→w  6 w→v
//
// That gives 4 two-node motifs (M51 M52 M61 M62), 8 triangles (M13 M14 M23
// M24 M35 M36 M45 M46) and 24 three-node stars (every other cell). This is
// the layout SNAP's Count3TEdge23Node fills, except that we read cell M31 from
// its definition (u→v, w→u, u→v: centre u, out-in-out, first and third edge
// to the same neighbour), where SNAP's wrapper copies the counter of M42.
// Two four-node motifs of the reference catalogue complete the list.

// motifEdge is one pattern edge: source and destination variable.
type motifEdge struct{ s, d int8 }

// motifKind classifies a pattern by the algorithm that counts it.
type motifKind uint8

const (
	motifTwoNode  motifKind = iota // two variables: per-pair counter
	motifStar                      // three variables, one in every edge: per-centre counter
	motifTriangle                  // three variables, three distinct pairs: δ-window counter
	motifStarOut4                  // u→v, u→w, u→x with four variables: per-centre counter
	motifOther                     // anything else (four-node path): δ-window counter
)

// motifDef is one catalogue entry. The fields below pat are derived from
// the pattern by motifAnalyze.
type motifDef struct {
	name  string // canonical name (M11..M66, M_star_out_3, M_path_3)
	alias string // readable alias accepted as well ("" if none)
	pat   [3]motifEdge
	nvars int
	kind  motifKind
	// two-node motifs: orientation of e2 and e3 relative to e1 (0 same, 1 reversed)
	orient [3]int
	// star motifs: the centre variable, each edge's direction seen from the
	// centre (0 out, 1 in) and which edges share a neighbour
	center int8
	dirs   [3]int
	shape  motifStarShape
}

// motifStarShape says which of the three star edges go to the same
// neighbour of the centre.
type motifStarShape uint8

const (
	motifShapePre  motifStarShape = iota // e1, e2 same neighbour, e3 another
	motifShapePost                       // e2, e3 same neighbour, e1 another
	motifShapeMid                        // e1, e3 same neighbour, e2 another
	motifShapeAll                        // three different neighbours (four nodes)
)

var motifVarNames = [4]string{"u", "v", "w", "x"}

var (
	motifGridRows = [6]motifEdge{{2, 1}, {1, 2}, {2, 0}, {0, 2}, {1, 0}, {0, 1}}
	motifGridCols = [6]motifEdge{{0, 1}, {1, 0}, {0, 2}, {2, 0}, {1, 2}, {2, 1}}
)

// motifAliases are the readable names (the five of the reference system
// among them) of catalogue entries.
var motifAliases = map[string]string{
	"M51": "M_2node_pingpong",
	"M52": "M_2node_reply_repeat",
	"M61": "M_2node_repeat",
	"M62": "M_2node_repeat_reply",
	"M24": "M_triangle_cyclic",
	"M45": "M_triangle_acyclic_1",
}

// motifCatalog lists the motifs in enum order; motifByName finds one by
// canonical name or alias. Both are package variables (not built in an init
// function) so that they exist before the operators register.
var (
	motifCatalog = motifBuildCatalog()
	motifByName  = motifIndexCatalog(motifCatalog)
)

func motifBuildCatalog() []*motifDef {
	var cat []*motifDef
	for i := range 6 {
		for j := range 6 {
			name := fmt.Sprintf("M%d%d", i+1, j+1)
			cat = append(cat, &motifDef{name: name, alias: motifAliases[name],
				pat: [3]motifEdge{{0, 1}, motifGridRows[i], motifGridCols[j]}})
		}
	}
	cat = append(cat,
		&motifDef{name: "M_star_out_3", pat: [3]motifEdge{{0, 1}, {0, 2}, {0, 3}}},
		&motifDef{name: "M_path_3", pat: [3]motifEdge{{0, 1}, {1, 2}, {2, 3}}},
	)
	for _, d := range cat {
		motifAnalyze(d)
	}
	return cat
}

func motifIndexCatalog(cat []*motifDef) map[string]*motifDef {
	m := map[string]*motifDef{}
	for _, d := range cat {
		m[d.name] = d
		if d.alias != "" {
			m[d.alias] = d
		}
	}
	return m
}

// motifAnalyze derives the counting class of a pattern.
func motifAnalyze(d *motifDef) {
	used := [4]bool{}
	for _, e := range d.pat {
		used[e.s], used[e.d] = true, true
	}
	for _, u := range used {
		if u {
			d.nvars++
		}
	}
	switch d.nvars {
	case 2:
		d.kind = motifTwoNode
		for k, e := range d.pat {
			if e != d.pat[0] {
				d.orient[k] = 1
			}
		}
		return
	case 4:
		d.kind = motifOther
		if d.pat[0].s == d.pat[1].s && d.pat[1].s == d.pat[2].s {
			d.kind, d.center, d.shape = motifStarOut4, d.pat[0].s, motifShapeAll
		}
		return
	}
	// three variables: a star if one variable is in every edge
	d.kind = motifTriangle
	for c := int8(0); c < 3; c++ {
		in := true
		var nbr [3]int8
		for k, e := range d.pat {
			switch c {
			case e.s:
				nbr[k] = e.d
			case e.d:
				nbr[k], d.dirs[k] = e.s, 1
			default:
				in = false
			}
		}
		if !in {
			d.dirs = [3]int{}
			continue
		}
		d.kind, d.center = motifStar, c
		switch {
		case nbr[0] == nbr[1]:
			d.shape = motifShapePre
		case nbr[1] == nbr[2]:
			d.shape = motifShapePost
		default:
			d.shape = motifShapeMid
		}
		return
	}
}

// pattern renders a motif's edges, e.g. "u->v, w->v, u->v".
func (d *motifDef) pattern() string {
	parts := make([]string, 3)
	for k, e := range d.pat {
		parts[k] = motifVarNames[e.s] + "->" + motifVarNames[e.d]
	}
	return strings.Join(parts, ", ")
}

// describe renders one catalogue line for the manual.
func (d *motifDef) describe() string {
	var kind string
	switch d.kind {
	case motifTwoNode:
		kind = "2-node"
	case motifStar:
		kind = "star, centre " + motifVarNames[d.center]
	case motifTriangle:
		kind = "triangle"
	case motifStarOut4:
		kind = "4-node out-star"
	default:
		kind = "4-node path"
	}
	s := fmt.Sprintf("%s: %s (%s)", d.name, d.pattern(), kind)
	if d.alias != "" {
		s += " alias " + d.alias
	}
	return s
}

// motifNames lists every accepted motif name: the grid, the four-node
// motifs, then the aliases.
func motifNames() []string {
	var names, aliases []string
	for _, d := range motifCatalog {
		names = append(names, d.name)
		if d.alias != "" {
			aliases = append(aliases, d.alias)
		}
	}
	return append(names, aliases...)
}

// motifCatalogDoc is the catalogue as the manual and the motif argument's
// description show it: one motif per line.
func motifCatalogDoc() string {
	var b strings.Builder
	b.WriteString("Motifs (e1, e2, e3 in (t, eid) order; node variables u, v, w, x pairwise distinct). " +
		"M<i><j> is cell (i, j) of the 6x6 grid of Paranjape et al.: e1 = u->v, row i gives e2 " +
		"(1 w->v, 2 v->w, 3 w->u, 4 u->w, 5 v->u, 6 u->v), column j gives e3 " +
		"(1 u->v, 2 v->u, 3 u->w, 4 w->u, 5 v->w, 6 w->v):")
	for _, d := range motifCatalog {
		b.WriteString("\n  ")
		b.WriteString(d.describe())
	}
	return b.String()
}
