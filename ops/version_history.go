package ops

import (
	"slices"
	"sort"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
)

func init() {
	Register(&Spec{
		Name:    "version_history",
		Summary: "The belief log: versions believed or superseded as of a transaction time, with corrections told apart from evolution.",
		Doc: `Lists version rows of one kind (node or edge) as the store knew them at
as_of_tt (T): every row written at or before T (tt_s <= T) whose valid
interval overlaps window (vt_s < t_b and t_a < vt_e), believed or not.
A row is superseded as of T when it was closed at or before T (tt_e <= T),
current otherwise. belief keeps current rows, superseded rows, or all; by
default current rows, or superseded rows when change asks for
correction or evolution (belief current with such a change is
E_INVALID_ARG: it can match nothing). Each row says which write op created it (created_by: assert_node,
assert_edge, retract, correct, ingest) and, when superseded, which op closed
it (closed_by) and what that means (change):
  "correction" closed by correct: we were wrong about that valid interval
               (a correct that moves an edge's valid time included);
  "evolution"  closed by retract or by an assert over an overlapping
               interval: the world changed (or the writer declared so).
Each row carries props, the version's property object (null without one),
so "the value before the correction" is the props of the correction row.
Censoring (a pinned read cannot know later closings): a row closed after T
reports tt_e = 2^62, closed_by null and change null, exactly like a row that
is still believed today; rows written after T do not exist.
The argument change keeps only rows whose change is correction, only
evolution, or any (default): one vocabulary for the argument and the rows.
"How many corrections were made" is the number of correction rows: a
correction that carves one version into three closes one row; one that
spans two versions closes two. correction_total and evolution_total count
them over the whole result (all pages).
Filters: rel_types (edges only), uids (node kind: those nodes; edge kind:
edges with either endpoint among them; [] or uids the store does not know
match no row), eid
(edge kind only: one edge identity, as reported in eid columns). rel_types or
eid with kind node is E_INVALID_ARG.
Provenance: a row carries provenance (the batch that wrote it) and, when
superseded, closed_provenance (the batch that closed it), each when that
batch stated one; with provenance: true always, defaults marked derived.
authority keeps only rows written by batches of those authorities (a batch
that stated none: import for a bulk load, else system).`,
		Args: Obj("", map[string]*Schema{
			"kind":       Enum("which versions", "node", "edge"),
			"window":     Window(),
			"belief":     Enum("current: not closed as of as_of_tt; superseded: closed at or before it; all: both. Default: current, or superseded when change is correction or evolution", "current", "superseded", "all").OrNull(),
			"change":     Enum("keep only rows closed by a correction, only rows closed by evolution, or any row (the rows' change column)", "correction", "evolution", "any").Def("any"),
			"rel_types":  RelTypes(),
			"uids":       UIDList("node kind: these nodes; edge kind: edges touching any of them").OrNull(),
			"eid":        Str("edge kind only: one edge identity (24 hex)").NonEmpty().OrNull(),
			"authority":  AuthorityArg(),
			"provenance": ProvenanceArg(),
			"as_of_tt":   AsOfTT(),
			"limit":      Limit(),
			"cursor":     Cursor(),
		}, "kind", "window"),
		Result: Paged("version rows in transaction-time order", versionHistoryRowSchema(), map[string]*Schema{
			"correction_total": Int("rows (all pages) with change = correction"),
			"evolution_total":  Int("rows (all pages) with change = evolution"),
		}),
		Order:  "(tt_s, vid): transaction-time order, vid by code point",
		Paged:  true,
		RowKey: keyOf("tt_s", "vid"),
		Cost: func(c *Call) Cost {
			if c.Str("kind") == "node" {
				// node rows are read once per batch (see versionHistoryPins)
				nodes := c.Stats.Nodes
				if c.Has("uids") {
					nodes = int64(len(c.Strings("uids")))
				}
				batches := uint64(1) // statically (no store open) a lower bound; the runtime check sees the real count
				if c.R != nil {
					batches = max(1, c.R.Batches())
				}
				return Cost{Rows: c.Stats.NodeVersions + nodes*int64(batches)}
			}
			return Cost{Rows: c.Stats.EdgeVersions}
		},
		Run: runVersionHistory,
	})
}

