package ops

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tgms-go/tgms/canon"
)

// Schema is the subset of JSON Schema that operator arguments and results
// use. One Schema value serves three purposes: it validates call arguments,
// it tells the plan contract which result fields exist (with their types and
// which hold uids), and it renders into the operator manual.
//
// Objects are always closed (additionalProperties: false).
type Schema struct {
	Type        string             // object, array, string, integer, number, boolean; "" = any JSON value
	Nullable    bool               // null is also allowed
	Description string             //
	Properties  map[string]*Schema // object fields
	Required    []string           // object fields that must be present
	Items       *Schema            // array element schema
	MinItems    int                // arrays
	MaxItems    int                // arrays; 0 = unbounded
	MinLength   int                // strings
	Enum        []string           // strings: allowed values
	Minimum     *float64           // numbers and integers
	Maximum     *float64           //
	Default     any                // filled in for absent top-level arguments
	UID         bool               // strings (or array items) that are node uids
}

// Violation is one way a value fails a schema.
type Violation struct {
	Path     string  // JSON Pointer of the failing value ("" = the whole value)
	Message  string  // what is wrong
	Expected *Schema // the sub-schema the value should have matched
}

// Validate checks v against s and returns every violation (nil if none).
// Valid values are checked without building any path strings.
func (s *Schema) Validate(v any) []Violation {
	if s.valid(v) {
		return nil
	}
	var out []Violation
	s.validate(v, "", &out)
	return out
}

// valid reports whether v fits s, allocating nothing; validate finds out why
// not.
func (s *Schema) valid(v any) bool {
	if v == nil {
		return s.Nullable || s.Type == ""
	}
	switch s.Type {
	case "":
		return finite(v)
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		for _, r := range s.Required {
			if _, ok := m[r]; !ok {
				return false
			}
		}
		for k, e := range m {
			sub, ok := s.Properties[k]
			if !ok || !sub.valid(e) {
				return false
			}
		}
		return true
	case "array":
		a, ok := v.([]any)
		if !ok || len(a) < s.MinItems || s.MaxItems > 0 && len(a) > s.MaxItems {
			return false
		}
		if s.Items != nil {
			for _, e := range a {
				if !s.Items.valid(e) {
					return false
				}
			}
		}
		return true
	case "string":
		str, ok := v.(string)
		return ok && len(str) >= s.MinLength && (len(s.Enum) == 0 || slices.Contains(s.Enum, str))
	case "integer":
		switch x := v.(type) {
		case int64:
			return s.intInRange(x)
		case float64:
			return x == math.Trunc(x) && math.Abs(x) < 1<<53 && s.inRange(x)
		}
		return false
	case "number":
		switch x := v.(type) {
		case int64:
			return s.inRange(float64(x))
		case float64:
			return finite(x) && s.inRange(x)
		}
		return false
	case "boolean":
		_, ok := v.(bool)
		return ok
	}
	return false
}

// intInRange compares an integer with the bounds exactly: converting a
// large int64 to float64 rounds it (2^62+1 would pass a maximum of 2^62).
func (s *Schema) intInRange(i int64) bool {
	return (s.Minimum == nil || intAtLeast(i, *s.Minimum)) && (s.Maximum == nil || intAtMost(i, *s.Maximum))
}

// intAtLeast reports i >= b exactly.
func intAtLeast(i int64, b float64) bool {
	c := math.Ceil(b)
	switch {
	case c <= math.MinInt64:
		return true
	case c >= math.MaxInt64: // 2^63 and above
		return false
	}
	return i >= int64(c)
}

// intAtMost reports i <= b exactly.
func intAtMost(i int64, b float64) bool {
	f := math.Floor(b)
	switch {
	case f >= math.MaxInt64:
		return true
	case f < math.MinInt64:
		return false
	}
	return i <= int64(f)
}

// finite reports whether a value holds no NaN or infinity at any depth.
func finite(v any) bool {
	switch x := v.(type) {
	case float64:
		return !math.IsNaN(x) && !math.IsInf(x, 0)
	case []any:
		for _, e := range x {
			if !finite(e) {
				return false
			}
		}
	case map[string]any:
		for _, e := range x {
			if !finite(e) {
				return false
			}
		}
	}
	return true
}

func (s *Schema) inRange(f float64) bool {
	return (s.Minimum == nil || f >= *s.Minimum) && (s.Maximum == nil || f <= *s.Maximum)
}

