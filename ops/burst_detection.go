package ops

import (
	"math"
	"slices"
	"strconv"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/engine"
)

func init() {
	Register(&Spec{
		Name:    "burst_detection",
		Summary: "Flag the buckets of an event-rate series where the rate bursts (z-score, ratio or Kleinberg).",
		Doc: `Builds the series x_i = number of edge occurrences starting in bucket i
of window [t_a, t_b) (buckets as graph_metric_timeseries: width stride, the
last may be short, at most 2000 else E_LIMIT naming the minimum stride),
restricted to target.rel_type when given, and for target.kind
"node_activity" to occurrences with src == uid or dst == uid (a self-loop
counts once; uid is required: missing is E_INVALID_ARG, unknown is
E_NOT_FOUND; for edge_event_rate uid is ignored). An occurrence is counted once: a version that continues
another believed version of its identity (a fragment left by a correction
or retract) is not a new event.

Returns the flagged buckets only, {t_a, t_b, value: x_i, score}, plus
n_buckets. Bursts are upward: a drop is never flagged.

method "zscore" (params w, z, min_history, min_excess): the history of
bucket i is the previous m = min(i, w) buckets; a bucket with m <
min_history is never flagged. mean and std are the mean and population
standard deviation of the history. The bucket is flagged iff x_i > mean,
x_i - mean >= min_excess, and either std > 0 and score =
round((x_i - mean) / std, 9) >= z, or std == 0 (a flat history: there is no
scale, the score is null; the absolute excess alone decides).

method "ratio" (params w, r, min_history, min_excess): same history; med =
its median (mean of the two middle values for an even count). Flagged iff
x_i > med, x_i - med >= min_excess, and either med > 0 and score =
round(x_i / med, 9) >= r, or med == 0 (score null).

method "kleinberg" (params s, gamma): Kleinberg's two-state burst
automaton over the counts. Base rate = the window's mean rate, N / (t_b -
t_a) per µs (N = total count), so bucket i expects lambda0_i = rate * width_i
events in the base state and lambda1_i = s * lambda0_i in the burst state;
the cost of x events in a state with expectation lambda is lambda - x *
ln(lambda) (the Poisson negative log-likelihood up to a term common to both
states); entering the burst state costs gamma * ln(n_buckets), leaving it is
free, and the automaton starts in the base state. An exact Viterbi decode
(dynamic program over both states) finds the minimum-cost state sequence;
among sequences of equal cost (float64) the one in the base state at the
earliest differing bucket wins, so ties go to the base state. Flagged
buckets are those in the burst state; score = x_i * ln(s) - (s - 1) *
lambda0_i, the log-likelihood ratio of burst over base for that bucket (it
can be negative inside a burst). N == 0 flags nothing.

Differences from the reference system: no 1e9 sentinel (flat histories give
score null), a minimum history (the reference flagged bucket 1 against a
one-bucket history), upward deviations only (the reference's z-score was
two-sided), an absolute excess floor, and carved fragments are not events.`,
		Args: Obj("", map[string]*Schema{
			"target": Obj("what to count", map[string]*Schema{
				"kind":     Enum("edge_event_rate: all occurrences; node_activity: occurrences incident to uid", "edge_event_rate", "node_activity"),
				"rel_type": Str("count only this relation type").NonEmpty().OrNull(),
				"uid":      UIDField("the node (required for node_activity)").OrNull(),
			}, "kind"),
			"window": Window(),
			"stride": Int("bucket width (µs); at most 2000 buckets").Range(1, 1<<62),
			"method": Enum("scoring method", "zscore", "ratio", "kleinberg").Def("zscore"),
			"params": Obj("method parameters; absent fields take their defaults", map[string]*Schema{
				"w":           Int("history length in buckets (zscore, ratio); default 10").Range(2, 500),
				"z":           Num("z-score threshold (zscore); default 3.0").Min(0.1),
				"r":           Num("ratio threshold (ratio); default 3.0").Min(1),
				"min_history": Int("buckets of history required before a bucket can be flagged (zscore, ratio); default 3, at most w").Range(1, 500),
				"min_excess":  Num("minimum absolute excess of x_i over the history's mean (zscore) or median (ratio); default 1").Min(0),
				"s":           Num("burst rate multiplier (kleinberg); default 2").Range(1.01, 1e6),
				"gamma":       Num("cost factor of entering the burst state, times ln(n_buckets) (kleinberg); default 1").Range(0, 1e6),
			}).Def(map[string]any{}),
			"as_of_tt": AsOfTT(),
			"limit":    Limit(),
			"cursor":   Cursor(),
		}, "target", "window", "stride"),
		Result: Paged("the flagged buckets",
			Obj("a flagged bucket", map[string]*Schema{
				"t_a":   Int("bucket start, inclusive (µs)"),
				"t_b":   Int("bucket end, exclusive (µs)"),
				"value": Num("x_i, the bucket's event count (a float)"),
				"score": Num("zscore: (x_i - mean)/std; ratio: x_i/median; null when the history is flat (std 0 / median 0); kleinberg: log-likelihood ratio burst/base").OrNull(),
			}),
			map[string]*Schema{"n_buckets": Int("number of buckets in the series, flagged or not")}),
		Order:  "rows by bucket start t_a",
		Paged:  true,
		RowKey: keyOf("t_a"),
		Cost: func(c *Call) Cost {
			return c.ScanCost(c.WindowFraction(c.Window("window")))
		},
		Run: runBurstDetection,
	})
}

