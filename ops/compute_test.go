package ops_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

// --- random arguments ---------------------------------------------------------

// negZero is IEEE negative zero (a -0.0 literal is +0 in Go).
var negZero = math.Copysign(0, -1)

// computeGenScalar draws a value of any JSON kind: mostly numbers, then
// strings, booleans, null and (rarely) nested values.
func computeGenScalar(rng *rand.Rand, nested bool) any {
	switch r := rng.IntN(20); {
	case r < 6:
		return int64(rng.IntN(11) - 5)
	case r < 9:
		return []float64{0.5, -1.5, 2.0, 0.1, 0.2, 3.25, negZero, 1.0, 1e-7, 7.125}[rng.IntN(10)]
	case r < 10:
		return []int64{1 << 62, -(1 << 62), 9223372036854775807, -9223372036854775808, 9007199254740993}[rng.IntN(5)]
	case r < 11:
		return []float64{1e308, -1e308, 9007199254740992.0, 4.611686018427388e18, 5e-324}[rng.IntN(5)]
	case r < 14:
		return []string{"a", "b", "ab", "", "B", "é"}[rng.IntN(6)]
	case r < 16:
		return rng.IntN(2) == 0
	case r < 18:
		return nil
	}
	if !nested {
		return int64(rng.IntN(3))
	}
	if rng.IntN(2) == 0 {
		return []any{int64(1), "a", nil}
	}
	return map[string]any{"x": int64(1)}
}

// computeGenNumber draws a number (and, one time in bad, anything).
func computeGenNumber(rng *rand.Rand, bad int) any {
	if bad > 0 && rng.IntN(bad) == 0 {
		return computeGenScalar(rng, true)
	}
	for {
		if v := computeGenScalar(rng, false); v != nil {
			switch v.(type) {
			case int64, float64:
				return v
			}
		}
	}
}

// computeGenKey draws a group/join/set key.
func computeGenKey(rng *rand.Rand, bad int) any {
	if bad > 0 && rng.IntN(bad) == 0 {
		return []any{int64(1)}
	}
	keys := []any{int64(1), 1.0, int64(2), 2.5, true, false, nil, "a", "b", "", negZero, int64(0)}
	return keys[rng.IntN(len(keys))]
}

// computeGenRows makes n rows {id, v, w, g, s} with numbers in v and w.
func computeGenRows(rng *rand.Rand, n, bad int) []any {
	rows := make([]any, n)
	for i := range rows {
		rows[i] = map[string]any{
			"id": string(rune('a' + i%26)), "v": computeGenNumber(rng, bad), "w": computeGenNumber(rng, bad),
			"g": computeGenKey(rng, bad*3), "s": computeGenScalar(rng, true),
		}
		if bad > 0 && rng.IntN(bad*4) == 0 {
			delete(rows[i].(map[string]any), []string{"v", "g", "w"}[rng.IntN(3)])
		}
	}
	return rows
}

func computeGenArgs(rng *rand.Rand) map[string]any {
	fns := []string{"count", "sum", "min", "max", "mean", "median", "topk", "filter", "ratio", "diff",
		"percent", "intersect", "difference", "union", "derive", "join", "interval_relation"}
	fn := fns[rng.IntN(len(fns))]
	args := map[string]any{"fn": fn}
	bad := 12 // one value in bad is of a wrong kind
	if rng.IntN(3) == 0 {
		bad = 0
	}
	n := rng.IntN(9)
	if rng.IntN(3) == 0 {
		args["limit"] = int64(1 + rng.IntN(4))
	}
	switch fn {
	case "count", "sum", "min", "max", "mean", "median":
		if rng.IntN(2) == 0 {
			vals := make([]any, n)
			for i := range vals {
				vals[i] = computeGenNumber(rng, bad)
			}
			args["input"] = vals
		} else {
			args["input"] = computeGenRows(rng, n, bad)
			if rng.IntN(8) > 0 {
				args["field"] = []string{"v", "w"}[rng.IntN(2)]
			}
			if rng.IntN(2) == 0 {
				args["group_by"] = "g"
				if rng.IntN(30) == 0 {
					args["group_by"] = fn
				}
			}
		}
	case "topk":
		args["input"] = computeGenRows(rng, n, bad)
		args["field"] = "v"
		switch r := rng.IntN(12); {
		case r < 5:
			args["k"] = int64(1 + rng.IntN(6))
		case r < 10:
			args["pct"] = []any{int64(28), int64(50), 12.5, 33.3, int64(100), 0.1, 99.9, int64(1)}[rng.IntN(8)]
		case r < 11:
			args["k"], args["pct"] = int64(2), int64(50)
		default:
			if rng.IntN(2) == 0 {
				args["pct"] = int64(0)
			}
		}
		if rng.IntN(2) == 0 {
			args["side"] = "bottom"
		}
		if rng.IntN(3) == 0 {
			args["group_by"] = "g"
		}
		if rng.IntN(20) == 0 {
			delete(args, "field")
		}
	case "filter":
		args["input"] = computeGenRows(rng, n, bad)
		cmps := []string{"eq", "ne", "lt", "le", "gt", "ge", "contains", "is_null", "not_null"}
		args["cmp"] = cmps[rng.IntN(len(cmps))]
		args["field"] = []string{"v", "s", "g"}[rng.IntN(3)]
		switch r := rng.IntN(10); {
		case r < 6:
			args["value"] = computeGenScalar(rng, true)
		case r < 9:
			args["field2"] = []string{"w", "s", "g", "v"}[rng.IntN(4)]
		}
		if args["cmp"] == "is_null" || args["cmp"] == "not_null" {
			if rng.IntN(6) > 0 {
				delete(args, "value")
				delete(args, "field2")
			}
		}
		if rng.IntN(10) == 0 {
			vals := make([]any, n)
			for i := range vals {
				vals[i] = computeGenScalar(rng, true)
			}
			args["input"] = vals
			delete(args, "field")
			delete(args, "field2")
		}
	case "derive":
		args["input"] = computeGenRows(rng, n, bad)
		args["op"] = []string{"add", "sub", "mul", "div", "floordiv", "concat"}[rng.IntN(6)]
		args["field"] = []string{"v", "w", "s"}[rng.IntN(3)]
		args["into"] = []string{"out", "out", "out", "id"}[rng.IntN(4)]
		if rng.IntN(2) == 0 {
			args["field2"] = []string{"v", "w", "s"}[rng.IntN(3)]
		} else {
			args["value"] = computeGenNumber(rng, 5)
		}
		if rng.IntN(25) == 0 {
			args["value"], args["field2"] = int64(1), "v"
		}
	case "join":
		left := computeGenJoinSide(rng, n, bad, "k", "x")
		right := computeGenJoinSide(rng, rng.IntN(7), bad, "k", "y")
		args["input"], args["other"], args["on"] = left, right, "k"
		if rng.IntN(2) == 0 {
			args["how"] = "left"
			args["fill"] = computeGenScalar(rng, false)
		}
		if rng.IntN(6) == 0 {
			args["other_prefix"] = "" + []string{"x", "p_", "r_"}[rng.IntN(3)]
		}
		if rng.IntN(8) == 0 {
			for _, r := range right {
				r.(map[string]any)["kk"] = r.(map[string]any)["k"]
			}
			args["other_on"] = "kk"
		}
	case "intersect", "difference", "union":
		mk := func(m int) []any {
			out := make([]any, m)
			for i := range out {
				out[i] = computeGenKey(rng, bad*2)
			}
			return out
		}
		args["input"], args["other"] = mk(n), mk(rng.IntN(7))
		if rng.IntN(4) == 0 {
			wrap := func(l []any, col string) []any {
				out := make([]any, len(l))
				for i, v := range l {
					out[i] = map[string]any{col: v}
				}
				return out
			}
			args["input"] = wrap(args["input"].([]any), "m")
			args["field"] = "m"
			if rng.IntN(2) == 0 {
				args["other"] = wrap(args["other"].([]any), "o")
				args["other_field"] = "o"
			} else {
				args["other"] = wrap(args["other"].([]any), "m")
			}
		}
	case "ratio", "diff", "percent":
		args["x"] = computeGenNumber(rng, 0)
		args["y"] = computeGenNumber(rng, 0)
		if rng.IntN(5) == 0 {
			args["y"] = []any{int64(0), 0.0}[rng.IntN(2)]
		}
		if rng.IntN(15) == 0 {
			delete(args, "x")
		}
	case "interval_relation":
		iv := func() map[string]any {
			s := int64(rng.IntN(6))
			return map[string]any{"start": s, "end": s + int64(rng.IntN(5)) - int64(rng.IntN(20)/19)}
		}
		args["a"], args["b"] = iv(), iv()
	}
	if fn != "topk" && rng.IntN(40) == 0 {
		args["group_by"] = "g"
	}
	if rng.IntN(40) == 0 {
		args["input"] = nil
	}
	return args
}

