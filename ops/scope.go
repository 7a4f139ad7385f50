package ops

import (
	"slices"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// Scope is the part of the store a call's result depends on, declared from
// its arguments: which node versions, which edge versions, and which uids
// must be registered. A batch written after the call's belief time that
// meets no part of the scope cannot change the call's result; that is the
// rule freshness checking relies on, so every scope errs on the wide side.
//
// An edge (node) part matches an identity when some version of it, before
// or after the write, overlaps the part's valid interval; the whole
// identity is then in scope, because operators follow an identity's
// fragments beyond the interval (an occurrence's event time is its first
// fragment's start, its duration runs to its last contiguous fragment).
type Scope struct {
	// All: the result may depend on anything (an operator without a
	// declared rule). Every write meets it.
	All bool `json:"all,omitempty"`
	// Known are uids whose registration matters: the call refuses an
	// unknown one (E_NOT_FOUND), so registering it changes the outcome.
	Known []string `json:"known"`
	// Nodes and Edges are unions of parts; nil: no versions of that kind
	// are read.
	Nodes []NodeScope `json:"nodes"`
	Edges []EdgeScope `json:"edges"`
}

// NodeScope is a set of node versions: those of UIDs (nil: every node)
// overlapping Valid.
type NodeScope struct {
	UIDs  []string    `json:"uids"`
	Valid bt.Interval `json:"valid"`
}

// EdgeScope is a set of edge versions overlapping Valid: those with an
// endpoint among Endpoints (nil: any), a relation type among RelTypes
// (nil: any; empty: none) and an eid among EIDs (nil: any). PropsFree
// says the result reads only where and when these edges are valid, not
// their props nor their version ids, so a write that replaces an edge's
// versions by versions with the same valid intervals (a correction of
// props) cannot change it.
type EdgeScope struct {
	Endpoints []string    `json:"endpoints"`
	RelTypes  []string    `json:"rel_types"`
	EIDs      []string    `json:"eids"`
	Valid     bt.Interval `json:"valid"`
	PropsFree bool        `json:"props_free,omitempty"`
}

// Value renders the scope as the canonical-JSON value its JSON form
// decodes to: {"all": true}, or {"known", "nodes": [{"uids", "valid"}],
// "edges": [{"endpoints", "rel_types", "eids", "valid"}]} with null for
// "any" and sorted lists. Traces digest this value.
func (s Scope) Value() map[string]any {
	if s.All {
		return map[string]any{"all": true}
	}
	var nodes, edges any // null when nil, like the JSON form
	if s.Nodes != nil {
		l := make([]any, len(s.Nodes))
		for i, n := range s.Nodes {
			l[i] = map[string]any{"uids": strList(n.UIDs), "valid": ivValue(n.Valid)}
		}
		nodes = l
	}
	if s.Edges != nil {
		l := make([]any, len(s.Edges))
		for i, e := range s.Edges {
			m := map[string]any{"endpoints": strList(e.Endpoints), "rel_types": strList(e.RelTypes), "eids": strList(e.EIDs), "valid": ivValue(e.Valid)}
			if e.PropsFree {
				m["props_free"] = true
			}
			l[i] = m
		}
		edges = l
	}
	return map[string]any{"known": strList(s.Known), "nodes": nodes, "edges": edges}
}

// Normalize sorts and deduplicates every list, as ScopeOf does; a scope
// read from a file must be normalized before the Meets methods use it.
func (s *Scope) Normalize() {
	s.Known = sortedSet(s.Known)
	for i := range s.Nodes {
		s.Nodes[i].UIDs = sortedSet(s.Nodes[i].UIDs)
	}
	for i := range s.Edges {
		e := &s.Edges[i]
		e.Endpoints, e.RelTypes, e.EIDs = sortedSet(e.Endpoints), sortedSet(e.RelTypes), sortedSet(e.EIDs)
	}
}

// MeetsNode reports whether a write to node uid whose versions (before and
// after it) span hull can change a result with this scope.
func (s *Scope) MeetsNode(uid string, hull bt.Interval) bool {
	if s.All {
		return true
	}
	for i := range s.Nodes {
		n := &s.Nodes[i]
		if n.Valid.Overlaps(hull) && (n.UIDs == nil || contains(n.UIDs, uid)) {
			return true
		}
	}
	return false
}

// MeetsRegistration reports whether registering uid (a batch that makes it
// known) can change a result with this scope.
func (s *Scope) MeetsRegistration(uid string) bool {
	if s.All || contains(s.Known, uid) {
		return true
	}
	for i := range s.Nodes {
		if s.Nodes[i].UIDs == nil || contains(s.Nodes[i].UIDs, uid) {
			return true
		}
	}
	return false
}

// MeetsEdge reports whether a write to edge identity k (with eid) whose
// versions span hull can change a result with this scope; propsOnly says
// the write kept the identity's valid intervals as they were.
func (s *Scope) MeetsEdge(k bt.EdgeKey, eid string, hull bt.Interval, propsOnly bool) bool {
	if s.All {
		return true
	}
	for i := range s.Edges {
		e := &s.Edges[i]
		if !e.Valid.Overlaps(hull) || propsOnly && e.PropsFree {
			continue
		}
		if e.RelTypes != nil && !contains(e.RelTypes, k.RelType) {
			continue
		}
		if e.Endpoints != nil && !contains(e.Endpoints, k.Src) && !contains(e.Endpoints, k.Dst) {
			continue
		}
		if e.EIDs != nil && !contains(e.EIDs, eid) {
			continue
		}
		return true
	}
	return false
}

// ReadsStore reports whether the scope names any part of the store.
func (s *Scope) ReadsStore() bool {
	return s.All || len(s.Known) > 0 || len(s.Nodes) > 0 || len(s.Edges) > 0
}

// ScopeOf is the dependency scope of a call to op with prepared (resolved,
// defaulted) arguments. An operator without a rule depends on everything.
func ScopeOf(op string, args map[string]any) Scope {
	r, ok := scopeRules[op]
	if !ok {
		return Scope{All: true}
	}
	s := r.scope(scopeArgs(args))
	s.Normalize()
	return s
}

// ScopeDoc is the scope rule of an operator in words ("" when it has none,
// which means its results depend on everything).
func ScopeDoc(op string) string { return scopeRules[op].doc }

type scopeRule struct {
	doc   string
	scope func(a scopeArgs) Scope
}

// always is every valid time.
var always = bt.Always

// The scope rules, one per operator. Each reads only the arguments; the
// property test in scope_test.go checks them against re-execution.
var scopeRules = map[string]scopeRule{
	"entity_history": {
		"node uid over all valid time (its registration too); with include_edges, every edge with uid as an endpoint, over all valid time.",
		func(a scopeArgs) Scope {
			uid := a.str("uid")
			s := Scope{Known: []string{uid}, Nodes: []NodeScope{{UIDs: []string{uid}, Valid: always}}}
			if a.bool("include_edges") {
				s.Edges = []EdgeScope{{Endpoints: []string{uid}, Valid: always}}
			}
			return s
		},
	},
	"version_history": {
		"kind node: the nodes in uids (null: every node) over window; kind edge: edges with an endpoint in uids (null: any), of rel_types, of eid, over window. A version closed later counts as touched: superseded rows report their closing.",
		func(a scopeArgs) Scope {
			w := a.window("window")
			uids := a.strs("uids")
			if a.str("kind") == "node" {
				return Scope{Known: uids, Nodes: []NodeScope{{UIDs: uids, Valid: w}}}
			}
			e := EdgeScope{Endpoints: uids, RelTypes: a.strs("rel_types"), Valid: w}
			if eid := a.str("eid"); eid != "" {
				e.EIDs = []string{eid}
			}
			return Scope{Known: uids, Edges: []EdgeScope{e}}
		},
	},
	"snapshot_subgraph": {
		"the seeds' registration; hops 0: the seeds' node versions at t_valid and edges of rel_types with an endpoint among the seeds at t_valid; hops >= 1: every node and every edge of rel_types at t_valid (the search may reach any of them).",
		func(a scopeArgs) Scope {
			seeds := a.strs("seeds")
			at := instant(a.int("t_valid"))
			if a.int("hops") == 0 {
				return Scope{Known: seeds, Nodes: []NodeScope{{UIDs: seeds, Valid: at}}, Edges: []EdgeScope{{Endpoints: seeds, RelTypes: a.strs("rel_types"), Valid: at}}}
			}
			return Scope{Known: seeds, Nodes: []NodeScope{{Valid: at}}, Edges: []EdgeScope{{RelTypes: a.strs("rel_types"), Valid: at}}}
		},
	},
	"temporal_reachability": {
		"src's registration and every edge overlapping window (node versions are not read); edge props and version ids are not read, so a correction that keeps an edge's valid intervals does not meet it.",
		func(a scopeArgs) Scope {
			return Scope{Known: []string{a.str("src")}, Edges: []EdgeScope{{Valid: a.window("window"), PropsFree: true}}}
		},
	},
	"temporal_pattern": {
		"every edge overlapping window (n_events_in_window counts them all) and the registration of the uids in bind; edge props are read by where predicates and listed in instance rows, so only output count without where is props-free.",
		patternScope,
	},
	"temporal_paths": {
		"src's and dst's registration and every edge overlapping window; edge props and version ids are not read.",
		func(a scopeArgs) Scope {
			return Scope{Known: []string{a.str("src"), a.str("dst")}, Edges: []EdgeScope{{Valid: a.window("window"), PropsFree: true}}}
		},
	},
	"longest_temporal_path": {
		"src's registration (when given) and every edge overlapping window; edge props and version ids are not read.",
		func(a scopeArgs) Scope {
			var known []string
			if src := a.str("src"); src != "" {
				known = []string{src}
			}
			return Scope{Known: known, Edges: []EdgeScope{{Valid: a.window("window"), PropsFree: true}}}
		},
	},
	"co_active": {
		"the uids named in a_spec and b_spec (registration), and for each spec the edges matching its src/dst (as endpoints) and rel_type, over all valid time.",
		func(a scopeArgs) Scope {
			var s Scope
			for _, side := range []string{"a_spec", "b_spec"} {
				spec := a.obj(side)
				e := EdgeScope{Valid: always}
				for _, f := range []string{"src", "dst"} {
					if u := spec.str(f); u != "" {
						s.Known = append(s.Known, u)
						e.Endpoints = append(e.Endpoints, u)
					}
				}
				if r := spec.str("rel_type"); r != "" {
					e.RelTypes = []string{r}
				}
				s.Edges = append(s.Edges, e)
			}
			return s
		},
	},
	"burst_detection": {
		"edges of target.rel_type (null: any) overlapping window; for node_activity only those with target.uid as an endpoint, and that uid's registration. Edge props and version ids are not read.",
		func(a scopeArgs) Scope {
			t := a.obj("target")
			e := EdgeScope{Valid: a.window("window"), PropsFree: true}
			if r := t.str("rel_type"); r != "" {
				e.RelTypes = []string{r}
			}
			s := Scope{Edges: []EdgeScope{e}}
			if t.str("kind") == "node_activity" {
				uid := t.str("uid")
				s.Known, s.Edges[0].Endpoints = []string{uid}, []string{uid}
			}
			return s
		},
	},
	"aggregate_events": {
		"edges of rel_types (null: any) overlapping window, only those with an endpoint among endpoint_filter.uids when given (and those uids' registration); with a label dimension also every node's versions over window. Edge props are read only by prop aggregates and prop_filter; without them a correction that keeps an edge's valid intervals does not meet the scope.",
		func(a scopeArgs) Scope {
			e := EdgeScope{RelTypes: a.strs("rel_types"), Valid: a.window("window"), PropsFree: a["prop_filter"] == nil}
			var s Scope
			if f := a.obj("endpoint_filter"); f != nil {
				uids := f.strs("uids")
				if uids == nil {
					uids = []string{}
				}
				s.Known, e.Endpoints = uids, uids
			}
			s.Edges = []EdgeScope{e}
			for _, agg := range a.objs("aggregates") {
				if agg.str("of") == "prop" || agg.str("prop") != "" {
					s.Edges[0].PropsFree = false
				}
			}
			for _, g := range a.objs("group_by") {
				if g.str("dim") == "label" {
					s.Nodes = []NodeScope{{Valid: a.window("window")}}
				}
			}
			return s
		},
	},
	"count_temporal_motifs": {
		"edges overlapping window, only those with an endpoint in node_filter when given (and those uids' registration); edge props and version ids are not read.",
		motifScope,
	},
	"find_temporal_motif_instances": {
		"edges overlapping window, only those with an endpoint in node_filter when given (and those uids' registration); edge props and version ids are not read.",
		motifScope,
	},
	"graph_metric_timeseries": {
		"node_count and new_node_rate: every node's versions overlapping window; active_edge_count, edge_event_count and reciprocity: every edge overlapping window (props and version ids not read); mean_out_degree: both.",
		func(a scopeArgs) Scope {
			w := a.window("window")
			nodes := []NodeScope{{Valid: w}}
			edges := []EdgeScope{{Valid: w, PropsFree: true}}
			switch a.str("metric") {
			case "node_count", "new_node_rate":
				return Scope{Nodes: nodes}
			case "mean_out_degree":
				return Scope{Nodes: nodes, Edges: edges}
			}
			return Scope{Edges: edges}
		},
	},
	"neighborhood_evolution": {
		"uid's registration and the edges with uid as an endpoint overlapping [t1, t2] (node versions, edge props and version ids are not read).",
		func(a scopeArgs) Scope {
			uid := a.str("uid")
			lo, hi := min(a.int("t1"), a.int("t2")), max(a.int("t1"), a.int("t2"))
			return Scope{Known: []string{uid}, Edges: []EdgeScope{{Endpoints: []string{uid}, Valid: bt.Interval{Start: lo, End: hi + 1}, PropsFree: true}}}
		},
	},
	"diff_snapshots": {
		"every node and edge valid at t1 or at t2; with scope hops 0, only the seeds' node versions and the edges with an endpoint among the seeds (and the seeds' registration).",
		func(a scopeArgs) Scope {
			var s Scope
			var uids []string
			if sc := a.obj("scope"); sc != nil {
				s.Known = sc.strs("seeds")
				if sc.int("hops") == 0 {
					uids = s.Known
				}
			}
			for _, t := range []int64{a.int("t1"), a.int("t2")} {
				s.Nodes = append(s.Nodes, NodeScope{UIDs: uids, Valid: instant(t)})
				s.Edges = append(s.Edges, EdgeScope{Endpoints: uids, Valid: instant(t)})
			}
			return s
		},
	},
	"resolve_entities": {
		"every node's versions over all valid time (any uid may match).",
		func(a scopeArgs) Scope { return Scope{Nodes: []NodeScope{{Valid: always}}} },
	},
	"compute": {
		"nothing in the store: a compute result depends only on its inputs (the results it reads).",
		func(a scopeArgs) Scope { return Scope{} },
	},
}

func motifScope(a scopeArgs) Scope {
	e := EdgeScope{Valid: a.window("window"), PropsFree: true}
	var s Scope
	if _, given := a["node_filter"]; given && a["node_filter"] != nil {
		uids := a.strs("node_filter")
		if uids == nil {
			uids = []string{}
		}
		s.Known, e.Endpoints = uids, uids
	}
	s.Edges = []EdgeScope{e}
	return s
}

// patternScope is temporal_pattern's rule: the whole window, because the
// count of window events and the (t, eid) order read every event in it.
func patternScope(a scopeArgs) Scope {
	e := EdgeScope{Valid: a.window("window"), PropsFree: a.str("output") == "count"}
	for _, h := range a.objs("hops") {
		if len(h.objs("where")) > 0 {
			e.PropsFree = false
		}
	}
	s := Scope{Edges: []EdgeScope{e}}
	for _, uids := range a.obj("bind") {
		l, _ := uids.([]any)
		for _, u := range l {
			if str, ok := u.(string); ok {
				s.Known = append(s.Known, str)
			}
		}
	}
	return s
}

// instant is the one-microsecond interval [t, t+1).
func instant(t int64) bt.Interval { return bt.Interval{Start: t, End: t + 1} }

// scopeArgs reads prepared arguments; absent or mistyped values read as
// zero values, which only ever widen a scope (nil lists mean "any").
type scopeArgs map[string]any

func (a scopeArgs) str(k string) string { s, _ := a[k].(string); return s }
func (a scopeArgs) bool(k string) bool  { b, _ := a[k].(bool); return b }
func (a scopeArgs) int(k string) int64  { return toInt(a[k]) }

func (a scopeArgs) strs(k string) []string {
	l, ok := a[k].([]any)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(l))
	for _, x := range l {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func (a scopeArgs) obj(k string) scopeArgs {
	m, _ := a[k].(map[string]any)
	return m
}

func (a scopeArgs) objs(k string) []scopeArgs {
	l, _ := a[k].([]any)
	var out []scopeArgs
	for _, x := range l {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// window reads a window argument; a missing one is all valid time.
func (a scopeArgs) window(k string) bt.Interval {
	m, ok := a[k].(map[string]any)
	if !ok {
		return always
	}
	iv := bt.Interval{Start: toInt(m["t_a"]), End: toInt(m["t_b"])}
	if iv.Start >= iv.End {
		return always
	}
	return iv
}

func contains(list []string, s string) bool {
	_, found := slices.BinarySearch(list, s)
	return found
}

// sortedSet sorts and deduplicates, keeping nil (any) apart from empty (none).
func sortedSet(l []string) []string {
	if l == nil {
		return nil
	}
	if strictlySorted(l) {
		return l // already a set: no copy
	}
	out := slices.Clone(l)
	slices.Sort(out)
	return slices.Compact(out)
}

func strictlySorted(l []string) bool {
	for i := 1; i < len(l); i++ {
		if l[i-1] >= l[i] {
			return false
		}
	}
	return true
}

// strList renders a list as a JSON value, nil (any) as null.
func strList(l []string) any {
	if l == nil {
		return nil
	}
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = s
	}
	return out
}

func ivValue(iv bt.Interval) map[string]any {
	return map[string]any{"start": iv.Start, "end": iv.End}
}
