package pgstore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/internal/pgtest"
)

// uidRows is the uids table as "uid@tt" in uid order.
func uidRows(t *testing.T, url string) string {
	t.Helper()
	rows, err := adminConn(t, url).Query(context.Background(), "SELECT uid, tt FROM uids ORDER BY uid")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var uid string
		var tt int64
		if err := rows.Scan(&uid, &tt); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s@%d", uid, tt))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(out, " ")
}

// engineUIDs is what the read model registered, as uidRows spells it.
func engineUIDs(s *Store) string {
	r := s.Engine().Reader(bt.OpenEnd)
	var out []string
	for id := range uint32(r.NumNodes()) {
		out = append(out, fmt.Sprintf("%s@%d", r.UID(id), s.Engine().Registered(id)))
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// The uids table records every uid with the batch that registered it,
// also a uid none of whose versions outlived its batch (b and d: an edge
// asserted and retracted before its start in one batch). A store of
// schema version 2 is migrated and filled from its batches by the next
// writer; a table changed outside tgms is refused on open.
func TestUIDsTable(t *testing.T) {
	c := pgtest.Shared(t)
	ctx := context.Background()
	url := schemaURL(c, "uids_mig")
	clock := bt.Time(0)
	tick := func() bt.Time { clock += 10; return clock }
	bd := bt.EdgeKey{Src: "b", Dst: "d", RelType: "R"}
	old := openPG(t, url, Options{Write: true, schemaUpTo: 2, Clock: tick})
	for _, ops := range [][]bt.Op{
		{bt.AssertNode("a", "Org", "", bt.Interval{Start: 1, End: 9})},
		{bt.AssertEdge(bd, "", bt.Interval{Start: 71, End: bt.OpenEnd}), bt.Retract(bt.EdgeRef(bd), 34)},
	} {
		if _, err := old.Write(ctx, ops...); err != nil {
			t.Fatal(err)
		}
	}
	old.Close()
	if ro := openPG(t, url, Options{}); ro.SchemaVersion() != 2 {
		t.Fatalf("read-only open: schema version %d, want 2 (readers do not migrate)", ro.SchemaVersion())
	}
	w := openPG(t, url, Options{Write: true, Clock: tick})
	const want = "a@10 b@20 d@20"
	if got := uidRows(t, url); got != want || engineUIDs(w) != want {
		t.Fatalf("after the migration: uids %q, engine %q, want %q", got, engineUIDs(w), want)
	}
	var pending bool
	if err := adminConn(t, url).QueryRow(ctx, "SELECT uids_pending FROM tgms_meta").Scan(&pending); err != nil || pending {
		t.Fatalf("uids_pending %v (%v) after the writer filled the table", pending, err)
	}
	if _, err := w.Write(ctx, bt.AssertEdge(bt.EdgeKey{Src: "d", Dst: "c", RelType: "S"}, "", bt.Interval{Start: 1, End: 5})); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if got := uidRows(t, url); got != "a@10 b@20 c@30 d@20" {
		t.Fatalf("after a batch naming c: uids %q", got)
	}
	if res, err := Check(ctx, url); err != nil || !res.Clean() {
		t.Fatalf("check: %v %+v", err, res)
	}
	// check compares the table row by row with the replay.
	if _, err := adminConn(t, url).Exec(ctx, "UPDATE uids SET tt = 30 WHERE uid = 'd'"); err != nil {
		t.Fatal(err)
	}
	if res, err := Check(ctx, url); err != nil || res.Clean() || !hasFinding(res, "uids@uid=d", "tt 30 where the batches' replay registers it at 20") {
		t.Fatalf("check of a changed uids row: %v %+v", err, res)
	}
	if _, err := adminConn(t, url).Exec(ctx, "DELETE FROM uids WHERE uid = 'b'"); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, url, Options{}); err == nil || !strings.Contains(err.Error(), "uids table holds 3 uids where the batches register 4") {
		t.Fatalf("open of a store with a uid deleted from the uids table: %v", err)
	}
}

func hasFinding(res *CheckResult, where, msg string) bool {
	for _, f := range res.Findings {
		if f.Where == where && strings.Contains(f.Message, msg) {
			return true
		}
	}
	return false
}
