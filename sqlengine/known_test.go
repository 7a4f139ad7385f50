package sqlengine

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/eventlog"
	"github.com/tgms-go/tgms/internal/pgtest"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
	"github.com/tgms-go/tgms/pgstore"
)

// A batch registers every uid it names, also one whose only version does
// not outlive the batch: b (and d) are named by an edge asserted and
// retracted before its start in the batch at tt 20, so no version row
// names b, yet from tt 20 on both engines know it (and refuse it before).
func TestKnownUIDWithoutVersions(t *testing.T) {
	c := pgtest.Shared(t)
	ctx := context.Background()
	url := schemaURL(c, "known_noversion")
	bd := bt.EdgeKey{Src: "b", Dst: "d", RelType: "R"}
	hist := []oracle.Batch{
		{TT: 10, Ops: []bt.Op{bt.AssertNode("a", "Org", "", bt.Interval{Start: 27, End: 39}),
			bt.Ingest([]bt.Event{{Src: "c", Dst: "e", RelType: "S", VtS: 67}}, "Node")}},
		{TT: 20, Ops: []bt.Op{bt.AssertEdge(bd, "", bt.Interval{Start: 71, End: bt.OpenEnd}), bt.Retract(bt.EdgeRef(bd), 34)}},
		{TT: 30, Ops: []bt.Op{bt.Ingest([]bt.Event{{Src: "d", Dst: "c", RelType: "R", VtS: 68}, {Src: "a", Dst: "d", RelType: "S", VtS: 68}}, "Node")}},
	}
	s := writeHistory(t, url, hist)
	defer s.Close()
	if s.Engine().Batches() != 3 {
		t.Fatalf("%d batches stored, want 3", s.Engine().Batches())
	}
	cfg, schema, err := pgstore.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	cfg.RuntimeParams["search_path"] = schema
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var rows, edges int
	if err := conn.QueryRow(ctx, "SELECT (SELECT count(*) FROM node_versions WHERE uid = 'b'), (SELECT count(*) FROM edge_versions WHERE src = 'b' OR dst = 'b')").Scan(&rows, &edges); err != nil {
		t.Fatal(err)
	}
	if rows+edges != 0 {
		t.Fatalf("%d node and %d edge versions name b: the case needs none", rows, edges)
	}
	e, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	nat := ops.NativeBackend{Src: native{s}}
	for _, asOf := range []int64{10, 20, 30} {
		for _, call := range []map[string]any{
			{"op": "neighborhood_evolution", "args": map[string]any{"uid": "b", "t1": int64(32), "t2": int64(126), "limit": int64(3), "as_of_tt": asOf}},
			{"op": "entity_history", "args": map[string]any{"uid": "b", "include_edges": true, "as_of_tt": asOf}},
			{"op": "temporal_reachability", "args": map[string]any{"src": "b", "window": map[string]any{"t_a": int64(0), "t_b": int64(100)}, "as_of_tt": asOf}},
			{"op": "snapshot_subgraph", "args": map[string]any{"seeds": []any{"b", "d"}, "hops": int64(1), "t_valid": int64(70), "as_of_tt": asOf}},
		} {
			equal(t, ctx, nat, e, call)
			_, err := ops.ExecuteOn(ctx, e, call["op"].(string), call["args"].(map[string]any), ops.ExecOptions{})
			var oe *ops.Error
			refused := errors.As(err, &oe) && oe.Code == ops.ENotFound
			if refused != (asOf < 20) && call["op"] != "snapshot_subgraph" {
				t.Fatalf("%s as of %d: %v; b is registered at tt 20", call["op"], asOf, err)
			}
		}
	}
	// A store without a filled uids table is refused, not answered from
	// the version tables.
	for _, tc := range []struct{ change, undo, want string }{
		{"UPDATE tgms_meta SET uids_pending = true", "UPDATE tgms_meta SET uids_pending = false", "uids table is not filled yet"},
		{"UPDATE tgms_meta SET schema_version = 2", "UPDATE tgms_meta SET schema_version = 3", "at version 2, which does not record the uids"},
	} {
		if _, err := conn.Exec(ctx, tc.change); err != nil {
			t.Fatal(err)
		}
		if o, err := Open(ctx, url); err == nil || !strings.Contains(err.Error(), tc.want) {
			if o != nil {
				o.Close()
			}
			t.Fatalf("after %s: Open gave %v, want %q", tc.change, err, tc.want)
		}
		if _, err := conn.Exec(ctx, tc.undo); err != nil {
			t.Fatal(err)
		}
	}
	// The store statistics count b as the native engine does.
	if err := e.Pin(bt.OpenEnd, func(p ops.Pinned) error {
		if got, want := p.Counts(), s.Engine().Counts(); got != want {
			t.Fatalf("counts %+v, native %+v", got, want)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// entity_history is refused on a store whose batches state provenance
// (the version tables do not hold it), and answers on one without.
func TestHistoryRefusedWithStatedProvenance(t *testing.T) {
	c := pgtest.Shared(t)
	ctx := context.Background()
	for _, stated := range []bool{false, true} {
		url := schemaURL(c, map[bool]string{false: "prov_none", true: "prov_stated"}[stated])
		s := writeHistory(t, url, []oracle.Batch{{TT: 10, Ops: []bt.Op{bt.AssertNode("a", "Org", "", bt.Interval{Start: 1, End: 9})}}})
		if stated {
			rec := &eventlog.Record{TT: 20, Seq: 2, Ops: []bt.Op{bt.AssertNode("b", "Org", "", bt.Interval{Start: 1, End: 9})},
				Prov: &bt.Provenance{Authority: bt.AuthUser, Actor: "dana"}}
			if err := s.Append(ctx, rec); err != nil {
				t.Fatal(err)
			}
		}
		e, err := Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		_, err = ops.ExecuteOn(ctx, e, "entity_history", map[string]any{"uid": "a"}, ops.ExecOptions{})
		var oe *ops.Error
		switch {
		case !stated && err != nil:
			t.Fatalf("entity_history without stated provenance: %v", err)
		case stated && (!errors.As(err, &oe) || oe.Code != ops.EInvalidArg || !strings.Contains(oe.Message, "state provenance")):
			t.Fatalf("entity_history on a store with stated provenance: got %v, want a refusal", err)
		}
		if _, err := ops.ExecuteOn(ctx, e, "neighborhood_evolution", map[string]any{"uid": "a", "t1": int64(0), "t2": int64(10)}, ops.ExecOptions{}); err != nil {
			t.Fatalf("neighborhood_evolution (stated %v): %v", stated, err)
		}
		e.Close()
		s.Close()
	}
}
