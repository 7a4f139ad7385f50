package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/plan"
	"github.com/tgms-go/tgms/writecheck"
)

// The memory tools are an agent's way to write and read facts as a memory:
// remember, correct and retract are one-op batches (assert_node or
// assert_edge, correct, retract) with the batch's provenance; recall and
// why (memory_read.go) are plans over version_history, run and traced like
// any other, so their answers carry evidence and can be verified and
// checked for freshness.

// BatchWriter writes one atomic batch with its provenance and override
// (*tgms.DB). The memory tools write only through one: a memory write
// never drops where a fact came from.
type BatchWriter interface {
	WriteBatch(b bt.Batch) (bt.Time, error)
}

// MemoryWrite is the output of remember, correct and retract.
type MemoryWrite struct {
	TT         bt.Time          `json:"tt"`
	TTText     string           `json:"tt_rfc3339"`
	Ops        []map[string]any `json:"ops"` // the batch written, in the op JSONL form
	Provenance map[string]any   `json:"provenance"`
	Override   bool             `json:"override"`
}

var (
	// timeSchema is a time: µs since the epoch or RFC 3339 (MemoryDoc).
	timeSchema = func(string) Schema {
		return Schema{"type": []any{"integer", "string"}}
	}
	propsSchema      = Schema{"type": "object"}
	provenanceSchema = object("", Schema{
		"source":    Schema{"type": "string"},
		"authority": Schema{"type": "string", "enum": bt.AuthorityNames()},
		"actor":     Schema{"type": "string", "minLength": 1},
		"ref":       Schema{"type": "string"},
		"note":      Schema{"type": "string"},
	}, "authority", "actor")
	overrideSchema = Schema{"type": "boolean"}
	factSchema     = Schema{
		"uid":      Schema{"type": "string", "minLength": 1},
		"src":      Schema{"type": "string"},
		"dst":      Schema{"type": "string"},
		"rel_type": Schema{"type": "string"},
		"disc":     Schema{"type": "string"},
	}
)

// MemoryDoc is what the manual says of the memory tools as a whole.
const MemoryDoc = `Times are µs since the epoch or RFC 3339. A fact is a node (uid) or an
edge (src, dst, rel_type, disc). props is the fact's whole property object
over the interval (it replaces, never merges). correct keeps its reason
as the provenance note. provenance {source, authority: user|model|import|system,
actor, ref, note} is stored with every version the write opens. remember
over an interval where the fact is believed says the world changed at
valid_from, in one batch the write contract admits: a retract at
valid_from, the assert, and what was believed after valid_until asserted
again unchanged (its ops are in the output). correct closes a belief as a
correction (it was wrong); retract ends the fact from a time on
(evolution). recall and why are plans of
version_history calls: their trace_digest works with trace_verify and
trace_check, and earlier beliefs stay readable at earlier as_of_tt.
correct with nothing believed where it points, and retract with nothing
believed at or after at, are E_NOT_FOUND; override lets a model-authority
write replace a fact a user stated.`

