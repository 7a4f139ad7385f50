package eval

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func obj(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func TestMatch(t *testing.T) {
	cases := []struct {
		name       string
		kind       string
		gold, pred any
		want       bool
	}{
		// counts and integer values: exact
		{"count equal", KindCount, int64(14), int64(14), true},
		{"count off by one", KindCount, int64(14), int64(15), false},
		{"count as float", KindCount, int64(14), 14.0, true},
		{"count as numeric string", KindCount, int64(14), "14", true},
		{"count as word", KindCount, int64(14), "fourteen", false},
		{"count null", KindCount, int64(14), nil, false},
		{"count bool", KindCount, int64(1), true, false},
		{"big integers exactly", KindValue, int64(1083412800000001), int64(1083412800000000), false},
		{"big integers equal", KindValue, int64(1083412800000001), int64(1083412800000001), true},
		// floats: 1e-9 relative
		{"float rounding noise", KindValue, 0.3, 0.1 + 0.2, true},
		{"float relative 1e-10", KindValue, 1e6, 1e6 + 1e-4, true},
		{"float relative 1e-8", KindValue, 1e6, 1e6 + 1e-2, false},
		{"float small absolute but large relative", KindValue, 1e-12, 2e-12, false},
		{"float zero", KindValue, 0.0, 0.0, true},
		{"float vs integer gold", KindValue, 0.5, int64(0), false},
		{"float as string", KindValue, 0.148932806, "0.148932806", true},
		// uid values
		{"uid equal", KindValue, "n42", "n42", true},
		{"uid differs", KindValue, "n42", "n4", false},
		// entity sets
		{"set order", KindEntitySet, []any{"a", "b"}, []any{"b", "a"}, true},
		{"set duplicates", KindEntitySet, []any{"a", "b"}, []any{"b", "a", "a"}, true},
		{"set overlap only", KindEntitySet, []any{"a", "b"}, []any{"b", "c"}, false},
		{"set missing member", KindEntitySet, []any{"a", "b"}, []any{"a"}, false},
		{"set from rows uid", KindEntitySet, []any{obj("uid", "a")}, []any{"a"}, true},
		{"set from edge rows", KindEntitySet, []any{obj("src", "x", "dst", "a", "vt_s", int64(5)), obj("src", "x", "dst", "b", "eid", "e1")}, []any{"a", "b", "x"}, true},
		{"set from nested rows", KindEntitySet, []any{"a"}, obj("rows", []any{obj("edges", []any{obj("src", "a", "dst", "a")})}), true},
		{"other string fields are not uids", KindEntitySet, []any{"a"}, []any{obj("uid", "a", "label", "Node")}, true},
		{"both empty", KindEntitySet, []any{}, []any{}, true},
		{"empty vs not", KindEntitySet, []any{}, []any{"a"}, false},
		{"single string", KindEntitySet, []any{"a"}, "a", true},
		// intervals: IoU >= 0.5
		{"interval same", KindInterval, obj("t_a", int64(0), "t_b", int64(10)), obj("t_a", int64(0), "t_b", int64(10)), true},
		{"interval IoU 0.8", KindInterval, obj("t_a", int64(0), "t_b", int64(10)), obj("t_a", int64(2), "t_b", int64(10)), true},
		{"interval IoU exactly 0.5", KindInterval, obj("t_a", int64(0), "t_b", int64(10)), obj("t_a", int64(0), "t_b", int64(5)), true},
		{"interval IoU 1/3", KindInterval, obj("t_a", int64(0), "t_b", int64(10)), obj("t_a", int64(5), "t_b", int64(15)), false},
		{"interval IoU 2/30", KindInterval, obj("t_a", int64(0), "t_b", int64(10)), obj("t_a", int64(8), "t_b", int64(30)), false},
		{"interval touching", KindInterval, obj("t_a", int64(0), "t_b", int64(10)), obj("t_a", int64(10), "t_b", int64(20)), false},
		{"interval reversed", KindInterval, obj("t_a", int64(0), "t_b", int64(10)), obj("t_a", int64(10), "t_b", int64(0)), false},
		{"interval empty", KindInterval, obj("t_a", int64(0), "t_b", int64(10)), obj("t_a", int64(5), "t_b", int64(5)), false},
		{"interval start/end keys", KindInterval, obj("t_a", int64(0), "t_b", int64(10), "value", 3.0), obj("start", int64(1), "end", int64(10)), true},
		{"interval pair", KindInterval, obj("t_a", int64(0), "t_b", int64(10)), []any{int64(0), int64(9)}, true},
		{"interval missing key", KindInterval, obj("t_a", int64(0), "t_b", int64(10)), obj("t_a", int64(0)), false},
		{"interval as number", KindInterval, obj("t_a", int64(0), "t_b", int64(10)), int64(0), false},
		// other kinds: canonical equality
		{"series equal", "series", []any{int64(1), 2.5}, []any{int64(1), 2.5}, true},
		{"series differ", "series", []any{int64(1), 2.5}, []any{int64(1), 2.6}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Match(c.kind, c.gold, c.pred); got != c.want {
				t.Fatalf("Match(%s, %v, %v) = %v, want %v", c.kind, c.gold, c.pred, got, c.want)
			}
		})
	}
}

