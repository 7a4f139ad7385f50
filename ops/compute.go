package ops

import (
	"slices"
	"strconv"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
)

// compute: deterministic post-processing of earlier results. It never reads
// the store. Names in this file carry the prefix "compute" so they cannot
// collide with the other operators of the package.
//
// Decisions where this differs from the reference (anchor-operators §9 O13,
// §10.2, §13):
//   - Every arithmetic result is exact and rounded once: sum is the float
//     nearest to the exact sum (not Python's left-to-right sum), mean the
//     float nearest to exact sum / n (not fsum / n), quotients the float
//     nearest to n/d. Integer results that do not fit int64 and float
//     results beyond float64 are E_LIMIT (canonical JSON holds int64 only;
//     a silent float would lose exactness).
//   - Booleans are never numbers and never equal numbers (no True == 1);
//     integers and floats are equal by exact value. A key class holding an
//     integer and an equal float (1, 1.0) shows the integer, so set
//     operations and groups do not depend on input order.
//   - min/max/median break value ties float < integer, -0.0 < 0.0 instead
//     of "first occurrence", for the same reason.
//   - topk ranks numbers only (the reference counts strings and null as 0
//     and booleans as 0/1); ties by canonical JSON (not Python repr).
//   - filter: ordering comparisons take number/number or string/string
//     only; contains with a non-string needle on a string is E_INVALID_ARG;
//     is_null/not_null refuse a value or field2.
//   - derive concat writes non-strings as JSON text (true, null), not
//     Python str (True, None); arrays and objects are refused.
//   - Row results take a cursor (§13.7: the reference emitted one but
//     accepted none). It is an executor cursor pinned at 2^62 whose key is
//     [offset, fingerprint of the page boundary].
//   - group_by equal to fn (count by "count") is refused: the output row
//     would lose a column.

// computeFns are the 17 functions of compute; computeGrouped those that take
// group_by; computeScalar those that return {value}.
var (
	computeFns = []string{"count", "sum", "min", "max", "mean", "median", "topk", "filter",
		"ratio", "diff", "percent", "intersect", "difference", "union", "derive", "join", "interval_relation"}
	computeGrouped = []string{"count", "sum", "min", "max", "mean", "median", "topk"}
	computeScalar  = []string{"count", "sum", "min", "max", "mean", "median", "ratio", "diff", "percent", "interval_relation"}
)

const computeMaxInput = MaxList

func init() {
	Register(&Spec{
		Name:    "compute",
		Summary: "Exact arithmetic, ranking, filtering, joins and set operations over earlier results (never reads the store).",
		Doc:     computeDoc,
		Args: Obj("", map[string]*Schema{
			"fn":           Enum("the function", computeFns...),
			"input":        Arr("the values or rows to work on (usually a $ref)", Any("a value or a row object")).Max(computeMaxInput).OrNull(),
			"field":        Str("column to read from each input row; null: the elements themselves").OrNull(),
			"k":            Int("topk: number of rows to keep").Range(1, 1000).OrNull(),
			"pct":          Num("topk: percentage of rows to keep, 0 < pct <= 100").Range(0, 100).OrNull(),
			"side":         Enum("topk: keep the top or the bottom of the ranking", "top", "bottom").Def("top").OrNull(),
			"cmp":          Enum("filter: comparison", "eq", "ne", "lt", "le", "gt", "ge", "contains", "is_null", "not_null").OrNull(),
			"value":        Any("filter: right-hand value; derive: constant operand"),
			"field2":       Str("filter, derive: read the right-hand side from this column of the same row").OrNull(),
			"op":           Enum("derive: operation", "add", "sub", "mul", "div", "floordiv", "concat").OrNull(),
			"into":         Str("derive: name of the new column").NonEmpty().OrNull(),
			"on":           Str("join: key column of the input rows").OrNull(),
			"other_on":     Str("join: key column of the other rows (default: on)").OrNull(),
			"how":          Enum("join: inner drops unmatched input rows, left keeps them", "inner", "left").Def("inner").OrNull(),
			"fill":         Any("join (how=left): value of the right columns of unmatched rows"),
			"other_prefix": Str("join: prefix of the right columns").NonEmpty().Def("r_").OrNull(),
			"other":        Arr("join, set operations: the second list", Any("a value or a row object")).Max(computeMaxInput).OrNull(),
			"other_field":  Str("set operations: column of the other rows (default: field)").OrNull(),
			"x":            Num("ratio, diff, percent: first operand").OrNull(),
			"y":            Num("ratio, diff, percent: second operand").OrNull(),
			"a":            computeIntervalSchema("interval_relation: the first interval"),
			"b":            computeIntervalSchema("interval_relation: the second interval"),
			"group_by":     Str("count, sum, min, max, mean, median, topk: reduce or rank each group of rows with equal values of this column").OrNull(),
			"limit":        Int("row functions: rows per page; default: every row of the result").Range(1, MaxList).OrNull(),
			"cursor":       Str("row functions: the cursor of the previous page of the same call (all other arguments unchanged)").OrNull(),
		}, "fn"),
		Result: Obj("", map[string]*Schema{
			"value": Any("scalar functions only (count, sum, min, max, mean, median without group_by; ratio, diff, percent; interval_relation): " +
				"an integer or float, or an Allen relation name for interval_relation"),
			"rows": Arr("row functions only (topk, filter, derive, join, intersect, difference, union, and every function with group_by): this page of rows",
				Any("filter, derive, topk, join: an input row (object; derive adds into, join adds the prefixed right columns); "+
					"set operations: a member value; group_by reducers: {<group_by>: key, <fn>: value}")),
			"rows_total": Int("row functions only: number of rows in the whole result, all pages"),
			"truncated":  Bool("row functions: true when rows is not the whole result; scalar functions: always false"),
			"cursor":     Str("row functions only: pass as cursor (with the same other arguments) for the next page; null on the last page").OrNull(),
		}),
		Order: "topk: field descending, ties by the row's canonical JSON text; filter, derive: input order; " +
			"join, intersect, difference, union, group_by rows: key order null < boolean < float < integer < string",
		Run: runCompute,
	})
}