func computeGenJoinSide(rng *rand.Rand, n, bad int, key, col string) []any {
	rows := make([]any, 0, n)
	used := map[string]bool{}
	for len(rows) < n {
		k := computeGenKey(rng, bad*3)
		text, _ := canon.Marshal(k)
		if f, ok := k.(float64); ok && f == float64(int64(f)) {
			text, _ = canon.Marshal(int64(f))
		}
		if used[string(text)] && (bad == 0 || rng.IntN(bad) > 0) {
			if len(used) >= 11 {
				break
			}
			continue
		}
		used[string(text)] = true
		row := map[string]any{key: k, col: computeGenNumber(rng, 0)}
		if rng.IntN(15) == 0 {
			row["r_"+col] = int64(1) // collides with the prefixed right column
		}
		rows = append(rows, row)
	}
	return rows
}

func init() {
	argGens["compute"] = func(rng *rand.Rand, _ *world) map[string]any { return computeGenArgs(rng) }
}

// --- hand-checked values -----------------------------------------------------------

func computeCall(t testing.TB, args map[string]any) (map[string]any, error) {
	t.Helper()
	env, err := ops.Execute(context.Background(), storeSource{engine.New()}, "compute", args)
	if err != nil {
		return nil, err
	}
	return env.Result, nil
}

func computeParse(t testing.TB, text string) map[string]any {
	t.Helper()
	v, err := canon.Parse([]byte(text))
	if err != nil {
		t.Fatalf("bad test JSON %s: %v", text, err)
	}
	return v.(map[string]any)
}

