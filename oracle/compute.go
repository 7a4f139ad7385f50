package oracle

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"math"
	"math/big"
	"strconv"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
)

// compute, written for obviousness: every number is a big.Rat, every sort
// is an insertion sort, every set is a list searched from the start. The
// store is never read.

func init() { register("compute", compute) }

var (
	computeInvalid = Refused{"E_INVALID_ARG"}
	computeLimit   = Refused{"E_LIMIT"}
)

// computeArgs wraps the prepared arguments.
type computeArgs map[string]any

func (a computeArgs) has(k string) bool { v, ok := a[k]; return ok && v != nil }
func (a computeArgs) str(k string) string {
	s, _ := a[k].(string)
	return s
}
func (a computeArgs) list(k string) []any { l, _ := a[k].([]any); return l }

// computeIsNumber: an int64 or a finite float64; booleans are not numbers.
func computeIsNumber(v any) bool {
	switch x := v.(type) {
	case int64:
		return true
	case float64:
		return !math.IsNaN(x) && !math.IsInf(x, 0)
	}
	return false
}

func computeToRat(v any) *big.Rat {
	r := new(big.Rat)
	switch x := v.(type) {
	case int64:
		r.SetInt64(x)
	case float64:
		r.SetFloat64(x)
	}
	return r
}

// computeOut turns an exact value into a payload number.
func computeOut(r *big.Rat, integer bool) (any, error) {
	if integer && r.IsInt() {
		lo, hi := big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)
		if r.Num().Cmp(lo) < 0 || r.Num().Cmp(hi) > 0 {
			return nil, computeLimit
		}
		return r.Num().Int64(), nil
	}
	f, _ := r.Float64()
	if math.IsInf(f, 0) {
		return nil, computeLimit
	}
	return f, nil
}

func computeIsFloat(v any) bool { _, ok := v.(float64); return ok }

// computeLess is the total order on numbers: exact value, then float
// before integer, then -0.0 before 0.0.
func computeLess(a, b any) bool {
	if c := computeToRat(a).Cmp(computeToRat(b)); c != 0 {
		return c < 0
	}
	if computeIsFloat(a) != computeIsFloat(b) {
		return computeIsFloat(a)
	}
	if computeIsFloat(a) {
		return math.Signbit(a.(float64)) && !math.Signbit(b.(float64))
	}
	return false
}

