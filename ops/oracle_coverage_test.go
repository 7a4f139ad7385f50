package ops_test

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/ops"
)

// outcome is what one oracle case exercised.
type outcome struct {
	content     bool   // the result says something (hasContent)
	rows        int    // length of the result's longest list
	hasRows     bool   // the result has a list
	refusal     string // the code the call was refused with ("" = ran)
	schemaError bool   // refused by Prepare (schema or argument check) before running
}

// coverage sums the outcomes of one operator's cases.
type coverage struct {
	op          string
	cases       int
	content     int
	multiRow    int // cases whose result has a list of >= 2 entries
	schemaError int
	refusals    map[string]int
	negZero     int // cases run with an argument of -0.0
	nanRejected int // cases with a NaN or ±Inf argument (all must be rejected)
	intExtreme  int // cases with an argument at an int64 extreme
}

func (c *coverage) add(o outcome) {
	c.cases++
	if o.schemaError {
		c.schemaError++
	}
	switch {
	case o.refusal != "":
		c.refusals[o.refusal]++
	default:
		if o.content {
			c.content++
		}
		if o.hasRows && o.rows >= 2 {
			c.multiRow++
		}
	}
}

func (c *coverage) String() string {
	var ref []string
	for _, k := range slices.Sorted(maps.Keys(c.refusals)) {
		ref = append(ref, fmt.Sprintf("%s=%d", k, c.refusals[k]))
	}
	return fmt.Sprintf("coverage %s: %d cases, non-empty %d (%.0f%%), >=2 rows %d, schema errors %d, refusals [%s], -0 %d, NaN/Inf rejected %d, int64 extremes %d",
		c.op, c.cases, c.content, 100*float64(c.content)/float64(max(1, c.cases)), c.multiRow, c.schemaError, strings.Join(ref, " "),
		c.negZero, c.nanRejected, c.intExtreme)
}

// floors are the least an operator's generator must exercise over the
// default 500 cases: a share of cases with a non-empty result, a number of
// cases with at least two rows (operators whose result has rows), and a
// number of cases per refusal code the operator can raise.
type floors struct {
	content  float64
	multiRow int
	refusals map[string]int
}

// check fails when the cases fall short of the floors; the floors scale
// with TGMS_ORACLE_CASES.
func (c *coverage) check(t *testing.T, f floors) {
	t.Helper()
	scale := float64(c.cases) / 500
	if got := float64(c.content) / float64(max(1, c.cases)); got < f.content {
		t.Errorf("%s: %.0f%% of cases have a non-empty result, floor %.0f%%", c.op, 100*got, 100*f.content)
	}
	if need := int(float64(f.multiRow) * scale); c.multiRow < need {
		t.Errorf("%s: %d cases with >= 2 rows, floor %d", c.op, c.multiRow, need)
	}
	// Edge values reach every operator (all take numbers).
	for what, n := range map[string]int{"-0 arguments": c.negZero, "NaN/Inf arguments": c.nanRejected, "int64 extremes": c.intExtreme} {
		if need := max(1, int(5*scale)); n < need {
			t.Errorf("%s: %d cases with %s, floor %d", c.op, n, what, need)
		}
	}
	for code, n := range f.refusals {
		if need := int(float64(n) * scale); c.refusals[code] < need {
			t.Errorf("%s: %d cases refused with %s, floor %d", c.op, c.refusals[code], code, need)
		}
	}
}

// floorsOf gives each operator floors that match what it computes.
func floorsOf(op string) floors {
	if f, ok := operatorFloors[op]; ok {
		return f
	}
	return floors{content: 0.4, multiRow: 50}
}

// Refusal codes each operator's generator must hit at least this often.
type codes = map[string]int

// operatorFloors: operators that run on any store (series, histories)
// must be non-empty most of the time; those that need a pattern to exist
// (paths between two given nodes, motif instances, name matches) less
// often, with the share their random stores allow. Codes absent from an
// operator's map are ones its arguments cannot provoke often (or at all).
var operatorFloors = map[string]floors{
	// Unknown uids in endpoint_filter match nothing (an empty, complete
	// answer), so aggregate_events raises no E_NOT_FOUND; having and top
	// narrow many of its groupings to fewer rows.
	"aggregate_events": {0.30, 30, codes{ops.EInvalidArg: 20, ops.ESchema: 20}},
	"burst_detection":  {0.50, 50, codes{ops.EInvalidArg: 20, ops.ELimit: 20, ops.ENotFound: 20, ops.ESchema: 20}},
	"co_active":        {0.30, 50, codes{ops.ENotFound: 20, ops.ESchema: 20, ops.EInvalidArg: 5}},
	"compute":          {0.40, 50, codes{ops.EInvalidArg: 20, ops.ESchema: 5}},
	// Unknown scope seeds reach nothing (no E_NOT_FOUND).
	"diff_snapshots": {0.35, 50, codes{ops.ESchema: 20}},
	"entity_history": {0.50, 50, codes{ops.ENotFound: 20, ops.ESchema: 20}},
	// Unknown uids in node_filter match no event (no E_NOT_FOUND).
	"find_temporal_motif_instances": {0.06, 20, codes{ops.EInvalidArg: 20, ops.ESchema: 20}},
	"graph_metric_timeseries":       {0.60, 50, codes{ops.EInvalidArg: 20, ops.ELimit: 20, ops.ESchema: 20}},
	"neighborhood_evolution":        {0.45, 50, codes{ops.EInvalidArg: 20, ops.ELimit: 10, ops.ENotFound: 20, ops.ESchema: 20}},
	"resolve_entities":              {0.12, 10, codes{ops.EInvalidArg: 20, ops.ESchema: 20}},
	// Unknown seeds reach nothing (no E_NOT_FOUND).
	"snapshot_subgraph": {0.25, 50, codes{ops.ESchema: 20}},
	"temporal_paths":    {0.20, 30, codes{ops.EInvalidArg: 20, ops.ENotFound: 20, ops.ESchema: 20}},
	"temporal_pattern":  {0.40, 50, codes{ops.EInvalidArg: 40, ops.ESchema: 20}}, // bind: unknown uids match nothing; TestTemporalPatternInformative checks matches
	// Its result always has a chain list; with no event to start from it is empty.
	"longest_temporal_path": {0.30, 100, codes{ops.EInvalidArg: 20, ops.ENotFound: 20, ops.ESchema: 20}},
	"temporal_reachability": {0.35, 50, codes{ops.EInvalidArg: 20, ops.ENotFound: 20, ops.ESchema: 20}},
	// Unknown uids in version_history's uids match nothing (no E_NOT_FOUND).
	"version_history": {0.25, 50, codes{ops.EInvalidArg: 20, ops.ESchema: 20}},
}

