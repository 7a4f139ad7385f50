package tools

import (
	"context"

	"github.com/tgms-go/tgms/ops"
)

// Tool is one entry of the catalog: what MCP lists as a tool and HTTP
// serves as POST /v1/tools/<name>.
type Tool struct {
	Name        string
	Description string
	Input       Schema // always an object schema
	Output      Schema
	// Reference is the output schema at every depth, for the manual
	// (Output names fields only three levels deep). A tool may set it to
	// the whole schema when its Output lists less.
	Reference Schema
	// Heavy calls count against the service's concurrency bound.
	Heavy bool
	// Writes marks tools that change the store (only with --allow-writes).
	Writes bool
	// Operator is the ops spec of an operator tool (nil otherwise).
	Operator *ops.Spec

	run func(ctx context.Context, s *Service, args map[string]any) (any, *Failure)
}

// Catalog lists the tools: one per operator, sorted by name, then
// validate_plan, run_plan, verify_answer, ask, stats, trace_verify,
// trace_check, trace_refresh, answers_list, answers_check, recall, why
// and, when writes are allowed, answers_save, answers_refresh, remember,
// correct, retract, write_batch and erase.
//
// Every schema is published (see publish): one that the stock MCP SDKs
// and JSON Schema validators accept, with bounds a JavaScript client can
// hold exactly.
func Catalog(writes bool) (out []*Tool) {
	for _, spec := range ops.All() {
		out = append(out, operatorTool(spec))
	}
	traceRef := Schema{"trace_digest": digestSchema, "trace": open("a whole trace, as run_plan's trace_uri resource or 'tgms plan run --trace' wrote it", nil)}
	defer func() {
		for _, t := range out {
			full := t.Output
			if t.Reference != nil { // the output lists less than the manual
				full = t.Reference
			}
			t.Reference = publish(full, reference)
			t.Input, t.Output = publish(t.Input, input), publish(t.Output, output)
		}
	}()
	out = append(out,
		&Tool{
			Name:        "validate_plan",
			Description: "Check a plan against the plan contract without running it: structure, dependencies, operators, argument types, references along their full path, identifier grounding (literal uids must be among uids), temporal arguments and the cost estimate. Returns {valid, violations}; each violation says which rule, where (JSON Pointer), what is allowed and how to fix it. Operators, arguments and result fields: the tgms://manual resource; how to write a plan: the plan prompt.",
			Input:       object("a plan and the uids the task supplies", Schema{"plan": PlanSchema(), "uids": uidsSchema}, "plan"),
			Output:      VerdictSchema(),
			run:         validatePlan,
		},
		&Tool{
			Name:        "run_plan",
			Description: "Check and run a plan pinned at one belief time (the store's last durable batch, or as_of_tt). Returns the trace digest (read the whole trace as the tgms://trace/<digest> resource), every step with its operator, arguments, completeness, digests and result rows, the answer and its certification by the evidence contract. A plan the contract rejects fails with its violations; nothing runs. Every output field: the tgms://manual resource.",
			Input:       object("a plan, the task's uids and an optional belief time", Schema{"plan": PlanSchema(), "uids": uidsSchema, "as_of_tt": asOfSchema}, "plan"),
			Output:      inferred[RunResult](),
			Heavy:       true,
			run:         runPlan,
		},
		&Tool{
			Name:        "verify_answer",
			Description: "Check typed claims against a trace (one this server produced, by digest, or a whole trace, re-executed at its recorded belief time first). Returns each claim's verdict (supported, weakly_supported, unsupported, unverifiable) with its reason, the certified answer rendered from the supported claims only, and the withheld claims.",
			Input:       object("an answer and the trace it cites", merge(traceRef, Schema{"answer": AnswerSchema()}), "answer"),
			Output:      CertifiedSchema(),
			Heavy:       true,
			run:         verifyAnswer,
		},
		&Tool{
			Name:        "ask",
			Description: "Ask a question in words: the built-in question reader plans it, the plan contract admits it (with repairs), the executor runs it pinned at the store's belief time (or as_of_tt), and the evidence gate certifies the answer. Returns the reading, the certified answer, the claims with verdicts, the withheld claims and the trace digest; a question it cannot read is refused with the reason.",
			Input:       object("a question", Schema{"question": Schema{"type": "string", "minLength": 1}, "uids": uidsSchema, "as_of_tt": asOfSchema}, "question"),
			Output:      inferred[AskResult](),
			Heavy:       true,
			run:         ask,
		},
		&Tool{
			Name:        "stats",
			Description: "The store's statistics at its last durable belief: nodes, node and edge versions, batches, last transaction time, valid-time extent and relation types.",
			Input:       object("no arguments", Schema{}),
			Output:      StatsSchema(),
			run:         stats,
		},
		&Tool{
			Name:        "trace_verify",
			Description: "Re-execute a trace at its recorded belief time and compare every call digest, result digest and the trace digest: reproduced is true only when all match.",
			Input:       object("the trace to re-execute", traceRef),
			Output:      inferred[ReproResult](),
			Heavy:       true,
			run:         traceVerify,
		},
	)
	out = append(out, validateWriteTool())
	out = append(out, freshTools(traceRef)...)
	out = append(out, answerTools(writes, traceRef)...)
	out = append(out, memoryReadTools()...)
	if writes {
		out = append(out, memoryWriteTools()...)
		out = append(out, &Tool{
			Name:        "write_batch",
			Description: "Write one atomic batch of ops in the JSONL format of 'tgms write' (assert_node, assert_edge, retract, correct, ingest; one op per line). All ops apply at one new transaction time, or none do.",
			Input:       object("one batch", Schema{"ops": Schema{"type": "string", "minLength": 1, "description": "JSONL: one op object per line"}}, "ops"),
			Output:      inferred[WriteResult](),
			Writes:      true,
			run:         writeBatch,
		}, eraseTool())
	}
	return out
}

// ManualPointer ends every description that has more in the manual.
const ManualPointer = " Semantics, tie rules and every result field: the tgms://manual resource."

func merge(a, b Schema) Schema {
	out := Schema{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// operatorTool is the tool of one operator: its argument schema in, its
// envelope out.
func operatorTool(spec *ops.Spec) *Tool {
	desc := spec.Summary + " Returns {op, args, as_of_tt, dataset_extent, result, result_digest}." + ManualPointer
	in := toValue(spec.Args)
	return &Tool{
		Name: spec.Name, Description: desc, Input: in, Output: EnvelopeSchema(spec), Heavy: true, Operator: spec,
		run: func(ctx context.Context, s *Service, args map[string]any) (any, *Failure) {
			return callOperator(ctx, s, spec.Name, normalizeArgs(args).(map[string]any))
		},
	}
}