func computeIntervalSchema(desc string) *Schema {
	return Obj(desc+" [start, end), start < end", map[string]*Schema{
		"start": Int("start, inclusive"),
		"end":   Int("end, exclusive"),
	}, "start", "end").OrNull()
}

const computeDoc = `Deterministic arithmetic and post-processing of values from earlier steps
(usually passed by $ref). It never reads the store: it has no as_of_tt, no
cost estimate and is never refused for cost. fn picks one of 17 functions.

Output. Scalar functions return {value, truncated: false}: count, sum, min,
max, mean, median (without group_by), ratio, diff, percent,
interval_relation. Row functions return a page {rows, rows_total,
truncated, cursor}: topk, filter, derive, join, intersect, difference,
union, and every function with group_by. Without limit a row function
returns every row of its result (its input's size bounds it); with limit,
pages of at most limit rows: pass the returned cursor, with all other
arguments unchanged, for the next page (a cursor that does not fit this call's rows is E_INVALID_ARG). Arguments a function does
not use are ignored.

Values. When field is null the input elements themselves are the values;
when set, every element must be an object holding field. Every refusal is
E_INVALID_ARG with details.path pointing at the offending argument or input
element (e.g. /input/3/score) unless said otherwise.

Numbers. A number is a JSON integer or float; booleans, strings, null,
arrays and objects are never numbers, and a non-number where a number is
needed is refused. Arithmetic is exact: the result is computed over
rationals and rounded once. If all operands are integers and the exact
result is an integer, the result is an integer (always for count, sum, diff
and derive add/sub/mul/floordiv of integers; for mean, ratio, percent and
derive div when the division is exact); otherwise it is the float nearest
to the exact value, then rounded to 9 decimals like every float output.
An integer result outside the int64 range or a float result beyond the
float64 range is E_LIMIT (scale the values or split the input). Examples:
mean [2,4] → 3; mean [1,2] → 1.5; median [3,1,2,10] → 2.5; ratio 8/2 → 4;
ratio 7/2 → 3.5; percent 1 of 3 → 33.333333333; sum [0.1,0.2] → 0.3;
sum [2^62, 2^62, -2^62] → 2^62; sum [2^62, 2^62] → E_LIMIT. Division by
zero (ratio, percent, derive div/floordiv) is E_INVALID_ARG.

Reducers. count: number of elements (field ignored). sum: 0 for an empty
input. min, max, mean, median of an empty input are E_INVALID_ARG. min/max
return the smallest/largest number as it is (integer or float); numbers
equal in value are ordered float before integer and -0.0 before 0.0, so min
picks the float and max the integer. median sorts by that order: the middle
element for an odd count, the mean of the two middle ones for an even count.
ratio = x/y, percent = 100·x/y, diff = x−y (x and y required).
interval_relation: a and b are {start, end} with start < end; the value is
one of before, meets, after, met_by, equals, starts, started_by, finishes,
finished_by, during, contains, overlaps, overlapped_by (Allen).

Equality and key order. Integers and floats compare by exact value (1 equals
1.0; 2^53+1 is greater than the float 2^53); booleans never equal numbers.
Keys (group_by, join, set members) must be scalars (null, boolean, number,
string) and are ordered null < booleans < floats < integers < strings, then
false < true, numbers by value, strings by bytes (floats sort before
integers regardless of magnitude: 2.5 before 1). A key that occurs both as
an integer and as an equal float is one key, shown as the integer.

topk: field required; exactly one of k (1..1000) or pct (0 < pct <= 100);
side top (default) or bottom. Rows (objects) are ranked by field descending
(numbers only), ties by the row's canonical JSON text in byte order. top
keeps the first min(k, n) or ceil(n·pct/100) ranked rows; bottom keeps the
ranked rows after the first max(0, n−k) or ceil(n·(100−pct)/100), still in
descending order, so top p% and bottom (100−p)% partition the rows. pct is
the exact decimal it is written as (28 → 28/100). Example a=5,b=3,c=5,d=1,
e=2: k=2 → a,c; pct=40 → a,c; pct=60 bottom → b,e,d; k=1 bottom → d.

filter: cmp in eq ne lt le gt ge contains is_null not_null. The left side
is row[field] (or the element), the right side value or row[field2] (not
both; field2 needs field). is_null/not_null test for null and take neither
value nor field2. eq/ne: numbers by value, other values by type and content
(arrays and objects element by element); a null side is refused (use
is_null). lt le gt ge compare number with number or string with string (by
bytes); other pairs are refused. contains: a string left contains a string
right as a substring (a non-string right is refused); an array left
contains an element equal to the right; any other left does not contain
anything. The kept rows, in input order.

derive: input rows (objects), field, op, into, and exactly one of field2 or
a non-null value. Adds column into (which must not exist in any row) =
row[field] op (row[field2] or value); rows in input order. add, sub, mul,
div and floordiv follow the number rules (floordiv rounds toward minus
infinity: 7//2 = 3, -7//2 = -4, 7//2.0 = 3.0); concat makes the string
"a|b" with strings as they are and other scalars as JSON text (1, 2.5,
true, null); arrays and objects are refused.

join: input rows (left, key on) and other rows (right, key other_on,
default on); every row must be an object holding its key, keys must be
scalars and unique on each side. Rows in left key order. A matched row is
the left row plus every right column c renamed other_prefix+c (default r_,
the right key included); how=left keeps unmatched left rows with every
right column name (and other_on) prefixed and set to fill. A prefixed name
that is already a left column is refused.

intersect, difference (input − other), union: members are row[field] for
input and row[other_field or field] for other (or the bare elements), and
must be scalars. Rows are the resulting members, deduplicated, in key order.

group_by (count, sum, min, max, mean, median, topk only): every row must be
an object whose group_by value is a scalar. A reducer gives one row
{<group_by>: key, <fn>: value} per group in key order (field required
except for count; group_by must differ from fn). topk ranks and cuts each
group separately (pct of the group's size): groups in key order, rows in
rank order, rows keep all their columns.`

