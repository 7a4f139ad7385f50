package ops_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/ops"
)

// Boundary errors seen by the calendar mode, in CI: a kernel that makes an
// inclusive duration bound exclusive (or the reverse), or reads UTC where
// the call gave an offset, answers on integer µs exactly what the correct
// kernel answers for a shifted argument (gap < d is gap <= d-1; an offset
// ignored is offset 0). So the calendar stores tell such a bug apart
// wherever the correct answers for the two arguments differ: each shift
// below must change the answer on some cases, or the mode has no power
// against that bug. Errors no argument can express (a bucket's edge, the
// last µs of a local day) are the source mutants of scripts/mutants.

// boundaryShift returns the arguments a boundary error would answer for,
// or nil when the call has no such bound.
type boundaryShift struct {
	op, name string
	shift    func(args map[string]any) map[string]any
}

// intShift edits the integer at path (keys; a list on the way is walked
// item by item) by
// d, keeping it >= min; nil when no such integer is there.
func intShift(path string, d, lo int64) func(map[string]any) map[string]any {
	keys := strings.Split(path, ".")
	return func(args map[string]any) map[string]any {
		out := deepClone(args)
		changed := false
		var walk func(v any, ks []string)
		walk = func(v any, ks []string) {
			switch x := v.(type) {
			case []any:
				for _, e := range x {
					walk(e, ks)
				}
			case map[string]any:
				if len(ks) == 1 {
					if n, ok := x[ks[0]].(int64); ok && n+d >= lo && n+d != n {
						x[ks[0]], changed = n+d, true
					}
					return
				}
				walk(x[ks[0]], ks[1:])
			}
		}
		walk(out, keys)
		if !changed {
			return nil
		}
		return out
	}
}

// toUTC sets every non-zero utc_offset_minutes at path to 0.
func toUTC(path string) func(map[string]any) map[string]any {
	keys := strings.Split(path, ".")
	return func(args map[string]any) map[string]any {
		out := deepClone(args)
		changed := false
		var walk func(v any, ks []string)
		walk = func(v any, ks []string) {
			switch x := v.(type) {
			case []any:
				for _, e := range x {
					walk(e, ks)
				}
			case map[string]any:
				if len(ks) == 1 {
					if n, ok := x[ks[0]].(int64); ok && n != 0 {
						x[ks[0]], changed = int64(0), true
					}
					return
				}
				walk(x[ks[0]], ks[1:])
			}
		}
		walk(out, keys)
		if !changed {
			return nil
		}
		return out
	}
}

func deepClone(m map[string]any) map[string]any {
	b, err := canon.Marshal(m)
	if err != nil {
		panic(err)
	}
	v, err := canon.Parse(b)
	if err != nil {
		panic(err)
	}
	return v.(map[string]any)
}

var boundaryShifts = []boundaryShift{
	{"temporal_pattern", "same_day in UTC, not the offset", toUTC("same_day.utc_offset_minutes")},
	{"temporal_pattern", "within excludes its bound", intShift("within", -1, 0)},
	{"temporal_pattern", "min_gap excludes its bound", intShift("min_gap", 1, 0)},
	{"temporal_pattern", "span excludes its bound", intShift("span", -1, 0)},
	{"aggregate_events", "calendar bucket or cycle in UTC", toUTC("group_by.utc_offset_minutes")},
	{"aggregate_events", "session or return gap bound exclusive", intShift("aggregates.gap", -1, 0)},
	{"aggregate_events", "span window closed at its end", intShift("aggregates.span", 1, 1)},
	{"graph_metric_timeseries", "cycle in UTC, not the offset", toUTC("cycle.utc_offset_minutes")},
	{"count_temporal_motifs", "delta excludes its bound", intShift("delta", -1, 1)},
	{"find_temporal_motif_instances", "delta excludes its bound", intShift("delta", -1, 1)},
	{"temporal_reachability", "max wait excludes its bound", intShift("delta_max_wait", -1, 1)},
	{"longest_temporal_path", "max wait excludes its bound", intShift("delta_max_wait", -1, 1)},
	{"co_active", "Allen gap excludes its bound", intShift("allen_relation.gap", -1, 1)},
}

func TestCalendarBoundaryErrorsAreSeen(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 60
	}
	byOp := map[string][]boundaryShift{}
	for _, s := range boundaryShifts {
		byOp[s.op] = append(byOp[s.op], s)
	}
	var lines []string
	for op, shifts := range byOp {
		gen, ok := calArgs[op]
		spec, known := ops.Lookup(op)
		if !ok || !known {
			t.Fatalf("%s: not in the calendar mode", op)
		}
		rng := rand.New(rand.NewPCG(uint64(len(op)), 0xb0d))
		applied, seen := make([]int, len(shifts)), make([]int, len(shifts))
		call := func(e storeSource, args map[string]any) (string, bool) {
			a := deepClone(args)
			if spec.Paged {
				a["limit"] = int64(10_000)
			}
			env, err := ops.Execute(context.Background(), e, op, a)
			if err != nil {
				return "", false
			}
			b, _ := canon.Marshal(env.Result)
			return string(b), true
		}
		for range n {
			h := calHistory(rng)
			_, e := build(t, h)
			args := gen(rng, calDataOf(h))
			want, ok := call(storeSource{e}, args)
			if !ok {
				continue
			}
			for i, s := range shifts {
				shifted := s.shift(args)
				if shifted == nil {
					continue
				}
				got, ok := call(storeSource{e}, shifted)
				if !ok {
					continue
				}
				applied[i]++
				if got != want {
					seen[i]++
				}
			}
		}
		for i, s := range shifts {
			lines = append(lines, fmt.Sprintf("%-30s %-40s seen on %3d of %3d cases", op, s.name, seen[i], applied[i]))
			if seen[i] == 0 {
				t.Errorf("%s: %q is never seen (%d cases with the bound): the calendar stores cannot tell it apart", op, s.name, applied[i])
			}
		}
	}
	sort.Strings(lines)
	t.Logf("boundary errors in the calendar mode:\n%s", strings.Join(lines, "\n"))
}
