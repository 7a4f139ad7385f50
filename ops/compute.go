package ops

import (
	"bytes"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

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

const computeMaxInput = 50_000

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
			"limit":        Limit(),
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
union, and every function with group_by. Pages hold at most limit rows;
pass the returned cursor, with all other arguments unchanged, for the next
page (a cursor that does not fit this call's rows is E_INVALID_ARG). Arguments a function does
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

// --- numbers ------------------------------------------------------------------

// computeNum reads a number: ok is false for anything that is not a finite
// int64 or float64 (booleans included).
func computeNum(v any) (isInt bool, i int64, f float64, ok bool) {
	switch x := v.(type) {
	case int64:
		return true, x, 0, true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false, 0, 0, false
		}
		return false, 0, x, true
	}
	return false, 0, 0, false
}

func computeIsNum(v any) bool { _, _, _, ok := computeNum(v); return ok }

// computeCmpFloatInt compares a finite float with an integer exactly.
func computeCmpFloatInt(f float64, i int64) int {
	const two63 = 9223372036854775808.0
	if f >= two63 {
		return 1
	}
	if f < -two63 {
		return -1
	}
	t := math.Trunc(f)
	if ti := int64(t); ti != i {
		return cmpOrdered(ti, i)
	}
	switch fr := f - t; {
	case fr > 0:
		return 1
	case fr < 0:
		return -1
	}
	return 0
}

// computeCmpNum compares two numbers by exact value (-0.0 == 0.0).
func computeCmpNum(a, b any) int {
	switch x := a.(type) {
	case int64:
		if y, ok := b.(int64); ok {
			return cmpOrdered(x, y)
		}
		return -computeCmpFloatInt(b.(float64), x)
	case float64:
		if y, ok := b.(int64); ok {
			return computeCmpFloatInt(x, y)
		}
		return cmpOrdered(x, b.(float64))
	}
	return 0
}

// computeNumOrder is the total order on numbers: value, then float before
// integer, then -0.0 before 0.0.
func computeNumOrder(a, b any) int {
	if c := computeCmpNum(a, b); c != 0 {
		return c
	}
	fa, aFloat := a.(float64)
	fb, bFloat := b.(float64)
	switch {
	case aFloat && !bFloat:
		return -1
	case !aFloat && bFloat:
		return 1
	case aFloat && bFloat:
		sa, sb := math.Signbit(fa), math.Signbit(fb)
		if sa && !sb {
			return -1
		}
		if !sa && sb {
			return 1
		}
	}
	return 0
}

// computeNumKey is a number unpacked from its interface, for sorting
// without a type switch per comparison.
type computeNumKey struct {
	f     float64
	i     int64
	isInt bool
}

func computeNumKeyOf(v any) computeNumKey {
	if i, ok := v.(int64); ok {
		return computeNumKey{i: i, isInt: true}
	}
	f, _ := v.(float64)
	return computeNumKey{f: f}
}

// cmp compares by exact value, like computeCmpNum.
func (a computeNumKey) cmp(b computeNumKey) int {
	switch {
	case a.isInt && b.isInt:
		return cmpOrdered(a.i, b.i)
	case !a.isInt && !b.isInt:
		return cmpOrdered(a.f, b.f)
	case a.isInt:
		return -computeCmpFloatInt(b.f, a.i)
	}
	return computeCmpFloatInt(a.f, b.i)
}

// order is the total order of computeNumOrder.
func (a computeNumKey) order(b computeNumKey) int {
	if c := a.cmp(b); c != 0 {
		return c
	}
	switch {
	case a.isInt != b.isInt:
		if a.isInt {
			return 1
		}
		return -1
	case !a.isInt:
		sa, sb := math.Signbit(a.f), math.Signbit(b.f)
		if sa != sb {
			if sa {
				return -1
			}
			return 1
		}
	}
	return 0
}

func (a computeNumKey) value() any {
	if a.isInt {
		return a.i
	}
	return a.f
}

func computeRat(v any) *big.Rat {
	if i, ok := v.(int64); ok {
		return new(big.Rat).SetInt64(i)
	}
	return new(big.Rat).SetFloat64(v.(float64))
}

// computeFromRat turns an exact result into a payload number: an int64 when
// intOK and the value is integral, else the nearest float64.
func computeFromRat(r *big.Rat, intOK bool, at computeAt) (any, error) {
	if intOK && r.IsInt() {
		return computeFromInt(r.Num(), at)
	}
	f, _ := r.Float64()
	if math.IsInf(f, 0) {
		return nil, computeLimit(at, "the result is beyond the float64 range")
	}
	return f, nil
}

func computeFromInt(b *big.Int, at computeAt) (any, error) {
	if !b.IsInt64() {
		return nil, computeLimit(at, "the exact integer result %s is outside the int64 range", b.String())
	}
	return b.Int64(), nil
}

// computeSum accumulates numbers exactly: integers in an int64 that moves to
// a big.Int on overflow; floats as Shewchuk partials (non-overlapping
// float64s whose exact sum is the float part, the algorithm of Python's
// math.fsum), moved to a big.Float wide enough for any sum of up to 2^20
// float64s when a partial sum overflows float64.
type computeSum struct {
	n      int
	floats bool
	i      int64
	ib     *big.Int
	parts  []float64
	f      *big.Float
}

const computeSumPrec = 2200 // 2^-1074 .. 2^1044 plus slack

func (s *computeSum) add(v any) {
	s.n++
	switch x := v.(type) {
	case int64:
		if s.ib != nil {
			s.ib.Add(s.ib, big.NewInt(x))
			return
		}
		r := s.i + x
		if (x > 0 && r < s.i) || (x < 0 && r > s.i) {
			s.ib = new(big.Int).SetInt64(s.i)
			s.ib.Add(s.ib, big.NewInt(x))
			return
		}
		s.i = r
	case float64:
		s.floats = true
		s.addFloat(x)
	}
}

func (s *computeSum) addFloat(x float64) {
	if s.f != nil {
		s.f.Add(s.f, big.NewFloat(x))
		return
	}
	i := 0
	for j := 0; j < len(s.parts); j++ {
		y := s.parts[j]
		if math.Abs(x) < math.Abs(y) {
			x, y = y, x
		}
		hi := x + y
		if math.IsInf(hi, 0) {
			// The exact float part is parts[:i] + x + y + parts[j+1:].
			f := new(big.Float).SetPrec(computeSumPrec)
			for _, p := range s.parts[:i] {
				f.Add(f, big.NewFloat(p))
			}
			f.Add(f, big.NewFloat(x))
			f.Add(f, big.NewFloat(y))
			for _, p := range s.parts[j+1:] {
				f.Add(f, big.NewFloat(p))
			}
			s.f, s.parts = f, nil
			return
		}
		lo := y - (hi - x) // exact, since |x| >= |y|
		if lo != 0 {
			s.parts[i] = lo
			i++
		}
		x = hi
	}
	s.parts = append(s.parts[:i], x)
}

func (s *computeSum) intPart() *big.Int {
	if s.ib != nil {
		return s.ib
	}
	return big.NewInt(s.i)
}

// rat is the exact sum.
func (s *computeSum) rat() *big.Rat {
	r := new(big.Rat).SetInt(s.intPart())
	if s.f != nil {
		fr, _ := s.f.Rat(nil)
		return r.Add(r, fr)
	}
	for _, p := range s.parts {
		r.Add(r, new(big.Rat).SetFloat64(p))
	}
	return r
}

// total is the exact sum as a payload number: an integer when every value
// was one, else the float nearest to the exact sum.
func (s *computeSum) total(at computeAt) (any, error) {
	if !s.floats {
		return computeFromInt(s.intPart(), at)
	}
	return computeFromRat(s.rat(), false, at)
}

// mean is the exact sum divided by the count, rounded once.
func (s *computeSum) mean(at computeAt) (any, error) {
	r := s.rat()
	r.Quo(r, new(big.Rat).SetInt64(int64(s.n)))
	return computeFromRat(r, !s.floats, at)
}

// computeQuotient is n/d exactly: an integer when both are integers and d
// divides n, else the nearest float. A zero d is refused at dPath.
func computeQuotient(n, d *big.Rat, intOK bool, dAt, at computeAt) (any, error) {
	if d.Sign() == 0 {
		return nil, computeBad(dAt.String(), "the divisor must not be zero", "division by zero")
	}
	return computeFromRat(new(big.Rat).Quo(n, d), intOK, at)
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
		var s computeSum
		for _, v := range vals {
			s.add(v)
		}
		if fn == "sum" {
			return s.total(computeArg(base))
		}
		return s.mean(computeArg(base))
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
		var s computeSum
		s.add(sorted[n/2-1].value())
		s.add(sorted[n/2].value())
		return s.mean(computeArg(base))
	}
	return nil, Errorf(EInternal, nil, "compute: unknown reducer %s", fn)
}

