package ops_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

var gmtsCycleUnits = []string{"hour_of_day", "day_of_week", "day_of_month", "month_of_year"}

// gmtsScaleHistory maps a random history's valid times t to base + t*f, so
// that its events spread over hours, days or months of real calendar time
// (the random histories use times 0..140).
func gmtsScaleHistory(hist []oracle.Batch, base, f int64) []oracle.Batch {
	at := func(t bt.Time) bt.Time {
		if t == bt.OpenEnd {
			return t
		}
		return base + t*f
	}
	iv := func(v bt.Interval) bt.Interval {
		if v == (bt.Interval{}) {
			return v
		}
		return bt.Interval{Start: at(v.Start), End: at(v.End)}
	}
	out := make([]oracle.Batch, len(hist))
	for i, b := range hist {
		out[i] = oracle.Batch{TT: b.TT, Ops: make([]bt.Op, len(b.Ops))}
		for j, op := range b.Ops {
			op.Valid, op.To = iv(op.Valid), iv(op.To)
			if op.Kind == bt.OpRetract {
				op.At = at(op.At)
			}
			evs := make([]bt.Event, len(op.Events))
			for k, ev := range op.Events {
				ev.VtS = at(ev.VtS)
				if ev.VtE != 0 {
					ev.VtE = at(ev.VtE)
				}
				evs[k] = ev
			}
			if op.Events != nil {
				op.Events = evs
			}
			out[i].Ops[j] = op
		}
	}
	return out
}

// gmtsCycleWorld draws a random history spread over calendar time: steps of
// about 37 minutes, 7 hours or 10 days (odd µs so that boundaries fall
// anywhere), from 2004.
func gmtsCycleWorld(t *testing.T, rng *rand.Rand) (*bt.MemStore, *engine.Store, int64, int64) {
	base := int64(1_072_915_200_000_000) + rng.Int64N(1_000_000_000_000)
	f := []int64{2_222_222_221, 25_200_000_007, 864_000_000_013}[rng.IntN(3)]
	m, e := build(t, gmtsScaleHistory(oracle.RandomHistory(rng, 2+rng.IntN(8)), base, f))
	return m, e, base, f
}

// gmtsCycleArgs draws a cyclic call: mostly an event metric with a cycle;
// sometimes a point-in-time metric, both stride and cycle, or neither (all
// E_INVALID_ARG).
func gmtsCycleArgs(rng *rand.Rand, m *bt.MemStore, base, f int64) map[string]any {
	a := int64(rng.IntN(120))
	args := map[string]any{
		"metric": []string{"edge_event_count", "new_node_rate", "reciprocity"}[rng.IntN(3)],
		"window": map[string]any{"t_a": base + a*f - rng.Int64N(f), "t_b": base + (a+1+int64(rng.IntN(140)))*f},
		"cycle":  map[string]any{"unit": gmtsCycleUnits[rng.IntN(4)], "utc_offset_minutes": int64(rng.IntN(2881) - 1440)},
		"limit":  int64(10_000),
	}
	switch rng.IntN(20) {
	case 0:
		args["metric"] = []string{"node_count", "active_edge_count", "mean_out_degree"}[rng.IntN(3)]
	case 1:
		args["stride"] = f
	case 2:
		delete(args, "cycle")
	}
	if m.LastTT > 0 && rng.IntN(3) == 0 {
		args["as_of_tt"] = int64(10 * (1 + rng.IntN(int(m.LastTT/10))))
	}
	return args
}

