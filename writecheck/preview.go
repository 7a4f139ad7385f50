package writecheck

import (
	"cmp"
	"slices"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// recordingView remembers every believed version the planner was shown,
// so the versions an effect closes (named by handle) can be rendered.
type recordingView struct {
	bt.View
	nodes map[bt.Handle]bt.NodeVersion
	edges map[bt.Handle]bt.EdgeVersion
}

func (v *recordingView) BelievedNodes(uid string, iv bt.Interval) []bt.NodeHit {
	hits := v.View.BelievedNodes(uid, iv)
	for _, h := range hits {
		v.nodes[h.H] = h.V
	}
	return hits
}

func (v *recordingView) BelievedEdges(k bt.EdgeKey, iv bt.Interval) []bt.EdgeHit {
	hits := v.View.BelievedEdges(k, iv)
	for _, h := range hits {
		v.edges[h.H] = h.V
	}
	return hits
}

func nodeVersion(n *bt.NodeVersion, auth bt.Authority) Version {
	return Version{Kind: "node", UID: n.UID, Label: n.Label, Props: n.Props.Map(), VtS: n.Valid.Start, VtE: n.Valid.End, CreatedBy: n.CreatedBy.String(), Authority: auth.String()}
}

func edgeVersion(e *bt.EdgeVersion, auth bt.Authority) Version {
	return Version{Kind: "edge", Src: e.Key.Src, Dst: e.Key.Dst, RelType: e.Key.RelType, Disc: e.Key.Disc, Props: e.Props.Map(), VtS: e.Valid.Start, VtE: e.Valid.End, CreatedBy: e.CreatedBy.String(), Authority: auth.String()}
}

func preview(rv *recordingView, eff *bt.Effect, auth bt.Authority) *Preview {
	p := &Preview{Opened: []Version{}, Closed: []Version{}}
	for i := range eff.Nodes {
		p.Opened = append(p.Opened, nodeVersion(&eff.Nodes[i], auth))
	}
	for i := range eff.Edges {
		ne := eff.Edges[i]
		if ne.Auto >= 0 {
			ne.V.Key.Disc = bt.AutoDisc(eff.Seq, ne.Auto)
		}
		p.Opened = append(p.Opened, edgeVersion(&ne.V, auth))
	}
	for _, c := range eff.CloseNodes {
		n := rv.nodes[c.H]
		v := nodeVersion(&n, authOf(n.Prov))
		v.TTs, v.ClosedBy = n.TTs, c.By.String()
		p.Closed = append(p.Closed, v)
	}
	for _, c := range eff.CloseEdges {
		e := rv.edges[c.H]
		v := edgeVersion(&e, authOf(e.Prov))
		v.TTs, v.ClosedBy = e.TTs, c.By.String()
		p.Closed = append(p.Closed, v)
	}
	order := func(a, b Version) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.UID, b.UID), cmp.Compare(a.Src, b.Src), cmp.Compare(a.Dst, b.Dst),
			cmp.Compare(a.RelType, b.RelType), cmp.Compare(a.Disc, b.Disc), cmp.Compare(a.VtS, b.VtS), cmp.Compare(a.TTs, b.TTs))
	}
	slices.SortFunc(p.Opened, order)
	slices.SortFunc(p.Closed, order)
	return p
}