// computeSame is value equality: numbers by exact value, the rest by type
// and content.
func computeSame(a, b any) bool {
	if computeIsNumber(a) || computeIsNumber(b) {
		return computeIsNumber(a) && computeIsNumber(b) && computeToRat(a).Cmp(computeToRat(b)) == 0
	}
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && y == x
	case string:
		y, ok := b.(string)
		return ok && y == x
	case []any:
		y, ok := b.([]any)
		if !ok || len(y) != len(x) {
			return false
		}
		for i := range x {
			if !computeSame(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(y) != len(x) {
			return false
		}
		for k := range x {
			if _, ok := y[k]; !ok || !computeSame(x[k], y[k]) {
				return false
			}
		}
		return true
	}
	return false
}

func computeScalarValue(v any) bool {
	switch v.(type) {
	case []any, map[string]any:
		return false
	}
	return true
}

// computeKeyLess is the key order: null, booleans, floats, integers,
// strings; then by value.
func computeKeyLess(a, b any) bool {
	rank := map[string]int{"nil": 0, "bool": 1, "float": 2, "int": 3, "string": 4}
	kind := func(v any) string {
		switch v.(type) {
		case nil:
			return "nil"
		case bool:
			return "bool"
		case float64:
			return "float"
		case int64:
			return "int"
		}
		return "string"
	}
	ka, kb := kind(a), kind(b)
	if ka != kb {
		return rank[ka] < rank[kb]
	}
	switch ka {
	case "bool":
		return !a.(bool) && b.(bool)
	case "float", "int":
		return computeToRat(a).Cmp(computeToRat(b)) < 0
	case "string":
		return a.(string) < b.(string)
	}
	return false
}

func computeInsertionSort(xs []any, less func(a, b any) bool) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && less(xs[j], xs[j-1]); j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// computeDistinct lists the distinct keys of vals (equal numbers merged,
// showing the largest occurrence in computeLess order), sorted by key.
func computeDistinct(vals []any) []any {
	var out []any
	for _, v := range vals {
		found := false
		for i, o := range out {
			if computeSame(v, o) {
				found = true
				if computeLess(o, v) {
					out[i] = v
				}
			}
		}
		if !found {
			out = append(out, v)
		}
	}
	computeInsertionSort(out, computeKeyLess)
	return out
}

func compute(_ *bt.MemStore, raw map[string]any) (map[string]any, error) {
	a := computeArgs(raw)
	fn := a.str("fn")
	if a.has("cursor") && !computeCursorShape(a.str("cursor")) {
		return nil, computeInvalid // the executor refuses it before the kernel runs
	}
	if a.has("pct") && computeToRat(a["pct"]).Sign() <= 0 {
		return nil, Refused{"E_SCHEMA"}
	}
	grouped := map[string]bool{"count": true, "sum": true, "min": true, "max": true, "mean": true, "median": true, "topk": true}
	if a.has("group_by") && !grouped[fn] {
		return nil, computeInvalid
	}
	scalar := map[string]bool{"count": true, "sum": true, "min": true, "max": true, "mean": true, "median": true,
		"ratio": true, "diff": true, "percent": true, "interval_relation": true}
	if a.has("cursor") && scalar[fn] && !a.has("group_by") {
		return nil, computeInvalid
	}
	var rows []any
	var err error
	switch fn {
	case "interval_relation":
		return computeAllen(a)
	case "ratio", "diff", "percent":
		return computeXY(a, fn)
	case "derive":
		rows, err = computeDeriveRows(a)
	case "join":
		rows, err = computeJoinRows(a)
	case "intersect", "difference", "union":
		rows, err = computeSetRows(a, fn)
	default:
		if !a.has("input") {
			return nil, computeInvalid
		}
		switch {
		case a.has("group_by"):
			rows, err = computeGroupRows(a, fn)
		case fn == "topk":
			if err := computeTopkArgs(a); err != nil {
				return nil, err
			}
			rows, err = computeTopk(a, a.list("input"))
		case fn == "filter":
			rows, err = computeFilterRows(a)
		default:
			v, err := computeReduce(a, fn, a.list("input"))
			if err != nil {
				return nil, err
			}
			return map[string]any{"value": v, "truncated": false}, nil
		}
	}
	if err != nil {
		return nil, err
	}
	return computePage(a, rows)
}

// computeField reads the values of field from rows (or the elements).
func computeField(rows []any, field string, useField bool) ([]any, error) {
	var out []any
	for _, e := range rows {
		if !useField {
			out = append(out, e)
			continue
		}
		m, ok := e.(map[string]any)
		if !ok {
			return nil, computeInvalid
		}
		v, ok := m[field]
		if !ok {
			return nil, computeInvalid
		}
		out = append(out, v)
	}
	return out, nil
}

func computeReduce(a computeArgs, fn string, list []any) (any, error) {
	if fn == "count" {
		return int64(len(list)), nil
	}
	vals, err := computeField(list, a.str("field"), a.has("field"))
	if err != nil {
		return nil, err
	}
	allInt := true
	for _, v := range vals {
		if !computeIsNumber(v) {
			return nil, computeInvalid
		}
		if computeIsFloat(v) {
			allInt = false
		}
	}
	if len(vals) == 0 {
		if fn == "sum" {
			return int64(0), nil
		}
		return nil, computeInvalid
	}
	total := new(big.Rat)
	for _, v := range vals {
		total.Add(total, computeToRat(v))
	}
	switch fn {
	case "sum":
		return computeOut(total, allInt)
	case "mean":
		return computeOut(total.Quo(total, big.NewRat(int64(len(vals)), 1)), allInt)
	case "min":
		best := vals[0]
		for _, v := range vals {
			if computeLess(v, best) {
				best = v
			}
		}
		return best, nil
	case "max":
		best := vals[0]
		for _, v := range vals {
			if computeLess(best, v) {
				best = v
			}
		}
		return best, nil
	case "median":
		s := append([]any(nil), vals...)
		computeInsertionSort(s, computeLess)
		n := len(s)
		if n%2 == 1 {
			return s[n/2], nil
		}
		lo, hi := s[n/2-1], s[n/2]
		m := new(big.Rat).Add(computeToRat(lo), computeToRat(hi))
		m.Quo(m, big.NewRat(2, 1))
		return computeOut(m, !computeIsFloat(lo) && !computeIsFloat(hi))
	}
	return nil, computeInvalid
}

func computeXY(a computeArgs, fn string) (map[string]any, error) {
	if !a.has("x") || !a.has("y") || !computeIsNumber(a["x"]) || !computeIsNumber(a["y"]) {
		return nil, computeInvalid
	}
	x, y := computeToRat(a["x"]), computeToRat(a["y"])
	ints := !computeIsFloat(a["x"]) && !computeIsFloat(a["y"])
	var v any
	var err error
	switch fn {
	case "diff":
		v, err = computeOut(new(big.Rat).Sub(x, y), ints)
	case "ratio", "percent":
		if y.Sign() == 0 {
			return nil, computeInvalid
		}
		if fn == "percent" {
			x.Mul(x, big.NewRat(100, 1))
		}
		v, err = computeOut(new(big.Rat).Quo(x, y), ints)
	}
	if err != nil {
		return nil, err
	}
	return map[string]any{"value": v, "truncated": false}, nil
}

func computeAllen(a computeArgs) (map[string]any, error) {
	get := func(k string) (int64, int64, bool) {
		m, ok := a[k].(map[string]any)
		if !ok {
			return 0, 0, false
		}
		s, e := num(m["start"]), num(m["end"])
		return s, e, s < e
	}
	as, ae, okA := get("a")
	bs, be, okB := get("b")
	if !okA || !okB {
		return nil, computeInvalid
	}
	// The 13 relations, each stated on its own.
	rels := []struct {
		name  string
		holds bool
	}{
		{"before", ae < bs},
		{"meets", ae == bs},
		{"after", be < as},
		{"met_by", be == as},
		{"equals", as == bs && ae == be},
		{"starts", as == bs && ae < be},
		{"started_by", as == bs && ae > be},
		{"finishes", ae == be && as > bs},
		{"finished_by", ae == be && as < bs},
		{"during", bs < as && ae < be},
		{"contains", as < bs && be < ae},
		{"overlaps", as < bs && bs < ae && ae < be},
		{"overlapped_by", bs < as && as < be && be < ae},
	}
	for _, r := range rels {
		if r.holds {
			return map[string]any{"value": r.name, "truncated": false}, nil
		}
	}
	return nil, Refused{"E_INTERNAL"}
}

// --- topk ---

func computeTopkArgs(a computeArgs) error {
	if a.has("k") == a.has("pct") || !a.has("field") {
		return computeInvalid
	}
	return nil
}

func computeTopk(a computeArgs, rows []any) ([]any, error) {
	vals, err := computeField(rows, a.str("field"), true)
	if err != nil {
		return nil, err
	}
	texts := make([]string, len(rows))
	for i, v := range vals {
		if !computeIsNumber(v) {
			return nil, computeInvalid
		}
		b, err := canon.Marshal(rows[i])
		if err != nil {
			return nil, computeInvalid
		}
		texts[i] = string(b)
	}
	// Selection: repeatedly take the best remaining row.
	n := len(rows)
	used := make([]bool, n)
	var ranked []int
	for range n {
		best := -1
		for i := range n {
			if used[i] {
				continue
			}
			if best < 0 {
				best = i
				continue
			}
			c := computeToRat(vals[i]).Cmp(computeToRat(vals[best]))
			if c > 0 || (c == 0 && texts[i] < texts[best]) {
				best = i
			}
		}
		used[best] = true
		ranked = append(ranked, best)
	}
	hundred := big.NewRat(100, 1)
	ceilOf := func(r *big.Rat) int {
		c := 0
		for big.NewRat(int64(c), 1).Cmp(r) < 0 {
			c++
		}
		return c
	}
	var cut int
	bottom := a.str("side") == "bottom"
	if a.has("k") {
		k := int(num(a["k"]))
		if bottom {
			cut = n - k
			if cut < 0 {
				cut = 0
			}
		} else {
			cut = min(k, n)
		}
	} else {
		var p *big.Rat
		switch x := a["pct"].(type) {
		case int64:
			p = big.NewRat(x, 1)
		case float64:
			p, _ = new(big.Rat).SetString(strconv.FormatFloat(x, 'f', -1, 64))
		}
		if bottom {
			p = new(big.Rat).Sub(hundred, p)
		}
		share := new(big.Rat).Mul(big.NewRat(int64(n), 1), p)
		cut = ceilOf(share.Quo(share, hundred))
	}
	var out []any
	for pos, i := range ranked {
		if (pos < cut) != bottom {
			out = append(out, rows[i])
		}
	}
	return out, nil
}

// --- group_by ---

func computeGroupRows(a computeArgs, fn string) ([]any, error) {
	col := a.str("group_by")
	if col == fn && fn != "topk" {
		return nil, computeInvalid
	}
	if fn == "topk" {
		if err := computeTopkArgs(a); err != nil {
			return nil, err
		}
	} else if fn != "count" && !a.has("field") {
		return nil, computeInvalid
	}
	input := a.list("input")
	keys, err := computeField(input, col, true)
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		if !computeScalarValue(k) {
			return nil, computeInvalid
		}
	}
	if fn != "count" && fn != "topk" {
		vals, err := computeField(input, a.str("field"), true)
		if err != nil {
			return nil, err
		}
		for _, v := range vals {
			if !computeIsNumber(v) {
				return nil, computeInvalid
			}
		}
	}
	var out []any
	for _, key := range computeDistinct(keys) {
		var members []any
		for i, k := range keys {
			if computeSame(k, key) {
				members = append(members, input[i])
			}
		}
		if fn == "topk" {
			kept, err := computeTopk(a, members)
			if err != nil {
				return nil, err
			}
			out = append(out, kept...)
			continue
		}
		v, err := computeReduce(a, fn, members)
		if err != nil {
			return nil, err
		}
		out = append(out, map[string]any{col: key, fn: v})
	}
	return out, nil
}

