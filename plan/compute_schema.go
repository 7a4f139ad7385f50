package plan

import (
	"maps"

	"github.com/tgms-go/tgms/ops"
)

// Typing through compute. compute's registered result schema types its rows
// as any value, which would make every uid it passes on look like a
// model-written literal. The contract instead derives the rows' schema of
// a compute step from the schemas of the results it reads: filter, topk
// and derive keep their input rows (derive adds its column), join joins
// the two row schemas, set operations yield the members' schema (union:
// a uid only when both sides are uids), and group_by reducers yield the
// group_by column's schema beside the number. A uid column derived this
// way came from the store, so it may feed a uid position; anything the
// plan wrote itself (a literal input, a join's fill) stays untyped.

// maxComputeDepth bounds the chain of compute steps typed through.
const maxComputeDepth = MaxSteps

// resultSchema is the result schema of a producing step.
func (c *checker) resultSchema(producer *Step, depth int) *ops.Schema {
	spec, ok := ops.Lookup(producer.Op)
	if !ok {
		return nil
	}
	if producer.Op != "compute" || depth > maxComputeDepth {
		return spec.Result
	}
	items := c.computeRows(producer, depth)
	if items == nil {
		return spec.Result
	}
	out := *spec.Result
	out.Properties = maps.Clone(spec.Result.Properties)
	rows := *out.Properties["rows"]
	rows.Items = items
	out.Properties["rows"] = &rows
	return &out
}

// computeRows is the schema of one row of a compute step's result, nil
// when nothing better than "any value" is known.
func (c *checker) computeRows(s *Step, depth int) *ops.Schema {
	fn, _ := s.Args["fn"].(string)
	field, _ := s.Args["field"].(string)
	in := c.listItems(s, s.Args["input"], depth)
	member := func(items *ops.Schema, f string) *ops.Schema {
		if items == nil {
			return nil
		}
		if f == "" {
			return items
		}
		col, ok := items.Field(f)
		if !ok {
			return nil
		}
		return col
	}
	if gb, ok := s.Args["group_by"].(string); ok && fn != "topk" {
		key := member(in, gb)
		if key == nil || gb == fn {
			return nil
		}
		return ops.Obj("a group", map[string]*ops.Schema{gb: key, fn: ops.Num("the group's " + fn)}, gb, fn)
	}
	switch fn {
	case "filter", "topk":
		return in
	case "derive":
		into, _ := s.Args["into"].(string)
		if in == nil || in.Type != "object" || into == "" {
			return in
		}
		out := *in
		out.Properties = maps.Clone(in.Properties)
		out.Properties[into] = ops.Any("the derived column")
		return &out
	case "intersect", "difference":
		return member(in, field)
	case "union":
		other, _ := s.Args["other_field"].(string)
		if other == "" {
			other = field
		}
		a, b := member(in, field), member(c.listItems(s, s.Args["other"], depth), other)
		if a != nil && b != nil && a.UID && b.UID {
			return a
		}
		return nil
	case "join":
		right := c.listItems(s, s.Args["other"], depth)
		if in == nil || right == nil || in.Type != "object" || right.Type != "object" {
			return nil
		}
		prefix, ok := s.Args["other_prefix"].(string)
		if !ok {
			prefix = "r_"
		}
		props := maps.Clone(in.Properties)
		left := s.Args["how"] == "left"
		for k, v := range right.Properties {
			if left {
				v = ops.Any("a right column (fill when unmatched)")
			}
			props[prefix+k] = v
		}
		return ops.Obj("a joined row", props)
	}
	return nil
}

// listItems is the item schema of a list argument given as a reference to
// an earlier result (nil for literals and anything unresolved). It adds no
// violations: the reference is checked where it stands.
func (c *checker) listItems(s *Step, v any, depth int) *ops.Schema {
	raw, isRef := AsRef(v)
	if !isRef {
		return nil
	}
	r, err := ParseRef(raw, false)
	if err != nil || !c.deps[s.ID][r.Step] {
		return nil
	}
	producer, _, ok := c.plan.Step(r.Step)
	if !ok {
		return nil
	}
	n := len(c.out)
	got, ok := c.resolveDepth(r, producer, "", s.ID, RuleRefField, depth+1)
	c.out = c.out[:n]
	if !ok || got.Type != "array" || got.Items == nil {
		return nil
	}
	return got.Items
}
