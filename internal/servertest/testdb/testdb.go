// Package testdb builds the tiny stores the server's tests run against.
package testdb

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
)

// Store is a tiny store: a chain of messages a→b→c→d and a→e, with node
// a asserted in one batch and its props corrected over part of its life in
// a later batch (Corrected is that batch's transaction time).
type Store struct {
	DB        *tgms.DB
	Dir       string
	Corrected bt.Time // the correction's transaction time
	Start     bt.Time // valid-time start of the edges
	End       bt.Time // just after the last edge
	closed    bool    // handed over: the test no longer holds DB
}

// Hour is one hour in µs.
const Hour = int64(3_600_000_000)

// T0 is 2024-01-01 00:00 UTC in µs.
const T0 = int64(1_704_067_200_000_000)

// New builds the store in a fresh temporary directory; it is closed when
// the test ends.
func New(t testing.TB) *Store {
	t.Helper()
	dir := t.TempDir()
	db, err := tgms.Open(dir, &tgms.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	s := &Store{DB: db, Dir: dir, Start: T0, End: T0 + 10*Hour}
	t.Cleanup(func() {
		if !s.closed {
			db.Close()
		}
	})
	person := func(uid, name string) bt.Op {
		return bt.AssertNode(uid, "Person", bt.Props(`{"name":"`+name+`"}`), bt.Interval{Start: T0, End: bt.OpenEnd})
	}
	must := func(_ bt.Time, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(db.Write(person("a", "Ada"), person("b", "Bo"), person("c", "Cy"), person("d", "Di"), person("e", "Ed")))
	events := []bt.Event{
		{Src: "a", Dst: "b", RelType: "MSG", VtS: T0 + 1*Hour},
		{Src: "b", Dst: "c", RelType: "MSG", VtS: T0 + 2*Hour},
		{Src: "c", Dst: "d", RelType: "MSG", VtS: T0 + 3*Hour},
		{Src: "a", Dst: "e", RelType: "MSG", VtS: T0 + 4*Hour},
		{Src: "d", Dst: "a", RelType: "MSG", VtS: T0 + 9*Hour},
	}
	must(db.Write(bt.Ingest(events, "Person")))
	tt, err := db.Write(bt.Correct(bt.NodeRef("a"), bt.Props(`{"name":"Ada Lovelace"}`), bt.Interval{Start: T0 + 2*Hour, End: T0 + 5*Hour}))
	must(tt, err)
	s.Corrected = tt
	return s
}

// VersionsQuestion asks how many versions of node a the store holds: the
// answer changes with the correction.
func VersionsQuestion() string {
	return "Under current belief, how many versions of node a does the store hold?"
}

// ReachQuestion asks who a reaches over the whole extent.
func (s *Store) ReachQuestion() string {
	return fmt.Sprintf("How many nodes can a reach along time-respecting paths (each edge no earlier than the one before) with events from %s to %s?", when(s.Start), when(s.End))
}

func when(t bt.Time) string {
	return fmt.Sprintf("%d", t)
}

// ReachPlan is a one-step plan: who a reaches over the whole extent,
// answered by rows_total (4: b, c, d and e).
func (s *Store) ReachPlan() map[string]any {
	return map[string]any{
		"plan_id": "reach-a",
		"steps": []any{map[string]any{"id": "s1", "op": "temporal_reachability", "depends_on": []any{},
			"args": map[string]any{"src": "a", "window": map[string]any{"t_a": s.Start, "t_b": s.End}, "limit": int64(1000)}}},
		"answer_spec": map[string]any{"kind": "count", "from": "s1.rows_total"},
	}
}

// HistoryPlan is a one-step plan: how many versions of node a the store
// holds (3 under current belief, 1 before the correction).
func HistoryPlan() map[string]any {
	return map[string]any{
		"plan_id": "history-a",
		"steps": []any{map[string]any{"id": "s1", "op": "entity_history", "depends_on": []any{},
			"args": map[string]any{"uid": "a"}}},
		"answer_spec": map[string]any{"kind": "count", "from": "s1.rows_total"},
	}
}

// ReachAnswer claims what ReachPlan's trace supports (4 nodes reached, b
// among them) and one thing it does not (5 nodes).
func ReachAnswer() map[string]any {
	return map[string]any{"text": "a reaches 4 nodes", "claims": []any{
		map[string]any{"id": "c1", "kind": "count", "step": "s1", "path": "rows_total", "value": int64(4)},
		map[string]any{"id": "c2", "kind": "count", "step": "s1", "path": "rows_total", "value": int64(5)},
	}}
}

// ReachArgs are temporal_reachability's arguments for a over the extent.
func (s *Store) ReachArgs() map[string]any {
	return map[string]any{"src": "a", "window": map[string]any{"t_a": s.Start, "t_b": s.End}}
}

// Handover closes the store, so that another process can own its
// directory, and returns an open copy of it (same log, same answers) for
// the test to compare against.
func (s *Store) Handover(t testing.TB) *Store {
	t.Helper()
	if err := s.DB.Close(); err != nil {
		t.Fatal(err)
	}
	s.closed = true
	dir := t.TempDir()
	for _, name := range []string{tgms.LogFile, tgms.CheckpointFile, tgms.SealFile} {
		b, err := os.ReadFile(filepath.Join(s.Dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db, err := tgms.Open(dir, &tgms.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	c := *s
	c.DB, c.Dir = db, dir
	return &c
}
