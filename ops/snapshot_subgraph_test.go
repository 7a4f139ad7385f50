package ops_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

// snapshotTime draws an instant that often hits interesting times.
func snapshotTime(rng *rand.Rand, w *world) bt.Time {
	if len(w.Times) > 0 && rng.IntN(2) == 0 {
		return w.Times[rng.IntN(len(w.Times))]
	}
	return bt.Time(rng.IntN(150))
}

// snapshotSeedList draws 1..3 seeds (sometimes an unknown one).
func snapshotSeedList(rng *rand.Rand, w *world) []any {
	seeds := []any{pickUID(rng, w)}
	for range rng.IntN(3) {
		seeds = append(seeds, pickUID(rng, w))
	}
	return seeds
}

func snapshotRelTypes(rng *rand.Rand) (any, bool) {
	switch rng.IntN(8) {
	case 0:
		return []any{"R"}, true
	case 1:
		return []any{"S", "R"}, true
	case 2:
		return []any{}, true
	case 3:
		return nil, true
	}
	return nil, false
}

func init() {
	argGens["snapshot_subgraph"] = func(rng *rand.Rand, w *world) map[string]any {
		args := map[string]any{"seeds": snapshotSeedList(rng, w), "t_valid": snapshotTime(rng, w)}
		if rng.IntN(4) > 0 {
			args["hops"] = int64(rng.IntN(4))
		}
		if rt, ok := snapshotRelTypes(rng); ok {
			args["rel_types"] = rt
		}
		if rng.IntN(3) == 0 {
			args["limit"] = int64(1 + rng.IntN(4))
		}
		if rng.IntN(40) == 0 {
			args["hops"] = int64(4) // E_SCHEMA
		}
		return withAsOf(rng, w, args)
	}
}

// snapshotGoldenStore builds the six-batch store of the reference's
// Appendix A.1 (tts 1..6). Differences from the reference: ingested events
// get store-assigned discriminators ("#<batch>.<i>"), so the MSG eids differ;
// the KNOWS identity (disc "") and every vid derived from it are the same.
func snapshotGoldenStore(t *testing.T) *engine.Store {
	t.Helper()
	_, e := build(t, snapshotGoldenHistory())
	return e
}

var snapshotKnows = bt.EdgeKey{Src: "a", Dst: "b", RelType: "KNOWS"}

func snapshotGoldenHistory() []oracle.Batch {
	return []oracle.Batch{
		{TT: 1, Ops: []bt.Op{bt.AssertNode("a", "Person", `{"name":"Alice"}`, bt.Always)}},
		{TT: 2, Ops: []bt.Op{bt.AssertNode("b", "Person", `{"name":"Bob"}`, bt.Always)}},
		{TT: 3, Ops: []bt.Op{bt.AssertEdge(snapshotKnows, `{"w":1}`, bt.Interval{Start: 10, End: 100})}},
		{TT: 4, Ops: []bt.Op{bt.Correct(bt.EdgeRef(snapshotKnows), `{"w":2}`, bt.Interval{Start: 40, End: 60})}},
		{TT: 5, Ops: []bt.Op{bt.Retract(bt.EdgeRef(snapshotKnows), 80)}},
		{TT: 6, Ops: []bt.Op{bt.Ingest([]bt.Event{
			{Src: "a", Dst: "c", RelType: "MSG", VtS: 20},
			{Src: "c", Dst: "a", RelType: "MSG", VtS: 30},
			{Src: "a", Dst: "c", RelType: "MSG", VtS: 35},
		}, "Node")}},
	}
}

// snapshotMsgEID is the eid of the golden store's i-th ingested MSG event.
func snapshotMsgEID(t *testing.T, e *engine.Store, i int64) string {
	t.Helper()
	k, ok := e.AutoEdge(6, i)
	if !ok {
		t.Fatalf("no auto edge %d in batch 6", i)
	}
	return engine.EID(k)
}

// snapshotCall runs one call and returns its canonical payload and digest,
// or the refusal.
func snapshotCall(t *testing.T, e *engine.Store, op string, args map[string]any) (string, string, *ops.Error) {
	t.Helper()
	env, err := ops.Execute(context.Background(), storeSource{e}, op, args)
	if err != nil {
		var oe *ops.Error
		if !errors.As(err, &oe) {
			t.Fatalf("%s(%v): %v is not an *ops.Error", op, args, err)
		}
		return "", "", oe
	}
	b, err := canon.Marshal(env.Result)
	if err != nil {
		t.Fatal(err)
	}
	// Every payload field is declared in the result schema, with its type.
	spec, _ := ops.Lookup(op)
	if vs := spec.Result.Validate(env.Result); len(vs) > 0 {
		t.Fatalf("%s payload does not fit its result schema: %s %s (%s)", op, vs[0].Path, vs[0].Message, b)
	}
	return string(b), env.ResultDigest, nil
}

