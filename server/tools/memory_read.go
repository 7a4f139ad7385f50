package tools

import (
	"context"
	"fmt"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/plan"
)

// Fact is one version of a fact as recall and why return it: what held
// over which valid interval, believed over which transaction interval,
// written by which batch (its transaction time) and op, with the batch's
// provenance.
type Fact struct {
	Kind       string  `json:"kind"` // node or edge
	VID        string  `json:"vid"`
	UID        string  `json:"uid,omitempty"`
	Label      string  `json:"label,omitempty"`
	EID        string  `json:"eid,omitempty"`
	Src        string  `json:"src,omitempty"`
	Dst        string  `json:"dst,omitempty"`
	RelType    string  `json:"rel_type,omitempty"`
	Disc       string  `json:"disc,omitempty"`
	Props      any     `json:"props"`
	VtS        bt.Time `json:"vt_s"`
	VtE        bt.Time `json:"vt_e"`
	Valid      string  `json:"valid"` // the valid interval in RFC 3339
	TTs        bt.Time `json:"tt_s"`
	TTe        bt.Time `json:"tt_e"`
	BatchTT    bt.Time `json:"batch_tt"` // the batch that wrote it (= tt_s)
	Believed   bool    `json:"believed"` // not closed as of the read's as_of_tt
	CreatedBy  string  `json:"created_by"`
	ClosedBy   string  `json:"closed_by,omitempty"`
	Change     string  `json:"change,omitempty"` // correction or evolution, once closed
	Provenance any     `json:"provenance"`       // the writing batch's; null where the store has none
	Step       string  `json:"step"`             // the evidence step whose rows hold it
}

// Recall is recall's output.
type Recall struct {
	UID         string         `json:"uid,omitempty"`
	Src         string         `json:"src,omitempty"`
	Dst         string         `json:"dst,omitempty"`
	At          *bt.Time       `json:"at"` // null: facts that still hold
	History     bool           `json:"history"`
	AsOfTT      bt.Time        `json:"as_of_tt"`
	AsOfText    string         `json:"as_of_rfc3339"`
	Facts       []Fact         `json:"facts"`
	Complete    bool           `json:"complete"`
	TraceDigest string         `json:"trace_digest"`
	TraceURI    string         `json:"trace_uri"`
	Evidence    []StepEvidence `json:"evidence"`
}

// WhyVersion is one version of a fact with who closed it.
type WhyVersion struct {
	Fact
	ClosedAt         *bt.Time `json:"closed_at_tt"`      // the closing batch (null while believed)
	ClosedProvenance any      `json:"closed_provenance"` // its provenance, when it wrote a version of the fact
}

// Why is why's output.
type Why struct {
	Fact        map[string]any `json:"fact"`
	AsOfTT      bt.Time        `json:"as_of_tt"`
	AsOfText    string         `json:"as_of_rfc3339"`
	Versions    []WhyVersion   `json:"versions"`
	Corrections int64          `json:"corrections"`
	Evolutions  int64          `json:"evolutions"`
	Complete    bool           `json:"complete"`
	TraceDigest string         `json:"trace_digest"`
	TraceURI    string         `json:"trace_uri"`
	Evidence    []StepEvidence `json:"evidence"`
}

var memLimitSchema = Schema{"type": "integer", "minimum": 1, "maximum": 10000}

func memoryReadTools() []*Tool {
	return []*Tool{
		{
			Name: "recall",
			Description: "Facts about an entity (uid) or pair (src, dst) valid at `at` (absent: still holding), believed at as_of_tt (absent: now); history: all versions. " +
				"Each with props, times, batch_tt, op, provenance; certified (trace_digest). " +
				`Example: {"uid":"dana","at":"2025-04-01T00:00:00Z"} → {"facts":[{"props":{"office":"Berlin"},"provenance":{"authority":"user",...}}]}.`,
			Input: object("", Schema{
				"uid":       Schema{"type": "string", "minLength": 1},
				"src":       Schema{"type": "string", "minLength": 1},
				"dst":       Schema{"type": "string", "minLength": 1},
				"at":        timeSchema("valid time"),
				"as_of_tt":  timeSchema("belief time"),
				"history":   Schema{"type": "boolean"},
				"rel_types": Schema{"type": "array", "items": Schema{"type": "string"}},
				"limit":     memLimitSchema,
			}),
			Output: rowsAsObjects(inferred[Recall](), "facts", "evidence"), Reference: inferred[Recall](),
			Heavy: true,
			run:   recall,
		},
		{
			Name: "why",
			Description: "Every version of a fact (uid, or src, dst, rel_type, disc) known at as_of_tt: who wrote it (provenance, batch_tt), who closed it (closed_at_tt, closed_provenance), correction or evolution; at: those valid then. " +
				`Example: {"uid":"dana","at":"2025-04-01T00:00:00Z"} → {"versions":[{"props":{"office":"Berlin"},"change":"correction",...},{"props":{"office":"Munich"},"believed":true}]}.`,
			Input: object("", merge(factSchema, Schema{
				"at":       timeSchema("valid time"),
				"as_of_tt": timeSchema("belief time"),
				"limit":    memLimitSchema,
			})),
			Output: rowsAsObjects(inferred[Why](), "versions", "evidence"), Reference: inferred[Why](),
			Heavy: true,
			run:   why,
		},
	}
}

