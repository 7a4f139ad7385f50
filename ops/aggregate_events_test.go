package ops_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

func init() { argGens["aggregate_events"] = aggGen }

func aggGen(rng *rand.Rand, w *world) map[string]any {
	dims := []func() map[string]any{
		func() map[string]any { return map[string]any{"dim": "time_bucket", "stride": int64(1 + rng.IntN(40))} },
		func() map[string]any {
			return map[string]any{"dim": "time_bucket", "unit": []string{"day", "week", "month", "year"}[rng.IntN(4)],
				"utc_offset_minutes": int64(rng.IntN(2881) - 1440)}
		},
		func() map[string]any {
			return map[string]any{"dim": "endpoint", "role": []string{"src", "dst", "either"}[rng.IntN(3)]}
		},
		func() map[string]any {
			return map[string]any{"dim": "label", "role": []string{"src", "dst", "either"}[rng.IntN(3)]}
		},
		func() map[string]any {
			return map[string]any{"dim": "calendar_cycle", "cycle": []string{"hour_of_day", "day_of_week", "day_of_month", "month_of_year"}[rng.IntN(4)],
				"utc_offset_minutes": int64(rng.IntN(2881) - 1440)}
		},
		func() map[string]any { return map[string]any{"dim": "rel_type"} },
		func() map[string]any {
			d := map[string]any{"dim": "pair"}
			if rng.IntN(3) > 0 {
				d["pair_mode"] = []string{"directed", "undirected"}[rng.IntN(2)]
			}
			return d
		},
		func() map[string]any { return map[string]any{"dim": "endpoint"} },    // invalid: no role
		func() map[string]any { return map[string]any{"dim": "time_bucket"} }, // invalid: no stride
		func() map[string]any {
			return map[string]any{"dim": "time_bucket", "stride": int64(1), "utc_offset_minutes": int64(0)}
		}, // invalid
	}
	aggs := []func() map[string]any{
		func() map[string]any { return map[string]any{"agg": "count"} },
		func() map[string]any {
			return map[string]any{"agg": "count_distinct", "of": []string{"src", "dst", "node", "pair"}[rng.IntN(4)]}
		},
		func() map[string]any {
			if rng.IntN(2) == 0 {
				return map[string]any{"agg": "sum", "of": "duration"}
			}
			return map[string]any{"agg": "sum", "of": "prop", "prop": "w"}
		},
		func() map[string]any {
			a := map[string]any{"agg": []string{"mean", "min", "max"}[rng.IntN(3)], "of": []string{"duration", "vt_s", "prop"}[rng.IntN(3)]}
			if a["of"] == "prop" {
				a["prop"] = "w"
			}
			return a
		},
		func() map[string]any {
			return map[string]any{"agg": []string{"first", "last"}[rng.IntN(2)], "of": []string{"src", "dst"}[rng.IntN(2)]}
		},
		func() map[string]any { return map[string]any{"agg": "max_gap"} },
		func() map[string]any { return map[string]any{"agg": "max_in_window", "span": int64(1 + rng.IntN(30))} },
		func() map[string]any { return map[string]any{"agg": "max_session_span", "gap": int64(rng.IntN(10))} },
		func() map[string]any { return map[string]any{"agg": "returns", "gap": int64(rng.IntN(10))} },
		func() map[string]any {
			if rng.IntN(12) == 0 {
				return map[string]any{"agg": "reply_delay"} // invalid: no stat
			}
			return map[string]any{"agg": "reply_delay", "stat": []string{"count", "min", "median", "mean", "max"}[rng.IntN(5)]}
		},
		func() map[string]any {
			a := map[string]any{"agg": "max_distinct_in_window", "of": []string{"src", "dst", "node", "pair"}[rng.IntN(4)],
				"span": []int64{1, 2, int64(1 + rng.IntN(30)), 1 << 40}[rng.IntN(4)]}
			switch rng.IntN(12) {
			case 0:
				delete(a, "span") // invalid
			case 1:
				a["of"] = "vt_s" // invalid
			}
			return a
		},
		func() map[string]any {
			return map[string]any{"agg": "count_distinct", "of": []string{"src", "dst", "node", "pair"}[rng.IntN(4)]}
		},
		func() map[string]any { return map[string]any{"agg": "count_distinct", "of": "duration"} }, // invalid
	}
	args := map[string]any{"window": pickWindow(rng)}
	if rng.IntN(3) == 0 {
		args["window"] = map[string]any{"t_a": int64(0), "t_b": int64(200)}
	}
	var gb []any
	for range rng.IntN(3) + rng.IntN(2)*rng.IntN(2) {
		i := rng.IntN(len(dims))
		if i >= 7 && rng.IntN(4) > 0 {
			i = rng.IntN(7)
		}
		gb = append(gb, dims[i]())
	}
	args["group_by"] = aggOrEmpty(gb)
	var ag []any
	for _, i := range rng.Perm(len(aggs))[:1+rng.IntN(3)] {
		if i == len(aggs)-1 && rng.IntN(4) > 0 {
			continue
		}
		ag = append(ag, aggs[i]())
	}
	if len(ag) == 0 {
		ag = []any{map[string]any{"agg": "count"}}
	}
	args["aggregates"] = ag
	if rng.IntN(5) == 0 {
		args["rel_types"] = []any{w.Rels[rng.IntN(len(w.Rels))]}
	}
	if rng.IntN(6) == 0 {
		args["endpoint_filter"] = map[string]any{"role": []string{"src", "dst", "either"}[rng.IntN(3)], "uids": []any{pickUID(rng, w), pickUID(rng, w)}}
	}
	if rng.IntN(4) == 0 {
		pf := map[string]any{"prop": "w", "cmp": []string{"eq", "ne", "lt", "le", "gt", "ge", "exists"}[rng.IntN(7)]}
		if pf["cmp"] != "exists" || rng.IntN(8) == 0 {
			pf["value"] = []any{int64(1), 2.5, int64(2), "x", true, 1.0}[rng.IntN(6)]
		}
		args["prop_filter"] = pf
	}
	if rng.IntN(2) == 0 {
		args["limit"] = int64(1 + rng.IntN(4))
	}
	if ef, ok := args["endpoint_filter"].(map[string]any); ok && rng.IntN(4) == 0 {
		ef["uids"] = []any{}
	}
	aggPostGen(rng, args)
	if rng.IntN(8) == 0 {
		args["authority"] = []any{[]string{"user", "model", "import", "system"}[rng.IntN(4)], "import"}
	}
	return withAsOf(rng, w, args)
}

