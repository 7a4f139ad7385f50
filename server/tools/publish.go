package tools

import (
	"math"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// MaxSafeInteger is the largest integer every JSON reader holds exactly
// (2^53 - 1, JavaScript's Number.MAX_SAFE_INTEGER). No published bound
// is larger: the store's open end 2^62 would reach a JavaScript client as
// 4611686018427388000.
const MaxSafeInteger = 1<<53 - 1

// role says which way a schema describes data: what a client sends or
// what the server returns.
type role int

const (
	input     role = iota // what a client sends: descriptions kept, long ones cut
	output                // what the server returns: structure only
	reference             // what the server returns, every level, for the manual
)

// numericKeywords hold numbers that a client compares values with.
var numericKeywords = []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "default", "const"}

// publish rewrites a generated schema into the form every stock MCP and
// JSON Schema client accepts (the TypeScript SDK's Zod and Ajv, Redocly):
//   - a boolean true sub-schema becomes {} and false becomes {"not": {}}
//     (only additionalProperties keeps its boolean, as every draft allows);
//   - null and empty "properties", "required" and "items" are dropped;
//   - bounds and defaults beyond ±MaxSafeInteger are dropped (the server
//     still checks them; a schema stricter than the server would refuse
//     values it accepts);
//   - in an input window {t_a, t_b}, t_b may be omitted or null: open.
//
// Output schemas lose their descriptions: the manual (tgms://manual)
// documents every result field, and a client validates structure only.
func publish(s Schema, r role) Schema {
	if r == output {
		s = shallow(s, 0)
	}
	out, _ := publishValue(s, r).(Schema)
	if out == nil {
		out = Schema{}
	}
	return out
}

func publishValue(v any, r role) any {
	switch x := v.(type) {
	case bool:
		if x {
			return Schema{}
		}
		return Schema{"not": Schema{}}
	case Schema:
		return publishSchema(x, r)
	}
	return v
}

func publishSchema(s Schema, r role) Schema {
	out := Schema{}
	for k, v := range s {
		if v == nil {
			continue // a null keyword says nothing, and stock clients refuse it
		}
		switch k {
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
			m, _ := v.(Schema)
			if len(m) == 0 {
				continue
			}
			sub := Schema{}
			for name, e := range m {
				sub[name] = publishValue(e, r)
			}
			out[k] = sub
		case "items", "additionalItems", "contains", "not", "if", "then", "else", "propertyNames", "unevaluatedItems", "unevaluatedProperties":
			if v == nil {
				continue
			}
			if list, ok := v.([]any); ok { // draft-04 tuple items
				out["prefixItems"] = publishList(list, r)
				continue
			}
			if b, ok := v.(bool); ok && b && k == "items" {
				continue // items: true says nothing
			}
			out[k] = publishValue(v, r)
		case "additionalProperties":
			if b, ok := v.(bool); ok {
				if !b {
					out[k] = false
				}
				continue
			}
			if v != nil {
				out[k] = publishValue(v, r)
			}
		case "allOf", "anyOf", "oneOf", "prefixItems":
			if list, ok := v.([]any); ok && len(list) > 0 {
				out[k] = publishList(list, r)
			}
		case "required":
			if list, ok := v.([]any); ok && len(list) > 0 {
				out[k] = list
			} else if strs, ok := v.([]string); ok && len(strs) > 0 {
				out[k] = strs
			}
		case "description", "title":
			switch r {
			case input:
				out[k] = brief(v)
			case reference:
				out[k] = v
			}
		default:
			out[k] = v
		}
	}
	for _, k := range numericKeywords {
		f, ok := out[k].(float64)
		if !ok || math.Abs(f) <= MaxSafeInteger {
			continue
		}
		delete(out, k)
	}
	if r == input {
		openWindowEnd(out)
	}
	return out
}

// outputDepth is how deep an output schema names fields: an envelope's
// result rows, a run's steps and their fields. Below it a value is typed
// only; the manual and the trace resource document the rest.
const outputDepth = 3

// shallow cuts a schema below outputDepth to its type.
func shallow(s Schema, depth int) Schema {
	if depth >= outputDepth {
		if t, ok := s["type"]; ok {
			return Schema{"type": t}
		}
		return Schema{}
	}
	out := Schema{}
	for k, v := range s {
		switch k {
		case "properties":
			m, _ := v.(Schema)
			sub := Schema{}
			for name, e := range m {
				if es, ok := e.(Schema); ok {
					sub[name] = shallow(es, depth+1)
				} else {
					sub[name] = e
				}
			}
			out[k] = sub
		case "items", "additionalProperties":
			if es, ok := v.(Schema); ok {
				out[k] = shallow(es, depth+1)
			} else {
				out[k] = v
			}
		default:
			out[k] = v
		}
	}
	return out
}

func publishList(list []any, r role) []any {
	out := make([]any, len(list))
	for i, e := range list {
		out[i] = publishValue(e, r)
	}
	return out
}

// maxArgDescription is the longest argument description a tool lists; a
// longer one (a catalogue, a table) is cut to its first sentence, and the
// manual keeps the whole text.
const maxArgDescription = 320

func brief(v any) any {
	d, ok := v.(string)
	if !ok || len(d) <= maxArgDescription {
		return v
	}
	cut := strings.Index(d, ". ")
	if cut < 0 || cut > maxArgDescription {
		cut = strings.LastIndex(d[:maxArgDescription], " ")
	}
	if cut < 0 {
		cut = maxArgDescription
	}
	return strings.TrimRight(d[:cut], ".:;, ") + ". The whole list: the tgms://manual resource."
}

// openWindowEnd lets an input window's end be omitted or null (open).
func openWindowEnd(s Schema) {
	p, _ := s["properties"].(Schema)
	tb, _ := p["t_b"].(Schema)
	if tb == nil || p["t_a"] == nil || tb["type"] != "integer" {
		return
	}
	tb["type"] = []any{"integer", "null"}
	if d, ok := tb["description"].(string); ok {
		tb["description"] = d + "; omitted or null: open (no end)"
	}
	req, _ := s["required"].([]any)
	kept := []any{}
	for _, x := range req {
		if x != "t_b" {
			kept = append(kept, x)
		}
	}
	if len(kept) == 0 {
		delete(s, "required")
	} else {
		s["required"] = kept
	}
}

// jsFloatSlack is how far above the open end an integer may lie and still
// be the open end as a JavaScript client writes it: doubles near 2^62 are
// 1024 apart, so every integer up to 2^62+512 is read back as 2^62.
const jsFloatSlack = 512

// normalizeArgs reads what a JavaScript client can send for the open end
// 2^62 as the open end: a window whose t_b is omitted or null, and an
// integer in (2^62, 2^62+512], the decimal a double holding 2^62 prints as
// (4611686018427388000). It rewrites args in place and returns it.
func normalizeArgs(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normalizeArgs(e)
		}
		if w, ok := x["window"].(map[string]any); ok {
			if _, hasStart := w["t_a"]; hasStart && w["t_b"] == nil {
				w["t_b"] = int64(bt.OpenEnd)
			}
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = normalizeArgs(e)
		}
		return x
	case int64:
		if x > bt.OpenEnd && x <= bt.OpenEnd+jsFloatSlack {
			return int64(bt.OpenEnd)
		}
	}
	return v
}
