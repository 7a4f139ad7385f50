package canon

import (
	"bytes"
	"fmt"
	"math"
)

// Equal reports whether a and b are deeply equal in the value model. Kinds
// matter: int64 1 and float64 1.0 differ, as do 0.0 and -0.0 (their
// canonical texts differ); NaN equals nothing. Go integer types are compared
// by value (int 1 equals int64 1). For values Marshal accepts, Equal agrees
// with comparing canonical encodings; values of other types (Raw, Appender,
// []string, map[string]string) are compared by their canonical encodings,
// and are unequal to everything if they fail to encode.
func Equal(a, b any) bool {
	switch x := a.(type) {
	case nil:
		if b == nil {
			return true
		}
	case bool:
		if y, ok := b.(bool); ok {
			return x == y
		}
	case string:
		if y, ok := b.(string); ok {
			return x == y
		}
	case float64:
		if y, ok := b.(float64); ok {
			return x == y && math.Signbit(x) == math.Signbit(y)
		}
	case []any:
		if y, ok := b.([]any); ok {
			if len(x) != len(y) {
				return false
			}
			for i := range x {
				if !Equal(x[i], y[i]) {
					return false
				}
			}
			return true
		}
	case map[string]any:
		if y, ok := b.(map[string]any); ok {
			if len(x) != len(y) {
				return false
			}
			for k, xv := range x {
				yv, ok := y[k]
				if !ok || !Equal(xv, yv) {
					return false
				}
			}
			return true
		}
	}
	if ai, ok, isInt := asInt(a); isInt {
		bi, ok2, isInt2 := asInt(b)
		if isInt2 {
			return ok && ok2 && ai == bi
		}
	}
	if isModel(a) && isModel(b) {
		return false
	}
	ea, err := Marshal(a)
	if err != nil {
		return false
	}
	eb, err := Marshal(b)
	return err == nil && bytes.Equal(ea, eb)
}

// isModel reports whether v has a type that Equal compares structurally.
func isModel(v any) bool {
	switch v.(type) {
	case nil, bool, string, float64, []any, map[string]any:
		return true
	}
	_, _, isInt := asInt(v)
	return isInt
}

// asInt converts a Go integer to int64. isInt reports whether v is of an
// integer type, ok whether its value fits in int64.
func asInt(v any) (i int64, ok, isInt bool) {
	switch x := v.(type) {
	case int64:
		return x, true, true
	case int:
		return int64(x), true, true
	case int32:
		return int64(x), true, true
	case uint32:
		return int64(x), true, true
	case int8:
		return int64(x), true, true
	case int16:
		return int64(x), true, true
	case uint8:
		return int64(x), true, true
	case uint16:
		return int64(x), true, true
	case uint64:
		return int64(x), x <= math.MaxInt64, true
	case uint:
		return int64(x), uint64(x) <= math.MaxInt64, true
	}
	return 0, false, false
}

// TypeName is the short name of a decoded JSON value's type, as stores
// report property types: "null", "string", "int", "float", "bool",
// "array" or "object".
func TypeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case int64:
		return "int"
	case float64:
		return "float"
	case bool:
		return "bool"
	case []any:
		return "array"
	}
	return "object"
}

// Kind names the JSON kind of a value in the model, for error messages:
// "null", "a boolean", "a string", "an integer", "a number" (non-integral),
// "an array", "an object".
func Kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a non-integral number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("a Go %T", v)
}
