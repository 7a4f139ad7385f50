package engine

import (
	"cmp"
	"slices"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
)

// Card is a short description of a dataset for the people and models
// that query it: how facts are modelled, and what the store holds now
// (its currently believed versions).
type Card struct {
	Model    []string    `json:"model"`
	RelTypes []NameCount `json:"rel_types"`  // believed edge versions per rel type
	Labels   []NameCount `json:"labels"`     // believed node versions per label
	Props    []PropInfo  `json:"properties"` // property names of believed versions, with their types
	VtMin    bt.Time     `json:"vt_min"`     // valid-time extent of the believed edge versions
	VtMax    bt.Time     `json:"vt_max"`
}

// NameCount is a name with a count.
type NameCount struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// PropInfo is one property name on nodes or edges with the JSON types its
// values have (string, int, float, bool, null, object, array).
type PropInfo struct {
	On    string   `json:"on"` // "node" or "edge"
	Name  string   `json:"name"`
	Types []string `json:"types"`
}

// CardModel states the data model in words.
var CardModel = []string{
	"an event is an edge; an instant event is valid for one microsecond [t, t+1µs), an interval fact for [start, end)",
	"node versions start at the node's first appearance (its earliest event) or at a node table's valid-from, and an edge never exists outside its endpoints' validity",
	"every version has a valid time (when it held in the world) and a transaction time (when the store believed it); corrections close versions without erasing them",
}

// Card describes the store's currently believed versions. It reads every
// version once (properties once per distinct bag).
func (s *Store) Card() *Card {
	c := &Card{Model: CardModel, RelTypes: []NameCount{}, Labels: []NameCount{}, Props: []PropInfo{}}
	rels := make([]int, len(s.rels.s))
	edgeProps := map[uint32]bool{}
	first := true
	for v := range uint32(s.eVtS.Len()) {
		if s.eTTe.At(v) != openSeq {
			continue
		}
		rels[s.eRel.At(v)]++
		if p := s.propsOf(v); s.props.s[p] != "" {
			edgeProps[p] = true
		}
		iv := s.valid(v)
		end := iv.End
		if end >= bt.OpenEnd {
			end = iv.Start + 1
		}
		if first || iv.Start < c.VtMin {
			c.VtMin = iv.Start
		}
		if first || end > c.VtMax {
			c.VtMax = end
		}
		first = false
	}
	for i, n := range rels {
		if n > 0 {
			c.RelTypes = append(c.RelTypes, NameCount{s.rels.s[i], n})
		}
	}
	labels := map[string]int{}
	nodeProps := map[uint32]bool{}
	for i := range s.nodes {
		n := &s.nodes[i]
		if n.tte != openSeq {
			continue
		}
		labels[s.labels.s[n.label]]++
		if s.props.s[n.props] != "" {
			nodeProps[n.props] = true
		}
	}
	for l, n := range labels {
		c.Labels = append(c.Labels, NameCount{l, n})
	}
	byCount := func(a, b NameCount) int { return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Name, b.Name)) }
	slices.SortFunc(c.RelTypes, byCount)
	slices.SortFunc(c.Labels, byCount)
	c.Props = append(c.Props, s.propTypes("node", nodeProps)...)
	c.Props = append(c.Props, s.propTypes("edge", edgeProps)...)
	return c
}

func (s *Store) propTypes(on string, ids map[uint32]bool) []PropInfo {
	types := map[string]map[string]bool{}
	for id := range ids {
		v, err := canon.ParseString(s.props.s[id])
		if err != nil {
			continue
		}
		m, _ := v.(map[string]any)
		for k, x := range m {
			if types[k] == nil {
				types[k] = map[string]bool{}
			}
			types[k][canon.TypeName(x)] = true
		}
	}
	var out []PropInfo
	for k, ts := range types {
		out = append(out, PropInfo{On: on, Name: k, Types: slices.Sorted(func(yield func(string) bool) {
			for t := range ts {
				if !yield(t) {
					return
				}
			}
		})})
	}
	slices.SortFunc(out, func(a, b PropInfo) int { return cmp.Compare(a.Name, b.Name) })
	return out
}
