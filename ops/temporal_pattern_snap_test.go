package ops_test

import (
	"slices"
	"sort"
	"testing"
)

// Worked examples of temporal_pattern on Bitcoin-OTC and CollegeMsg, each
// checked against a brute force over the lines of the .gz file (read
// without the loader). The examples use order strict, so their answers do
// not depend on how equal times are ordered.

const (
	patHour = int64(3_600_000_000)
	patDay  = 24 * patHour
)

// patSnapIndex groups a file's events (self-loops dropped: they never take
// part) by source, each list in time order.
func patSnapIndex(raw []snapEvent) (evs []snapEvent, out map[string][]snapEvent) {
	out = map[string][]snapEvent{}
	for _, e := range raw {
		if e.src != e.dst {
			evs = append(evs, e)
			out[e.src] = append(out[e.src], e)
		}
	}
	for _, l := range out {
		sort.SliceStable(l, func(i, j int) bool { return l[i].t < l[j].t })
	}
	return evs, out
}

// patChains counts e1 = a→b, e2 = b→c with c != a, t1 < t2 <= t1 + within
// (and, with day > 0, both on one local day at offset off), both passing ok.
func patChains(evs []snapEvent, out map[string][]snapEvent, within, day, off int64, ok func(snapEvent) bool) int64 {
	n := int64(0)
	for _, e1 := range evs {
		if !ok(e1) {
			continue
		}
		for _, e2 := range out[e1.dst] {
			if e2.t <= e1.t || e2.t > e1.t+within || e2.dst == e1.src || !ok(e2) {
				continue
			}
			if day > 0 && floorDiv(e1.t+off, day) != floorDiv(e2.t+off, day) {
				continue
			}
			n++
		}
	}
	return n
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func patHops(h ...map[string]any) []any {
	out := make([]any, len(h))
	for i := range h {
		out[i] = h[i]
	}
	return out
}

func patRating(cmp string) []any {
	return []any{map[string]any{"prop": "rating", "cmp": cmp, "value": int64(0)}}
}

// patDelays returns the gaps hops[1].t - hops[0].t of the rows, sorted.
func patDelays(rows []any) []int64 {
	var out []int64
	for _, r := range rows {
		h := r.(map[string]any)["hops"].([]any)
		out = append(out, h[1].(map[string]any)["t"].(int64)-h[0].(map[string]any)["t"].(int64))
	}
	slices.Sort(out)
	return out
}

func sum(xs []int64) int64 {
	s := int64(0)
	for _, x := range xs {
		s += x
	}
	return s
}

func TestTemporalPatternBitcoinOTC(t *testing.T) {
	if testing.Short() {
		t.Skip("reads Bitcoin-OTC")
	}
	raw := readSNAP(t, "soc-sign-bitcoinotc.csv.gz", true)
	e := snapStore(t, "bitcoinotc")
	evs, out := patSnapIndex(raw)

	// "A rated B positively and then B rated C positively within 7 days"
	want := patChains(evs, out, 7*patDay, 0, 0, func(e snapEvent) bool { return e.rating > 0 })
	r := patCall(t, e, map[string]any{"window": wholeWindow, "order": "strict", "within": 7 * patDay, "output": "count",
		"hops": patHops(map[string]any{"src": "u", "dst": "v", "where": patRating("gt")}, map[string]any{"src": "v", "dst": "w", "where": patRating("gt")})})
	if r["count"] != want {
		t.Fatalf("positive chains within 7 days: %v, brute force %d", r["count"], want)
	}
	t.Logf("positive A→B then B→C within 7 days: %d", want)

	// "Which pairs rated each other, and with which sign on each side?"
	signs := map[[2]bool]int64{}
	pairs := map[[2]string]bool{}
	for _, e1 := range evs {
		for _, e2 := range out[e1.dst] {
			if e2.dst == e1.src {
				signs[[2]bool{e1.rating > 0, e2.rating > 0}]++
				a, b := min(e1.src, e1.dst), max(e1.src, e1.dst)
				pairs[[2]string{a, b}] = true
			}
		}
	}
	r = patCall(t, e, map[string]any{"window": wholeWindow, "order": "any",
		"hops": patHops(map[string]any{"src": "u", "dst": "v"}, map[string]any{"src": "v", "dst": "u"})})
	got := map[[2]bool]int64{}
	gotPairs := map[[2]string]bool{}
	for _, row := range r["rows"].([]any) {
		h := row.(map[string]any)["hops"].([]any)
		s := func(i int) bool { return h[i].(map[string]any)["props"].(map[string]any)["rating"].(int64) > 0 }
		got[[2]bool{s(0), s(1)}]++
		u, v := row.(map[string]any)["u"].(string), row.(map[string]any)["v"].(string)
		gotPairs[[2]string{min(u, v), max(u, v)}] = true
	}
	if r["rows_total"] != int64(sum([]int64{signs[[2]bool{true, true}], signs[[2]bool{true, false}], signs[[2]bool{false, true}], signs[[2]bool{false, false}]})) ||
		len(got) != len(signs) || len(gotPairs) != len(pairs) {
		t.Fatalf("reverse join: %v rows, signs %v, %d pairs; brute force signs %v, %d pairs", r["rows_total"], got, len(gotPairs), signs, len(pairs))
	}
	for k, n := range signs {
		if got[k] != n {
			t.Fatalf("reverse join signs %v: %d, brute force %d", k, got[k], n)
		}
	}
	t.Logf("reverse join: %v ordered rows over %d pairs; signs (+,+) %d (+,-) %d (-,+) %d (-,-) %d", r["rows_total"], len(pairs),
		signs[[2]bool{true, true}], signs[[2]bool{true, false}], signs[[2]bool{false, true}], signs[[2]bool{false, false}])

	// "For each positive rating an account received, the first negative
	// rating it received afterwards (from anyone)"
	in := map[string][]snapEvent{}
	for _, ev := range evs {
		in[ev.dst] = append(in[ev.dst], ev)
	}
	var wantDelays []int64
	for _, e1 := range evs {
		if e1.rating <= 0 {
			continue
		}
		best := int64(-1)
		for _, e2 := range in[e1.dst] {
			if e2.rating < 0 && e2.t > e1.t && (best < 0 || e2.t < best) {
				best = e2.t
			}
		}
		if best >= 0 {
			wantDelays = append(wantDelays, best-e1.t)
		}
	}
	slices.Sort(wantDelays)
	r = patCall(t, e, map[string]any{"window": wholeWindow, "order": "strict", "distinct": false,
		"hops": patHops(map[string]any{"src": "u", "dst": "v", "where": patRating("gt")},
			map[string]any{"src": "w", "dst": "v", "where": patRating("lt"), "pick": "first"})})
	gotDelays := patDelays(r["rows"].([]any))
	if !slices.Equal(gotDelays, wantDelays) {
		t.Fatalf("first negative after a positive: %d rows (delay sum %d), brute force %d (delay sum %d)",
			len(gotDelays), sum(gotDelays), len(wantDelays), sum(wantDelays))
	}
	t.Logf("positive ratings followed by a negative one to the same account: %d, median wait %.1f days",
		len(wantDelays), float64(wantDelays[len(wantDelays)/2])/float64(patDay))
}

func TestTemporalPatternCollegeMsg(t *testing.T) {
	if testing.Short() {
		t.Skip("reads CollegeMsg")
	}
	raw := readSNAP(t, "CollegeMsg.txt.gz", false)
	e := snapStore(t, "collegemsg")
	evs, out := patSnapIndex(raw)
	all := func(snapEvent) bool { return true }
	chain := patHops(map[string]any{"src": "u", "dst": "v"}, map[string]any{"src": "v", "dst": "w"})

	// "u wrote to v, then v wrote to someone else w within an hour"
	want := patChains(evs, out, patHour, 0, 0, all)
	r := patCall(t, e, map[string]any{"window": wholeWindow, "order": "strict", "within": patHour, "output": "count", "hops": chain})
	if r["count"] != want {
		t.Fatalf("u→v then v→w within 1 h: %v, brute force %d", r["count"], want)
	}
	// ... and on the same local day at UTC-07:00
	off := int64(-7) * patHour
	wantDay := patChains(evs, out, patHour, patDay, off, all)
	r = patCall(t, e, map[string]any{"window": wholeWindow, "order": "strict", "within": patHour, "output": "count", "hops": chain,
		"same_day": map[string]any{"utc_offset_minutes": int64(-420)}})
	if r["count"] != wantDay || wantDay >= want {
		t.Fatalf("same local day: %v, brute force %d (of %d)", r["count"], wantDay, want)
	}
	t.Logf("u→v then v→w within 1 hour: %d; on one local day at UTC-07:00: %d", want, wantDay)

	// "the first reply to each message": v→u strictly later
	pair := map[[2]string][]int64{}
	for _, ev := range evs {
		pair[[2]string{ev.src, ev.dst}] = append(pair[[2]string{ev.src, ev.dst}], ev.t)
	}
	for _, l := range pair {
		slices.Sort(l)
	}
	var wantDelays []int64
	for _, ev := range evs {
		back := pair[[2]string{ev.dst, ev.src}]
		k, _ := slices.BinarySearch(back, ev.t+1)
		if k < len(back) {
			wantDelays = append(wantDelays, back[k]-ev.t)
		}
	}
	slices.Sort(wantDelays)
	r = patCall(t, e, map[string]any{"window": wholeWindow, "order": "strict",
		"hops": patHops(map[string]any{"src": "u", "dst": "v"}, map[string]any{"src": "v", "dst": "u", "pick": "first"})})
	gotDelays := patDelays(r["rows"].([]any))
	if !slices.Equal(gotDelays, wantDelays) {
		t.Fatalf("first reply: %d rows (delay sum %d), brute force %d (delay sum %d)", len(gotDelays), sum(gotDelays), len(wantDelays), sum(wantDelays))
	}
	t.Logf("messages with a reply: %d of %d, median first-reply delay %d s", len(wantDelays), len(evs), wantDelays[len(wantDelays)/2]/1_000_000)
}