// burstParams are the method parameters with defaults applied.
type burstParams struct {
	w, minHistory             int
	z, r, minExcess, s, gamma float64
}

func burstReadParams(c *Call) (burstParams, error) {
	p := burstParams{w: 10, minHistory: 3, z: 3, r: 3, minExcess: 1, s: 2, gamma: 1}
	m, _ := c.Args["params"].(map[string]any)
	f := func(name string, dst *float64) {
		switch x := m[name].(type) {
		case int64:
			*dst = float64(x)
		case float64:
			*dst = x
		}
	}
	i := func(name string, dst *int) {
		if m[name] != nil {
			*dst = int(toInt(m[name]))
		}
	}
	i("w", &p.w)
	i("min_history", &p.minHistory)
	f("z", &p.z)
	f("r", &p.r)
	f("min_excess", &p.minExcess)
	f("s", &p.s)
	f("gamma", &p.gamma)
	if method := c.Str("method"); (method == "zscore" || method == "ratio") && p.minHistory > p.w {
		return p, Errorf(EInvalidArg, map[string]any{"path": "/params/min_history", "hint": "use min_history <= w (w = " + strconv.Itoa(p.w) + ")"},
			"min_history %d exceeds the history length w = %d: no bucket could ever be flagged", p.minHistory, p.w)
	}
	return p, nil
}

func runBurstDetection(c *Call) (map[string]any, error) {
	w := c.Window("window")
	b, err := gmtsMakeBuckets(w, c.Int("stride"))
	if err != nil {
		return nil, err
	}
	p, err := burstReadParams(c)
	if err != nil {
		return nil, err
	}
	x, err := burstSeries(c, b)
	if err != nil {
		return nil, err
	}
	return burstRows(c, b, p, x)
}

// burstRows scores the per-bucket counts x by the call's method.
func burstRows(c *Call, b gmtsBuckets, p burstParams, x []int64) (map[string]any, error) {
	var rows []any
	flag := func(i int, score any) {
		rows = append(rows, map[string]any{"t_a": b.start(i), "t_b": b.end(i), "value": float64(x[i]), "score": score})
	}
	switch c.Str("method") {
	case "zscore":
		for i := range x {
			m := min(i, p.w)
			if m < p.minHistory {
				continue
			}
			mean, std := burstMeanStd(x[i-m : i])
			xi := float64(x[i])
			if !(xi > mean && xi-mean >= p.minExcess) {
				continue
			}
			if std == 0 {
				flag(i, nil)
			} else if score := canon.Round9((xi - mean) / std); score >= p.z {
				flag(i, score)
			}
		}
	case "ratio":
		hist := make([]int64, 0, p.w)
		for i := range x {
			m := min(i, p.w)
			if m < p.minHistory {
				continue
			}
			hist = append(hist[:0], x[i-m:i]...)
			slices.Sort(hist)
			var med float64
			if m%2 == 1 {
				med = float64(hist[m/2])
			} else {
				med = (float64(hist[m/2-1]) + float64(hist[m/2])) / 2
			}
			xi := float64(x[i])
			if !(xi > med && xi-med >= p.minExcess) {
				continue
			}
			if med == 0 {
				flag(i, nil)
			} else if score := canon.Round9(xi / med); score >= p.r {
				flag(i, score)
			}
		}
	case "kleinberg":
		burst, scores := burstKleinberg(x, b, p.s, p.gamma)
		for i, in := range burst {
			if in {
				flag(i, scores[i])
			}
		}
	}
	if rows == nil {
		rows = []any{}
	}
	return map[string]any{"rows": rows, "n_buckets": int64(b.n)}, nil
}