// aggPostGen adds having, order_by and top to some calls: columns drawn
// from the call's own (and now and then one it does not produce).
func aggPostGen(rng *rand.Rand, args map[string]any) {
	var aggCols, cols []string
	for _, a := range args["aggregates"].([]any) {
		m := a.(map[string]any)
		of, _ := m["of"].(string)
		switch agg := m["agg"].(string); agg {
		case "count", "max_gap", "max_in_window", "max_session_span", "returns":
			aggCols = append(aggCols, agg)
		case "first", "last":
			aggCols = append(aggCols, agg+"_"+of)
		case "max_distinct_in_window":
			aggCols = append(aggCols, "max_distinct_"+of+"_in_window")
		case "reply_delay":
			if m["stat"] == "count" {
				aggCols = append(aggCols, "replied")
			} else {
				st, _ := m["stat"].(string)
				aggCols = append(aggCols, st+"_reply_delay")
			}
		case "count_distinct":
			aggCols = append(aggCols, "distinct_"+of)
		default:
			aggCols = append(aggCols, agg+"_"+of)
		}
	}
	cols = append(cols, aggCols...)
	for _, d := range args["group_by"].([]any) {
		switch m := d.(map[string]any); m["dim"] {
		case "time_bucket":
			cols = append(cols, "t_a", "t_b")
		case "endpoint":
			cols = append(cols, map[any]string{"src": "src", "dst": "dst", "either": "node"}[m["role"]])
		case "label":
			cols = append(cols, map[any]string{"src": "src_label", "dst": "dst_label", "either": "node_label"}[m["role"]])
		case "calendar_cycle":
			cols = append(cols, m["cycle"].(string))
		case "rel_type":
			cols = append(cols, "rel_type")
		case "pair":
			cols = append(cols, "src", "dst")
		}
	}
	pick := func(list []string) string {
		if len(list) == 0 || rng.IntN(15) == 0 {
			return "nope"
		}
		return list[rng.IntN(len(list))]
	}
	if rng.IntN(3) == 0 {
		var hv []any
		for range 1 + rng.IntN(2) {
			hv = append(hv, map[string]any{"col": pick(aggCols), "cmp": []string{"eq", "ne", "lt", "le", "gt", "ge"}[rng.IntN(6)],
				"value": []any{int64(0), int64(1), int64(2), 1.5, int64(3), 40.0}[rng.IntN(6)]})
		}
		args["having"] = hv
	}
	if rng.IntN(3) == 0 {
		var ob []any
		for range 1 + rng.IntN(2) {
			o := map[string]any{"col": pick(cols)}
			if rng.IntN(3) > 0 {
				o["dir"] = []string{"asc", "desc"}[rng.IntN(2)]
			}
			ob = append(ob, o)
		}
		args["order_by"] = ob
	}
	if rng.IntN(4) == 0 {
		args["top"] = int64(1 + rng.IntN(4))
	}
}

