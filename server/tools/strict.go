package tools

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// keywords are the JSON Schema keywords a published schema may use; any
// other key must start with "x-" (an extension, such as x-tgms-uid).
var keywords = []string{
	"type", "description", "title", "properties", "required", "additionalProperties",
	"items", "prefixItems", "minItems", "maxItems", "uniqueItems", "minLength", "maxLength", "pattern",
	"enum", "const", "default", "examples", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
	"anyOf", "oneOf", "allOf", "not", "format", "minProperties", "maxProperties", "propertyNames",
}

var typeNames = []string{"object", "array", "string", "integer", "number", "boolean", "null"}

// CheckStrict checks that a published schema is one every stock client
// accepts: the TypeScript MCP SDK (Zod on tools/list, Ajv on results),
// Ajv in strict mode and Redocly. It reports the first breach with its
// JSON Pointer:
//   - every sub-schema is an object (no true or false, except
//     additionalProperties: false), and no keyword is null;
//   - only known keywords or x- extensions; type names are JSON's;
//   - every required field is listed in properties;
//   - every number (bounds, defaults, consts, enums, examples) is one a
//     JavaScript number holds exactly: an integer within ±(2^53-1), or a
//     fraction.
func CheckStrict(s Schema) error {
	if s["type"] != "object" {
		return fmt.Errorf(`/type: a tool schema must be {"type": "object", ...}, got %v`, s["type"])
	}
	return checkStrict(s, "")
}

func checkStrict(v any, path string) error {
	s, ok := v.(Schema)
	if !ok {
		return fmt.Errorf("%s: a sub-schema must be a JSON object, got %s", orRoot(path), describe(v))
	}
	for k, e := range s {
		at := path + "/" + k
		if e == nil {
			return fmt.Errorf("%s: null is not a value of %q (omit the keyword)", at, k)
		}
		if !slices.Contains(keywords, k) && !strings.HasPrefix(k, "x-") {
			return fmt.Errorf("%s: unknown keyword %q", at, k)
		}
		switch k {
		case "properties":
			m, ok := e.(Schema)
			if !ok {
				return fmt.Errorf("%s: properties must be an object of schemas, got %s", at, describe(e))
			}
			for name, sub := range m {
				if err := checkStrict(sub, at+"/"+name); err != nil {
					return err
				}
			}
		case "items", "not", "propertyNames":
			if err := checkStrict(e, at); err != nil {
				return err
			}
		case "additionalProperties":
			if b, ok := e.(bool); ok {
				if b {
					return fmt.Errorf("%s: true is a boolean sub-schema; omit it", at)
				}
				continue
			}
			if err := checkStrict(e, at); err != nil {
				return err
			}
		case "anyOf", "oneOf", "allOf", "prefixItems":
			list, ok := e.([]any)
			if !ok || len(list) == 0 {
				return fmt.Errorf("%s: want a non-empty array of schemas, got %s", at, describe(e))
			}
			for i, sub := range list {
				if err := checkStrict(sub, fmt.Sprintf("%s/%d", at, i)); err != nil {
					return err
				}
			}
		case "type":
			if err := checkType(e, at); err != nil {
				return err
			}
		case "required":
			names, err := stringList(e)
			if err != nil {
				return fmt.Errorf("%s: %v", at, err)
			}
			p, _ := s["properties"].(Schema)
			for _, n := range names {
				if _, ok := p[n]; !ok {
					return fmt.Errorf("%s: required field %q is not in properties", at, n)
				}
			}
		default:
			if err := checkNumbers(e, at); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkType(e any, at string) error {
	var names []string
	switch x := e.(type) {
	case string:
		names = []string{x}
	case []any, []string:
		var err error
		if names, err = stringList(x); err != nil || len(names) == 0 {
			return fmt.Errorf("%s: want a type name or a non-empty array of them, got %s", at, describe(e))
		}
	default:
		return fmt.Errorf("%s: want a type name, got %s", at, describe(e))
	}
	for _, n := range names {
		if !slices.Contains(typeNames, n) {
			return fmt.Errorf("%s: %q is not a JSON type", at, n)
		}
	}
	return nil
}

// checkNumbers walks a keyword's value (a bound, an enum, a default) for
// numbers a JavaScript client cannot hold exactly.
func checkNumbers(v any, at string) error {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) || x == math.Trunc(x) && math.Abs(x) > MaxSafeInteger {
			return fmt.Errorf("%s: %v is beyond ±(2^53-1): a JavaScript client reads it rounded", at, x)
		}
	case int64:
		if x > MaxSafeInteger || x < -MaxSafeInteger {
			return fmt.Errorf("%s: %d is beyond ±(2^53-1): a JavaScript client reads it rounded", at, x)
		}
	case int:
		return checkNumbers(int64(x), at)
	case []any:
		for i, e := range x {
			if err := checkNumbers(e, fmt.Sprintf("%s/%d", at, i)); err != nil {
				return err
			}
		}
	case Schema:
		for k, e := range x {
			if err := checkNumbers(e, at+"/"+k); err != nil {
				return err
			}
		}
	}
	return nil
}

func stringList(v any) ([]string, error) {
	switch x := v.(type) {
	case []string:
		return x, nil
	case []any:
		out := make([]string, len(x))
		for i, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("want strings, got %s", describe(e))
			}
			out[i] = s
		}
		return out, nil
	}
	return nil, fmt.Errorf("want an array of strings, got %s", describe(v))
}

func describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return fmt.Sprintf("the boolean %v", v)
	case Schema:
		return "an object"
	case []any, []string:
		return "an array"
	case string:
		return "a string"
	}
	return fmt.Sprintf("%T", v)
}

func orRoot(p string) string {
	if p == "" {
		return "(root)"
	}
	return p
}
