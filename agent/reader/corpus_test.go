package reader_test

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tgms-go/tgms/agent/reader"
	"github.com/tgms-go/tgms/plan"
)

// The corpus stores: CollegeMsg's extent and uids n1..n1899, and the
// synthetic store of the tests (90 days from 2020-01-01, uids n0..n399).
var (
	collegeEnv = reader.Env{VtMin: 1082040961000000, VtMax: 1098777142000001, IsNode: uidBelow(1900)}
	synthEnv   = reader.Env{VtMin: 1577836800000000, VtMax: 1577836800000000 + 90*86_400_000_000, IsNode: uidBelow(400)}
)

func uidBelow(n int) func(string) bool {
	return func(s string) bool {
		if len(s) < 2 || s[0] != 'n' {
			return false
		}
		v, err := strconv.Atoi(s[1:])
		return err == nil && v >= 0 && v < n && strconv.Itoa(v) == s[1:]
	}
}

type corpusItem struct {
	line     int
	store    string
	intent   string
	want     map[string]string
	question string
}

// loadCorpus reads testdata/corpus.txt; half is "dev" (odd data lines) or
// "held" (even ones).
func loadCorpus(t testing.TB, half string) []corpusItem {
	t.Helper()
	f, err := os.Open("../testdata/corpus.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusItem
	sc := bufio.NewScanner(f)
	n, data := 0, 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := regexp.MustCompile(`\s*\|\s*`).Split(line, 4)
		if len(parts) != 4 {
			t.Fatalf("corpus line %d: want 4 fields separated by |", n)
		}
		data++
		if (half == "dev") != (data%2 == 1) && half != "all" {
			continue
		}
		it := corpusItem{line: n, store: parts[0], intent: parts[1], want: map[string]string{}, question: parts[3]}
		for _, kv := range strings.Fields(parts[2]) {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				t.Fatalf("corpus line %d: bad slot %q", n, kv)
			}
			it.want[k] = v
		}
		out = append(out, it)
	}
	return out
}

// parseTime reads the corpus's own time notation (independently of the
// reader): µs, or a UTC date or date-time.
func parseTime(t testing.TB, s string) int64 {
	t.Helper()
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return v
	}
	for _, l := range []string{"2006-01-02T15:04:05.999999", "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02"} {
		if tm, err := time.Parse(l, s); err == nil {
			return tm.UnixMicro()
		}
	}
	t.Fatalf("corpus time %q", s)
	return 0
}