// binary: ratio, diff, percent of x and y.
func (k *computeCtx) binary() (map[string]any, error) {
	for _, a := range []string{"x", "y"} {
		if !k.has(a) {
			return nil, computeBad("/"+a, "pass both x and y", "%s needs %s", k.fn, a)
		}
	}
	x, y := k.c.Args["x"], k.c.Args["y"]
	for _, a := range []string{"x", "y"} {
		if !computeIsNum(k.c.Args[a]) {
			return nil, computeBad("/"+a, "pass a finite number", "%s is not a number", a)
		}
	}
	_, xInt := x.(int64)
	_, yInt := y.(int64)
	var v any
	var err error
	switch k.fn {
	case "diff":
		v, err = computeFromRat(new(big.Rat).Sub(computeRat(x), computeRat(y)), xInt && yInt, computeArg("/x"))
	case "ratio":
		v, err = computeQuotient(computeRat(x), computeRat(y), xInt && yInt, computeArg("/y"), computeArg("/x"))
	case "percent":
		n := new(big.Rat).Mul(computeRat(x), big.NewRat(100, 1))
		v, err = computeQuotient(n, computeRat(y), xInt && yInt, computeArg("/y"), computeArg("/x"))
	}
	if err != nil {
		return nil, err
	}
	return map[string]any{"value": v, "truncated": false}, nil
}