// Special argument values the harness injects into generated arguments.
const (
	specialNegZero = "-0"
	specialNaN     = "nan"
	specialInt     = "int64"
)

// edgeValue replaces one numeric argument (top level or inside a window)
// with an edge value: a float with negative zero (math.Copysign: the
// literal -0.0 is +0 in Go), NaN or ±Inf; an integer with an int64 extreme
// or 2^62. It returns which kind it injected ("" when the arguments have
// no number).
func edgeValue(rng *rand.Rand, args map[string]any) string {
	type slot struct {
		m map[string]any
		k string
	}
	var slots []slot
	for _, k := range slices.Sorted(maps.Keys(args)) {
		if k == "limit" {
			continue // compareOne sets the limit of paged calls itself
		}
		switch v := args[k].(type) {
		case int64, float64:
			slots = append(slots, slot{args, k})
		case map[string]any:
			for _, kk := range slices.Sorted(maps.Keys(v)) {
				switch v[kk].(type) {
				case int64, float64:
					slots = append(slots, slot{v, kk})
				}
			}
		}
	}
	if len(slots) == 0 {
		return ""
	}
	sl := slots[rng.IntN(len(slots))]
	if _, isFloat := sl.m[sl.k].(float64); isFloat || rng.IntN(2) == 0 {
		switch rng.IntN(4) {
		case 0, 1:
			sl.m[sl.k] = math.Copysign(0, -1)
			return specialNegZero
		case 2:
			sl.m[sl.k] = math.NaN()
		default:
			sl.m[sl.k] = math.Inf(1 - 2*rng.IntN(2))
		}
		return specialNaN
	}
	sl.m[sl.k] = []int64{math.MinInt64, math.MaxInt64, 1 << 62, -1}[rng.IntN(4)]
	return specialInt
}

// special records an injected edge value; a NaN or infinite argument must
// be rejected before anything runs.
func (c *coverage) special(t *testing.T, i int, op string, args map[string]any, kind string, o outcome) {
	t.Helper()
	switch kind {
	case specialNegZero:
		c.negZero++
	case specialInt:
		c.intExtreme++
	case specialNaN:
		if !o.schemaError && o.refusal == "" {
			t.Fatalf("case %d %s(%v): a NaN or infinite argument was accepted", i, op, args)
		}
		c.nanRejected++
	}
}

// refusalCase turns generated arguments into one an operator must refuse,
// so each refusal code it can raise is hit often enough: a uid the store
// does not hold (E_NOT_FOUND), an inverted window (E_INVALID_ARG), or a
// stride of 1 over a window of more buckets than allowed (E_LIMIT). It
// returns false when the arguments have nothing to break.
func refusalCase(rng *rand.Rand, args map[string]any) bool {
	var breaks []func()
	ghost := fmt.Sprintf("ghost-%d", rng.IntN(1000))
	var uidSlots func(m map[string]any)
	uidSlots = func(m map[string]any) {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			switch v := m[k].(type) {
			case string:
				if k == "src" || k == "dst" || k == "uid" {
					breaks = append(breaks, func() { m[k] = ghost })
				}
			case []any:
				if (k == "seeds" || k == "uids") && len(v) > 0 {
					breaks = append(breaks, func() { v[rng.IntN(len(v))] = ghost })
				}
			case map[string]any:
				uidSlots(v)
			}
		}
	}
	uidSlots(args)
	for _, k := range slices.Sorted(maps.Keys(args)) {
		if win, ok := args[k].(map[string]any); ok {
			if a, okA := win["t_a"].(int64); okA {
				if b, okB := win["t_b"].(int64); okB {
					breaks = append(breaks, func() { win["t_a"], win["t_b"] = b, a })
					if _, strided := args["stride"]; strided {
						// over burst_detection's 2,000-bucket cap and any
						// series' memory budget
						breaks = append(breaks, func() { args["stride"], win["t_b"] = int64(1), a+1<<40+int64(rng.IntN(3000)) })
					}
				}
			}
		}
	}
	if len(breaks) == 0 {
		return false
	}
	breaks[rng.IntN(len(breaks))]()
	return true
}
