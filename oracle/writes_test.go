package oracle_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/oracle"
	"pgregory.net/rapid"
)

// genHistory draws batches of every write op over a few uids and times, so
// that ops hit what earlier ops (of the same batch too) wrote: asserts that
// carve, retractions at times inside versions, corrections over part of a
// version or across several, ingests with store-assigned and explicit
// discriminators (some taken), and refs to store-assigned discriminators
// of earlier and current batches.
type genHistory struct {
	t    *rapid.T
	uids []string
	keys []bt.EdgeKey
}

func (g *genHistory) time() bt.Time {
	return rapid.Int64Range(0, 60).Draw(g.t, "t")
}

func (g *genHistory) interval() bt.Interval {
	s := g.time()
	if rapid.IntRange(0, 5).Draw(g.t, "open") == 0 {
		return bt.Interval{Start: s, End: bt.OpenEnd}
	}
	return bt.Interval{Start: s, End: s + rapid.Int64Range(1, 30).Draw(g.t, "len")}
}

func (g *genHistory) props() bt.Props {
	return rapid.SampledFrom([]bt.Props{"", `{"w":1}`, `{"w":2}`, `{"name":"x"}`, `{"w":"one"}`}).Draw(g.t, "props")
}

func (g *genHistory) key() bt.EdgeKey {
	if len(g.keys) > 0 && rapid.IntRange(0, 2).Draw(g.t, "reuse") > 0 {
		return rapid.SampledFrom(g.keys).Draw(g.t, "key")
	}
	k := bt.EdgeKey{Src: rapid.SampledFrom(g.uids).Draw(g.t, "src"), Dst: rapid.SampledFrom(g.uids).Draw(g.t, "dst"),
		RelType: rapid.SampledFrom([]string{"R", "S"}).Draw(g.t, "rel"), Disc: rapid.SampledFrom([]string{"", "x"}).Draw(g.t, "disc")}
	g.keys = append(g.keys, k)
	return k
}

func (g *genHistory) ref() bt.Ref {
	if rapid.Bool().Draw(g.t, "node") {
		return bt.NodeRef(rapid.SampledFrom(g.uids).Draw(g.t, "uid"))
	}
	if len(g.keys) > 0 {
		return bt.EdgeRef(rapid.SampledFrom(g.keys).Draw(g.t, "ref_key"))
	}
	return bt.EdgeRef(g.key())
}

func (g *genHistory) op(seq int) bt.Op {
	switch rapid.IntRange(0, 6).Draw(g.t, "kind") {
	case 0:
		return bt.AssertNode(rapid.SampledFrom(g.uids).Draw(g.t, "uid"), rapid.SampledFrom([]string{"P", "Q"}).Draw(g.t, "label"), g.props(), g.interval())
	case 1:
		return bt.AssertEdge(g.key(), g.props(), g.interval())
	case 2:
		return bt.Retract(g.ref(), rapid.Int64Range(0, 40).Draw(g.t, "retract_t"))
	case 3:
		return bt.Correct(g.ref(), g.props(), g.interval())
	case 4, 5:
		// A moving correction: the fact believed over one interval really
		// held over another (often free, sometimes still believed there).
		to := g.interval()
		if rapid.Bool().Draw(g.t, "far") {
			to.Start, to.End = to.Start+70, min(to.End+70, bt.OpenEnd)
		}
		from := g.interval()
		if rapid.Bool().Draw(g.t, "from_open") {
			from.End = bt.OpenEnd // meets any version that ends after its start
		}
		return bt.CorrectTime(g.ref(), g.props(), from, to)
	}
	n := rapid.IntRange(1, 4).Draw(g.t, "events")
	evs := make([]bt.Event, n)
	for i := range evs {
		e := bt.Event{Src: rapid.SampledFrom(g.uids).Draw(g.t, "src"), Dst: rapid.SampledFrom(g.uids).Draw(g.t, "dst"),
			RelType: rapid.SampledFrom([]string{"R", "S"}).Draw(g.t, "rel"), VtS: g.time()}
		if rapid.IntRange(0, 3).Draw(g.t, "interval_event") == 0 {
			e.VtE = e.VtS + rapid.Int64Range(1, 20).Draw(g.t, "len")
		}
		switch rapid.IntRange(0, 19).Draw(g.t, "disc_kind") {
		case 0, 1, 2:
			e.Disc = fmt.Sprintf("d%d", rapid.IntRange(0, 9).Draw(g.t, "disc")) // sometimes taken: refused
		case 3:
			e.Disc = fmt.Sprintf("#%d.0", seq) // reserved: refused
		}
		// Later ops may name the store-assigned discriminators.
		if e.Disc == "" {
			g.keys = append(g.keys, bt.EdgeKey{Src: e.Src, Dst: e.Dst, RelType: e.RelType, Disc: fmt.Sprintf("#%d.%d", seq, i)})
		} else {
			g.keys = append(g.keys, bt.EdgeKey{Src: e.Src, Dst: e.Dst, RelType: e.RelType, Disc: e.Disc})
		}
		evs[i] = e
	}
	return bt.Ingest(evs, rapid.SampledFrom([]string{"", "P"}).Draw(g.t, "ingest_label"))
}