// snapshotCase is one worked example: exact payload (or reference digest),
// or the refusal code and path.
type snapshotCase struct {
	name   string
	args   map[string]any
	want   string // canonical payload ("" to skip)
	digest string // reference digest ("" to skip)
	code   string // expected refusal
	path   string // expected details.path of the refusal
}

func snapshotRunCases(t *testing.T, e *engine.Store, op string, cases []snapshotCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, digest, oe := snapshotCall(t, e, op, tc.args)
			if tc.code != "" {
				if oe == nil || oe.Code != tc.code {
					t.Fatalf("got %v / %s, want refusal %s", oe, got, tc.code)
				}
				if tc.path != "" && oe.Details["path"] != tc.path {
					t.Fatalf("refusal path %v, want %s (%v)", oe.Details["path"], tc.path, oe)
				}
				return
			}
			if oe != nil {
				t.Fatalf("refused: %v", oe)
			}
			if tc.want != "" && got != tc.want {
				t.Fatalf("payload\n got  %s\n want %s", got, tc.want)
			}
			if tc.digest != "" && digest != tc.digest {
				t.Fatalf("digest %s, want the reference's %s; payload %s", digest, tc.digest, got)
			}
		})
	}
}

func TestSnapshotSubgraphExamples(t *testing.T) {
	e := snapshotGoldenStore(t)
	msg0 := snapshotMsgEID(t, e, 0)
	seeds := func(s ...any) []any { return s }
	snapshotRunCases(t, e, "snapshot_subgraph", []snapshotCase{
		{name: "A.2#3", args: map[string]any{"seeds": seeds("a"), "hops": int64(1), "t_valid": int64(50)},
			want:   `{"cursor":null,"nodes":[{"hop":0,"label":"Person","uid":"a"},{"hop":1,"label":"Person","uid":"b"}],"nodes_total":2,"nodes_truncated":false,"rows":[{"dst":"b","eid":"46a4b5c81e461c86b9c87718","rel_type":"KNOWS","src":"a","vid":"5b6446ed6867f4b7ea153760","vt_e":60,"vt_s":40}],"rows_total":1,"truncated":false}`,
			digest: "2bdb14638dd88a1e93986b1272ef00540e8238c705d915de5d81e6dac4431aa6"},
		{name: "A.2#3 as of 3", args: map[string]any{"seeds": seeds("a"), "hops": int64(1), "t_valid": int64(50), "as_of_tt": int64(3)},
			digest: "03f91381b74d20a574ecf38fc86e7960f5baff0f84ba2a5743024b580ab9405f"},
		// c has a node version from 20 on: at 10 the seed is dropped.
		{name: "seed without a valid node version", args: map[string]any{"seeds": seeds("c"), "t_valid": int64(10)},
			want: `{"cursor":null,"nodes":[],"nodes_total":0,"nodes_truncated":false,"rows":[],"rows_total":0,"truncated":false}`},
		{name: "two hops, undirected", args: map[string]any{"seeds": seeds("c"), "hops": int64(2), "t_valid": int64(20)},
			want: `{"cursor":null,"nodes":[{"hop":0,"label":"Node","uid":"c"},{"hop":1,"label":"Person","uid":"a"},{"hop":2,"label":"Person","uid":"b"}],"nodes_total":3,"nodes_truncated":false,"rows":[` +
				`{"dst":"b","eid":"46a4b5c81e461c86b9c87718","rel_type":"KNOWS","src":"a","vid":"76108deea01caa87c5272824","vt_e":40,"vt_s":10},` +
				`{"dst":"c","eid":"` + msg0 + `","rel_type":"MSG","src":"a","vid":"` + engine.VID(msg0, 6, 20) + `","vt_e":21,"vt_s":20}],"rows_total":2,"truncated":false}`},
		{name: "rel_types restricts traversal", args: map[string]any{"seeds": seeds("c"), "hops": int64(2), "t_valid": int64(20), "rel_types": []any{"KNOWS"}},
			want: `{"cursor":null,"nodes":[{"hop":0,"label":"Node","uid":"c"}],"nodes_total":1,"nodes_truncated":false,"rows":[],"rows_total":0,"truncated":false}`},
		{name: "empty rel_types: no edges", args: map[string]any{"seeds": seeds("a", "b"), "hops": int64(0), "t_valid": int64(20), "rel_types": []any{}},
			want: `{"cursor":null,"nodes":[{"hop":0,"label":"Person","uid":"a"},{"hop":0,"label":"Person","uid":"b"}],"nodes_total":2,"nodes_truncated":false,"rows":[],"rows_total":0,"truncated":false}`},
		{name: "hops 0: induced edges among the seeds", args: map[string]any{"seeds": seeds("b", "a", "a"), "hops": int64(0), "t_valid": int64(70)},
			want: `{"cursor":null,"nodes":[{"hop":0,"label":"Person","uid":"a"},{"hop":0,"label":"Person","uid":"b"}],"nodes_total":2,"nodes_truncated":false,"rows":[{"dst":"b","eid":"46a4b5c81e461c86b9c87718","rel_type":"KNOWS","src":"a","vid":"33e962a0d05675535beef113","vt_e":80,"vt_s":60}],"rows_total":1,"truncated":false}`},
		{name: "node list cut: truncated without cursor", args: map[string]any{"seeds": seeds("a"), "t_valid": int64(50), "limit": int64(1)},
			want: `{"cursor":null,"nodes":[{"hop":0,"label":"Person","uid":"a"}],"nodes_total":2,"nodes_truncated":true,"rows":[{"dst":"b","eid":"46a4b5c81e461c86b9c87718","rel_type":"KNOWS","src":"a","vid":"5b6446ed6867f4b7ea153760","vt_e":60,"vt_s":40}],"rows_total":1,"truncated":true}`},
		{name: "retracted at 80", args: map[string]any{"seeds": seeds("a"), "t_valid": int64(85)},
			want: `{"cursor":null,"nodes":[{"hop":0,"label":"Person","uid":"a"}],"nodes_total":1,"nodes_truncated":false,"rows":[],"rows_total":0,"truncated":false}`},
		// A seed unknown at the belief time reaches nothing (not E_NOT_FOUND).
		{name: "unknown seed reaches nothing", args: map[string]any{"seeds": seeds("zz", "a"), "t_valid": int64(50)},
			want: `{"cursor":null,"nodes":[{"hop":0,"label":"Person","uid":"a"},{"hop":1,"label":"Person","uid":"b"}],"nodes_total":2,"nodes_truncated":false,"rows":[{"dst":"b","eid":"46a4b5c81e461c86b9c87718","rel_type":"KNOWS","src":"a","vid":"5b6446ed6867f4b7ea153760","vt_e":60,"vt_s":40}],"rows_total":1,"truncated":false}`},
		{name: "seed unknown at the belief time", args: map[string]any{"seeds": seeds("c"), "t_valid": int64(50), "as_of_tt": int64(5)},
			want: `{"cursor":null,"nodes":[],"nodes_total":0,"nodes_truncated":false,"rows":[],"rows_total":0,"truncated":false}`},
		{name: "hops over 3", args: map[string]any{"seeds": seeds("a"), "t_valid": int64(50), "hops": int64(4)}, code: ops.ESchema, path: "/hops"},
		{name: "no seeds: an empty answer", args: map[string]any{"seeds": seeds(), "t_valid": int64(50)},
			want: `{"cursor":null,"nodes":[],"nodes_total":0,"nodes_truncated":false,"rows":[],"rows_total":0,"truncated":false}`},
	})
}