func (k *computeCtx) intervalRelation() (map[string]any, error) {
	var iv [2][2]int64
	for j, name := range []string{"a", "b"} {
		m, ok := k.c.Args[name].(map[string]any)
		if !ok {
			return nil, computeBad("/"+name, "pass {start, end}", "interval_relation needs %s", name)
		}
		s, e := toInt(m["start"]), toInt(m["end"])
		if s >= e {
			return nil, computeBad("/"+name, "an interval is [start, end) with start < end", "interval %s is empty or inverted: start %d, end %d", name, s, e)
		}
		iv[j] = [2]int64{s, e}
	}
	as, ae, bs, be := iv[0][0], iv[0][1], iv[1][0], iv[1][1]
	var rel string
	switch {
	case ae < bs:
		rel = "before"
	case ae == bs:
		rel = "meets"
	case be < as:
		rel = "after"
	case be == as:
		rel = "met_by"
	case as == bs && ae == be:
		rel = "equals"
	case as == bs:
		rel = map[bool]string{true: "starts", false: "started_by"}[ae < be]
	case ae == be:
		rel = map[bool]string{true: "finishes", false: "finished_by"}[as > bs]
	case bs < as && ae < be:
		rel = "during"
	case as < bs && be < ae:
		rel = "contains"
	case as < bs:
		rel = "overlaps"
	default:
		rel = "overlapped_by"
	}
	return map[string]any{"value": rel, "truncated": false}, nil
}

// --- keys (group_by, join, set members) ---------------------------------------

// computeMapKey is equal for equal keys (integers and floats by value).
type computeMapKey struct {
	kind byte // z null, b boolean, n integral number, f other float, s string
	s    string
	i    int64
	f    float64
}

// computeKeyOf maps a scalar to its map key; ok is false for arrays and
// objects.
func computeKeyOf(v any) (computeMapKey, bool) {
	switch x := v.(type) {
	case nil:
		return computeMapKey{kind: 'z'}, true
	case bool:
		if x {
			return computeMapKey{kind: 'b', i: 1}, true
		}
		return computeMapKey{kind: 'b'}, true
	case string:
		return computeMapKey{kind: 's', s: x}, true
	case int64:
		return computeMapKey{kind: 'n', i: x}, true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return computeMapKey{}, false
		}
		if x == math.Trunc(x) && computeCmpFloatInt(x, math.MaxInt64) < 0 && computeCmpFloatInt(x, math.MinInt64) >= 0 {
			return computeMapKey{kind: 'n', i: int64(x)}, true
		}
		return computeMapKey{kind: 'f', f: x}, true
	}
	return computeMapKey{}, false
}

// computeKeyRank is the type rank of §10.2: null, bool, float, int, string.
func computeKeyRank(v any) int {
	switch v.(type) {
	case nil:
		return 0
	case bool:
		return 1
	case float64:
		return 2
	case int64:
		return 3
	}
	return 4
}

// computeKeyCmp orders keys: type rank, then value.
func computeKeyCmp(a, b any) int {
	ra, rb := computeKeyRank(a), computeKeyRank(b)
	if ra != rb {
		return ra - rb
	}
	switch x := a.(type) {
	case bool:
		y := b.(bool)
		switch {
		case x == y:
			return 0
		case !x:
			return -1
		}
		return 1
	case float64, int64:
		return computeNumOrder(a, b)
	case string:
		return strings.Compare(x, b.(string))
	}
	return 0
}

