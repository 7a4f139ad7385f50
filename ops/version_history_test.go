package ops_test

import (
	"context"
	"math/rand/v2"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

func init() {
	argGens["version_history"] = func(rng *rand.Rand, w *world) map[string]any {
		args := map[string]any{"kind": []string{"node", "edge"}[rng.IntN(2)], "window": pickWindow(rng)}
		if rng.IntN(3) == 0 {
			args["window"] = map[string]any{"t_a": int64(0), "t_b": int64(1000)}
		}
		if rng.IntN(4) > 0 {
			args["belief"] = []string{"current", "superseded", "all"}[rng.IntN(3)]
		}
		if rng.IntN(3) == 0 {
			args["change"] = []string{"correction", "evolution", "any"}[rng.IntN(3)]
		}
		if rng.IntN(5) == 0 {
			args["rel_types"] = []any{w.Rels[rng.IntN(len(w.Rels))]}
		}
		if rng.IntN(5) == 0 {
			args["uids"] = []any{pickUID(rng, w)}
		}
		if rng.IntN(12) == 0 {
			args["eid"] = "0123456789abcdef01234567"
		}
		if rng.IntN(2) == 0 {
			args["limit"] = int64(1 + rng.IntN(4))
		}
		withProvenanceArgs(rng, args)
		return withAsOf(rng, w, args)
	}
}

const (
	vhOpen = `4611686018427387904`
	// The a→b KNOWS identity of Appendix A (same eid as the reference).
	vhKnows = `"disc":"","dst":"b","eid":"46a4b5c81e461c86b9c87718","props":{"w":1},"rel_type":"KNOWS","src":"a"`
	// The corrected part of it: props w 2 over [40, 60).
	vhKnows2 = `"disc":"","dst":"b","eid":"46a4b5c81e461c86b9c87718","props":{"w":2},"rel_type":"KNOWS","src":"a"`
)

func TestVersionHistoryAppendix(t *testing.T) {
	_, e := resolveAppendixA(t)
	all := map[string]any{"t_a": int64(0), "t_b": int64(1000)}
	resolveRunCases(t, "version_history", e, []resolveOpCase{
		// A.2 item 16: the two closed KNOWS rows; ours also say who closed
		// them: the correction at tt 4 (corrected) and the retract at tt 5
		// (evolved) — the reference cannot tell them apart.
		{name: "A2-16 superseded", args: map[string]any{"kind": "edge", "window": all, "belief": "superseded"},
			want: `{"correction_total":1,"cursor":null,"evolution_total":1,"rows":[` +
				`{"change":"correction","closed_by":"correct","created_by":"assert_edge",` + vhKnows + `,"tt_e":4,"tt_s":3,"vid":"77fabe24e9014424f1b6908d","vt_e":100,"vt_s":10},` +
				`{"change":"evolution","closed_by":"retract","created_by":"correct",` + vhKnows + `,"tt_e":5,"tt_s":4,"vid":"c80901406b780455b438a7dc","vt_e":100,"vt_s":60}` +
				`],"rows_total":2,"truncated":false}`},
		{name: "corrections only", args: map[string]any{"kind": "edge", "window": all, "belief": "all", "change": "correction"},
			want: `{"correction_total":1,"cursor":null,"evolution_total":0,"rows":[` +
				`{"change":"correction","closed_by":"correct","created_by":"assert_edge",` + vhKnows + `,"tt_e":4,"tt_s":3,"vid":"77fabe24e9014424f1b6908d","vt_e":100,"vt_s":10}` +
				`],"rows_total":1,"truncated":false}`},
		// A.2 item 16 pinned at 3: nothing was superseded yet.
		{name: "superseded as of 3", args: map[string]any{"kind": "edge", "window": all, "belief": "superseded", "as_of_tt": int64(3)},
			want: `{"correction_total":0,"cursor":null,"evolution_total":0,"rows":[],"rows_total":0,"truncated":false}`},
		// A.2 item 17: as of 4 the [60,100) row is reported open (its
		// closing at 5 is censored: tt_e 2^62, closed_by and change null).
		{name: "A2-17 all as of 4", args: map[string]any{"kind": "edge", "window": all, "belief": "all", "rel_types": []any{"KNOWS"}, "as_of_tt": int64(4)},
			want: `{"correction_total":1,"cursor":null,"evolution_total":0,"rows":[` +
				`{"change":"correction","closed_by":"correct","created_by":"assert_edge",` + vhKnows + `,"tt_e":4,"tt_s":3,"vid":"77fabe24e9014424f1b6908d","vt_e":100,"vt_s":10},` +
				`{"change":null,"closed_by":null,"created_by":"correct",` + vhKnows2 + `,"tt_e":` + vhOpen + `,"tt_s":4,"vid":"5b6446ed6867f4b7ea153760","vt_e":60,"vt_s":40},` +
				`{"change":null,"closed_by":null,"created_by":"correct",` + vhKnows + `,"tt_e":` + vhOpen + `,"tt_s":4,"vid":"76108deea01caa87c5272824","vt_e":40,"vt_s":10},` +
				`{"change":null,"closed_by":null,"created_by":"correct",` + vhKnows + `,"tt_e":` + vhOpen + `,"tt_s":4,"vid":"c80901406b780455b438a7dc","vt_e":100,"vt_s":60}` +
				`],"rows_total":4,"truncated":false}`},
		{name: "nodes current", args: map[string]any{"kind": "node", "window": all, "uids": []any{"c"}},
			want: `{"correction_total":0,"cursor":null,"evolution_total":0,"rows":[` +
				`{"change":null,"closed_by":null,"created_by":"ingest","label":"Node","props":null,"tt_e":` + vhOpen + `,"tt_s":6,"uid":"c","vid":"9d986a4a732e81e828e263cb","vt_e":` + vhOpen + `,"vt_s":20}` +
				`],"rows_total":1,"truncated":false}`},
		{name: "rel_types with nodes", args: map[string]any{"kind": "node", "window": all, "rel_types": []any{"R"}}, code: ops.EInvalidArg},
		{name: "unknown uid: no rows", args: map[string]any{"kind": "edge", "window": all, "uids": []any{"zz"}}, want: `{"correction_total":0,"cursor":null,"evolution_total":0,"rows":[],"rows_total":0,"truncated":false}`},
		{name: "uid unknown as of 1: no rows", args: map[string]any{"kind": "node", "window": all, "uids": []any{"b"}, "as_of_tt": int64(1)}, want: `{"correction_total":0,"cursor":null,"evolution_total":0,"rows":[],"rows_total":0,"truncated":false}`},
		{name: "corrections imply superseded", args: map[string]any{"kind": "edge", "window": all, "change": "correction"},
			want: `{"correction_total":1,"cursor":null,"evolution_total":0,"rows":[` +
				`{"change":"correction","closed_by":"correct","created_by":"assert_edge",` + vhKnows + `,"tt_e":4,"tt_s":3,"vid":"77fabe24e9014424f1b6908d","vt_e":100,"vt_s":10}` +
				`],"rows_total":1,"truncated":false}`},
		{name: "current corrections", args: map[string]any{"kind": "edge", "window": all, "change": "correction", "belief": "current"}, code: ops.EInvalidArg},
		{name: "bad belief", args: map[string]any{"kind": "edge", "window": all, "belief": "maybe"}, code: ops.ESchema},
		{name: "inverted window", args: map[string]any{"kind": "edge", "window": map[string]any{"t_a": int64(5), "t_b": int64(5)}}, code: ops.EInvalidArg},
	})
}

// TestVersionHistoryCorrectionCount: the metamorphic properties of the
// reference (§11.2): an uncorrected store has no corrected rows; one
// correction that carves a version leaves exactly one corrected row; a
// pinned result does not change when the correction is written later.
func TestVersionHistoryCorrectionCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	corrected := 0
	for i := range 40 {
		var hist []oracle.Batch
		for b := range 1 + rng.IntN(6) {
			evs := make([]bt.Event, 1+rng.IntN(5))
			for j := range evs {
				evs[j] = bt.Event{Src: "a", Dst: []string{"b", "c"}[rng.IntN(2)], RelType: "R", VtS: bt.Time(rng.IntN(100))}
			}
			op := bt.Ingest(evs, "Node")
			if rng.IntN(2) == 0 {
				op = bt.AssertEdge(bt.EdgeKey{Src: "x", Dst: "y", RelType: "S", Disc: versionHistoryItoa(b)}, `{"w":1}`, bt.Interval{Start: 0, End: 100})
			}
			hist = append(hist, oracle.Batch{TT: bt.Time(10 * (b + 1)), Ops: []bt.Op{op}})
		}
		args := map[string]any{"kind": "edge", "window": map[string]any{"t_a": int64(0), "t_b": int64(1000)}, "belief": "all", "change": "correction"}
		_, e := build(t, hist)
		env, err := ops.Execute(context.Background(), storeSource{e}, "version_history", args)
		if err != nil {
			t.Fatal(err)
		}
		if n := env.Result["rows_total"].(int64); n != 0 {
			t.Fatalf("case %d: uncorrected store has %d corrected rows", i, n)
		}
		pinned := map[string]any{"kind": "edge", "window": args["window"], "belief": "all", "as_of_tt": hist[len(hist)-1].TT}
		before, err := ops.Execute(context.Background(), storeSource{e}, "version_history", pinned)
		if err != nil {
			t.Fatal(err)
		}
		last := hist[len(hist)-1].TT
		target := bt.EdgeKey{Src: "x", Dst: "y", RelType: "S", Disc: "0"}
		if _, ok := e.Reader(bt.OpenEnd).Node("x"); !ok {
			continue
		}
		hist = append(hist, oracle.Batch{TT: last + 10, Ops: []bt.Op{bt.Correct(bt.EdgeRef(target), `{"w":2}`, bt.Interval{Start: 40, End: 60})}})
		_, e2 := build(t, hist)
		if e2.Batches() == e.Batches() {
			continue // the edge with disc "0" was never asserted
		}
		env, err = ops.Execute(context.Background(), storeSource{e2}, "version_history", args)
		if err != nil {
			t.Fatal(err)
		}
		if n := env.Result["rows_total"].(int64); n != 1 || env.Result["correction_total"].(int64) != 1 {
			t.Fatalf("case %d: one carving correction gave %d corrected rows: %v", i, n, env.Result)
		}
		after, err := ops.Execute(context.Background(), storeSource{e2}, "version_history", pinned)
		if err != nil {
			t.Fatal(err)
		}
		if before.ResultDigest != after.ResultDigest {
			t.Fatalf("case %d: pinned result changed after a later correction", i)
		}
		corrected++
	}
	if corrected < 5 {
		t.Fatalf("only %d cases wrote a correction", corrected)
	}
}

func versionHistoryItoa(i int) string { return string(rune('0' + i)) }

// withProvenanceArgs adds the authority filter and provenance: true to
// some calls.
func withProvenanceArgs(rng *rand.Rand, args map[string]any) {
	if rng.IntN(5) == 0 {
		var pick []any
		for _, a := range []string{"user", "model", "import", "system"} {
			if rng.IntN(4) > 0 {
				pick = append(pick, a)
			}
		}
		if pick == nil {
			pick = []any{} // keeps nothing
		}
		args["authority"] = pick
	}
	if rng.IntN(3) == 0 {
		args["provenance"] = true
	}
}