// A larger hop count reaches a superset of nodes and induced edges.
func TestSnapshotSubgraphHopsMonotone(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for i := range 150 {
		m, e := build(t, oracle.RandomHistory(rng, 2+rng.IntN(8)))
		if len(m.UIDs) == 0 {
			continue
		}
		w := newWorld(rng, m)
		base := map[string]any{"seeds": []any{w.UIDs[rng.IntN(len(w.UIDs))]}, "t_valid": snapshotTime(rng, w), "limit": int64(10_000)}
		var prevNodes, prevRows map[string]bool
		for h := range int64(4) {
			a := clone(base)
			a["hops"] = h
			env, err := ops.Execute(context.Background(), storeSource{e}, "snapshot_subgraph", a)
			if err != nil {
				t.Fatal(err)
			}
			nodes, rows := map[string]bool{}, map[string]bool{}
			for _, n := range env.Result["nodes"].([]any) {
				nm := n.(map[string]any)
				nodes[nm["uid"].(string)] = true
				if nm["hop"].(int64) > h {
					t.Fatalf("case %d: hop %v > hops %d", i, nm["hop"], h)
				}
			}
			for _, r := range env.Result["rows"].([]any) {
				rows[r.(map[string]any)["vid"].(string)] = true
			}
			for k := range prevNodes {
				if !nodes[k] {
					t.Fatalf("case %d: node %s reached with %d hops but not %d", i, k, h-1, h)
				}
			}
			for k := range prevRows {
				if !rows[k] {
					t.Fatalf("case %d: edge %s induced with %d hops but not %d", i, k, h-1, h)
				}
			}
			prevNodes, prevRows = nodes, rows
		}
	}
}