func TestIoU(t *testing.T) {
	iv := func(a, b int64) map[string]any { return obj("t_a", a, "t_b", b) }
	cases := []struct {
		g, p any
		want float64
	}{
		{iv(0, 10), iv(2, 10), 0.8},
		{iv(0, 10), iv(8, 30), 2.0 / 30},
		{iv(0, 10), iv(20, 30), 0},
		{iv(0, 10), nil, 0},
		{iv(10, 0), iv(0, 10), 0},
	}
	for _, c := range cases {
		if got := IoU(c.g, c.p); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("IoU(%v, %v) = %v, want %v", c.g, c.p, got, c.want)
		}
	}
}

func tasksOf(kinds ...string) []Task {
	var ts []Task
	for i, k := range kinds {
		ts = append(ts, Task{ID: string(rune('a' + i)), Family: []string{"t1", "t3"}[i%2], AnswerKind: k, Gold: int64(i)})
	}
	return ts
}

func TestScore(t *testing.T) {
	ts := tasksOf(KindCount, KindCount, KindCount, KindCount)
	s := Score(ts, Answers{"a": int64(0), "b": int64(7), "c": nil, "zz": int64(1)})
	o := s.Overall
	if o.N != 4 || o.Answered != 2 || o.Correct != 1 || o.Accuracy != 0.25 || o.Coverage != 0.5 || o.ConditionalAccuracy != 0.5 {
		t.Fatalf("overall %+v", o)
	}
	if s.Unknown != 1 {
		t.Fatalf("unknown ids %d", s.Unknown)
	}
	if len(s.Families) != 2 || s.Families[0].Family != "t1" || s.Families[0].Correct != 1 || s.Families[1].Answered != 1 {
		t.Fatalf("families %+v", s.Families)
	}
	if got := s.Correctness(); got[0] != 1 || got[1] != 0 || len(got) != 4 {
		t.Fatalf("correctness %v", got)
	}
}