// The cyclic series equals the oracle's (which computes positions with the
// time package) on 500 random histories with ties, corrections, moving
// corrections and retracts.
func TestGraphMetricCycleOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 24))
	nonEmpty, refused := 0, 0
	for i := range 500 {
		m, e, base, f := gmtsCycleWorld(t, rng)
		args := gmtsCycleArgs(rng, m, base, f)
		env, err := ops.Execute(context.Background(), storeSource{e}, "graph_metric_timeseries", args)
		_, prepared, perr := ops.Prepare("graph_metric_timeseries", args)
		if perr != nil {
			t.Fatalf("case %d: prepare %v: %v", i, args, perr)
		}
		prepared["as_of_tt"] = min(prepared["as_of_tt"].(int64), m.LastTT)
		o, oerr := oracle.Call(m, "graph_metric_timeseries", prepared)
		if err != nil || oerr != nil {
			ref, isRef := oerr.(oracle.Refused)
			if err == nil || !isRef || gmtsCode(err) != ref.Code {
				t.Fatalf("case %d %v: engine %v, oracle %v", i, args, err, oerr)
			}
			refused++
			continue
		}
		rows, _ := o["rows"].([]any)
		o["rows_total"], o["cursor"], o["truncated"] = int64(len(rows)), nil, false
		r, _ := canon.RoundFloats(o)
		want, _ := canon.Marshal(r)
		got, _ := canon.Marshal(env.Result)
		if string(got) != string(want) {
			t.Fatalf("case %d %v:\n got  %s\n want %s", i, args, got, want)
		}
		for _, row := range env.Result["rows"].([]any) {
			if v := row.(map[string]any)["value"]; v != int64(0) && v != 0.0 {
				nonEmpty++
				break
			}
		}
	}
	// The generator must reach both outcomes often enough to mean something.
	if nonEmpty < 150 || refused < 25 {
		t.Fatalf("%d cases with a non-zero value, %d refused: the generator drifted", nonEmpty, refused)
	}
}