// --- filter ---

func computeFilterRows(a computeArgs) ([]any, error) {
	cmp := a.str("cmp")
	if cmp == "" {
		return nil, computeInvalid
	}
	if a.has("field2") && (a.has("value") || !a.has("field")) {
		return nil, computeInvalid
	}
	if (cmp == "is_null" || cmp == "not_null") && (a.has("field2") || a.has("value")) {
		return nil, computeInvalid
	}
	input := a.list("input")
	lefts, err := computeField(input, a.str("field"), a.has("field"))
	if err != nil {
		return nil, err
	}
	var out []any
	for i, l := range lefts {
		var keep bool
		switch cmp {
		case "is_null":
			keep = l == nil
		case "not_null":
			keep = l != nil
		default:
			r := a["value"]
			if a.has("field2") {
				v, ok := input[i].(map[string]any)[a.str("field2")]
				if !ok {
					return nil, computeInvalid
				}
				r = v
			}
			if r == nil {
				return nil, computeInvalid
			}
			if cmp == "contains" {
				if s, isStr := l.(string); isStr {
					t, ok := r.(string)
					if !ok {
						return nil, computeInvalid
					}
					keep = strings.Contains(s, t)
				} else if arr, isArr := l.([]any); isArr {
					for _, e := range arr {
						keep = keep || computeSame(e, r)
					}
				}
				break
			}
			if l == nil {
				return nil, computeInvalid
			}
			if cmp == "eq" || cmp == "ne" {
				keep = computeSame(l, r) == (cmp == "eq")
				break
			}
			var c int
			if computeIsNumber(l) && computeIsNumber(r) {
				c = computeToRat(l).Cmp(computeToRat(r))
			} else {
				ls, ok1 := l.(string)
				rs, ok2 := r.(string)
				if !ok1 || !ok2 {
					return nil, computeInvalid
				}
				c = strings.Compare(ls, rs)
			}
			keep = map[string]bool{"lt": c < 0, "le": c <= 0, "gt": c > 0, "ge": c >= 0}[cmp]
		}
		if keep {
			out = append(out, input[i])
		}
	}
	return out, nil
}