func (s *Schema) validate(v any, path string, out *[]Violation) {
	fail := func(format string, args ...any) {
		*out = append(*out, Violation{Path: path, Message: fmt.Sprintf(format, args...), Expected: s})
	}
	if v == nil {
		if !s.Nullable && s.Type != "" {
			fail("must be %s, not null", s.typeName())
		}
		return
	}
	if !finite(v) {
		fail("must be a finite value: NaN and infinities have no JSON form")
		return
	}
	switch s.Type {
	case "":
		return
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			fail("must be an object, got %s", kindOf(v))
			return
		}
		for _, r := range s.Required {
			if _, ok := m[r]; !ok {
				*out = append(*out, Violation{Path: path + "/" + escapePointer(r), Message: "is required", Expected: s.Properties[r]})
			}
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			sub, ok := s.Properties[k]
			if !ok {
				*out = append(*out, Violation{Path: path + "/" + escapePointer(k), Message: fmt.Sprintf("unknown field %q; allowed: %s", k, strings.Join(s.FieldNames(), ", ")), Expected: s})
				continue
			}
			sub.validate(m[k], path+"/"+escapePointer(k), out)
		}
	case "array":
		a, ok := v.([]any)
		if !ok {
			fail("must be an array, got %s", kindOf(v))
			return
		}
		if len(a) < s.MinItems {
			fail("must have at least %d item(s), got %d", s.MinItems, len(a))
		}
		if s.MaxItems > 0 && len(a) > s.MaxItems {
			fail("must have at most %d items, got %d", s.MaxItems, len(a))
		}
		if s.Items != nil {
			for i, x := range a {
				s.Items.validate(x, path+"/"+strconv.Itoa(i), out)
			}
		}
	case "string":
		str, ok := v.(string)
		if !ok {
			fail("must be a string, got %s", kindOf(v))
			return
		}
		if len(str) < s.MinLength {
			fail("must be a non-empty string")
		}
		if len(s.Enum) > 0 && !slices.Contains(s.Enum, str) {
			fail("must be one of %s, got %q", strings.Join(s.Enum, ", "), str)
		}
	case "integer":
		i, ok := v.(int64)
		if !ok {
			if f, isF := v.(float64); isF && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
				i, ok = int64(f), true
			}
		}
		if !ok {
			fail("must be an integer, got %s", kindOf(v))
			return
		}
		if !s.intInRange(i) {
			if s.Minimum != nil && !intAtLeast(i, *s.Minimum) {
				fail("must be >= %s, got %d", fmtNum(*s.Minimum), i)
			} else {
				fail("must be <= %s, got %d", fmtNum(*s.Maximum), i)
			}
		}
	case "number":
		var f float64
		switch x := v.(type) {
		case int64:
			f = float64(x)
		case float64:
			f = x
		default:
			fail("must be a number, got %s", kindOf(v))
			return
		}
		s.checkRange(f, fail)
	case "boolean":
		if _, ok := v.(bool); !ok {
			fail("must be true or false, got %s", kindOf(v))
		}
	}
}

func (s *Schema) checkRange(f float64, fail func(string, ...any)) {
	if s.Minimum != nil && f < *s.Minimum {
		fail("must be >= %s, got %s", fmtNum(*s.Minimum), fmtNum(f))
	}
	if s.Maximum != nil && f > *s.Maximum {
		fail("must be <= %s, got %s", fmtNum(*s.Maximum), fmtNum(f))
	}
}

