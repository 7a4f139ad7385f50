package tools

import (
	"encoding/json"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/evidence"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/plan"
)

// Schema is a JSON Schema (2020-12) as a JSON value.
type Schema = map[string]any

// inferOptions make schema inference read an embedded *ops.Schema (a
// violation's "expected") as what it marshals to: a JSON Schema object.
var inferOptions = &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[ops.Schema](): {Type: "object", Description: "a JSON Schema"},
}}

// inferred is the JSON Schema of a Go type, from its JSON field tags.
func inferred[T any]() Schema {
	s, err := jsonschema.ForType(reflect.TypeFor[T](), inferOptions)
	if err != nil {
		panic("tools: schema of " + reflect.TypeFor[T]().String() + ": " + err.Error())
	}
	return toValue(s)
}

// toValue renders anything that marshals to JSON as a JSON value.
func toValue(v any) Schema {
	b, err := json.Marshal(v)
	if err != nil {
		panic("tools: " + err.Error())
	}
	var m Schema
	if err := json.Unmarshal(b, &m); err != nil {
		panic("tools: " + err.Error())
	}
	return m
}

func props(s Schema) Schema { p, _ := s["properties"].(Schema); return p }

// PlanSchema is the plan IR (plan.Plan) as a JSON Schema, with the
// contract's structural limits: 1..plan.MaxSteps steps, operators from the
// registry, answer kinds from plan.AnswerKinds. The contract checks far
// more (arguments, references, grounding, cost) and says why.
func PlanSchema() Schema {
	s := inferred[plan.Plan]()
	s["description"] = "a plan: a DAG of operator calls whose arguments may hold {\"$ref\": \"sN.path\"} references; validate_plan explains every rule it breaks"
	steps := props(s)["steps"].(Schema)
	steps["type"] = "array"
	steps["minItems"], steps["maxItems"] = 1, plan.MaxSteps
	step := steps["items"].(Schema)
	step["required"] = []string{"id", "op", "args"}
	sp := props(step)
	sp["id"].(Schema)["pattern"] = stepIDPattern
	sp["op"].(Schema)["enum"] = ops.Names()
	sp["depends_on"].(Schema)["type"] = "array"
	kind := props(props(s)["answer_spec"].(Schema))["kind"].(Schema)
	kind["enum"] = plan.AnswerKinds
	return s
}

// stepIDPattern is the step id rule; a test keeps it equal to what the
// contract accepts.
const stepIDPattern = `^s[0-9]+$`

// AnswerSchema is the claim language (evidence.Answer) as a JSON Schema.
func AnswerSchema() Schema {
	s := inferred[evidence.Answer]()
	claims := props(s)["claims"].(Schema)
	claims["type"] = "array"
	props(claims["items"].(Schema))["kind"].(Schema)["enum"] = evidence.Kinds
	s["required"] = []string{"claims"}
	return s
}

// TraceSchema is the trace (exec.Trace) as a JSON Schema.
func TraceSchema() Schema { return publish(inferred[exec.Trace](), output) }

// EnvelopeSchema is the output of one operator call: the envelope with
// the operator's result schema.
func EnvelopeSchema(spec *ops.Spec) Schema {
	return object("the canonical envelope of one call", Schema{
		"op":             Schema{"type": "string", "const": spec.Name},
		"args":           Schema{"type": "object", "description": "the arguments as run, defaults filled in"},
		"as_of_tt":       Schema{"type": "integer", "description": "the belief time the call was pinned at (µs; 0 when the operator reads no store)"},
		"dataset_extent": Schema{"type": "object", "description": "the store's valid-time extent {vt_min, vt_max}"},
		"result":         toValue(spec.Result),
		"result_digest":  Schema{"type": "string", "description": "SHA-256 of the canonical result"},
	}, "op", "args", "as_of_tt", "result", "result_digest")
}

// object is a closed object schema.
func object(desc string, properties Schema, required ...string) Schema {
	s := Schema{"type": "object", "additionalProperties": false}
	if desc != "" {
		s["description"] = desc
	}
	if properties != nil {
		s["properties"] = properties
	}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

func open(desc string, properties Schema, required ...string) Schema {
	s := object(desc, properties, required...)
	delete(s, "additionalProperties")
	return s
}

var (
	uidsSchema   = Schema{"type": "array", "items": Schema{"type": "string", "minLength": 1}, "description": "the node uids the task supplies: the only literal uids a plan may use (grounding)"}
	asOfSchema   = Schema{"type": "integer", "minimum": 0, "description": "belief (transaction) time to pin at, µs since the epoch; absent or 0: the store's last durable batch"}
	digestSchema = Schema{"type": "string", "pattern": "^[0-9a-f]{64}$", "description": "a trace digest this server returned (run_plan, ask)"}
)

// StatsSchema is the output of stats (engine.Stats).
func StatsSchema() Schema { return inferred[engine.Stats]() }

// VerdictSchema is the output of validate_plan (plan.Verdict).
func VerdictSchema() Schema {
	s := inferred[plan.Verdict]()
	props(s)["violations"].(Schema)["type"] = "array"
	return s
}

// CertifiedSchema is the certified answer (evidence.Certified).
func CertifiedSchema() Schema { return inferred[evidence.Certified]() }

// FailureSchema is a refused call.
func FailureSchema() Schema {
	s := inferred[Failure]()
	p := props(s)
	p["violations"].(Schema)["type"] = "array"
	for _, k := range []string{"rule", "path", "hint"} {
		p[k] = Schema{"type": "string", "description": "the first violation's " + k}
	}
	s["required"] = []string{"code", "message", "rule", "path", "hint", "violations"}
	return publish(s, output)
}
