package ops_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

func init() {
	argGens["resolve_entities"] = func(rng *rand.Rand, w *world) map[string]any {
		args := map[string]any{}
		queries := []string{"a", "A", "li", "ALI", "Bob", "zz", "b", "alice b", "e"}
		if len(w.UIDs) > 0 {
			queries = append(queries, pickUID(rng, w))
		}
		if rng.IntN(5) > 0 {
			args["query"] = queries[rng.IntN(len(queries))]
		}
		if rng.IntN(3) == 0 {
			crits := []map[string]any{
				{"prop": "w", "value": int64(1)}, {"prop": "w", "value": 2.5}, {"prop": "w", "value": 1.0},
				{"prop": "name", "value": "al"}, {"prop": "w", "value": true}, {"prop": "w", "value": nil},
			}
			args["prop"] = crits[rng.IntN(len(crits))]
		}
		if rng.IntN(3) == 0 {
			args["label"] = []string{"Person", "Org", "Node", "X"}[rng.IntN(4)]
		}
		if rng.IntN(2) == 0 {
			args["limit"] = int64(1 + rng.IntN(3))
		}
		if rng.IntN(4) == 0 && len(w.Times) > 0 {
			args["at"] = w.Times[rng.IntN(len(w.Times))]
		}
		return withAsOf(rng, w, args)
	}
}

// resolveAppendixA builds the six-batch store of the reference's Appendix A.1 with
// our write ops (tts 1..6). Our store assigns ingest discriminators
// "#<seq>.<i>", so eids of the MSG events differ from the reference's.
func resolveAppendixA(t testing.TB) (*bt.MemStore, *engine.Store) {
	t.Helper()
	knows := bt.EdgeKey{Src: "a", Dst: "b", RelType: "KNOWS"}
	hist := []oracle.Batch{
		{TT: 1, Ops: []bt.Op{bt.AssertNode("a", "Person", `{"name":"Alice"}`, bt.Always)}},
		{TT: 2, Ops: []bt.Op{bt.AssertNode("b", "Person", `{"name":"Bob"}`, bt.Always)}},
		{TT: 3, Ops: []bt.Op{bt.AssertEdge(knows, `{"w":1}`, bt.Interval{Start: 10, End: 100})}},
		{TT: 4, Ops: []bt.Op{bt.Correct(bt.EdgeRef(knows), `{"w":2}`, bt.Interval{Start: 40, End: 60})}},
		{TT: 5, Ops: []bt.Op{bt.Retract(bt.EdgeRef(knows), 80)}},
		{TT: 6, Ops: []bt.Op{bt.Ingest([]bt.Event{
			{Src: "a", Dst: "c", RelType: "MSG", VtS: 20},
			{Src: "c", Dst: "a", RelType: "MSG", VtS: 30},
			{Src: "a", Dst: "c", RelType: "MSG", VtS: 35},
		}, "Node")}},
	}
	return build(t, hist)
}

// resolveOpCase is one hand-checked call: the payload (canonical JSON) or the
// error code.
type resolveOpCase struct {
	name string
	args map[string]any
	want string // canonical payload, or "" when code is set
	code string
}

func resolveRunCases(t *testing.T, op string, e *engine.Store, cases []resolveOpCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env, err := ops.Execute(context.Background(), storeSource{e}, op, tc.args)
			if tc.code != "" {
				var oe *ops.Error
				if !errors.As(err, &oe) || oe.Code != tc.code {
					t.Fatalf("want %s, got %v", tc.code, err)
				}
				if oe.Details["hint"] == nil && oe.Code != ops.ESchema {
					t.Fatalf("refusal without a hint: %v", oe)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, _ := canon.Marshal(env.Result)
			if string(got) != tc.want {
				t.Fatalf("\n got  %s\n want %s", got, tc.want)
			}
		})
	}
}

