package tabular

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tgms-go/tgms/canon"
)

// Type is a property column's type.
type Type uint8

// Property types. TypeAuto is a typed source's own type (JSONL, Parquet);
// for CSV and TSV it means string.
const (
	TypeAuto Type = iota
	TypeString
	TypeInt
	TypeFloat
	TypeBool
	TypeJSON
)

var typeNames = [...]string{"auto", "string", "int", "float", "bool", "json"}

func (t Type) String() string { return typeNames[t] }

// ParseType reads a type name: string, int, float, bool or json.
func ParseType(s string) (Type, error) {
	for i, n := range typeNames {
		if i > 0 && n == s {
			return Type(i), nil
		}
	}
	switch s {
	case "integer", "int64":
		return TypeInt, nil
	case "double", "float64", "number":
		return TypeFloat, nil
	case "boolean":
		return TypeBool, nil
	case "text", "str":
		return TypeString, nil
	}
	return 0, fmt.Errorf("unknown type %q: use string, int, float, bool or json", s)
}

// ParseTypes reads "col:type,col:type".
func ParseTypes(s string) (map[string]string, error) {
	out := map[string]string{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		col, typ, ok := strings.Cut(part, ":")
		if !ok || col == "" {
			return nil, fmt.Errorf("--types entry %q: write column:type, e.g. amount:float", part)
		}
		if _, err := ParseType(typ); err != nil {
			return nil, fmt.Errorf("--types entry %q: %v", part, err)
		}
		out[col] = typ
	}
	return out, nil
}

// expected describes a valid cell of type t.
func (t Type) expected() string {
	switch t {
	case TypeInt:
		return "an integer (64-bit)"
	case TypeFloat:
		return "a finite number"
	case TypeBool:
		return "a boolean (true/false, 1/0)"
	case TypeJSON:
		return "JSON text"
	}
	return "a string"
}

// appendText appends the canonical JSON of a text cell read as type t.
func appendText(dst []byte, t Type, s string) ([]byte, error) {
	switch t {
	case TypeInt, TypeFloat:
		if out, ok := canon.AppendNumberText(dst, s, t == TypeFloat); ok {
			return out, nil // already in canonical form: no conversion
		}
	}
	switch t {
	case TypeInt:
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return dst, fmt.Errorf("not an integer")
		}
		return canon.AppendInt(dst, n), nil
	case TypeFloat:
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return dst, fmt.Errorf("not a finite number")
		}
		return canon.AppendFloat(dst, f), nil
	case TypeBool:
		b, err := strconv.ParseBool(strings.TrimSpace(s))
		if err != nil {
			return dst, fmt.Errorf("not a boolean")
		}
		return strconv.AppendBool(dst, b), nil
	case TypeJSON:
		c, err := canon.Canonicalize([]byte(s))
		if err != nil {
			return dst, err
		}
		return append(dst, c...), nil
	}
	return canon.AppendString(dst, s), nil
}

// appendTyped appends the canonical JSON of a typed cell (JSONL, Parquet)
// read as type t (TypeAuto keeps the cell's own type).
func appendTyped(dst []byte, t Type, v any) ([]byte, error) {
	if s, ok := v.(string); ok && t != TypeAuto && t != TypeString {
		return appendText(dst, t, s)
	}
	switch t {
	case TypeInt:
		switch x := v.(type) {
		case int64:
			return canon.AppendInt(dst, x), nil
		case float64:
			if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
				return canon.AppendInt(dst, int64(x)), nil
			}
		}
		return dst, fmt.Errorf("not an integer")
	case TypeFloat:
		switch x := v.(type) {
		case int64:
			return canon.AppendFloat(dst, float64(x)), nil
		case float64:
			return canon.AppendFloat(dst, x), nil
		}
		return dst, fmt.Errorf("not a number")
	case TypeBool:
		if b, ok := v.(bool); ok {
			return strconv.AppendBool(dst, b), nil
		}
		return dst, fmt.Errorf("not a boolean")
	case TypeString:
		if s, ok := v.(string); ok {
			return canon.AppendString(dst, s), nil
		}
		return dst, fmt.Errorf("not a string")
	}
	if f, ok := v.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
		return dst, fmt.Errorf("not a finite number")
	}
	return canon.AppendValue(dst, v)
}

// typeOf names a typed cell's type for the dataset card and errors.
func typeOf(v any) string {
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
	}
	return "json"
}