func versionHistoryRowSchema() *Schema {
	ops := []string{"assert_node", "assert_edge", "retract", "correct", "ingest"}
	return Obj("a version row (node rows have uid and label; edge rows eid, src, dst, rel_type, disc)", map[string]*Schema{
		"vid":               Str("version id"),
		"uid":               UIDField("node kind: the node"),
		"label":             Str("node kind: label"),
		"eid":               Str("edge kind: edge identity id"),
		"src":               UIDField("edge kind: source node"),
		"dst":               UIDField("edge kind: destination node"),
		"rel_type":          Str("edge kind: relation type"),
		"disc":              Str("edge kind: discriminator"),
		"vt_s":              Int("valid from (µs)"),
		"vt_e":              Int("valid until, exclusive (µs; 2^62 = open)"),
		"tt_s":              Int("believed from (transaction time)"),
		"tt_e":              Int("believed until as known at as_of_tt: the closing transaction time if closed at or before as_of_tt, else 2^62"),
		"created_by":        Enum("the write op that produced the row", ops...),
		"closed_by":         Enum("the write op that closed the row (null when not closed as of as_of_tt)", ops...).OrNull(),
		"change":            Enum("correction (closed by correct) or evolution (closed by retract or assert); null when not closed as of as_of_tt", "correction", "evolution").OrNull(),
		"props":             Any("the version's property object (null when it has none): the value before a correction is the props of the row it closed"),
		"provenance":        ProvenanceSchema("the provenance of the batch that wrote the row"),
		"closed_provenance": ProvenanceSchema("the provenance of the batch that closed the row (superseded rows only)"),
	})
}

// versionHistoryClosure renders the closing columns of a row as seen at T.
func versionHistoryClosure(tte bt.Time, closedBy bt.OpKind, T bt.Time) (bt.Time, any, any) {
	if tte > T {
		return bt.OpenEnd, nil, nil
	}
	change := "evolution"
	if closedBy.IsCorrection() {
		change = "correction"
	}
	return tte, closedBy.String(), change
}

// versionHistoryKeep applies the belief and change arguments to a row's change.
func versionHistoryKeep(belief, want string, change any) bool {
	superseded := change != nil
	switch belief {
	case "current":
		if superseded {
			return false
		}
	case "superseded":
		if !superseded {
			return false
		}
	}
	return want == "any" || change == want
}

func runVersionHistory(c *Call) (map[string]any, error) {
	kind := c.Str("kind")
	want, belief := c.Str("change"), c.Str("belief")
	switch {
	case belief == "" && want != "any":
		belief = "superseded"
	case belief == "":
		belief = "current"
	case belief == "current" && want != "any":
		return nil, Errorf(EInvalidArg, map[string]any{"path": "/belief", "hint": "drop belief or use superseded or all"},
			"change %s selects closed rows; belief current has none", want)
	}
	if kind == "node" {
		for _, a := range []string{"rel_types", "eid"} {
			if c.Has(a) {
				return nil, Errorf(EInvalidArg, map[string]any{"path": "/" + a, "hint": "drop " + a + " or use kind edge"},
					"%s applies to kind edge only", a)
			}
		}
	}
	var ids []uint32
	if c.Has("uids") {
		ids = []uint32{} // [] or only unknown uids: no rows
		for _, u := range c.Strings("uids") {
			if id, ok := c.R.Node(u); ok {
				ids = append(ids, id)
			}
		}
	}
	var rows []*historyRow
	var err error
	if kind == "node" {
		rows, err = versionHistoryNodes(c, ids, belief)
	} else {
		rows, err = versionHistoryEdges(c, ids, belief)
	}
	if err != nil {
		return nil, err
	}
	slices.SortFunc(rows, compareHistoryRows)
	var corrections, evolutions int64
	for _, r := range rows {
		switch r.change {
		case "correction":
			corrections++
		case "evolution":
			evolutions++
		}
	}
	c.typed = true
	return map[string]any{"rows": historyRowsAny(rows), "correction_total": corrections, "evolution_total": evolutions}, nil
}

// closedProv is a row's closing provenance as seen at T: none unless the
// row was closed as of T (cb not nil).
func closedProv(cb any, p *bt.Provenance) *bt.Provenance {
	if cb == nil {
		return nil
	}
	if p == nil {
		return bt.SystemProvenance
	}
	return p
}