func TestReadAnswers(t *testing.T) {
	a, err := ReadAnswers(strings.NewReader(`{"id":"a","answer":14,"trace":"x"}

{"id":"b","answer":null}
{"id":"c","answer":{"t_a":1,"t_b":2}}
`), "ans.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if a["a"] != int64(14) || a["b"] != nil || len(a) != 3 {
		t.Fatalf("answers %v", a)
	}
	for _, c := range []struct{ in, want string }{
		{"{\"id\":\"a\",\"answer\":1}\n{\"id\":\"a\",\"answer\":2}\n", "ans.jsonl:2: task a is answered twice"},
		{"{\"id\":\"a\",\"answer\":1}\n[1]\n", "ans.jsonl:2: each line must be a JSON object"},
		{"{\"answer\":1}\n", "ans.jsonl:1: \"id\" must be"},
		{"{\"id\":\"a\",\"answer\":}\n", "ans.jsonl:1: canon: offset"},
	} {
		_, err := ReadAnswers(strings.NewReader(c.in), "ans.jsonl")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
	// WriteAnswers → ReadAnswers round trip, in task order.
	ts := []Task{{ID: "x", Gold: 0.5}, {ID: "y", Gold: []any{"n1"}}, {ID: "z", Gold: int64(3)}}
	var buf bytes.Buffer
	if err := WriteAnswers(&buf, ts, GoldAnswers(ts)); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "{\"answer\":0.5,\"id\":\"x\"}\n{\"answer\":[\"n1\"],\"id\":\"y\"}\n{\"answer\":3,\"id\":\"z\"}\n" {
		t.Fatalf("written %q", buf.String())
	}
}

func TestPairedBootstrap(t *testing.T) {
	ones := make([]float64, 50)
	zeros := make([]float64, 50)
	alt := make([]float64, 50)
	alt2 := make([]float64, 50)
	for i := range ones {
		ones[i] = 1
		alt[i] = float64(i % 2)
		alt2[i] = float64((i + 1) % 2)
	}
	a, err := PairedBootstrap(ones, zeros, DefaultResamples, 0)
	if err != nil {
		t.Fatal(err)
	}
	if a.Diff != 1 || a.Low != 1 || a.High != 1 || !a.Significant || a.NResamples != 10_000 || a.NTasks != 50 {
		t.Fatalf("always right vs always wrong: %+v", a)
	}
	// One system right on a random 70% of tasks, the other on a subset
	// of those: the difference is positive and the CI lies above 0.
	sysA, sysB := make([]float64, 100), make([]float64, 100)
	for i := range sysA {
		if i%10 < 7 {
			sysA[i] = 1
		}
		if i%10 < 3 {
			sysB[i] = 1
		}
	}
	ab, _ := PairedBootstrap(sysA, sysB, DefaultResamples, 7)
	if !(ab.Low > 0 && ab.Significant && math.Abs(ab.Diff-0.4) < 1e-12) {
		t.Fatalf("dominating system: %+v", ab)
	}
	// Seeded: the same call gives the same interval; equal systems are not
	// significantly different.
	c1, _ := PairedBootstrap(alt, alt2, DefaultResamples, 42)
	c2, _ := PairedBootstrap(alt, alt2, DefaultResamples, 42)
	if c1 != c2 {
		t.Fatalf("not deterministic: %+v vs %+v", c1, c2)
	}
	if c1.Diff != 0 || c1.Significant || c1.Low >= 0 || c1.High <= 0 {
		t.Fatalf("alternating systems: %+v", c1)
	}
	c3, _ := PairedBootstrap(alt, alt2, DefaultResamples, 43)
	if c3 == c1 {
		t.Fatalf("the seed does not matter: %+v", c3)
	}
	if _, err := PairedBootstrap(ones, ones[:3], 0, 0); err == nil {
		t.Fatal("unpaired outcomes accepted")
	}
}

func TestSplit(t *testing.T) {
	var ts []Task
	for i := range 23 {
		ts = append(ts, Task{ID: "t1-" + string(rune('a'+i)), Family: "t1"})
	}
	for i := range 4 {
		ts = append(ts, Task{ID: "t2-" + string(rune('a'+i)), Family: "t2"})
	}
	ts = append(ts, Task{ID: "p-a", Family: "probe"})
	dev, test := split(ts, 9)
	count := func(list []Task, fam string) (n int) {
		for _, t := range list {
			if t.Family == fam {
				n++
			}
		}
		return n
	}
	for _, c := range []struct {
		fam       string
		dev, test int
	}{{"t1", 4, 19}, {"t2", 1, 3}, {"probe", 1, 0}} {
		if d, te := count(dev, c.fam), count(test, c.fam); d != c.dev || te != c.test {
			t.Errorf("family %s: %d dev / %d test, want %d / %d", c.fam, d, te, c.dev, c.test)
		}
	}
	for i := 1; i < len(test); i++ {
		if test[i-1].ID >= test[i].ID {
			t.Fatalf("test split not sorted by id")
		}
	}
	dev2, _ := split(ts, 9)
	for i := range dev {
		if dev[i].ID != dev2[i].ID {
			t.Fatal("split not deterministic")
		}
	}
	// Input order does not matter.
	rev := make([]Task, len(ts))
	for i := range ts {
		rev[len(ts)-1-i] = ts[i]
	}
	dev3, _ := split(rev, 9)
	for i := range dev {
		if dev[i].ID != dev3[i].ID {
			t.Fatal("split depends on input order")
		}
	}
}