func aggOrEmpty(a []any) []any {
	if a == nil {
		return []any{}
	}
	return a
}

func aggArgs(extra map[string]any) map[string]any {
	args := map[string]any{"window": map[string]any{"t_a": int64(0), "t_b": int64(100)}}
	for k, v := range extra {
		args[k] = v
	}
	return args
}

func TestAggregateEventsAppendix(t *testing.T) {
	_, e := resolveAppendixA(t)
	cnt := map[string]any{"agg": "count"}
	resolveRunCases(t, "aggregate_events", e, []resolveOpCase{
		// A.2 item 18, adapted: the carved KNOWS edge is ONE occurrence at
		// 10 lasting until its last fragment ends (80), not three "events"
		// (the reference reports count 3, mean_duration 23.333333333).
		{name: "A2-18 by rel_type", args: aggArgs(map[string]any{"group_by": []any{map[string]any{"dim": "rel_type"}},
			"aggregates": []any{cnt, map[string]any{"agg": "mean", "of": "duration"}}}),
			want: `{"cursor":null,"rows":[{"count":1,"group_key":["KNOWS"],"mean_duration":70.0,"rel_type":"KNOWS"},{"count":3,"group_key":["MSG"],"mean_duration":1.0,"rel_type":"MSG"}],"rows_total":2,"truncated":false}`},
		// A.2 item 19, adapted: no fragment events at 40 and 60.
		{name: "A2-19 bucket x src", args: aggArgs(map[string]any{
			"group_by":   []any{map[string]any{"dim": "time_bucket", "stride": int64(50)}, map[string]any{"dim": "endpoint", "role": "src"}},
			"aggregates": []any{cnt, map[string]any{"agg": "max_gap"}, map[string]any{"agg": "max_in_window", "span": int64(10)}, map[string]any{"agg": "max_session_span", "gap": int64(5)}}}),
			want: `{"cursor":null,"rows":[` +
				`{"count":3,"group_key":[0,"a"],"max_gap":15,"max_in_window":1,"max_session_span":0,"src":"a","t_a":0,"t_b":50},` +
				`{"count":1,"group_key":[0,"c"],"max_gap":null,"max_in_window":1,"max_session_span":0,"src":"c","t_a":0,"t_b":50}` +
				`],"rows_total":2,"truncated":false}`},
		// A.2 item 20, adapted: the KNOWS occurrence carries its first
		// fragment's props {w:1}; the three MSG events have no w.
		{name: "A2-20 prop filter", args: aggArgs(map[string]any{"group_by": []any{},
			"prop_filter": map[string]any{"prop": "w", "cmp": "ge", "value": int64(1)},
			"aggregates":  []any{map[string]any{"agg": "mean", "of": "prop", "prop": "w"}, cnt}}),
			want: `{"cursor":null,"prop_coercion":{"w":3},"rows":[{"count":1,"group_key":[],"mean_prop":1.0}],"rows_total":1,"truncated":false}`},
		{name: "label at event time", args: aggArgs(map[string]any{"group_by": []any{map[string]any{"dim": "label", "role": "src"}}, "aggregates": []any{cnt}}),
			want: `{"cursor":null,"rows":[{"count":1,"group_key":["Node"],"src_label":"Node"},{"count":3,"group_key":["Person"],"src_label":"Person"}],"rows_total":2,"truncated":false}`},
		{name: "either endpoint", args: aggArgs(map[string]any{"group_by": []any{map[string]any{"dim": "endpoint", "role": "either"}},
			"aggregates": []any{cnt, map[string]any{"agg": "count_distinct", "of": "node"}}}),
			want: `{"cursor":null,"rows":[{"count":4,"distinct_node":3,"group_key":["a"],"node":"a"},{"count":1,"distinct_node":2,"group_key":["b"],"node":"b"},{"count":3,"distinct_node":2,"group_key":["c"],"node":"c"}],"rows_total":3,"truncated":false}`},
		{name: "several distinct counts", args: aggArgs(map[string]any{"group_by": []any{map[string]any{"dim": "rel_type"}},
			"aggregates": []any{map[string]any{"agg": "count_distinct", "of": "src"}, map[string]any{"agg": "count_distinct", "of": "dst"},
				map[string]any{"agg": "count_distinct", "of": "node"}, map[string]any{"agg": "count_distinct", "of": "pair"}}}),
			want: `{"cursor":null,"rows":[{"distinct_dst":1,"distinct_node":2,"distinct_pair":1,"distinct_src":1,"group_key":["KNOWS"],"rel_type":"KNOWS"},{"distinct_dst":2,"distinct_node":2,"distinct_pair":2,"distinct_src":2,"group_key":["MSG"],"rel_type":"MSG"}],"rows_total":2,"truncated":false}`},
		{name: "undirected pairs", args: aggArgs(map[string]any{"group_by": []any{map[string]any{"dim": "pair", "pair_mode": "undirected"}},
			"aggregates": []any{cnt, map[string]any{"agg": "count_distinct", "of": "pair"}, map[string]any{"agg": "min", "of": "vt_s"}}}),
			want: `{"cursor":null,"rows":[{"count":1,"distinct_pair":1,"group_key":["a","b"],"min_vt_s":10,"node_a":"a","node_b":"b"},{"count":3,"distinct_pair":2,"group_key":["a","c"],"min_vt_s":20,"node_a":"a","node_b":"c"}],"rows_total":2,"truncated":false}`},
		{name: "empty global group", args: aggArgs(map[string]any{"group_by": []any{}, "rel_types": []any{"NOPE"},
			"aggregates": []any{cnt, map[string]any{"agg": "sum", "of": "duration"}, map[string]any{"agg": "max_in_window", "span": int64(5)}, map[string]any{"agg": "max_session_span", "gap": int64(1)}}}),
			want: `{"cursor":null,"rows":[{"count":0,"group_key":[],"max_in_window":0,"max_session_span":null,"sum_duration":null}],"rows_total":1,"truncated":false}`},
		{name: "pinned before the correction", args: aggArgs(map[string]any{"as_of_tt": int64(3), "group_by": []any{}, "aggregates": []any{cnt, map[string]any{"agg": "max", "of": "duration"}}}),
			want: `{"cursor":null,"rows":[{"count":1,"group_key":[],"max_duration":90}],"rows_total":1,"truncated":false}`},
		// refusals
		{name: "calendar without offset", args: aggArgs(map[string]any{"group_by": []any{map[string]any{"dim": "time_bucket", "unit": "day"}}, "aggregates": []any{cnt}}), code: ops.EInvalidArg},
		{name: "duplicate column", args: aggArgs(map[string]any{"group_by": []any{map[string]any{"dim": "pair"}, map[string]any{"dim": "endpoint", "role": "src"}}, "aggregates": []any{cnt}}), code: ops.EInvalidArg},
		{name: "two props", args: aggArgs(map[string]any{"group_by": []any{}, "aggregates": []any{map[string]any{"agg": "sum", "of": "prop", "prop": "w"}, map[string]any{"agg": "max", "of": "prop", "prop": "v"}}}), code: ops.EInvalidArg},
		{name: "bool order", args: aggArgs(map[string]any{"group_by": []any{}, "aggregates": []any{cnt}, "prop_filter": map[string]any{"prop": "w", "cmp": "lt", "value": true}}), code: ops.EInvalidArg},
		{name: "unknown uid matches nothing", args: aggArgs(map[string]any{"group_by": []any{}, "aggregates": []any{cnt}, "endpoint_filter": map[string]any{"role": "src", "uids": []any{"zz"}}}),
			want: `{"cursor":null,"rows":[{"count":0,"group_key":[]}],"rows_total":1,"truncated":false}`},
		{name: "empty uid list matches nothing", args: aggArgs(map[string]any{"group_by": []any{}, "aggregates": []any{cnt}, "endpoint_filter": map[string]any{"role": "either", "uids": []any{}}}),
			want: `{"cursor":null,"rows":[{"count":0,"group_key":[]}],"rows_total":1,"truncated":false}`},
		{name: "sum of vt_s", args: aggArgs(map[string]any{"group_by": []any{}, "aggregates": []any{map[string]any{"agg": "sum", "of": "vt_s"}}}), code: ops.EInvalidArg},
		{name: "no aggregates", args: aggArgs(map[string]any{"group_by": []any{}, "aggregates": []any{}}), code: ops.ESchema},
	})
}