// burstMeanStd is the mean and population standard deviation of h, summed
// left to right.
func burstMeanStd(h []int64) (float64, float64) {
	var sum int64
	for _, v := range h {
		sum += v
	}
	mean := float64(sum) / float64(len(h))
	var ss float64
	for _, v := range h {
		d := float64(v) - mean
		ss += d * d
	}
	return mean, math.Sqrt(ss / float64(len(h)))
}

// burstSeries counts the target's occurrences per bucket in one pass: the
// window's events from the start-time index for edge_event_rate, the
// node's adjacency lists for node_activity.
func burstSeries(c *Call, b gmtsBuckets) ([]int64, error) {
	t, _ := c.Args["target"].(map[string]any)
	rel, _ := t["rel_type"].(string)
	x := make([]int64, b.n)
	bk := b.cache()
	count := func(v uint32) {
		s := c.R.Valid(v).Start
		if s < b.ta || s >= b.tb {
			return
		}
		if rel != "" && c.R.RelType(v) != rel {
			return
		}
		if c.R.Continues(v) {
			return
		}
		x[bk.of(s)]++
	}
	switch t["kind"] {
	case "node_activity":
		uid, _ := t["uid"].(string)
		if uid == "" {
			return nil, Errorf(EInvalidArg, map[string]any{"path": "/target/uid", "hint": "give target.uid, or use kind edge_event_rate"},
				"target kind node_activity needs a uid")
		}
		id, err := c.Node("/target/uid", uid)
		if err != nil {
			return nil, err
		}
		out, in := c.R.Out(id), c.R.In(id)
		if err := c.Work(int64(len(out) + len(in))); err != nil {
			return nil, err
		}
		for _, v := range out {
			count(v)
		}
		for _, v := range in {
			if c.R.Src(v) != id { // a self-loop was counted with the out-edges
				count(v)
			}
		}
	default:
		w := bt.Interval{Start: b.ta, End: b.tb}
		if c.WindowFraction(w) >= gmtsScanFraction {
			id := engine.AnyRel
			if rel != "" {
				var ok bool
				if id, ok = c.R.RelIDOf(rel); !ok {
					return x, nil // no such relation type: no events
				}
			}
			return x, gmtsCountScan(c, b, id, x)
		}
		err := gmtsVisit(c, w, true, func(v uint32, _ bt.Interval) { count(v) })
		if err != nil {
			return nil, err
		}
	}
	return x, nil
}

// burstKleinberg decodes Kleinberg's two-state automaton over the counts x
// exactly. G(i, p) is the minimum cost of buckets i.. given the state p of
// bucket i-1, computed right to left as
//
//	G(i, p) = min over q of  tau(p, q) + (cost_i(q) + G(i+1, q))
//
// and the state sequence is read left to right from the base state,
// choosing the base state whenever it is no worse. Adding in this order
// makes G(0, base) exactly the float64 cost of the sequence read, and the
// sequence the lexicographically smallest (base < burst) of minimum cost.
func burstKleinberg(x []int64, b gmtsBuckets, s, gamma float64) ([]bool, []float64) {
	n := len(x)
	burst := make([]bool, n)
	scores := make([]float64, n)
	var total int64
	for _, v := range x {
		total += v
	}
	if total == 0 {
		return burst, scores
	}
	rate := float64(total) / float64(b.tb-b.ta)
	up := gamma * math.Log(float64(n))
	cost := make([][2]float64, n)
	for i := range n {
		l0 := rate * float64(b.end(i)-b.start(i))
		l1 := s * l0
		xi := float64(x[i])
		cost[i] = [2]float64{l0 - xi*math.Log(l0), l1 - xi*math.Log(l1)}
		scores[i] = xi*math.Log(s) - (s-1)*l0
	}
	tau := func(p, q int) float64 {
		if p == 0 && q == 1 {
			return up
		}
		return 0
	}
	g := make([][2]float64, n+1)
	for i := n - 1; i >= 0; i-- {
		for p := range 2 {
			a := tau(p, 0) + (cost[i][0] + g[i+1][0])
			c := tau(p, 1) + (cost[i][1] + g[i+1][1])
			g[i][p] = min(a, c)
		}
	}
	p := 0
	for i := range n {
		a := tau(p, 0) + (cost[i][0] + g[i+1][0])
		c := tau(p, 1) + (cost[i][1] + g[i+1][1])
		if c < a {
			p = 1
		} else {
			p = 0
		}
		burst[i] = p == 1
	}
	return burst, scores
}