// computeKeySet collects keys in first-seen order; the shown value of a key
// is the largest of its occurrences in computeNumOrder (the integer when an
// integer and an equal float occur).
type computeKeySet struct {
	ints  map[int64]int // integral numbers, the common case
	strs  map[string]int
	other map[computeMapKey]int // null, booleans, other floats
	shown []any
}

func newComputeKeySet(n int) *computeKeySet {
	return &computeKeySet{ints: make(map[int64]int, n), strs: map[string]int{}, other: map[computeMapKey]int{}}
}

// slot finds key's position; ok is false for a value that is not a key.
func (s *computeKeySet) slot(v any) (key computeMapKey, j int, seen, ok bool) {
	key, ok = computeKeyOf(v)
	if !ok {
		return key, -1, false, false
	}
	switch key.kind {
	case 'n':
		j, seen = s.ints[key.i]
	case 's':
		j, seen = s.strs[key.s]
	default:
		j, seen = s.other[key]
	}
	return key, j, seen, true
}

func (s *computeKeySet) add(v any) (int, bool) {
	key, j, seen, ok := s.slot(v)
	if !ok {
		return -1, false
	}
	if seen {
		if key.kind == 'n' && computeNumOrder(v, s.shown[j]) > 0 {
			s.shown[j] = v
		}
		return j, true
	}
	j = len(s.shown)
	switch key.kind {
	case 'n':
		s.ints[key.i] = j
	case 's':
		s.strs[key.s] = j
	default:
		s.other[key] = j
	}
	s.shown = append(s.shown, v)
	return j, true
}

func (s *computeKeySet) find(v any) (int, bool) {
	_, j, seen, ok := s.slot(v)
	return j, ok && seen
}

// order returns the key positions sorted by key order.
func (s *computeKeySet) order() []int {
	pos := make([]int, len(s.shown))
	for i := range pos {
		pos[i] = i
	}
	slices.SortFunc(pos, func(a, b int) int { return computeKeyCmp(s.shown[a], s.shown[b]) })
	return pos
}

func computeNotScalar(path string) *Error {
	return computeBad(path, "keys and set members must be null, booleans, finite numbers or strings", "%s is not a scalar", path)
}

// --- grouped reducers and topk ----------------------------------------------------

func (k *computeCtx) grouped(input []any) ([]any, error) {
	col := k.c.Str("group_by")
	if col == k.fn && k.fn != "topk" {
		return nil, computeBad("/group_by", "rename the column first (derive) or group by another column",
			"group_by %q would collide with the output column %q", col, k.fn)
	}
	if k.fn == "topk" {
		if err := k.topkArgs(); err != nil {
			return nil, err
		}
	} else if k.fn != "count" && !k.has("field") {
		return nil, computeBad("/field", "name the column to reduce", "%s with group_by needs field", k.fn)
	}
	keys := newComputeKeySet(16)
	var members [][]int
	for i, e := range input {
		row, ok := e.(map[string]any)
		if !ok {
			return nil, computeBad(computePath("input", i, ""), "group_by needs rows (objects)", "element %d is not an object", i)
		}
		v, ok := row[col]
		if !ok {
			return nil, computeBad(computePath("input", i, ""), "every row must hold the group_by column", "group_by column %q missing from input row %d", col, i)
		}
		g, ok := keys.add(v)
		if !ok {
			return nil, computeNotScalar(computePath("input", i, col))
		}
		if g == len(members) {
			members = append(members, nil)
		}
		members[g] = append(members[g], i)
	}
	if k.fn != "count" && k.fn != "topk" {
		// every value is checked before any group is reduced, so a bad
		// value is reported before an out-of-range result
		if _, err := k.numbers(input, nil); err != nil {
			return nil, err
		}
	}
	var rows []any
	for _, g := range keys.order() {
		idx := members[g]
		list := make([]any, len(idx))
		for j, i := range idx {
			list[j] = input[i]
		}
		if k.fn == "topk" {
			kept, err := k.topk(list, "/input", idx)
			if err != nil {
				return nil, err
			}
			rows = append(rows, kept...)
			continue
		}
		v, err := k.reduce(k.fn, list, "/input", idx)
		if err != nil {
			return nil, err
		}
		rows = append(rows, map[string]any{col: keys.shown[g], k.fn: v})
	}
	return rows, nil
}