func code(err error) string {
	var oe *bt.OpError
	if errors.As(err, &oe) {
		return oe.Code
	}
	if err != nil {
		return "other: " + err.Error()
	}
	return ""
}

// The naive model, the model store (bitemporal.Plan over a MemStore) and
// the engine agree on every batch: the same refusals (by code) and the
// same set of versions, as canonical JSON and as the store digest.
func TestWritesMatchPlan(t *testing.T) {
	accepted := map[bt.OpKind]int{} // ops of accepted batches, by kind
	refused, moved := 0, 0          // refused batches, accepted moving corrections
	prop := func(rt *rapid.T) {
		g := &genHistory{t: rt, uids: []string{"a", "b", "c"}}
		naive, model, eng := oracle.NewWrites(), bt.NewMemStore(), engine.New()
		seq := 1 // the sequence number the next accepted batch gets
		for b := range rapid.IntRange(1, 8).Draw(rt, "batches") {
			tt := bt.Time(10 * (b + 1))
			ops := make([]bt.Op, rapid.IntRange(1, 3).Draw(rt, "ops"))
			for i := range ops {
				ops[i] = g.op(seq)
			}
			errN := naive.Write(tt, ops)
			errM := model.Write(tt, ops)
			if code(errN) != code(errM) {
				rt.Fatalf("batch %d %+v: naive model %v, model store %v", b, ops, errN, errM)
			}
			if errM == nil {
				eff, err := bt.Plan(eng, tt, eng.Batches()+1, ops)
				if err != nil {
					rt.Fatalf("engine refused what the model store took: %v", err)
				}
				if err := eng.Apply(eff); err != nil {
					rt.Fatal(err)
				}
				seq++
				for _, op := range ops {
					accepted[op.Kind]++
					if op.Kind == bt.OpCorrect && op.Moves() {
						moved++
					}
				}
			} else {
				refused++
			}
			gotN := oracle.VersionSet(naive.Nodes, naive.Edges)
			gotM := oracle.VersionSet(model.Nodes, model.Edges)
			if string(gotN) != string(gotM) {
				rt.Fatalf("after batch %d %+v:\n naive %s\n model %s", b, ops, gotN, gotM)
			}
			if d := model.Digest(); d != eng.Digest() || d != naiveDigest(naive) {
				rt.Fatalf("after batch %d: digests differ: model %s engine %s naive %s", b, d, eng.Digest(), naiveDigest(naive))
			}
		}
	}
	// The property must be checked on every op in accepted batches, and on
	// refusals: a round of rapid's checks (each round a new seed) reaches
	// the rarer cases (accepted retractions and moving corrections) only
	// about ten times, so rounds run until every case has been checked
	// often enough, a bounded number of them.
	kinds := []bt.OpKind{bt.OpAssertNode, bt.OpAssertEdge, bt.OpRetract, bt.OpCorrect, bt.OpIngest}
	covered := func() bool {
		for _, k := range kinds {
			if accepted[k] < 20 {
				return false
			}
		}
		return refused >= 40 && moved >= 20
	}
	for round := 0; round < 20 && !t.Failed() && (round == 0 || !covered()); round++ {
		rapid.Check(t, prop)
	}
	for _, k := range kinds {
		if accepted[k] < 20 {
			t.Errorf("only %d accepted %s ops", accepted[k], k)
		}
	}
	if refused < 40 {
		t.Errorf("only %d refused batches", refused)
	}
	if moved < 20 {
		t.Errorf("only %d accepted moving corrections", moved)
	}
	t.Logf("accepted ops by kind %v, of them %d moving corrections; refused batches %d", accepted, moved, refused)
}

// naiveDigest is the store digest of the naive model's versions.
func naiveDigest(w *oracle.Writes) string {
	m := bt.NewMemStore()
	m.Nodes, m.Edges = slices.Clone(w.Nodes), slices.Clone(w.Edges)
	return m.Digest()
}

