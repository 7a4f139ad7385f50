package ops_test

import (
	"bufio"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/datasets"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"

	"github.com/tgms-go/tgms/internal/testenv"
)

// snapEvent is one line of a SNAP file, read here without the loader.
type snapEvent struct {
	src, dst string
	t        int64 // µs
	rating   int64
}

// readSNAP parses a gzipped SNAP edge list (CollegeMsg: "src dst seconds";
// Bitcoin-OTC: "src,dst,rating,seconds") for the brute-force checks.
func readSNAP(t *testing.T, file string, csv bool) []snapEvent {
	t.Helper()
	path := filepath.Join("..", "..", "shared", "data", file)
	if _, err := os.Stat(path); err != nil {
		path = filepath.Join("..", "shared", "data", file)
	}
	f, err := os.Open(path)
	if err != nil {
		testenv.Missing(t, "%s not found (the SNAP files live in ../shared/data)", file)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []snapEvent
	sc := bufio.NewScanner(z)
	for sc.Scan() {
		var fs []string
		if csv {
			fs = strings.Split(sc.Text(), ",")
		} else {
			fs = strings.Fields(sc.Text())
		}
		if len(fs) < 3 {
			continue
		}
		e := snapEvent{src: "n" + fs[0], dst: "n" + fs[1]}
		ts := fs[2]
		if csv {
			e.rating, _ = strconv.ParseInt(fs[2], 10, 64)
			ts = fs[3]
		}
		sec, err := strconv.ParseFloat(ts, 64)
		if err != nil {
			t.Fatalf("%s: %q", file, sc.Text())
		}
		e.t = int64(sec) * 1_000_000
		out = append(out, e)
	}
	return out
}

// snapStore loads a dataset through the project's loader into an engine.
func snapStore(t *testing.T, name string) *engine.Store {
	t.Helper()
	spec, _ := datasets.Lookup(name)
	path, ok := datasets.Locate(spec, filepath.Join("..", "..", "shared", "data"), filepath.Join("..", "shared", "data"))
	if !ok {
		testenv.Missing(t, "%s not found", name)
	}
	evs, err := datasets.Load(spec, path)
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New()
	eff, err := bt.Plan(e, 1, 1, []bt.Op{bt.Ingest(evs, "Node")})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Apply(eff); err != nil {
		t.Fatal(err)
	}
	return e
}

func snapCall(t *testing.T, e *engine.Store, args map[string]any) map[string]any {
	t.Helper()
	env, err := ops.Execute(context.Background(), storeSource{e}, "aggregate_events", args)
	if err != nil {
		t.Fatal(err)
	}
	return env.Result
}

var wholeWindow = map[string]any{"t_a": int64(0), "t_b": int64(1) << 62}

// CollegeMsg questions answered by one aggregate_events call each, checked
// against counts taken straight from the file.
func TestAggregateEventsCollegeMsgQuestions(t *testing.T) {
	raw := readSNAP(t, "CollegeMsg.txt.gz", false)
	e := snapStore(t, "collegemsg")
	pairs := map[[2]string]int64{}
	hours := make([]int64, 24)
	days := make([]int64, 8)
	for _, ev := range raw {
		pairs[[2]string{ev.src, ev.dst}]++
		sec := ev.t / 1_000_000
		hours[(sec%86400)/3600]++
		local := sec - 5*3600 // UTC-05:00
		days[((local/86400)%7+7+3)%7+1]++
	}

	// "How many directed pairs exchanged exactly one message?"
	once := int64(0)
	for _, n := range pairs {
		if n == 1 {
			once++
		}
	}
	r := snapCall(t, e, map[string]any{"window": wholeWindow, "group_by": []any{map[string]any{"dim": "pair"}},
		"aggregates": []any{map[string]any{"agg": "count"}}, "having": []any{map[string]any{"col": "count", "cmp": "eq", "value": int64(1)}}})
	if r["rows_total"] != once || r["groups_total"] != int64(len(pairs)) {
		t.Fatalf("pairs with one message: %v of %v groups, brute force %d of %d", r["rows_total"], r["groups_total"], once, len(pairs))
	}

	// "Which pair exchanged the most messages?" (ties: the smallest pair)
	var best [2]string
	bestN := int64(-1)
	for p, n := range pairs {
		if n > bestN || n == bestN && (p[0] < best[0] || p[0] == best[0] && p[1] < best[1]) {
			best, bestN = p, n
		}
	}
	r = snapCall(t, e, map[string]any{"window": wholeWindow, "group_by": []any{map[string]any{"dim": "pair"}},
		"aggregates": []any{map[string]any{"agg": "count"}}, "order_by": []any{map[string]any{"col": "count", "dir": "desc"}}, "top": int64(1)})
	row := r["rows"].([]any)[0].(map[string]any)
	if row["src"] != best[0] || row["dst"] != best[1] || row["count"] != bestN || row["rank"] != int64(1) {
		t.Fatalf("top pair %v, brute force %v with %d", row, best, bestN)
	}

	// "How many messages were sent in each hour of the day (UTC)?" and by
	// day of week at UTC-05:00; both sum to the number of messages.
	for _, c := range []struct {
		cycle string
		off   int64
		want  []int64
		first int64
	}{{"hour_of_day", 0, hours, 0}, {"day_of_week", -300, days[1:], 1}} {
		r = snapCall(t, e, map[string]any{"window": wholeWindow, "group_by": []any{map[string]any{"dim": "calendar_cycle", "cycle": c.cycle, "utc_offset_minutes": c.off}},
			"aggregates": []any{map[string]any{"agg": "count"}}})
		sum := int64(0)
		for i, x := range r["rows"].([]any) {
			m := x.(map[string]any)
			if m[c.cycle] != c.first+int64(i) || m["count"] != c.want[i] {
				t.Fatalf("%s row %d: %v, brute force %d", c.cycle, i, m, c.want[i])
			}
			sum += m["count"].(int64)
		}
		if sum != int64(len(raw)) {
			t.Fatalf("%s counts sum to %d of %d messages", c.cycle, sum, len(raw))
		}
	}
}

// "Who sent the first message to each recipient, and when?" on CollegeMsg:
// first of src per destination, against a scan of the file (ties at one
// second broken by the smaller sender uid).
func TestAggregateEventsCollegeMsgFirstSender(t *testing.T) {
	raw := readSNAP(t, "CollegeMsg.txt.gz", false)
	e := snapStore(t, "collegemsg")
	type first struct {
		t   int64
		src string
	}
	want := map[string]first{}
	for _, ev := range raw {
		f, ok := want[ev.dst]
		if !ok || ev.t < f.t || ev.t == f.t && ev.src < f.src {
			want[ev.dst] = first{ev.t, ev.src}
		}
	}
	r := snapCall(t, e, map[string]any{"window": wholeWindow, "group_by": []any{map[string]any{"dim": "endpoint", "role": "dst"}},
		"aggregates": []any{map[string]any{"agg": "first", "of": "src"}, map[string]any{"agg": "min", "of": "vt_s"}}, "limit": int64(10_000)})
	rows := r["rows"].([]any)
	if len(rows) != len(want) {
		t.Fatalf("%d recipients, brute force %d", len(rows), len(want))
	}
	for _, x := range rows {
		m := x.(map[string]any)
		if w := want[m["dst"].(string)]; m["first_src"] != w.src || m["min_vt_s"] != w.t {
			t.Fatalf("%v: brute force %+v", m, w)
		}
	}
}

// Bitcoin-OTC: "Which accounts received at least 10 ratings and a negative
// mean rating? Worst first." — having on two aggregates, order by mean.
func TestAggregateEventsBitcoinOTCQuestion(t *testing.T) {
	raw := readSNAP(t, "soc-sign-bitcoinotc.csv.gz", true)
	e := snapStore(t, "bitcoinotc")
	type acc struct{ n, sum int64 }
	by := map[string]*acc{}
	for _, ev := range raw {
		a := by[ev.dst]
		if a == nil {
			a = &acc{}
			by[ev.dst] = a
		}
		a.n++
		a.sum += ev.rating
	}
	var want []string
	for u, a := range by {
		if a.n >= 10 && a.sum < 0 {
			want = append(want, u)
		}
	}
	// worst mean first (exact: compare sum/n by cross-multiplying), ties by uid
	sort.Slice(want, func(i, j int) bool {
		a, b := by[want[i]], by[want[j]]
		if l, r := a.sum*b.n, b.sum*a.n; l != r {
			return l < r
		}
		return want[i] < want[j]
	})
	r := snapCall(t, e, map[string]any{"window": wholeWindow, "group_by": []any{map[string]any{"dim": "endpoint", "role": "dst"}},
		"aggregates": []any{map[string]any{"agg": "count"}, map[string]any{"agg": "mean", "of": "prop", "prop": "rating"}},
		"having":     []any{map[string]any{"col": "count", "cmp": "ge", "value": int64(10)}, map[string]any{"col": "mean_prop", "cmp": "lt", "value": int64(0)}},
		"order_by":   []any{map[string]any{"col": "mean_prop"}}, "limit": int64(10_000)})
	rows := r["rows"].([]any)
	if len(want) == 0 || len(rows) != len(want) {
		t.Fatalf("%d accounts, brute force %d", len(rows), len(want))
	}
	for i, x := range rows {
		if m := x.(map[string]any); m["dst"] != want[i] || m["count"] != by[want[i]].n {
			t.Fatalf("row %d: %v, brute force %s (%d ratings, sum %d)", i, m, want[i], by[want[i]].n, by[want[i]].sum)
		}
	}
}