// computePct is pct as the exact decimal of its shortest representation.
func computePct(v any) *big.Rat {
	switch x := v.(type) {
	case int64:
		return new(big.Rat).SetInt64(x)
	case float64:
		r, _ := new(big.Rat).SetString(strconv.FormatFloat(x, 'g', -1, 64))
		return r
	}
	return new(big.Rat)
}

// computeCeilFrac is ceil(n·p/100) for p in [0, 100].
func computeCeilFrac(n int, p *big.Rat) int {
	r := new(big.Rat).Mul(new(big.Rat).SetInt64(int64(n)), p)
	r.Quo(r, big.NewRat(100, 1))
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if m.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	return int(q.Int64())
}

// topkArgs checks the arguments of topk before any row is read.
func (k *computeCtx) topkArgs() error {
	if k.has("k") == k.has("pct") {
		return computeBad("/k", "pass exactly one of k or pct", "topk needs exactly one of k and pct")
	}
	if !k.has("field") {
		return computeBad("/field", "name the column to rank by", "topk needs field")
	}
	return nil
}

// topk ranks list (rows; idx maps to input positions) and keeps a side;
// topkArgs has been checked.
func (k *computeCtx) topk(list []any, base string, idx []int) ([]any, error) {
	hasK := k.has("k")
	var pct *big.Rat
	if !hasK {
		pct = computePct(k.c.Args["pct"])
	}
	vals, err := k.numbers(list, idx)
	if err != nil {
		return nil, err
	}
	n := len(list)
	// The canonical texts break ties only; they are made when first needed.
	texts := make([][]byte, n)
	var textErr error
	text := func(j int) []byte {
		if texts[j] == nil {
			b, err := canon.Marshal(list[j])
			if err != nil && textErr == nil {
				i := k.inputIndex(idx, j)
				textErr = computeBad(computePath("input", i, ""), "rows must be plain JSON", "row %d has no canonical JSON form: %v", i, err)
			}
			texts[j] = b
		}
		return texts[j]
	}
	keys := make([]computeNumKey, n)
	rank := make([]int, n)
	for j := range rank {
		rank[j], keys[j] = j, computeNumKeyOf(vals[j])
	}
	slices.SortStableFunc(rank, func(a, b int) int {
		if c := keys[b].cmp(keys[a]); c != 0 {
			return c
		}
		return bytes.Compare(text(a), text(b))
	})
	if textErr != nil {
		return nil, textErr
	}
	side := k.c.Str("side")
	var cut int
	switch {
	case side != "bottom" && hasK:
		cut = min(int(k.c.Int("k")), n)
	case side != "bottom":
		cut = computeCeilFrac(n, pct)
	case hasK:
		cut = max(0, n-int(k.c.Int("k")))
	default:
		cut = computeCeilFrac(n, new(big.Rat).Sub(big.NewRat(100, 1), pct))
	}
	keep := rank[:cut]
	if side == "bottom" {
		keep = rank[cut:]
	}
	out := make([]any, len(keep))
	for j, r := range keep {
		out[j] = list[r]
	}
	return out, nil
}

// --- filter ---------------------------------------------------------------------

// computeEqual is value equality: numbers by exact value, otherwise same
// type and content.
func computeEqual(a, b any) bool {
	if computeIsNum(a) && computeIsNum(b) {
		return computeCmpNum(a, b) == 0
	}
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !computeEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for key, xv := range x {
			yv, ok := y[key]
			if !ok || !computeEqual(xv, yv) {
				return false
			}
		}
		return true
	}
	return false
}

func (k *computeCtx) filter(input []any) ([]any, error) {
	if !k.has("cmp") {
		return nil, computeBad("/cmp", "pick a comparison: eq ne lt le gt ge contains is_null not_null", "filter needs cmp")
	}
	cmp := k.c.Str("cmp")
	hasF2, hasVal := k.has("field2"), k.has("value")
	if hasF2 && hasVal {
		return nil, computeBad("/field2", "compare with a constant (value) or with another column (field2), not both", "filter takes field2 or value, not both")
	}
	if hasF2 && !k.has("field") {
		return nil, computeBad("/field", "field2 compares two columns of each row: name field too", "field2 needs field")
	}
	nullTest := cmp == "is_null" || cmp == "not_null"
	if nullTest && (hasF2 || hasVal) {
		p := "/value"
		if hasF2 {
			p = "/field2"
		}
		return nil, computeBad(p, "is_null and not_null read only field", "%s takes neither value nor field2", cmp)
	}
	left, err := k.values(input, nil)
	if err != nil {
		return nil, err
	}
	f2 := k.c.Str("field2")
	var out []any
	for i, l := range left {
		var keep bool
		if nullTest {
			keep = (l == nil) == (cmp == "is_null")
		} else {
			r, rAt := k.c.Args["value"], computeArg("/value")
			if hasF2 {
				row := input[i].(map[string]any)
				var ok bool
				if r, ok = row[f2]; !ok {
					return nil, computeBad(computePath("input", i, ""), "every row must hold field2", "field2 %q missing from input row %d", f2, i)
				}
				rAt = computeCell("input", i, f2)
			}
			if keep, err = computeTest(cmp, l, r, k.valueAt(nil, i), rAt); err != nil {
				return nil, err
			}
		}
		if keep {
			out = append(out, input[i])
		}
	}
	return out, nil
}

