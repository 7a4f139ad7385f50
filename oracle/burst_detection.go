package oracle

import (
	"math"
	"sort"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
)

func init() { register("burst_detection", burstDetection) }

func burstDetection(s *bt.MemStore, args map[string]any) (map[string]any, error) {
	tt := asOf(args)
	target, _ := args["target"].(map[string]any)
	uid, _ := target["uid"].(string)
	rel, _ := target["rel_type"].(string)
	buckets, err := gmtsBuckets(args, 2000)
	if err != nil {
		return nil, err
	}
	params, _ := args["params"].(map[string]any)
	get := func(name string, def float64) float64 {
		switch x := params[name].(type) {
		case int64:
			return float64(x)
		case float64:
			return x
		}
		return def
	}
	w, minHist := int(get("w", 10)), int(get("min_history", 3))
	method, _ := args["method"].(string)
	if (method == "zscore" || method == "ratio") && minHist > w {
		return nil, Refused{"E_INVALID_ARG"}
	}
	if target["kind"] == "node_activity" {
		if uid == "" {
			return nil, Refused{"E_INVALID_ARG"}
		}
		if !known(s, uid, tt) {
			return nil, NotFound{uid}
		}
	}
	occ := gmtsOccurrences(believedEdges(s, tt))
	x := make([]float64, len(buckets))
	for i, bk := range buckets {
		for _, e := range occ {
			if e.Valid.Start < bk.Start || e.Valid.Start >= bk.End {
				continue
			}
			if rel != "" && e.Key.RelType != rel {
				continue
			}
			if target["kind"] == "node_activity" && e.Key.Src != uid && e.Key.Dst != uid {
				continue
			}
			x[i]++
		}
	}
	var rows []map[string]any
	flag := func(i int, score any) {
		rows = append(rows, map[string]any{"t_a": buckets[i].Start, "t_b": buckets[i].End, "value": x[i], "score": score})
	}
	switch method {
	case "zscore", "ratio":
		for i := range x {
			lo := i - w
			if lo < 0 {
				lo = 0
			}
			h := x[lo:i]
			if len(h) < minHist {
				continue
			}
			var center, scale float64
			if method == "zscore" {
				var sum float64
				for _, v := range h {
					sum += v
				}
				center = sum / float64(len(h))
				var ss float64
				for _, v := range h {
					ss += (v - center) * (v - center)
				}
				scale = math.Sqrt(ss / float64(len(h)))
			} else {
				sorted := append([]float64(nil), h...)
				sort.Float64s(sorted)
				if len(sorted)%2 == 1 {
					center = sorted[len(sorted)/2]
				} else {
					center = (sorted[len(sorted)/2-1] + sorted[len(sorted)/2]) / 2
				}
				scale = center
			}
			if x[i] <= center || x[i]-center < get("min_excess", 1) {
				continue
			}
			if scale == 0 {
				flag(i, nil)
				continue
			}
			var score float64
			if method == "zscore" {
				score = canon.Round9((x[i] - center) / scale)
				if score >= get("z", 3) {
					flag(i, score)
				}
			} else {
				score = canon.Round9(x[i] / scale)
				if score >= get("r", 3) {
					flag(i, score)
				}
			}
		}
	case "kleinberg":
		states, scores := burstKleinbergStates(x, buckets, get("s", 2), get("gamma", 1))
		for i, q := range states {
			if q == 1 {
				flag(i, scores[i])
			}
		}
	}
	return map[string]any{"rows": anyRows(rows), "n_buckets": int64(len(buckets))}, nil
}

// burstKleinbergStates finds the cheapest state sequence of the two-state
// automaton by trying every sequence (n <= 16) and keeping the first of
// minimum cost in lexicographic order (base state 0 first), or, for longer
// series, by memoized recursion over (bucket, previous state) with the same
// rule. Costs are summed right to left: tau + (cost + rest).
func burstKleinbergStates(x []float64, buckets []bt.Interval, s, gamma float64) ([]int, []float64) {
	n := len(x)
	states := make([]int, n)
	scores := make([]float64, n)
	var total float64
	for _, v := range x {
		total += v
	}
	if total == 0 {
		return states, scores
	}
	span := buckets[n-1].End - buckets[0].Start
	rate := total / float64(span)
	up := gamma * math.Log(float64(n))
	emit := func(i, q int) float64 {
		l := rate * float64(buckets[i].End-buckets[i].Start)
		if q == 1 {
			l = s * l
		}
		return l - x[i]*math.Log(l)
	}
	for i := range n {
		l0 := rate * float64(buckets[i].End-buckets[i].Start)
		scores[i] = x[i]*math.Log(s) - (s-1)*l0
	}
	tau := func(p, q int) float64 {
		if p == 0 && q == 1 {
			return up
		}
		return 0
	}
	if n <= 16 {
		best, bestSeq := math.Inf(1), -1
		for seq := 0; seq < 1<<n; seq++ { // bit n-1-i is the state of bucket i: lexicographic order
			state := func(i int) int { return (seq >> (n - 1 - i)) & 1 }
			total := 0.0
			for i := n - 1; i >= 0; i-- {
				prev := 0
				if i > 0 {
					prev = state(i - 1)
				}
				total = tau(prev, state(i)) + (emit(i, state(i)) + total)
			}
			if total < best {
				best, bestSeq = total, seq
			}
		}
		for i := range n {
			states[i] = (bestSeq >> (n - 1 - i)) & 1
		}
		return states, scores
	}
	memo := map[[2]int]float64{}
	var rest func(i, p int) float64
	rest = func(i, p int) float64 {
		if i == n {
			return 0
		}
		if v, ok := memo[[2]int{i, p}]; ok {
			return v
		}
		v := math.Min(tau(p, 0)+(emit(i, 0)+rest(i+1, 0)), tau(p, 1)+(emit(i, 1)+rest(i+1, 1)))
		memo[[2]int{i, p}] = v
		return v
	}
	p := 0
	for i := range n {
		if tau(p, 1)+(emit(i, 1)+rest(i+1, 1)) < tau(p, 0)+(emit(i, 0)+rest(i+1, 0)) {
			p = 1
		} else {
			p = 0
		}
		states[i] = p
	}
	return states, scores
}