func TestComputeTable(t *testing.T) {
	const rows5 = `[{"id":"a","score":5},{"id":"b","score":3},{"id":"c","score":5},{"id":"d","score":1},{"id":"e","score":2}]`
	const kv = `[{"k":"a","x":1},{"k":"b","x":2}]`
	cases := []struct {
		name, args string
		want       string // payload, or "E_CODE /path"
	}{
		// reducers
		{"count mixed", `{"fn":"count","input":[1,"a",null,{"x":1},[2]]}`, `{"value":5,"truncated":false}`},
		{"count empty", `{"fn":"count","input":[]}`, `{"value":0,"truncated":false}`},
		{"count needs input", `{"fn":"count"}`, "E_INVALID_ARG /input"},
		{"sum empty", `{"fn":"sum","input":[]}`, `{"value":0,"truncated":false}`},
		{"sum ints", `{"fn":"sum","input":[1,2,3]}`, `{"value":6,"truncated":false}`},
		{"sum floats", `{"fn":"sum","input":[0.1,0.2]}`, `{"value":0.3,"truncated":false}`},
		{"sum int and float", `{"fn":"sum","input":[1,2.5]}`, `{"value":3.5,"truncated":false}`},
		{"sum 2^62 2^62 -2^62", `{"fn":"sum","input":[4611686018427387904,4611686018427387904,-4611686018427387904]}`,
			`{"value":4611686018427387904,"truncated":false}`},
		{"sum 2^62 2^62 overflows", `{"fn":"sum","input":[4611686018427387904,4611686018427387904]}`, "E_LIMIT /input"},
		{"sum max+1-1", `{"fn":"sum","input":[9223372036854775807,1,-1]}`, `{"value":9223372036854775807,"truncated":false}`},
		{"sum min-1+1", `{"fn":"sum","input":[-9223372036854775808,-1,1]}`, `{"value":-9223372036854775808,"truncated":false}`},
		{"sum floats exact past overflow", `{"fn":"sum","input":[1e308,1e308,-1e308]}`, `{"value":1e308,"truncated":false}`},
		{"sum floats overflow", `{"fn":"sum","input":[1e308,1e308]}`, "E_LIMIT /input"},
		{"sum exact cancellation", `{"fn":"sum","input":[1e16,1.0,-1e16]}`, `{"value":1.0,"truncated":false}`},
		{"sum tenths", `{"fn":"sum","input":[0.1,0.1,0.1,0.1,0.1,0.1,0.1,0.1,0.1,0.1]}`, `{"value":1.0,"truncated":false}`},
		{"sum partials overflow then cancel", `{"fn":"sum","input":[1e308,0.5,1e308,-1e308,-1e308,1e-300]}`, `{"value":0.5,"truncated":false}`},
		{"mean exact not double rounded", `{"fn":"mean","input":[1e308,1e308,1e308]}`, `{"value":1e308,"truncated":false}`},
		{"sum boolean", `{"fn":"sum","input":[1,true]}`, "E_INVALID_ARG /input/1"},
		{"sum null", `{"fn":"sum","input":[null]}`, "E_INVALID_ARG /input/0"},
		{"sum field", `{"fn":"sum","input":[{"v":1},{"v":2.5}],"field":"v"}`, `{"value":3.5,"truncated":false}`},
		{"sum field string", `{"fn":"sum","input":[{"v":1},{"v":"x"}],"field":"v"}`, "E_INVALID_ARG /input/1/v"},
		{"sum field missing", `{"fn":"sum","input":[{"w":1}],"field":"v"}`, "E_INVALID_ARG /input/0"},
		{"sum field not a row", `{"fn":"sum","input":[3],"field":"v"}`, "E_INVALID_ARG /input/0"},
		{"sum field escaped", `{"fn":"sum","input":[{"a/b":"x"}],"field":"a/b"}`, "E_INVALID_ARG /input/0/a~1b"},
		{"mean ints exact", `{"fn":"mean","input":[2,4]}`, `{"value":3,"truncated":false}`},
		{"mean ints inexact", `{"fn":"mean","input":[1,2]}`, `{"value":1.5,"truncated":false}`},
		{"mean thirds", `{"fn":"mean","input":[1,1,2]}`, `{"value":1.333333333,"truncated":false}`},
		{"mean float stays float", `{"fn":"mean","input":[2.0,4]}`, `{"value":3.0,"truncated":false}`},
		{"mean big ints", `{"fn":"mean","input":[4611686018427387904,4611686018427387904]}`, `{"value":4611686018427387904,"truncated":false}`},
		{"mean max ints", `{"fn":"mean","input":[9223372036854775807,9223372036854775806,9223372036854775805]}`,
			`{"value":9223372036854775806,"truncated":false}`},
		{"mean empty", `{"fn":"mean","input":[]}`, "E_INVALID_ARG /input"},
		{"median even", `{"fn":"median","input":[3,1,2,10]}`, `{"value":2.5,"truncated":false}`},
		{"median even int", `{"fn":"median","input":[3,1]}`, `{"value":2,"truncated":false}`},
		{"median odd", `{"fn":"median","input":[3,1,2]}`, `{"value":2,"truncated":false}`},
		{"median odd float before int", `{"fn":"median","input":[5,1,5.0]}`, `{"value":5.0,"truncated":false}`},
		{"median even big", `{"fn":"median","input":[9223372036854775807,9223372036854775805]}`, `{"value":9223372036854775806,"truncated":false}`},
		{"median empty", `{"fn":"median","input":[]}`, "E_INVALID_ARG /input"},
		{"min float before int", `{"fn":"min","input":[3,1,1.0]}`, `{"value":1.0,"truncated":false}`},
		{"max int after float", `{"fn":"max","input":[3.0,3,1]}`, `{"value":3,"truncated":false}`},
		{"min negative zero", `{"fn":"min","input":[0.0,-0.0]}`, `{"value":-0.0,"truncated":false}`},
		{"min exact int vs float", `{"fn":"min","input":[9007199254740993,9007199254740992.0]}`, `{"value":9007199254740992.0,"truncated":false}`},
		{"max exact int vs float", `{"fn":"max","input":[9007199254740992.0,9007199254740993]}`, `{"value":9007199254740993,"truncated":false}`},
		{"max empty", `{"fn":"max","input":[]}`, "E_INVALID_ARG /input"},
		{"min string", `{"fn":"min","input":["a"]}`, "E_INVALID_ARG /input/0"},
		// ratio, percent, diff
		{"ratio exact", `{"fn":"ratio","x":8,"y":2}`, `{"value":4,"truncated":false}`},
		{"ratio half", `{"fn":"ratio","x":7,"y":2}`, `{"value":3.5,"truncated":false}`},
		{"ratio float", `{"fn":"ratio","x":8.0,"y":2}`, `{"value":4.0,"truncated":false}`},
		{"ratio negative", `{"fn":"ratio","x":-7,"y":2}`, `{"value":-3.5,"truncated":false}`},
		{"ratio by zero", `{"fn":"ratio","x":1,"y":0}`, "E_INVALID_ARG /y"},
		{"ratio by float zero", `{"fn":"ratio","x":1,"y":0.0}`, "E_INVALID_ARG /y"},
		{"ratio min by -1", `{"fn":"ratio","x":-9223372036854775808,"y":-1}`, "E_LIMIT /x"},
		{"ratio missing y", `{"fn":"ratio","x":1}`, "E_INVALID_ARG /y"},
		{"ratio boolean", `{"fn":"ratio","x":true,"y":1}`, "E_SCHEMA /x"},
		{"percent third", `{"fn":"percent","x":1,"y":3}`, `{"value":33.333333333,"truncated":false}`},
		{"percent quarter", `{"fn":"percent","x":1,"y":4}`, `{"value":25,"truncated":false}`},
		{"percent eighth", `{"fn":"percent","x":1,"y":8}`, `{"value":12.5,"truncated":false}`},
		{"percent by zero", `{"fn":"percent","x":1,"y":0}`, "E_INVALID_ARG /y"},
		{"percent big", `{"fn":"percent","x":9223372036854775807,"y":1}`, "E_LIMIT /x"},
		{"diff", `{"fn":"diff","x":5,"y":7}`, `{"value":-2,"truncated":false}`},
		{"diff floats", `{"fn":"diff","x":0.3,"y":0.1}`, `{"value":0.2,"truncated":false}`},
		{"diff overflow", `{"fn":"diff","x":9223372036854775807,"y":-1}`, "E_LIMIT /x"},
		// interval_relation: the 13 relations
		{"allen before", `{"fn":"interval_relation","a":{"start":0,"end":10},"b":{"start":20,"end":30}}`, `{"value":"before","truncated":false}`},
		{"allen meets", `{"fn":"interval_relation","a":{"start":0,"end":10},"b":{"start":10,"end":20}}`, `{"value":"meets","truncated":false}`},
		{"allen after", `{"fn":"interval_relation","a":{"start":20,"end":30},"b":{"start":0,"end":10}}`, `{"value":"after","truncated":false}`},
		{"allen met_by", `{"fn":"interval_relation","a":{"start":10,"end":20},"b":{"start":0,"end":10}}`, `{"value":"met_by","truncated":false}`},
		{"allen equals", `{"fn":"interval_relation","a":{"start":0,"end":10},"b":{"start":0,"end":10}}`, `{"value":"equals","truncated":false}`},
		{"allen starts", `{"fn":"interval_relation","a":{"start":0,"end":5},"b":{"start":0,"end":10}}`, `{"value":"starts","truncated":false}`},
		{"allen started_by", `{"fn":"interval_relation","a":{"start":0,"end":10},"b":{"start":0,"end":5}}`, `{"value":"started_by","truncated":false}`},
		{"allen finishes", `{"fn":"interval_relation","a":{"start":5,"end":10},"b":{"start":0,"end":10}}`, `{"value":"finishes","truncated":false}`},
		{"allen finished_by", `{"fn":"interval_relation","a":{"start":0,"end":10},"b":{"start":5,"end":10}}`, `{"value":"finished_by","truncated":false}`},
		{"allen during", `{"fn":"interval_relation","a":{"start":2,"end":5},"b":{"start":0,"end":10}}`, `{"value":"during","truncated":false}`},
		{"allen contains", `{"fn":"interval_relation","a":{"start":0,"end":10},"b":{"start":2,"end":5}}`, `{"value":"contains","truncated":false}`},
		{"allen overlaps", `{"fn":"interval_relation","a":{"start":0,"end":5},"b":{"start":3,"end":10}}`, `{"value":"overlaps","truncated":false}`},
		{"allen overlapped_by", `{"fn":"interval_relation","a":{"start":3,"end":10},"b":{"start":0,"end":5}}`, `{"value":"overlapped_by","truncated":false}`},
		{"allen empty a", `{"fn":"interval_relation","a":{"start":3,"end":3},"b":{"start":0,"end":5}}`, "E_INVALID_ARG /a"},
		{"allen missing b", `{"fn":"interval_relation","a":{"start":0,"end":5}}`, "E_INVALID_ARG /b"},
		// topk (reference example)
		{"topk k2", `{"fn":"topk","input":` + rows5 + `,"field":"score","k":2}`,
			`{"rows":[{"id":"a","score":5},{"id":"c","score":5}],"rows_total":2,"truncated":false,"cursor":null}`},
		{"topk pct40", `{"fn":"topk","input":` + rows5 + `,"field":"score","pct":40}`,
			`{"rows":[{"id":"a","score":5},{"id":"c","score":5}],"rows_total":2,"truncated":false,"cursor":null}`},
		{"topk pct60 bottom", `{"fn":"topk","input":` + rows5 + `,"field":"score","pct":60,"side":"bottom"}`,
			`{"rows":[{"id":"b","score":3},{"id":"e","score":2},{"id":"d","score":1}],"rows_total":3,"truncated":false,"cursor":null}`},
		{"topk k1 bottom", `{"fn":"topk","input":` + rows5 + `,"field":"score","k":1,"side":"bottom"}`,
			`{"rows":[{"id":"d","score":1}],"rows_total":1,"truncated":false,"cursor":null}`},
		{"topk k past n", `{"fn":"topk","input":[{"s":1}],"field":"s","k":5}`, `{"rows":[{"s":1}],"rows_total":1,"truncated":false,"cursor":null}`},
		{"topk k past n bottom", `{"fn":"topk","input":[{"s":1}],"field":"s","k":5,"side":"bottom"}`, `{"rows":[{"s":1}],"rows_total":1,"truncated":false,"cursor":null}`},
		{"topk bottom 10pct of 5 is empty", `{"fn":"topk","input":` + rows5 + `,"field":"score","pct":10,"side":"bottom"}`,
			`{"rows":[],"rows_total":0,"truncated":false,"cursor":null}`},
		{"topk top 10pct of 5 rounds up", `{"fn":"topk","input":` + rows5 + `,"field":"score","pct":10}`,
			`{"rows":[{"id":"a","score":5}],"rows_total":1,"truncated":false,"cursor":null}`},
		{"topk tie int float by canonical text", `{"fn":"topk","input":[{"id":"x","s":1},{"id":"x","s":1.0},{"id":"w","s":1}],"field":"s","k":3}`,
			`{"rows":[{"id":"w","s":1},{"id":"x","s":1.0},{"id":"x","s":1}],"rows_total":3,"truncated":false,"cursor":null}`},
		{"topk exact compare", `{"fn":"topk","input":[{"s":9007199254740992.0},{"s":9007199254740993}],"field":"s","k":1}`,
			`{"rows":[{"s":9007199254740993}],"rows_total":1,"truncated":false,"cursor":null}`},
		{"topk k and pct", `{"fn":"topk","input":[],"field":"s","k":1,"pct":5}`, "E_INVALID_ARG /k"},
		{"topk neither", `{"fn":"topk","input":[],"field":"s"}`, "E_INVALID_ARG /k"},
		{"topk no field", `{"fn":"topk","input":[],"k":1}`, "E_INVALID_ARG /field"},
		{"topk pct zero", `{"fn":"topk","input":[],"field":"s","pct":0}`, "E_SCHEMA /pct"},
		{"topk pct over", `{"fn":"topk","input":[],"field":"s","pct":100.5}`, "E_SCHEMA /pct"},
		{"topk k zero", `{"fn":"topk","input":[],"field":"s","k":0}`, "E_SCHEMA /k"},
		{"topk string value", `{"fn":"topk","input":[{"s":1},{"s":"9"}],"field":"s","k":1}`, "E_INVALID_ARG /input/1/s"},
		{"topk boolean value", `{"fn":"topk","input":[{"s":true}],"field":"s","k":1}`, "E_INVALID_ARG /input/0/s"},
		{"topk grouped", `{"fn":"topk","input":[{"g":"y","s":1},{"g":"x","s":2},{"g":"y","s":3},{"g":"x","s":5},{"g":"x","s":4}],"field":"s","k":1,"group_by":"g"}`,
			`{"rows":[{"g":"x","s":5},{"g":"y","s":3}],"rows_total":2,"truncated":false,"cursor":null}`},
		{"topk grouped pct", `{"fn":"topk","input":[{"g":"y","s":1},{"g":"x","s":2},{"g":"y","s":3},{"g":"x","s":5},{"g":"x","s":4}],"field":"s","pct":50,"group_by":"g"}`,
			`{"rows":[{"g":"x","s":5},{"g":"x","s":4},{"g":"y","s":3}],"rows_total":3,"truncated":false,"cursor":null}`},
		// filter
		{"filter eq numeric classes", `{"fn":"filter","input":[1,1.0,true,"1",2],"cmp":"eq","value":1}`,
			`{"rows":[1,1.0],"rows_total":2,"truncated":false,"cursor":null}`},
		{"filter ne", `{"fn":"filter","input":[1,1.0,true,"1"],"cmp":"ne","value":1}`,
			`{"rows":[true,"1"],"rows_total":2,"truncated":false,"cursor":null}`},
		{"filter eq true", `{"fn":"filter","input":[1,true],"cmp":"eq","value":true}`,
			`{"rows":[true],"rows_total":1,"truncated":false,"cursor":null}`},
		{"filter eq arrays", `{"fn":"filter","input":[[1,"a"],[1.0,"a"],[1]],"cmp":"eq","value":[1,"a"]}`,
			`{"rows":[[1,"a"],[1.0,"a"]],"rows_total":2,"truncated":false,"cursor":null}`},
		{"filter lt numbers", `{"fn":"filter","input":[{"v":1},{"v":2.5},{"v":3}],"field":"v","cmp":"lt","value":3}`,
			`{"rows":[{"v":1},{"v":2.5}],"rows_total":2,"truncated":false,"cursor":null}`},
		{"filter ge strings", `{"fn":"filter","input":["a","b","B","é"],"cmp":"ge","value":"b"}`,
			`{"rows":["b","é"],"rows_total":2,"truncated":false,"cursor":null}`},
		{"filter lt mixed", `{"fn":"filter","input":["a",1],"cmp":"lt","value":"b"}`, "E_INVALID_ARG /input/1"},
		{"filter lt booleans", `{"fn":"filter","input":[false],"cmp":"lt","value":true}`, "E_INVALID_ARG /input/0"},
		{"filter eq null", `{"fn":"filter","input":[1],"cmp":"eq"}`, "E_INVALID_ARG /value"},
		{"filter null left", `{"fn":"filter","input":[{"v":null}],"field":"v","cmp":"gt","value":1}`, "E_INVALID_ARG /input/0/v"},
		{"filter contains", `{"fn":"filter","input":["abc","xbz",["b"],[["b"]],7,null],"cmp":"contains","value":"b"}`,
			`{"rows":["abc","xbz",["b"]],"rows_total":3,"truncated":false,"cursor":null}`},
		{"filter contains number in array", `{"fn":"filter","input":[[1.0,2],[3]],"cmp":"contains","value":1}`,
			`{"rows":[[1.0,2]],"rows_total":1,"truncated":false,"cursor":null}`},
		{"filter contains non-string needle", `{"fn":"filter","input":["abc"],"cmp":"contains","value":1}`, "E_INVALID_ARG /value"},
		{"filter is_null", `{"fn":"filter","input":[{"v":null},{"v":0},{"v":false}],"field":"v","cmp":"is_null"}`,
			`{"rows":[{"v":null}],"rows_total":1,"truncated":false,"cursor":null}`},
		{"filter not_null", `{"fn":"filter","input":[null,0,""],"cmp":"not_null"}`,
			`{"rows":[0,""],"rows_total":2,"truncated":false,"cursor":null}`},
		{"filter is_null with value", `{"fn":"filter","input":[],"cmp":"is_null","value":1}`, "E_INVALID_ARG /value"},
		{"filter field2", `{"fn":"filter","input":[{"a":1,"b":2},{"a":3,"b":2.0},{"a":2,"b":2}],"field":"a","field2":"b","cmp":"ge"}`,
			`{"rows":[{"a":3,"b":2.0},{"a":2,"b":2}],"rows_total":2,"truncated":false,"cursor":null}`},
		{"filter field2 and value", `{"fn":"filter","input":[],"field":"a","field2":"b","value":1,"cmp":"eq"}`, "E_INVALID_ARG /field2"},
		{"filter field2 without field", `{"fn":"filter","input":[],"field2":"b","cmp":"eq"}`, "E_INVALID_ARG /field"},
		{"filter field2 missing", `{"fn":"filter","input":[{"a":1}],"field":"a","field2":"b","cmp":"eq"}`, "E_INVALID_ARG /input/0"},
		{"filter no cmp", `{"fn":"filter","input":[]}`, "E_INVALID_ARG /cmp"},
		{"filter bad cmp", `{"fn":"filter","input":[],"cmp":"like"}`, "E_SCHEMA /cmp"},
		// derive
		{"derive add", `{"fn":"derive","input":[{"a":1,"b":2},{"a":1.5,"b":2}],"field":"a","field2":"b","op":"add","into":"c"}`,
			`{"rows":[{"a":1,"b":2,"c":3},{"a":1.5,"b":2,"c":3.5}],"rows_total":2,"truncated":false,"cursor":null}`},
		{"derive add overflow", `{"fn":"derive","input":[{"a":9223372036854775807}],"field":"a","value":1,"op":"add","into":"c"}`, "E_LIMIT /input/0/a"},
		{"derive sub overflow", `{"fn":"derive","input":[{"a":-9223372036854775808}],"field":"a","value":1,"op":"sub","into":"c"}`, "E_LIMIT /input/0/a"},
		{"derive mul overflow", `{"fn":"derive","input":[{"a":4611686018427387904}],"field":"a","value":2,"op":"mul","into":"c"}`, "E_LIMIT /input/0/a"},
		{"derive mul big", `{"fn":"derive","input":[{"a":4611686018427387904}],"field":"a","value":-2,"op":"mul","into":"c"}`,
			`{"rows":[{"a":4611686018427387904,"c":-9223372036854775808}],"rows_total":1,"truncated":false,"cursor":null}`},
		{"derive div", `{"fn":"derive","input":[{"a":7},{"a":8}],"field":"a","value":2,"op":"div","into":"c"}`,
			`{"rows":[{"a":7,"c":3.5},{"a":8,"c":4}],"rows_total":2,"truncated":false,"cursor":null}`},
		{"derive floordiv", `{"fn":"derive","input":[{"a":7},{"a":-7},{"a":7.0},{"a":-9223372036854775808}],"field":"a","value":2,"op":"floordiv","into":"c"}`,
			`{"rows":[{"a":7,"c":3},{"a":-7,"c":-4},{"a":7.0,"c":3.0},{"a":-9223372036854775808,"c":-4611686018427387904}],"rows_total":4,"truncated":false,"cursor":null}`},
		{"derive floordiv min by -1", `{"fn":"derive","input":[{"a":-9223372036854775808}],"field":"a","value":-1,"op":"floordiv","into":"c"}`, "E_LIMIT /input/0/a"},
		{"derive floordiv float", `{"fn":"derive","input":[{"a":1}],"field":"a","value":0.1,"op":"floordiv","into":"c"}`,
			`{"rows":[{"a":1,"c":9.0}],"rows_total":1,"truncated":false,"cursor":null}`},
		{"derive div by zero", `{"fn":"derive","input":[{"a":1,"b":0}],"field":"a","field2":"b","op":"div","into":"c"}`, "E_INVALID_ARG /input/0/b"},
		{"derive concat", `{"fn":"derive","input":[{"a":"x","b":1},{"a":2.5,"b":true},{"a":null,"b":"y"}],"field":"a","field2":"b","op":"concat","into":"c"}`,
			`{"rows":[{"a":"x","b":1,"c":"x|1"},{"a":2.5,"b":true,"c":"2.5|true"},{"a":null,"b":"y","c":"null|y"}],"rows_total":3,"truncated":false,"cursor":null}`},
		{"derive concat array", `{"fn":"derive","input":[{"a":[1]}],"field":"a","value":"x","op":"concat","into":"c"}`, "E_INVALID_ARG /input/0/a"},
		{"derive into exists", `{"fn":"derive","input":[{"a":1,"c":0}],"field":"a","value":1,"op":"add","into":"c"}`, "E_INVALID_ARG /into"},
		{"derive both operands", `{"fn":"derive","input":[],"field":"a","field2":"b","value":1,"op":"add","into":"c"}`, "E_INVALID_ARG /field2"},
		{"derive no op", `{"fn":"derive","input":[],"field":"a","value":1,"into":"c"}`, "E_INVALID_ARG /op"},
		{"derive boolean", `{"fn":"derive","input":[{"a":true}],"field":"a","value":1,"op":"add","into":"c"}`, "E_INVALID_ARG /input/0/a"},
		// join (reference example)
		{"join left", `{"fn":"join","input":` + kv + `,"other":[{"k":"a","y":9}],"on":"k","how":"left","fill":0}`,
			`{"rows":[{"k":"a","r_k":"a","r_y":9,"x":1},{"k":"b","r_k":0,"r_y":0,"x":2}],"rows_total":2,"truncated":false,"cursor":null}`},
		{"join inner", `{"fn":"join","input":` + kv + `,"other":[{"k":"a","y":9}],"on":"k"}`,
			`{"rows":[{"k":"a","r_k":"a","r_y":9,"x":1}],"rows_total":1,"truncated":false,"cursor":null}`},
		{"join key order and numeric keys", `{"fn":"join","input":[{"k":"z"},{"k":2},{"k":1.0},{"k":null}],"other":[{"id":1,"v":"one"},{"id":"z","v":"zed"}],"on":"k","other_on":"id","other_prefix":"o."}`,
			`{"rows":[{"k":1.0,"o.id":1,"o.v":"one"},{"k":"z","o.id":"z","o.v":"zed"}],"rows_total":2,"truncated":false,"cursor":null}`},
		{"join duplicate left", `{"fn":"join","input":[{"k":1},{"k":1.0}],"other":[],"on":"k"}`, "E_INVALID_ARG /input/1/k"},
		{"join duplicate right", `{"fn":"join","input":[],"other":[{"k":"a"},{"k":"a"}],"on":"k"}`, "E_INVALID_ARG /other/1/k"},
		{"join array key", `{"fn":"join","input":[{"k":[1]}],"other":[],"on":"k"}`, "E_INVALID_ARG /input/0/k"},
		{"join collision", `{"fn":"join","input":[{"k":"a","r_y":1}],"other":[{"k":"a","y":2}],"on":"k"}`, "E_INVALID_ARG /other_prefix"},
		{"join missing key", `{"fn":"join","input":[{"x":1}],"other":[],"on":"k"}`, "E_INVALID_ARG /input/0"},
		{"join no on", `{"fn":"join","input":[],"other":[]}`, "E_INVALID_ARG /on"},
		// set operations
		{"union mixed", `{"fn":"union","input":["b",1,"a"],"other":[2.5,true]}`,
			`{"rows":[true,2.5,1,"a","b"],"rows_total":5,"truncated":false,"cursor":null}`},
		{"union int wins", `{"fn":"union","input":[1.0,null,false],"other":[1,null]}`,
			`{"rows":[null,false,1],"rows_total":3,"truncated":false,"cursor":null}`},
		{"intersect", `{"fn":"intersect","input":[1,2,"a","a"],"other":[1.0,"a",true]}`,
			`{"rows":[1,"a"],"rows_total":2,"truncated":false,"cursor":null}`},
		{"intersect float only", `{"fn":"intersect","input":[2.5,-0.0],"other":[2.5,0.0]}`,
			`{"rows":[0.0,2.5],"rows_total":2,"truncated":false,"cursor":null}`},
		{"difference", `{"fn":"difference","input":[3,1,2,2,true],"other":[2.0,1]}`,
			`{"rows":[true,3],"rows_total":2,"truncated":false,"cursor":null}`},
		{"set fields", `{"fn":"union","input":[{"m":"b"},{"m":"a"}],"other":[{"o":"c"}],"field":"m","other_field":"o"}`,
			`{"rows":["a","b","c"],"rows_total":3,"truncated":false,"cursor":null}`},
		{"set nested member", `{"fn":"union","input":[[1]],"other":[]}`, "E_INVALID_ARG /input/0"},
		{"set other missing", `{"fn":"intersect","input":[1]}`, "E_INVALID_ARG /other"},
		// group_by
		{"grouped sum", `{"fn":"sum","input":[{"g":"x","v":1},{"g":"y","v":2},{"g":"x","v":3},{"g":1.0,"v":5},{"g":1,"v":1},{"g":true,"v":0.5}],"field":"v","group_by":"g"}`,
			`{"rows":[{"g":true,"sum":0.5},{"g":1,"sum":6},{"g":"x","sum":4},{"g":"y","sum":2}],"rows_total":4,"truncated":false,"cursor":null}`},
		{"grouped count", `{"fn":"count","input":[{"g":2.5},{"g":1},{"g":2.5},{"g":null}],"group_by":"g"}`,
			`{"rows":[{"count":1,"g":null},{"count":2,"g":2.5},{"count":1,"g":1}],"rows_total":3,"truncated":false,"cursor":null}`},
		{"grouped median", `{"fn":"median","input":[{"g":"a","v":1},{"g":"a","v":2}],"field":"v","group_by":"g"}`,
			`{"rows":[{"g":"a","median":1.5}],"rows_total":1,"truncated":false,"cursor":null}`},
		{"grouped overflow", `{"fn":"sum","input":[{"g":"a","v":9223372036854775807},{"g":"a","v":1}],"field":"v","group_by":"g"}`, "E_LIMIT /input"},
		{"grouped bad value later group", `{"fn":"sum","input":[{"g":"a","v":9223372036854775807},{"g":"a","v":1},{"g":"b","v":"x"}],"field":"v","group_by":"g"}`, "E_INVALID_ARG /input/2/v"},
		{"grouped empty", `{"fn":"mean","input":[],"field":"v","group_by":"g"}`, `{"rows":[],"rows_total":0,"truncated":false,"cursor":null}`},
		{"grouped no field", `{"fn":"sum","input":[],"group_by":"g"}`, "E_INVALID_ARG /field"},
		{"grouped key collides", `{"fn":"count","input":[],"group_by":"count"}`, "E_INVALID_ARG /group_by"},
		{"grouped nested key", `{"fn":"count","input":[{"g":{"a":1}}],"group_by":"g"}`, "E_INVALID_ARG /input/0/g"},
		{"grouped missing key", `{"fn":"count","input":[{"h":1}],"group_by":"g"}`, "E_INVALID_ARG /input/0"},
		{"group_by with filter", `{"fn":"filter","input":[],"cmp":"is_null","group_by":"g"}`, "E_INVALID_ARG /group_by"},
		// schema and paging
		{"unknown fn", `{"fn":"sort","input":[]}`, "E_SCHEMA /fn"},
		{"unknown arg", `{"fn":"count","input":[],"as_of_tt":5}`, "E_SCHEMA /as_of_tt"},
		{"cursor on a scalar", `{"fn":"count","input":[],"cursor":"x"}`, "E_INVALID_ARG /cursor"},
		{"page", `{"fn":"filter","input":[5,4,3,2,1],"cmp":"gt","value":1,"limit":3}`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := computeCall(t, computeParse(t, tc.args))
			if tc.want == "" { // checked below
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if tc.want[0] == 'E' {
				var oe *ops.Error
				if !errors.As(err, &oe) {
					t.Fatalf("got %v, %v; want %s", got, err, tc.want)
				}
				if have := oe.Code + " " + oe.Details["path"].(string); have != tc.want {
					t.Fatalf("got %s (%v); want %s", have, oe, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			gb, _ := canon.Marshal(got)
			wb, _ := canon.Canonicalize([]byte(tc.want))
			if string(gb) != string(wb) {
				t.Fatalf("\n got  %s\n want %s", gb, wb)
			}
		})
	}
}

// TestComputeCursor pages a result, and refuses a cursor of another call.
func TestComputeCursor(t *testing.T) {
	args := computeParse(t, `{"fn":"filter","input":[5,4,3,2,1,4,5],"cmp":"gt","value":1,"limit":2}`)
	var got []any
	for page := 0; ; page++ {
		res, err := computeCall(t, args)
		if err != nil {
			t.Fatal(err)
		}
		if res["rows_total"] != int64(6) || res["truncated"] != true {
			t.Fatalf("page %d: %v", page, res)
		}
		got = append(got, res["rows"].([]any)...)
		cur, _ := res["cursor"].(string)
		if cur == "" {
			break
		}
		args["cursor"] = cur
		if page == 0 {
			other := clone(args)
			other["value"] = int64(2)
			if _, err := computeCall(t, other); err == nil || err.(*ops.Error).Code != ops.EInvalidArg {
				t.Fatalf("a cursor of another call was accepted: %v", err)
			}
			other["cursor"] = "not a cursor"
			if _, err := computeCall(t, other); err == nil || err.(*ops.Error).Code != ops.EInvalidArg {
				t.Fatalf("a bad cursor was accepted: %v", err)
			}
		}
	}
	gb, _ := canon.Marshal(got)
	if string(gb) != "[5,4,3,2,4,5]" {
		t.Fatalf("pages concatenate to %s", gb)
	}
	// A different limit continues at the same place.
	args = computeParse(t, `{"fn":"union","input":[1,2,3,4,5],"other":[],"limit":2}`)
	res, _ := computeCall(t, args)
	args["cursor"], args["limit"] = res["cursor"], int64(10)
	res, err := computeCall(t, args)
	if err != nil {
		t.Fatal(err)
	}
	if gb, _ := canon.Marshal(res); string(gb) != `{"cursor":null,"rows":[3,4,5],"rows_total":5,"truncated":true}` {
		t.Fatalf("second page %s", gb)
	}
}

// --- metamorphic properties ------------------------------------------------------------

func computeMust(t *testing.T, args map[string]any) map[string]any {
	t.Helper()
	res, err := computeCall(t, args)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return res
}

func computeText(t *testing.T, v any) string {
	b, err := canon.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestComputeOrderInvariance: order-insensitive functions give the same
// payload for every permutation of their input.
func TestComputeOrderInvariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for i := range 300 {
		n := 1 + rng.IntN(8)
		rows := computeGenRows(rng, n, 0)
		vals := make([]any, n)
		for j := range vals {
			vals[j] = computeGenNumber(rng, 0)
		}
		others := make([]any, rng.IntN(6))
		for j := range others {
			others[j] = computeGenKey(rng, 0)
		}
		keys := make([]any, n)
		for j := range keys {
			keys[j] = computeGenKey(rng, 0)
		}
		calls := []map[string]any{
			{"fn": []string{"count", "sum", "min", "max", "mean", "median"}[i%6], "input": vals},
			{"fn": []string{"count", "sum", "min", "max", "mean", "median"}[i%6], "input": rows, "field": "v", "group_by": "g"},
			{"fn": "topk", "input": rows, "field": "v", "pct": int64(1 + rng.IntN(100)), "group_by": "g"},
			{"fn": "topk", "input": rows, "field": "v", "k": int64(1 + rng.IntN(4)), "side": "bottom"},
			{"fn": []string{"union", "intersect", "difference"}[i%3], "input": keys, "other": others},
		}
		for _, args := range calls {
			want, errW := computeCall(t, args)
			perm := clone(args)
			for _, l := range []string{"input", "other"} {
				if list, ok := args[l].([]any); ok {
					p := slices.Clone(list)
					rng.Shuffle(len(p), func(a, b int) { p[a], p[b] = p[b], p[a] })
					perm[l] = p
				}
			}
			got, errG := computeCall(t, perm)
			if (errW == nil) != (errG == nil) {
				t.Fatalf("%v: %v vs %v", args, errW, errG)
			}
			if errW == nil && computeText(t, want) != computeText(t, got) {
				t.Fatalf("order changes the result of %v:\n %s\n %s", args, computeText(t, want), computeText(t, got))
			}
		}
	}
}

// TestComputeTopkPartition: top p% followed by bottom (100-p)% is the whole
// ranking, for every n and p.
func TestComputeTopkPartition(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	pcts := []any{int64(1), int64(10), 12.5, int64(28), 33.3, int64(50), 66.7, int64(99), 99.9}
	for n := 0; n <= 30; n++ {
		rows := computeGenRows(rng, n, 0)
		all := computeMust(t, map[string]any{"fn": "topk", "input": rows, "field": "v", "pct": int64(100), "limit": int64(10000)})
		for _, p := range pcts {
			var q any
			switch x := p.(type) {
			case int64:
				q = 100 - x
			case float64:
				q = map[float64]float64{12.5: 87.5, 33.3: 66.7, 66.7: 33.3, 99.9: 0.1}[x]
			}
			top := computeMust(t, map[string]any{"fn": "topk", "input": rows, "field": "v", "pct": p, "limit": int64(10000)})
			bottom := computeMust(t, map[string]any{"fn": "topk", "input": rows, "field": "v", "pct": q, "side": "bottom", "limit": int64(10000)})
			joined := append(slices.Clone(top["rows"].([]any)), bottom["rows"].([]any)...)
			if computeText(t, joined) != computeText(t, all["rows"]) {
				t.Fatalf("n=%d p=%v: top + bottom is not the ranking", n, p)
			}
			if n > 0 && len(top["rows"].([]any)) == 0 {
				t.Fatalf("n=%d p=%v: a positive top pct is empty", n, p)
			}
		}
		// top k and bottom n-k partition too
		for k := int64(1); k <= int64(n); k++ {
			top := computeMust(t, map[string]any{"fn": "topk", "input": rows, "field": "v", "k": k, "limit": int64(10000)})
			bottom := computeMust(t, map[string]any{"fn": "topk", "input": rows, "field": "v", "k": int64(n) - k + 1, "side": "bottom", "limit": int64(10000)})
			joined := append(slices.Clone(top["rows"].([]any)), bottom["rows"].([]any)[1:]...)
			if computeText(t, joined) != computeText(t, all["rows"]) {
				t.Fatalf("n=%d k=%d: top k + bottom n-k is not the ranking", n, k)
			}
		}
	}
}

// TestComputePct28 is the case the exact pct rule exists for: 28% of 25
// rows is exactly 7 (25 × 0.28 in floats is 7.000000000000001).
func TestComputePct28(t *testing.T) {
	rows := computeGenRows(rand.New(rand.NewPCG(1, 1)), 25, 0)
	res := computeMust(t, map[string]any{"fn": "topk", "input": rows, "field": "v", "pct": 28.0})
	if res["rows_total"] != int64(7) {
		t.Fatalf("28%% of 25 rows: %v rows, want 7", res["rows_total"])
	}
}

// --- fuzzing ----------------------------------------------------------------------------

// FuzzCompute feeds arbitrary JSON arguments to compute: it must never
// panic, must refuse only with an *ops.Error, and must agree with the
// oracle whenever the arguments pass the schema.
func FuzzCompute(f *testing.F) {
	seeds := []string{
		`{"fn":"sum","input":[1,2.5,9223372036854775807]}`,
		`{"fn":"topk","input":[{"v":1},{"v":1.0},{"v":-0.0}],"field":"v","pct":33.3,"side":"bottom"}`,
		`{"fn":"filter","input":[[1],"a",null,1.0],"cmp":"contains","value":1}`,
		`{"fn":"derive","input":[{"a":-9223372036854775808,"b":-1}],"field":"a","field2":"b","op":"floordiv","into":"c"}`,
		`{"fn":"join","input":[{"k":1}],"other":[{"k":1.0,"z":2}],"on":"k","how":"left"}`,
		`{"fn":"union","input":[1,true,null,"x"],"other":[1.0,false]}`,
		`{"fn":"median","input":[{"g":1,"v":2},{"g":1.0,"v":3}],"field":"v","group_by":"g","limit":1}`,
		`{"fn":"interval_relation","a":{"start":1,"end":3},"b":{"start":2,"end":9}}`,
		`{"fn":"percent","x":1e308,"y":1e-308}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := canon.Parse(data)
		if err != nil {
			return
		}
		args, ok := v.(map[string]any)
		if !ok {
			return
		}
		for _, l := range []string{"input", "other"} { // keep the oracle's O(n²) loops small
			if list, ok := args[l].([]any); ok && len(list) > 64 {
				return
			}
		}
		env, errE := ops.Execute(context.Background(), storeSource{engine.New()}, "compute", args)
		if errE != nil {
			var oe *ops.Error
			if !errors.As(errE, &oe) || oe.Code == ops.EInternal {
				t.Fatalf("%s: %v", data, errE)
			}
		} else if _, err := canon.Marshal(env.Result); err != nil {
			t.Fatalf("%s: payload has no canonical form: %v", data, err)
		}
		_, prepared, errP := ops.Prepare("compute", args)
		if errP != nil {
			return
		}
		want, errO := oracle.Call(nil, "compute", prepared)
		if (errE == nil) != (errO == nil) {
			t.Fatalf("%s: engine %v, oracle %v", data, errE, errO)
		}
		if errE != nil {
			var rf oracle.Refused
			if !errors.As(errO, &rf) || rf.Code != errE.(*ops.Error).Code {
				t.Fatalf("%s: engine %v, oracle %v", data, errE, errO)
			}
			return
		}
		wantR, err := canon.RoundFloats(want)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := computeText(t, env.Result), computeText(t, wantR); a != b {
			t.Fatalf("%s:\n engine %s\n oracle %s", data, a, b)
		}
	})
}

// countNegZero counts the negative zeros inside a generated value.
func countNegZero(v any) int {
	switch x := v.(type) {
	case float64:
		if x == 0 && math.Signbit(x) {
			return 1
		}
	case []any:
		n := 0
		for _, e := range x {
			n += countNegZero(e)
		}
		return n
	case map[string]any:
		n := 0
		for _, e := range x {
			n += countNegZero(e)
		}
		return n
	}
	return 0
}

// The generators draw real negative zeros, as scalars, numbers and keys,
// so the oracle comparison meets the -0 case.
func TestComputeGenDrawsNegativeZero(t *testing.T) {
	if !math.Signbit(negZero) || negZero != 0 {
		t.Fatalf("negZero = %v is not a negative zero", negZero)
	}
	rng := rand.New(rand.NewPCG(27, 12))
	var scalars, keys, args int
	for range 2000 {
		scalars += countNegZero(computeGenScalar(rng, false))
		keys += countNegZero(computeGenKey(rng, 0))
		args += countNegZero(computeGenArgs(rng))
	}
	if scalars == 0 || keys == 0 || args == 0 {
		t.Fatalf("negative zeros drawn: %d scalars, %d keys, %d argument sets of 2000", scalars, keys, args)
	}
}