// computeTest applies one comparison.
func computeTest(cmp string, l, r any, lAt, rAt computeAt) (bool, error) {
	if r == nil {
		return false, computeBad(rAt.String(), "use cmp is_null / not_null to test for null", "cannot compare with null")
	}
	switch cmp {
	case "contains":
		switch x := l.(type) {
		case string:
			s, ok := r.(string)
			if !ok {
				return false, computeBad(rAt.String(), "a string contains only strings", "cannot look for %s in a string", kindOf(r))
			}
			return strings.Contains(x, s), nil
		case []any:
			for _, e := range x {
				if computeEqual(e, r) {
					return true, nil
				}
			}
		}
		return false, nil
	}
	if l == nil {
		return false, computeBad(lAt.String(), "use cmp is_null / not_null to test for null, or filter not_null first", "cannot compare a null")
	}
	switch cmp {
	case "eq":
		return computeEqual(l, r), nil
	case "ne":
		return !computeEqual(l, r), nil
	}
	var c int
	switch {
	case computeIsNum(l) && computeIsNum(r):
		c = computeCmpNum(l, r)
	default:
		ls, lok := l.(string)
		rs, rok := r.(string)
		if !lok || !rok {
			return false, computeBad(lAt.String(), "lt, le, gt and ge compare two numbers or two strings",
				"cannot order %s and %s", kindOf(l), kindOf(r))
		}
		c = strings.Compare(ls, rs)
	}
	switch cmp {
	case "lt":
		return c < 0, nil
	case "le":
		return c <= 0, nil
	case "gt":
		return c > 0, nil
	}
	return c >= 0, nil
}

// --- derive ---------------------------------------------------------------------

func (k *computeCtx) derive() ([]any, error) {
	for _, a := range []string{"input", "field", "op", "into"} {
		if !k.has(a) {
			return nil, computeBad("/"+a, "derive needs input, field, op, into and one of field2 or value", "derive needs %s", a)
		}
	}
	hasF2, hasVal := k.has("field2"), k.has("value")
	if hasF2 == hasVal {
		return nil, computeBad("/field2", "pass exactly one of field2 (a column) or value (a constant)", "derive needs exactly one of field2 and value")
	}
	input, _ := k.c.Args["input"].([]any)
	if err := k.c.Work(int64(len(input))); err != nil {
		return nil, err
	}
	op, into, f2 := k.c.Str("op"), k.c.Str("into"), k.c.Str("field2")
	out := make([]any, len(input))
	for i, e := range input {
		row, ok := e.(map[string]any)
		if !ok {
			return nil, computeBad(computePath("input", i, ""), "derive needs rows (objects)", "element %d is not an object", i)
		}
		if _, dup := row[into]; dup {
			return nil, computeBad("/into", "derive only adds columns: pick a new name", "column %q already exists in input row %d", into, i)
		}
		a, ok := row[k.field]
		if !ok {
			return nil, computeBad(computePath("input", i, ""), "every row must hold field", "field %q missing from input row %d", k.field, i)
		}
		b, bAt := k.c.Args["value"], computeArg("/value")
		if hasF2 {
			if b, ok = row[f2]; !ok {
				return nil, computeBad(computePath("input", i, ""), "every row must hold field2", "field2 %q missing from input row %d", f2, i)
			}
			bAt = computeCell("input", i, f2)
		}
		v, err := computeDerive(op, a, b, computeCell("input", i, k.field), bAt)
		if err != nil {
			return nil, err
		}
		nr := make(map[string]any, len(row)+1)
		for key, x := range row {
			nr[key] = x
		}
		nr[into] = v
		out[i] = nr
	}
	return out, nil
}