// Hand-written cases where a literal reading of the rules is easy to get
// wrong; the naive model must give exactly these versions.
func TestWritesGolden(t *testing.T) {
	iv := func(s, e bt.Time) bt.Interval { return bt.Interval{Start: s, End: e} }
	for _, c := range []struct {
		name    string
		batches [][]bt.Op
		want    string
	}{
		{"same-batch carve drops the unbelieved version",
			[][]bt.Op{{bt.AssertNode("a", "P", "", iv(0, 10)), bt.AssertNode("a", "P", `{"w":1}`, iv(5, 20))}},
			`{"edges":[],"nodes":[{"closed_by":null,"created_by":"assert_node","label":"P","props":{"w":1},"tt_e":4611686018427387904,"tt_s":1,"uid":"a","vt_e":20,"vt_s":5},{"closed_by":null,"created_by":"assert_node","label":"P","props":{},"tt_e":4611686018427387904,"tt_s":1,"uid":"a","vt_e":5,"vt_s":0}]}`},
		{"correction over part of a version and a gap",
			[][]bt.Op{{bt.AssertNode("a", "P", "", iv(0, 10))}, {bt.Correct(bt.NodeRef("a"), `{"w":2}`, iv(5, 15))}},
			`{"edges":[],"nodes":[{"closed_by":"correct","created_by":"assert_node","label":"P","props":{},"tt_e":2,"tt_s":1,"uid":"a","vt_e":10,"vt_s":0},{"closed_by":null,"created_by":"correct","label":"P","props":{"w":2},"tt_e":4611686018427387904,"tt_s":2,"uid":"a","vt_e":15,"vt_s":5},{"closed_by":null,"created_by":"correct","label":"P","props":{},"tt_e":4611686018427387904,"tt_s":2,"uid":"a","vt_e":5,"vt_s":0}]}`},
		{"retract ends every later version",
			[][]bt.Op{{bt.AssertNode("a", "P", "", iv(0, 5)), bt.AssertNode("a", "P", `{"w":1}`, iv(8, 12))}, {bt.Retract(bt.NodeRef("a"), 3)}},
			`{"edges":[],"nodes":[{"closed_by":"retract","created_by":"assert_node","label":"P","props":{"w":1},"tt_e":2,"tt_s":1,"uid":"a","vt_e":12,"vt_s":8},{"closed_by":"retract","created_by":"assert_node","label":"P","props":{},"tt_e":2,"tt_s":1,"uid":"a","vt_e":5,"vt_s":0},{"closed_by":null,"created_by":"retract","label":"P","props":{},"tt_e":4611686018427387904,"tt_s":2,"uid":"a","vt_e":3,"vt_s":0}]}`},
		{"ingest, then correct a store-assigned edge in the same batch",
			[][]bt.Op{{bt.Ingest([]bt.Event{{Src: "a", Dst: "b", RelType: "R", VtS: 4}}, ""), bt.Correct(bt.EdgeRef(bt.EdgeKey{Src: "a", Dst: "b", RelType: "R", Disc: "#1.0"}), `{"w":1}`, iv(4, 5))}},
			`{"edges":[{"closed_by":null,"created_by":"correct","disc":"#1.0","dst":"b","props":{"w":1},"provenance":{"authority":"import","derived":true},"rel_type":"R","src":"a","tt_e":4611686018427387904,"tt_s":1,"vt_e":5,"vt_s":4}],"nodes":[{"closed_by":null,"created_by":"ingest","label":"Node","props":{},"provenance":{"authority":"import","derived":true},"tt_e":4611686018427387904,"tt_s":1,"uid":"a","vt_e":4611686018427387904,"vt_s":4},{"closed_by":null,"created_by":"ingest","label":"Node","props":{},"provenance":{"authority":"import","derived":true},"tt_e":4611686018427387904,"tt_s":1,"uid":"b","vt_e":4611686018427387904,"vt_s":4}]}`},
		{"moving correction: the carved parts stay, the fact moves",
			[][]bt.Op{{bt.AssertNode("a", "P", "", iv(0, 10))}, {bt.CorrectTime(bt.NodeRef("a"), `{"w":3}`, iv(5, 10), iv(20, 30))}},
			`{"edges":[],"nodes":[{"closed_by":"correct","created_by":"assert_node","label":"P","props":{},"tt_e":2,"tt_s":1,"uid":"a","vt_e":10,"vt_s":0},{"closed_by":null,"created_by":"correct","label":"P","props":{"w":3},"tt_e":4611686018427387904,"tt_s":2,"uid":"a","vt_e":30,"vt_s":20},{"closed_by":null,"created_by":"correct","label":"P","props":{},"tt_e":4611686018427387904,"tt_s":2,"uid":"a","vt_e":5,"vt_s":0}]}`},
		{"moving an edge onto time it is believed over is refused",
			[][]bt.Op{{bt.AssertEdge(bt.EdgeKey{Src: "a", Dst: "b", RelType: "R", Disc: "x"}, "", iv(0, 10))}, {bt.CorrectTime(bt.EdgeRef(bt.EdgeKey{Src: "a", Dst: "b", RelType: "R", Disc: "x"}), "", iv(5, 10), iv(3, 7))}},
			"E_CONFLICT"},
	} {
		w := oracle.NewWrites()
		refused := ""
		for i, ops := range c.batches {
			if err := w.Write(bt.Time(i+1), ops); err != nil {
				if refused = code(err); refused != c.want || i != len(c.batches)-1 {
					t.Fatalf("%s: batch %d: %v", c.name, i, err)
				}
			}
		}
		if refused != "" {
			continue
		}
		if got := string(oracle.VersionSet(w.Nodes, w.Edges)); got != c.want {
			t.Errorf("%s:\n got  %s\n want %s", c.name, got, c.want)
		}
	}
}