// --- errors -------------------------------------------------------------------

func computeBad(path, hint, format string, args ...any) *Error {
	d := map[string]any{"path": path}
	if hint != "" {
		d["hint"] = hint
	}
	return Errorf(EInvalidArg, d, format, args...)
}

func computeLimit(at computeAt, format string, args ...any) *Error {
	return Errorf(ELimit, map[string]any{"path": at.String(), "hint": "the exact result does not fit: scale the values down or split the input"},
		format, args...)
}

// computeAt names a position in the arguments; the JSON Pointer text is
// built only when an error needs it, so hot loops do not allocate paths.
type computeAt struct {
	fixed string // a whole path such as "/value"; "" = a list element
	list  string
	i     int
	field string // "" with cell false: the element itself
	cell  bool
}

func computeArg(p string) computeAt { return computeAt{fixed: p} }

func computeCell(list string, i int, field string) computeAt {
	return computeAt{list: list, i: i, field: field, cell: true}
}

func (a computeAt) String() string {
	if a.fixed != "" || a.list == "" {
		return a.fixed
	}
	if a.cell {
		return computePath(a.list, a.i, a.field)
	}
	return computePath(a.list, a.i, "")
}

func computePath(list string, i int, field string) string {
	p := "/" + list + "/" + strconv.Itoa(i)
	if field != "" {
		p += "/" + escapePointer(field)
	}
	return p
}