// rowsAsObjects lists the named array fields of an output as arrays of
// objects: the fields of their rows are in the manual (the tool's
// Reference).
func rowsAsObjects(s Schema, fields ...string) Schema {
	for _, f := range fields {
		props(s)[f] = Schema{"type": "array", "items": Schema{"type": "object"}}
	}
	return s
}

// StepEvidence is one step of a memory read's plan: the call and result
// digests and completeness (the whole evidence: the trace resource).
type StepEvidence struct {
	StepID       string `json:"step_id"`
	Op           string `json:"op"`
	CallDigest   string `json:"call_digest"`
	ResultDigest string `json:"result_digest"`
	RowsTotal    int64  `json:"rows_total"`
	Complete     bool   `json:"complete"`
}

// memoryPin reads the belief time of a memory read and checks that the
// entities it names are known then.
func (s *Service) memoryPin(args map[string]any, uids ...string) (bt.Time, *Failure) {
	asOf, _, f := timeArg(args, "as_of_tt", 0)
	if f != nil {
		return 0, f
	}
	if asOf == 0 {
		asOf = s.store.LastTT()
	}
	var unknown string
	err := s.store.Read(asOf, func(r engine.Reader) error {
		for _, u := range uids {
			if _, ok := r.Node(u); !ok {
				unknown = u
				return nil
			}
		}
		return nil
	})
	if err != nil {
		return 0, fail(statusInternal, "E_INTERNAL", "memory.read", "", "", nil, "reading the store: %v", err)
	}
	if unknown != "" {
		return 0, fail(statusNotFound, "E_NOT_FOUND", "memory.unknown_entity", "/uid", "resolve the name first (resolve_entities) or remember the entity", nil,
			"no entity %q is known as of %s", unknown, bt.FormatBoth(asOf))
	}
	return asOf, nil
}

func limitArg(args map[string]any) (int64, *Failure) {
	v, ok := args["limit"]
	if !ok || v == nil {
		return 100, nil
	}
	n, ok := v.(int64)
	if !ok || n < 1 || n > 10000 {
		return 0, badArg("/limit", "1..10000", "limit must be an integer in 1..10000, got %v", v)
	}
	return n, nil
}

// runMemoryPlan admits and runs a memory read's plan, keeps its trace and
// returns it; a plan the contract rejects or a failed step is a Failure.
// The contract runs without the store's statistics: a memory read at a
// valid time past the data (is she still there?) is a question, not a
// unit mistake, and each step reads one entity's versions (the runtime
// budget still bounds it).
func (s *Service) runMemoryPlan(ctx context.Context, p map[string]any, uids []string, asOf bt.Time) (*exec.Trace, *Failure) {
	v := plan.Validate(p, plan.Options{UIDs: uids})
	if !v.Valid {
		return nil, rejected(v)
	}
	tr := exec.Run(ctx, s.store, v.Plan, exec.Options{AsOf: asOf})
	s.traces.Put(tr)
	for i := range tr.Steps {
		if r := &tr.Steps[i]; r.Error != nil {
			vi := r.Violation(i)
			return nil, &Failure{Code: r.Error.Code, Message: r.Error.Message, Status: statusUnprocessed, Violations: []plan.Violation{vi}}
		}
	}
	return tr, nil
}

func versionStep(id string, args map[string]any) map[string]any {
	return map[string]any{"id": id, "op": "version_history", "depends_on": []any{}, "args": args}
}

func memoryPlan(id string, steps ...map[string]any) map[string]any {
	list := make([]any, len(steps))
	for i, st := range steps {
		list[i] = st
	}
	return map[string]any{"plan_id": id, "steps": list, "answer_spec": map[string]any{"kind": "count", "from": "s1.rows_total"}}
}