// Metamorphic: a cycle's edge_event_count (new_node_rate) values sum to
// the window's count (one stride bucket over the whole window), at every
// unit and offset; hour_of_day is the same at offsets m and m±1440, and
// day_of_week at m+1440 is day_of_week at m moved one day on.
func TestGraphMetricCycleSumsToWindow(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 31))
	call := func(e *engine.Store, args map[string]any) []any {
		t.Helper()
		env, err := ops.Execute(context.Background(), storeSource{e}, "graph_metric_timeseries", args)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return env.Result["rows"].([]any)
	}
	checked := 0
	for i := range 150 {
		_, e, base, f := gmtsCycleWorld(t, rng)
		win := map[string]any{"t_a": base - f, "t_b": base + 150*f}
		for _, metric := range []string{"edge_event_count", "new_node_rate"} {
			whole := call(e, map[string]any{"metric": metric, "window": win, "stride": 151 * f})[0].(map[string]any)["value"].(int64)
			off := int64(-rng.IntN(1441)) // off+1440 stays in range
			byUnit := map[string][]any{}
			for _, unit := range gmtsCycleUnits {
				rows := call(e, map[string]any{"metric": metric, "window": win, "cycle": map[string]any{"unit": unit, "utc_offset_minutes": off}})
				byUnit[unit] = rows
				sum := int64(0)
				for _, r := range rows {
					sum += r.(map[string]any)["value"].(int64)
				}
				if sum != whole {
					t.Fatalf("case %d %s %s at %d min: positions sum to %d, window count %d", i, metric, unit, off, sum, whole)
				}
			}
			shifted := func(unit string) []any {
				return call(e, map[string]any{"metric": metric, "window": win, "cycle": map[string]any{"unit": unit, "utc_offset_minutes": off + 1440}})
			}
			h, _ := canon.Marshal(byUnit["hour_of_day"])
			hs, _ := canon.Marshal(shifted("hour_of_day"))
			if string(h) != string(hs) {
				t.Fatalf("case %d: hour_of_day differs a day later:\n%s\n%s", i, h, hs)
			}
			dw, next := byUnit["day_of_week"], shifted("day_of_week")
			for k := range 7 {
				if a, b := dw[k].(map[string]any)["value"], next[(k+1)%7].(map[string]any)["value"]; a != b {
					t.Fatalf("case %d: day %d at %d min has %v, day %d a day later %v", i, k+1, off, a, (k+1)%7+1, b)
				}
			}
			if whole > 0 {
				checked++
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d non-empty windows checked", checked)
	}
}

// The argument checks: a point-in-time metric does not fold, stride and
// cycle exclude each other, one of them is needed, and a cycle needs an
// explicit offset.
func TestGraphMetricCycleErrors(t *testing.T) {
	_, e := build(t, gmtsAppendixHistory())
	win := map[string]any{"t_a": int64(0), "t_b": int64(100)}
	cy := map[string]any{"unit": "hour_of_day", "utc_offset_minutes": int64(0)}
	for _, tc := range []struct {
		args map[string]any
		code string
	}{
		{map[string]any{"metric": "node_count", "window": win, "cycle": cy}, ops.EInvalidArg},
		{map[string]any{"metric": "edge_event_count", "window": win, "cycle": cy, "stride": int64(5)}, ops.EInvalidArg},
		{map[string]any{"metric": "edge_event_count", "window": win}, ops.EInvalidArg},
		{map[string]any{"metric": "edge_event_count", "window": win, "cycle": map[string]any{"unit": "hour_of_day"}}, ops.ESchema},
		{map[string]any{"metric": "edge_event_count", "window": win, "cycle": map[string]any{"unit": "minute_of_hour", "utc_offset_minutes": int64(0)}}, ops.ESchema},
		{map[string]any{"metric": "edge_event_count", "window": win, "cycle": map[string]any{"unit": "hour_of_day", "utc_offset_minutes": int64(1441)}}, ops.ESchema},
	} {
		_, err := ops.Execute(context.Background(), storeSource{e}, "graph_metric_timeseries", tc.args)
		if got := gmtsCode(err); got != tc.code {
			t.Errorf("%v: got %q (%v), want %s", tc.args, got, err, tc.code)
		}
	}
}

// CollegeMsg, checked against the file: "how many messages were sent in
// each month of the year, Pacific standard time (UTC-08:00)?" and "how
// reciprocal are the conversations at each hour of the day in UTC+01:00?"
func TestGraphMetricCycleCollegeMsg(t *testing.T) {
	raw := readSNAP(t, "CollegeMsg.txt.gz", false)
	e := snapStore(t, "collegemsg")
	months := make([]int64, 13)
	type pair struct{ s, d string }
	hourPairs := make([]map[pair]bool, 24)
	for i := range hourPairs {
		hourPairs[i] = map[pair]bool{}
	}
	pst, cet := time.FixedZone("", -8*3600), time.FixedZone("", 3600)
	for _, ev := range raw {
		months[time.UnixMicro(ev.t).In(pst).Month()]++
		hourPairs[time.UnixMicro(ev.t).In(cet).Hour()][pair{ev.src, ev.dst}] = true
	}
	call := func(args map[string]any) []any {
		env, err := ops.Execute(context.Background(), storeSource{e}, "graph_metric_timeseries", args)
		if err != nil {
			t.Fatal(err)
		}
		return env.Result["rows"].([]any)
	}
	rows := call(map[string]any{"metric": "edge_event_count", "window": wholeWindow, "cycle": map[string]any{"unit": "month_of_year", "utc_offset_minutes": int64(-480)}})
	sum := int64(0)
	for i, x := range rows {
		r := x.(map[string]any)
		if r["position"] != int64(i+1) || r["value"] != months[i+1] {
			t.Fatalf("month row %d: %v, brute force %d", i, r, months[i+1])
		}
		sum += months[i+1]
	}
	if sum != int64(len(raw)) {
		t.Fatalf("months sum to %d of %d messages", sum, len(raw))
	}
	rows = call(map[string]any{"metric": "reciprocity", "window": wholeWindow, "cycle": map[string]any{"unit": "hour_of_day", "utc_offset_minutes": int64(60)}})
	for h, x := range rows {
		set := hourPairs[h]
		recip := 0
		for p := range set {
			if set[pair{p.d, p.s}] {
				recip++
			}
		}
		want := 0.0
		if len(set) > 0 {
			want = float64(recip) / float64(len(set))
		}
		rounded, _ := canon.RoundFloats(map[string]any{"v": want}) // as payloads carry floats
		want = rounded.(map[string]any)["v"].(float64)
		if r := x.(map[string]any); r["position"] != int64(h) || r["value"] != want {
			t.Fatalf("hour %d: %v, brute force %v (%d of %d pairs)", h, r, want, recip, len(set))
		}
	}
}

// Paging a cyclic series by its position key returns every position once,
// in order.
func TestGraphMetricCyclePaging(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	_, e, base, f := gmtsCycleWorld(t, rng)
	args := map[string]any{"metric": "edge_event_count", "window": map[string]any{"t_a": base, "t_b": base + 150*f},
		"cycle": map[string]any{"unit": "day_of_month", "utc_offset_minutes": int64(90)}, "limit": int64(7)}
	var got []any
	for page := 0; ; page++ {
		env, err := ops.Execute(context.Background(), storeSource{e}, "graph_metric_timeseries", args)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, env.Result["rows"].([]any)...)
		if env.Result["cursor"] == nil || page > 10 {
			break
		}
		args["cursor"] = env.Result["cursor"]
	}
	if len(got) != 31 {
		t.Fatalf("%d rows over the pages, want 31", len(got))
	}
	for i, r := range got {
		if p := r.(map[string]any)["position"]; p != int64(i+1) {
			t.Fatalf("row %d has position %v", i, p)
		}
	}
}