// fmtNum prints a bound or value exactly: integral values as integers
// (the shortest float form of 2^62 would read 4611686018427388000).
func fmtNum(f float64) string {
	if f == math.Trunc(f) && f >= math.MinInt64 && f < math.MaxInt64 {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

func (s *Schema) typeName() string {
	switch s.Type {
	case "object":
		return "an object"
	case "array":
		return "an array"
	case "integer":
		return "an integer"
	case "":
		return "a value"
	}
	return "a " + s.Type
}

func kindOf(v any) string { return canon.Kind(v) }

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// FieldNames lists an object schema's fields in byte order.
func (s *Schema) FieldNames() []string {
	names := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// Field returns the schema of an object field.
func (s *Schema) Field(name string) (*Schema, bool) {
	if s == nil || s.Properties == nil {
		return nil, false
	}
	f, ok := s.Properties[name]
	return f, ok
}

// MarshalJSON renders standard JSON Schema; uid positions carry
// "x-tgms-uid": true.
func (s *Schema) MarshalJSON() ([]byte, error) {
	m := map[string]any{}
	if s.Type != "" {
		if s.Nullable {
			m["type"] = []string{s.Type, "null"}
		} else {
			m["type"] = s.Type
		}
	}
	if s.Description != "" {
		m["description"] = s.Description
	}
	if s.Type == "object" {
		props := map[string]any{}
		for k, v := range s.Properties {
			props[k] = v
		}
		m["properties"] = props
		m["additionalProperties"] = false
		if len(s.Required) > 0 {
			m["required"] = s.Required
		}
	}
	if s.Items != nil {
		m["items"] = s.Items
	}
	if s.MinItems > 0 {
		m["minItems"] = s.MinItems
	}
	if s.MaxItems > 0 {
		m["maxItems"] = s.MaxItems
	}
	if s.MinLength > 0 {
		m["minLength"] = s.MinLength
	}
	if len(s.Enum) > 0 {
		enum := make([]any, 0, len(s.Enum)+1)
		for _, e := range s.Enum {
			enum = append(enum, e)
		}
		if s.Nullable {
			enum = append(enum, nil) // null must pass the enum too
		}
		m["enum"] = enum
	}
	if s.Minimum != nil {
		m["minimum"] = *s.Minimum
	}
	if s.Maximum != nil {
		m["maximum"] = *s.Maximum
	}
	if s.Default != nil {
		m["default"] = s.Default
	}
	if s.UID {
		m["x-tgms-uid"] = true
	}
	return json.Marshal(m)
}

// --- constructors: schemas read like the tables of the manual -------------

// Obj is a closed object schema; required lists the fields that must be present.
func Obj(desc string, props map[string]*Schema, required ...string) *Schema {
	return &Schema{Type: "object", Description: desc, Properties: props, Required: required}
}

// Arr is an array of items.
func Arr(desc string, items *Schema) *Schema {
	return &Schema{Type: "array", Description: desc, Items: items}
}

// Str is a string.
func Str(desc string) *Schema { return &Schema{Type: "string", Description: desc} }

// Int is an integer.
func Int(desc string) *Schema { return &Schema{Type: "integer", Description: desc} }

// Num is a number (integer or float).
func Num(desc string) *Schema { return &Schema{Type: "number", Description: desc} }

// Bool is a boolean.
func Bool(desc string) *Schema { return &Schema{Type: "boolean", Description: desc} }

// Any is any JSON value.
func Any(desc string) *Schema { return &Schema{Description: desc} }

// Enum is a string with allowed values.
func Enum(desc string, values ...string) *Schema {
	return &Schema{Type: "string", Description: desc, Enum: values}
}

// UIDField is a node uid.
func UIDField(desc string) *Schema {
	return &Schema{Type: "string", Description: desc, MinLength: 1, UID: true}
}

// UIDList is a list of node uids.
func UIDList(desc string) *Schema {
	return &Schema{Type: "array", Description: desc, Items: UIDField("a node uid"), MaxItems: MaxList}
}

// Range bounds a number or integer schema (inclusive).
func (s *Schema) Range(lo, hi float64) *Schema {
	s.Minimum, s.Maximum = &lo, &hi
	return s
}

// Min bounds a number or integer schema from below (inclusive).
func (s *Schema) Min(lo float64) *Schema {
	s.Minimum = &lo
	return s
}

// OrNull allows null.
func (s *Schema) OrNull() *Schema {
	s.Nullable = true
	return s
}

// Def sets the default of an optional top-level argument.
func (s *Schema) Def(v any) *Schema {
	s.Default = v
	return s
}

// NonEmpty requires at least one item or character.
func (s *Schema) NonEmpty() *Schema {
	if s.Type == "array" {
		s.MinItems = 1
	} else {
		s.MinLength = 1
	}
	return s
}

// Max bounds the number of array items.
func (s *Schema) Max(n int) *Schema {
	s.MaxItems = n
	return s
}

// Shared argument fragments.

// Timestamp is a time argument: µs since the epoch, 0..2^62.
func Timestamp(desc string) *Schema { return Int(desc+" (µs since the epoch, UTC)").Range(0, 1<<62) }

// Window is a valid-time window [t_a, t_b).
func Window() *Schema {
	return Obj("valid-time window [t_a, t_b), t_a < t_b", map[string]*Schema{
		"t_a": Timestamp("window start, inclusive"),
		"t_b": Timestamp("window end, exclusive"),
	}, "t_a", "t_b")
}

// AsOfTT is the belief time argument.
func AsOfTT() *Schema {
	return Int("belief (transaction) time to read as of; default: the latest durable belief").Range(0, 1<<62).Def(int64(1 << 62))
}

// Limit is the page size argument.
func Limit() *Schema { return Int("rows per page, 1..10000").Range(1, 10_000).Def(int64(100)) }

// Cursor is the keyset pagination cursor argument.
func Cursor() *Schema {
	return Str("cursor from a previous page (it pins that page's belief time)").OrNull()
}

// RelTypes restricts relation types (null: all).
func RelTypes() *Schema {
	return Arr("relation types to keep; null means all", Str("a relation type")).OrNull()
}

// Paged result fields shared by every paginated operator.
func pagedResult(desc string, row *Schema, extra map[string]*Schema) *Schema {
	props := map[string]*Schema{
		"rows":       Arr(desc, row),
		"rows_total": Int("number of rows in the whole result, all pages"),
		"truncated":  Bool("true when rows is not the whole result (more pages)"),
		"cursor":     Str("pass as cursor to get the next page; null on the last page").OrNull(),
	}
	for k, v := range extra {
		props[k] = v
	}
	return Obj("", props)
}

// Paged builds the result schema of a paginated operator: rows of row, plus
// rows_total, truncated, cursor and any extra fields.
func Paged(desc string, row *Schema, extra map[string]*Schema) *Schema {
	return pagedResult(desc, row, extra)
}