// --- derive ---

func computeDeriveRows(a computeArgs) ([]any, error) {
	for _, k := range []string{"input", "field", "op", "into"} {
		if !a.has(k) {
			return nil, computeInvalid
		}
	}
	if a.has("field2") == a.has("value") {
		return nil, computeInvalid
	}
	field, field2, into, op := a.str("field"), a.str("field2"), a.str("into"), a.str("op")
	var out []any
	for _, e := range a.list("input") {
		row, ok := e.(map[string]any)
		if !ok {
			return nil, computeInvalid
		}
		if _, exists := row[into]; exists {
			return nil, computeInvalid
		}
		x, ok := row[field]
		if !ok {
			return nil, computeInvalid
		}
		y := a["value"]
		if a.has("field2") {
			if y, ok = row[field2]; !ok {
				return nil, computeInvalid
			}
		}
		v, err := computeOp(op, x, y)
		if err != nil {
			return nil, err
		}
		nr := map[string]any{into: v}
		for k, c := range row {
			nr[k] = c
		}
		out = append(out, nr)
	}
	return out, nil
}

func computeOp(op string, x, y any) (any, error) {
	if op == "concat" {
		text := func(v any) (string, error) {
			switch t := v.(type) {
			case string:
				return t, nil
			case nil:
				return "null", nil
			case bool:
				return strconv.FormatBool(t), nil
			case int64:
				return strconv.FormatInt(t, 10), nil
			case float64:
				b, err := canon.Marshal(t)
				return string(b), err
			}
			return "", computeInvalid
		}
		sx, err := text(x)
		if err != nil {
			return nil, computeInvalid
		}
		sy, err := text(y)
		if err != nil {
			return nil, computeInvalid
		}
		return sx + "|" + sy, nil
	}
	if !computeIsNumber(x) || !computeIsNumber(y) {
		return nil, computeInvalid
	}
	rx, ry := computeToRat(x), computeToRat(y)
	ints := !computeIsFloat(x) && !computeIsFloat(y)
	r := new(big.Rat)
	switch op {
	case "add":
		r.Add(rx, ry)
	case "sub":
		r.Sub(rx, ry)
	case "mul":
		r.Mul(rx, ry)
	case "div", "floordiv":
		if ry.Sign() == 0 {
			return nil, computeInvalid
		}
		r.Quo(rx, ry)
		if op == "floordiv" {
			// floor: the largest integer <= r
			q := new(big.Int).Quo(r.Num(), r.Denom()) // truncates toward zero
			if new(big.Rat).SetInt(q).Cmp(r) > 0 {
				q.Sub(q, big.NewInt(1))
			}
			r.SetInt(q)
		}
	default:
		return nil, computeInvalid
	}
	return computeOut(r, ints)
}