// computeText renders a scalar for concat: strings as they are, other
// scalars as canonical JSON.
func computeText(v any, at computeAt) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case []any, map[string]any:
		return "", computeBad(at.String(), "concat joins scalars only", "cannot concatenate %s", kindOf(v))
	}
	b, err := canon.Marshal(v)
	if err != nil {
		return "", computeBad(at.String(), "pass a plain JSON value", "cannot render %v: %v", v, err)
	}
	return string(b), nil
}

func computeDerive(op string, a, b any, aAt, bAt computeAt) (any, error) {
	if op == "concat" {
		sa, err := computeText(a, aAt)
		if err != nil {
			return nil, err
		}
		sb, err := computeText(b, bAt)
		if err != nil {
			return nil, err
		}
		return sa + "|" + sb, nil
	}
	for _, x := range [2]struct {
		v  any
		at computeAt
	}{{a, aAt}, {b, bAt}} {
		if !computeIsNum(x.v) {
			p := x.at.String()
			return nil, computeBad(p, "only integers and floats take part in arithmetic", "non-numeric value at %s: %s", p, kindOf(x.v))
		}
	}
	ai, aInt := a.(int64)
	bi, bInt := b.(int64)
	ints := aInt && bInt
	if ints && op != "div" {
		// int64 fast paths with overflow checks; big otherwise.
		switch op {
		case "add":
			if r := ai + bi; (bi >= 0) == (r >= ai) {
				return r, nil
			}
		case "sub":
			if r := ai - bi; (bi >= 0) == (r <= ai) {
				return r, nil
			}
		case "mul":
			if ai == 0 || bi == 0 {
				return int64(0), nil
			}
			if r := ai * bi; r/bi == ai && !(ai == -1 && bi == math.MinInt64) && !(bi == -1 && ai == math.MinInt64) {
				return r, nil
			}
		case "floordiv":
			if bi == 0 {
				return nil, computeBad(bAt.String(), "the divisor must not be zero", "division by zero")
			}
			if !(ai == math.MinInt64 && bi == -1) {
				q := ai / bi
				if (ai%bi != 0) && ((ai < 0) != (bi < 0)) {
					q--
				}
				return q, nil
			}
		}
	}
	ra, rb := computeRat(a), computeRat(b)
	switch op {
	case "add":
		return computeFromRat(new(big.Rat).Add(ra, rb), ints, aAt)
	case "sub":
		return computeFromRat(new(big.Rat).Sub(ra, rb), ints, aAt)
	case "mul":
		return computeFromRat(new(big.Rat).Mul(ra, rb), ints, aAt)
	case "div":
		return computeQuotient(ra, rb, ints, bAt, aAt)
	case "floordiv":
		if rb.Sign() == 0 {
			return nil, computeBad(bAt.String(), "the divisor must not be zero", "division by zero")
		}
		q := new(big.Rat).Quo(ra, rb)
		fl := new(big.Int).Div(q.Num(), q.Denom()) // Euclidean with positive denominator = floor
		if ints {
			return computeFromInt(fl, aAt)
		}
		return computeFromRat(new(big.Rat).SetInt(fl), false, aAt)
	}
	return nil, computeBad("/op", "", "unknown op %q", op)
}

// --- join -----------------------------------------------------------------------

// computeIndex keys the rows of list by col: keys must be scalars and unique.
func computeIndex(list []any, name, col string) (*computeKeySet, []int, error) {
	keys := newComputeKeySet(len(list))
	rowOf := make([]int, 0, len(list))
	for i, e := range list {
		row, ok := e.(map[string]any)
		if !ok {
			return nil, nil, computeBad(computePath(name, i, ""), "join needs rows (objects)", "element %d of %s is not an object", i, name)
		}
		v, ok := row[col]
		if !ok {
			return nil, nil, computeBad(computePath(name, i, ""), "every row must hold its join key", "key %q missing from %s row %d", col, name, i)
		}
		before := len(keys.shown)
		if _, ok := keys.add(v); !ok {
			return nil, nil, computeNotScalar(computePath(name, i, col))
		}
		if len(keys.shown) == before {
			return nil, nil, computeBad(computePath(name, i, col), "join keys must be unique on each side; reduce or group the rows first",
				"duplicate join key in %s row %d", name, i)
		}
		rowOf = append(rowOf, i)
	}
	return keys, rowOf, nil
}

