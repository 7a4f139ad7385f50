package sqlengine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/internal/pgtest"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

// faults are wrong statements planted in the kernels: each must make the
// equivalence test fail on the random stores, or it would not notice such
// a slip in the real ones.
var faults = []struct {
	name, op string
	stmt     *string
	old, new string
}{
	{"diff ignores node props", "diff_snapshots", &diffNodeSQL, "(a.label <> b.label OR a.props::text <> b.props::text)", "a.label <> b.label"},
	{"diff edge end inclusive", "diff_snapshots", &diffEdgeSQL, "vt_s <= $3 AND $3 < vt_e", "vt_s <= $3 AND $3 <= vt_e"},
	{"diff misses removed edges", "diff_snapshots", &diffEdgeSQL, "OR b.vid IS NULL OR", "OR"},
	{"co_active pairs a version with itself", "co_active", &coActiveQuery, "a.vid <> b.vid AND", ""},
	{"co_active overlaps admits equal ends", "co_active", allenPtr("overlaps"), "a.vt_e < b.vt_e", "a.vt_e <= b.vt_e"},
	{"co_active during admits equal starts", "co_active", allenPtr("during"), "b.vt_s < a.vt_s", "b.vt_s <= a.vt_s"},
	{"co_active before ignores gap", "co_active", allenPtr("before"), " AND b.vt_s - a.vt_e <= %[1]d", "%.0[1]d"},
	{"motifs window end inclusive", "count_temporal_motifs", &motifSQL, "e.vt_s < $3%s", "e.vt_s <= $3%s"},
	{"motifs count fragments, not occurrences", "count_temporal_motifs", &motifSQL, "AND NOT EXISTS", "AND NOT EXISTS (SELECT WHERE false) AND NOT NOT EXISTS"},
	{"motifs filter on src only", "count_temporal_motifs", &motifFilterSQL, " AND e.dst = ANY($4)", ""},
	{"paths miss edges begun before the window", "temporal_paths", &walkSQL, "e.vt_e > $2", "e.vt_e > $2 AND e.vt_s >= $2"},
	{"paths see no carved fragment", "temporal_paths", &walkSQL, "EXISTS (SELECT 1", "NOT EXISTS (SELECT 1"},
	// (an inclusive window end would be masked: the kernel re-tests each
	// event's start against the window)
	{"aggregate window start exclusive", "aggregate_events", &aggSQL, "e.vt_s >= $2", "e.vt_s > $2"},
	{"aggregate rel_types test inverted", "aggregate_events", &aggSQL, "$4::text[] IS NULL OR ", "$4::text[] IS NOT NULL OR "},
	{"aggregate endpoint filter either on src only", "aggregate_events", endpointPtr("either"), " OR e.dst = ANY($5)", ""},
	{"aggregate counts fragments", "aggregate_events", &aggSQL, "AND NOT EXISTS", "AND NOT EXISTS (SELECT WHERE false) AND NOT NOT EXISTS"},
	{"aggregate durations stop at the first fragment", "aggregate_events", &aggChainSQL, "e.tt_s <= $1 AND $1 < e.tt_e AND NOT", "false AND NOT"},
	{"aggregate labels ignore belief", "aggregate_events", &aggLabelSQL, "tt_s <= $1 AND $1 < tt_e", "tt_s <= $1"},
	{"resolve misses names", "resolve_entities", &resolveTextSQL, "= 'string'", "= 'number'"},
	{"resolve prop by value", "resolve_entities", &resolvePropSQL, "w.props ? $2", "w.props ->> $2 IS NULL"},
	{"resolve at misses versions ending soon after", "resolve_entities", &resolveAtSQL, "$%[1]d < w.vt_e", "$%[1]d + 5 < w.vt_e"},
}

// allenPtr is a pointer to a copy of one relation's predicate, written
// back into allenSQL by the fault test.
func allenPtr(rel string) *string {
	s := allenSQL[rel]
	allenFault[&s] = rel
	return &s
}

var allenFault = map[*string]string{}

// endpointPtr is a pointer to a copy of one role's endpoint filter,
// written back into aggEndpointSQL by the fault test.
func endpointPtr(role string) *string {
	s := aggEndpointSQL[role]
	endpointFault[&s] = role
	return &s
}

var endpointFault = map[*string]string{}

func TestPlantedFaultsFail(t *testing.T) {
	c := pgtest.Shared(t)
	ctx := context.Background()
	type store struct {
		nat, sql ops.Backend
		calls    []map[string]any
	}
	var stores []store
	for seed := range uint64(10) {
		url := schemaURL(c, fmt.Sprintf("fault_%d", seed))
		rng := rand.New(rand.NewPCG(seed, 7))
		hist := oracle.RandomHistory(rng, 12)
		s := writeHistory(t, url, hist)
		defer s.Close()
		e, err := Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		var cs []map[string]any
		for _, call := range calls(rng, hist) {
			for _, f := range faults {
				if call["op"] == f.op {
					cs = append(cs, call)
					break
				}
			}
		}
		stores = append(stores, store{ops.NativeBackend{Src: native{s}}, e, cs})
	}
	// Unplanted, every call agrees (or the faults prove nothing).
	for _, s := range stores {
		for _, call := range s.calls {
			if _, err := compare(ctx, s.nat, s.sql, call); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, f := range faults {
		t.Run(f.name, func(t *testing.T) {
			orig := *f.stmt
			planted := strings.Replace(orig, f.old, f.new, 1)
			if planted == orig {
				t.Fatalf("%q is not in the statement", f.old)
			}
			set := func(s string) {
				*f.stmt = s
				if rel, ok := allenFault[f.stmt]; ok {
					allenSQL[rel] = s
				}
				if role, ok := endpointFault[f.stmt]; ok {
					aggEndpointSQL[role] = s
				}
			}
			set(planted)
			defer set(orig)
			caught := 0
			for _, s := range stores {
				for _, call := range s.calls {
					if call["op"] != f.op {
						continue
					}
					if _, err := compare(ctx, s.nat, s.sql, call); err != nil {
						caught++
					}
				}
			}
			if caught == 0 {
				t.Fatal("the planted fault went unnoticed")
			}
			t.Logf("%d calls differ", caught)
		})
	}
}
