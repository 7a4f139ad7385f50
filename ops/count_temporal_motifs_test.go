package ops_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

func motifEnum(t testing.TB) []string {
	spec, ok := ops.Lookup("count_temporal_motifs")
	if !ok {
		t.Fatal("count_temporal_motifs is not registered")
	}
	return spec.Args.Properties["motif"].Enum
}

// motifGenArgs draws arguments for either motif operator.
func motifGenArgs(rng *rand.Rand, w *world, names []string) map[string]any {
	args := map[string]any{
		"motif":  names[rng.IntN(len(names))],
		"delta":  int64(1 + rng.IntN(60)),
		"window": pickWindow(rng),
	}
	if rng.IntN(2) == 0 { // wide windows see more events
		args["window"] = map[string]any{"t_a": int64(0), "t_b": int64(150)}
	}
	switch rng.IntN(8) {
	case 0, 1:
		var f []any
		for range 2 + rng.IntN(5) {
			f = append(f, pickUID(rng, w))
		}
		args["node_filter"] = f
	case 2:
		if rng.IntN(4) == 0 {
			args["node_filter"] = []any{}
		}
	}
	if rng.IntN(40) == 0 {
		args["mode"] = "sample"
	}
	if rng.IntN(10) == 0 {
		args["seed"] = int64(rng.IntN(100))
	}
	return withAsOf(rng, w, args)
}

func init() {
	names := func() []string {
		spec, _ := ops.Lookup("count_temporal_motifs")
		return spec.Args.Properties["motif"].Enum
	}
	// count_temporal_motifs is not in argGens: its payload is always shorter
	// than the harness's "non-empty" size, so TestCountTemporalMotifsMatchOracle
	// runs the same comparison with its own non-empty rule (count > 0).
	argGens["find_temporal_motif_instances"] = func(rng *rand.Rand, w *world) map[string]any {
		args := motifGenArgs(rng, w, names())
		if rng.IntN(2) == 0 {
			args["limit"] = int64(1 + rng.IntN(5))
		}
		return args
	}
}

func motifCall(t testing.TB, e *engine.Store, op string, args map[string]any) map[string]any {
	t.Helper()
	env, err := ops.Execute(context.Background(), storeSource{e}, op, args)
	if err != nil {
		t.Fatalf("%s(%v): %v", op, args, err)
	}
	return env.Result
}

func motifCallErr(e *engine.Store, op string, args map[string]any) string {
	_, err := ops.Execute(context.Background(), storeSource{e}, op, args)
	if err == nil {
		return ""
	}
	if oe, ok := err.(*ops.Error); ok {
		return oe.Code
	}
	return err.Error()
}

// motifAppendixStore is the six-batch store of the reference's Appendix A.1,
// written with our ops at tt 1..6. Our ingest gives events store-assigned
// discriminators ("#6.0" ...), so eids differ from the reference's.
func motifAppendixStore(t testing.TB) *engine.Store {
	inf := bt.Interval{Start: 0, End: bt.OpenEnd}
	ab := bt.EdgeKey{Src: "a", Dst: "b", RelType: "KNOWS"}
	hist := []oracle.Batch{
		{TT: 1, Ops: []bt.Op{bt.AssertNode("a", "Person", `{"name":"Alice"}`, inf)}},
		{TT: 2, Ops: []bt.Op{bt.AssertNode("b", "Person", `{"name":"Bob"}`, inf)}},
		{TT: 3, Ops: []bt.Op{bt.AssertEdge(ab, `{"w":1}`, bt.Interval{Start: 10, End: 100})}},
		{TT: 4, Ops: []bt.Op{bt.Correct(bt.EdgeRef(ab), `{"w":2}`, bt.Interval{Start: 40, End: 60})}},
		{TT: 5, Ops: []bt.Op{bt.Retract(bt.EdgeRef(ab), 80)}},
		{TT: 6, Ops: []bt.Op{bt.Ingest([]bt.Event{
			{Src: "a", Dst: "c", RelType: "MSG", VtS: 20},
			{Src: "c", Dst: "a", RelType: "MSG", VtS: 30},
			{Src: "a", Dst: "c", RelType: "MSG", VtS: 35},
		}, "Node")}},
	}
	_, e := build(t, hist)
	return e
}