// evidenceOf is what a trace's steps certify (the facts carry the rows).
func evidenceOf(tr *exec.Trace) ([]StepEvidence, bool) {
	out := make([]StepEvidence, len(tr.Steps))
	complete := true
	for i, r := range tr.Steps {
		out[i] = StepEvidence{StepID: r.StepID, Op: r.Op, CallDigest: r.CallDigest, ResultDigest: r.ResultDigest, RowsTotal: r.RowsTotal}
		out[i].Complete = r.Evidence != nil && r.Evidence.Completeness.Complete
		complete = complete && out[i].Complete
	}
	return out, complete
}

func recall(ctx context.Context, s *Service, args map[string]any) (any, *Failure) {
	if f := closedArgs(args, "uid", "src", "dst", "at", "as_of_tt", "history", "rel_types", "limit"); f != nil {
		return nil, f
	}
	uid, f := strArg(args, "uid", false)
	if f != nil {
		return nil, f
	}
	src, f := strArg(args, "src", false)
	if f != nil {
		return nil, f
	}
	dst, f := strArg(args, "dst", false)
	if f != nil {
		return nil, f
	}
	pair := src != "" || dst != ""
	switch {
	case uid != "" && pair:
		return nil, badArg("/uid", "an entity is uid; a pair is src and dst", "give uid or a pair (src, dst), not both")
	case uid == "" && !pair:
		return nil, badArg("/uid", "an entity is uid; a pair is src and dst", "name an entity (uid) or a pair (src, dst)")
	case pair && (src == "" || dst == ""):
		return nil, badArg("/src", "a pair is src and dst", "a pair needs both src and dst")
	}
	history, _ := args["history"].(bool)
	if v, ok := args["history"]; ok && v != nil {
		if _, isBool := v.(bool); !isBool {
			return nil, badArg("/history", "", "history must be a boolean")
		}
	}
	at, atGiven, f := timeArg(args, "at", 0)
	if f != nil {
		return nil, f
	}
	if atGiven && at >= bt.OpenEnd {
		return nil, badArg("/at", "a valid time before the open end 2^62", "at must be before the open end")
	}
	limit, f := limitArg(args)
	if f != nil {
		return nil, f
	}
	named := []string{uid}
	if pair {
		named = []string{src, dst}
	}
	asOf, f := s.memoryPin(args, named...)
	if f != nil {
		return nil, f
	}
	window := map[string]any{"t_a": int64(bt.OpenEnd - 1), "t_b": int64(bt.OpenEnd)}
	belief := "current"
	switch {
	case history:
		window, belief = map[string]any{"t_a": int64(0), "t_b": int64(bt.OpenEnd)}, "all"
		if atGiven {
			window = map[string]any{"t_a": at, "t_b": at + 1}
		}
	case atGiven:
		window = map[string]any{"t_a": at, "t_b": at + 1}
	}
	edgeArgs := map[string]any{"kind": "edge", "uids": []any{named[0]}, "window": window, "belief": belief, "limit": limit, "provenance": true}
	if rt, ok := args["rel_types"]; ok && rt != nil {
		edgeArgs["rel_types"] = rt
	}
	var p map[string]any
	if pair {
		p = memoryPlan("recall-pair", versionStep("s1", edgeArgs))
	} else {
		nodeArgs := map[string]any{"kind": "node", "uids": []any{uid}, "window": window, "belief": belief, "limit": limit, "provenance": true}
		p = memoryPlan("recall", versionStep("s1", nodeArgs), versionStep("s2", edgeArgs))
	}
	tr, f := s.runMemoryPlan(ctx, p, named, asOf)
	if f != nil {
		return nil, f
	}
	out := &Recall{UID: uid, Src: src, Dst: dst, History: history, AsOfTT: tr.AsOfTT, AsOfText: bt.FormatRFC3339(tr.AsOfTT),
		Facts: []Fact{}, TraceDigest: tr.TraceDigest, TraceURI: TraceURI(tr.TraceDigest)}
	if atGiven {
		out.At = &at
	}
	out.Evidence, out.Complete = evidenceOf(tr)
	for _, st := range tr.Steps {
		for _, row := range resultRows(tr, st.StepID) {
			fact := factOf(row, st.StepID)
			if pair && !(fact.Src == src && fact.Dst == dst || fact.Src == dst && fact.Dst == src) {
				continue
			}
			out.Facts = append(out.Facts, fact)
		}
	}
	return out, nil
}