// --- join ---

func computeJoinRows(a computeArgs) ([]any, error) {
	if !a.has("input") || !a.has("other") || !a.has("on") {
		return nil, computeInvalid
	}
	on := a.str("on")
	otherOn := on
	if a.has("other_on") {
		otherOn = a.str("other_on")
	}
	prefix := "r_"
	if a.has("other_prefix") {
		prefix = a.str("other_prefix")
	}
	left, right := a.list("input"), a.list("other")
	keysOf := func(rows []any, col string) ([]any, error) {
		keys, err := computeField(rows, col, true)
		if err != nil {
			return nil, err
		}
		for i, k := range keys {
			if !computeScalarValue(k) {
				// a duplicate before a non-scalar is reported first; both
				// are E_INVALID_ARG
				return nil, computeInvalid
			}
			for j := 0; j < i; j++ {
				if computeSame(keys[j], k) {
					return nil, computeInvalid
				}
			}
		}
		return keys, nil
	}
	lk, err := keysOf(left, on)
	if err != nil {
		return nil, err
	}
	rk, err := keysOf(right, otherOn)
	if err != nil {
		return nil, err
	}
	var cols []string // every right column, for unmatched rows of a left join
	addCol := func(c string) {
		for _, x := range cols {
			if x == c {
				return
			}
		}
		cols = append(cols, c)
	}
	addCol(otherOn)
	for _, r := range right {
		for c := range r.(map[string]any) {
			addCol(c)
		}
	}
	order := append([]any(nil), lk...)
	computeInsertionSort(order, computeKeyLess)
	var out []any
	for _, key := range order {
		var lrow map[string]any
		for i, k := range lk {
			if computeSame(k, key) {
				lrow = left[i].(map[string]any)
			}
		}
		var rrow map[string]any
		for i, k := range rk {
			if computeSame(k, key) {
				rrow = right[i].(map[string]any)
			}
		}
		if rrow == nil && a.str("how") != "left" {
			continue
		}
		nr := map[string]any{}
		for c, v := range lrow {
			nr[c] = v
		}
		var add map[string]any
		if rrow != nil {
			add = rrow
		} else {
			add = map[string]any{}
			for _, c := range cols {
				add[c] = a["fill"]
			}
		}
		for c, v := range add {
			if _, clash := lrow[prefix+c]; clash {
				return nil, computeInvalid
			}
			nr[prefix+c] = v
		}
		out = append(out, nr)
	}
	return out, nil
}