func parseDur(t testing.TB, s string) int64 {
	t.Helper()
	units := map[byte]float64{'d': 86_400e6, 'h': 3_600e6, 'm': 60e6, 's': 1e6}
	if u, ok := units[s[len(s)-1]]; ok {
		f, err := strconv.ParseFloat(s[:len(s)-1], 64)
		if err == nil {
			return int64(f * u)
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("corpus duration %q", s)
	}
	return v
}

// check compares a reading with an item's expectations; "" means it fits.
func check(t *testing.T, it corpusItem, env reader.Env, r *reader.Reading) string {
	var bad []string
	want := func(k, got, exp string) {
		if got != exp {
			bad = append(bad, fmt.Sprintf("%s: got %s, want %s", k, got, exp))
		}
	}
	w := it.want
	if r.Intent != it.intent {
		return fmt.Sprintf("intent %s, want %s", r.Intent, it.intent)
	}
	nodeUID := func(i int) string {
		if i < len(r.Nodes) {
			if r.Nodes[i].ByName {
				return r.Nodes[i].Written
			}
			return r.Nodes[i].UID
		}
		return ""
	}
	if v, ok := w["x"]; ok {
		want("x", nodeUID(0), v)
	}
	if v, ok := w["y"]; ok {
		want("y", nodeUID(1), v)
	}
	if v, ok := w["w"]; ok {
		var a, b int64
		if v == "all" {
			a, b = env.VtMin, env.VtMax
		} else {
			s, e, _ := strings.Cut(v, "..")
			a, b = env.VtMin, env.VtMax // "start", "end": the store's extent
			if s != "start" {
				a = parseTime(t, s)
			}
			if e != "end" {
				b = parseTime(t, e)
			}
		}
		if r.Window == nil {
			bad = append(bad, "no window")
		} else {
			want("window", fmt.Sprint(r.Window.Start, "..", r.Window.End), fmt.Sprint(a, "..", b))
		}
	}
	insts := func(i int) string {
		if i < len(r.Instants) {
			return fmt.Sprint(r.Instants[i].T)
		}
		return "none"
	}
	if v, ok := w["t"]; ok {
		want("t", insts(0), fmt.Sprint(parseTime(t, v)))
	}
	if v, ok := w["t1"]; ok {
		want("t1", insts(0), fmt.Sprint(parseTime(t, v)))
	}
	if v, ok := w["t2"]; ok {
		want("t2", insts(1), fmt.Sprint(parseTime(t, v)))
	}
	if v, ok := w["tt"]; ok {
		want("tt", fmt.Sprint(r.Belief.AsOfTT, r.Belief.Now), fmt.Sprint(parseTime(t, v), false))
	} else if !r.Belief.Now {
		bad = append(bad, fmt.Sprintf("belief as of %d, want now", r.Belief.AsOfTT))
	}
	if v, ok := w["bucket"]; ok {
		got := "none"
		if r.Bucket != nil {
			got = fmt.Sprint(r.Bucket.Micros)
		}
		want("bucket", got, fmt.Sprint(parseDur(t, v)))
	}
	if v, ok := w["delta"]; ok {
		got := "none"
		if r.Delta != nil {
			got = fmt.Sprint(r.Delta.Micros)
		}
		want("delta", got, fmt.Sprint(parseDur(t, v)))
	}
	if v, ok := w["k"]; ok {
		want("k", fmt.Sprint(r.K), v)
	}
	opts := map[string]string{"dir": "direction", "by": "by", "motif": "motif", "change": "change", "form": "form", "closed": "closed_by", "z": "z", "history": "history", "hops": "max_hops", "cycle": "cycle", "rank": "rank", "over": "over"}
	for k, o := range opts {
		if v, ok := w[k]; ok {
			got := r.Options[o]
			if k == "hops" && got == "" {
				got = "4"
			}
			want(k, got, v)
		}
	}
	var uids []string
	for _, n := range r.Nodes {
		if !n.ByName {
			uids = append(uids, n.UID)
		}
	}
	if v := plan.ValidateJSON(r.Plan(), plan.Options{UIDs: uids}); !v.Valid {
		bad = append(bad, fmt.Sprintf("plan rejected by the contract: %+v", v.Violations))
	}
	return strings.Join(bad, "; ")
}

// runCorpus reads every question of a half and reports per intent how
// many were read right, refused, or read wrong. A wrong reading fails the
// test; so does an accuracy under 85% over the half.
func runCorpus(t *testing.T, half string) {
	items := loadCorpus(t, half)
	type tally struct{ ok, refused, wrong int }
	per := map[string]*tally{}
	total := &tally{}
	for _, it := range items {
		env := collegeEnv
		if it.store == "S" {
			env = synthEnv
		}
		tl := per[it.intent]
		if tl == nil {
			tl = &tally{}
			per[it.intent] = tl
		}
		r, err := reader.Read(it.question, env)
		switch {
		case it.intent == "refuse" && err != nil:
			tl.ok++
		case it.intent == "refuse":
			tl.wrong++
			t.Errorf("line %d: answered a question it must refuse, as %s\n  %s\n  %s", it.line, r.Intent, it.question, r.Line())
		case err != nil:
			tl.refused++
			t.Logf("line %d (%s): refused: %v\n  %s", it.line, it.intent, err, it.question)
		default:
			if msg := check(t, it, env, r); msg != "" {
				tl.wrong++
				t.Errorf("line %d (%s): misread: %s\n  %s\n  %s", it.line, it.intent, msg, it.question, r.Line())
			} else {
				tl.ok++
			}
		}
	}
	names := make([]string, 0, len(per))
	for k := range per {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	fmt.Fprintf(&b, "%s half: per-intent reading accuracy\n%-24s %4s %4s %4s %4s\n", half, "intent", "n", "ok", "ref", "bad")
	for _, k := range names {
		tl := per[k]
		fmt.Fprintf(&b, "%-24s %4d %4d %4d %4d\n", k, tl.ok+tl.refused+tl.wrong, tl.ok, tl.refused, tl.wrong)
		total.ok += tl.ok
		total.refused += tl.refused
		total.wrong += tl.wrong
	}
	n := total.ok + total.refused + total.wrong
	fmt.Fprintf(&b, "%-24s %4d %4d %4d %4d  accuracy %.3f", "all", n, total.ok, total.refused, total.wrong, float64(total.ok)/float64(n))
	t.Log("\n" + b.String())
	if float64(total.ok) < 0.85*float64(n) {
		t.Errorf("%s half: %d of %d read right, under 85%%", half, total.ok, n)
	}
}

func TestCorpusDev(t *testing.T)  { runCorpus(t, "dev") }
func TestCorpusHeld(t *testing.T) { runCorpus(t, "held") }

// Every intent has at least 12 corpus questions and the corpus at least
// 300, and no question is read as an intent other than its own.
func TestCorpusCoverage(t *testing.T) {
	items := loadCorpus(t, "all")
	n := map[string]int{}
	for _, it := range items {
		n[it.intent]++
	}
	if len(items) < 300 {
		t.Errorf("corpus has %d questions, want at least 300", len(items))
	}
	for _, in := range reader.Intents() {
		if n[in[0]] < 12 {
			t.Errorf("intent %s has %d corpus questions, want at least 12", in[0], n[in[0]])
		}
	}
	var names []string
	for _, in := range reader.Intents() {
		names = append(names, in[0])
	}
	for k := range n {
		if k != "refuse" && !slices.Contains(names, k) {
			t.Errorf("corpus names unknown intent %s", k)
		}
	}
}