// motifMsgEID finds the eid of the ingested event src->dst at t.
func motifMsgEID(t testing.TB, e *engine.Store, src, dst string, at bt.Time) string {
	r := e.Reader(bt.OpenEnd)
	for _, v := range r.EdgesStartingIn(bt.Interval{Start: at, End: at + 1}) {
		k := r.Edge(v).Key
		if k.Src == src && k.Dst == dst {
			return engine.EID(k)
		}
	}
	t.Fatalf("no event %s->%s at %d", src, dst, at)
	return ""
}

func motifCanon(t testing.TB, v any) string {
	b, err := canon.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMotifAppendixA2 is items 9 and 10 of Appendix A.2. The KNOWS edge
// a->b, carved by a correction and a retraction into three fragments, is one
// occurrence here (the reference counts three events, n_events 6).
func TestMotifAppendixA2(t *testing.T) {
	e := motifAppendixStore(t)
	args := map[string]any{"motif": "M_2node_pingpong", "delta": int64(20), "window": map[string]any{"t_a": int64(0), "t_b": int64(100)}}
	got := motifCanon(t, motifCall(t, e, "count_temporal_motifs", args))
	if want := `{"count":1,"n_events_in_window":4,"truncated":false}`; got != want {
		t.Errorf("count: got %s, want %s", got, want)
	}
	e1, e2, e3 := motifMsgEID(t, e, "a", "c", 20), motifMsgEID(t, e, "c", "a", 30), motifMsgEID(t, e, "a", "c", 35)
	got = motifCanon(t, motifCall(t, e, "find_temporal_motif_instances", args))
	want := fmt.Sprintf(`{"cursor":null,"rows":[{"edges":[`+
		`{"dst":"c","eid":%q,"rel_type":"MSG","src":"a","t":20},`+
		`{"dst":"a","eid":%q,"rel_type":"MSG","src":"c","t":30},`+
		`{"dst":"c","eid":%q,"rel_type":"MSG","src":"a","t":35}]}],"rows_total":1,"truncated":false}`, e1, e2, e3)
	if got != want {
		t.Errorf("find:\n got %s\nwant %s", got, want)
	}
	// The alias and the grid name are the same motif; delta 10 is too short.
	args["motif"] = "M51"
	if c := motifCall(t, e, "count_temporal_motifs", args)["count"]; c != int64(1) {
		t.Errorf("M51: count %v, want 1", c)
	}
	args["delta"] = int64(10)
	if c := motifCall(t, e, "count_temporal_motifs", args)["count"]; c != int64(0) {
		t.Errorf("delta 10: count %v, want 0", c)
	}
	// Pinned before the events were ingested: only the KNOWS occurrence.
	args["delta"], args["as_of_tt"] = int64(20), int64(5)
	got = motifCanon(t, motifCall(t, e, "count_temporal_motifs", args))
	if want := `{"count":0,"n_events_in_window":1,"truncated":false}`; got != want {
		t.Errorf("as of 5: got %s, want %s", got, want)
	}
}

// TestMotifErrors checks the refusals and their order.
func TestMotifErrors(t *testing.T) {
	e := motifAppendixStore(t)
	win := map[string]any{"t_a": int64(0), "t_b": int64(100)}
	for _, tc := range []struct {
		args map[string]any
		code string
	}{
		{map[string]any{"motif": "M11", "delta": int64(0), "window": win}, ops.ESchema},
		{map[string]any{"motif": "M77", "delta": int64(5), "window": win}, ops.ESchema},
		{map[string]any{"motif": "M11", "window": win}, ops.ESchema},
		{map[string]any{"motif": "M11", "delta": int64(5), "window": map[string]any{"t_a": int64(5), "t_b": int64(5)}}, ops.EInvalidArg},
		{map[string]any{"motif": "M11", "delta": int64(5), "window": win, "node_filter": []any{"zz"}, "mode": "sample"}, ops.EInvalidArg},
		{map[string]any{"motif": "M11", "delta": int64(5), "window": win, "mode": "fast"}, ops.ESchema},
	} {
		for _, op := range []string{"count_temporal_motifs", "find_temporal_motif_instances"} {
			if got := motifCallErr(e, op, tc.args); got != tc.code {
				t.Errorf("%s(%v): got %q, want %q", op, tc.args, got, tc.code)
			}
		}
	}
	// An empty filter is no events, not an error.
	got := motifCanon(t, motifCall(t, e, "count_temporal_motifs", map[string]any{"motif": "M51", "delta": int64(50), "window": win, "node_filter": []any{}}))
	if want := `{"count":0,"n_events_in_window":0,"truncated":false}`; got != want {
		t.Errorf("empty filter: got %s, want %s", got, want)
	}
	// A uid unknown at the belief time matches no event: the count is the
	// one without it, and only unknown uids count 0 (not E_NOT_FOUND).
	for _, op := range []string{"count_temporal_motifs", "find_temporal_motif_instances"} {
		base := map[string]any{"motif": "M51", "delta": int64(50), "window": win}
		withOut, with := clone(base), clone(base)
		withOut["node_filter"], with["node_filter"] = []any{"a", "b", "c"}, []any{"zz", "a", "b", "c"}
		if a, b := motifCanon(t, motifCall(t, e, op, withOut)), motifCanon(t, motifCall(t, e, op, with)); a != b {
			t.Errorf("%s: an unknown uid changed the result: %s vs %s", op, b, a)
		}
		only := clone(base)
		only["node_filter"] = []any{"zz"}
		only["as_of_tt"] = int64(5)
		got := motifCanon(t, motifCall(t, e, op, only))
		if !strings.Contains(got, `"rows_total":0`) && !strings.Contains(got, `"count":0`) {
			t.Errorf("%s: only unknown uids: got %s, want an empty answer", op, got)
		}
	}
	// find's schema requires motif, delta and window (the reference's did not).
	spec, _ := ops.Lookup("find_temporal_motif_instances")
	if r := strings.Join(spec.Args.Required, ","); r != "motif,delta,window" {
		t.Errorf("find requires %q", r)
	}
}

// motifEventStore ingests events (one batch) into a fresh engine store.
func motifEventStore(t testing.TB, evs []bt.Event) *engine.Store {
	_, e := build(t, []oracle.Batch{{TT: 1, Ops: []bt.Op{bt.Ingest(evs, "Node")}}})
	return e
}

// TestMotifTies pins the tie rule: events with equal timestamps are ordered
// by eid, and they can form a motif with the eid order deciding the roles.
func TestMotifTies(t *testing.T) {
	evs := []bt.Event{
		{Src: "a", Dst: "b", RelType: "R", VtS: 7, Disc: "x"},
		{Src: "b", Dst: "a", RelType: "R", VtS: 7, Disc: "y"},
		{Src: "a", Dst: "b", RelType: "R", VtS: 7, Disc: "z"},
	}
	e := motifEventStore(t, evs)
	type ev struct{ src, dst, eid string }
	var order []ev
	for _, x := range evs {
		order = append(order, ev{x.Src, x.Dst, engine.EID(bt.EdgeKey{Src: x.Src, Dst: x.Dst, RelType: x.RelType, Disc: x.Disc})})
	}
	slices.SortFunc(order, func(a, b ev) int { return strings.Compare(a.eid, b.eid) })
	// Count each 2-node motif by hand from the eid order.
	want := map[string]int64{}
	pattern := func(k int) string {
		if order[k].src == order[0].src {
			return "s"
		}
		return "r"
	}
	switch pattern(1) + pattern(2) {
	case "rs":
		want["M51"] = 1
	case "rr":
		want["M52"] = 1
	case "ss":
		want["M61"] = 1
	case "sr":
		want["M62"] = 1
	}
	win := map[string]any{"t_a": int64(0), "t_b": int64(10)}
	for _, m := range []string{"M51", "M52", "M61", "M62"} {
		args := map[string]any{"motif": m, "delta": int64(1), "window": win}
		got := motifCall(t, e, "count_temporal_motifs", args)["count"]
		if got != want[m] {
			t.Errorf("%s: count %v, want %d (eid order %v)", m, got, want[m], order)
		}
		rows := motifCall(t, e, "find_temporal_motif_instances", args)["rows"].([]any)
		if int64(len(rows)) != want[m] {
			t.Errorf("%s: %d rows, want %d", m, len(rows), want[m])
		}
		for _, r := range rows {
			edges := r.(map[string]any)["edges"].([]any)
			for k, x := range edges {
				if got := x.(map[string]any)["eid"]; got != order[k].eid {
					t.Errorf("%s: edge %d has eid %v, want %s (eid order)", m, k, got, order[k].eid)
				}
			}
		}
	}
}

// motifRandomEvents draws a small event stream with many timestamp ties.
func motifRandomEvents(rng *rand.Rand, n, nodes int, span int64) []bt.Event {
	evs := make([]bt.Event, n)
	for i := range evs {
		evs[i] = bt.Event{Src: fmt.Sprintf("n%d", rng.IntN(nodes)), Dst: fmt.Sprintf("n%d", rng.IntN(nodes)), RelType: "R", VtS: rng.Int64N(span)}
	}
	return evs
}

// TestMotifRelabel: counts do not change when uids are renamed
// consistently (the renaming also reshuffles eids, hence the tie order, so
// the streams here have distinct timestamps), and count equals find's
// rows_total for every motif.
func TestMotifRelabel(t *testing.T) {
	names := motifEnum(t)
	for seed := range 6 {
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		evs := motifRandomEvents(rng, 150, 6, 1_000_000)
		seen := map[int64]bool{}
		for i := range evs { // distinct timestamps
			for seen[evs[i].VtS] {
				evs[i].VtS++
			}
			seen[evs[i].VtS] = true
		}
		perm := rng.Perm(6)
		renamed := slices.Clone(evs)
		for i := range renamed {
			var s, d int
			fmt.Sscanf(renamed[i].Src, "n%d", &s)
			fmt.Sscanf(renamed[i].Dst, "n%d", &d)
			renamed[i].Src, renamed[i].Dst = fmt.Sprintf("m%d", perm[s]), fmt.Sprintf("m%d", perm[d])
		}
		e1, e2 := motifEventStore(t, evs), motifEventStore(t, renamed)
		win := map[string]any{"t_a": int64(0), "t_b": int64(1_000_000)}
		for _, m := range names {
			args := map[string]any{"motif": m, "delta": int64(40_000), "window": win}
			c1 := motifCall(t, e1, "count_temporal_motifs", args)
			c2 := motifCall(t, e2, "count_temporal_motifs", args)
			if motifCanon(t, c1) != motifCanon(t, c2) {
				t.Fatalf("seed %d %s: %v before renaming, %v after", seed, m, c1, c2)
			}
			f := motifCall(t, e1, "find_temporal_motif_instances", args)
			if f["rows_total"] != c1["count"] {
				t.Fatalf("seed %d %s: count %v but find rows_total %v", seed, m, c1["count"], f["rows_total"])
			}
		}
	}
}

// TestMotifCountsMatchOracleDense compares every motif's count with the
// brute-force oracle on denser streams than the shared harness draws
// (ties, self-loops, repeated pairs), with and without a node filter.
func TestMotifCountsMatchOracleDense(t *testing.T) {
	names := motifEnum(t)
	for seed := range 8 {
		rng := rand.New(rand.NewPCG(uint64(seed), 11))
		evs := motifRandomEvents(rng, 70, 3+seed%4, 40)
		m, e := build(t, []oracle.Batch{{TT: 1, Ops: []bt.Op{bt.Ingest(evs, "Node")}}})
		for _, name := range names {
			args := map[string]any{"motif": name, "delta": int64(1 + rng.IntN(15)), "window": map[string]any{"t_a": int64(rng.IntN(5)), "t_b": int64(40)}}
			if seed%2 == 1 {
				args["node_filter"] = []any{"n0", "n1", "n2"}
			}
			got := motifCall(t, e, "count_temporal_motifs", args)
			_, prepared, err := ops.Prepare("count_temporal_motifs", args)
			if err != nil {
				t.Fatal(err)
			}
			prepared["as_of_tt"] = int64(1)
			want, err := oracle.Call(m, "count_temporal_motifs", prepared)
			if err != nil {
				t.Fatal(err)
			}
			if motifCanon(t, got) != motifCanon(t, want) {
				t.Fatalf("seed %d %s %v: engine %v, oracle %v", seed, name, args, got, want)
			}
		}
	}
}

// TestMotifCatalogDoc: every grid motif's pattern is in the manual and in
// the enum's description.
func TestMotifCatalogDoc(t *testing.T) {
	for _, op := range []string{"count_temporal_motifs", "find_temporal_motif_instances"} {
		spec, _ := ops.Lookup(op)
		desc := spec.Args.Properties["motif"].Description
		for _, line := range []string{
			"M11: u->v, w->v, u->v (star, centre v)",
			"M24: u->v, v->w, w->u (triangle) alias M_triangle_cyclic",
			"M45: u->v, u->w, v->w (triangle) alias M_triangle_acyclic_1",
			"M51: u->v, v->u, u->v (2-node) alias M_2node_pingpong",
			"M31: u->v, w->u, u->v (star, centre u)",
			"M66: u->v, u->v, w->v (star, centre v)",
			"M_star_out_3: u->v, u->w, u->x (4-node out-star)",
			"M_path_3: u->v, v->w, w->x (4-node path)",
		} {
			if !strings.Contains(desc, line) || !strings.Contains(spec.Doc, line) {
				t.Errorf("%s: manual lacks %q", op, line)
			}
		}
		if n := len(spec.Args.Properties["motif"].Enum); n != 36+2+6 {
			t.Errorf("%s: %d motif names", op, n)
		}
	}
}

// TestCountTemporalMotifsMatchOracle is TestOperatorsMatchOracle for
// count_temporal_motifs (same random stores, compareOne and checkPinned),
// counting a case as non-empty when its count is positive.
func TestCountTemporalMotifsMatchOracle(t *testing.T) {
	spec, _ := ops.Lookup("count_temporal_motifs")
	names := motifEnum(t)
	rng := rand.New(rand.NewPCG(uint64(len(spec.Name)), 42))
	nonZero, refused := 0, 0
	for i := range casesPerOp() {
		hist := oracle.RandomHistory(rng, 1+rng.IntN(20)) // longer histories than the shared harness draws
		m, e := build(t, hist)
		w := newWorld(rng, m)
		args := motifGenArgs(rng, w, names)
		compareOne(t, i, spec, m, e, args)
		checkPinned(t, i, spec, hist, e, args)
		env, err := ops.Execute(context.Background(), storeSource{e}, spec.Name, args)
		switch {
		case err != nil:
			refused++
		case env.Result["count"].(int64) > 0:
			nonZero++
		}
	}
	t.Logf("%d cases: %d with a positive count, %d refused", casesPerOp(), nonZero, refused)
	if nonZero < casesPerOp()/20 || refused == 0 {
		t.Fatalf("generator too weak: %d cases with a positive count, %d refusals", nonZero, refused)
	}
}

// motifRenameHistory renames uids consistently in every op of a history and
// spreads time out (×1000, ingest events get distinct offsets) so that
// events rarely share a timestamp.
func motifRenameHistory(hist []oracle.Batch, rename func(string) string) []oracle.Batch {
	scale := func(t bt.Time) bt.Time {
		if t >= bt.OpenEnd/2000 {
			return t
		}
		return t * 1000
	}
	iv := func(i bt.Interval) bt.Interval { return bt.Interval{Start: scale(i.Start), End: scale(i.End)} }
	key := func(k bt.EdgeKey) bt.EdgeKey {
		k.Src, k.Dst = rename(k.Src), rename(k.Dst)
		return k
	}
	var out []oracle.Batch
	n := bt.Time(0)
	for _, b := range hist {
		nb := oracle.Batch{TT: b.TT}
		for _, op := range b.Ops {
			op.UID = rename(op.UID)
			op.Edge = key(op.Edge)
			op.Ref.UID = rename(op.Ref.UID)
			op.Ref.Edge = key(op.Ref.Edge)
			op.Valid = iv(op.Valid)
			op.At = scale(op.At)
			evs := slices.Clone(op.Events)
			for i := range evs {
				n++
				evs[i].Src, evs[i].Dst = rename(evs[i].Src), rename(evs[i].Dst)
				evs[i].VtS = scale(evs[i].VtS) + n
				if evs[i].VtE != 0 {
					evs[i].VtE = scale(evs[i].VtE) + n
				}
			}
			op.Events = evs
			nb.Ops = append(nb.Ops, op)
		}
		out = append(out, nb)
	}
	return out
}

// TestMotifRelabelHistory: on random bi-temporal histories (corrections,
// retractions, interval edges), renaming the uids consistently leaves every
// motif count unchanged. Cases whose window events share a timestamp are
// skipped: renaming changes eids and with them the tie order.
func TestMotifRelabelHistory(t *testing.T) {
	names := motifEnum(t)
	rng := rand.New(rand.NewPCG(9, 9))
	compared, positive := 0, 0
	for range 60 {
		hist := oracle.RandomHistory(rng, 3+rng.IntN(10))
		perm := rng.Perm(6)
		ids := map[string]string{}
		for i, u := range []string{"a", "b", "c", "d", "e", "f"} {
			ids[u] = fmt.Sprintf("z%d", perm[i])
		}
		same := motifRenameHistory(hist, func(s string) string { return s })
		renamed := motifRenameHistory(hist, func(s string) string {
			if r, ok := ids[s]; ok {
				return r
			}
			return s
		})
		_, e1 := build(t, same)
		_, e2 := build(t, renamed)
		r := e1.Reader(bt.OpenEnd)
		times := map[bt.Time]bool{}
		tie := false
		for _, v := range r.EdgesStartingIn(bt.Interval{Start: 0, End: bt.OpenEnd}) {
			if r.Continues(v) {
				continue
			}
			if s := r.Valid(v).Start; times[s] {
				tie = true
			} else {
				times[s] = true
			}
		}
		if tie {
			continue
		}
		compared++
		win := map[string]any{"t_a": int64(0), "t_b": int64(200_000)}
		for _, m := range names {
			args := map[string]any{"motif": m, "delta": int64(1 + rng.IntN(30_000)), "window": win}
			c1 := motifCanon(t, motifCall(t, e1, "count_temporal_motifs", args))
			c2 := motifCanon(t, motifCall(t, e2, "count_temporal_motifs", args))
			if c1 != c2 {
				t.Fatalf("%s %v: %s before renaming, %s after", m, args, c1, c2)
			}
			if !strings.HasPrefix(c1, `{"count":0,`) {
				positive++
			}
		}
	}
	if compared < 20 || positive == 0 {
		t.Fatalf("only %d histories compared, %d positive counts", compared, positive)
	}
	t.Logf("%d histories compared, %d positive counts", compared, positive)
}