func memoryWriteTools() []*Tool {
	return []*Tool{
		{
			Name: "remember",
			Description: "Assert a fact from valid_from until valid_until (absent: open), with provenance; over a belief the world changed at valid_from (evolution). " +
				`Example: {"uid":"dana","label":"Person","props":{"office":"Berlin"},"valid_from":"2025-03-03T00:00:00Z","provenance":{"authority":"user","actor":"dana","ref":"msg-4411"}} → {"tt":...}.`,
			Input: object("", merge(factSchema, Schema{
				"label":       Schema{"type": "string"},
				"props":       propsSchema,
				"valid_from":  timeSchema("default 0"),
				"valid_until": timeSchema("exclusive; absent: open"),
				"provenance":  provenanceSchema,
				"override":    overrideSchema,
			}), "provenance"),
			Output: writeOutput(), Reference: inferred[MemoryWrite](),
			Writes: true,
			run:    remember,
		},
		{
			Name: "correct",
			Description: "The belief about a fact over [valid_from, valid_until) was wrong: props hold there (or, with to_valid_from, it held there instead), for a reason. " +
				`Example: {"uid":"dana","props":{"office":"Munich"},"valid_from":"2025-03-03T00:00:00Z","reason":"Dana: Munich, not Berlin","provenance":{"authority":"user","actor":"dana"}}.`,
			Input: object("", merge(factSchema, Schema{
				"props":          propsSchema,
				"valid_from":     timeSchema("default 0"),
				"valid_until":    timeSchema("absent: open"),
				"to_valid_from":  timeSchema("where it really started"),
				"to_valid_until": timeSchema("absent: open"),
				"reason":         Schema{"type": "string", "minLength": 1},
				"provenance":     provenanceSchema,
				"override":       overrideSchema,
			}), "reason", "provenance"),
			Output: writeOutput(), Reference: inferred[MemoryWrite](),
			Writes: true,
			run:    correct,
		},
		{
			Name: "retract",
			Description: "A fact stopped being true at valid time at: beliefs from then on are closed as evolution. " +
				`Example: {"src":"dana","dst":"acme","rel_type":"WORKS_AT","at":"2025-06-30T00:00:00Z","provenance":{"authority":"model","actor":"agent-7","ref":"episode-17"}}.`,
			Input: object("", merge(factSchema, Schema{
				"at":         timeSchema("from then on the fact does not hold"),
				"provenance": provenanceSchema,
				"override":   overrideSchema,
			}), "at", "provenance"),
			Output: writeOutput(), Reference: inferred[MemoryWrite](),
			Writes: true,
			run:    retract,
		},
	}
}

// writeOutput is what remember, correct and retract list as their output
// (the provenance's fields are the input's).
func writeOutput() Schema {
	s := inferred[MemoryWrite]()
	props(s)["provenance"] = Schema{"type": "object"}
	return s
}

// factRef reads the fact a memory tool names: a node by uid or an edge by
// src, dst, rel_type and disc.
func factRef(args map[string]any) (bt.Ref, *Failure) {
	uid, f := strArg(args, "uid", false)
	if f != nil {
		return bt.Ref{}, f
	}
	var k bt.EdgeKey
	for _, p := range []struct {
		name string
		dst  *string
	}{{"src", &k.Src}, {"dst", &k.Dst}, {"rel_type", &k.RelType}, {"disc", &k.Disc}} {
		if *p.dst, f = strArg(args, p.name, false); f != nil {
			return bt.Ref{}, f
		}
	}
	edge := k.Src != "" || k.Dst != "" || k.RelType != "" || k.Disc != ""
	switch {
	case uid != "" && edge:
		return bt.Ref{}, badArg("/uid", "a node fact names uid; an edge fact names src, dst and rel_type", "give uid or an edge (src, dst, rel_type), not both")
	case uid != "":
		return bt.NodeRef(uid), nil
	case !edge:
		return bt.Ref{}, badArg("/uid", "a node fact names uid; an edge fact names src, dst and rel_type", "name the fact: uid, or src, dst and rel_type")
	}
	for _, p := range []struct{ name, v string }{{"src", k.Src}, {"dst", k.Dst}, {"rel_type", k.RelType}} {
		if p.v == "" {
			return bt.Ref{}, badArg("/"+p.name, "an edge fact names src, dst and rel_type", "%s is required for an edge fact", p.name)
		}
	}
	return bt.EdgeRef(k), nil
}

// timeArg reads a time argument: µs since the epoch or RFC 3339; absent
// or null gives def.
func timeArg(args map[string]any, name string, def bt.Time) (bt.Time, bool, *Failure) {
	v, ok := args[name]
	if !ok || v == nil {
		return def, false, nil
	}
	switch x := v.(type) {
	case int64:
		if x >= 0 && x <= bt.OpenEnd {
			return x, true, nil
		}
		if x > bt.OpenEnd && x <= bt.OpenEnd+jsFloatSlack {
			return bt.OpenEnd, true, nil
		}
	case string:
		if t, err := bt.ParseTime(x); err == nil {
			return t, true, nil
		}
	}
	return 0, false, badArg("/"+name, "µs since the epoch or RFC 3339 such as 2025-03-03T00:00:00Z", "%s must be a time in [0, 2^62], got %v", name, v)
}