func versionHistoryEdges(c *Call, ids []uint32, belief string) ([]*historyRow, error) {
	T := c.R.AsOf()
	auth, allProv := authorities(c), c.Bool("provenance")
	w := c.Window("window")
	want := c.Str("change")
	var rels map[string]bool
	if c.Has("rel_types") {
		rels = map[string]bool{}
		for _, r := range c.Strings("rel_types") {
			rels[r] = true
		}
	}
	var touch map[uint32]bool
	if ids != nil {
		touch = map[uint32]bool{}
		for _, id := range ids {
			touch[id] = true
		}
	}
	wantEID, hasEID := c.Args["eid"].(string)
	st := c.R
	// Versions are stored in batch order, so tt_s does not decrease with
	// the version id: the rows written at or before T are a prefix.
	n := st.NumEdgeVersions()
	end := sort.Search(n, func(v int) bool { return st.Edge(uint32(v)).TTs > T })
	var rows []*historyRow
	for v := range uint32(end) {
		if v&1023 == 0 {
			if err := c.Work(1024); err != nil {
				return nil, err
			}
		}
		iv := c.R.Valid(v)
		if !(iv.Start < w.End && w.Start < iv.End) {
			continue
		}
		if rels != nil && !rels[c.R.RelType(v)] {
			continue
		}
		if touch != nil && !touch[c.R.Src(v)] && !touch[c.R.Dst(v)] {
			continue
		}
		e := st.Edge(v)
		tte, cb, change := versionHistoryClosure(e.TTe, e.ClosedBy, T)
		if !versionHistoryKeep(belief, want, change) || !auth.keeps(e.Prov) {
			continue
		}
		eid := engine.EID(e.Key)
		if hasEID && eid != wantEID {
			continue
		}
		row := newHistoryRow(engine.VID(eid, e.TTs, e.Valid.Start), e.Valid, e.TTs, tte, e.CreatedBy, cb, change, e.Props)
		row.edge, row.eid, row.src, row.dst, row.rel, row.disc = true, eid, e.Key.Src, e.Key.Dst, e.Key.RelType, e.Key.Disc
		row.provenance(e.Prov, closedProv(cb, e.ClosedProv), allProv)
		rows = append(rows, row)
	}
	return rows, nil
}

// versionHistoryPins lists the belief times at which every node version
// written at or before T is believed at least once: T itself (rows still
// believed at T) and the transaction time of every batch before T (a row
// closed by batch k is believed as of batch k-1). The engine's read API
// exposes node versions only through NodeHistory (believed rows), so the
// batch times are found by bisecting SeqAt.
func versionHistoryPins(c *Call, T bt.Time) ([]bt.Time, error) {
	st := c.R
	var pins []bt.Time
	var find func(lo, hi bt.Time, slo, shi uint32) error
	find = func(lo, hi bt.Time, slo, shi uint32) error {
		if slo == shi {
			return nil
		}
		if err := c.Work(1); err != nil {
			return err
		}
		if hi-lo == 1 {
			pins = append(pins, hi)
			return nil
		}
		mid := lo + (hi-lo)/2
		smid := st.SeqAt(mid)
		if err := find(lo, mid, slo, smid); err != nil {
			return err
		}
		return find(mid, hi, smid, shi)
	}
	if err := find(0, T, st.SeqAt(0), st.SeqAt(T)); err != nil {
		return nil, err
	}
	// pins are the batch times <= T in order; the last one's state equals T's.
	return pins, nil
}

func versionHistoryNodes(c *Call, ids []uint32, belief string) ([]*historyRow, error) {
	T := c.R.AsOf()
	auth, allProv := authorities(c), c.Bool("provenance")
	w := c.Window("window")
	want := c.Str("change")
	if ids == nil {
		for id := range uint32(c.R.NumNodes()) {
			if c.R.Known(id) {
				ids = append(ids, id)
			}
		}
	} else {
		slices.Sort(ids)
		ids = slices.Compact(ids)
	}
	pins, err := versionHistoryPins(c, T)
	if err != nil {
		return nil, err
	}
	type key struct {
		tts, vts bt.Time
	}
	var rows []*historyRow
	st := c.R
	for _, id := range ids {
		seen := map[key]bool{}
		for _, p := range pins {
			hist, vids := st.At(p).NodeHistoryVIDs(id)
			if err := c.Work(int64(len(hist)) + 1); err != nil {
				return nil, err
			}
			for i, nv := range hist {
				k := key{nv.TTs, nv.Valid.Start}
				if seen[k] {
					continue
				}
				seen[k] = true
				if !(nv.Valid.Start < w.End && w.Start < nv.Valid.End) {
					continue
				}
				tte, cb, change := versionHistoryClosure(nv.TTe, nv.ClosedBy, T)
				if !versionHistoryKeep(belief, want, change) || !auth.keeps(nv.Prov) {
					continue
				}
				row := newHistoryRow(vids[i], nv.Valid, nv.TTs, tte, nv.CreatedBy, cb, change, nv.Props)
				row.uid, row.label = nv.UID, nv.Label
				row.provenance(nv.Prov, closedProv(cb, nv.ClosedProv), allProv)
				rows = append(rows, row)
			}
		}
	}
	return rows, nil
}