// --- the kernel -----------------------------------------------------------------

// computeCtx holds the decoded arguments of one call.
type computeCtx struct {
	c     *Call
	fn    string
	field string // "" with hasField false: bare elements
	has   func(string) bool
}

func runCompute(c *Call) (map[string]any, error) {
	k := &computeCtx{c: c, fn: c.Str("fn"), field: c.Str("field"), has: c.Has}
	if c.Has("pct") && computePct(c.Args["pct"]).Sign() <= 0 {
		return nil, Errorf(ESchema, map[string]any{"path": "/pct", "hint": "pct is a percentage with 0 < pct <= 100"},
			"invalid args for compute: /pct must be > 0")
	}
	if c.Has("group_by") && !slices.Contains(computeGrouped, k.fn) {
		return nil, computeBad("/group_by", "group_by works with count, sum, min, max, mean, median and topk; drop it",
			"group_by is not allowed with %s", k.fn)
	}
	if c.Has("cursor") && slices.Contains(computeScalar, k.fn) && !c.Has("group_by") {
		return nil, computeBad("/cursor", "drop the cursor: a scalar result has one page", "%s returns a single value and takes no cursor", k.fn)
	}
	var rows []any
	var err error
	switch k.fn {
	case "interval_relation":
		return k.intervalRelation()
	case "ratio", "diff", "percent":
		return k.binary()
	case "derive":
		rows, err = k.derive()
	case "join":
		rows, err = k.join()
	case "intersect", "difference", "union":
		rows, err = k.setOp()
	default:
		if !c.Has("input") {
			return nil, computeBad("/input", "pass the values or rows, usually as a $ref to an earlier step", "%s needs input", k.fn)
		}
		input, _ := c.Args["input"].([]any)
		if err := c.Work(int64(len(input))); err != nil {
			return nil, err
		}
		switch {
		case c.Has("group_by"):
			rows, err = k.grouped(input)
		case k.fn == "topk":
			if err := k.topkArgs(); err != nil {
				return nil, err
			}
			rows, err = k.topk(input, "/input", nil)
		case k.fn == "filter":
			rows, err = k.filter(input)
		default:
			v, err := k.reduce(k.fn, input, "/input", nil)
			if err != nil {
				return nil, err
			}
			return map[string]any{"value": v, "truncated": false}, nil
		}
	}
	if err != nil {
		return nil, err
	}
	return k.page(rows)
}

// values reads the values of field (or the elements) of list at base; idx
// maps positions to input indexes for error paths (nil: identity).
func (k *computeCtx) values(list []any, idx []int) ([]any, error) {
	vals := make([]any, len(list))
	if !k.has("field") {
		copy(vals, list)
		return vals, nil
	}
	for j, e := range list {
		row, ok := e.(map[string]any)
		if !ok {
			i := k.inputIndex(idx, j)
			return nil, computeBad(computePath("input", i, ""), "pass rows (objects), or set field to null to use the elements themselves", "element %d is not an object", i)
		}
		v, ok := row[k.field]
		if !ok {
			i := k.inputIndex(idx, j)
			return nil, computeBad(computePath("input", i, ""), "every row must hold field", "field %q missing from input row %d", k.field, i)
		}
		vals[j] = v
	}
	return vals, nil
}

func (k *computeCtx) inputIndex(idx []int, j int) int {
	if idx != nil {
		return idx[j]
	}
	return j
}

// valueAt is the position of value j of values(list, idx).
func (k *computeCtx) valueAt(idx []int, j int) computeAt {
	return computeAt{list: "input", i: k.inputIndex(idx, j), field: k.field, cell: k.has("field")}
}

