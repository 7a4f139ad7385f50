package tgms_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tgms "github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
)

// Strings written about the erased node; none may survive an erase.
var erasedStrings = []string{"SecretPersonLabel", "Dana Quuxley", "Berlinzyx", "Dana Aliasqwerty", "EdgeSecretXyz", "IngestSecretPpp", "CorrectedEdgeSecret"}

// Strings about others; every one must survive (so the scan can fail).
var keptStrings = []string{"Bob Keepme", "KeepEdgeAbc", "KeepIngestMno"}

func props(t *testing.T, m map[string]any) bt.Props {
	t.Helper()
	p, err := bt.NewProps(m)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// eraseStore writes a store with a node to erase ("dana"), touched by
// every kind of op, and others that stay.
func eraseStore(t *testing.T, dir string) {
	t.Helper()
	clock := bt.Time(1_700_000_000_000_000)
	db, err := tgms.Open(dir, &tgms.Options{NoSync: true, Clock: func() bt.Time { clock += 1000; return clock }})
	if err != nil {
		t.Fatal(err)
	}
	const y2020, y2021, y2022 = 1577836800000000, 1609459200000000, 1640995200000000
	knows := bt.EdgeKey{Src: "dana", Dst: "bob", RelType: "KNOWS", Disc: "k"}
	batches := [][]bt.Op{
		{
			bt.AssertNode("dana", "SecretPersonLabel", props(t, map[string]any{"name": "Dana Quuxley", "city": "Berlinzyx"}), bt.Interval{Start: y2020, End: bt.OpenEnd}),
			bt.AssertNode("bob", "Person", props(t, map[string]any{"name": "Bob Keepme"}), bt.Interval{Start: y2020, End: bt.OpenEnd}),
			bt.AssertNode("carol", "Person", "", bt.Interval{Start: y2020, End: bt.OpenEnd}),
		},
		{bt.Correct(bt.NodeRef("dana"), props(t, map[string]any{"name": "Dana Aliasqwerty"}), bt.Interval{Start: y2021, End: y2022})},
		{
			bt.AssertEdge(knows, props(t, map[string]any{"note": "EdgeSecretXyz"}), bt.Interval{Start: y2021, End: bt.OpenEnd}),
			bt.AssertEdge(bt.EdgeKey{Src: "bob", Dst: "carol", RelType: "KNOWS", Disc: "k"}, props(t, map[string]any{"note": "KeepEdgeAbc"}), bt.Interval{Start: y2021, End: bt.OpenEnd}),
		},
		{bt.Correct(bt.EdgeRef(knows), props(t, map[string]any{"note": "CorrectedEdgeSecret"}), bt.Interval{Start: y2021, End: y2022})},
		{bt.Ingest([]bt.Event{
			{Src: "dana", Dst: "carol", RelType: "MSG", VtS: y2021 + 5, Props: props(t, map[string]any{"text": "IngestSecretPpp"})},
			{Src: "bob", Dst: "carol", RelType: "MSG", VtS: y2021 + 6, Props: props(t, map[string]any{"text": "KeepIngestMno"})},
		}, "Person")},
		{bt.Retract(bt.NodeRef("dana"), y2022+10)},
	}
	for i, b := range batches {
		if _, err := db.Write(b...); err != nil {
			t.Fatalf("batch %d: %v", i, err)
		}
		if i == 2 {
			if err := db.Checkpoint(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// scanStore returns every file under dir and its bytes.
func scanStore(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func find(files map[string][]byte, s string) []string {
	var at []string
	for p, b := range files {
		if bytes.Contains(b, []byte(s)) {
			at = append(at, filepath.Base(p))
		}
	}
	return at
}

func TestEraseRemovesEveryByte(t *testing.T) {
	dir := t.TempDir()
	eraseStore(t, dir)
	before := scanStore(t, dir)
	for _, s := range append(erasedStrings, keptStrings...) {
		if len(find(before, s)) == 0 {
			t.Fatalf("%q is not in the store before the erase: the test store is wrong", s)
		}
	}
	db, err := tgms.Open(dir, &tgms.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := db.Erase("dana", true)
	if err != nil {
		t.Fatal(err)
	}
	if res.NodeVersions < 3 || res.EdgeVersions < 3 || res.Records < 4 {
		t.Errorf("erase result %+v: expected at least 3 node and 3 edge versions, 4 records", res)
	}
	t.Logf("erase: %+v", *res)
	live := db.Digest()
	if live != res.Digest {
		t.Errorf("digest after erase %s, result says %s", live, res.Digest)
	}
	// The erase is a recorded batch: the store's last batch.
	if got := db.Stats().Batches; got != res.Seq {
		t.Errorf("store has %d batches, the erase was batch %d", got, res.Seq)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	after := scanStore(t, dir)
	for _, s := range erasedStrings {
		if at := find(after, s); len(at) > 0 {
			t.Errorf("erased %q is still in %v", s, at)
		}
	}
	for _, s := range keptStrings {
		if len(find(after, s)) == 0 {
			t.Errorf("%q, not erased, is gone", s)
		}
	}
	for p := range after {
		if b := filepath.Base(p); strings.HasPrefix(b, tgms.EraseStage) || b == tgms.EraseCommit {
			t.Errorf("%s left behind", p)
		}
	}
	chk, err := tgms.Check(dir, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !chk.Clean() || chk.Digest != chk.ReplayDigest || chk.Digest != live {
		t.Fatalf("check --full after erase: clean %v, digest %s, replay %s, live %s: %v", chk.Clean(), chk.Digest, chk.ReplayDigest, live, chk.Findings)
	}
	// Reopening from the log alone gives the same digest.
	if err := os.Remove(filepath.Join(dir, tgms.CheckpointFile)); err != nil {
		t.Fatal(err)
	}
	db, err = tgms.OpenReadOnly(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if d := db.Digest(); d != live {
		t.Errorf("replayed digest %s, after erase %s", d, live)
	}
	if got := db.ErasedUIDs(); len(got) != 1 || got[0] != "dana" {
		t.Errorf("erased uids %v", got)
	}
	env, err := db.Call(context.Background(), "entity_history", map[string]any{"uid": "dana"})
	if err != nil {
		t.Fatal(err)
	}
	js, _ := jsonOf(env.Result)
	for _, s := range erasedStrings {
		if strings.Contains(js, s) {
			t.Errorf("entity_history still shows %q", s)
		}
	}
	t.Logf("entity_history: %.600s", js)
	if !strings.Contains(js, "vt_s") {
		t.Errorf("entity_history of an erased node shows no versions: %s", js)
	}
}

func TestEraseRefusals(t *testing.T) {
	dir := t.TempDir()
	eraseStore(t, dir)
	db, err := tgms.Open(dir, &tgms.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	before := scanStore(t, dir)
	if _, err := db.Erase("nobody", true); err == nil || !strings.Contains(err.Error(), `"nobody"`) {
		t.Fatalf("erase of an unknown uid: %v", err)
	}
	if _, err := db.Erase("", false); err == nil {
		t.Fatal("erase of an empty uid succeeded")
	}
	if got := scanStore(t, dir); !sameFiles(got, before) {
		t.Error("a refused erase changed the store's files")
	}
	if _, err := db.Erase("dana", false); err != nil {
		t.Fatal(err)
	}
	mid := scanStore(t, dir)
	_, err = db.Erase("dana", false)
	if !errors.Is(err, bt.ErrNothingToErase) {
		t.Fatalf("second erase: %v", err)
	}
	if got := scanStore(t, dir); !sameFiles(got, mid) {
		t.Error("a refused second erase changed the store's files")
	}
}

func jsonOf(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

func sameFiles(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for p, x := range a {
		if !bytes.Equal(x, b[p]) {
			return false
		}
	}
	return true
}