func intervalArgs(args map[string]any, from, until string) (bt.Interval, *Failure) {
	s, _, f := timeArg(args, from, 0)
	if f != nil {
		return bt.Interval{}, f
	}
	e, _, f := timeArg(args, until, bt.OpenEnd)
	if f != nil {
		return bt.Interval{}, f
	}
	if s >= e {
		return bt.Interval{}, badArg("/"+until, "the end must be after the start", "[%s, %s) is empty: %s must be after %s", bt.FormatBoth(s), bt.FormatBoth(e), until, from)
	}
	return bt.Interval{Start: s, End: e}, nil
}

func propsArg(args map[string]any) (bt.Props, *Failure) {
	v, ok := args["props"]
	if !ok || v == nil {
		return "", nil
	}
	p, err := bt.NewProps(v)
	if err != nil {
		return "", badArg("/props", "send a JSON object", "props: %v", err)
	}
	return p, nil
}

// provenanceArg reads the provenance a memory write states: the store's
// rules (bitemporal.ParseProvenance), and an actor, which the memory
// tools require.
func provenanceArg(args map[string]any) (bt.Provenance, *Failure) {
	raw, ok := args["provenance"]
	if !ok || raw == nil {
		return bt.Provenance{}, badArg("/provenance", `{"authority": "user"|"model"|"import"|"system", "actor": "who", "ref": "evidence"}`, "provenance is required: say who wrote the fact and on what authority")
	}
	p, err := bt.ParseProvenance(raw)
	if err != nil {
		path, msg, _ := strings.Cut(err.Error(), ": ")
		if !strings.HasPrefix(path, "/provenance") {
			path, msg = "/provenance", err.Error()
		}
		f := badArg(path, "authority is one of "+strings.Join(bt.AuthorityNames(), ", ")+"; source, actor, ref and note are strings", "%s", msg)
		if path == "/provenance/authority" {
			f.Violations[0].Allowed = bt.AuthorityNames()
		}
		return bt.Provenance{}, f
	}
	if strings.TrimSpace(p.Actor) == "" {
		return bt.Provenance{}, badArg("/provenance/actor", "name the agent or person", "provenance.actor is required")
	}
	return p, nil
}

func remember(ctx context.Context, s *Service, args map[string]any) (any, *Failure) {
	if f := closedArgs(args, "uid", "src", "dst", "rel_type", "disc", "label", "props", "valid_from", "valid_until", "provenance", "override"); f != nil {
		return nil, f
	}
	ref, f := factRef(args)
	if f != nil {
		return nil, f
	}
	label, f := strArg(args, "label", false)
	if f != nil {
		return nil, f
	}
	if label != "" && ref.Kind == bt.RefEdge {
		return nil, badArg("/label", "labels belong to node facts; put edge attributes in props", "an edge fact has no label")
	}
	props, f := propsArg(args)
	if f != nil {
		return nil, f
	}
	iv, f := intervalArgs(args, "valid_from", "valid_until")
	if f != nil {
		return nil, f
	}
	prov, f := provenanceArg(args)
	if f != nil {
		return nil, f
	}
	op := bt.AssertEdge(ref.Edge, props, iv)
	if ref.Kind == bt.RefNode {
		if label == "" {
			label = "Node"
		}
		op = bt.AssertNode(ref.UID, label, props, iv)
	}
	batch, f := s.evolve(ctx, ref, op)
	if f != nil {
		return nil, f
	}
	return s.writeMemory(ctx, args, prov, batch...)
}