// TestAggregateEventsExactArithmetic: sums and means are exact, whatever the
// order of the events.
func TestAggregateEventsExactArithmetic(t *testing.T) {
	ev := func(vt int64, props string) bt.Event {
		p, err := bt.ParseProps([]byte(props))
		if err != nil {
			t.Fatal(err)
		}
		return bt.Event{Src: "a", Dst: "b", RelType: "R", VtS: vt, Props: p}
	}
	_, e := build(t, []oracle.Batch{{TT: 1, Ops: []bt.Op{bt.Ingest([]bt.Event{
		ev(1, `{"f":1e16}`), ev(2, `{"f":1.0}`), ev(3, `{"f":-1e16}`),
		ev(4, `{"i":9223372036854775807}`), ev(5, `{"i":9223372036854775807}`),
		ev(6, `{"m":1}`), ev(7, `{"m":1.0}`), ev(8, `{"m":"1"}`),
	}, "Node")}}})
	resolveRunCases(t, "aggregate_events", e, []resolveOpCase{
		{name: "float sum is exact", args: aggArgs(map[string]any{"group_by": []any{}, "aggregates": []any{
			map[string]any{"agg": "sum", "of": "prop", "prop": "f"}, map[string]any{"agg": "mean", "of": "prop", "prop": "f"}}}),
			want: `{"cursor":null,"prop_coercion":{"f":5},"rows":[{"group_key":[],"mean_prop":0.333333333,"sum_prop":1.0}],"rows_total":1,"truncated":false}`},
		{name: "integer sum beyond int64", args: aggArgs(map[string]any{"group_by": []any{}, "aggregates": []any{
			map[string]any{"agg": "sum", "of": "prop", "prop": "i"}, map[string]any{"agg": "mean", "of": "prop", "prop": "i"}, map[string]any{"agg": "max", "of": "prop", "prop": "i"}}}),
			want: `{"cursor":null,"prop_coercion":{"i":6},"rows":[{"group_key":[],"max_prop":9223372036854775807,"mean_prop":9.223372036854776e+18,"sum_prop":1.8446744073709552e+19}],"rows_total":1,"truncated":false}`},
		{name: "int wins a tie; text is not a number", args: aggArgs(map[string]any{"group_by": []any{}, "aggregates": []any{
			map[string]any{"agg": "min", "of": "prop", "prop": "m"}, map[string]any{"agg": "sum", "of": "prop", "prop": "m"}}}),
			want: `{"cursor":null,"prop_coercion":{"m":6},"rows":[{"group_key":[],"min_prop":1,"sum_prop":2.0}],"rows_total":1,"truncated":false}`},
		{name: "string filter never parses numbers", args: aggArgs(map[string]any{"group_by": []any{}, "aggregates": []any{map[string]any{"agg": "count"}},
			"prop_filter": map[string]any{"prop": "m", "cmp": "eq", "value": int64(1)}}),
			want: `{"cursor":null,"prop_coercion":{"m":6},"rows":[{"count":2,"group_key":[]}],"rows_total":1,"truncated":false}`},
	})
}

