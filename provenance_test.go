package tgms

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/eventlog"
)

// The store under testdata/v3-stores/memory was written by the release
// before provenance (log version 3, checkpoint version 3 covering the
// first three batches, two more batches after it). Its digest and its
// entity_history answer were recorded then.
const (
	v3Digest        = "627be3dde111c107b1a5349de596b70386bb2dfb8408b739d2a6b531120f252e"
	v3HistoryDigest = "156115cdaa99603f110f46d9e5ccc729e0f5680867b6c824bd0d60ac243a8eb8"
)

func call(t *testing.T, db *DB, op string, args map[string]any) map[string]any {
	t.Helper()
	env, err := db.Call(context.Background(), op, args)
	if err != nil {
		t.Fatalf("%s %v: %v", op, args, err)
	}
	return env.Result
}

func rowsOf(t *testing.T, res map[string]any) []map[string]any {
	t.Helper()
	raw, _ := res["rows"].([]any)
	out := make([]map[string]any, len(raw))
	for i, r := range raw {
		out[i] = r.(map[string]any)
	}
	return out
}

func authorityOf(row map[string]any, col string) string {
	p, _ := row[col].(map[string]any)
	s, _ := p["authority"].(string)
	return s
}

// A store of the release before provenance opens, reads and replays with
// its old digest and answers, and reads as import (ingest batches) and
// system (the others).
func TestV3StoreReadsWithDefaults(t *testing.T) {
	for _, ro := range []bool{true, false, true} {
		dir := filepath.Join(t.TempDir(), "memory")
		copyTree(t, filepath.Join("testdata", "v3-stores", "memory"), dir)
		db, err := quietOpen(dir, nil, Options{ReadOnly: ro})
		if err != nil {
			t.Fatal(err)
		}
		if got := db.Digest(); got != v3Digest {
			t.Fatalf("read-only %v: digest %s, want %s", ro, got, v3Digest)
		}
		env, err := db.Call(context.Background(), "entity_history", map[string]any{"uid": "dana"})
		if err != nil {
			t.Fatal(err)
		}
		if env.ResultDigest != v3HistoryDigest {
			t.Fatalf("entity_history answer changed: %s, want %s", env.ResultDigest, v3HistoryDigest)
		}
		for _, r := range rowsOf(t, env.Result) {
			if _, has := r["provenance"]; has {
				t.Fatalf("a row of a batch without stated provenance shows one unasked: %v", r)
			}
		}
		res := call(t, db, "version_history", map[string]any{"kind": "edge", "window": map[string]any{"t_a": int64(0), "t_b": int64(bt.OpenEnd)}, "belief": "all", "provenance": true})
		byRel := map[string]string{}
		for _, r := range rowsOf(t, res) {
			byRel[r["rel_type"].(string)] += authorityOf(r, "provenance") + " "
			if p := r["provenance"].(map[string]any); p["derived"] != true {
				t.Fatalf("old row not marked derived: %v", r)
			}
		}
		want := map[string]string{"MSG": "import import ", "VISITS": "import ", "WORKS_AT": "system system "}
		for k, v := range want {
			if byRel[k] != v {
				t.Fatalf("authorities by rel type %v, want %v", byRel, want)
			}
		}
		res = call(t, db, "version_history", map[string]any{"kind": "edge", "window": map[string]any{"t_a": int64(0), "t_b": int64(bt.OpenEnd)}, "belief": "all", "authority": []any{"import"}, "provenance": true})
		for _, r := range rowsOf(t, res) {
			if authorityOf(r, "provenance") != "import" {
				t.Fatalf("authority filter kept %v", r)
			}
			if r["rel_type"] == "MSG" && !strings.HasPrefix(r["provenance"].(map[string]any)["source"].(string), "sha256=0123") {
				t.Fatalf("ingest row without its source: %v", r)
			}
		}
		if n := len(rowsOf(t, res)); n != 3 {
			t.Fatalf("import rows %d, want 3", n)
		}
		db.Close()
	}
}