// evolve is remember's batch: the assert alone when nothing is believed
// about the fact over its interval; otherwise the world changed at its
// start, said explicitly as the write contract asks: retract the fact
// from the start, assert the new belief, and assert again, unchanged, what
// was believed after its end. The belief is read just before the write;
// a batch landing in between makes the contract refuse this one, never
// write it wrongly.
func (s *Service) evolve(ctx context.Context, ref bt.Ref, op bt.Op) ([]bt.Op, *Failure) {
	args := map[string]any{"window": map[string]any{"t_a": op.Valid.Start, "t_b": int64(bt.OpenEnd)}, "belief": "current", "limit": int64(10_000)}
	if ref.Kind == bt.RefNode {
		args["kind"], args["uids"] = "node", []any{ref.UID}
	} else {
		args["kind"], args["eid"] = "edge", engine.EID(ref.Edge)
	}
	env, err := ops.Execute(ctx, s.store, "version_history", args)
	if err != nil {
		return nil, fromOpError("version_history", err)
	}
	rows, _ := env.Result["rows"].([]any)
	if truncated, _ := env.Result["truncated"].(bool); truncated {
		return nil, fail(statusUnprocessed, EWrite, "write.memory", "/valid_from", "correct or retract the fact in parts", nil,
			"more than 10000 believed versions from valid_from on")
	}
	overlaps := false
	var after []bt.Op
	for _, r := range rows {
		row, _ := r.(map[string]any)
		vs, _ := row["vt_s"].(int64)
		ve, _ := row["vt_e"].(int64)
		if vs < op.Valid.End && op.Valid.Start < ve {
			overlaps = true
		}
		if ve <= op.Valid.End {
			continue
		}
		props, err := bt.NewProps(row["props"])
		if err != nil {
			return nil, fail(statusInternal, "E_INTERNAL", "write.memory", "", "", nil, "props of a believed version: %v", err)
		}
		keep := bt.Interval{Start: max(vs, op.Valid.End), End: ve}
		if ref.Kind == bt.RefNode {
			label, _ := row["label"].(string)
			after = append(after, bt.AssertNode(ref.UID, label, props, keep))
		} else {
			after = append(after, bt.AssertEdge(ref.Edge, props, keep))
		}
	}
	if !overlaps {
		return []bt.Op{op}, nil
	}
	return append([]bt.Op{bt.Retract(ref, op.Valid.Start), op}, after...), nil
}

func correct(ctx context.Context, s *Service, args map[string]any) (any, *Failure) {
	if f := closedArgs(args, "uid", "src", "dst", "rel_type", "disc", "props", "valid_from", "valid_until", "to_valid_from", "to_valid_until", "reason", "provenance", "override"); f != nil {
		return nil, f
	}
	ref, f := factRef(args)
	if f != nil {
		return nil, f
	}
	props, f := propsArg(args)
	if f != nil {
		return nil, f
	}
	iv, f := intervalArgs(args, "valid_from", "valid_until")
	if f != nil {
		return nil, f
	}
	reason, f := strArg(args, "reason", true)
	if f != nil {
		f.Violations[0].Hint = "say why the earlier belief was wrong (who said otherwise, which evidence)"
		return nil, f
	}
	if strings.TrimSpace(reason) == "" {
		return nil, badArg("/reason", "say why the earlier belief was wrong", "reason is empty")
	}
	prov, f := provenanceArg(args)
	if f != nil {
		return nil, f
	}
	if prov.Note == "" {
		prov.Note = reason
	} else {
		prov.Note = reason + "; " + prov.Note
	}
	op := bt.Correct(ref, props, iv)
	if _, moves := args["to_valid_from"]; moves {
		to, f := intervalArgs(args, "to_valid_from", "to_valid_until")
		if f != nil {
			return nil, f
		}
		op = bt.CorrectTime(ref, props, iv, to)
	} else if _, end := args["to_valid_until"]; end {
		return nil, badArg("/to_valid_from", "give where the fact really started too", "to_valid_until needs to_valid_from")
	}
	return s.writeMemory(ctx, args, prov, op)
}

func retract(ctx context.Context, s *Service, args map[string]any) (any, *Failure) {
	if f := closedArgs(args, "uid", "src", "dst", "rel_type", "disc", "at", "provenance", "override"); f != nil {
		return nil, f
	}
	ref, f := factRef(args)
	if f != nil {
		return nil, f
	}
	at, given, f := timeArg(args, "at", 0)
	if f != nil {
		return nil, f
	}
	if !given {
		return nil, badArg("/at", "the valid time from which the fact no longer holds", "at is required")
	}
	prov, f := provenanceArg(args)
	if f != nil {
		return nil, f
	}
	return s.writeMemory(ctx, args, prov, bt.Retract(ref, at))
}