// TestAggregateEventsCalendar checks calendar buckets on realistic times
// against the oracle (which uses the time package) and one hand example.
func TestAggregateEventsCalendar(t *testing.T) {
	day := int64(86_400_000_000)
	base := time.Date(2019, 12, 25, 0, 0, 0, 0, time.UTC).UnixMicro()
	rng := rand.New(rand.NewPCG(3, 9))
	var evs []bt.Event
	for range 300 {
		evs = append(evs, bt.Event{Src: "u" + string(rune('0'+rng.IntN(4))), Dst: "v", RelType: "R", VtS: base + rng.Int64N(800*day)})
	}
	evs = append(evs, bt.Event{Src: "x", Dst: "y", RelType: "R", VtS: time.Date(2021, 1, 3, 23, 30, 0, 0, time.UTC).UnixMicro()})
	m, e := build(t, []oracle.Batch{{TT: 1, Ops: []bt.Op{bt.Ingest(evs, "Node")}}})
	spec, _ := ops.Lookup("aggregate_events")
	for i := range 60 {
		ta := base - day + rng.Int64N(400*day)
		args := map[string]any{
			"window": map[string]any{"t_a": ta, "t_b": ta + 1 + rng.Int64N(500*day)},
			"group_by": []any{map[string]any{"dim": "time_bucket", "unit": []string{"day", "week", "month", "year"}[i%4],
				"utc_offset_minutes": int64(rng.IntN(2881) - 1440)}},
			"aggregates": []any{map[string]any{"agg": "count"}, map[string]any{"agg": "max_gap"}},
		}
		if i%3 == 0 {
			args["group_by"] = append(args["group_by"].([]any), map[string]any{"dim": "endpoint", "role": "src"})
		}
		compareOne(t, i, spec, m, e, args)
	}
	// 2021-01-03 23:30 UTC is Monday 2021-01-04 in UTC+1: ISO week 2021-W01;
	// in UTC it is Sunday, in week 2020-W53.
	x := func(off int64) map[string]any {
		return map[string]any{"window": map[string]any{"t_a": base, "t_b": base + 900*day}, "endpoint_filter": map[string]any{"role": "src", "uids": []any{"x"}},
			"group_by":   []any{map[string]any{"dim": "time_bucket", "unit": "week", "utc_offset_minutes": off}},
			"aggregates": []any{map[string]any{"agg": "count"}}}
	}
	w1 := time.Date(2021, 1, 3, 23, 0, 0, 0, time.UTC).UnixMicro() // Monday 00:00 at UTC+1
	w53 := time.Date(2020, 12, 28, 0, 0, 0, 0, time.UTC).UnixMicro()
	resolveRunCases(t, "aggregate_events", e, []resolveOpCase{
		{name: "ISO week UTC+1", args: x(60), want: `{"cursor":null,"rows":[{"bucket":"2021-W01","count":1,"group_key":[` + aggItoa(w1) + `],"t_a":` + aggItoa(w1) + `,"t_b":` + aggItoa(w1+7*day) + `}],"rows_total":1,"truncated":false}`},
		{name: "ISO week UTC", args: x(0), want: `{"cursor":null,"rows":[{"bucket":"2020-W53","count":1,"group_key":[` + aggItoa(w53) + `],"t_a":` + aggItoa(w53) + `,"t_b":` + aggItoa(w53+7*day) + `}],"rows_total":1,"truncated":false}`},
	})
}

