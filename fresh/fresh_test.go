package fresh_test

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/fresh"
	"github.com/tgms-go/tgms/oracle"
)

func openDB(t *testing.T) *tgms.DB {
	t.Helper()
	var tick bt.Time
	db, err := tgms.Open(t.TempDir(), &tgms.Options{NoSync: true, Clock: func() bt.Time { tick += 10; return tick }, Logf: func(string, ...any) {}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// Build (from the log) and Add (batch by batch, as written) index the
// same touches, whatever the since.
func TestBuildMatchesIncremental(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 30 {
		db := openDB(t)
		since := bt.Time(10 * rng.IntN(6))
		inc := fresh.NewIndex(since)
		var prev bt.Time
		var seq uint64
		for _, b := range oracle.RandomHistory(rng, 10) {
			tt, err := db.Write(b.Ops...)
			if err != nil {
				continue // refused batches are not in the log
			}
			seq++
			if err := inc.Add(db, fresh.Batch{TT: tt, Seq: seq, Ops: b.Ops}, prev); err != nil {
				t.Fatal(err)
			}
			prev = tt
		}
		built, err := fresh.Build(db, since)
		if err != nil {
			t.Fatal(err)
		}
		if built.Batches() != inc.Batches() || built.Touches() != inc.Touches() || built.Last() != inc.Last() {
			t.Fatalf("since %d: built %d batches %d touches, incremental %d batches %d touches", since, built.Batches(), built.Touches(), inc.Batches(), inc.Touches())
		}
	}
}

func TestAddRefusesBatchesOutOfOrder(t *testing.T) {
	db := openDB(t)
	tt1, _ := db.Write(bt.AssertNode("a", "P", "", bt.Always))
	tt2, _ := db.Write(bt.AssertNode("b", "P", "", bt.Always))
	ix := fresh.NewIndex(0)
	if err := ix.Add(db, fresh.Batch{TT: tt2, Seq: 2, Ops: []bt.Op{bt.AssertNode("b", "P", "", bt.Always)}}, tt1); err != nil {
		t.Fatal(err)
	}
	if err := ix.Add(db, fresh.Batch{TT: tt1, Seq: 1}, 0); err == nil {
		t.Fatal("an earlier batch was added after a later one")
	}
	if err := ix.Add(db, fresh.Batch{TT: tt2 + 10, Seq: 3}, tt2); err == nil {
		t.Fatal("a batch the store has not written was indexed")
	}
}

// A trace whose plan pins its step at its own as_of_tt stays fresh after
// writes to what it read; the same plan without the pin does not.
func TestOwnPinStaysFresh(t *testing.T) {
	db := openDB(t)
	tt, _ := db.Write(bt.AssertNode("a", "P", `{"w":1}`, bt.Always))
	run := func(args string) *fresh.Report {
		v := db.Validate([]byte(`{"plan_id":"p","steps":[{"id":"s1","op":"entity_history","args":`+args+`,"depends_on":[]}],"answer_spec":{"kind":"value","from":"s1.rows"}}`), []string{"a"})
		if !v.Valid {
			t.Fatalf("%+v", v.Violations)
		}
		tr := db.Execute(context.Background(), v.Plan)
		db.Write(bt.Correct(bt.NodeRef("a"), `{"w":2}`, bt.Always))
		rep, err := fresh.Check(db, tr, fresh.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	if rep := run(`{"uid":"a","as_of_tt":` + itoa(tt) + `}`); !rep.Fresh {
		t.Fatalf("pinned step: %+v", rep.Steps)
	}
	rep := run(`{"uid":"a"}`)
	if rep.Fresh || len(rep.Steps[0].Reason) != 1 || rep.Steps[0].Reason[0].Op != "correct" {
		t.Fatalf("unpinned step: %+v", rep.Steps)
	}
	if !reflect.DeepEqual(rep.Steps[0].Reason[0].Valid, bt.Always) {
		t.Fatalf("reason interval %v", rep.Steps[0].Reason[0].Valid)
	}
}

func itoa(t bt.Time) string { return bt.FormatMicros(t) }