// writeMemory writes one op as a batch with its provenance. A writer that
// cannot store provenance is refused: a memory write never drops where a
// fact came from.
func (s *Service) writeMemory(_ context.Context, args map[string]any, prov bt.Provenance, batch ...bt.Op) (any, *Failure) {
	override := false
	if v, ok := args["override"]; ok && v != nil {
		b, isBool := v.(bool)
		if !isBool {
			return nil, badArg("/override", "true or false", "override must be a boolean")
		}
		override = b
	}
	op := batch[0]
	edge := op.Kind == bt.OpAssertEdge || op.Ref.Kind == bt.RefEdge
	for i := range batch {
		if err := batch[i].Validate(i); err != nil {
			return nil, fromMemoryError(err, edge)
		}
	}
	bw, ok := s.writer.(BatchWriter)
	if !ok {
		return nil, fail(statusUnavailable, EWrite, "write.provenance", "", "serve a store that records provenance", nil,
			"this store cannot record provenance, so the memory tools do not write to it (write_batch does)")
	}
	tt, err := bw.WriteBatch(bt.Batch{Ops: batch, Prov: &prov, Override: override})
	if err != nil {
		return nil, fromMemoryError(err, edge)
	}
	out := &MemoryWrite{TT: tt, TTText: bt.FormatRFC3339(tt), Ops: []map[string]any{}, Provenance: prov.Map(), Override: override}
	for _, op := range batch {
		b, err := bt.EncodeOp(op)
		var wire any
		if err == nil {
			wire, err = canon.Parse(b)
		}
		if err != nil {
			return nil, fail(statusInternal, "E_INTERNAL", "write.op", "", "", nil, "encoding the op written: %v", err)
		}
		m, _ := wire.(map[string]any)
		out.Ops = append(out.Ops, m)
	}
	return out, nil
}

// fromMemoryError is a refused memory write: the op's field becomes the
// tool argument it came from.
func fromMemoryError(err error, edge bool) *Failure {
	var refused *writecheck.RefusedError
	if errors.As(err, &refused) && len(refused.Violations) > 0 {
		f := &Failure{Code: refused.Violations[0].Code, Status: statusUnprocessed,
			Message: fmt.Sprintf("the write contract refused the write (%d violation(s)); nothing was written: %s", len(refused.Violations), refused.Violations[0].Message)}
		for _, w := range refused.Violations {
			f.Violations = append(f.Violations, plan.Violation{Code: w.Code, Rule: w.Rule, Path: contractPath(w.Path, edge), Message: w.Message, Hint: w.Hint})
		}
		return f
	}
	f := fromWriteError(0, fmt.Errorf("nothing written: %w", err))
	v := &f.Violations[0]
	v.Rule, v.Path, v.Hint = "write.memory", "", "fix the argument named and call again; nothing was written"
	if oe := asOpError(err); oe != nil {
		v.Path = "/" + memoryField(oe.Field, edge)
		if oe.Code == bt.CodeNotFound {
			v.Hint = "recall the entity first: the fact is not believed where the call says (remember it instead)"
		}
	}
	return f
}

func asOpError(err error) *bt.OpError {
	var oe *bt.OpError
	if errors.As(err, &oe) {
		return oe
	}
	return nil
}

// contractPath is the tool argument a write contract path points at:
// /ops/N/<field> is the field's argument; /provenance and /override stay.
func contractPath(p string, edge bool) string {
	rest, ok := strings.CutPrefix(p, "/ops/")
	if !ok {
		return p
	}
	_, field, _ := strings.Cut(rest, "/")
	field, _, _ = strings.Cut(field, "/")
	return "/" + memoryField(field, edge)
}

var memoryFields = map[string]string{"vt": "valid_from", "vt_s": "valid_from", "vt_e": "valid_until", "to_vt": "to_valid_from", "to_vt_s": "to_valid_from", "to_vt_e": "to_valid_until", "t": "at", "ref.uid": "uid", "ref.kind": "uid"}

// memoryField is the tool argument an op field came from.
func memoryField(f string, edge bool) string {
	if m, ok := memoryFields[f]; ok {
		return m
	}
	if f == "ref" || f == "" {
		if edge {
			return "src"
		}
		return "uid"
	}
	return f
}