func why(ctx context.Context, s *Service, args map[string]any) (any, *Failure) {
	if f := closedArgs(args, "uid", "src", "dst", "rel_type", "disc", "at", "as_of_tt", "limit"); f != nil {
		return nil, f
	}
	ref, f := factRef(args)
	if f != nil {
		return nil, f
	}
	at, atGiven, f := timeArg(args, "at", 0)
	if f != nil {
		return nil, f
	}
	if atGiven && at >= bt.OpenEnd {
		return nil, badArg("/at", "a valid time before the open end 2^62", "at must be before the open end")
	}
	limit, f := limitArg(args)
	if f != nil {
		return nil, f
	}
	window := map[string]any{"t_a": int64(0), "t_b": int64(bt.OpenEnd)}
	if atGiven {
		window = map[string]any{"t_a": at, "t_b": at + 1}
	}
	var named []string
	var stepArgs, identity map[string]any
	if ref.Kind == bt.RefNode {
		named = []string{ref.UID}
		identity = map[string]any{"kind": "node", "uid": ref.UID}
		stepArgs = map[string]any{"kind": "node", "uids": []any{ref.UID}, "window": window, "belief": "all", "limit": limit, "provenance": true}
	} else {
		k := ref.Edge
		named = []string{k.Src, k.Dst}
		eid := engine.EID(k)
		identity = map[string]any{"kind": "edge", "src": k.Src, "dst": k.Dst, "rel_type": k.RelType, "disc": k.Disc, "eid": eid}
		stepArgs = map[string]any{"kind": "edge", "eid": eid, "uids": []any{k.Src}, "window": window, "belief": "all", "limit": limit, "provenance": true}
	}
	asOf, f := s.memoryPin(args, named...)
	if f != nil {
		return nil, f
	}
	tr, f := s.runMemoryPlan(ctx, memoryPlan("why", versionStep("s1", stepArgs)), named, asOf)
	if f != nil {
		return nil, f
	}
	out := &Why{Fact: identity, AsOfTT: tr.AsOfTT, AsOfText: bt.FormatRFC3339(tr.AsOfTT), Versions: []WhyVersion{},
		TraceDigest: tr.TraceDigest, TraceURI: TraceURI(tr.TraceDigest)}
	out.Evidence, out.Complete = evidenceOf(tr)
	rows := resultRows(tr, "s1")
	byBatch := map[bt.Time]any{}
	for _, row := range rows {
		f := factOf(row, "s1")
		if _, seen := byBatch[f.TTs]; !seen || byBatch[f.TTs] == nil {
			byBatch[f.TTs] = f.Provenance
		}
	}
	for _, row := range rows {
		v := WhyVersion{Fact: factOf(row, "s1")}
		if !v.Believed {
			closed := v.TTe
			v.ClosedAt, v.ClosedProvenance = &closed, row["closed_provenance"]
			if v.ClosedProvenance == nil {
				v.ClosedProvenance = byBatch[closed]
			}
		}
		switch v.Change {
		case "correction":
			out.Corrections++
		case "evolution":
			out.Evolutions++
		}
		out.Versions = append(out.Versions, v)
	}
	return out, nil
}

// resultRows are the rows of a step's whole result from this run.
func resultRows(tr *exec.Trace, step string) []map[string]any {
	full := tr.FullResult(step)
	list, _ := full["rows"].([]map[string]any)
	if list != nil {
		return list
	}
	anyRows, _ := full["rows"].([]any)
	out := make([]map[string]any, 0, len(anyRows))
	for _, r := range anyRows {
		if m, ok := r.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// factOf reads one version_history row.
func factOf(row map[string]any, step string) Fact {
	str := func(k string) string { s, _ := row[k].(string); return s }
	num := func(k string) bt.Time { n, _ := row[k].(int64); return n }
	f := Fact{Kind: "node", VID: str("vid"), UID: str("uid"), Label: str("label"), EID: str("eid"), Src: str("src"), Dst: str("dst"),
		RelType: str("rel_type"), Disc: str("disc"), Props: row["props"], VtS: num("vt_s"), VtE: num("vt_e"), TTs: num("tt_s"), TTe: num("tt_e"),
		CreatedBy: str("created_by"), ClosedBy: str("closed_by"), Change: str("change"), Provenance: row["provenance"], Step: step}
	if f.EID != "" {
		f.Kind = "edge"
	}
	f.BatchTT, f.Believed = f.TTs, f.TTe >= bt.OpenEnd
	f.Valid = fmt.Sprintf("[%s, %s)", bt.FormatRFC3339(f.VtS), bt.FormatRFC3339(f.VtE))
	return f
}