func aggItoa(x int64) string { b, _ := canon.Marshal(x); return string(b) }

// TestAggregateEventsMetamorphic: group counts add up to the global count
// (without either-views); grouping by rel_type equals one filtered call per
// rel_type; distinct <= count; a stride bucket count equals counting each
// bucket window separately; undirected pairs merge directed ones.
func TestAggregateEventsMetamorphic(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 5))
	call := func(e *engine.Store, args map[string]any) []any {
		args["limit"] = int64(10_000)
		env, err := ops.Execute(context.Background(), storeSource{e}, "aggregate_events", args)
		if err != nil {
			t.Fatal(err)
		}
		return env.Result["rows"].([]any)
	}
	total := func(rows []any) int64 {
		n := int64(0)
		for _, r := range rows {
			n += r.(map[string]any)["count"].(int64)
		}
		return n
	}
	cnt := map[string]any{"agg": "count"}
	for i := range 60 {
		_, e := build(t, oracle.RandomHistory(rng, 2+rng.IntN(10)))
		win := pickWindow(rng)
		global := call(e, map[string]any{"window": win, "group_by": []any{}, "aggregates": []any{cnt}})[0].(map[string]any)["count"].(int64)
		for _, d := range []map[string]any{{"dim": "rel_type"}, {"dim": "endpoint", "role": "src"}, {"dim": "label", "role": "dst"},
			{"dim": "pair", "pair_mode": "undirected"}, {"dim": "time_bucket", "stride": int64(1 + rng.IntN(30))}} {
			rows := call(e, map[string]any{"window": win, "group_by": []any{d}, "aggregates": []any{cnt, map[string]any{"agg": "count_distinct", "of": "src"}}})
			if n := total(rows); n != global {
				t.Fatalf("case %d: groups by %v sum to %d, global count %d", i, d, n, global)
			}
			for _, r := range rows {
				if r := r.(map[string]any); r["distinct_src"].(int64) > r["count"].(int64) {
					t.Fatalf("case %d: distinct > count in %v", i, r)
				}
			}
			if d["dim"] == "rel_type" {
				for _, r := range rows {
					rel := r.(map[string]any)["rel_type"]
					one := call(e, map[string]any{"window": win, "group_by": []any{}, "aggregates": []any{cnt}, "rel_types": []any{rel}})
					if total(one) != r.(map[string]any)["count"].(int64) {
						t.Fatalf("case %d: rel_type %v: grouped %v, filtered %v", i, rel, r, one)
					}
				}
			}
			if d["dim"] == "time_bucket" {
				for _, r := range rows {
					r := r.(map[string]any)
					one := call(e, map[string]any{"window": map[string]any{"t_a": r["t_a"], "t_b": r["t_b"]}, "group_by": []any{}, "aggregates": []any{cnt}})
					if total(one) != r["count"].(int64) {
						t.Fatalf("case %d: bucket %v: grouped %v, windowed %v", i, r, r["count"], one)
					}
				}
			}
		}
	}
}

