package tools

import (
	"context"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/writecheck"
)

// validateWriteTool checks a batch against the write contract without
// writing it. It reads only, so a read-only server offers it too.
func validateWriteTool() *Tool {
	return &Tool{
		Name:        "validate_write",
		Description: "Check a batch against the write contract without writing: named entities exist or are created by the batch, no assert over a believed fact (say correct, or retract then assert), no model batch replacing a user's fact without override, sane valid times, property types as stored. Returns {admitted, violations (rule, JSON Pointer path, hint), preview (versions opened and closed)}.",
		Input: object("a batch: its ops, its provenance and override", Schema{
			"ops": Schema{"type": "string", "minLength": 1, "description": "JSONL: one op object per line"},
			"provenance": Schema{"type": "object", "description": "who stands behind the batch", "additionalProperties": false,
				"properties": map[string]any{
					"authority": Schema{"type": "string", "enum": bt.AuthorityNames(), "description": "user: a person asserted it; model: an agent inferred it; import: a bulk load; system"},
					"source":    Schema{"type": "string", "description": "where the facts came from"},
					"actor":     Schema{"type": "string", "description": "the agent or person writing"},
					"ref":       Schema{"type": "string", "description": "the evidence: a message id, document URI or episode id"},
					"note":      Schema{"type": "string", "description": "a free remark"},
				}, "required": []string{"authority"}},
			"override": Schema{"type": "boolean", "description": "allow a model-authority batch to replace facts a user stated"},
		}, "ops"),
		Output: inferred[writecheck.Result](),
		run:    validateWrite,
	}
}

func validateWrite(_ context.Context, s *Service, args map[string]any) (any, *Failure) {
	if f := closedArgs(args, "ops", "provenance", "override"); f != nil {
		return nil, f
	}
	if s.db == nil {
		return nil, badArg("", "", "validate_write needs a store opened as a database")
	}
	text, f := strArg(args, "ops", true)
	if f != nil {
		return nil, f
	}
	ops, f := parseOps(text)
	if f != nil {
		return nil, f
	}
	b := bt.Batch{Ops: ops}
	if err := bt.DecodeBatchFields(map[string]any{"provenance": args["provenance"], "override": args["override"]}, &b); err != nil {
		return nil, badArg("", "provenance {authority: user|model|import|system, source, actor, ref, note}; override true|false", "%v", err)
	}
	res := s.db.ValidateWrite(b)
	return &res, nil
}