// numbers is values restricted to numbers.
func (k *computeCtx) numbers(list []any, idx []int) ([]any, error) {
	vals, err := k.values(list, idx)
	if err != nil {
		return nil, err
	}
	for j, v := range vals {
		if !computeIsNum(v) {
			p := k.valueAt(idx, j).String()
			return nil, computeBad(p, "only integers and floats take part in arithmetic; filter the rows first (e.g. cmp not_null)",
				"non-numeric value at %s: %s", p, kindOf(v))
		}
	}
	return vals, nil
}

// reduce applies a scalar reducer to list (a whole input or one group).
func (k *computeCtx) reduce(fn string, list []any, base string, idx []int) (any, error) {
	if fn == "count" {
		return int64(len(list)), nil
	}
	vals, err := k.numbers(list, idx)
	if err != nil {
		return nil, err
	}
	if len(vals) == 0 && fn != "sum" {
		return nil, computeBad(base, "pass at least one value", "%s of an empty input", fn)
	}
	switch fn {
	case "sum", "mean":
		var s exactSum
		for _, v := range vals {
			s.add(v)
		}
		if fn == "sum" {
			return computeTotal(&s, computeArg(base))
		}
		return computeMean(&s, computeArg(base))
	case "min", "max":
		best := vals[0]
		for _, v := range vals[1:] {
			c := computeNumOrder(v, best)
			if (fn == "min" && c < 0) || (fn == "max" && c > 0) {
				best = v
			}
		}
		return best, nil
	case "median":
		sorted := make([]computeNumKey, len(vals))
		for j, v := range vals {
			sorted[j] = computeNumKeyOf(v)
		}
		slices.SortFunc(sorted, computeNumKey.order)
		n := len(sorted)
		if n%2 == 1 {
			return sorted[n/2].value(), nil
		}
		var s exactSum
		s.add(sorted[n/2-1].value())
		s.add(sorted[n/2].value())
		return computeMean(&s, computeArg(base))
	}
	return nil, Errorf(EInternal, nil, "compute: unknown reducer %s", fn)
}

// --- paging -----------------------------------------------------------------------

// computeCursorTT is the belief time a compute cursor carries: compute
// reads nothing, so its cursors always say "current beliefs" and a
// continued call reads exactly as the first one did.
const computeCursorTT = bt.OpenEnd

// boundary fingerprints the page boundary a cursor continues from: the
// function, the number of rows and the last row before offset (offset >=
// 1). It is cheap (one row is encoded, not the whole input) and catches a
// cursor reused with other arguments unless they give the same rows up to
// the boundary, in which case the continuation is still consistent.
func (k *computeCtx) boundary(rows []any, offset int) (string, error) {
	d, err := canon.Digest([]any{k.fn, int64(len(rows)), rows[offset-1]})
	if err != nil {
		return "", computeBad(computePath("input", offset-1, ""), "pass plain JSON values", "row has no canonical form: %v", err)
	}
	return d[:16], nil
}

// page cuts rows to limit after the cursor's offset. A compute cursor is
// the executor's cursor with the belief time computeCursorTT and the key
// [offset, boundary].
func (k *computeCtx) page(rows []any) (map[string]any, error) {
	if rows == nil {
		rows = []any{}
	}
	offset := 0
	if cur := k.c.Str("cursor"); cur != "" {
		tt, key, derr := decodeCursor(cur)
		bad := derr != nil || tt != computeCursorTT || len(key) != 2
		if !bad {
			off, okO := key[0].(int64)
			d, okD := key[1].(string)
			bad = !okO || !okD || off < 1 || off > int64(len(rows))
			if !bad {
				offset = int(off)
				fp, err := k.boundary(rows, offset)
				if err != nil {
					return nil, err
				}
				bad = fp != d
			}
		}
		if bad {
			return nil, computeBad("/cursor", "pass the cursor of the previous page with all other arguments unchanged, or null for the first page",
				"bad cursor: it does not belong to this call")
		}
	}
	limit := len(rows) // no limit: the whole result
	if k.has("limit") {
		limit = int(k.c.Int("limit"))
	}
	end := min(len(rows), offset+limit)
	out := map[string]any{
		"rows": rows[offset:end], "rows_total": int64(len(rows)),
		"truncated": offset > 0 || end < len(rows), "cursor": nil,
	}
	if end < len(rows) {
		fp, err := k.boundary(rows, end)
		if err != nil {
			return nil, err
		}
		cur, err := encodeCursor(computeCursorTT, []any{int64(end), fp})
		if err != nil {
			return nil, err
		}
		out["cursor"] = cur
	}
	return out, nil
}