// TestAggregateEventsMatchesEventSeries: grouped by a stride time_bucket,
// aggregate_events emits exactly the non-empty buckets of
// graph_metric_timeseries edge_event_count, with the same counts (both
// count occurrences, not carved fragments); the series keeps the empty ones.
func TestAggregateEventsMatchesEventSeries(t *testing.T) {
	if _, ok := ops.Lookup("graph_metric_timeseries"); !ok {
		t.Skip("graph_metric_timeseries is not registered")
	}
	rng := rand.New(rand.NewPCG(21, 4))
	for i := range 80 {
		_, e := build(t, oracle.RandomHistory(rng, 2+rng.IntN(10)))
		win := pickWindow(rng)
		stride := int64(1 + rng.IntN(20))
		series, err := ops.Execute(context.Background(), storeSource{e}, "graph_metric_timeseries",
			map[string]any{"metric": "edge_event_count", "window": win, "stride": stride, "limit": int64(10_000)})
		if err != nil {
			t.Fatal(err)
		}
		agg, err := ops.Execute(context.Background(), storeSource{e}, "aggregate_events", map[string]any{"window": win, "limit": int64(10_000),
			"group_by": []any{map[string]any{"dim": "time_bucket", "stride": stride}}, "aggregates": []any{map[string]any{"agg": "count"}}})
		if err != nil {
			t.Fatal(err)
		}
		var want []any
		for _, r := range series.Result["rows"].([]any) {
			r := r.(map[string]any)
			if n, _ := r["value"].(int64); n > 0 {
				want = append(want, []any{r["t_a"], r["t_b"], n})
			}
		}
		var got []any
		for _, r := range agg.Result["rows"].([]any) {
			r := r.(map[string]any)
			got = append(got, []any{r["t_a"], r["t_b"], r["count"]})
		}
		gb, _ := canon.Marshal(got)
		wb, _ := canon.Marshal(want)
		if string(gb) != string(wb) {
			t.Fatalf("case %d (stride %d, window %v):\n aggregate %s\n series    %s", i, stride, win, gb, wb)
		}
	}
}