func (k *computeCtx) join() ([]any, error) {
	for _, a := range []string{"input", "other", "on"} {
		if !k.has(a) {
			return nil, computeBad("/"+a, "join needs input, other and on", "join needs %s", a)
		}
	}
	input, _ := k.c.Args["input"].([]any)
	other, _ := k.c.Args["other"].([]any)
	if err := k.c.Work(int64(len(input) + len(other))); err != nil {
		return nil, err
	}
	on := k.c.Str("on")
	otherOn := on
	if k.has("other_on") {
		otherOn = k.c.Str("other_on")
	}
	prefix := k.c.Str("other_prefix")
	if !k.has("other_prefix") {
		prefix = "r_"
	}
	left, leftRow, err := computeIndex(input, "input", on)
	if err != nil {
		return nil, err
	}
	right, rightRow, err := computeIndex(other, "other", otherOn)
	if err != nil {
		return nil, err
	}
	var rightCols []string
	if k.c.Str("how") == "left" {
		seen := map[string]bool{otherOn: true}
		rightCols = append(rightCols, otherOn)
		for _, e := range other {
			for c := range e.(map[string]any) {
				if !seen[c] {
					seen[c] = true
					rightCols = append(rightCols, c)
				}
			}
		}
	}
	fill := k.c.Args["fill"]
	var out []any
	for _, g := range left.order() {
		lrow := input[leftRow[g]].(map[string]any)
		var rrow map[string]any
		if j, ok := right.find(left.shown[g]); ok {
			rrow = other[rightRow[j]].(map[string]any)
		} else if rightCols == nil {
			continue
		}
		nr := make(map[string]any, len(lrow)+len(rightCols)+4)
		for c, v := range lrow {
			nr[c] = v
		}
		put := func(c string, v any) error {
			if _, dup := lrow[c]; dup {
				return computeBad("/other_prefix", "choose an other_prefix that no left column starts with",
					"right column %q collides with a left column", c)
			}
			nr[c] = v
			return nil
		}
		if rrow != nil {
			for c, v := range rrow {
				if err := put(prefix+c, v); err != nil {
					return nil, err
				}
			}
		} else {
			for _, c := range rightCols {
				if err := put(prefix+c, fill); err != nil {
					return nil, err
				}
			}
		}
		out = append(out, nr)
	}
	return out, nil
}

// --- set operations -----------------------------------------------------------------

func (k *computeCtx) setOp() ([]any, error) {
	for _, a := range []string{"input", "other"} {
		if !k.has(a) {
			return nil, computeBad("/"+a, "set operations need input and other", "%s needs %s", k.fn, a)
		}
	}
	input, _ := k.c.Args["input"].([]any)
	other, _ := k.c.Args["other"].([]any)
	if err := k.c.Work(int64(len(input) + len(other))); err != nil {
		return nil, err
	}
	members := func(list []any, name, field string, hasField bool) (*computeKeySet, error) {
		s := newComputeKeySet(len(list))
		for i, e := range list {
			v, at := e, computeAt{list: name, i: i}
			if hasField {
				row, ok := e.(map[string]any)
				if !ok {
					return nil, computeBad(at.String(), "pass rows (objects), or set the field to null to use the elements themselves", "element %d of %s is not an object", i, name)
				}
				if v, ok = row[field]; !ok {
					return nil, computeBad(at.String(), "every row must hold the member column", "field %q missing from %s row %d", field, name, i)
				}
				at = computeCell(name, i, field)
			}
			if _, ok := s.add(v); !ok {
				return nil, computeNotScalar(at.String())
			}
		}
		return s, nil
	}
	a, err := members(input, "input", k.field, k.has("field"))
	if err != nil {
		return nil, err
	}
	of, hasOF := k.c.Str("other_field"), k.has("other_field")
	if !hasOF {
		of, hasOF = k.field, k.has("field")
	}
	b, err := members(other, "other", of, hasOF)
	if err != nil {
		return nil, err
	}
	var out []any
	switch k.fn {
	case "union":
		for _, v := range b.shown {
			a.add(v) // keeps the integer of an equal int/float pair
		}
		out = a.shown
	case "intersect":
		for _, v := range a.shown {
			if j, inB := b.find(v); inB {
				if computeNumOrder(b.shown[j], v) > 0 {
					v = b.shown[j]
				}
				out = append(out, v)
			}
		}
	default:
		for _, v := range a.shown {
			if _, inB := b.find(v); !inB {
				out = append(out, v)
			}
		}
	}
	slices.SortFunc(out, computeKeyCmp)
	return out, nil
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
	limit := int(k.c.Int("limit"))
	if limit <= 0 {
		limit = 100
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