func TestResolveEntitiesAppendix(t *testing.T) {
	_, e := resolveAppendixA(t)
	// A.2 item 14: same payload, so the same result digest as the reference.
	env, err := ops.Execute(context.Background(), storeSource{e}, "resolve_entities", map[string]any{"query": "ali"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "7e8dd6a32c7011fd9596e6f971158f81e314129c594149d213480fd1f8570bdb"; env.ResultDigest != want {
		t.Fatalf("digest %s, reference %s", env.ResultDigest, want)
	}
	resolveRunCases(t, "resolve_entities", e, []resolveOpCase{
		// Appendix A.2 item 14 (same payload as the reference).
		{name: "A2-14 ali", args: map[string]any{"query": "ali"},
			want: `{"cursor":null,"rows":[{"label":"Person","match":2,"name":"Alice","uid":"a"}],"rows_total":1,"truncated":false}`},
		{name: "exact", args: map[string]any{"query": "a"},
			want: `{"cursor":null,"rows":[{"label":"Person","match":0,"name":"Alice","uid":"a"}],"rows_total":1,"truncated":false}`},
		{name: "case-insensitive uid", args: map[string]any{"query": "C"},
			want: `{"cursor":null,"rows":[{"label":"Node","match":1,"name":null,"uid":"c"},{"label":"Person","match":2,"name":"Alice","uid":"a"}],"rows_total":2,"truncated":false}`},
		{name: "label filter", args: map[string]any{"query": "o", "label": "Person"},
			want: `{"cursor":null,"rows":[{"label":"Person","match":2,"name":"Bob","uid":"b"}],"rows_total":1,"truncated":false}`},
		{name: "prop only", args: map[string]any{"prop": map[string]any{"prop": "name", "value": "BO"}},
			want: `{"cursor":null,"rows":[{"label":"Person","match":3,"name":"Bob","uid":"b"}],"rows_total":1,"truncated":false}`},
		{name: "query and prop", args: map[string]any{"query": "a", "prop": map[string]any{"prop": "name", "value": "bob"}},
			want: `{"cursor":null,"rows":[],"rows_total":0,"truncated":false}`},
		{name: "pinned before b", args: map[string]any{"query": "b", "as_of_tt": int64(1)},
			want: `{"cursor":null,"rows":[],"rows_total":0,"truncated":false}`},
		{name: "nothing to look for", args: map[string]any{}, code: ops.EInvalidArg},
		{name: "null prop value", args: map[string]any{"prop": map[string]any{"prop": "w", "value": nil}}, code: ops.EInvalidArg},
		{name: "empty query", args: map[string]any{"query": ""}, code: ops.ESchema},
	})
}

// TestResolveEntitiesCanonicalVersion: the example of the reference (§O12):
// the old name finds the uid, the row shows the latest version's name.
func TestResolveEntitiesCanonicalVersion(t *testing.T) {
	_, e := build(t, []oracle.Batch{
		{TT: 1, Ops: []bt.Op{bt.AssertNode("u-ren", "Person", `{"name":"old-handle"}`, bt.Interval{Start: 0, End: 100})}},
		{TT: 2, Ops: []bt.Op{bt.AssertNode("u-ren", "Person", `{"name":"new-handle"}`, bt.Interval{Start: 100, End: 200})}},
		{TT: 3, Ops: []bt.Op{bt.AssertNode("n42", "Thing", `{"name":42,"score":1}`, bt.Always)}},
		{TT: 4, Ops: []bt.Op{bt.AssertNode("turk", "Person", `{"name":"İzmir"}`, bt.Always)}},
	})
	resolveRunCases(t, "resolve_entities", e, []resolveOpCase{
		{name: "old name", args: map[string]any{"query": "old-handle"},
			want: `{"cursor":null,"rows":[{"label":"Person","match":2,"name":"new-handle","uid":"u-ren"}],"rows_total":1,"truncated":false}`},
		{name: "numbers never match names", args: map[string]any{"query": "42"},
			want: `{"cursor":null,"rows":[{"label":"Thing","match":1,"name":42,"uid":"n42"}],"rows_total":1,"truncated":false}`},
		{name: "numeric prop 1 equals 1.0", args: map[string]any{"prop": map[string]any{"prop": "score", "value": 1.0}},
			want: `{"cursor":null,"rows":[{"label":"Thing","match":3,"name":42,"uid":"n42"}],"rows_total":1,"truncated":false}`},
		// Go's simple case mapping: İ lowers to "i" (Python: "i̇").
		{name: "simple lower-casing", args: map[string]any{"query": "izm"},
			want: `{"cursor":null,"rows":[{"label":"Person","match":2,"name":"İzmir","uid":"turk"}],"rows_total":1,"truncated":false}`},
	})
	if strings.ToLower("İ") != "i̇" && strings.ToLower("İ") != "i" {
		t.Fatalf("unexpected lower case of U+0130: %q", strings.ToLower("İ"))
	}
}