// TestAggregateEventsGroupCap: the groups a call holds count against its
// memory budget: 100,001 groups fit the default budget; under a 4 MiB
// budget the call is E_LIMIT naming the groups, the bytes and the levers.
func TestAggregateEventsGroupCap(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 100,001-node store")
	}
	evs := make([]bt.Event, 100_001)
	for i := range evs {
		evs[i] = bt.Event{Src: "s" + aggItoa(int64(i)), Dst: "hub", RelType: "R", VtS: int64(i / 100)}
	}
	e := engine.New() // the engine only: the model store is slow at this size
	eff, err := bt.Plan(e, 1, 1, []bt.Op{bt.Ingest(evs, "Node")})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Apply(eff); err != nil {
		t.Fatal(err)
	}
	args := map[string]any{"window": map[string]any{"t_a": int64(0), "t_b": int64(1001)}, "limit": int64(1),
		"group_by": []any{map[string]any{"dim": "endpoint", "role": "src"}}, "aggregates": []any{map[string]any{"agg": "count"}}}
	_, err = ops.ExecuteWith(context.Background(), storeSource{e}, "aggregate_events", args, ops.ExecOptions{MemBudget: 4 << 20})
	oe, ok := err.(*ops.Error)
	if !ok || oe.Code != ops.ELimit {
		t.Fatalf("want E_LIMIT, got %v", err)
	}
	for _, lever := range []string{"window", "rel_types", "endpoint_filter", "undirected", "coarser"} {
		if !strings.Contains(oe.Details["hint"].(string), lever) {
			t.Fatalf("hint %q does not name %s", oe.Details["hint"], lever)
		}
	}
	if !strings.Contains(oe.Message, "groups") || !strings.Contains(oe.Message, "4.0 MiB") || oe.Details["mem_budget"] != int64(4<<20) {
		t.Fatalf("the refusal does not name the groups and the budget: %v %v", oe.Message, oe.Details)
	}
	env, err := ops.Execute(context.Background(), storeSource{e}, "aggregate_events", args)
	if err != nil {
		t.Fatal(err)
	}
	if n := env.Result["rows_total"].(int64); n != 100_001 {
		t.Fatalf("rows_total %d", n)
	}
}