// Provenance stated by a batch is stored with every version it writes and
// closes, shown in history rows, covered by the digest, and survives
// reopening from the log alone, from a checkpoint, and replay.
func TestWriteBatchProvenance(t *testing.T) {
	dir := t.TempDir()
	db := open(t, dir, nil)
	user := &bt.Provenance{Authority: bt.AuthUser, Actor: "dana@example.org", Ref: "msg-17", Source: "chat"}
	model := &bt.Provenance{Authority: bt.AuthModel, Actor: "agent-3", Note: "inferred from the calendar"}
	props := func(s string) bt.Props { p, _ := bt.ParseProps([]byte(s)); return p }
	if _, err := db.WriteBatch(bt.Batch{Prov: user, Ops: []bt.Op{bt.AssertNode("dana", "Person", props(`{"office":"Paris"}`), bt.Interval{Start: 10, End: bt.OpenEnd})}}); err != nil {
		t.Fatal(err)
	}
	before := db.Digest()
	if _, err := db.WriteBatch(bt.Batch{Prov: model, Override: true, Ops: []bt.Op{bt.Correct(bt.NodeRef("dana"), props(`{"office":"Berlin"}`), bt.Interval{Start: 20, End: bt.OpenEnd})}}); err != nil {
		t.Fatal(err)
	}
	check := func(db *DB, what string) {
		res := call(t, db, "version_history", map[string]any{"kind": "node", "window": map[string]any{"t_a": int64(0), "t_b": int64(bt.OpenEnd)}, "belief": "all"})
		var got []string
		for _, r := range rowsOf(t, res) {
			got = append(got, authorityOf(r, "provenance")+">"+authorityOf(r, "closed_provenance"))
		}
		want := "user>model model> model>"
		if strings.Join(got, " ") != want {
			t.Fatalf("%s: rows (created>closed) %q, want %q", what, strings.Join(got, " "), want)
		}
		res = call(t, db, "entity_history", map[string]any{"uid": "dana", "authority": []any{"model"}})
		rows := rowsOf(t, res)
		if len(rows) != 2 || rows[0]["provenance"].(map[string]any)["actor"] != "agent-3" {
			t.Fatalf("%s: entity_history for authority model: %v", what, rows)
		}
	}
	check(db, "written")
	digest := db.Digest()
	if digest == before {
		t.Fatal("the digest does not cover the second batch")
	}
	db.Close()

	// The same ops without provenance have another digest: it is hashed.
	plain := open(t, t.TempDir(), nil)
	plain.Write(bt.AssertNode("dana", "Person", props(`{"office":"Paris"}`), bt.Interval{Start: 10, End: bt.OpenEnd}))
	plain.Write(bt.Correct(bt.NodeRef("dana"), props(`{"office":"Berlin"}`), bt.Interval{Start: 20, End: bt.OpenEnd}))
	if plain.Digest() == digest {
		t.Fatal("provenance is not covered by the digest")
	}
	plain.Close()

	// From a checkpoint, then from the log alone.
	db = open(t, dir, nil)
	check(db, "from the checkpoint")
	if db.Digest() != digest {
		t.Fatal("digest changed through the checkpoint")
	}
	db.Close()
	os.Remove(filepath.Join(dir, CheckpointFile))
	db = open(t, dir, nil)
	check(db, "from the log")
	if db.Digest() != digest {
		t.Fatal("digest changed through replay of the log")
	}
	db.Close()

	// Replay of the log into a new store keeps it.
	copyDir := filepath.Join(t.TempDir(), "copy")
	cp := open(t, copyDir, nil)
	err := eventlog.ReadFile(filepath.Join(dir, LogFile), func(r *eventlog.Record, _ int64) error {
		return cp.WriteRecordAt(r.TT, r.Source, bt.Batch{Ops: r.Ops, Prov: r.Prov, Override: r.Override})
	})
	if err != nil {
		t.Fatal(err)
	}
	check(cp, "replayed")
	if cp.Digest() != digest {
		t.Fatal("digest changed through replay into a new store")
	}
	cp.Close()
}

// Stating the default provenance is the same as stating none.
func TestStatedDefaultIsDefault(t *testing.T) {
	a, b := open(t, t.TempDir(), nil), open(t, t.TempDir(), nil)
	defer a.Close()
	defer b.Close()
	ops := []bt.Op{bt.AssertNode("x", "", "", bt.Always)}
	a.Write(ops...)
	b.WriteBatch(bt.Batch{Ops: ops, Prov: &bt.Provenance{Authority: bt.AuthSystem}})
	if a.Digest() != b.Digest() {
		t.Fatal("a stated default changed the digest")
	}
	row := rowsOf(t, call(t, b, "entity_history", map[string]any{"uid": "x"}))[0]
	if _, has := row["provenance"]; has {
		t.Fatalf("stated default shown as stated: %v", row)
	}
}