// --- set operations ---

func computeSetRows(a computeArgs, fn string) ([]any, error) {
	if !a.has("input") || !a.has("other") {
		return nil, computeInvalid
	}
	xs, err := computeField(a.list("input"), a.str("field"), a.has("field"))
	if err != nil {
		return nil, err
	}
	of, useOF := a.str("field"), a.has("field")
	if a.has("other_field") {
		of, useOF = a.str("other_field"), true
	}
	ys, err := computeField(a.list("other"), of, useOF)
	if err != nil {
		return nil, err
	}
	for _, v := range append(append([]any(nil), xs...), ys...) {
		if !computeScalarValue(v) {
			return nil, computeInvalid
		}
	}
	in := func(v any, list []any) bool {
		for _, w := range list {
			if computeSame(v, w) {
				return true
			}
		}
		return false
	}
	var pool []any // every occurrence that belongs to the result
	for _, v := range xs {
		switch {
		case fn == "union", fn == "intersect" && in(v, ys), fn == "difference" && !in(v, ys):
			pool = append(pool, v)
		}
	}
	for _, v := range ys {
		if fn == "union" || (fn == "intersect" && in(v, xs)) {
			pool = append(pool, v)
		}
	}
	return computeDistinct(pool), nil
}

// --- paging ---

func computePage(a computeArgs, rows []any) (map[string]any, error) {
	if rows == nil {
		rows = []any{}
	}
	fingerprint := func(end int64) string {
		text, err := canon.Marshal([]any{a.str("fn"), int64(len(rows)), rows[end-1]})
		if err != nil {
			return ""
		}
		sum := sha256.Sum256(text)
		return hex.EncodeToString(sum[:])[:16]
	}
	offset := int64(0)
	if a.has("cursor") {
		raw, _ := base64.RawURLEncoding.DecodeString(a.str("cursor"))
		v, _ := canon.Parse(raw)
		m, _ := v.(map[string]any)
		after, _ := m["after"].([]any)
		if m["tt"] != any(int64(bt.OpenEnd)) || len(after) != 2 {
			return nil, computeInvalid
		}
		off, ok := after[0].(int64)
		if !ok || off < 1 || off > int64(len(rows)) || after[1] != any(fingerprint(off)) {
			return nil, computeInvalid
		}
		offset = off
	}
	limit := num(a["limit"])
	if limit <= 0 {
		limit = 100
	}
	end := min(int64(len(rows)), offset+limit)
	out := map[string]any{"rows": rows[offset:end], "rows_total": int64(len(rows)),
		"truncated": offset > 0 || end < int64(len(rows)), "cursor": nil}
	if end < int64(len(rows)) {
		b, err := canon.Marshal(map[string]any{"after": []any{end, fingerprint(end)}, "tt": bt.OpenEnd})
		if err != nil {
			return nil, err
		}
		out["cursor"] = base64.RawURLEncoding.EncodeToString(b)
	}
	return out, nil
}

// computeCursorShape: the cursor is base64url of {"after": [...], "tt": n}.
func computeCursorShape(cur string) bool {
	raw, err := base64.RawURLEncoding.DecodeString(cur)
	if err != nil {
		return false
	}
	v, err := canon.Parse(raw)
	if err != nil {
		return false
	}
	m, ok := v.(map[string]any)
	tt, okT := m["tt"].(int64)
	_, okA := m["after"].([]any)
	return ok && okT && okA && len(m) == 2 && tt >= 0
}
